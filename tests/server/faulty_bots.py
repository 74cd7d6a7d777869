"""Bots that misbehave on purpose, run in the server's worker processes by the tests.

Each has the form of `bots.think`: (state, level, budget, seed) to thoughts.
"""

import os
import time
from collections.abc import Iterator
from typing import Any

from parlour.bots import Thought
from parlour.rules import State


def crashing_bot(
    state: State[Any], level: str, budget: float, seed: int
) -> Iterator[Thought[Any]]:
    raise RuntimeError("this bot always fails")


def dying_bot(state: State[Any], level: str, budget: float, seed: int) -> Iterator[Thought[Any]]:
    os._exit(3)


def hanging_bot(state: State[Any], level: str, budget: float, seed: int) -> Iterator[Thought[Any]]:
    first = state.legal_moves()[0]
    yield Thought(first, (first,), 0, 0, 1)
    time.sleep(3600)


def illegal_bot(state: State[Any], level: str, budget: float, seed: int) -> Iterator[Thought[Any]]:
    """In Oubliette, offers one of the opponent's moves: it moves pieces not the mover's."""
    fields = state.format_position().split(" ")
    fields[1] = "R" if fields[1] == "G" else "G"
    theirs = state.game.parse_position(" ".join(fields)).legal_moves()[0]
    yield Thought(theirs, (theirs,), 0, 0, 1)


def thoughtful_bot(
    state: State[Any], level: str, budget: float, seed: int
) -> Iterator[Thought[Any]]:
    """Thinks for most of its budget, a thought a tenth of the way, then plays the last
    legal move."""
    moves = state.legal_moves()
    for depth in range(1, 9):
        time.sleep(budget / 10)
        move = moves[-1] if depth == 8 else moves[0]
        yield Thought(move, (move,), depth, depth, depth)


def niceness_bot(
    state: State[Any], level: str, budget: float, seed: int
) -> Iterator[Thought[Any]]:
    """Answers with its worker's niceness as the score of its thought."""
    move = state.legal_moves()[0]
    yield Thought(move, (move,), os.nice(0), 0, 1)


def levelled_bot(
    state: State[Any], level: str, budget: float, seed: int
) -> Iterator[Thought[Any]]:
    """Answers at once at a quick level ("easy"), else thinks as `thoughtful_bot` does."""
    if level == "easy":
        move = state.legal_moves()[0]
        yield Thought(move, (move,), 0, 0, 1)
        return
    yield from thoughtful_bot(state, level, budget, seed)
