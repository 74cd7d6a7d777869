"""What every bot level is: an anytime search that tells its thoughts as it deepens.

A level's `think(state, budget, rng)` yields `Thought`s, each at least as considered as
the one before, and returns before `budget` seconds are up; its last thought is its move.
The first comes quickly, so there is always a move to play. The server streams thoughts
to people who asked to see the computer think, and the last one is a bot's move or a
person's suggestion.
"""

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from parlour.rules import State

MoveT = TypeVar("MoveT")

WIN: Final = 1_000_000
"""The score of a won position; a win in n plies scores WIN - n, a loss in n, n - WIN."""
DECIDED: Final = WIN - 10_000
"""Scores at least this far from 0 are forced results, not estimates."""


@dataclass(frozen=True, slots=True)
class Thought(Generic[MoveT]):
    """A bot's best so far: the move, the line it expects, and how good it finds it."""

    move: MoveT
    line: tuple[MoveT, ...]
    """The principal variation, starting with `move`."""
    score: int
    """From the mover's side, in the level's units (positive is good for the mover); a
    forced result is `WIN - plies` or `plies - WIN`."""
    depth: int
    """Plies looked ahead: 0 for a level that does not search."""
    nodes: int
    """Positions looked at so far."""


Think = Callable[[State[Any], float, random.Random], Iterator[Thought[Any]]]
"""A level's search: (state, budget in seconds, random generator) to its thoughts."""


@dataclass(frozen=True, slots=True)
class Level:
    """A bot level as a game offers it."""

    name: str
    summary: str
    """One line for people choosing a level."""
    think: Think
    quick: bool = False
    """Whether it answers within milliseconds whatever its budget, so it never queues
    behind levels that search for their whole budget."""


def forced_result(score: int) -> int | None:
    """Plies to a forced end for a decided score (positive: the mover wins), else None."""
    if score >= DECIDED:
        return WIN - score
    if score <= -DECIDED:
        return -(WIN + score)
    return None


class Deadline:
    """When a search must stop: `budget` seconds from now, asked cheaply and often."""

    __slots__ = ("at",)

    def __init__(self, budget: float) -> None:
        self.at = time.monotonic() + budget

    def passed(self) -> bool:
        return time.monotonic() >= self.at

    def left(self) -> float:
        return self.at - time.monotonic()


class OutOfTime(Exception):  # noqa: N818 (a signal to unwind a search, not an error)
    """Raised inside a search when its deadline passes; the search keeps its last thought."""
