"""Whole numbers read from position text: ASCII digits, within bounds, or a clear error."""

import re

from .errors import MalformedPositionError

_DIGITS = re.compile(r"[0-9]{1,12}")
MAX_PLY = 10**9
"""The largest ply number a position may state."""


def whole_number(text: str, lowest: int, highest: int, what: str) -> int:
    """`text` as a number from `lowest` to `highest`; MalformedPositionError naming `what`."""
    if not _DIGITS.fullmatch(text) or not lowest <= int(text) <= highest:
        raise MalformedPositionError(
            f"{what} must be a whole number from {lowest} to {highest}, not {text[:20]!r}"
        )
    return int(text)
