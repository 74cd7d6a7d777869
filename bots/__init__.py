"""Computer players: pure functions of (state, time budget, random generator) to a move.

A bot knows nothing of rooms or sockets; the server runs it in a worker process.
"""

from .players import LEVELS, UnknownLevelError, choose_move, fallback_move, levels_for, ready

__all__ = ["LEVELS", "UnknownLevelError", "choose_move", "fallback_move", "levels_for", "ready"]
