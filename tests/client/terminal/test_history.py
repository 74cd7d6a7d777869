"""A room's history in words (client/terminal/history.py): the lines a person who comes back
reads, in the live log's words."""

from typing import Any

from parlour.client.terminal.history import history_lines, time_of_day
from parlour.client.terminal.room import RoomModel, chat_words, seat_words
from parlour.protocol import messages as m
from parlour.server.lobby import Lobby
from parlour.server.store import MEMORY, Store

from ...server.test_clocks import clocked_lobby, move, started
from ...server.test_lobby import Clock, answer, to

UNIX = 1_700_000_000


def test_a_games_history_reads_as_the_live_log_told_it() -> None:
    clock = Clock()
    lobby = Lobby(clock=clock, archive=Store(MEMORY), wall=lambda: UNIX + clock.now)
    for conn, name in ((1, "Ann"), (2, "Bob"), (3, "Bob")):
        lobby.handle(conn, m.Hello(version=1, name=name))
    told: list[m.ServerMessage] = []

    def ask(conn: int, message: m.ClientMessage) -> Any:
        outbox = lobby.handle(conn, message)
        told.extend(sent for to, sent in outbox if to == 1)
        return next(sent for to, sent in outbox if to == conn)

    made = ask(1, m.CreateRoom(game="othello", seat="black", standin_after=5))
    room = str(made.room["room"])
    bob = ask(2, m.Join(room=room, seat="white"))
    ask(1, m.Start(room=room))
    held = lobby.rooms[room]
    assert held.state is not None
    first = held.state.format_move(held.state.legal_moves()[0])
    ask(1, m.Move(room=room, version=0, move=first))
    ask(2, m.Chat(room=room, text="so close! gg"))
    lobby.disconnect(2)
    clock.now += 5
    told.extend(sent for to, sent in lobby.tick() if to == 1)
    (turn,) = lobby.bot_turns()
    reply = turn.state.format_move(turn.state.legal_moves()[0])
    lobby.play_bot(turn, reply)
    ask(3, m.Join(room=room, token=bob.token))
    lines = history_lines(held.history.window())
    live = [
        seat_words(message) if isinstance(message, m.SeatSet) else chat_words(message)
        for message in told
        if isinstance(message, m.SeatSet | m.ChatLine)
    ]
    assert lines == [
        "Ann took Black.",
        "Bob took White.",
        "The game has started: Black moves first.",
        f"Ann (Black) played {first}.",
        "Bob (White): so close! gg",
        "The computer (level medium) plays White until Bob is back.",
        f"The computer for Bob (White) played {reply}.",
        "Bob is back in White.",
    ]
    assert len(live) == 4 and [line for line in lines if line in live] == live, (
        "seat changes and chat read as the live log printed them"
    )


def entry(kind: str, n: int = 1, **fields: Any) -> dict[str, Any]:
    return {"kind": kind, "n": n, "at": UNIX, **fields}


def test_every_kind_of_entry_has_its_line() -> None:
    coin = {"by": "red", "call": "heads", "landed": "tails", "first": "white"}
    entries = [
        entry("move", seat="blue", move="d3", version=1, passed=["red"], name="Ann", level=None),
        entry("move", seat="green", move="e4", version=2, passed=[], name=None, level="hard"),
        entry("started", first="white", coin=coin),
        entry(
            "over",
            winners=["blue"],
            scores={"blue": 34, "red": 30, "green": 0},
            names={"blue": "Ann", "red": "Bob", "green": None},
        ),
        entry(
            "over",
            winners=["red", "green"],
            scores={"blue": 2, "red": 9, "green": 9},
            names={"blue": "Ann", "red": "Bob", "green": None},
        ),
        entry("over", winners=[], scores={"black": 32, "white": 32}, names={}),
        entry("new_game", first="red", board=3, rotated=True, coin=None),
        entry("new_game", first="blue", board=3, rotated=False, coin=None),
        entry("undo", moves=1, version=9),
        entry("undo", moves=3, version=10),
        entry("loaded", moves=12, over=False),
        entry("proposal", proposal="undo", outcome="declined", by="red"),
        entry("proposal", proposal="new_game", outcome="expired", by=None),
        entry("seat", seat="red", holder={"kind": "bot", "level": "easy"}, by="Ann", after=None),
        entry("seat", seat="red", holder={"kind": "open"}, by="Ann", after=4),
        entry("flagged", seat="red", name="Bob", ends=False),
        entry("flagged", seat="white", name=None, ends=True),
        entry("clock_paused", seat="red", given_ms=62_400),
        entry("clock_paused", seat="blue", given_ms=3 * 86_400_000 + 5 * 3_600_000),
    ]
    assert history_lines(entries) == [
        "Ann (Blue) played d3. Red cannot move and passes.",
        "The computer (Green) played e4.",
        "Red called heads; it landed tails: White moves first.",
        "The game has started: White moves first.",
        "Game over: Ann won 34\N{EN DASH}30\N{EN DASH}0.",
        "Game over: Bob and Green share the win, 2\N{EN DASH}9\N{EN DASH}9.",
        "Game over: a draw, 32\N{EN DASH}32.",
        "A new game began with everyone one seat on: Red moves first.",
        "A new game began: Blue moves first.",
        "1 move taken back.",
        "3 moves taken back.",
        "Another game was put on the board (loaded or imported).",
        "Red declined to take back a move.",
        "No answer in time: no new game.",
        "Ann handed Red to the computer, level easy.",
        "Ann opened Red for someone to take.",
        "Bob (Red) ran out of time; the computer plays on.",
        "White ran out of time.",
        "The server was away: Red was given back 1:02.",
        "The server was away: Blue was given back 3d 05h.",
    ]


def test_a_flag_reads_as_the_live_log_told_it() -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None))
    room_id = started(
        lobby, "othello", ["black", "white"], time_control={"kind": "live", "base_s": 15}
    )
    move(lobby, room_id)
    move(lobby, room_id)  # each has moved: a late black is flagged, not aborted
    shown = answer(lobby.handle(1, m.GetRoom(room=room_id)), 1)
    room = RoomModel(shown.room, room_id)
    wall.now += 16.0
    assert lobby.timekeeper.next_deadline() is not None
    for message in to(lobby.timekeeper.flags_due(), 1):
        room.apply(message)
    assert room.flagged == ["black"]
    entries = lobby.rooms[room_id].history.window()
    lines = history_lines(entries)
    scores = "\N{EN DASH}".join(str(score) for score in room.observation["scores"].values())  # type: ignore[index]
    assert lines[-2:] == ["Ann (Black) ran out of time.", f"Game over: Bob won {scores}."]
    assert room.out_words([]) == lines[-2:-1], "the live log says the same"


def test_lines_after_the_last_shown_with_their_times_and_nothing_unreadable() -> None:
    entries = [
        entry("chat", 7, name="Ann", seat=None, text="hi"),
        entry("chat", 8, name="Bob", seat="red", text="hello"),
        entry("fireworks", 9, colour="gold"),
        entry("move", 10, seat="red"),
        {"kind": "chat", "name": "no number"},
        entry("clock_paused", 12, seat="red", given_ms="a minute"),
        entry("flagged", 13, seat="red"),
        entry("chat", 11, name="Cy", seat=None, text="bye"),
    ]
    assert history_lines(entries, since=7) == ["Bob (Red): hello", "Cy: bye"]
    stamped = history_lines(entries[:1], stamp=lambda at: f"[{at - UNIX}]")
    assert stamped == ["[0] Ann: hi"]
    assert len(time_of_day(UNIX)) == 5 and time_of_day(UNIX)[2] == ":"
