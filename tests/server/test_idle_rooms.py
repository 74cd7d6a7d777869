"""Rooms nobody is in: bots wait, public rooms leave the lobby's list (finished ones close,
the rest wait for their people), and every room closes in the end; and what the lobby
shows of who is in a room and when it last moved."""

import asyncio
import time
from typing import Any

from parlour.protocol import messages as m
from parlour.server import Limits, ServerConfig, running_server
from parlour.server.records import restore_room, room_record
from parlour.server.room import Holder, Status

from .test_lobby import Table, answer
from .wsclient import Client

UNIX = 1_700_000_000.0


def listed(table: Table) -> list[str]:
    rooms = answer(table.lobby.handle(5, m.ListRooms()), 5).rooms
    return [str(room["room"]) for room in rooms]


def playing_with_bots(table: Table, conn: int = 1, board: int = 7) -> tuple[str, m.Joined]:
    """A started Tribolo room: the host `conn` (Ann for 1) blue, bots red and green."""
    host = table.create(conn, board=board)
    room = str(host.room["room"])
    table.lobby.handle(conn, m.FillBots(room=room))
    assert isinstance(answer(table.lobby.handle(conn, m.Start(room=room)), conn), m.Ok)
    return room, host


def test_bots_wait_while_nobody_is_in_the_room_and_play_on_when_someone_comes() -> None:
    table = Table()
    room, _ = playing_with_bots(table)
    (turn,) = table.lobby.bot_turns()
    table.lobby.disconnect(1)
    assert table.lobby.play_bot(turn, "e3") == [], "a move already searched is played"
    assert table.lobby.rooms[room].version == 1
    assert table.lobby.bot_turns() == [], "green waits: nobody would see it move"
    table.clock.now += 120
    table.lobby.tick()  # no stand-in comes for blue: every other seat is a computer's
    assert table.lobby.rooms[room].seats[0].holder is Holder.HUMAN
    assert table.lobby.bot_turns() == []
    table.lobby.handle(2, m.Spectate(room=room))
    (green,) = table.lobby.bot_turns()
    assert (green.colour, green.version) == ("green", 1)


def test_computers_play_while_people_watch_and_for_a_person_who_is_there() -> None:
    table = Table()
    room = str(table.create(seat=None).room["room"])
    table.lobby.handle(1, m.FillBots(room=room))
    table.lobby.handle(1, m.Start(room=room))
    (turn,) = table.lobby.bot_turns()
    table.lobby.handle(2, m.Spectate(room=room))
    table.lobby.disconnect(1)
    table.lobby.play_bot(turn, "e3")
    (turn,) = table.lobby.bot_turns()
    assert turn.colour == "green", "a watcher is enough"

    mine, _ = playing_with_bots(table, board=8, conn=3)
    table.lobby.handle(3, m.SetSeat(room=mine, seat="blue", holder="bot"))
    held = table.lobby.rooms[mine]
    assert held.seats[0].holder is Holder.BOT and held.seats[0].token is not None
    assert any(turn.room == mine for turn in table.lobby.bot_turns())


def test_a_public_room_left_empty_leaves_the_list_and_waits_for_its_people() -> None:
    table = Table()
    room, host = playing_with_bots(table)
    table.lobby.bot_turns()
    table.lobby.disconnect(1)
    table.lobby.take_unsaved()
    table.clock.now += 9
    table.lobby.tick()
    assert listed(table) == [room]
    table.clock.now += 1
    table.lobby.tick()
    assert listed(table) == []
    held = table.lobby.rooms[room]
    assert held.dormant and held.status is Status.PLAYING
    assert [kept.id for kept in table.lobby.take_unsaved().rooms] == [room], (
        "written again, so that a cluster takes it out of its list"
    )
    table.clock.now += 200
    table.lobby.tick()
    table.lobby.handle(6, m.Hello(version=1, name="Ann"))
    back = table.join(6, room, token=host.token)
    assert back.seat == "blue" and back.host
    assert listed(table) == [room]
    (turn,) = table.lobby.bot_turns()
    assert turn.colour == "red"


def test_rooms_nobody_is_in_leave_the_list_within_seconds_whatever_is_left_in_them() -> None:
    table = Table()
    for conn, name in ((6, "Fay"), (7, "Gus")):
        table.lobby.handle(conn, m.Hello(version=1, name=name))
    waiting = str(table.create(1).room["room"])
    table.lobby.handle(1, m.Leave(room=waiting))
    computers, _ = playing_with_bots(table, conn=2, board=8)
    table.lobby.handle(2, m.Leave(room=computers, give_up=True))
    standins = str(table.create(3, seat="red", standin_after=5).room["room"])
    table.lobby.handle(3, m.FillBots(room=standins))
    table.lobby.handle(3, m.Start(room=standins))
    table.lobby.disconnect(3)
    watched, _ = playing_with_bots(table, conn=4, board=9)
    table.lobby.handle(5, m.Spectate(room=watched))
    table.lobby.disconnect(4)
    reloaded = table.create(6, board=10)
    table.lobby.disconnect(6)
    table.clock.now += 5
    table.lobby.tick()
    assert table.lobby.rooms[standins].seats[1].holder is Holder.HUMAN, "against computers"
    table.join(7, str(reloaded.room["room"]), token=reloaded.token)
    table.clock.now += 4.9
    table.lobby.tick()
    everyone = {waiting, computers, standins, watched, str(reloaded.room["room"])}
    assert set(listed(table)) == everyone
    table.clock.now += 0.1
    table.lobby.tick()
    assert set(listed(table)) == {watched, str(reloaded.room["room"])}, (
        "the rooms nobody is in have left the list; a watcher or a reload keeps one in it"
    )
    table.lobby.handle(1, m.Spectate(room=computers))
    assert computers in listed(table), "listed again as soon as anyone is in it"


def test_a_finished_public_room_left_empty_is_closed_with_its_game_counted() -> None:
    table = Table()
    room = str(table.create(game="othello", seat="black", options={}).room["room"])
    table.lobby.handle(1, m.SetSeat(room=room, seat="white", holder="bot"))
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    while held.status is Status.PLAYING:
        assert held.state is not None
        text = held.state.format_move(held.state.legal_moves()[0])
        turns = table.lobby.bot_turns()
        if turns:
            table.lobby.play_bot(turns[0], text)
        else:
            table.lobby.handle(1, m.Move(room=room, version=held.version, move=text))
    assert [result.room for result in table.lobby.take_unsaved().results] == [room]
    table.lobby.disconnect(1)
    table.clock.now += 299
    table.lobby.tick()
    assert room in table.lobby.rooms
    table.clock.now += 1
    table.lobby.tick()
    assert room not in table.lobby.rooms
    assert table.lobby.take_unsaved().closed == [room]


def test_every_room_nobody_comes_back_to_closes_after_ten_minutes() -> None:
    table = Table(Limits())
    public, _ = playing_with_bots(table)
    private = table.create(2, public=False)
    assert private.code is not None
    table.lobby.disconnect(1)
    table.lobby.disconnect(2)
    table.clock.now += 300
    table.lobby.tick()
    assert {public, private.room["room"]} <= set(table.lobby.rooms)
    assert table.lobby.rooms[private.room["room"]].dormant is False
    table.clock.now += 300
    table.lobby.tick()
    assert table.lobby.rooms == {}
    table.lobby.handle(6, m.Hello(version=1, name="Bob"))
    gone = answer(table.lobby.handle(6, m.Join(room=private.code, token=private.token)), 6)
    assert isinstance(gone, m.Error) and gone.code == "no_such_room"


def test_summaries_say_how_many_people_are_in_and_when_the_room_last_moved() -> None:
    table = Table()
    table.lobby.services.wall = lambda: UNIX + table.clock.now
    host = table.create()
    room = str(host.room["room"])
    created = int(UNIX + table.clock.now)
    (summary,) = answer(table.lobby.handle(5, m.ListRooms()), 5).rooms
    assert (summary["people"], summary["moved_at"]) == (1, created)
    table.join(2, room, seat="red")
    table.join(1, room, seat="green")  # a second seat at Ann's screen: still one person
    table.lobby.handle(3, m.Spectate(room=room))
    table.lobby.take_unsaved()
    table.lobby.handle(4, m.Spectate(room=room))
    assert [kept.id for kept in table.lobby.take_unsaved().rooms] == [room], (
        "a watcher more changes the summary: a cluster writes it again"
    )
    (summary,) = answer(table.lobby.handle(5, m.ListRooms()), 5).rooms
    assert (summary["people"], summary["moved_at"]) == (4, created)
    table.lobby.handle(1, m.Start(room=room))
    table.clock.now += 75.6
    assert isinstance(
        answer(table.lobby.handle(2, m.Move(room=room, version=0, move="e3")), 2), m.Ok
    )
    table.lobby.disconnect(3)
    table.lobby.handle(4, m.Leave(room=room))
    (summary,) = answer(table.lobby.handle(5, m.ListRooms()), 5).rooms
    assert (summary["people"], summary["moved_at"]) == (2, int(UNIX + table.clock.now))
    view = answer(table.lobby.handle(1, m.GetRoom(room=room)), 1).room
    assert view["people"] == 2 and view["moved_at"] == summary["moved_at"]


def test_alike_rooms_are_told_apart_by_who_is_in_them_and_when_they_were_made() -> None:
    table = Table()
    table.lobby.services.wall = lambda: UNIX + table.clock.now
    first = str(table.create(1, seat="red").room["room"])
    table.clock.now += 90
    second = str(table.create(2, seat="red").room["room"])
    summaries = {
        room["room"]: room for room in answer(table.lobby.handle(5, m.ListRooms()), 5).rooms
    }
    made = int(UNIX + 1000)
    assert summaries[first]["created_at"] == made
    assert summaries[second]["created_at"] == made + 90
    assert summaries[first]["host"] == "Ann" and summaries[second]["host"] == "Bob"
    seats = {seat["colour"]: seat["holder"] for seat in summaries[second]["seats"]}
    assert seats["red"]["name"] == "Bob"
    table.lobby.handle(2, m.FillBots(room=second))
    table.lobby.handle(2, m.Start(room=second))
    table.clock.now += 30
    assert isinstance(
        answer(table.lobby.handle(2, m.Move(room=second, version=0, move="e3")), 2), m.Ok
    )
    view = answer(table.lobby.handle(2, m.GetRoom(room=second)), 2).room
    assert view["created_at"] == made + 90 and view["moved_at"] == made + 120
    kept = restore_room(room_record(table.lobby.rooms[second]), table.clock.now)
    assert kept.summary()["created_at"] == made + 90


async def rooms_listed(client: Client) -> dict[str, dict[str, Any]]:
    rooms = await client.request(m.ListRooms())
    assert isinstance(rooms, m.Rooms)
    return {str(room["room"]): room for room in rooms.rooms}


async def test_over_a_socket_an_abandoned_game_leaves_the_lobby_and_resumes_with_its_token() -> (
    None
):
    limits = Limits(unlist_after=0.5, idle_close=60.0)
    config = ServerConfig(tick_interval=0.05, bot_workers=1, bot_pause=0.0, limits=limits)
    async with running_server(config) as server:
        host = await Client.open(server.port, "Ann")
        made = await host.request(m.CreateRoom(game="tribolo", seat=None, board=7))
        assert isinstance(made, m.Joined)
        room = str(made.room["room"])
        assert isinstance(await host.request(m.FillBots(room=room)), m.Ok)
        lister = await Client.open(server.port, "Lou")
        (summary,) = (await rooms_listed(lister)).values()
        assert summary["people"] == 1 and abs(summary["moved_at"] - time.time()) < 5
        assert isinstance(await host.request(m.Start(room=room)), m.Ok)
        await host.update(2)
        await host.close()
        async with asyncio.timeout(10):
            while room in await rooms_listed(lister):
                await asyncio.sleep(0.1)
        stopped = server.lobby.rooms[room].version
        await asyncio.sleep(0.5)
        assert server.lobby.rooms[room].version == stopped, "nobody watches: the bots wait"
        back = await Client.open(server.port, "Ann")
        again = await back.request(m.Join(room=room, token=made.token))
        assert isinstance(again, m.Joined) and again.host
        assert (await rooms_listed(lister))[room]["people"] == 1
        await back.update(stopped + 1)
        for client in (back, lister):
            await client.close()
