"""Whether a seat could still win: some line of legal moves, every seat playing along,
that ends with it among the winners.

A game on the clock asks it of the seat left when the other runs out of time: a seat that
could not win by the rules, whatever anyone played, is given a tie instead of the win
(as chess gives a draw to a side without the material to mate). The search runs depth
first, the moves best for the seat first; a position is never searched twice. Past
`limit` positions made it answers yes: where in doubt, the flag stands.
"""

from typing import Any, Final

from .game import State

SEARCH_LIMIT: Final = 1500
"""Positions made at most: some 30 ms for the slowest game to play a move (Oubliette)."""
DEPTH_LIMIT: Final = 200
"""Moves deep at most: a line longer than this is taken to be one the seat could win."""


def could_win(state: State[Any], seat: int, limit: int = SEARCH_LIMIT) -> bool:
    """Whether `seat` wins in some line of play from `state` (yes past `limit`)."""
    seen: set[State[Any]] = set()
    budget = [limit]

    def search(position: State[Any], depth: int) -> bool:
        if position.is_over:
            return seat in position.winners()
        moves = position.legal_moves()
        budget[0] -= len(moves)
        if budget[0] < 0 or depth >= DEPTH_LIMIT:
            return True
        children = [position.play(move) for move in moves]
        children.sort(key=lambda child: -_lead(child, seat))
        for child in children:
            if child in seen:
                continue
            seen.add(child)
            if search(child, depth + 1):
                return True
        return False

    return search(state, 0)


def _lead(state: State[Any], seat: int) -> int:
    """How far `seat` is ahead of the best of the others."""
    scores = state.scores()
    others = [score for index, score in enumerate(scores) if index != seat]
    return scores[seat] - max(others, default=0)
