"""The client's room model: updates and views applied in the order they count, and words
for what happened."""

import random
from typing import Any

import pytest

from parlour.client.terminal.room import (
    RoomModel,
    describe_holder,
    judged_words,
    levels_in,
    middle_level,
    moved_ago,
    seat_words,
)
from parlour.protocol import messages as m
from parlour.rules import GAMES


def view_of(game: str, moves: list[str], you: str | None = "black") -> dict[str, Any]:
    """A room view as the server would send it after `moves`."""
    state = GAMES[game].new(seed=0)
    for move in moves:
        state = state.play_text(move)
    person = {"kind": "human", "name": "ann", "connected": True}
    seats = [
        {"colour": colour, "holder": person if colour == you else {"kind": "bot", "level": "easy"}}
        for colour in GAMES[game].seats
    ]
    return {
        "room": "r1",
        "game": game,
        "status": "finished" if state.is_over else "playing",
        "version": len(moves),
        "moves": moves,
        "state": state.observation(),
        "seats": seats,
        "you": you,
        "yours": [] if you is None else [you],
    }


def update_to(game: str, moves: list[str], seat: str, passed: list[str] | None = None) -> m.Update:
    state = GAMES[game].new(seed=0)
    for move in moves:
        state = state.play_text(move)
    return m.Update(
        room="r1",
        version=len(moves),
        seat=seat,
        move=moves[-1],
        passed=passed or [],
        state=state.observation(),
    )


def test_an_update_moves_the_room_on_and_says_who_played() -> None:
    room = RoomModel(view_of("othello", []), "r1", seat="black")
    assert room.apply(update_to("othello", ["d3"], "black", passed=["white"]))
    assert room.version == 1
    assert room.view["moves"] == ["d3"]
    assert room.news == "ann (Black) played d3. White cannot move and passes."
    assert not room.stale


def test_a_view_older_than_an_update_already_shown_is_ignored() -> None:
    room = RoomModel(view_of("othello", []), "r1", seat="black")
    room.apply(update_to("othello", ["d3"], "black"))
    assert room.apply(m.RoomView(room=view_of("othello", [])))
    assert room.version == 1
    assert room.view["moves"] == ["d3"]


def test_a_skipped_version_marks_the_room_stale_until_a_view_comes() -> None:
    room = RoomModel(view_of("othello", []), "r1", seat="black")
    room.apply(update_to("othello", ["d3", "c3"], "white"))
    assert room.stale
    room.apply(m.RoomView(room=view_of("othello", ["d3", "c3"])))
    assert not room.stale


def test_moves_no_update_told_of_are_named_when_the_room_view_comes() -> None:
    room = RoomModel(view_of("othello", ["d3"]), "r1", seat="black")
    room.apply(m.RoomView(room=view_of("othello", ["d3", "c3", "c4"])))
    assert room.news == "Played meanwhile: c3, c4."
    room.apply(m.RoomView(room=view_of("othello", ["d3"])))
    assert room.news == "Played meanwhile: c3, c4.", "an older view changes nothing"


def test_messages_about_other_rooms_are_not_taken() -> None:
    room = RoomModel(view_of("othello", []), "r1", seat="black")
    other = m.Update(room="r2", version=1, seat="black", move="d3", passed=[], state={})
    assert not room.apply(other)
    assert room.version == 0


def test_a_seat_taken_back_elsewhere_leaves_no_token_to_take_it_again() -> None:
    room = RoomModel(view_of("othello", []), "r1", seat="black", token="t" * 22, host=True)
    room.apply(m.SeatChanged(room="r1", seat="black"))
    assert (room.seat, room.token, room.host) == (None, None, False)
    assert "watching" in room.news


def test_thoughts_for_an_old_position_are_dropped() -> None:
    room = RoomModel(view_of("othello", ["d3"]), "r1", seat="black")
    search = {"move": "c3", "line": ["c3"], "score": 0, "depth": 1, "nodes": 5}
    room.apply(m.Thinking(room="r1", version=0, seat="white", of="bot", search=search))
    assert shown_thought(room) == (None, "")
    room.apply(m.Thinking(room="r1", version=1, seat="white", of="bot", search=search))
    assert shown_thought(room) == (search, "White")


def shown_thought(room: RoomModel) -> tuple[dict[str, Any] | None, str]:
    return room.thinking, room.thinking_of


def test_the_status_line_and_result() -> None:
    room = RoomModel(view_of("othello", []), "r1", seat="black")
    assert room.status_line().startswith("Your move   Black 2  White 2")
    room = RoomModel(view_of("othello", [], you="white"), "r1", seat="white")
    assert room.status_line().startswith("Black is thinking...")
    moves = played_out("othello")
    finished = view_of("othello", moves)
    winner = finished["state"]["winners"][0]
    won = RoomModel(view_of("othello", moves, you=winner), "r1", seat=winner)
    assert won.status_line().startswith("Game over: you win!")
    loser = next(colour for colour in ("black", "white") if colour != winner)
    lost = RoomModel(view_of("othello", moves, you=loser), "r1", seat=loser).status_line()
    assert lost.startswith(f"Game over: the computer ({winner.capitalize()}) wins.")
    watched = RoomModel(view_of("othello", moves, you=winner), "r1").status_line()
    assert watched.startswith(f"Game over: ann ({winner.capitalize()}) wins.")


def played_out(game: str) -> list[str]:
    """The moves of a whole game, each seat playing its first legal move."""
    state, moves = GAMES[game].new(seed=0), []
    while not state.is_over:
        move = state.legal_moves()[0]
        moves.append(state.format_move(move))
        state = state.play(move)
    return moves


def test_a_shared_screen_is_told_whose_turn_it_is_and_to_pass_the_keyboard() -> None:
    view = view_of("othello", [], you="black")
    view["seats"][1]["holder"] = {"kind": "human", "name": "Bea", "connected": True}
    view["yours"] = ["black", "white"]
    room = RoomModel(view, "r1")
    room.apply(m.RoomView(room=view))
    assert room.playing == ["black", "white"] and room.shared and room.my_turn
    assert room.seat == "black"
    assert room.status_line().startswith("Black (ann) to move: pass the keyboard")
    state = GAMES["othello"].new(seed=0)
    after = state.play(state.legal_moves()[0])
    move = state.format_move(state.legal_moves()[0])
    room.apply(
        m.Update(
            room="r1", version=1, seat="black", move=move, passed=[], state=after.observation()
        )
    )
    assert room.seat == "white"
    assert room.status_line().startswith("White (Bea) to move: pass the keyboard")


def test_seat_changes_in_words() -> None:
    def said(holder: dict[str, Any], by: str | None = "Ann") -> str:
        return seat_words(m.SeatSet(room="r1", seat="red", holder=holder, by=by, after=3))

    assert said({"kind": "human", "name": "Ann", "connected": True}) == "Ann took Red."
    assert said({"kind": "human", "name": "Bea", "connected": True}) == "Ann gave Red to Bea."
    assert said({"kind": "human", "name": "Bob", "connected": True}, None) == "Bob is back in Red."
    assert said({"kind": "bot", "level": "hard"}) == "Ann handed Red to the computer, level hard."
    assert said({"kind": "standin", "name": "Bob", "level": "expert"}, None) == (
        "The computer (level expert) plays Red until Bob is back."
    )
    assert said({"kind": "open"}) == "Ann opened Red for someone to take."


def test_holders_and_levels_in_words() -> None:
    assert describe_holder({"kind": "human", "name": "ann", "connected": False}) == (
        "ann, disconnected"
    )
    assert describe_holder({"kind": "human", "name": "ann"}, mine=True) == "ann (you)"
    assert describe_holder({"kind": "standin", "name": "bob", "level": "hard"}) == (
        "computer (level hard) for bob"
    )
    assert describe_holder({"kind": "open"}) == "open"
    welcome = m.Welcome(version=1, server="x", games=[{"name": "numlo", "levels": ["a", "b"]}, 7])
    assert levels_in(welcome, "numlo") == ["a", "b"]
    assert levels_in(welcome, "tribolo") == []
    assert middle_level(["easy", "medium", "hard", "expert"]) == "medium"
    assert middle_level([str(n) for n in range(7)]) == "3"


def random_tripppin_game(seed: int) -> list[str]:
    """A Tripppin game of random legal moves from board `seed`, to its end."""
    state, chooser, moves = GAMES["tripppin"].new(seed=seed), random.Random(seed), []
    while not state.is_over:
        move = chooser.choice(state.legal_moves())
        moves.append(state.format_move(move))
        state = state.play(move)
    return moves


def test_tripppin_says_what_its_original_said() -> None:
    start = view_of("tripppin", [], you="blue")
    start["state"] = GAMES["tripppin"].new(seed=1).observation()
    room = RoomModel(start, "r1")
    room.apply(m.RoomView(room=start))
    assert room.status_line() == (
        "Your move: try to reach the flashing frame (g7)"
        "   Targets reached: Blue 0 of 5  Grey 0 of 5"
    )
    # Board 1, random moves: after 11 moves blue has no move left, and so loses.
    moves = random_tripppin_game(1)
    state = GAMES["tripppin"].new(seed=1)
    for move in moves:
        state = state.play_text(move)
    ended = view_of("tripppin", [], you="grey")
    ended.update(status="finished", version=len(moves), moves=moves, state=state.observation())
    over = RoomModel(ended, "r1")
    over.apply(m.RoomView(room=ended))
    assert over.status_line() == (
        "ann (Grey) CAN'T MOVE! the computer (Blue) wins."
        "   Targets reached: Blue 0 of 5  Grey 1 of 5"
    )


@pytest.mark.parametrize(
    ("game", "search", "said"),
    [
        ("othello", {"score": 250}, "about 2.5 squares ahead"),
        ("numlo", {"score": -100}, "about 1.0 point behind"),
        ("tribolo", {"score": 3}, "about even"),
        ("oubliette", {"score": 1500}, "about 1.5 pieces pushed off ahead"),
        ("tripppin", {"score": -6}, "about 3.0 steps in the race behind"),
        ("tribolo", {"score": 999_993, "forced": 7}, "wins in 7 turns"),
        ("othello", {"score": -999_999, "forced": -1}, "loses in 1 turn"),
    ],
)
def test_a_search_is_judged_in_the_games_own_terms(
    game: str, search: dict[str, int], said: str
) -> None:
    assert judged_words(game, search) == said


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (-5, "just now"),
        (59, "just now"),
        (61, "1 min ago"),
        (3_599, "59 min ago"),
        (3_600, "1 hour ago"),
        (7_300, "2 hours ago"),
        (86_400, "1 day ago"),
        (400_000, "4 days ago"),
    ],
)
def test_the_lobby_says_how_long_ago_a_room_moved(seconds: int, said: str) -> None:
    assert moved_ago(1_000_000.0 - seconds, 1_000_000.0) == said
