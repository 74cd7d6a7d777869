"""Move and position texts: what reads, and the clear error for what does not."""

import pytest

from parlour.rules import MalformedMoveError, MalformedPositionError, get_game

from .flank_games import FLANK_GAMES

OTHELLO_START = "......../......../......../...WB.../...BW.../......../......../........ B"


def test_othello_start_is_written_as_the_readme_says() -> None:
    assert get_game("othello").new().format_position() == OTHELLO_START


def test_squares_are_named_from_the_top_left() -> None:
    state = FLANK_GAMES["doublolo"].new()
    assert state.parse_move("a1") == 0
    assert state.parse_move("w1") == 22
    assert state.parse_move("a2") == 23
    assert state.parse_move(" W14 ") == 14 * 23 - 1
    assert state.format_move(14 * 23 - 1) == "w14"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a square"),
        ("pass", "is not a square"),
        ("d", "is not a square"),
        ("4d", "is not a square"),
        ("d100", "is not a square"),
        ("i1", "off the board"),
        ("a9", "off the board"),
        ("a0", "off the board"),
    ],
)
def test_bad_move_texts(text: str, message: str) -> None:
    with pytest.raises(MalformedMoveError, match=message):
        get_game("othello").new().parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a position is"),
        ("......../........", "a position is"),
        (". B . extra", "a position is"),
        ("... B", None),
        ("/... B", "1 to 26 rows and 1 to 26 columns"),
        ("/".join(["...."] * 27) + " B", "1 to 26 rows"),
        ("." * 27 + " B", "1 to 26 columns"),
        (".../.. B", "same length"),
        ("..G B", "'G' is not a square of Othello"),
        ("..b B", "'b' is not a square of Othello"),
        ("BW. X", "'X' is not a seat"),
        ("BW. BW", "'BW' is not a seat"),
        ("BW. w", "'w' is not a seat"),
        ("BW. B 1.", "the board's rows and columns"),
        ("BW. B 1../2..", "the board's rows and columns"),
        ("BW. B 0..", "'0' is not a square value"),
        ("BW# B ..3", "a blocked square cannot have a value"),
    ],
)
def test_bad_position_texts(text: str, message: str | None) -> None:
    if message is None:
        assert get_game("othello").parse_position(text).is_over
        return
    with pytest.raises(MalformedPositionError, match=message):
        get_game("othello").parse_position(text)


def test_values_up_to_nine_read_back() -> None:
    state = FLANK_GAMES["othello"].parse_position("BW.. B 9..1")
    assert state.value_rows() == ["9..1"]
    assert state.scores() == (10, 1)
    assert state.format_position() == "BW.. B 9..1"
