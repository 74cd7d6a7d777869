"""Every example in the seed texts (tribolo.txt, numlo.txt, doublolo.txt), as a position.

In the texts a lower-case letter marks the square being played. Here that square is empty
in the position, and the move is played on it.
"""

import dataclasses

import pytest

from parlour.rules import IllegalMoveError

from .flank_games import FLANK_GAMES


def play(game: str, rows: list[str], to_move: str, square: str) -> list[str]:
    """The board rows after `to_move` plays `square` on the board `rows`."""
    state = FLANK_GAMES[game].parse_position(f"{'/'.join(rows)} {to_move}")
    assert state.game.letters[state.to_move] == to_move
    return state.play_text(square).cells()


@pytest.mark.parametrize("game", ["tribolo", "numlo"])
def test_a_single_colour_run_is_captured(game: str) -> None:
    # "BRRRRRb you would capture all the Red squares between your two Blue ones."
    assert play(game, ["BRRRRR."], "B", "g1") == ["BBBBBBB"]


@pytest.mark.parametrize("game", ["tribolo", "numlo"])
def test_a_run_of_mixed_colours_is_no_move(game: str) -> None:
    # "BRGRRRRb This is not valid": the colours between the blues are not all the same.
    # A second row gives blue another move, so blue is to move and h1 can be tried.
    state = FLANK_GAMES[game].parse_position("BRGRRRR./BR...... B")
    assert state.to_move == 0
    assert state.legal_moves() == (state.parse_move("c2"),)
    with pytest.raises(IllegalMoveError, match="h1 is not a legal move for blue"):
        state.play_text("h1")


@pytest.mark.parametrize("game", ["tribolo", "numlo"])
def test_a_block_of_colours(game: str) -> None:
    # "Your Move-> bGBRRB / RRGRRG / BRBGRR  Flips to-> bBBRRB / BBGRRG / BRBGRR"
    before = [".GBRRB", "RRGRRG", "BRBGRR"]
    assert play(game, before, "B", "a1") == ["BBBRRB", "BBGRRG", "BRBGRR"]


@pytest.mark.parametrize("game", ["tribolo", "numlo"])
def test_no_skipping_over_your_own_colour(game: str) -> None:
    # "bRRRBRRB flips to bBBBBRRB"
    assert play(game, [".RRRBRRB"], "B", "a1") == ["BBBBBRRB"]


def test_doublolo_captures_a_run() -> None:
    # "rWWWR you would capture all the White squares ... RRRRR."
    assert play("doublolo", [".WWWR"], "R", "a1") == ["RRRRR"]


def test_doublolo_flips_in_several_directions_at_once() -> None:
    # "RWRRR / RWRRR / RRWRR / RRRRR Flips to RRRRR / ...": the move on the top left
    # flips the white to its right and the two on its diagonal.
    before = [".WRRR", "RWRRR", "RRWRR", "RRRRR"]
    assert play("doublolo", before, "R", "a1") == ["RRRRR", "RRRRR", "RRRRR", "RRRRR"]


def test_doublolo_no_skipping_over_your_own_colour() -> None:
    # "wRRRWRRW flips to WWWWWRRW" (the text drops one W)
    assert play("doublolo", [".RRRWRRW"], "W", "a1") == ["WWWWWRRW"]


def test_blocked_squares_end_a_run() -> None:
    # Grey (Tribolo) and dark (Doublolo) squares cannot be played on and close nothing.
    state = FLANK_GAMES["tribolo"].parse_position("BRR#.B/BR.... B")
    assert state.legal_moves() == (state.parse_move("c2"),)


def test_numlo_scores_squares_plus_their_values() -> None:
    # "These point values plus the number of squares you control ... total score."
    state = FLANK_GAMES["numlo"].parse_position("BRRRRR./G...... B 6....3./.....1.")
    assert state.scores() == (1 + 6, 5 + 3, 1)
    after = state.play_text("g1")
    assert after.scores() == (7 + 6 + 3, 0, 1)


def test_numlo_best_hint_gains_the_most_points() -> None:
    # "the computer will show you where you can turn over the most tiles or get the most
    # points": c1 takes the red worth 1 + 6; e2 takes two reds worth 1 each.
    state = FLANK_GAMES["numlo"].parse_position(
        "BR....../.BRR..G./........ B .6....../......../........"
    )
    moves = {state.format_move(m) for m in state.legal_moves()}
    assert moves == {"c1", "e2"}
    assert [state.format_move(m) for m in state.best_moves()] == ["c1"]


def test_tribolo_best_hint_flips_the_most_tiles() -> None:
    # "the est key ... will show you where you can turn over the most tiles."
    # d1 flips two reds, b2 flips three greens.
    state = FLANK_GAMES["tribolo"].parse_position("BRR...../B.GGGB../........ B")
    assert {state.format_move(m) for m in state.legal_moves()} == {"d1", "b2"}
    assert [state.format_move(m) for m in state.best_moves()] == ["b2"]


def test_a_player_who_cannot_move_is_passed_over() -> None:
    # "If on your turn, you cannot flip at least one of your opponents tiles, then your
    # turn is forfeited and play passes to the next player."
    # Blue takes red's only piece; red cannot move, so green, who can, is next.
    state = FLANK_GAMES["tribolo"].parse_position("BR./GB. B")
    after = state.play_text("c1")
    assert after.cells() == ["BBB", "GB."]
    assert after.passed == (1,)
    assert after.to_move == 2
    assert after.observation()["passed"] == ["red"]
    assert [after.format_move(m) for m in after.legal_moves()] == ["c2"]


def test_the_game_ends_when_nobody_can_move() -> None:
    # "The game is over when either all empty squares have been filled or when it is no
    # longer possible for any player to flip any opponents squares."
    state = FLANK_GAMES["othello"].parse_position("BW. B")
    assert not state.is_over
    finished = state.play_text("c1")
    assert finished.is_over
    assert finished.legal_moves() == ()
    assert finished.scores() == (3, 0)
    assert finished.winners() == (0,)
    stuck = FLANK_GAMES["tribolo"].parse_position("B.R/.../G.. R")
    assert stuck.is_over
    assert stuck.winners() == (0, 1, 2)


def test_a_state_rebuilt_with_other_pieces_passes_and_moves_by_them() -> None:
    start = FLANK_GAMES["othello"].new()
    whites_turn = dataclasses.replace(start, to_move=1)
    assert [whites_turn.format_move(m) for m in whites_turn.legal_moves()] == [
        "e3",
        "f4",
        "c5",
        "d6",
    ]
    stuck = dataclasses.replace(start, pieces=(start.pieces[0] | start.pieces[1], 0))
    assert stuck.is_over
    assert stuck.winners() == (0,)
