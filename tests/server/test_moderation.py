"""Keeping a table civil (protocol.md 2.14), against a real server keeping its records in a
data directory: a mute and a block kept with a player's key across a restart, watchers'
chat marked apart, a watcher sent out for the room's life, a seat taken back before the
start, and a report the operators read before they bar the player."""

from pathlib import Path
from typing import Any

from parlour.cli import main
from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id
from parlour.server import ServerConfig, operators, running_server

from .wsclient import Client

ANN, BOB, ZED = new_key(), new_key(), new_key()


def config(data_dir: Path) -> ServerConfig:
    return ServerConfig(host="127.0.0.1", port=0, data_dir=data_dir, bot_workers=0)


async def room_of(host: Client, game: str = "othello", **fields: Any) -> str:
    seat = {"othello": "black", "tribolo": "blue"}[game]
    made = await host.request(m.CreateRoom(game=game, seat=seat, **fields))
    assert isinstance(made, m.Joined), made
    return str(made.room["room"])


def said(client: Client) -> list[str]:
    """The chat lines a client was sent and kept, as `name: text`."""
    return [f"{line.name}: {line.text}" for line in client.inbox if isinstance(line, m.ChatLine)]


async def chat_heard(client: Client, room: str, text: str) -> m.ChatLine:
    """`client` says `text` in the room, and hears it back."""
    assert isinstance(await client.request(m.Chat(room=room, text=text)), m.Ok)
    line = await client.expect(lambda msg: isinstance(msg, m.ChatLine) and msg.text == text)
    assert isinstance(line, m.ChatLine)
    return line


async def test_a_muted_watcher_is_not_heard_and_the_mute_outlives_a_restart(
    tmp_path: Path,
) -> None:
    async with running_server(config(tmp_path)) as server:
        ann = await Client.open(server.port, "Ann", key=ANN)
        bob = await Client.open(server.port, "Bob", key=BOB)
        zed = await Client.open(server.port, "Zed", key=ZED)
        room = await room_of(ann, public=True)
        assert isinstance(await bob.request(m.Join(room=room, seat="white")), m.Joined)
        watching = await zed.request(m.Spectate(room=room))
        assert isinstance(watching, m.Watching)
        shown = await ann.expect(
            lambda msg: isinstance(msg, m.RoomView) and bool(msg.room["watchers"])
        )
        assert isinstance(shown, m.RoomView)
        assert shown.room["watchers"] == [{"name": "Zed", "player": player_id(ZED)}]
        muted = await ann.request(m.Mute(name="Zed", player=player_id(ZED)))
        assert isinstance(muted, m.Ok)
        line = await chat_heard(zed, room, "you all stink")
        assert (line.watching, line.player, line.seat) == (True, player_id(ZED), None)
        heard = await bob.expect(lambda msg: isinstance(msg, m.ChatLine))
        assert isinstance(heard, m.ChatLine) and heard.watching, "Bob has not muted Zed"
        await chat_heard(bob, room, "good luck")
        await ann.expect(lambda msg: isinstance(msg, m.ChatLine) and msg.text == "good luck")
        assert "Zed: you all stink" not in said(ann), "Ann muted Zed: his line never came"
        for client in (ann, bob, zed):
            await client.close()
    async with running_server(config(tmp_path)) as again:
        ann = await Client.open(again.port, "Ann", key=ANN)
        assert ann.welcome is not None
        assert ann.welcome.muted == [{"name": "Zed", "player": player_id(ZED)}]
        assert ann.welcome.blocked == []
        assert isinstance(
            await ann.request(m.Mute(name="Zed", player=player_id(ZED), on=False)), m.Ok
        )
        yourself = await ann.request(m.Mute(name="Ann", player=player_id(ANN)))
        assert isinstance(yourself, m.Error) and yourself.code == "bad_field"
        await ann.close()
        ann = await Client.open(again.port, "Ann", key=ANN)
        assert ann.welcome is not None and ann.welcome.muted == []
        await ann.close()


async def test_a_blocked_player_may_not_sit_where_the_blocker_hosts_or_sits(
    tmp_path: Path,
) -> None:
    async with running_server(config(tmp_path)) as server:
        ann = await Client.open(server.port, "Ann", key=ANN)
        bob = await Client.open(server.port, "Bob", key=BOB)
        zed = await Client.open(server.port, "Zed", key=ZED)
        assert isinstance(await ann.request(m.Block(name="Zed", player=player_id(ZED))), m.Ok)
        hosted = await room_of(ann)
        refused = await zed.request(m.Join(room=hosted, seat="white"))
        assert isinstance(refused, m.Error) and refused.code == "blocked"
        by_seat = await zed.request(m.Spectate(room=hosted))
        assert isinstance(by_seat, m.Watching), "a block keeps Zed out of the seats alone"
        taken = await zed.request(m.SetSeat(room=hosted, seat="white", holder="human"))
        assert isinstance(taken, m.Error) and taken.code == "blocked"
        # Bob hosts, Ann sits: Zed may not sit there either; Bob may.
        bobs = await room_of(bob, "tribolo")
        assert isinstance(await ann.request(m.Join(room=bobs, seat="red")), m.Joined)
        late = await zed.request(m.Join(room=bobs))
        assert isinstance(late, m.Error) and late.code == "blocked"
        for client in (ann, bob, zed):
            await client.close()
    async with running_server(config(tmp_path)) as again:
        ann = await Client.open(again.port, "Ann", key=ANN)
        zed = await Client.open(again.port, "Zed", key=ZED)
        assert ann.welcome is not None
        assert ann.welcome.blocked == [{"name": "Zed", "player": player_id(ZED)}]
        room = await room_of(ann)
        refused = await zed.request(m.Join(room=room, seat="white"))
        assert isinstance(refused, m.Error) and refused.code == "blocked", "kept over a restart"
        await ann.close()
        await zed.close()


async def test_the_host_sends_a_watcher_out_and_takes_a_seat_back_before_the_start(
    tmp_path: Path,
) -> None:
    async with running_server(config(tmp_path)) as server:
        ann = await Client.open(server.port, "Ann", key=ANN)
        bob = await Client.open(server.port, "Bob", key=BOB)
        zed = await Client.open(server.port, "Zed")
        room = await room_of(ann, public=True)
        assert isinstance(await bob.request(m.Join(room=room, seat="white")), m.Joined)
        assert isinstance(await zed.request(m.Spectate(room=room)), m.Watching)
        not_host = await bob.request(m.RemoveWatcher(room=room, name="Zed"))
        assert isinstance(not_host, m.Error) and not_host.code == "not_host"
        assert isinstance(await ann.request(m.RemoveWatcher(room=room, name="zed")), m.Ok)
        removed = await zed.expect(lambda msg: isinstance(msg, m.Removed))
        assert removed == m.Removed(room=room)
        again = await ann.request(m.RemoveWatcher(room=room, name="Zed"))
        assert isinstance(again, m.Ok), "sent again: ok, nothing more"
        for request in (m.Spectate(room=room), m.Join(room=room, seat="white")):
            refused = await zed.request(request)
            assert isinstance(refused, m.Error) and refused.code == "removed"
        view = await ann.request(m.GetRoom(room=room))
        assert isinstance(view, m.RoomView) and view.room["watchers"] == []
        nobody = await ann.request(m.RemoveWatcher(room=room, name="Nobody"))
        assert isinstance(nobody, m.Error) and nobody.code == "not_in_room"
        # Before the start the host opens Bob's seat; Bob watches, and is told.
        opened = await ann.request(m.SetSeat(room=room, seat="white", holder="open"))
        assert isinstance(opened, m.Ok)
        told = await bob.expect(lambda msg: isinstance(msg, m.SeatChanged))
        assert told == m.SeatChanged(room=room, seat="white")
        view = await bob.request(m.GetRoom(room=room))
        assert isinstance(view, m.RoomView)
        assert view.room["you"] is None and view.room["seats"][1]["holder"]["kind"] == "open"
        assert view.room["watchers"] == [{"name": "Bob", "player": player_id(BOB)}]
        # Seated again and started, the seat is Bob's for good.
        assert isinstance(await bob.request(m.Join(room=room, seat="white")), m.Joined)
        assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
        late = await ann.request(m.SetSeat(room=room, seat="white", holder="open"))
        assert isinstance(late, m.Error) and late.code == "seat_taken"
        for client in (ann, bob, zed):
            await client.close()
    async with running_server(config(tmp_path)) as restarted:
        zed = await Client.open(restarted.port, "Zed")
        refused = await zed.request(m.Spectate(room=room))
        assert isinstance(refused, m.Error) and refused.code == "removed", "kept as a record"
        await zed.close()


async def test_a_report_keeps_the_chat_and_game_and_the_operators_bar_the_player(
    tmp_path: Path, capsys: Any
) -> None:
    async with running_server(config(tmp_path)) as server:
        ann = await Client.open(server.port, "Ann", key=ANN)
        zed = await Client.open(server.port, "Zed", key=ZED)
        room = await room_of(ann, public=True)
        assert isinstance(await zed.request(m.Spectate(room=room)), m.Watching)
        await chat_heard(zed, room, "you all stink")
        report_zed = m.Report(
            room=room, name="Zed", reason="insults the players from the watchers"
        )
        for _ in range(2):  # the second sent again, as after `unavailable`: kept once
            assert isinstance(await ann.request(report_zed), m.Ok)
        outside = await Client.open(server.port, "Cy")
        refused = await outside.request(m.Report(room=room, name="Zed", reason="heard it"))
        assert isinstance(refused, m.Error) and refused.code == "not_in_room"
        (report,) = operators.reports(tmp_path, None, 10)
        assert report["person"] == player_id(ZED) and report["by_name"] == "Ann"
        assert report["reason"] == "insults the players from the watchers"
        assert [(line["name"], line["text"]) for line in report["chat"]] == [
            ("Zed", "you all stink")
        ]
        assert report["chat"][0]["watching"] is True
        assert '[Game "othello"]' in report["record"]
        assert main(["reports", "--data-dir", str(tmp_path)]) == 0
        printed = capsys.readouterr().out
        assert "Ann" in printed and "insults the players" in printed and "you all stink" in printed
        assert (
            main(["bar", player_id(ZED), "--data-dir", str(tmp_path), "--reason", "insults"]) == 0
        )
        barred = await Client.open(server.port, "Zed", greet=False)
        answer = await barred.request(m.Hello(version=1, name="Zed", key=ZED))
        assert isinstance(answer, m.Error) and answer.code == "barred"
        assert "insults" in answer.message
        as_guest = await barred.request(m.Hello(version=1, name="Zed2"))
        assert isinstance(as_guest, m.Welcome), "the connection may say hello without the key"
        assert main(["bar", ZED, "--lift", "--data-dir", str(tmp_path)]) == 0
        back = await Client.open(server.port, "Zed", key=ZED)
        assert back.welcome is not None and back.welcome.player is not None, "let in again"
        assert main(["bar", "nobody", "--data-dir", str(tmp_path)]) == 2
        for client in (ann, zed, outside, barred, back):
            await client.close()
