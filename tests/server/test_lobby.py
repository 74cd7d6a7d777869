"""The lobby without sockets: requests in, outboxes out, with a clock the test turns."""

from dataclasses import dataclass
from typing import Any

import pytest

from parlour.protocol import ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.codes import read_code
from parlour.protocol.wire import check_schema
from parlour.rules import get_game
from parlour.rules.tribolo_boards import NAMED_BOARDS
from parlour.server.answers import Outbox
from parlour.server.lobby import Lobby
from parlour.server.manage import restart, rewind
from parlour.server.records import restore_room, room_record
from parlour.server.room import Holder, Status
from parlour.server.services import Limits
from parlour.server.store import MEMORY, Store


@dataclass
class Clock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


def to(outbox: Outbox, conn: int) -> list[m.ServerMessage]:
    """The messages to `conn`, each checked to fit the wire's common schema."""
    found = [message for target, message in outbox if target == conn]
    for message in found:
        check_schema(message.to_wire())
    return found


def answer(outbox: Outbox, conn: int) -> Any:
    """The first message to `conn`: the answer to its request."""
    return to(outbox, conn)[0]


def error_code(outbox: Outbox, conn: int) -> str:
    message = answer(outbox, conn)
    assert isinstance(message, m.Error), message
    return message.code


class Table:
    """A lobby with named connections that have said hello."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.clock = Clock()
        self.lobby = Lobby(clock=self.clock, limits=limits or Limits(), archive=Store(MEMORY))
        for conn, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"], start=1):
            self.lobby.handle(conn, m.Hello(version=1, name=name))

    def create(self, conn: int = 1, **fields: Any) -> m.Joined:
        fields = {"game": "tribolo", "board": 7, "seat": "blue", **fields}
        joined = answer(self.lobby.handle(conn, m.CreateRoom(**fields)), conn)
        assert isinstance(joined, m.Joined), joined
        return joined

    def join(self, conn: int, room: str, **fields: Any) -> m.Joined:
        joined = to(self.lobby.handle(conn, m.Join(room=room, **fields)), conn)[0]
        assert isinstance(joined, m.Joined), joined
        return joined

    def full_room(self) -> str:
        """A Tribolo room on board 7 with Ann blue, Bob red, Cy green, started."""
        room = self.create().room["room"]
        self.join(2, room, seat="red")
        self.join(3, room, seat="green")
        assert isinstance(answer(self.lobby.handle(1, m.Start(room=room)), 1), m.Ok)
        return str(room)

    def snapshot(self, room: str) -> tuple[Any, ...]:
        """What must not change when a request is refused."""
        held = self.lobby.rooms[room]
        seats = tuple((seat.holder, seat.name, seat.conn, seat.level) for seat in held.seats)
        return held.version, tuple(held.moves), held.state, held.status, seats, held.host_conn


def test_welcome_lists_every_game_with_its_bot_levels() -> None:
    lobby = Lobby(clock=Clock(), archive=Store(MEMORY))
    welcome = answer(lobby.handle(9, m.Hello(version=1, name="Ann", id=5)), 9)
    assert isinstance(welcome, m.Welcome) and welcome.id == 5
    names = [game["name"] for game in welcome.games]
    assert names == ["tribolo", "numlo", "doublolo", "othello", "tripppin", "oubliette"]
    levels = {game["name"]: game["levels"] for game in welcome.games}
    assert levels["numlo"] == ["easy", "medium", "hard", "expert"]
    assert levels["tripppin"][-1] == "perfect" and levels["oubliette"][0] == "0"


def test_a_created_room_is_listed_and_a_private_one_is_found_only_by_its_code() -> None:
    table = Table()
    public = table.create(1).room["room"]
    private = table.create(2, public=False, seat=None)
    assert private.code is not None and read_code(private.code) == private.code
    assert private.seat is None and private.host
    listed = answer(table.lobby.handle(3, m.ListRooms()), 3)
    assert [room["room"] for room in listed.rooms] == [public]
    assert listed.rooms[0]["seats"][0] == {
        "colour": "blue",
        "holder": {"kind": "human", "name": "Ann", "connected": True},
    }
    private_id = private.room["room"]
    assert error_code(table.lobby.handle(3, m.Join(room=private_id)), 3) == "no_such_room"
    assert error_code(table.lobby.handle(3, m.Spectate(room=private_id)), 3) == "no_such_room"
    joined = table.join(3, private.code)
    assert joined.seat == "blue" and joined.code is None
    # Once in, the room's id works for that connection.
    assert isinstance(answer(table.lobby.handle(3, m.GetRoom(room=private_id)), 3), m.RoomView)


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"game": "chess"}, "no_such_game"),
        ({"seat": "purple"}, "no_such_seat"),
        ({"options": {"rows": 99}}, "bad_options"),
        ({"options": {"colour": 3}}, "bad_options"),
        ({"options": {"tiles": 100}}, "bad_options"),
    ],
)
def test_a_room_that_cannot_be_made_is_refused_and_none_is_made(
    fields: dict[str, Any], code: str
) -> None:
    table = Table()
    request: dict[str, Any] = {"game": "tribolo", "board": 7, "seat": "blue", **fields}
    assert error_code(table.lobby.handle(1, m.CreateRoom(**request)), 1) == code
    assert table.lobby.rooms == {}


def test_room_limits_per_connection_and_per_server() -> None:
    table = Table(Limits(max_rooms=4, max_hosted=3))
    for _ in range(3):
        table.create(1)
    assert error_code(table.lobby.handle(1, m.CreateRoom(game="othello")), 1) == "too_many_rooms"
    table.create(2)
    assert error_code(table.lobby.handle(3, m.CreateRoom(game="othello")), 3) == "server_full"
    assert len(table.lobby.rooms) == 4


def test_joining_takes_the_named_seat_or_the_first_open_one() -> None:
    table = Table()
    room = table.create().room["room"]
    assert table.join(2, room).seat == "red"
    assert error_code(table.lobby.handle(3, m.Join(room=room, seat="red")), 3) == "seat_taken"
    assert error_code(table.lobby.handle(3, m.Join(room=room, seat="pink")), 3) == "no_such_seat"
    assert table.join(3, room, seat="green").seat == "green"
    assert error_code(table.lobby.handle(4, m.Join(room=room)), 4) == "room_full"
    assert table.join(2, room).seat == "red", "Bob's join sent again: his seat, not another"
    assert error_code(table.lobby.handle(2, m.Join(room=room, name="Bea")), 2) == "room_full"


def test_others_in_the_room_see_a_new_seat_holder() -> None:
    table = Table()
    room = table.create().room["room"]
    outbox = table.lobby.handle(2, m.Join(room=room, seat="green"))
    notice, view = to(outbox, 1)
    bob = {"kind": "human", "name": "Bob", "connected": True}
    assert notice == m.SeatSet(room=room, seat="green", holder=bob, by="Bob")
    assert isinstance(view, m.RoomView)
    assert view.room["seats"][2]["holder"] == bob
    assert view.room["you"] == "blue"


def test_seat_tokens_are_secret_and_distinct() -> None:
    table = Table()
    host = table.create()
    room = host.room["room"]
    tokens = {host.token, table.join(2, room).token, table.join(3, room).token}
    assert len(tokens) == 3
    assert all(len(token) >= 22 for token in tokens)


def test_only_the_host_sets_seats_and_starts_and_only_while_waiting() -> None:
    table = Table()
    room = table.create().room["room"]
    table.join(2, room, seat="red")
    for request in (
        m.SetSeat(room=room, seat="green", holder="bot"),
        m.FillBots(room=room),
        m.Start(room=room),
    ):
        assert error_code(table.lobby.handle(2, request), 2) == "not_host"
    assert error_code(table.lobby.handle(1, m.Start(room=room)), 1) == "seats_open"
    set_bot = m.SetSeat(room=room, seat="red", holder="bot")
    assert error_code(table.lobby.handle(1, set_bot), 1) == "seat_taken"
    bad_level = m.SetSeat(room=room, seat="green", holder="bot", level="grandmaster")
    assert error_code(table.lobby.handle(1, bad_level), 1) == "no_such_level"
    table.lobby.handle(1, m.SetSeat(room=room, seat="green", holder="bot", level="hard"))
    green = table.lobby.rooms[room].seats[2]
    assert (green.holder, green.level) == (Holder.BOT, "hard")
    table.lobby.handle(1, m.SetSeat(room=room, seat="green", holder="open"))
    assert green.holder is Holder.OPEN
    table.lobby.handle(1, m.FillBots(room=room))
    assert (green.holder, green.level) == (Holder.BOT, "medium")
    assert isinstance(answer(table.lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    assert table.lobby.rooms[room].status is Status.PLAYING
    assert error_code(table.lobby.handle(1, m.FillBots(room=room)), 1) == "not_waiting"


def test_moves_are_checked_in_order_and_a_refusal_changes_nothing() -> None:
    table = Table()
    room = table.create().room["room"]
    table.join(2, room, seat="red")
    table.join(3, room, seat="green")
    before_start = m.Move(room=room, version=0, move="e3")
    assert error_code(table.lobby.handle(2, before_start), 2) == "not_started"
    table.lobby.handle(1, m.Start(room=room))
    # Board 7 deals red first (protocol.md's example).
    cases = [
        (4, m.Move(room=room, version=0, move="e3"), "not_seated"),
        (1, m.Move(room=room, version=0, move="e3"), "not_your_turn"),
        (2, m.Move(room=room, version=3, move="e3"), "stale_version"),
        (2, m.Move(room=room, version=0, move="z99"), "malformed_move"),
        (2, m.Move(room=room, version=0, move="a1"), "illegal_move"),
    ]
    table.lobby.handle(4, m.Spectate(room=room))
    for conn, request, code in cases:
        before = table.snapshot(room)
        assert error_code(table.lobby.handle(conn, request), conn) == code
        assert table.snapshot(room) == before
    stale = answer(table.lobby.handle(2, m.Move(room=room, version=3, move="e3")), 2)
    assert stale.detail == {"version": 0}


def test_an_accepted_move_is_acknowledged_then_sent_to_everyone_with_their_own_view() -> None:
    table = Table()
    room = table.full_room()
    table.lobby.handle(4, m.Spectate(room=room))
    outbox = table.lobby.handle(2, m.Move(room=room, version=0, move="e3", id="b"))
    assert outbox[0] == (2, m.Ok(id="b"))
    updates: dict[int, Any] = dict(outbox[1:])
    assert sorted(updates) == [1, 2, 3, 4]
    expected = get_game("tribolo").new(seed=7).play_text("e3")
    for conn, update in updates.items():
        assert isinstance(update, m.Update)
        assert (update.version, update.seat, update.move, update.passed) == (1, "red", "e3", [])
        seat = None if conn == 4 else conn - 1
        assert update.state == expected.observation(seat)
    assert updates[2].state["flipped"] == ["f3"]
    assert updates[2].state["to_move"] == "green"
    assert table.lobby.rooms[room].moves == ["e3"]


def test_a_move_sent_again_is_answered_ok_once_more_and_made_once() -> None:
    table = Table()
    room = table.full_room()
    first = m.Move(room=room, version=0, move="e3", id="b")
    assert answer(table.lobby.handle(2, first), 2) == m.Ok(id="b")
    made = table.snapshot(room)
    again = m.Move(room=room, version=0, move="e3", id="c")
    assert table.lobby.handle(2, again) == [(2, m.Ok(id="c"))], "nobody else is told"
    assert table.snapshot(room) == made
    assert error_code(table.lobby.handle(3, again), 3) == "stale_version", "not green's move"
    other = m.Move(room=room, version=0, move="n3")
    assert error_code(table.lobby.handle(2, other), 2) == "not_your_turn", "not the move made"
    green = table.lobby.rooms[room].state
    assert green is not None
    reply = green.format_move(green.legal_moves()[0])
    assert isinstance(
        answer(table.lobby.handle(3, m.Move(room=room, version=1, move=reply)), 3), m.Ok
    )
    assert table.lobby.handle(2, again) == [(2, m.Ok(id="c"))], "moves later still know it"

    held = table.lobby.rooms[room]
    restored = restore_room(room_record(held), table.clock.now)
    restored.seats = held.seats
    table.lobby.release(room)
    table.lobby.restore([restored])
    assert table.lobby.handle(2, again) == [(2, m.Ok(id="c"))], "and so does the record"
    rewind(restored, 0)
    assert error_code(table.lobby.handle(2, again), 2) == "stale_version", "taken back"


def test_hints_are_for_the_seat_to_move() -> None:
    table = Table()
    room = table.full_room()
    table.lobby.handle(4, m.Spectate(room=room))
    possible = answer(table.lobby.handle(2, m.Hint(room=room, kind="possible")), 2)
    assert possible.moves == ["a2", "e3", "n3", "c4", "k4", "m5", "n7"]
    best = answer(table.lobby.handle(2, m.Hint(room=room, kind="best")), 2)
    state = get_game("tribolo").new(seed=7)
    assert best.moves == [state.format_move(move) for move in state.best_moves()]
    assert error_code(table.lobby.handle(1, m.Hint(room=room, kind="best")), 1) == "not_your_turn"
    assert error_code(table.lobby.handle(4, m.Hint(room=room, kind="best")), 4) == "not_seated"


def test_a_dropped_seat_comes_back_with_its_token_and_a_wrong_token_is_refused() -> None:
    table = Table()
    room = table.create().room["room"]
    bob = table.join(2, room, seat="red")
    outbox = table.lobby.disconnect(2)
    view = answer(outbox, 1)
    assert view.room["seats"][1]["holder"] == {"kind": "human", "name": "Bob", "connected": False}
    wrong = m.Join(room=room, token="x" * 22)
    before = table.snapshot(room)
    assert error_code(table.lobby.handle(5, wrong), 5) == "bad_token"
    assert table.snapshot(room) == before
    table.lobby.handle(5, m.Hello(version=1, name="Bob"))
    back = table.join(5, room, token=bob.token)
    assert back.seat == "red" and back.token == bob.token and not back.host
    assert table.lobby.rooms[room].seats[1].conn == 5


def test_taking_a_seat_back_from_a_live_connection_moves_it() -> None:
    table = Table()
    room = table.create().room["room"]
    bob = table.join(2, room, seat="red")
    outbox = table.lobby.handle(5, m.Join(room=room, token=bob.token))
    assert m.SeatChanged(room=room, seat="red") in to(outbox, 2)
    assert table.lobby.rooms[room].seats[1].conn == 5
    assert 2 in table.lobby.rooms[room].spectators


def test_the_host_token_brings_hosting_back() -> None:
    table = Table()
    host = table.create(seat=None)
    room = host.room["room"]
    table.lobby.disconnect(1)
    table.lobby.handle(6, m.Hello(version=1, name="Ann"))
    again = table.join(6, room, token=host.token)
    assert again.host and again.seat is None
    assert isinstance(answer(table.lobby.handle(6, m.FillBots(room=room)), 6), m.Ok)


def test_a_watching_host_who_takes_a_seat_gets_back_both_with_one_token() -> None:
    table = Table()
    host = table.create(seat=None)
    room = host.room["room"]
    seated = table.join(1, room, seat="red")
    assert seated.token == host.token and seated.host
    guest = table.join(2, room, seat="green")
    assert guest.token != host.token and not guest.host
    table.lobby.disconnect(1)
    table.lobby.handle(6, m.Hello(version=1, name="Ann"))
    again = table.join(6, room, token=host.token)
    assert again.host and again.seat == "red"


def test_a_stand_in_plays_for_a_person_away_too_long_until_they_return() -> None:
    table = Table()
    room = table.create(standin_after=30).room["room"]
    bob = table.join(2, room, seat="red")
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    assert table.lobby.bot_turns() == []  # red, a person, moves first on board 7
    table.lobby.disconnect(2)
    table.clock.now += 29
    assert table.lobby.tick() == []
    table.clock.now += 1
    outbox = table.lobby.tick()
    red = table.lobby.rooms[room].seats[1]
    assert red.holder is Holder.STANDIN and red.level == "easy", "the room's level"
    standin = {"kind": "standin", "name": "Bob", "level": "easy"}
    notice, view = to(outbox, 1)
    assert notice == m.SeatSet(room=room, seat="red", holder=standin, by=None, after=0)
    assert isinstance(view, m.RoomView)
    assert view.room["seats"][1]["holder"] == standin
    (turn,) = table.lobby.bot_turns()
    assert (turn.colour, turn.version, turn.level) == ("red", 0, "easy")
    table.lobby.play_bot(turn, "e3")
    table.lobby.handle(2, m.Hello(version=1, name="Bob"))
    table.join(2, room, token=bob.token)
    assert red.describe()["holder"] == {"kind": "human", "name": "Bob", "connected": True}


def test_a_bot_move_goes_through_the_same_checks() -> None:
    table = Table()
    room = table.create(seat=None).room["room"]
    table.lobby.handle(1, m.FillBots(room=room))
    table.lobby.handle(1, m.Start(room=room))
    (turn,) = table.lobby.bot_turns()
    before = table.snapshot(room)
    for text, code in [("a1", "illegal_move"), ("zz", "malformed_move")]:
        with pytest.raises(ProtocolError) as caught:
            table.lobby.play_bot(turn, text)
        assert caught.value.code == code
        assert table.snapshot(room) == before
    outbox = table.lobby.play_bot(turn, "e3")
    assert [type(message) for _, message in outbox] == [m.Update]
    with pytest.raises(ProtocolError) as late:
        table.lobby.play_bot(turn, "e3")
    assert late.value.code == "not_your_turn"  # checked before the version, as the order says


def test_each_bot_turn_is_told_once_and_the_next_after_its_move() -> None:
    table = Table()
    room = table.create(seat=None).room["room"]
    table.lobby.handle(1, m.FillBots(room=room))
    table.lobby.handle(1, m.Start(room=room))
    (turn,) = table.lobby.bot_turns()
    assert table.lobby.bot_turns() == []
    table.lobby.handle(2, m.Spectate(room=room))
    assert table.lobby.bot_turns() == []  # nothing changed in the room
    table.lobby.play_bot(turn, "e3")
    (after,) = table.lobby.bot_turns()
    assert (after.version, after.colour) == (1, "green")


def test_a_disconnect_reaches_every_room_the_connection_was_in() -> None:
    table = Table()
    first = table.full_room()
    second = table.create(conn=4, board=8).room["room"]
    table.join(2, second, seat="red")
    table.lobby.handle(5, m.Spectate(room=first))
    outbox = table.lobby.disconnect(2)
    for room in (first, second):
        assert table.lobby.rooms[room].seats[1].conn is None
    assert {conn for conn, _ in outbox} == {1, 3, 4, 5}


def test_an_empty_room_closes_after_ten_minutes_and_its_tokens_stop_working() -> None:
    table = Table()
    host = table.create()
    room = host.room["room"]
    table.lobby.disconnect(1)
    table.clock.now += 599
    table.lobby.tick()
    assert room in table.lobby.rooms
    table.clock.now += 1
    table.lobby.tick()
    assert room not in table.lobby.rooms
    rejoin = m.Join(room=room, token=host.token)
    assert error_code(table.lobby.handle(2, rejoin), 2) == "no_such_room"


def test_a_finished_game_refuses_moves_and_leaves_the_lobby_list() -> None:
    table = Table()
    room = table.create(game="othello", seat="black", options={}).room["room"]
    table.lobby.handle(1, m.SetSeat(room=room, seat="white", holder="bot"))
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    # Play both sides to the end: the person's turns as the person, the bot's as the bot.
    while held.status is Status.PLAYING:
        assert held.state is not None
        text = held.state.format_move(held.state.legal_moves()[0])
        turns = table.lobby.bot_turns()
        if turns:
            table.lobby.play_bot(turns[0], text)
        else:
            table.lobby.handle(1, m.Move(room=room, version=held.version, move=text))
    assert held.state is not None and held.state.is_over
    assert len(held.moves) == held.version
    late = m.Move(room=room, version=held.version, move="d3")
    assert error_code(table.lobby.handle(1, late), 1) == "game_over"
    assert answer(table.lobby.handle(2, m.ListRooms()), 2).rooms == []


def test_a_tripppin_room_from_a_position_keeps_its_loop_option() -> None:
    table = Table()
    position = get_game("tripppin").new(seed=5).format_position()
    joined = table.create(
        game="tripppin",
        seat="blue",
        position=position,
        options={"prevent_loops": "no"},
        board=None,
    )
    held = table.lobby.rooms[joined.room["room"]]
    table.lobby.handle(1, m.FillBots(room=held.id))
    table.lobby.handle(1, m.Start(room=held.id))
    restored = restore_room(room_record(held), now=1.0)
    restart(held)
    for state in (held.initial, held.state, restored.initial, restored.state):
        assert state is not None and state.format_position() == position
        assert state.prevent_loops is False  # type: ignore[attr-defined]


def test_see_shows_the_board_a_room_would_start_from_and_changes_nothing() -> None:
    table = Table()
    seen = answer(table.lobby.handle(1, m.See(game="tribolo", board=7, id=3)), 1)
    assert isinstance(seen, m.Seen) and seen.id == 3 and seen.board == 7
    room = table.create(board=7).room["room"]
    assert seen.state == table.lobby.rooms[room].initial.observation()
    named = answer(table.lobby.handle(1, m.See(game="tribolo", options={"board": "walls"})), 1)
    assert named.state["board"] == list(NAMED_BOARDS["walls"])
    bad = table.lobby.handle(1, m.See(game="tribolo", options={"board": "maze"}))
    assert error_code(bad, 1) == "bad_options"
    assert error_code(table.lobby.handle(1, m.See(game="chess")), 1) == "no_such_game"
    assert len(table.lobby.rooms) == 1
