"""The bot levels every game offers, and the one entry point that plays them."""

import random
from collections.abc import Callable
from typing import Any, Final

from parlour.rules import State
from parlour.rules.errors import RulesError


class UnknownLevelError(RulesError):
    """A bot level the game does not offer."""


def _random_move(state: State[Any], budget: float, rng: random.Random) -> Any:
    """Any legal move, each as likely."""
    return rng.choice(state.legal_moves())


def _greedy_move(state: State[Any], budget: float, rng: random.Random) -> Any:
    """The game's "Best" hint, ties broken at random: the most flips, points or progress now."""
    return rng.choice(state.best_moves())


Player = Callable[[State[Any], float, random.Random], Any]

LEVELS: Final[dict[str, Player]] = {"random": _random_move, "greedy": _greedy_move}
"""Bot levels from the weakest up."""


def levels_for(game_name: str) -> tuple[str, ...]:
    """The levels a game's bots play at, weakest first."""
    return tuple(LEVELS)


def choose_move(state: State[Any], level: str, budget: float, seed: int) -> str:
    """The move, in the game's notation, that a bot at `level` plays in `state`.

    `budget` is the seconds it may think; `seed` makes the choice repeatable.
    """
    player = LEVELS.get(level)
    if player is None or level not in levels_for(state.game.name):
        raise UnknownLevelError(f"{state.game.title} has no bot level '{level}'")
    if state.is_over:
        raise RulesError("the game is over: there is no move to choose")
    return state.format_move(player(state, budget, random.Random(seed)))


def fallback_move(state: State[Any], seed: int) -> str:
    """A legal move at once, for a bot that failed or ran out of time."""
    return state.format_move(random.Random(seed).choice(state.legal_moves()))


def ready() -> bool:
    """Nothing but the import of the bots: a new worker process calls it to be ready at once."""
    return True
