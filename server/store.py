"""Where rooms outlive the server: an SQLite database in the data directory.

Each open room is one row holding its durable fields as JSON (its game, seats and tokens,
and every move), written in one transaction before any client is told of a change, so a
server killed at any moment starts again with every move anyone saw. WAL mode keeps each
commit to an append; `synchronous=NORMAL` makes it survive the process being killed
(though not the machine losing power). The schema carries a version number and the server
migrates it forward itself.
"""

import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

log = logging.getLogger("parlour.server")

FILE_NAME: Final = "parlour.sqlite3"
MIGRATIONS: Final = (
    ("CREATE TABLE rooms (id TEXT PRIMARY KEY, record TEXT NOT NULL, saved_at REAL NOT NULL)",),
)
"""Each entry's statements take the schema from the version of its index to the next."""
SCHEMA_VERSION: Final = len(MIGRATIONS)


class StoreError(Exception):
    """The database cannot be used: not a Parlour database, unreadable, or from a newer
    version of Parlour. Nothing in it is changed."""


@dataclass(frozen=True, slots=True)
class Stored:
    """A room's record as it was read back, or why it could not be."""

    room_id: str
    record: dict[str, Any] | None
    problem: str | None = None


class Store:
    """The server's database: open rooms written as they change, read back at start."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot use {path} as Parlour's database: {error}") from None

    def _migrate(self) -> None:
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer Parlour (schema {version}; this one"
                f" knows up to {SCHEMA_VERSION})"
            )
        for number in range(version, SCHEMA_VERSION):
            with self._transaction():
                for statement in MIGRATIONS[number]:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {number + 1}")
            log.info("database %s migrated to schema %d", self.path, number + 1)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Everything inside committed together, or nothing if it fails."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def save(self, records: Iterable[dict[str, Any]], closed: Iterable[str] = ()) -> None:
        """Write changed rooms and forget closed ones, all in one transaction."""
        now = time.time()
        rows = [
            (record["id"], json.dumps(record, separators=(",", ":")), now) for record in records
        ]
        gone = [(room_id,) for room_id in closed]
        if not rows and not gone:
            return
        with self._transaction():
            self._db.executemany(
                "INSERT INTO rooms (id, record, saved_at) VALUES (?, ?, ?) ON CONFLICT (id)"
                " DO UPDATE SET record = excluded.record, saved_at = excluded.saved_at",
                rows,
            )
            self._db.executemany("DELETE FROM rooms WHERE id = ?", gone)

    def load(self) -> list[Stored]:
        """Every room written and not closed; a row that is not a readable record says so."""
        found = []
        for room_id, text in self._db.execute("SELECT id, record FROM rooms ORDER BY saved_at"):
            try:
                record = json.loads(text)
                if not isinstance(record, dict):
                    raise ValueError("the record is not a JSON object")
            except ValueError as error:
                found.append(Stored(str(room_id), None, f"unreadable record: {error}"))
                continue
            found.append(Stored(str(room_id), record))
        return found

    def close(self) -> None:
        self._db.close()
