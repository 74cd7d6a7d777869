"""What the flank bots know of a board before they search: lines, walls and fast primitives.

A square can only be flipped along a line (an axis) on which both of its neighbours are
playable. A blocked square or the board's border next to it closes that axis for good, so a
square walled on every axis is a corner (never flipped once taken), and a square beside a
blocked square behaves like an edge on that axis. The search works on the engine's
bitboards (rows of `cols + 1` bits with an empty guard bit) through the closures built
here, which are several times faster than going through `FlankState.play`.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from parlour.rules.flank import FlankBoard

Moves2 = Callable[[int, int, int], int]
"""(own, opponent, empty) to the bitboard of own's moves."""
Flips2 = Callable[[int, int, int], int]
"""(move bit, own, opponent) to the bitboard of what the move flips."""
Moves3 = Callable[[int, int, int, int], int]
"""(own, first opponent, second opponent, empty) to own's moves."""
Flips3 = Callable[[int, int, int, int], int]
"""(move bit, own, first opponent, second opponent) to what the move flips."""
Spread = Callable[[int], int]
"""A bitboard to the playable squares next to it."""

AXIS_COUNT = 4


@dataclass(frozen=True, slots=True)
class Shape:
    """A board's geometry as the bots see it; see `shape_of`."""

    board: FlankBoard
    width: int
    cols: int
    free: int
    """Playable squares."""
    open_axes: tuple[int, ...]
    """`open_axes[k]` is the bitboard of free squares open (flippable) on exactly k axes."""
    walled: tuple[int, ...]
    """Per axis (east, south-west, south, south-east): free squares walled on it."""
    corners: int
    """Free squares walled on every axis: once taken, never flipped."""
    corner_diagonals: int
    """Free non-corner squares diagonally next to a corner."""
    corner_sides: int
    """Free non-corner squares orthogonally next to a corner."""
    values: tuple[int, ...]
    """The board's square values: `values[v - 1]` holds the squares worth v extra points."""
    moves2: Moves2
    flips2: Flips2
    moves3: Moves3
    flips3: Flips3
    spread: Spread
    spread_diagonal: Spread
    spread_orthogonal: Spread

    @property
    def has_values(self) -> bool:
        """Whether some squares are worth extra points (Numlo)."""
        return bool(self.values)

    def square(self, bit: int) -> int:
        """The square number of a one-bit bitboard."""
        position = bit.bit_length() - 1
        return (position // self.width) * self.cols + position % self.width

    def bit(self, square: int) -> int:
        """The one-bit bitboard of a square number."""
        return self.board.grid.bit(square)

    def points(self, mask: int) -> int:
        """What the squares of `mask` score at the end: one each plus their values."""
        total = mask.bit_count()
        for value, squares in enumerate(self.values, 1):
            if mask & squares:
                total += value * (mask & squares).bit_count()
        return total

    def stable(self, own: int) -> int:
        """Own pieces that can never be flipped, grown from own corners along walled axes.

        A piece is safe on an axis if it is walled there or a neighbour on that axis is a
        safe piece of its own colour: a run can only flip whole, and that neighbour never
        flips. (Full lines would make more pieces safe; counting them did not play better.)
        """
        stable = own & self.corners
        if not stable:
            return 0
        w = self.width
        safe_e, safe_sw, safe_s, safe_se = self.walled
        while True:
            grown = (
                own
                & (safe_e | stable << 1 | stable >> 1)
                & (safe_sw | stable << (w - 1) | stable >> (w - 1))
                & (safe_s | stable << w | stable >> w)
                & (safe_se | stable << (w + 1) | stable >> (w + 1))
            )
            grown |= stable
            if grown == stable:
                return stable
            stable = grown


def bits_of(mask: int) -> Iterator[int]:
    """The one-bit bitboards of `mask`, lowest first."""
    while mask:
        bit = mask & -mask
        yield bit
        mask ^= bit


@lru_cache(maxsize=32)
def shape_of(board: FlankBoard) -> Shape:
    """The geometry and primitives of `board`, made once per board (pure, so cached)."""
    grid = board.grid
    w = grid.width
    free = board.free
    shifts = (1, w - 1, w, w + 1)
    walled = tuple(free & ~((free >> s) & (free << s)) for s in shifts)
    open_counts = [0] * (AXIS_COUNT + 1)
    for bit in bits_of(free):
        open_counts[sum(1 for wall in walled if not wall & bit)] |= bit
    corners = open_counts[0]
    spread, spread_diagonal, spread_orthogonal = _make_spreads(w, free)
    return Shape(
        board=board,
        width=w,
        cols=grid.cols,
        free=free,
        open_axes=tuple(open_counts),
        walled=walled,
        corners=corners,
        corner_diagonals=spread_diagonal(corners) & ~corners,
        corner_sides=spread_orthogonal(corners) & ~corners,
        values=board.values,
        moves2=_make_moves2(w),
        flips2=_make_flips2(w),
        moves3=_make_moves3(w),
        flips3=_make_flips3(w),
        spread=spread,
        spread_diagonal=spread_diagonal,
        spread_orthogonal=spread_orthogonal,
    )


def _make_spreads(w: int, free: int) -> tuple[Spread, Spread, Spread]:
    """Neighbourhood functions: all eight neighbours, the diagonal ones, the orthogonal ones."""
    d1, d2, d3 = w - 1, w, w + 1

    def spread(mask: int) -> int:
        return free & (
            mask << 1 | mask >> 1 | mask << d1 | mask >> d1
            | mask << d2 | mask >> d2 | mask << d3 | mask >> d3
        )  # fmt: skip

    def spread_diagonal(mask: int) -> int:
        return free & (mask << d1 | mask >> d1 | mask << d3 | mask >> d3)

    def spread_orthogonal(mask: int) -> int:
        return free & (mask << 1 | mask >> 1 | mask << d2 | mask >> d2)

    return spread, spread_diagonal, spread_orthogonal


def _make_moves2(w: int) -> Moves2:
    """Two-player move generation, unrolled over the eight directions for speed."""
    d1, d2, d3 = w - 1, w, w + 1

    def moves2(own: int, opp: int, empty: int) -> int:
        moves = 0
        x = opp & own << 1
        while x:
            x <<= 1
            moves |= x
            x &= opp
        x = opp & own >> 1
        while x:
            x >>= 1
            moves |= x
            x &= opp
        x = opp & own << d1
        while x:
            x <<= d1
            moves |= x
            x &= opp
        x = opp & own >> d1
        while x:
            x >>= d1
            moves |= x
            x &= opp
        x = opp & own << d2
        while x:
            x <<= d2
            moves |= x
            x &= opp
        x = opp & own >> d2
        while x:
            x >>= d2
            moves |= x
            x &= opp
        x = opp & own << d3
        while x:
            x <<= d3
            moves |= x
            x &= opp
        x = opp & own >> d3
        while x:
            x >>= d3
            moves |= x
            x &= opp
        return moves & empty

    return moves2


def _make_flips2(w: int) -> Flips2:
    """Two-player flips: walk each direction while the opponent's pieces last."""
    shifts = (1, w - 1, w, w + 1)

    def flips2(bit: int, own: int, opp: int) -> int:
        flipped = 0
        for s in shifts:
            x = bit << s
            if x & opp:
                run = x
                x <<= s
                while x & opp:
                    run |= x
                    x <<= s
                if x & own:
                    flipped |= run
            x = bit >> s
            if x & opp:
                run = x
                x >>= s
                while x & opp:
                    run |= x
                    x >>= s
                if x & own:
                    flipped |= run
        return flipped

    return flips2


def _make_moves3(w: int) -> Moves3:
    """Three-player move generation: runs of one opponent each, never mixed."""
    shifts = (1, w - 1, w, w + 1)

    def moves3(own: int, a: int, b: int, empty: int) -> int:
        moves = 0
        for s in shifts:
            east = own << s
            west = own >> s
            x = a & east
            while x:
                x <<= s
                moves |= x
                x &= a
            x = a & west
            while x:
                x >>= s
                moves |= x
                x &= a
            x = b & east
            while x:
                x <<= s
                moves |= x
                x &= b
            x = b & west
            while x:
                x >>= s
                moves |= x
                x &= b
        return moves & empty

    return moves3


def _make_flips3(w: int) -> Flips3:
    """Three-player flips: a run flips only if it is all one opponent's, closed by own."""
    shifts = (1, w - 1, w, w + 1)

    def flips3(bit: int, own: int, a: int, b: int) -> int:
        flipped = 0
        for s in shifts:
            x = bit << s
            opp = a if x & a else b if x & b else 0
            if opp:
                run = x
                x <<= s
                while x & opp:
                    run |= x
                    x <<= s
                if x & own:
                    flipped |= run
            x = bit >> s
            opp = a if x & a else b if x & b else 0
            if opp:
                run = x
                x >>= s
                while x & opp:
                    run |= x
                    x >>= s
                if x & own:
                    flipped |= run
        return flipped

    return flips3
