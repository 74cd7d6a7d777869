"""Clocks (protocol.md 2.12): Fischer time to the millisecond, lag forgiven from a budget,
the grace before a flag, days per move with a bank, and what a flag does to games of two
and three seats; all on clocks the test turns."""

from pathlib import Path
from typing import Any

import pytest

from parlour.protocol import ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.protocol.timecontrol import DAY_MS, TimeControl, read_time_control
from parlour.server import ServerConfig
from parlour.server.app import ParlourServer
from parlour.server.clocks import GRACE_MS, LAG_BUDGET_MS, LAG_REFILL_MS, MAX_LAG_MS, Clock
from parlour.server.lobby import Lobby
from parlour.server.room import Holder, Room, Status
from parlour.server.store import MEMORY, Store

from .test_lobby import Clock as Ticks
from .test_lobby import answer, error_code, to

UNIX = 1_800_000_000.0
LIVE_3_2 = TimeControl("live", base_s=180, increment_s=2)


# The clock alone.


def test_fischer_time_is_charged_to_the_millisecond_over_a_whole_game() -> None:
    clock = Clock.start(LIVE_3_2, 2, 0, now_ms=0)
    now, expected = 0, [180_000, 180_000]
    thinking = [4_321, 12_007, 999, 61_500, 1, 30_000, 7_777, 2]
    for ply, took in enumerate(thinking):
        seat = ply % 2
        now += took
        assert clock.left_ms(seat, now) == expected[seat] - took
        clock.moved(seat, now, lag_ms=0, to_move=1 - seat)
        expected[seat] += 2_000 - took
        assert clock.remaining_ms == expected
        assert clock.running == 1 - seat and clock.since_ms == now
    assert expected == [
        180_000 - 4_321 - 999 - 1 - 7_777 + 8_000,
        180_000 - 12_007 - 61_500 - 30_000 - 2 + 8_000,
    ]


def test_lag_is_forgiven_up_to_a_second_a_move_from_a_budget_refilled_a_little_a_move() -> None:
    clock = Clock.start(LIVE_3_2, 2, 0, now_ms=0)
    budget = LAG_BUDGET_MS
    now = 0
    for _ in range(4):  # both seats move 5 s apart; seat 0 claims 1.5 s of lag each time
        now += 5_000
        before = clock.remaining_ms[0]
        clock.moved(0, now, lag_ms=1_500, to_move=1)
        forgiven = min(MAX_LAG_MS, budget)
        assert clock.remaining_ms[0] == before - (5_000 - forgiven) + 2_000
        budget = min(LAG_BUDGET_MS, budget - forgiven + LAG_REFILL_MS)
        assert clock.lag_budget_ms[0] == budget
        now += 5_000
        clock.moved(1, now, lag_ms=0, to_move=0)
    assert budget < MAX_LAG_MS, "the budget runs low: a laggy seat is not forgiven forever"
    assert clock.lag_budget_ms[1] == LAG_BUDGET_MS


def test_a_live_clock_flags_its_seat_only_after_the_grace() -> None:
    clock = Clock.start(TimeControl("live", base_s=15), 2, 1, now_ms=1_000)
    deadline = 1_000 + 15_000 + GRACE_MS
    assert clock.deadline_ms() == deadline
    assert clock.out_of_time(deadline - 1) is None
    assert clock.out_of_time(deadline) == 1
    # A move within the grace is taken, at no time left (and the increment, here none).
    clock.moved(1, deadline - 1, lag_ms=0, to_move=0)
    assert clock.remaining_ms[1] == 0 and clock.running == 0


def test_days_per_move_bank_what_is_left_up_to_the_cap() -> None:
    control = read_time_control("time_control", {"kind": "days", "days": 2, "bank_days": 1})
    clock = Clock.start(control, 2, 0, now_ms=0)
    assert clock.deadline_ms() == 2 * DAY_MS
    clock.moved(0, DAY_MS // 2, lag_ms=0, to_move=1)  # 1.5 days unused: 1 day banked
    assert clock.remaining_ms[0] == 3 * DAY_MS
    clock.moved(1, DAY_MS // 2 + 2 * DAY_MS - 1, lag_ms=0, to_move=0)  # all but 1 ms used
    assert clock.remaining_ms[1] == 2 * DAY_MS + 1
    assert clock.deadline_ms() == DAY_MS // 2 + 2 * DAY_MS - 1 + 3 * DAY_MS


@pytest.mark.parametrize(
    "wire",
    [
        {"kind": "live"},
        {"kind": "live", "base_s": 5},
        {"kind": "live", "base_s": 60, "increment_s": -1},
        {"kind": "days", "days": 15},
        {"kind": "days", "days": 3, "base_s": 60},
        {"kind": "blitz"},
        "5+3",
    ],
)
def test_a_time_control_that_is_not_one_is_a_bad_field(wire: Any) -> None:
    with pytest.raises(ProtocolError) as refused:
        read_time_control("time_control", wire)
    assert refused.value.code.value == "bad_field"


# Rooms with clocks.


class Wall(Ticks):
    """Unix seconds the test turns."""


def clocked_lobby(*names: tuple[str, str | None]) -> tuple[Lobby, Wall]:
    wall = Wall(UNIX)
    lobby = Lobby(clock=Ticks(), archive=Store(MEMORY), wall=wall)
    for conn, (name, key) in enumerate(names, start=1):
        welcome = answer(lobby.handle(conn, m.Hello(version=1, name=name, key=key)), conn)
        assert isinstance(welcome, m.Welcome)
    return lobby, wall


def started(lobby: Lobby, game: str, seats: list[str], **fields: Any) -> str:
    """A room of `game` with conn 1, 2, ... in `seats`, started."""
    asked = {"board": 1, **fields}
    joined = answer(lobby.handle(1, m.CreateRoom(game=game, seat=seats[0], **asked)), 1)
    assert isinstance(joined, m.Joined), joined
    room = str(joined.room["room"])
    for conn, colour in enumerate(seats[1:], start=2):
        assert isinstance(
            answer(lobby.handle(conn, m.Join(room=room, seat=colour)), conn), m.Joined
        )
    assert isinstance(answer(lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    return room


def move(lobby: Lobby, room: str) -> list[tuple[int, m.ServerMessage]]:
    """The seat to move plays its first legal move."""
    held = lobby.rooms[room]
    assert held.state is not None
    mover = held.seats[held.state.to_move]
    assert mover.conn is not None
    text = held.state.format_move(held.state.legal_moves()[0])
    told = lobby.handle(mover.conn, m.Move(room=room, version=held.version, move=text))
    assert isinstance(answer(told, mover.conn), m.Ok), told
    return told


def test_a_room_shows_its_clock_and_each_update_charges_the_mover() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None))
    control = {"kind": "live", "base_s": 60, "increment_s": 1}
    room = started(lobby, "othello", ["black", "white"], time_control=control)
    listed = answer(lobby.handle(2, m.ListRooms()), 2)
    assert [summary["time_control"] for summary in listed.rooms] == [control]
    shown = answer(lobby.handle(2, m.GetRoom(room=room)), 2).room
    assert shown["time_control"] == control
    assert shown["clock"] == {
        "control": control,
        "left_ms": {"black": 60_000, "white": 60_000},
        "running": "black",
        "at": int(UNIX * 1000),
    }
    wall.now += 7.25
    told = move(lobby, room)
    update = to(told, 2)[0]
    assert isinstance(update, m.Update)
    assert update.clock == {
        "control": control,
        "left_ms": {"black": 60_000 - 7_250 + 1_000, "white": 60_000},
        "running": "white",
        "at": int((UNIX + 7.25) * 1000),
    }
    wall.now += 2.5
    later = answer(lobby.handle(1, m.GetRoom(room=room)), 1).room["clock"]
    assert later["left_ms"] == {"black": 53_750, "white": 57_500}


def test_a_seat_out_of_time_loses_a_two_seat_game_and_may_not_move_after() -> None:
    ann, bob = new_key(), new_key()
    lobby, wall = clocked_lobby(("Ann", ann), ("Bob", bob))
    control = {"kind": "live", "base_s": 30}
    room = started(lobby, "othello", ["black", "white"], time_control=control)
    for _ in range(3):
        move(lobby, room)  # black, white and black move at once; white's 30 s run
    deadline = lobby.timekeeper.next_deadline()
    assert deadline == UNIX + 30 + GRACE_MS / 1000
    wall.now = deadline - 0.001
    assert lobby.timekeeper.flags_due() == []
    wall.now = deadline
    told = lobby.timekeeper.flags_due()
    view = to(told, 1)[0]
    assert isinstance(view, m.RoomView)
    assert view.room["status"] == "finished" and view.room["flagged"] == ["white"]
    assert view.room["winners"] == ["black"] and view.room["ended"] == "flag"
    assert view.room["clock"]["left_ms"]["white"] == 0 and view.room["clock"]["running"] is None
    # The observation ends as a game played out ends, though the rules would play on.
    shown = view.room["state"]
    assert (shown["over"], shown["winners"], shown["to_move"], shown["legal_moves"]) == (
        True,
        ["black"],
        None,
        [],
    )
    for seen_by in (1, 2):
        again = answer(lobby.handle(seen_by, m.GetRoom(room=room)), seen_by)
        assert again.room["state"]["over"] and again.room["state"]["winners"] == ["black"]
    held = lobby.rooms[room]
    result = lobby.take_unsaved().results[0]
    assert [seat.outcome for seat in result.seats] == ["win", "loss"]
    assert result.rated and result.ranks == [1, 2]
    assert held.rating_changes is not None
    assert held.rating_changes["black"]["after"] > held.rating_changes["white"]["after"]
    over = [entry for entry in held.history.window() if entry["kind"] in ("flagged", "over")]
    assert [entry["kind"] for entry in over] == ["flagged", "over"]
    assert over[0]["seat"] == "white" and over[0]["ends"] and over[1]["winners"] == ["black"]
    assert "white ran out of time" in result.record
    state = held.state
    assert state is not None
    late = m.Move(room=room, version=held.version, move=state.format_move(state.legal_moves()[0]))
    assert error_code(lobby.handle(2, late), 2) == "out_of_time"


def test_a_request_notices_a_flag_before_the_shell_does() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None))
    room = started(
        lobby, "othello", ["black", "white"], time_control={"kind": "live", "base_s": 15}
    )
    move(lobby, room)
    move(lobby, room)
    wall.now += 16.0  # black does not move again; nobody called flags_due
    told = lobby.handle(2, m.Chat(room=room, text="still there?"))
    assert isinstance(answer(told, 2), m.Ok)
    assert lobby.rooms[room].status is Status.FINISHED
    assert lobby.rooms[room].out == {"black": None}


def test_the_other_seat_gets_a_tie_where_it_could_not_have_won() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None))
    hopeless = ".WBBB..B/" + "BBBBBBBB/" * 6 + "BBBBBBWW B"  # black 58, white 3, black to move
    room = started(
        lobby,
        "othello",
        ["black", "white"],
        position=hopeless,
        board=None,
        time_control={"kind": "live", "base_s": 15},
    )
    move(lobby, room)
    move(lobby, room)  # each has moved: white can no longer win
    wall.now += 16.0
    assert lobby.timekeeper.next_deadline() == UNIX + 16.0
    lobby.timekeeper.flags_due()
    held = lobby.rooms[room]
    assert held.status is Status.FINISHED and list(held.out) == ["black"]
    result = lobby.take_unsaved().results[0]
    assert [seat.outcome for seat in result.seats] == ["tie", "tie"]
    assert held.winners == ["black", "white"], "a tie: both won"


def test_in_a_game_of_three_the_computer_plays_on_for_the_seat_out_of_time() -> None:
    keys = [new_key(), new_key(), new_key()]
    lobby, wall = clocked_lobby(("Ann", keys[0]), ("Bob", keys[1]), ("Cy", keys[2]))
    room = started(
        lobby,
        "tribolo",
        ["blue", "red", "green"],
        time_control={"kind": "live", "base_s": 60, "increment_s": 5},
    )
    held = lobby.rooms[room]
    assert held.state is not None
    first = held.seats[held.state.to_move]
    for _ in range(3):
        move(lobby, room)  # each of the three moves once, at once
    assert held.seats[held.state.to_move] is first
    wall.now += 67.0  # its 60 s, the 5 s its move gained, and the grace
    deadline = lobby.timekeeper.next_deadline()
    assert deadline is not None and deadline <= wall.now
    told = lobby.timekeeper.flags_due()
    assert held.status is Status.PLAYING and list(held.out) == [first.colour]
    assert first.holder is Holder.BOT and first.name is not None, "the computer plays it for them"
    notices = [message for _, message in told if isinstance(message, m.SeatSet)]
    assert notices and notices[0].seat == first.colour and notices[0].by is None
    (turn,) = lobby.bot_turns()
    assert turn.colour == first.colour
    # The person may not take the seat back, nor move for it.
    take_back = m.SetSeat(room=room, seat=first.colour, holder="human")
    assert first.conn is not None
    assert error_code(lobby.handle(first.conn, take_back), first.conn) == "out_of_time"
    # The computer plays the seat's moves; the others' clocks run on; the game stays rated.
    while held.status is Status.PLAYING:
        assert held.state is not None
        seat = held.seats[held.state.to_move]
        if seat.colour == first.colour:
            turns = lobby.bot_turns() or [turn]
            bot_move = held.state.format_move(held.state.legal_moves()[0])
            lobby.play_bot(turns[0], bot_move)
        else:
            wall.now += 1.0
            move(lobby, room)
    result = next(r for r in lobby.take_unsaved().results if r.room == room)
    ranks = dict(zip(held.game.seats, result.ranks, strict=True))
    assert ranks[first.colour] == 3
    assert result.rated
    out = next(seat for seat in result.seats if seat.colour == first.colour)
    assert out.outcome == "loss" and out.rated_as is not None


def test_bots_play_on_in_an_empty_clocked_room_and_it_does_not_close() -> None:
    lobby, _ = clocked_lobby(("Ann", None))
    joined = answer(
        lobby.handle(
            1,
            m.CreateRoom(
                game="othello", board=1, seat="black", time_control={"kind": "days", "days": 1}
            ),
        ),
        1,
    )
    room = str(joined.room["room"])
    assert isinstance(answer(lobby.handle(1, m.FillBots(room=room)), 1), m.Ok)
    assert isinstance(answer(lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    move(lobby, room)
    lobby.bot_turns()
    lobby.disconnect(1)
    ticks = lobby.clock
    assert isinstance(ticks, Ticks)
    ticks.now += lobby.limits.idle_close + 1
    lobby.tick()
    assert room in lobby.rooms, "a game on the clock is kept for its people"
    lobby.journal.changed.add(room)
    (turn,) = lobby.bot_turns()
    assert turn.room == room


async def test_a_clock_stands_still_while_its_server_is_stopped(tmp_path: Path) -> None:
    wall = Wall(UNIX)
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path, bot_workers=0)
    control = {"kind": "live", "base_s": 120, "increment_s": 0}
    server = ParlourServer(config)
    server.lobby.services.wall = wall
    await server.start()
    try:
        lobby = server.lobby
        for conn, name in ((1, "Ann"), (2, "Bob")):
            lobby.handle(conn, m.Hello(version=1, name=name))
        room = started(lobby, "othello", ["black", "white"], time_control=control)
        wall.now += 10.0
        move(lobby, room)  # black took 10 s; white's time runs
        wall.now += 20.0
        server.keeper.send([])  # stored, as after any request
    finally:
        server.close()
        await server.wait_closed()
    wall.now += 3600.0  # an hour down
    again = ParlourServer(config)
    again.lobby.services.wall = wall
    listen = again.serve_now

    async def slow_start() -> None:
        """The rooms are back; the bot workers and the port take 4.5 s more (under load)."""
        assert again.lobby.rooms[room].clock is not None
        wall.now += 4.5
        await listen()

    again.serve_now = slow_start  # type: ignore[method-assign]
    await again.start()
    try:
        held = again.lobby.rooms[room]
        assert held.clock is not None
        assert held.clock.left_ms(1, int(wall.now * 1000)) == 100_000, (
            "white lost 20 s, not an hour, nor the server's start-up"
        )
        assert held.clock.left_ms(0, int(wall.now * 1000)) == 110_000
        (paused,) = [e for e in held.history.window() if e["kind"] == "clock_paused"]
        assert paused["seat"] == "white" and paused["given_ms"] == 3_604_500
    finally:
        again.close()
        await again.wait_closed()


def test_my_games_and_your_turn_say_how_long_the_seat_to_move_has_left() -> None:
    ann, bob = new_key(), new_key()
    lobby, wall = clocked_lobby(("Ann", ann), ("Bob", bob), ("Bob", bob))
    control = {"kind": "live", "base_s": 300, "increment_s": 5}
    room = started(lobby, "othello", ["black", "white"], time_control=control)
    lobby.your_turns()
    wall.now += 12.0
    move(lobby, room)  # black took 12 s; white (Bob) is to move with 300 s
    (notice,) = lobby.your_turns()
    assert notice.time_left_ms == 300_000
    told = notice.outbox(lobby.people.players, {1, 2, 3})
    assert [conn for conn, _ in told] == [3], "Bob's other connection, not the one in the room"
    wall.now += 40.0
    mine = answer(lobby.handle(3, m.MyGames()), 3)
    assert isinstance(mine, m.MyGamesReply)
    (entry,) = mine.playing
    assert entry["turn"] is True and entry["time_left_ms"] == 260_000
    theirs = answer(lobby.handle(1, m.MyGames()), 1)
    assert theirs.playing[0]["turn"] is False and theirs.playing[0]["time_left_ms"] == 260_000


def test_live_games_move_ratings_of_their_own_kind_only() -> None:
    ann, bob = new_key(), new_key()
    lobby, wall = clocked_lobby(("Ann", ann), ("Bob", bob))
    live = {"kind": "live", "base_s": 60}
    room = started(lobby, "othello", ["black", "white"], time_control=live)
    move(lobby, room)
    move(lobby, room)
    wall.now += 61.0 + GRACE_MS / 1000  # black moves no more: white wins on time
    assert lobby.timekeeper.next_deadline() is not None
    lobby.timekeeper.flags_due()
    changes = lobby.rooms[room].rating_changes
    assert changes is not None and changes["white"]["after"] > changes["black"]["after"]
    boards = {
        speed: answer(lobby.handle(1, m.Leaderboard(game="othello", speed=speed)), 1)
        for speed in ("none", "live", "days")
    }
    assert all(isinstance(board, m.LeaderboardReply) for board in boards.values())
    assert [line["name"] for line in boards["live"].players] == ["Bob", "Ann"]
    assert boards["live"].speed == "live"
    assert boards["none"].players == [] and boards["days"].players == []
    # A new live room shows the live ratings; one without a clock, the ones without.
    lobby.handle(1, m.Leave(room=room))
    again = started(lobby, "othello", ["black", "white"], time_control=live)
    shown = answer(lobby.handle(1, m.GetRoom(room=again)), 1).room["seats"]
    assert [seat["rating"]["games"] for seat in shown] == [1, 1]
    casual = started(lobby, "othello", ["black", "white"])
    shown = answer(lobby.handle(1, m.GetRoom(room=casual)), 1).room["seats"]
    assert [seat["rating"]["games"] for seat in shown] == [0, 0]


def test_clocks_stand_still_while_a_keeper_cannot_keep_its_rooms() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None))
    room = started(
        lobby, "othello", ["black", "white"], time_control={"kind": "live", "base_s": 60}
    )
    wall.now += 5.0
    lost_at = wall.now  # a cluster node loses Redis: nothing moves, nobody is flagged
    wall.now += 120.0
    assert lobby.tick(flags=False) == [] and lobby.rooms[room].status is Status.PLAYING
    told = lobby.timekeeper.resume_clocks(lost_at)
    view = to(told, 2)[0]
    assert isinstance(view, m.RoomView)
    assert view.room["clock"]["left_ms"]["black"] == 55_000
    (paused,) = [e for e in lobby.rooms[room].history.window() if e["kind"] == "clock_paused"]
    assert paused == paused | {"seat": "black", "given_ms": 120_000}
    assert lobby.timekeeper.flags_due() == [] and lobby.rooms[room].status is Status.PLAYING


def holder_of(room: Room, colour: str) -> Holder:
    seat = room.seat_named(colour)
    assert seat is not None
    return seat.holder


def test_the_others_may_hand_the_seat_of_a_person_away_to_the_computer() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None), ("Cy", None), ("Dee", None))
    room = started(
        lobby, "tribolo", ["blue", "red", "green"], time_control={"kind": "live", "base_s": 600}
    )
    held = lobby.rooms[room]
    green = held.seat_named("green")
    assert green is not None and green.token is not None
    asked = m.HandOver(room=room, seat="green")
    assert error_code(lobby.handle(1, asked), 1) == "not_away", "Cy is here"
    lobby.disconnect(3)
    assert holder_of(held, "green") is Holder.HUMAN, "no stand-in comes in a room with a clock"
    assert isinstance(answer(lobby.handle(4, m.Spectate(room=room)), 4), m.Watching)
    assert error_code(lobby.handle(4, asked), 4) == "not_seated", "a watcher has no say"
    told = lobby.handle(1, asked)
    proposal = to(told, 2)[0]
    assert isinstance(proposal, m.Proposal)
    assert (proposal.kind, proposal.seat, proposal.asked) == ("hand_over", "green", ["red"])
    yes = m.Answer(room=room, proposal=proposal.proposal, accept=True)
    told = lobby.handle(2, yes)
    assert holder_of(held, "green") is Holder.STANDIN and green.name == "Cy"
    assert any(isinstance(message, m.SeatSet) and message.seat == "green" for _, message in told)
    # Cy comes back to the seat, and plays it again.
    lobby.handle(5, m.Hello(version=1, name="Cy"))
    assert isinstance(answer(lobby.handle(5, m.Join(room=room, token=green.token)), 5), m.Joined)
    assert holder_of(held, "green") is Holder.HUMAN and green.conn == 5
    wall.now += 1.0
    assert held.status is Status.PLAYING


def test_a_hold_stands_a_days_clock_still_and_runs_it_again_after() -> None:
    clock = Clock.start(TimeControl("days", days=2), 2, 0, now_ms=0)
    clock.hold(0, from_ms=DAY_MS // 2, until_ms=DAY_MS // 2 + 3 * DAY_MS)
    assert clock.remaining_ms[0] == 2 * DAY_MS - DAY_MS // 2, "half a day ran before it"
    assert clock.deadline_ms() == DAY_MS // 2 + 3 * DAY_MS + 3 * DAY_MS // 2
    assert clock.left_ms(0, 2 * DAY_MS) == 3 * DAY_MS // 2, "it stands still meanwhile"
    assert clock.describe(("black", "white"), 2 * DAY_MS)["running"] is None
    end = DAY_MS // 2 + 3 * DAY_MS
    assert clock.next_event_ms() == end, "the room is shown when it runs again"
    assert clock.settle(end + 1)
    assert clock.holds == {} and clock.left_ms(0, end + DAY_MS) == DAY_MS // 2
    shown = clock.describe(("black", "white"), end + 1)
    assert shown["running"] == "black" and "held_until" not in shown


def test_a_player_on_vacation_keeps_their_days_clocks_still() -> None:
    ann, bob = new_key(), new_key()
    lobby, wall = clocked_lobby(("Ann", ann), ("Bob", bob), ("Guest", None))
    days = {"kind": "days", "days": 2}
    room = started(lobby, "othello", ["black", "white"], time_control=days)
    live = started(
        lobby, "othello", ["black", "white"], time_control={"kind": "live", "base_s": 600}
    )
    move(lobby, room)  # Bob (white) is to move, with 2 days
    wall.now += 3600.0
    assert error_code(lobby.handle(3, m.TakeVacation(days=3)), 3) == "no_key"
    told = lobby.handle(2, m.TakeVacation(days=3))
    reply = answer(told, 2)
    assert isinstance(reply, m.VacationReply)
    assert reply.until == int(wall.now) + 3 * 86_400 and reply.days_left == 27
    looked = lobby.handle(2, m.GetVacation())
    assert [answer(looked, 2)] == [reply] and len(looked) == 1, "looking changes nothing"
    assert error_code(lobby.handle(3, m.GetVacation()), 3) == "no_key"
    view = [message for conn, message in told if conn == 1 and isinstance(message, m.RoomView)]
    assert len(view) == 1, "the days room is shown anew; the live one is not touched"
    clock = view[0].room["clock"]
    assert clock["running"] is None and clock["held_until"] == {"white": reply.until * 1000}
    assert clock["left_ms"]["white"] == 2 * DAY_MS - 3_600_000
    wall.now += 3 * 86_400 - 1.0
    lobby.tick()
    assert lobby.rooms[room].status is Status.PLAYING, "no flag while on vacation"
    deadline = lobby.timekeeper.next_deadline()
    assert deadline == reply.until
    wall.now = float(reply.until)
    back = to(lobby.timekeeper.flags_due(), 1)[0]
    assert isinstance(back, m.RoomView) and back.room["clock"]["running"] == "white"
    assert back.room["clock"]["left_ms"]["white"] == 2 * DAY_MS - 3_600_000
    live_clock = lobby.rooms[live].clock
    assert live_clock is not None and not live_clock.holds, "live clocks run on"
    # Thirty days a year: 27 left; a vacation ended early gives back its days not begun.
    assert error_code(lobby.handle(2, m.TakeVacation(days=28)), 2) == "no_vacation_left"
    assert answer(lobby.handle(2, m.TakeVacation(days=10)), 2).days_left == 17
    wall.now += 1.5 * 86_400
    ended = answer(lobby.handle(2, m.TakeVacation(days=0)), 2)
    assert isinstance(ended, m.VacationReply)
    assert ended.until is None and ended.days_left == 25
    assert answer(lobby.handle(2, m.GetVacation()), 2) == ended
    held = lobby.rooms[room].clock
    assert held is not None and not held.holds and held.running == 1
    assert held.left_ms(1, int(wall.now * 1000)) == 2 * DAY_MS - 3_600_000


def test_a_game_of_days_begun_during_a_vacation_holds_the_seat_from_its_start() -> None:
    ann, bob = new_key(), new_key()
    lobby, wall = clocked_lobby(("Ann", ann), ("Bob", bob))
    vacation = answer(lobby.handle(2, m.TakeVacation(days=2)), 2)
    assert isinstance(vacation, m.VacationReply) and vacation.until is not None
    wall.now += 3600.0
    room = started(lobby, "othello", ["black", "white"], time_control={"kind": "days", "days": 1})
    clock = lobby.rooms[room].clock
    assert clock is not None and set(clock.holds) == {1}, "Bob's seat, not Ann's"
    told = move(lobby, room)  # Bob (white) is to move, on vacation
    shown = [message for conn, message in told if conn == 2 and isinstance(message, m.Update)]
    assert shown and shown[-1].clock is not None
    assert shown[-1].clock["running"] is None
    assert shown[-1].clock["held_until"] == {"white": vacation.until * 1000}
    wall.now = vacation.until - 1.0
    assert lobby.timekeeper.next_deadline() == vacation.until
    lobby.tick()
    assert lobby.rooms[room].status is Status.PLAYING, "no flag while on vacation"
    wall.now = float(vacation.until) + 3600.0
    assert lobby.timekeeper.flags_due() != []
    view = lobby.rooms[room].clock_view()
    assert view is not None and view["running"] == "white" and "held_until" not in view
    assert view["left_ms"]["white"] == DAY_MS - 3_600_000, "the day runs from the vacation's end"
