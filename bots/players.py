"""The bot levels every game offers, and the entry points that play them."""

import random
from collections.abc import Iterator
from typing import Any, Final

from parlour.rules import IllegalMoveError, JsonValue, State
from parlour.rules.errors import RulesError

from . import flank, oubliette, tripppin
from .thinking import Level, Thought, forced_result


class UnknownLevelError(RulesError):
    """A bot level the game does not offer."""


LEVELS: Final[dict[str, tuple[Level, ...]]] = {
    "tribolo": flank.LEVELS,
    "doublolo": flank.LEVELS,
    "numlo": flank.LEVELS,
    "othello": flank.LEVELS,
    "tripppin": tripppin.LEVELS,
    "oubliette": oubliette.LEVELS,
}
"""Each game's bot levels by game name, weakest first."""


def levels_of(game_name: str) -> tuple[Level, ...]:
    """The levels a game's bots play at, weakest first."""
    levels = LEVELS.get(game_name)
    if levels is None:
        raise UnknownLevelError(f"there are no bots for the game '{game_name}'")
    return levels


def levels_for(game_name: str) -> tuple[str, ...]:
    """The names of the levels a game's bots play at, weakest first."""
    return tuple(level.name for level in levels_of(game_name))


ORIGINAL_DEFAULTS: Final[dict[str, str]] = {"tripppin": "3"}
"""The level a game starts at where its original named one: Tripppin's "starts at three"."""


def default_level(game_name: str) -> str:
    """The level a computer seat takes unless asked otherwise: the original's where it
    named one, else the middle of the game's levels."""
    names = levels_for(game_name)
    return ORIGINAL_DEFAULTS.get(game_name, names[(len(names) - 1) // 2])


def level_named(game_name: str, level: str) -> Level:
    """A game's bot level by its name; UnknownLevelError if the game has none so named."""
    found = next((each for each in levels_of(game_name) if each.name == level), None)
    if found is None:
        raise UnknownLevelError(f"the game '{game_name}' has no bot level '{level}'")
    return found


def think(state: State[Any], level: str, budget: float, seed: int) -> Iterator[Thought[Any]]:
    """The thoughts of a bot at `level` about `state`, each better considered than the last.

    `budget` is the seconds it may think; `seed` makes it repeatable.
    """
    found = level_named(state.game.name, level)
    if state.is_over:
        raise RulesError("the game is over: there is no move to choose")
    return found.think(state, budget, random.Random(seed))


def choose_move(state: State[Any], level: str, budget: float, seed: int) -> str:
    """The move, in the game's notation, that a bot at `level` plays in `state`."""
    last: Thought[Any] | None = None
    for last in think(state, level, budget, seed):  # noqa: B007 (the last thought is the move)
        pass
    if last is None:
        raise RulesError(f"the {level} bot found no move")
    return state.format_move(last.move)


def report(state: State[Any], thought: Thought[Any]) -> dict[str, JsonValue]:
    """A thought in the game's notation, as `thinking` and `suggestion` messages carry it.

    The line is cut short where a move in it is not legal in turn, so it is always playable.
    """
    line: list[JsonValue] = []
    position = state
    for move in thought.line:
        try:
            after = position.play(move)
        except IllegalMoveError:
            break
        line.append(position.format_move(move))
        position = after
    found: dict[str, JsonValue] = {
        "move": state.format_move(thought.move),
        "line": line,
        "score": thought.score,
        "depth": thought.depth,
        "nodes": thought.nodes,
    }
    forced = forced_result(thought.score)
    if forced is not None:
        found["forced"] = forced
    return found


def fallback_move(state: State[Any], seed: int) -> str:
    """A legal move at once, for a bot that failed or ran out of time."""
    return state.format_move(random.Random(seed).choice(state.legal_moves()))


def ready() -> bool:
    """Nothing but the import of the bots: a new worker process calls it to be ready at once."""
    return True
