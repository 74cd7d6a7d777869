"""Every level keeps time when load cuts its budget short, and quick levels are quick."""

import random
import time
from typing import Any

import pytest

from parlour.bots import levels_of, think
from parlour.rules import GAMES, State
from parlour.server.turns import FLOOR

SHORT = 0.02
"""The budget every level must keep to: what a crowded server may give a search."""
SLACK = 0.015
"""What a search may run past its budget to hand its last thought over."""
QUICK = 0.25
"""The longest a quick level may take given 10 s: far below the budget, so it does not
think to its budget, with room for a machine busy with other tests (how fast each level
is, is measured in benchmarks/, not asserted here)."""
LEVELS = [(name, level.name) for name in sorted(GAMES) for level in levels_of(name)]


def positions(game_name: str) -> list[State[Any]]:
    """The start and two later positions of a game played at random."""
    state = GAMES[game_name].new(seed=7)
    found = [state]
    rng = random.Random(7)
    for ply in range(1, 41):
        state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            break
        if ply % 20 == 0:
            found.append(state)
    return found


def seconds_to_think(state: State[Any], level: str, budget: float) -> tuple[float, int]:
    """How long the level took over its whole search, and how many thoughts it had."""
    began = time.perf_counter()
    thoughts = sum(1 for _ in think(state, level, budget, seed=3))
    return time.perf_counter() - began, thoughts


@pytest.mark.parametrize(("game", "level"), LEVELS)
def test_no_level_overruns_a_short_budget_and_each_has_a_move_at_the_floor(
    game: str, level: str
) -> None:
    for state in positions(game):
        # The slower of two tries would be a scheduling hiccup on a busy machine; the
        # faster one past the budget is the level's own overrun.
        took = min(seconds_to_think(state, level, SHORT)[0] for _ in range(2))
        assert took <= SHORT + SLACK, f"{game} {level} took {took * 1000:.1f} ms"
        _, thoughts = seconds_to_think(state, level, FLOOR)
        assert thoughts >= 1


@pytest.mark.parametrize(
    ("game", "level"),
    [(game, level.name) for game in sorted(GAMES) for level in levels_of(game) if level.quick],
)
def test_quick_levels_answer_in_milliseconds_whatever_their_budget(game: str, level: str) -> None:
    for state in positions(game):
        took = min(seconds_to_think(state, level, 10.0)[0] for _ in range(2))
        assert took <= QUICK, f"{game} {level} took {took * 1000:.1f} ms"


def test_the_strongest_levels_are_not_quick() -> None:
    assert not any(levels_of(game)[-1].quick for game in GAMES)
