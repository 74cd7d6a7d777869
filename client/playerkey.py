"""This user's player key (protocol.md 2.10), kept between runs of the terminal client.

The key is the player: whoever sends it in `hello` plays under its id, with its ratings and
games. It is made the first time the client runs and kept in the user's data directory
(beside the seat tokens), readable by this user alone; a person moves it to another machine
by copying its text there (`parlour key`, `parlour key import`). A file that is not a key is
never replaced unasked: it may be the only copy of someone's key, mistyped by hand.
"""

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import platformdirs

from parlour.protocol.players import new_key, player_id, read_key

from .privatefile import write_private

FILE_NAME: Final = "player-key.txt"
NAME_FILE: Final = "played-name.txt"


class PlayerKeyError(Exception):
    """The key file could not be read or written; the message says which and why."""


class DamagedKeyError(PlayerKeyError):
    """The key file holds something that is not a key. It is left as it is."""


def default_path() -> Path:
    """Where the key is kept: the user's data directory, as the seat tokens are."""
    return Path(platformdirs.user_data_dir("parlour")) / FILE_NAME


@dataclass(frozen=True, slots=True)
class PlayerKey:
    """A key as written (`Y5DP-J2CK-...`) and the public id the server knows it by."""

    key: str

    @property
    def player(self) -> str:
        return player_id(self.key)


def parse_key(typed: str) -> PlayerKey:
    """The key `typed` means (any case, dashes or spaces anywhere); PlayerKeyError if it is
    not one."""
    key = read_key(typed) if len(typed) <= 256 else None
    if key is None:
        raise PlayerKeyError(
            "that is not a player key: 32 letters and digits, as `parlour key` shows it"
            " (Y5DP-J2CK-CKJ7-4007-9860-PWHM-31NJ-ZJ15)"
        )
    return PlayerKey(key)


class KeyFile:
    """The file that holds this user's key: one line, the key as written."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def read(self) -> PlayerKey | None:
        """The key kept, or None before one is made; DamagedKeyError for a file that holds
        no key, PlayerKeyError for one that cannot be read."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise PlayerKeyError(f"cannot read your player key in {self.path}: {error}") from None
        key = read_key(text.strip()) if len(text) <= 256 else None
        if key is None:
            raise DamagedKeyError(
                f"{self.path} does not hold a player key (32 symbols in groups of four);"
                " it is left as it is: mend it, or move it aside to start as a new player"
            )
        return PlayerKey(key)

    def load_or_make(self) -> PlayerKey:
        """The key kept, made and kept now if there is none yet (once: a run starting at
        the same moment uses the key the first one made)."""
        kept = self.read()
        if kept is not None:
            return kept
        made = PlayerKey(new_key())
        if self._write(made, replace=False):
            return made
        kept = self.read()
        if kept is None:
            raise PlayerKeyError(f"your player key in {self.path} went away as it was made")
        return kept

    def replace(self, typed: str) -> tuple[PlayerKey, PlayerKey | None]:
        """Keep the key `typed` (any case, dashes or spaces anywhere) in place of the one
        kept: the new key and the old one. PlayerKeyError if `typed` is not a key;
        DamagedKeyError if the file kept is not one (it is not replaced unread)."""
        new = parse_key(typed)
        old = self.read()
        if new != old:
            self._write(new, replace=True)
        return new, old

    def _write(self, key: PlayerKey, *, replace: bool) -> bool:
        try:
            return write_private(self.path, f"{key.key}\n", replace=replace)
        except OSError as error:
            raise PlayerKeyError(
                f"cannot write your player key to {self.path}: {error.strerror}"
            ) from None


class NameFile:
    """The name this user last played under with their key, beside the key: the name the
    commands that only look (rooms, mine, leaderboard, replay) say hello with, so that
    none of them renames the player (a hello with a key takes the name it gives)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path().with_name(NAME_FILE)

    def read(self) -> str | None:
        """The name kept, if there is one to be read."""
        try:
            name = self.path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return name or None

    def keep(self, name: str) -> None:
        """Keep `name`; a name that cannot be kept is only not remembered."""
        if name != self.read():
            with contextlib.suppress(OSError):
                write_private(self.path, f"{name}\n")
