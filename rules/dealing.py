"""A tiny deterministic random generator for dealing boards from a board number.

SplitMix64 with rejection sampling: fully specified here, so the same board number deals
the same board on every machine and Python version (unlike `random`, whose methods may
change between releases).
"""

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from .errors import OptionError

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
MAX_BOARD_NUMBER = (1 << 53) - 1
"""Board numbers stay within what JSON and JavaScript carry exactly."""


def check_board_number(number: object) -> int:
    """Return `number` if it is a valid board number, else raise OptionError."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise OptionError(f"the board number must be a whole number, not {number!r}")
    if not 0 <= number <= MAX_BOARD_NUMBER:
        raise OptionError(f"the board number must be from 0 to {MAX_BOARD_NUMBER}, not {number}")
    return number


class Dealer:
    """A stream of random choices drawn from one board number."""

    def __init__(self, board_number: int) -> None:
        self._state = check_board_number(board_number)

    def next64(self) -> int:
        """The next 64 random bits (SplitMix64)."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        bits = (n - 1).bit_length()
        while True:
            candidate = self.next64() >> (64 - bits) if bits else 0
            if candidate < n:
                return candidate

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct items in random order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError(f"cannot draw {k} of {len(pool)} items")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]
