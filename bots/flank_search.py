"""Search settings and the pieces every flank search shares: the clock, ordering, results.

The searches work on bitboards and return moves as one-bit bitboards; `bots.flank` turns
them into square numbers and `Thought`s.
"""

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from random import Random

from .flank_eval import Weights
from .flank_shape import Shape, bits_of
from .thinking import DECIDED, WIN, Deadline, OutOfTime

INFINITY = WIN + 1
CLOCK_MASK = 63
"""The clock is read every 64 positions: a few milliseconds even on Doublolo's board."""


@dataclass(frozen=True, slots=True)
class Config:
    """How a level searches."""

    weights: Weights
    max_depth: int
    """The deepest iteration (plies; a pass takes none)."""
    transpositions: bool
    """Whether to keep a transposition table."""
    solve_at: int
    """With this many empty squares or fewer, jump from a shallow search to an exact one."""
    reply_order_depth: int
    """Two seats: order moves by the replies they leave the opponent at nodes this deep or
    deeper (0: never); costly, but it pays where the subtrees are big."""
    multi: str = "paranoid"
    """Three seats: `paranoid` (the others gang up) or `brs` (best-reply search)."""
    contempt: int = 0
    """What a drawn (or, for three seats, shared) finish costs the root seat: a bot should
    not settle for one while it can still hope to win (Doublolo deals can end in four
    plies at 6-6)."""


@dataclass(frozen=True, slots=True)
class Result:
    """A finished (or usefully interrupted) iteration: the move, its line and score."""

    line: tuple[int, ...]
    """Move bits, starting with the move; passes leave no entry."""
    seats: tuple[int, ...]
    """Who plays each move of `line`, counted from the root seat in turn order; empty
    where the line follows the rules' turn order (then only its legality is checked)."""
    score: int
    depth: int
    nodes: int
    exact: bool
    """Whether deeper iterations would change nothing: every line reached the end of the
    game, or the score is a forced result."""


class Clock:
    """Counts positions and raises OutOfTime once the deadline has passed."""

    __slots__ = ("at", "nodes")

    def __init__(self, deadline: Deadline) -> None:
        self.at = deadline.at
        self.nodes = 0

    def tick(self) -> None:
        """Count a position; every so often, check the time."""
        self.nodes += 1
        if not self.nodes & CLOCK_MASK and time.monotonic() >= self.at:
            raise OutOfTime


def static_priorities(shape: Shape) -> dict[int, int]:
    """A move ordering score per square: corners first, then by fewest open axes, squares
    next to corners last; ties go to valued squares."""
    rank = (6000, 400, 250, 100, 0)
    priorities: dict[int, int] = {}
    for axes, mask in enumerate(shape.open_axes):
        for bit in bits_of(mask):
            priorities[bit] = rank[axes]
    for bit in bits_of(shape.corner_diagonals):
        priorities[bit] -= 3000
    for bit in bits_of(shape.corner_sides):
        priorities[bit] -= 1500
    for value, mask in enumerate(shape.values, 1):
        for bit in bits_of(mask):
            priorities[bit] += 30 * value
    return priorities


def root_order(
    moves: int, priorities: dict[int, int], shuffle: Callable[[list[int]], None]
) -> list[int]:
    """The first ordering of the root moves: by static priority, ties in random order."""
    bits = list(bits_of(moves))
    shuffle(bits)
    bits.sort(key=lambda bit: -priorities[bit])
    return bits


def reorder(previous: Sequence[int], scores: dict[int, int], best: int) -> list[int]:
    """Root moves for the next iteration: the best first, the others by their last scores."""
    rest = [bit for bit in previous if bit != best]
    rest.sort(key=lambda bit: -scores.get(bit, -INFINITY))
    return [best, *rest]


def store_score(score: int, ply: int) -> int:
    """A score as kept in a transposition table: forced results counted from the node."""
    if score >= DECIDED:
        return score + ply
    if score <= -DECIDED:
        return score - ply
    return score


def load_score(score: int, ply: int) -> int:
    """A transposition table score seen from the root again, `ply` plies down."""
    if score >= DECIDED:
        return score - ply
    if score <= -DECIDED:
        return score + ply
    return score


SOLVE_FROM_DEPTH = 3
"""Iterations done normally before an endgame jumps to the exact search."""


class Search(ABC):
    """Iterative deepening over the root moves, shared by the two- and three-seat searches.

    An iteration searches the first root move with a full window and the others with a
    null window first (re-searching those that beat it). When the clock runs out the
    iteration is dropped, unless some root move finished, in which case the best of
    those stands: the first one tried is the previous iteration's best.
    """

    def __init__(self, shape: Shape, config: Config, deadline: Deadline) -> None:
        self.shape = shape
        self.config = config
        self.free = shape.free
        self.points = shape.points
        self.clock = Clock(deadline)
        self.priorities = static_priorities(shape)
        self.partial: Result | None = None
        self.estimates = 0
        """Positions scored by the evaluation (not by the end of the game) this iteration,
        counting those a transposition table entry stands for."""

    @property
    def nodes(self) -> int:
        return self.clock.nodes

    def think(self, moves: int, empties: int, rng: Random) -> Iterator[Result]:
        """Results of deeper and deeper iterations until the deadline, the end, or a proof.

        The first comes at once: the best move by static ordering, searched one ply.
        """
        order = root_order(moves, self.priorities, rng.shuffle)
        yield Result((order[0],), (0,), self._quick_score(order[0]), 0, 0, False)
        if len(order) == 1:
            return
        depth = 1
        scores: dict[int, int] = {}
        while depth <= self.config.max_depth:
            try:
                result = self._iterate(order, depth, scores)
            except OutOfTime:
                if self.partial is not None:
                    yield self.partial
                return
            yield result
            if result.exact:
                return
            order = reorder(order, scores, result.line[0])
            depth = self._next_depth(depth, empties)

    def _next_depth(self, depth: int, empties: int) -> int:
        """One ply deeper, or straight to the end of the game in a small enough endgame."""
        if depth >= SOLVE_FROM_DEPTH and empties <= self.config.solve_at:
            return max(depth + 1, empties)
        return depth + 1

    def _iterate(self, order: list[int], depth: int, scores: dict[int, int]) -> Result:
        """One iteration over the root moves; `self.partial` holds the best finished so far."""
        self.partial = None
        self.estimates = 0
        alpha = best = -INFINITY
        best_result: Result | None = None
        for index, bit in enumerate(order):
            if index == 0:
                score = self._score_move(bit, depth, alpha, INFINITY)
            else:
                score = self._score_move(bit, depth, alpha, alpha + 1)
                if score > alpha:
                    score = self._score_move(bit, depth, alpha, INFINITY)
            scores[bit] = score
            if score > best:
                best = score
                alpha = max(alpha, score)
                line, seats = self._line_after(bit)
                best_result = Result(line, seats, score, depth, self.nodes, False)
                self.partial = best_result
        assert best_result is not None
        exact = self._proven(best)
        return Result(best_result.line, best_result.seats, best, depth, self.nodes, exact)

    def _proven(self, score: int) -> bool:
        """Whether an iteration's score is final: every line reached the end of the game,
        or the score is a forced result."""
        return not self.estimates or abs(score) >= DECIDED

    @abstractmethod
    def _quick_score(self, bit: int) -> int:
        """The root seat's static score after playing `bit` at the root."""

    @abstractmethod
    def _score_move(self, bit: int, depth: int, alpha: int, beta: int) -> int:
        """The root seat's score for root move `bit` searched `depth` plies, in (alpha, beta)."""

    @abstractmethod
    def _line_after(self, bit: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The line (moves, seats) starting with root move `bit`, just searched."""
