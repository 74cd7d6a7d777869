"""Player keys: the secret a client makes once and proves itself with, and the public id
the server knows the player by.

A key is 32 symbols of the room codes' alphabet (160 random bits), written in eight
groups of four so a person can copy it to another machine. The server never keeps a key:
it keeps the player's id, a hash of the key, which shows whose record is whose without
giving anyone the means to play as them.
"""

import hashlib
import secrets
import unicodedata
from collections.abc import Callable
from typing import Final

from .codes import ALPHABET, format_code, random_symbols, read_symbols

KEY_SYMBOLS: Final = 32
KEY_LENGTH: Final = KEY_SYMBOLS + KEY_SYMBOLS // 4 - 1
"""Characters in a key as written, dashes included."""
ID_SYMBOLS: Final = 16
"""An id's symbols: 80 bits of the key's hash."""
ID_PREFIX: Final = "p-"


def new_key(randbits: Callable[[int], int] = secrets.randbits) -> str:
    """A fresh player key, as written: `7KQM-X3RD-...`."""
    return format_code(random_symbols(KEY_SYMBOLS, randbits))


def read_key(typed: str) -> str | None:
    """The key `typed` means (any case, dashes and spaces anywhere), as written; None if
    it is not one."""
    symbols = read_symbols(typed, KEY_SYMBOLS)
    return None if symbols is None else format_code(symbols)


def player_id(key: str) -> str:
    """The public id of the player who holds `key`, however it is written."""
    key = read_key(key) or key
    digest = int.from_bytes(hashlib.sha256(f"parlour player {key}".encode()).digest(), "big")
    symbols = "".join(ALPHABET[(digest >> (5 * place)) & 31] for place in range(ID_SYMBOLS))
    return ID_PREFIX + symbols.lower()


def fold(name: str) -> str:
    """A name as names are compared: `Ann`, `ANN` and its full-width form are one name."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
