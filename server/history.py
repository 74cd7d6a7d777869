"""What happened in a room lately: a bounded window of entries kept with the room and
shown to a connection that joins, watches or comes back (protocol.md 2.11).

Entries are plain data, never prose: each has its `kind`, its number `n` in the room and
the server's time `at` (Unix seconds), then the fields of its kind. The clients turn them
into the lines of their logs.
"""

import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

HISTORY_LIMIT: Final = 200
"""Entries a room keeps: the newest, about a game's moves with their chat."""

MOVE: Final = "move"
SEAT: Final = "seat"
CHAT: Final = "chat"
STARTED: Final = "started"
OVER: Final = "over"
NEW_GAME: Final = "new_game"
UNDO: Final = "undo"
LOADED: Final = "loaded"
PROPOSAL: Final = "proposal"
FLAGGED: Final = "flagged"
RESIGN: Final = "resigned"
ABORT: Final = "aborted"
CLAIM: Final = "claimed"
CLOCK_PAUSED: Final = "clock_paused"

Entry = dict[str, Any]


class HistoryError(ValueError):
    """A stored history that is not one."""


@dataclass
class History:
    """A room's last `HISTORY_LIMIT` entries, oldest first."""

    entries: deque[Entry] = field(default_factory=lambda: deque(maxlen=HISTORY_LIMIT))
    made: int = 0
    """Entries ever made in the room: the number of the newest."""
    texts: deque[str] = field(default_factory=lambda: deque(maxlen=HISTORY_LIMIT))
    """Each entry as JSON, made once: the room's record is written after every change, and
    encoding the whole window each time would cost five times the rest of the write."""

    def __post_init__(self) -> None:
        if len(self.texts) != len(self.entries):
            self.texts = deque(map(_text, self.entries), maxlen=HISTORY_LIMIT)

    def add(self, kind: str, at: float, **fields: Any) -> None:
        """Note an entry of `kind` at the Unix time `at`; the oldest goes past the limit."""
        self.made += 1
        entry = {"kind": kind, "n": self.made, "at": int(at), **fields}
        self.entries.append(entry)
        self.texts.append(_text(entry))

    def window(self) -> list[Entry]:
        """The entries kept, oldest first, as the wire carries them."""
        return list(self.entries)

    def json(self) -> str:
        """The window as a JSON array, as `json.dumps` would write it."""
        return "[" + ",".join(self.texts) + "]"

    @classmethod
    def restored(cls, stored: Any) -> "History":
        """The history a room's record kept; HistoryError if it is not a list of entries."""
        if stored is None:
            return cls()
        if not isinstance(stored, list):
            raise HistoryError("the history is not a list")
        entries = list(_entries(stored))[-HISTORY_LIMIT:]
        made = int(entries[-1]["n"]) if entries else 0
        return cls(deque(entries, maxlen=HISTORY_LIMIT), made)


def _text(entry: Entry) -> str:
    return json.dumps(entry, separators=(",", ":"))


def _entries(stored: Iterable[Any]) -> Iterable[Entry]:
    for entry in stored:
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("kind"), str)
            and isinstance(entry.get("n"), int)
            and isinstance(entry.get("at"), int)
        ):
            raise HistoryError(f"a history entry that is not one: {entry!r:.80}")
        yield dict(entry)
