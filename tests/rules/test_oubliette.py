"""Oubliette: every rule of the seed text (oubliette.md) as a position and its result."""

import dataclasses
import json
import re

import pytest

from parlour.rules import IllegalMoveError, MalformedMoveError, MalformedPositionError
from parlour.rules.game import plain_perft
from parlour.rules.hexgrid import CELL_NAMES, ROWS_FROM_TOP
from parlour.rules.oubliette import OUBLIETTE, OublietteMove, OublietteState


def position(
    green: str = "",
    red: str = "",
    holes: str = "",
    blocks: str = "",
    *,
    to_move: str = "G",
    ejected: str = "0:0",
    limit: int = 9,
    win: int = 6,
    ply: int = 0,
    max_plies: int = 0,
) -> OublietteState:
    """The state with pieces, holes and blocks on the cells named (space separated)."""
    marks = {name: "G" for name in green.split()}
    marks |= {name: "R" for name in red.split()}
    marks |= {name: "*" for name in holes.split()}
    marks |= {name: "#" for name in blocks.split()}
    rows = ["".join(marks.get(CELL_NAMES[cell], ".") for cell in row) for row in ROWS_FROM_TOP]
    return OUBLIETTE.parse_position(
        f"{'/'.join(rows)} {to_move} {ejected} {limit} {win} {ply} {max_plies}"
    )


def cells(state: OublietteState, mark: str) -> set[str]:
    """The names of the cells holding `mark` (G, R, * or #)."""
    order = [CELL_NAMES[cell] for row in ROWS_FROM_TOP for cell in row]
    return {name for name, char in zip(order, "".join(state.rows()), strict=True) if char == mark}


def legal(state: OublietteState) -> set[str]:
    return {state.format_move(move) for move in state.legal_moves()}


# Abalone's published opening figures: 44 moves from the standard start, 52 from the
# Belgian daisy, each distinct (line, direction) counted once.
@pytest.mark.parametrize(
    ("board", "moves"), [("abalone", 44), ("belgian-daisy", 52), ("oubliette", 44)]
)
def test_opening_move_counts(board: str, moves: int) -> None:
    start = OUBLIETTE.new({"board": board})
    assert len(start.legal_moves()) == moves
    assert start.perft(1) == moves
    assert start.perft(2) == plain_perft(start, 2)


def test_fast_perft_counts_ejections_and_wins_like_the_plain_walk() -> None:
    # Both sides can push and eject at once, and a second ejection wins.
    state = position("e7 e8 a1 a2 c4 c5", "e9 a3 b5 d5 d6", holes="e5", ejected="1:1", win=2)
    assert state.play_text("e7-e8 e").winners() == (0,)
    assert [state.perft(d) for d in range(1, 4)] == [plain_perft(state, d) for d in range(1, 4)]
    limited = OUBLIETTE.new({"max_plies": 2})
    assert limited.perft(4) == plain_perft(limited, 4) == limited.perft(2) == 44 * 44


def test_the_standard_start_is_the_same_for_both_sides() -> None:
    assert OUBLIETTE.new({"board": "abalone"}).perft(2) == 44 * 44


def test_green_moves_first_from_the_bottom_and_the_centre_is_a_hole() -> None:
    # "The first move of the game will always be played by green." "In the default board
    # configuration, there is a hole in the center of the board."
    start = OUBLIETTE.new()
    assert start.to_move == 0
    assert cells(start, "*") == {"e5"}
    assert {"a1", "b6", "c4"} <= cells(start, "G")
    assert {"i9", "h4", "g6"} <= cells(start, "R")
    assert len(cells(start, "G")) == len(cells(start, "R")) == 14


def test_a_line_moves_one_cell_along_itself() -> None:
    after = OUBLIETTE.new().play_text("c3-c5 ne")
    assert cells(after, "G") >= {"d4", "d5", "d6"}
    assert not cells(after, "G") & {"c3", "c4", "c5"}
    assert after.to_move == 1


def test_any_part_of_a_long_row_may_move() -> None:
    # "You can move any part of a long row of pieces, you do not have to move the whole row."
    state = position("e1 e2 e3 e4")
    assert {"e4 e", "e3-e4 e", "e2-e4 e", "e1-e4 e"} <= legal(state)
    assert "e1-e3 e" not in legal(state)  # e4 is in the way
    assert cells(state.play_text("e2-e4 e"), "G") == {"e1", "e3", "e4", "e5"}


def test_the_limit_caps_the_pieces_moved_at_once() -> None:
    # The default follows the text ("any number"); Abalone's boards move at most three.
    assert "e1-e4 e" in legal(position("e1 e2 e3 e4"))
    assert "e1-e4 e" not in legal(position("e1 e2 e3 e4", limit=3))
    assert "e2-e4 e" in legal(position("e1 e2 e3 e4", limit=3))


def test_a_longer_line_pushes_a_shorter_one() -> None:
    # "You can push any number of sequential pieces along a straight line where your
    # opponent has less pieces in the line that you have."
    pushed = position("e1 e2", "e3").play_text("e1-e2 e")
    assert (cells(pushed, "G"), cells(pushed, "R")) == ({"e2", "e3"}, {"e4"})
    assert pushed.last_pushed == 1
    assert "e2 e" not in legal(position("e1 e2", "e3"))  # one cannot push one
    assert "e1-e2 e" not in legal(position("e1 e2", "e3 e4"))  # two cannot push two
    three_two = position("e1 e2 e3", "e4 e5").play_text("e1-e3 e")
    assert cells(three_two, "R") == {"e5", "e6"}


def test_with_no_limit_four_push_three() -> None:
    assert "e1-e4 e" in legal(position("e1 e2 e3 e4", "e5 e6 e7"))
    assert "e1-e4 e" not in legal(position("e1 e2 e3 e4", "e5 e6 e7", limit=3))


@pytest.mark.parametrize(
    ("green", "red", "blocks"),
    [
        ("e1 e2 e4", "e3", ""),  # "if one of your own pieces is blocking them"
        ("e1 e2", "e3", "e4"),  # a block is a fixed obstacle
        ("e1 e2 e3", "e4 e5 e6", ""),  # three cannot push three
    ],
)
def test_what_stops_a_push(green: str, red: str, blocks: str) -> None:
    state = position(green, red, blocks=blocks)
    with pytest.raises(IllegalMoveError, match="not a legal move for green"):
        state.play(state.parse_move("e1-e2 e" if "e3" in red else "e1-e3 e"))


def test_pushing_off_the_edge_ejects() -> None:
    # "To eject a piece from the board, you must push your opponents piece through a hole
    # in the board, or off the edge of the board."
    after = position("e7 e8", "e9").play_text("e7-e8 e")
    assert cells(after, "R") == set()
    assert after.ejected == (1, 0)
    assert after.last_ejected
    assert after.scores() == (1, 0)


def test_pushing_into_a_hole_ejects() -> None:
    after = position("e2 e3", "e4", holes="e5").play_text("e2-e3 e")
    assert cells(after, "R") == set()
    assert cells(after, "*") == {"e5"}
    assert after.ejected == (1, 0)


def test_own_pieces_never_leave_the_board_or_fall_in_a_hole() -> None:
    state = position("e4 e9", "a1", holes="e5")
    assert "e4 e" not in legal(state)
    assert "e9 e" not in legal(state)
    assert "e4 w" in legal(state)


def test_broadside_moves_step_sideways_into_empty_cells_only() -> None:
    assert cells(position("e4 e5").play_text("e4-e5 ne"), "G") == {"f5", "f6"}
    blocked = position("e4 e5", "f6")
    assert "e4-e5 ne" not in legal(blocked)  # broadside never pushes
    assert "e4-e5 nw" in legal(blocked)


def test_six_ejections_win() -> None:
    # "The goal of the game is to eject six of your opponents pieces from the board."
    state = position("e7 e8", "e9 a1", ejected="5:0")
    finished = state.play_text("e7-e8 e")
    assert finished.is_over
    assert finished.winners() == (0,)
    assert finished.legal_moves() == ()


def test_the_ejections_that_win_are_an_option() -> None:
    assert OUBLIETTE.new({"eject": 2}).format_position().endswith(" 9 2 0 0")
    state = position("e7 e8", "e9 a1", win=1)
    assert state.play_text("e7-e8 e").winners() == (0,)


def test_a_player_with_no_move_loses() -> None:
    # Red's one piece on a1 is hemmed in by green and the edge.
    stuck = position("a2 b1 b2", "a1", to_move="R")
    assert stuck.is_over
    assert stuck.winners() == (0,)
    assert stuck.scores() == (0, 0)


def test_the_ply_limit_draws() -> None:
    state = OUBLIETTE.new({"max_plies": 2})
    state = state.play_text("c3-c5 ne").play_text("g5-g7 sw")
    assert state.is_over
    assert state.winners() == (0, 1)
    read_back = OUBLIETTE.parse_position(state.format_position())
    assert (read_back.is_over, read_back.winners(), read_back.ply) == (True, (0, 1), 2)


@pytest.mark.parametrize(
    "move",
    [
        OublietteMove((100,), "e"),
        OublietteMove((), "e"),
        OublietteMove(("x",), "e"),  # type: ignore[arg-type]
        OublietteMove((0,), "up"),
        OublietteMove(([0],), "e"),  # type: ignore[arg-type]
        OublietteMove((0,), ["e"]),  # type: ignore[arg-type]
        ((0, 1), "e"),
    ],
)
def test_malformed_moves_are_illegal_not_crashes(move: OublietteMove) -> None:
    with pytest.raises(IllegalMoveError, match="is not a legal move for green"):
        OUBLIETTE.new().play(move)


def test_a_state_rebuilt_with_another_seat_to_move_lists_that_seats_moves() -> None:
    start = OUBLIETTE.new()
    reds_turn = dataclasses.replace(start, to_move=1)
    written = OUBLIETTE.parse_position(start.format_position().replace(" G ", " R ", 1))
    assert set(reds_turn.legal_moves()) == set(written.legal_moves())
    assert reds_turn.move_count == 44
    assert not reds_turn.is_over


def test_presets_set_the_limit_unless_the_option_does() -> None:
    assert OUBLIETTE.new({"board": "abalone"}).layout.limit == 3
    assert OUBLIETTE.new({"board": "abalone", "limit": 5}).layout.limit == 5
    assert OUBLIETTE.new().layout.limit == 9


@pytest.mark.parametrize(
    ("text", "expected"),
    [("c3-c5 ne", "c3-c5 ne"), (" C5 - C3  NE ", "c3-c5 ne"), ("a1e", "a1 e"), ("i9 sw", "i9 sw")],
)
def test_move_texts(text: str, expected: str) -> None:
    state = OUBLIETTE.new()
    assert state.format_move(state.parse_move(text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a move"),
        ("c3-c5", "is not a move"),
        ("c3 up", "is not a move"),
        ("z1 e", "is not a cell"),
        ("a6 e", "is not a cell"),
        ("c3-d5 ne", "not on one straight line"),
    ],
)
def test_bad_move_texts(text: str, message: str) -> None:
    with pytest.raises(MalformedMoveError, match=message):
        OUBLIETTE.new().parse_move(text)


START = "RRRRR/RRRRRR/..RRR../......../....*..../......../..GGG../GGGGGG/GGGGG"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{START} G 0:0 9", "a position is"),
        (f"{START} G 0:0 9 6 0", "a position is"),
        (f"{START} G 6:6 9 6", "both sides cannot have ejected enough to win"),
        (f"{START} G 0:0 9 6 -1 0", "the ply must be a whole number"),
        (f"{START} G 0:0 9 6 0 100001", "the ply limit must be a whole number from 0 to 100000"),
        ("RRRRR/RRRRRR G 0:0 9 6", "rows of 5, 6, 7, 8, 9, 8, 7, 6, 5"),
        (f"{START.replace('*', 'x')} G 0:0 9 6", "'x' is not a cell"),
        (f"{START} B 0:0 9 6", "'B' is not a seat"),
        (f"{START} G 0-0 9 6", "is not green:red ejections"),
        (f"{START} G 0:0 0 6", "the limit must be a whole number from 1 to 9, not '0'"),
        (f"{START} G 0:0 9 31", "the ejections that win must be a whole number from 1 to 30"),
        (f"{START} G ²:0 9 6", "green's ejections must be a whole number"),
        (f"{START} G 0:0 ² 6", "the limit must be a whole number"),
        (f"{START} G 0:99 9 6", "red's ejections must be a whole number from 0 to 61"),
        (f"{START} G 0:0 9 {'9' * 5000}", "the ejections that win must be a whole number"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(MalformedPositionError, match=message):
        OUBLIETTE.parse_position(text)


def test_the_default_start_is_written_as_documented() -> None:
    assert OUBLIETTE.new().format_position() == f"{START} G 0:0 9 6 0 0"


def test_best_hint_prefers_ejecting_then_pushing() -> None:
    ejecting = position("e7 e8 a1 a2", "e9 a3")
    assert legal(ejecting) >= {"e7-e8 e", "a1-a2 e"}
    assert [ejecting.format_move(m) for m in ejecting.best_moves()] == ["e7-e8 e"]
    pushing = position("e1 e2", "e3")
    assert [pushing.format_move(m) for m in pushing.best_moves()] == ["e1-e2 e"]


def test_observation_is_json_and_names_cells() -> None:
    observed = OUBLIETTE.new().play_text("c3-c5 ne").observation()
    assert json.loads(json.dumps(observed)) == observed
    assert observed["to_move"] == "red"
    assert observed["last_move"] == "c3-c5 ne"
    assert observed["holes"] == ["e5"]


@pytest.mark.parametrize(
    ("state", "move", "why"),
    [
        (position("e1 e2 e4", "e3"), "e1-e2 e", "your own piece on e4 stops the push"),
        (position("e1 e2", "e3", blocks="e4"), "e1-e2 e", "a block on e4 stops the push"),
        (
            position("e1 e2 e3", "e4 e5 e6"),
            "e1-e3 e",
            "more of your pieces than theirs (3 against 3)",
        ),
        (position("e1", "e2"), "e1 e", "a single piece cannot push"),
        (position("e8 e9", "i9"), "e8-e9 e", "your own pieces never leave the board"),
        (position("e4", "i9", holes="e5"), "e4 e", "your own pieces never go into a hole"),
        (position("e4 e5", "i9"), "e4 e", "your own piece on e5 is in the way"),
        (position("e4", "i9", blocks="e5"), "e4 e", "a block on e5 is in the way"),
        (position("a1 a2", "i9"), "a1-a2 sw", "the piece on a1 would leave the board"),
        (position("c3 c4 c5", "d5 i9"), "c3-c5 ne", "and d5 holds an opponent's piece"),
        (position("c3 c4 c5", "i9", holes="d4"), "c3-c5 nw", "and d4 is a hole"),
        (position("a1 a2 a3 a4", "i9", limit=3), "a1-a4 e", "at most 3 pieces"),
        (position("a1", "i9"), "i9 e", "only green's own pieces move now"),
    ],
)
def test_a_refused_move_says_which_rule_stops_it(
    state: OublietteState, move: str, why: str
) -> None:
    refusal = state.refusal(state.parse_move(move))
    assert refusal is not None and why in refusal
    assert refusal.startswith(("That line cannot move there: ", "That piece cannot move there: "))
    with pytest.raises(
        IllegalMoveError, match=f"is not a legal move for green: .*{re.escape(why)}"
    ):
        state.play_text(move)


def test_a_legal_move_has_no_refusal_and_a_finished_game_says_so() -> None:
    state = position("c3 c4 c5", "i9")
    assert all(state.refusal(move) is None for move in state.legal_moves())
    over = position("e2 e3 a1", "e1", ejected="5:0").play_text("e2-e3 w")
    assert over.is_over
    assert over.refusal(over.parse_move("a1 e")) == "The game is over."
