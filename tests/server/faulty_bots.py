"""Bots that fail on purpose, run in the server's worker processes by the tests."""

import time
from typing import Any

from parlour.rules import State


def crashing_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    raise RuntimeError("this bot always fails")


def slow_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    time.sleep(budget + 1)
    return state.format_move(state.legal_moves()[0])


def illegal_bot(state: State[Any], level: str, budget: float, seed: int) -> str:
    return "d4"  # a centre square: taken from the start, never legal
