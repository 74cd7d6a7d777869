"""Tripppin solved exactly: every position of a board by retrograde analysis.

A position is the seat to move, both pieces' squares and both pieces' progress; a board
has 2 x 5 x 5 x 64 x 64 = 204,800 of them (a few thousand with both pieces on one square
are never used). The solve finds, for each, whether the side to move wins, loses or
neither can force a win, and in how many plies a win or loss comes with best play (the
winner hurrying, the loser holding out).

How: a position with no legal step is lost in 0 plies; one with a step onto the last
target is won in 1. From those, breadth first, backwards along the moves: every
predecessor of a lost position is won one ply later, and a predecessor whose every move
leads to a won position is lost one ply after the last of them. Predecessors can be
listed because the mover's steps depend only on the arrows under the opponent, who
stands still during the step. What is never reached is a draw. Breadth-first order makes
a win the fastest and a loss the slowest.

Measured on a shared 2-core machine in pure CPython 3.11: a full solve of boards 0-9 takes
49 ms on average, 80 ms at most (most positions are draws, which cost nothing to pass
back). A `Solver` can still stop at a deadline and carry on later, so even a budget too
short for one solve gets it done over a few moves.
"""

from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from parlour.rules.tripppin import ALL_DIRECTIONS, GOAL, GRID, REACH, ROUTES, SEATS

from .thinking import Deadline, OutOfTime

if TYPE_CHECKING:
    from .tripppin_traps import TrapProgress

SQUARES: Final = GRID.size
PAIRS: Final = SQUARES * SQUARES
"""Pairs (mover's square, opponent's square), numbered `mover * 64 + opponent`."""
BLOCKS: Final = len(SEATS) * GOAL * GOAL
"""Blocks of positions sharing the seat to move and both pieces' progress."""
POSITIONS: Final = BLOCKS * PAIRS
CHUNK: Final = 2048
"""Positions handled between looks at the clock."""


def block_of(seat: int, mover_progress: int, other_progress: int) -> int:
    """The block of positions with `seat` to move and these progress counts."""
    return (seat * GOAL + mover_progress) * GOAL + other_progress


def position_index(seat: int, pieces: tuple[int, int], progress: tuple[int, int]) -> int:
    """The number of a position with `seat` to move; pieces and progress in seat order."""
    other = 1 - seat
    block = block_of(seat, progress[seat], progress[other])
    return block * PAIRS + pieces[seat] * SQUARES + pieces[other]


def _reverse(arrows: int) -> int:
    """The arrow mask pointing the opposite ways (direction bits turned by four)."""
    return (arrows << 4 | arrows >> 4) & ALL_DIRECTIONS


def _predecessor_bases() -> tuple[tuple[int, ...], ...]:
    """For each (block, square the opponent just reached): where its positions before the
    step start; the step may have reached the opponent's previous target."""
    bases: list[tuple[int, ...]] = []
    for block in range(BLOCKS):
        rest, other_progress = divmod(block, GOAL)
        seat, mover_progress = divmod(rest, GOAL)
        other = 1 - seat
        route = ROUTES[other]
        for reached in range(SQUARES):
            found: list[int] = []
            if reached != route[other_progress]:
                found.append(block_of(other, other_progress, mover_progress) * PAIRS)
            if other_progress and reached == route[other_progress - 1]:
                found.append(block_of(other, other_progress - 1, mover_progress) * PAIRS)
            bases.append(tuple(found))
    return tuple(bases)


PREDECESSOR_BASES: Final = _predecessor_bases()
"""`PREDECESSOR_BASES[block * 64 + square]`, see `_predecessor_bases`."""
STORED_LOST: Final = 1
"""Stored results are plies + 1: odd for a loss of the mover, even for a win, 0 for a draw."""


@dataclass(frozen=True, slots=True)
class Solution:
    """A solved board: the result of every position, from the view of the side to move."""

    tiles: tuple[int, ...]
    stored: "array[int]"
    """Per position number: 0 if neither side can force a win, else plies to the end + 1
    (odd: the mover loses, even: the mover wins)."""
    horizon: int
    """The plies of the longest forced result on the board."""
    drawing: bytes
    """Per drawn position: how many of its moves keep the draw."""
    offsets: tuple[tuple[int, ...], ...] = field(repr=False)
    """The solver's `Solver.offsets`, for walking moves backwards."""
    traps: dict[int, "TrapProgress"] = field(default_factory=dict, repr=False, compare=False)
    """The work of `tripppin_traps.trap_rounds` so far, by victim."""

    def plies(self, index: int) -> int | None:
        """Plies to the forced end of position `index`, or None for a draw."""
        value = self.stored[index]
        return value - 1 if value else None

    def wins(self, index: int) -> bool:
        """Whether the side to move in position `index` can force a win."""
        value = self.stored[index]
        return value > 0 and not value & 1

    def loses(self, index: int) -> bool:
        """Whether the opponent of the side to move in position `index` can force a win."""
        return bool(self.stored[index] & 1)


@lru_cache(maxsize=8)
def board_steps(tiles: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """`steps[mover * 64 + opponent]`: where the mover may step (nothing if on one square).

    Kept for the last few boards: the search and the solver both read it on every move."""
    steps: list[tuple[int, ...]] = []
    for here in range(SQUARES):
        reach = REACH[here]
        for there in range(SQUARES):
            if here == there:
                steps.append(())
            else:
                steps.append(tuple(s for s in reach[tiles[there] or ALL_DIRECTIONS] if s != there))
    return tuple(steps)


class Solver:
    """A solve in progress, able to stop at a deadline and carry on where it stopped."""

    def __init__(self, tiles: tuple[int, ...]) -> None:
        self.tiles = tiles
        self.stored: list[int] = []
        self.counts = bytearray()
        self.queue: list[int] = []
        self.done = 0
        """How many queued positions have passed their result on to their predecessors."""
        self.offsets: tuple[tuple[int, ...], ...] = ()
        """`offsets[standing * 64 + square]`: the pairs (mover, opponent) of the positions
        from which the mover stepped onto `square` while the opponent stood on `standing`."""
        self.started = False

    def solve(self, deadline: Deadline) -> Solution:
        """Finish the solve, or raise OutOfTime with the work so far kept for next time."""
        while not self.started:
            if deadline.passed():
                raise OutOfTime
            self._next_stage()()
        self._propagate(deadline)
        longest = self.stored[self.queue[-1]] - 1 if self.queue else 0
        stored = array("H", self.stored)
        return Solution(self.tiles, stored, longest, bytes(self.counts), self.offsets)

    def _next_stage(self) -> Callable[[], None]:
        """The next stage of setting the solve up, each a few milliseconds."""
        if not self.offsets:
            return self._list_arrivals
        if not self.stored:
            return self._decide_stuck
        return self._decide_finishes

    def _list_arrivals(self) -> None:
        """Fill `offsets`: the first stage."""
        tiles = self.tiles
        self.offsets = tuple(
            tuple(before * SQUARES + standing for before in _arrivals(tiles, standing, square))
            if standing != square
            else ()
            for standing in range(SQUARES)
            for square in range(SQUARES)
        )

    def _decide_stuck(self) -> None:
        """Count every position's moves, and queue those with none as lost: the second stage."""
        counts = bytes(len(each) for each in board_steps(self.tiles))
        self.counts = bytearray(counts * BLOCKS)
        stored = [0] * POSITIONS
        stuck = [pair for pair in range(PAIRS) if not counts[pair] and pair % 65]
        queue = self.queue
        for block in range(BLOCKS):
            base = block * PAIRS
            for pair in stuck:
                stored[base + pair] = STORED_LOST
                queue.append(base + pair)
        self.stored = stored

    def _decide_finishes(self) -> None:
        """Queue the positions with a step onto the last target as won: the last stage."""
        steps, stored, queue = board_steps(self.tiles), self.stored, self.queue
        for seat in range(len(SEATS)):
            finish = ROUTES[seat][GOAL - 1]
            winning = [pair for pair in range(PAIRS) if finish in steps[pair]]
            for other_progress in range(GOAL):
                base = block_of(seat, GOAL - 1, other_progress) * PAIRS
                for pair in winning:
                    stored[base + pair] = STORED_LOST + 1
                    queue.append(base + pair)
        self.started = True

    def _propagate(self, deadline: Deadline) -> None:
        """Pass results back to predecessors, breadth first, until none is left."""
        queue, stored, counts = self.queue, self.stored, self.counts
        offsets, bases_of = self.offsets, PREDECESSOR_BASES
        append = queue.append
        done = self.done
        while done < len(queue):
            if deadline.passed():
                self.done = done
                raise OutOfTime
            end = min(done + CHUNK, len(queue))
            for index in queue[done:end]:
                before = stored[index] + 1
                pair = index & (PAIRS - 1)
                bases = bases_of[(index >> 12) << 6 | (index & 63)]
                arrivals = offsets[pair]
                if before & 1:
                    for base in bases:
                        for offset in arrivals:
                            j = base + offset
                            if not stored[j]:
                                left = counts[j] - 1
                                counts[j] = left
                                if not left:
                                    stored[j] = before
                                    append(j)
                else:
                    for base in bases:
                        for offset in arrivals:
                            j = base + offset
                            if not stored[j]:
                                stored[j] = before
                                append(j)
            done = end
        self.done = done


def _arrivals(tiles: tuple[int, ...], standing: int, square: int) -> tuple[int, ...]:
    """The squares from which a piece steps onto `square` while the other stands on
    `standing` (whose arrows rule the step)."""
    arrows = _reverse(tiles[standing] or ALL_DIRECTIONS)
    return tuple(before for before in REACH[square][arrows] if before != standing)


class SolutionCache:
    """The last few boards' solves in this process, finished or under way."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.solvers: OrderedDict[tuple[int, ...], Solver | Solution] = OrderedDict()

    def get(self, tiles: tuple[int, ...]) -> Solution | None:
        """The finished solution of `tiles`, if there is one."""
        found = self.solvers.get(tiles)
        if isinstance(found, Solution):
            self.solvers.move_to_end(tiles)
            return found
        return None

    def solve(self, tiles: tuple[int, ...], deadline: Deadline) -> Solution:
        """The solution of `tiles`, continuing any earlier start; OutOfTime if not done."""
        found = self.solvers.get(tiles)
        if isinstance(found, Solution):
            self.solvers.move_to_end(tiles)
            return found
        solver = found or Solver(tiles)
        self.solvers[tiles] = solver
        self.solvers.move_to_end(tiles)
        while len(self.solvers) > self.size:
            self.solvers.popitem(last=False)
        solution = solver.solve(deadline)
        self.solvers[tiles] = solution
        return solution
