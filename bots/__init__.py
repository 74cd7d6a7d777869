"""Computer players: pure functions of (state, time budget, random generator) to a move.

A bot knows nothing of rooms or sockets; the server runs it in a worker process. Each
level is an anytime search (`thinking.Level`) that yields its thoughts as it deepens.
"""

from .players import (
    UnknownLevelError,
    choose_move,
    default_level,
    fallback_move,
    level_named,
    levels_for,
    levels_of,
    ready,
    report,
    think,
)
from .thinking import WIN, Level, Thought

__all__ = [
    "WIN",
    "Level",
    "Thought",
    "UnknownLevelError",
    "choose_move",
    "default_level",
    "fallback_move",
    "level_named",
    "levels_for",
    "levels_of",
    "ready",
    "report",
    "think",
]
