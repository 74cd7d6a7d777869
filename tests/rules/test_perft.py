"""Perft against published figures, and the fast counter against the plain tree walk."""

import pytest

from parlour.rules import get_game
from parlour.rules.game import plain_perft

from .flank_games import FLANK_GAMES

# Othello from the standard start, black to move, a pass counted as a ply and a finished
# game as one leaf (Aart Bik's figures).
OTHELLO_PERFT = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]


@pytest.mark.parametrize("depth", range(9))
def test_othello_perft(depth: int) -> None:
    assert get_game("othello").new().perft(depth) == OTHELLO_PERFT[depth]


@pytest.mark.slow
def test_othello_perft_9() -> None:
    assert get_game("othello").new().perft(9) == OTHELLO_PERFT[9]


def test_plain_walk_agrees_on_othello() -> None:
    start = get_game("othello").new()
    assert plain_perft(start, 5) == OTHELLO_PERFT[5]


@pytest.mark.parametrize("name", sorted(FLANK_GAMES))
@pytest.mark.parametrize("board", [1, 7, 2024])
def test_fast_perft_matches_the_plain_walk_on_dealt_boards(name: str, board: int) -> None:
    start = FLANK_GAMES[name].new(seed=board)
    for depth in range(4):
        assert start.perft(depth) == plain_perft(start, depth)


def test_passes_are_plies_and_an_ended_game_is_one_leaf() -> None:
    # Black's only move ends the game: one leaf at every depth.
    ending = get_game("othello").parse_position("BW. B")
    assert [ending.perft(d) for d in range(4)] == [1, 1, 1, 1]
    # Blue's only move (c1) takes red's last piece; red must pass; green then has two
    # moves (c2, c3). Depth 2 ends on the pass: one leaf, not green's two.
    passing = get_game("tribolo").parse_position("BR./GB./GB. B")
    assert [passing.perft(d) for d in range(1, 4)] == [1, 1, 2]
    assert [passing.perft(d) for d in range(1, 7)] == [
        plain_perft(passing, d) for d in range(1, 7)
    ]


def test_perft_refuses_negative_depth() -> None:
    with pytest.raises(ValueError, match="depth"):
        get_game("othello").new().perft(-1)
