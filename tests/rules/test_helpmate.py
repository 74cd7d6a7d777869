"""Whether a seat could still win, for the seat left when the other runs out of time."""

import pytest

from parlour.rules import GAMES, get_game
from parlour.rules.helpmate import could_win

HOPELESS = ".WBBBBBB/" + "BBBBBBBB/" * 6 + "BBBBBBWW B"
"""Othello with one square left: black 60, white 3, black to move at a1."""


@pytest.mark.parametrize("name", [name for name, game in GAMES.items() if len(game.seats) == 2])
def test_at_the_start_either_seat_could_win(name: str) -> None:
    game = get_game(name)
    state = game.new(game.resolve_options({}), seed=5)
    assert could_win(state, 0) and could_win(state, 1)


def test_a_seat_too_far_behind_with_one_square_left_could_not() -> None:
    othello = get_game("othello")
    state = othello.start_from(HOPELESS, othello.resolve_options({}))
    assert not could_win(state, 1), "white has 3 discs and one square is left"
    assert could_win(state, 0)


def test_a_search_cut_short_answers_yes_as_the_flag_stands() -> None:
    othello = get_game("othello")
    state = othello.start_from(HOPELESS, othello.resolve_options({}))
    assert could_win(state, 1, limit=0), "no position may be looked at: in doubt, yes"
