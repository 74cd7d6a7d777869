"""Keeping a table civil across a cluster (protocol.md 2.14): a mute and a block made on one
node hold for a room another node owns, a watcher sent out stays out through any node, and
a report filed on one node is read, and its player barred, over the cluster's Redis."""

import asyncio

import pytest

from parlour.cli import main
from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id

from ..server.wsclient import Client
from .conftest import StartNode, start_nodes
from .processes import RedisProcess

ANN, BOB, ZED = new_key(), new_key(), new_key()


async def test_mutes_blocks_removals_reports_and_bars_hold_across_nodes(
    start: StartNode, redis_server: RedisProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = await start_nodes(start, 2)
    ann = await Client.open(first.port, "Ann", key=ANN)
    bob = await Client.open(second.port, "Bob", key=BOB)
    zed = await Client.open(second.port, "Zed", key=ZED)
    made = await ann.request(m.CreateRoom(game="tribolo", seat="blue", public=True))
    assert isinstance(made, m.Joined)
    room = str(made.room["room"])

    # Ann (first node) blocks Zed (second node): he may not sit in her room.
    assert isinstance(await ann.request(m.Block(name="Zed", player=player_id(ZED))), m.Ok)
    refused = await zed.request(m.Join(room=room, seat="red"))
    assert isinstance(refused, m.Error) and refused.code == "blocked", refused
    assert isinstance(await bob.request(m.Join(room=room, seat="red")), m.Joined)

    # Bob mutes Zed; Zed watches and chats: Ann and Bob never hear him, nor does a new
    # connection of Bob's on the first node.
    assert isinstance(await bob.request(m.Mute(name="Zed", player=player_id(ZED))), m.Ok)
    bob_too = await Client.open(first.port, "Bob", key=BOB)
    assert bob_too.welcome is not None
    assert bob_too.welcome.muted == [{"name": "Zed", "player": player_id(ZED)}]
    assert isinstance(await bob_too.request(m.Spectate(room=room)), m.Watching)
    assert isinstance(await zed.request(m.Spectate(room=room)), m.Watching)
    assert isinstance(await zed.request(m.Chat(room=room, text="you all stink")), m.Ok)
    heard = await zed.expect(lambda msg: isinstance(msg, m.ChatLine))
    assert isinstance(heard, m.ChatLine) and heard.watching
    assert isinstance(await ann.request(m.Chat(room=room, text="hello all")), m.Ok)
    for reader in (ann, bob, bob_too):
        await reader.expect(lambda msg: isinstance(msg, m.ChatLine) and msg.text == "hello all")
        lines = [msg.text for msg in reader.inbox if isinstance(msg, m.ChatLine)]
        assert "you all stink" not in lines, "muted or blocked: never sent"

    # Ann reports Zed, and sends him out; he stays out through either node.
    report_zed = m.Report(room=room, name="Zed", reason="rude to the players")
    for _ in range(2):  # the second sent again, as after `unavailable`: kept once
        assert isinstance(await ann.request(report_zed), m.Ok)
    assert isinstance(await ann.request(m.RemoveWatcher(room=room, name="Zed")), m.Ok)
    assert await zed.expect(lambda msg: isinstance(msg, m.Removed)) == m.Removed(room=room)
    elsewhere = await Client.open(first.port, "Zed", key=ZED)
    out = await elsewhere.request(m.Spectate(room=room))
    assert isinstance(out, m.Error) and out.code == "removed"

    # The operators read the report and bar Zed over Redis; his next hello is refused.
    url = redis_server.url
    assert await asyncio.to_thread(main, ["reports", "--redis", url]) == 0
    printed = capsys.readouterr().out
    assert "rude to the players" in printed and "you all stink" in printed
    assert printed.count("rude to the players") == 1
    barring = ["bar", player_id(ZED), "--redis", url, "--reason", "rudeness"]
    assert await asyncio.to_thread(main, barring) == 0
    for node in (first, second):
        barred = await Client.open(node.port, "Zed", greet=False)
        answer = await barred.request(m.Hello(version=1, name="Zed", key=ZED))
        assert isinstance(answer, m.Error) and answer.code == "barred", answer
        await barred.close()
    for client in (ann, bob, bob_too, zed, elsewhere):
        await client.close()
