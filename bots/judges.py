"""Quick judges of a position: each seat's share of the win, from 0 to 1, summing to 1, as
a replay's chart draws it (a finished game's shares are its result: the winners split 1).

The judges, one per kind of game, each well within 0.3 s of CPU for a whole game of
ordinary length (benchmarks/replays.py measures them and fits their scales):

- flank games: the hard bots' static view (`flank_eval.STRONG`) of each seat's strength
  `s`, a seat's share growing as `e^(s / scale)` (a softmax), the scale `FLANK_SCALE` per
  opponent. A position's shares are the mean of its own and those after the mover's best
  move (by the mover's share): the two lean opposite ways on whose turn it is, so the
  mean does not see-saw from move to move.
- Oubliette: the bots' evaluation (`oubliette_eval`) from the mover's side, a score `s`
  giving the mover `1 / (1 + e^(-s / scale))`, the scale `OUBLIETTE_SCALE` per ejection
  needed to win. A position's share is the mean of its own and that after the mover's
  best push, if one is better than standing still (a look one ply ahead at pushes only:
  as good a fit as at every move, at a fifth of the time).
- Tripppin: the board solved, as the "perfect" level solves it: a forced win is 1, a
  forced loss 0, and 0.5 where neither side can force a win (or not before the ply limit).
"""

import math
from collections.abc import Sequence
from typing import Any, Final, TypeVar

from parlour.rules import State
from parlour.rules.flank import FlankState
from parlour.rules.oubliette import OublietteState
from parlour.rules.tripppin import TripppinState

from .flank_eval import STRONG, make_strength, make_view
from .flank_shape import bits_of, shape_of
from .oubliette import sides
from .oubliette_eval import evaluate, tables
from .oubliette_search import children
from .thinking import Deadline
from .tripppin_perfect import position_score
from .tripppin_search import plies_left
from .tripppin_solver import Solver, position_index

StateT = TypeVar("StateT", bound=State[Any])
Shares = tuple[float, ...]
"""Each seat's share of the win, in seat order: from 0 to 1, summing to 1."""

FLANK_SCALE: Final = 2000
"""Flank strengths, in hundredths of a point, per opponent, that make a seat's share e
times another's: 20 points with two seats, 40 with three (see benchmarks/replays.py)."""
OUBLIETTE_SCALE: Final = 250
"""Oubliette scores (an ejection is 1000) per ejection needed to win, that make the
mover's odds e times as good: in the usual race to six, one ejection up is about 67%."""


def judge(states: Sequence[State[Any]]) -> tuple[str, list[Shares]] | None:
    """What judges these positions of one game, and each one's shares; None if no judge
    knows the game."""
    flank = _all_of(states, FlankState)
    if flank:
        return "hard level's view, a move ahead", _judge_flank(flank)
    oubliette = _all_of(states, OublietteState)
    if oubliette:
        return "level 0's view, a push ahead", _judge_oubliette(oubliette)
    tripppin = _all_of(states, TripppinState)
    if tripppin:
        return "perfect: the board solved", _judge_tripppin(tripppin)
    return None


def _all_of(states: Sequence[State[Any]], kind: type[StateT]) -> list[StateT]:
    """The states, if every one is of this kind; else none."""
    found = [state for state in states if isinstance(state, kind)]
    return found if len(found) == len(states) else []


def result_shares(state: State[Any]) -> Shares:
    """A finished game's result as shares: the winners split the win."""
    return _split(state.winners(), len(state.game.seats))


def _split(winners: Sequence[int], seats: int) -> Shares:
    """The win split among `winners` (among every seat if there are none)."""
    winners = winners or range(seats)
    return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(seats))


def _judge_flank(states: Sequence[FlankState]) -> list[Shares]:
    """Each position's shares: the mean of its static view and the view after the mover's
    best move, by the mover's own share."""
    board = states[0].board
    shape = shape_of(board)
    strength = make_strength(shape, STRONG)
    view_of = make_view(shape, STRONG)
    scale = FLANK_SCALE * (len(states[0].pieces) - 1)

    def static(pieces: Sequence[int]) -> Shares:
        """The shares of a position with these pieces, or its result if nobody can move."""
        empty = shape.free
        for piece in pieces:
            empty &= ~piece
        moves = [board.moves(pieces, seat) for seat in range(len(pieces))]
        if not any(moves):
            points = [shape.points(piece) for piece in pieces]
            top = max(points)
            return _split([seat for seat, got in enumerate(points) if got == top], len(points))
        view = view_of(empty)
        return _softmax(
            [strength(piece, own, view) / scale for piece, own in zip(pieces, moves, strict=True)]
        )

    judged: list[Shares] = []
    for state in states:
        if state.is_over:
            judged.append(result_shares(state))
            continue
        mover = state.to_move
        own = state.pieces[mover]
        others = [piece for seat, piece in enumerate(state.pieces) if seat != mover]
        best: Shares | None = None
        for bit in bits_of(state.moves_mask):
            flipped = board.flips(bit, own, others)
            pieces = [
                piece | flipped | bit if seat == mover else piece & ~flipped
                for seat, piece in enumerate(state.pieces)
            ]
            shares = static(pieces)
            if best is None or shares[mover] > best[mover]:
                best = shares
        now = static(state.pieces)
        judged.append(tuple((a + b) / 2 for a, b in zip(now, best or now, strict=True)))
    return judged


def _judge_oubliette(states: Sequence[OublietteState]) -> list[Shares]:
    """Each position's shares: the mean of the bots' evaluation of it from the mover's
    side and of the same after the mover's best push, where one beats standing still."""
    judged: list[Shares] = []
    for state in states:
        if state.is_over:
            judged.append(result_shares(state))
            continue
        layout = state.layout
        found = tables(layout.holes, layout.limit, layout.win)
        own, opp, (own_ejected, opp_ejected) = sides(state)
        now = evaluate(own, opp, own_ejected, opp_ejected, found)
        best: float = now
        for _, moved, pushed_to, pushed, ejects in children(
            own, opp, layout.holes, layout.blocks, layout.limit
        ):
            if own_ejected + ejects >= layout.win:
                best = math.inf
                break
            if pushed:
                after = evaluate(pushed_to, moved, opp_ejected, own_ejected + ejects, found)
                best = max(best, -after)
        scale = OUBLIETTE_SCALE * layout.win
        mover = (_logistic(now / scale) + _logistic(best / scale)) / 2
        if layout.max_plies and state.ply + 1 >= layout.max_plies:
            mover = 1.0 if best == math.inf else 0.5
        judged.append(_two_seats(mover, state.to_move))
    return judged


def _judge_tripppin(states: Sequence[TripppinState]) -> list[Shares]:
    """Each position's shares by the solved board: 1 for a forced win, 0.5 for neither."""
    solution = Solver(states[0].tiles).solve(Deadline(math.inf))
    judged: list[Shares] = []
    for state in states:
        if state.is_over:
            judged.append(result_shares(state))
            continue
        index = position_index(state.to_move, state.pieces, state.progress)
        score = position_score(solution, index, plies_left(state))
        mover = 1.0 if score > 0 else 0.0 if score < 0 else 0.5
        judged.append(_two_seats(mover, state.to_move))
    return judged


def _softmax(values: Sequence[float]) -> Shares:
    """Shares proportional to e to each value."""
    top = max(values)
    weights = [math.exp(value - top) for value in values]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


def _logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflow at either end (infinities give 0 and 1)."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    small = math.exp(x)
    return small / (1 + small)


def _two_seats(mover_share: float, to_move: int) -> Shares:
    """A two-seat game's shares from the share of the seat to move."""
    return (mover_share, 1 - mover_share) if to_move == 0 else (1 - mover_share, mover_share)
