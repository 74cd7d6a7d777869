"""Rectangular boards: square names and the bit layout the engines use.

Squares are numbered row by row from the top left (`square = row * cols + col`) and named
by a column letter and a row number from the top, as Othello writes them: `a1` is the top
left corner, `d3` is column d, row 3. In a bitboard each row takes `cols + 1` bits; the
extra guard bit at the end of every row stays empty, so a shift sideways never wraps into
the next row.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from string import ascii_lowercase

from .bitboards import set_bits, union
from .errors import MalformedMoveError

MAX_ROWS = 26
MAX_COLS = 26

_SQUARE_TEXT = re.compile(r"([a-z])([0-9]{1,2})")
_DIGIT_BYTES = bytes.maketrans(b"01", b"\x00\x01")


@dataclass(frozen=True, slots=True)
class Grid:
    """A board of `rows` x `cols` squares."""

    rows: int
    cols: int
    width: int = field(init=False, compare=False)
    """Bits a row takes in a bitboard: the columns and one guard bit."""
    full: int = field(init=False, compare=False)
    """The bitboard with every square set (and no guard bit)."""
    _bit_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _square_at: dict[int, int] = field(init=False, repr=False, compare=False)
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= MAX_ROWS and 1 <= self.cols <= MAX_COLS):
            raise ValueError(f"a board is at most {MAX_ROWS} x {MAX_COLS}")
        width = self.cols + 1
        positions = [r * width + c for r in range(self.rows) for c in range(self.cols)]
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "full", sum(1 << p for p in positions))
        object.__setattr__(self, "_bit_of", tuple(1 << p for p in positions))
        object.__setattr__(self, "_square_at", {p: sq for sq, p in enumerate(positions)})
        rows, cols = range(self.rows), ascii_lowercase[: self.cols]
        object.__setattr__(self, "_names", tuple(f"{c}{r + 1}" for r in rows for c in cols))

    @property
    def size(self) -> int:
        """The number of squares."""
        return self.rows * self.cols

    def bit(self, square: int) -> int:
        """The bitboard holding just `square`."""
        return self._bit_of[square]

    def mask(self, squares: Iterable[int]) -> int:
        """The bitboard holding `squares`."""
        return union(self._bit_of, squares)

    def squares(self, mask: int) -> list[int]:
        """The squares set in `mask`, in ascending order."""
        square_at = self._square_at
        return [square_at[position] for position in set_bits(mask)]

    def picture(self, blank: str, layers: Sequence[tuple[str, int]]) -> list[str]:
        """The board row by row, a character a square: a layer's where its mask has the
        square, else `blank`. No square may be in two layers' masks.

        Done without a loop over squares: each mask becomes a string of 0s and 1s, read as
        a big integer of one byte a bit; layer k's is multiplied by k and all are summed,
        which leaves in each byte the number of the layer holding it, then translated.
        """
        bits = self.rows * self.width
        number = sum(
            k * int.from_bytes(format(mask, f"0{bits}b").encode().translate(_DIGIT_BYTES))
            for k, (_, mask) in enumerate(layers, 1)
        )
        table = bytes.maketrans(
            bytes(range(len(layers) + 1)), (blank + "".join(c for c, _ in layers)).encode()
        )
        text = number.to_bytes(bits)[::-1].translate(table).decode()
        width, cols = self.width, self.cols
        return [text[start : start + cols] for start in range(0, bits, width)]

    def format_square(self, square: int) -> str:
        """`a1` for the top left square."""
        return self._names[square]

    def parse_square(self, text: str) -> int:
        """The square named by `text` (`a1` is the top left), or MalformedMoveError."""
        match = _SQUARE_TEXT.fullmatch(text.strip().lower())
        if match is None:
            raise MalformedMoveError(
                f"{text!r} is not a square: write a column letter and a row number, like d3"
            )
        col = ord(match[1]) - ord("a")
        row = int(match[2]) - 1
        if not (0 <= col < self.cols and 0 <= row < self.rows):
            last = self.format_square(self.size - 1)
            raise MalformedMoveError(f"{text!r} is off the board (a1 to {last})")
        return row * self.cols + col
