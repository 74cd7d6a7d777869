"""States travel to worker processes (where bots think) and back unchanged."""

import pickle

import pytest

from parlour.rules import GAMES


@pytest.mark.parametrize("name", sorted(GAMES))
def test_states_pickle_to_equal_states_of_the_same_game(name: str) -> None:
    state = GAMES[name].new(seed=3)
    state = state.play(state.legal_moves()[0])
    copied = pickle.loads(pickle.dumps(state))
    assert copied.game is GAMES[name]
    assert copied == state
    assert copied.format_position() == state.format_position()
    assert copied.legal_moves() == state.legal_moves()
