"""How good a flank position looks, for seats that may not be at the end yet.

A seat's strength counts what wins these games once the opening is over: moves in hand
(mobility), squares that can no longer be lost (corners, and pieces grown from them along
walled axes), edge-like squares (few open axes: the border or a blocked square
beside them), few pieces touching empty squares (frontier), and, more as the board fills,
the points owned (in Numlo with the square values). Giving an opponent a corner by playing
next to an empty one costs. Every weight is in hundredths of a point.
"""

from collections.abc import Callable
from dataclasses import dataclass

from .flank_shape import Shape

POINT = 100
"""A point in the evaluation's units."""

Eval2 = Callable[[int, int, int, int], int]
"""(own, opponent, empty, own moves) to the score for own, who is to move."""
Strength = Callable[[int, int, "View"], int]
"""(seat, seat's moves, what the position shows) to the seat's strength."""
Known = tuple[int, int, int]
"""The moves of root, next seat and seat after where the search has them, else -1."""
Eval3 = Callable[[int, int, int, int, Known], int]
"""(root, next seat, seat after, empty, known moves) to the score for the root seat."""
UNKNOWN: Known = (-1, -1, -1)


@dataclass(frozen=True, slots=True)
class Weights:
    """What each feature of a position is worth; zero turns a feature off."""

    open_axes: tuple[int, int, int, int, int]
    """Per square by its number of open axes (0 is a corner, 1 an edge, 4 the open field)."""
    corner_diagonal: int
    """A piece diagonally next to an empty corner."""
    corner_side: int
    """A piece orthogonally next to an empty corner."""
    value: int
    """Per extra point of a square's value, held now (Numlo)."""
    mobility: int
    """Per legal move."""
    frontier: int
    """Per piece touching an empty square."""
    stable: int
    """Per point held for good."""
    points_early: int
    """Per point owned when the board is empty."""
    points_late: int
    """Per point owned when the board is full; in between the weight slides."""
    rival_max: int
    """Three seats: how much (in percent) the stronger opponent counts against the root,
    the rest going to the opponents' mean."""


SIMPLE = Weights(
    open_axes=(800, 120, 60, 20, 0),
    corner_diagonal=-300,
    corner_side=-150,
    value=40,
    mobility=0,
    frontier=0,
    stable=0,
    points_early=100,
    points_late=100,
    rival_max=50,
)
"""Squares and points only: the medium level's view."""

STRONG = Weights(
    open_axes=(800, 120, 60, 20, 0),
    corner_diagonal=-400,
    corner_side=-200,
    value=40,
    mobility=80,
    frontier=-25,
    stable=150,
    points_early=0,
    points_late=150,
    rival_max=50,
)
"""Mobility, stability and frontier as well: the hard level's view."""

EXPERT_DUEL = Weights(
    open_axes=(800, 120, 60, 20, 0),
    corner_diagonal=-800,
    corner_side=-400,
    value=40,
    mobility=100,
    frontier=-75,
    stable=150,
    points_early=-50,
    points_late=150,
    rival_max=50,
)
"""Two seats, tuned by self-play at fixed depth (it won 41 of 48 Othello games against
STRONG): dearer frontier and X/C squares, more mobility, few pieces early."""

EXPERT_MELEE = STRONG
"""Three seats: the strong view. Dropping the frontier lost ground in Tribolo, and the
changes that helped two seats did not carry over; the expert's edge is in its search."""


def _square_weights(shape: Shape, weights: Weights) -> tuple[tuple[int, int], ...]:
    """(weight, mask) pairs that give every square its static worth, by open axes and value."""
    pairs = [(w, mask) for w, mask in zip(weights.open_axes, shape.open_axes, strict=True) if w]
    pairs += [(weights.value * v, mask) for v, mask in enumerate(shape.values, 1) if mask]
    return tuple((w, mask) for w, mask in pairs if w and mask)


View = tuple[int, int, int, int]
"""What a position shows every seat alike, worked out once per evaluation: the squares
touching an empty square, those diagonally and orthogonally next to an open corner, and
what a point owned is worth at this stage of the game."""


def make_view(shape: Shape, weights: Weights) -> Callable[[int], View]:
    """The shared part of an evaluation, from the empty squares."""
    corners = shape.corners
    spread = shape.spread
    spread_diagonal = shape.spread_diagonal
    spread_orthogonal = shape.spread_orthogonal
    wants_frontier = bool(weights.frontier)
    free_count = shape.free.bit_count()
    w_early = weights.points_early
    w_late = weights.points_late
    dangers: dict[int, tuple[int, int]] = {}

    def view(empty: int) -> View:
        open_corners = corners & empty
        danger = dangers.get(open_corners)
        if danger is None:
            diagonal = spread_diagonal(open_corners) & ~corners
            danger = dangers[open_corners] = (diagonal, spread_orthogonal(open_corners) & ~corners)
        near_empty = spread(empty) if wants_frontier else 0
        filled = free_count - empty.bit_count()
        per_point = (w_early * (free_count - filled) + w_late * filled) // free_count
        return near_empty, danger[0], danger[1], per_point

    return view


def make_strength(shape: Shape, weights: Weights) -> Strength:
    """The strength of one seat, the part of every evaluation that looks at a single seat."""
    squares = _square_weights(shape, weights)
    corners = shape.corners
    stable_of = shape.stable
    values = shape.values
    w_diag = weights.corner_diagonal
    w_side = weights.corner_side
    w_mobility = weights.mobility
    w_frontier = weights.frontier
    w_stable = weights.stable

    def points(mask: int) -> int:
        total = mask.bit_count()
        for value, valued in enumerate(values, 1):
            if mask & valued:
                total += value * (mask & valued).bit_count()
        return total

    def strength(own: int, own_moves: int, view: View) -> int:
        near_empty, diagonal, side, per_point = view
        score = per_point * points(own) + w_mobility * own_moves.bit_count()
        for w, mask in squares:
            if own & mask:
                score += w * (own & mask).bit_count()
        if own & diagonal:
            score += w_diag * (own & diagonal).bit_count()
        if own & side:
            score += w_side * (own & side).bit_count()
        if near_empty:
            score += w_frontier * (own & near_empty).bit_count()
        if w_stable and own & corners:
            score += w_stable * points(stable_of(own))
        return score

    return strength


def make_eval2(shape: Shape, weights: Weights) -> Eval2:
    """The two-seat evaluation: own strength minus the opponent's, from the mover's side."""
    strength = make_strength(shape, weights)
    view_of = make_view(shape, weights)
    moves2 = shape.moves2
    needs_moves = bool(weights.mobility)

    def evaluate(own: int, opp: int, empty: int, own_moves: int) -> int:
        view = view_of(empty)
        opp_moves = moves2(opp, own, empty) if needs_moves else 0
        return strength(own, own_moves, view) - strength(opp, opp_moves, view)

    return evaluate


def make_eval3(shape: Shape, weights: Weights) -> Eval3:
    """The three-seat evaluation from the root's side: its strength less its rivals'.

    The rivals count by a blend of the stronger one and their mean, since the root wins
    only by beating both.
    """
    strength = make_strength(shape, weights)
    view_of = make_view(shape, weights)
    moves3 = shape.moves3
    needs_moves = bool(weights.mobility)
    share_max = weights.rival_max
    share_mean = 100 - share_max

    def evaluate(root: int, a: int, b: int, empty: int, known: Known) -> int:
        view = view_of(empty)
        root_moves, a_moves, b_moves = known if needs_moves else (0, 0, 0)
        if root_moves < 0:
            root_moves = moves3(root, a, b, empty)
        if a_moves < 0:
            a_moves = moves3(a, b, root, empty)
        if b_moves < 0:
            b_moves = moves3(b, root, a, empty)
        mine = strength(root, root_moves, view)
        sa = strength(a, a_moves, view)
        sb = strength(b, b_moves, view)
        rival = (share_max * max(sa, sb) * 2 + share_mean * (sa + sb)) // 200
        return mine - rival

    return evaluate
