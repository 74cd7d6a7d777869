"""Private room codes a person can read aloud and type: made, shown and read back.

A code is 12 symbols of Crockford's base 32 (digits and capitals without I, L, O and U,
so nothing on the page looks like something else), 60 random bits, shown as three groups
of four: `7KQM-X3RD-2HVP`. Read back, case, dashes and spaces do not matter, and the
letters a reader might type for a digit (O for 0, I and L for 1) are taken for it.
"""

import secrets
from collections.abc import Callable
from typing import Final

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SYMBOLS: Final = 12
GROUP: Final = 4
BITS_PER_SYMBOL: Final = 5
CODE_BITS: Final = SYMBOLS * BITS_PER_SYMBOL
SEPARATOR: Final = "-"
CODE_LENGTH: Final = SYMBOLS + SYMBOLS // GROUP - 1
"""Characters in a code as the server writes it, dashes included."""
LOOK_ALIKES: Final = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_code(randbits: Callable[[int], int] = secrets.randbits) -> str:
    """A fresh code from `randbits` (the operating system's random source)."""
    return format_code(random_symbols(SYMBOLS, randbits))


def random_symbols(count: int, randbits: Callable[[int], int] = secrets.randbits) -> str:
    """`count` symbols of the alphabet, five random bits each."""
    number = randbits(count * BITS_PER_SYMBOL)
    return "".join(
        ALPHABET[(number >> (BITS_PER_SYMBOL * place)) & (len(ALPHABET) - 1)]
        for place in reversed(range(count))
    )


def format_code(symbols: str) -> str:
    """Symbols as the server writes them: dash-separated groups of four."""
    return SEPARATOR.join(symbols[at : at + GROUP] for at in range(0, len(symbols), GROUP))


def read_code(typed: str) -> str | None:
    """The code `typed` means, written as the server writes it; None if it means none.

    `7kqm x3rd 2hvp`, `7KQMX3RD2HVP` and `7kqm-x3rd-2hvp` all read as `7KQM-X3RD-2HVP`.
    """
    symbols = read_symbols(typed, SYMBOLS)
    return None if symbols is None else format_code(symbols)


def read_symbols(typed: str, count: int) -> str | None:
    """The `count` symbols `typed` means, without dashes or spaces; None if it means none."""
    symbols = "".join(typed.replace(SEPARATOR, " ").split()).upper().translate(LOOK_ALIKES)
    if len(symbols) != count or any(symbol not in ALPHABET for symbol in symbols):
        return None
    return symbols


def room_key(ref: str) -> str:
    """What a `room_ref` is looked up by: a code as the server writes it, else the ref as
    sent (a room's id, or a code from before codes were short, which must match exactly)."""
    return read_code(ref) or ref
