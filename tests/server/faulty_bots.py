"""Bots that misbehave on purpose, run in the server's worker processes by the tests."""

import os
import time
from typing import Any

from parlour.rules import State


def crashing_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    raise RuntimeError("this bot always fails")


def dying_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    os._exit(3)


def hanging_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    time.sleep(3600)
    return state.format_move(state.legal_moves()[0])


def illegal_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    return "d4"  # a centre square: taken from the start, never legal


def thoughtful_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    """Thinks for most of its budget, then plays the last legal move."""
    time.sleep(budget * 0.8)
    return state.format_move(state.legal_moves()[-1])


def niceness_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    """Answers with its worker's niceness instead of a move."""
    return str(os.nice(0))
