"""Whether a seat could still win: some line of legal moves, every seat playing along,
that ends with it among the winners.

A game on the clock asks it of the seat left when the other runs out of time: a seat that
could not win by the rules, whatever anyone played, is given a tie instead of the win
(as chess gives a draw to a side without the material to mate). A few games played out at
random come first: one of them is a win for the seat in almost every position but the
last few of a game, at a fraction of the cost. Then the search runs depth first, the moves
best for the seat first; a position is never searched twice. Past `limit` positions made
it answers yes: where in doubt, the flag stands.
"""

import random
from typing import Any, Final

from .game import State

SEARCH_LIMIT: Final = 1500
"""Positions made at most: some 30 ms for the slowest game to play a move (Oubliette)."""
DEPTH_LIMIT: Final = 200
"""Moves deep at most: a line longer than this is taken to be one the seat could win."""
PLAYOUTS: Final = 8
"""Games played out at random before the search."""


def could_win(state: State[Any], seat: int, limit: int = SEARCH_LIMIT) -> bool:
    """Whether `seat` wins in some line of play from `state` (yes past `limit`)."""
    chance = random.Random(0)  # the same answer for the same position, every time
    budget = [limit]
    if any(_played_out(state, seat, chance, budget) for _ in range(PLAYOUTS)):
        return True
    seen: set[State[Any]] = set()

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


def _played_out(state: State[Any], seat: int, chance: random.Random, budget: list[int]) -> bool:
    """Whether a game played on at random from `state` ends with `seat` among the winners
    (or runs past `DEPTH_LIMIT` moves, or the positions `budget` allows, as the search
    takes it)."""
    for _ in range(DEPTH_LIMIT):
        if state.is_over:
            return seat in state.winners()
        if budget[0] <= 0:
            return True
        budget[0] -= 1
        state = state.play(chance.choice(state.legal_moves()))
    return True


def _lead(state: State[Any], seat: int) -> int:
    """How far `seat` is ahead of the best of the others."""
    scores = state.scores()
    others = [score for index, score in enumerate(scores) if index != seat]
    return scores[seat] - max(others, default=0)
