"""The hexagonal board of Oubliette: 61 cells, five on a side, named as Abalone players do.

Rows `a` (bottom) to `i` (top) and diagonals 1 to 9: row a holds a1-a5, row e e1-e9, row i
i5-i9. From a cell, `e`/`w` step along the row, `ne`/`sw` to the next row up/down with
the number one higher/lower, and `nw`/`se` to the next row up/down with the same number.

In a bitboard the cell in row r (0 for a) with number c takes bit `(r + 1) * 11 + c`; the
ring of bits around the board is never a cell, so a step off the board lands on a bit
that is in `OFF_BOARD`, never on another cell.
"""

import re
from collections.abc import Iterable

from .bitboards import set_bits, union
from .errors import MalformedMoveError

ROW_LETTERS = "abcdefghi"
SIDE = 5
WIDTH = 11
"""Bits a row takes: numbers 1-9 and a spare bit on each side."""

DIRECTIONS: dict[str, int] = {
    "e": 1,
    "ne": WIDTH + 1,
    "nw": WIDTH,
    "w": -1,
    "sw": -WIDTH - 1,
    "se": -WIDTH,
}
"""Each direction's bit distance; opposite directions have opposite signs."""
AXES = (1, WIDTH + 1, WIDTH)
"""The three lines through a cell, as the positive direction along each."""


def _numbers(row: int) -> range:
    """The cell numbers of row `row` (0 for a)."""
    return range(max(1, row - SIDE + 2), min(2 * SIDE - 1, row + SIDE) + 1)


CELL_NAMES: tuple[str, ...] = tuple(
    f"{ROW_LETTERS[row]}{number}" for row in range(2 * SIDE - 1) for number in _numbers(row)
)
"""Every cell, from a1 to i9: row by row from the bottom, along each row by number."""
CELL_BITS: tuple[int, ...] = tuple(
    1 << ((row + 1) * WIDTH + number) for row in range(2 * SIDE - 1) for number in _numbers(row)
)
ROWS_FROM_TOP: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, name in enumerate(CELL_NAMES) if name[0] == letter)
    for letter in reversed(ROW_LETTERS)
)
"""Cell indices row by row from i (top) to a, each row by number: how positions are written."""
BOARD = sum(CELL_BITS)
CELL_COUNT = len(CELL_BITS)
OFF_BOARD = ((1 << ((2 * SIDE + 1) * WIDTH)) - 1) & ~BOARD
"""The ring of bits a single step off the board reaches."""

_INDEX_OF_NAME = {name: i for i, name in enumerate(CELL_NAMES)}
_INDEX_OF_BIT = {bit.bit_length() - 1: i for i, bit in enumerate(CELL_BITS)}
_CELL_TEXT = re.compile(r"[a-i][1-9]")


def shift(bits: int, distance: int) -> int:
    """`bits` moved `distance` bit positions up (positive) or down (negative)."""
    return bits << distance if distance > 0 else bits >> -distance


def mask(cells: Iterable[int]) -> int:
    """The bitboard of the cells with these indices."""
    return union(CELL_BITS, cells)


def cells_of(bits: int) -> list[int]:
    """The indices of the cells set in `bits`, ascending."""
    return [_INDEX_OF_BIT[position] for position in set_bits(bits)]


def parse_cell(text: str) -> int:
    """The index of the cell named `text` (like e5), or MalformedMoveError."""
    name = text.strip().lower()
    if not _CELL_TEXT.fullmatch(name) or name not in _INDEX_OF_NAME:
        raise MalformedMoveError(
            f"{text!r} is not a cell: a row a-i from the bottom and a number 1-9, like e5"
        )
    return _INDEX_OF_NAME[name]


def step(cell: int, direction: str) -> int | None:
    """The cell one step from `cell` in `direction`, or None off the board."""
    bit = shift(CELL_BITS[cell], DIRECTIONS[direction])
    return _INDEX_OF_BIT.get(bit.bit_length() - 1) if bit & BOARD else None
