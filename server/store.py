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
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from parlour.protocol.players import fold

from . import vacations
from .emails import (
    HOUR_MS,
    Digest,
    DigestDue,
    EmailAnswer,
    EmailChange,
    EmailRecord,
    NotYet,
    code_address,
    digest_due,
)
from .letters import Mail
from .moderation import BLOCK, MUTE, REPORTS_SHOWN, Report, SetStanding, Standing, person_of
from .ratings import COMPUTER, NEW, Rating, is_computer, rate_players
from .records import RecordText
from .scores import CHANGED, COMPUTER_NAME, Result, best_of, record_id
from .vacations import Vacation

log = logging.getLogger("parlour.server")

FILE_NAME: Final = "parlour.sqlite3"
UPSERT_ROOM: Final = (
    "INSERT INTO rooms (id, record, saved_at) VALUES (?, ?, ?) ON CONFLICT (id)"
    " DO UPDATE SET record = excluded.record, saved_at = excluded.saved_at"
)
"""One statement is one transaction: a single room's write needs no BEGIN and COMMIT."""
MAX_LISTED: Final = 200
"""Saved games listed at most, the newest."""
MEMORY: Final = Path(":memory:")
"""A database that lives and dies with the server: for a server given no data directory."""
MIGRATIONS: Final = (
    ("CREATE TABLE rooms (id TEXT PRIMARY KEY, record TEXT NOT NULL, saved_at REAL NOT NULL)",),
    (
        "CREATE TABLE results (id INTEGER PRIMARY KEY, room TEXT NOT NULL, game TEXT NOT NULL,"
        " preset TEXT NOT NULL, board INTEGER NOT NULL, moves INTEGER NOT NULL,"
        " stood_in INTEGER NOT NULL, finished_at REAL NOT NULL)",
        "CREATE INDEX results_by_game ON results (game, preset)",
        "CREATE TABLE result_seats (result INTEGER NOT NULL REFERENCES results (id),"
        " colour TEXT NOT NULL, kind TEXT NOT NULL, name TEXT, level TEXT,"
        " outcome TEXT NOT NULL, score INTEGER NOT NULL)",
        "CREATE INDEX result_seats_by_result ON result_seats (result)",
    ),
    (
        "CREATE TABLE saves (name TEXT PRIMARY KEY, game TEXT NOT NULL, text TEXT NOT NULL,"
        " moves INTEGER NOT NULL, saved_by TEXT NOT NULL, saved_at REAL NOT NULL)",
    ),
    ("ALTER TABLE result_seats ADD COLUMN initials TEXT",),
    (
        "CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL,"
        " folded TEXT NOT NULL UNIQUE, created REAL NOT NULL, seen REAL NOT NULL)",
        "CREATE TABLE ratings (game TEXT NOT NULL, player TEXT NOT NULL, mu REAL NOT NULL,"
        " sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (game, player))",
        "CREATE TABLE rated (room TEXT NOT NULL, version INTEGER NOT NULL,"
        " colour TEXT NOT NULL, player TEXT NOT NULL, before INTEGER NOT NULL,"
        " after INTEGER NOT NULL, PRIMARY KEY (room, version, colour))",
        "ALTER TABLE results ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE results ADD COLUMN record TEXT",
        "ALTER TABLE result_seats ADD COLUMN player TEXT",
        "CREATE INDEX result_seats_by_player ON result_seats (player)",
        "CREATE INDEX results_by_room ON results (room, version)",
        "CREATE TABLE saves_by_owner (owner TEXT NOT NULL, name TEXT NOT NULL,"
        " game TEXT NOT NULL, text TEXT NOT NULL, moves INTEGER NOT NULL,"
        " saved_by TEXT NOT NULL, saved_at REAL NOT NULL, PRIMARY KEY (owner, name))",
        "INSERT INTO saves_by_owner SELECT '', name, game, text, moves, saved_by, saved_at"
        " FROM saves",
        "DROP TABLE saves",
        "ALTER TABLE saves_by_owner RENAME TO saves",
    ),
    (
        "CREATE TABLE result_players (player TEXT NOT NULL, result INTEGER NOT NULL"
        " REFERENCES results (id), PRIMARY KEY (player, result))",
        "INSERT OR IGNORE INTO result_players SELECT player, result FROM result_seats"
        " WHERE player IS NOT NULL",
    ),
    ("CREATE TABLE alive (id INTEGER PRIMARY KEY CHECK (id = 0), at REAL NOT NULL)",),
    (
        "CREATE TABLE vacations (player TEXT PRIMARY KEY, year INTEGER NOT NULL,"
        " used INTEGER NOT NULL, start REAL NOT NULL, until REAL NOT NULL)",
    ),
    (
        "CREATE TABLE emails (player TEXT PRIMARY KEY, record TEXT NOT NULL)",
        "CREATE TABLE mailed (marker TEXT PRIMARY KEY, until_ms INTEGER NOT NULL)",
        "CREATE TABLE codes_sent (address TEXT NOT NULL, at_ms INTEGER NOT NULL)",
        "CREATE INDEX codes_sent_by_address ON codes_sent (address, at_ms)",
    ),
    ("CREATE TABLE unsent (id INTEGER PRIMARY KEY, mail TEXT NOT NULL)",),
    ("ALTER TABLE result_seats ADD COLUMN own_play INTEGER NOT NULL DEFAULT 1",),
    (
        "CREATE TABLE standings (player TEXT NOT NULL, kind TEXT NOT NULL,"
        " person TEXT NOT NULL, name TEXT NOT NULL, at REAL NOT NULL,"
        " PRIMARY KEY (player, kind, person))",
        "CREATE INDEX standings_by_person ON standings (person, kind)",
        "CREATE TABLE reports (id INTEGER PRIMARY KEY, at REAL NOT NULL, key TEXT NOT NULL"
        " UNIQUE, report TEXT NOT NULL)",
        "CREATE TABLE bars (player TEXT PRIMARY KEY, at REAL NOT NULL, reason TEXT NOT NULL)",
    ),
)
"""Each entry's statements take the schema from the version of its index to the next."""
SCHEMA_VERSION: Final = len(MIGRATIONS)
GUESTS: Final = ""
"""The owner of saved games made without a player key: every guest sees them."""
MY_GAMES: Final = 100
"""A player's finished games listed at most, the newest."""
LEADERS: Final = 50
COMPUTER_NAMES: Final = (COMPUTER_NAME.strip(), COMPUTER)
"""How computers' names begin: no player may take one."""


class StoreError(Exception):
    """The database cannot be used: not a Parlour database, unreadable, or from a newer
    version of Parlour. Nothing in it is changed."""


@dataclass(frozen=True, slots=True)
class Save:
    """A game saved under a name, as a game file's text."""

    name: str
    game: str
    text: str
    moves: int
    saved_by: str
    owner: str = GUESTS
    """The player id whose saves it is among, or `GUESTS` for the guests' shared ones."""


@dataclass(frozen=True, slots=True)
class SetInitials:
    """The initials typed by the person who made a board's best score (Tribolo's "input
    your initials"): kept if that best is still theirs, `name` with `score`."""

    game: str
    preset: str
    name: str
    score: int
    initials: str


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
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot use {path} as Parlour's database: {error}") from None
        self.mail = SqliteMail(self._db, self._transaction)
        """Players' addresses and the mail they are sent (protocol.md 2.13)."""

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

    def save(
        self,
        records: Iterable[dict[str, Any] | RecordText],
        closed: Iterable[str] = (),
        results: Iterable[Result] = (),
    ) -> None:
        """Write changed rooms (their records, or those records' JSON), forget closed ones
        and keep finished games' results, all in one transaction."""
        now = time.time()
        rows = [
            (record.id, record.text, now)
            if isinstance(record, RecordText)
            else (record["id"], _compact(record), now)
            for record in records
        ]
        gone = [(room_id,) for room_id in closed]
        finished = list(results)
        if len(rows) == 1 and not gone and not finished:
            self._db.execute(UPSERT_ROOM, rows[0])
            return
        if not rows and not gone and not finished:
            return
        with self._transaction():
            for result in finished:
                self._add_result(result, now)
            self._db.executemany(UPSERT_ROOM, rows)
            self._db.executemany("DELETE FROM rooms WHERE id = ?", gone)

    def _add_result(self, result: Result, now: float) -> None:
        cursor = self._db.execute(
            "INSERT INTO results (room, game, preset, board, moves, stood_in, finished_at,"
            " version, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                result.room,
                result.game,
                result.preset,
                result.board,
                result.moves,
                int(result.stood_in),
                now,
                result.version,
                result.record,
            ),
        )
        self._db.executemany(
            "INSERT INTO result_seats (result, colour, kind, name, level, outcome, score, player,"
            " own_play) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    cursor.lastrowid,
                    *(s.colour, s.kind, s.name, s.level, s.outcome, s.score, s.whose),
                    int(s.own_play),
                )
                for s in result.seats
            ],
        )
        self._db.executemany(
            "INSERT OR IGNORE INTO result_players (player, result) VALUES (?, ?)",
            [(player, cursor.lastrowid) for player in result.players],
        )

    def score_card(self, game: str, preset: str | None) -> dict[str, Any]:
        """Wins, losses and ties by colour and by player, and the best score by a person,
        over the game's finished games (on one preset, or all)."""
        where = "r.game = ?" + (" AND r.preset = ?" if preset is not None else "")
        args: tuple[str, ...] = (game,) if preset is None else (game, preset)
        games, stood_in = self._db.execute(
            f"SELECT count(*), coalesce(sum(r.stood_in), 0) FROM results r WHERE {where}", args
        ).fetchone()
        joined = f"FROM result_seats s JOIN results r ON r.id = s.result WHERE {where}"
        (changed_hands,) = self._db.execute(
            f"SELECT count(DISTINCT s.result) {joined} AND s.kind = '{CHANGED}'", args
        ).fetchone()
        by_colour = self._db.execute(
            f"SELECT s.colour, s.outcome, count(*) {joined} GROUP BY s.colour, s.outcome", args
        ).fetchall()
        # A seat counts for its player only where they held it from start to end as a
        # person; a seat the computer played for them counts for its level.
        counted = "CASE WHEN s.kind = 'human' THEN s.player END"
        by_player = self._db.execute(
            f"SELECT coalesce({counted}, s.name, '{COMPUTER}' || s.level),"
            f" coalesce(p.name, s.name, '{COMPUTER_NAME}' || s.level), {counted} IS NOT NULL,"
            " s.outcome, count(*) FROM result_seats s JOIN results r ON r.id = s.result"
            f" LEFT JOIN players p ON p.id = {counted} WHERE {where}"
            f" AND s.kind != '{CHANGED}' GROUP BY 1, s.outcome",
            args,
        ).fetchall()
        best = self._db.execute(
            f"SELECT s.name, s.score, s.initials {joined} AND s.kind = 'human' AND s.own_play"
            " ORDER BY s.score DESC, r.finished_at ASC LIMIT 1",
            args,
        ).fetchone()
        return {
            "games": games,
            "stood_in": stood_in,
            "changed_hands": changed_hands,
            "colours": tally(by_colour, "colour"),
            "players": self._player_lines(game, by_player),
            "best": None if best is None else best_of(best[0], best[1], best[2]),
        }

    def _player_lines(self, game: str, rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
        return player_lines(rows, self.ratings(game, {row[0] for row in rows}))

    def set_initials(self, asked: SetInitials) -> bool:
        """Keep the initials typed for a board's best score, if it is still the best and
        theirs; whether it was."""
        with self._transaction():
            found = self._db.execute(
                "SELECT s.rowid, s.name, s.score FROM result_seats s JOIN results r"
                " ON r.id = s.result WHERE r.game = ? AND r.preset = ? AND s.kind = 'human'"
                " AND s.own_play"
                " ORDER BY s.score DESC, r.finished_at ASC LIMIT 1",
                (asked.game, asked.preset),
            ).fetchone()
            if found is None or (found[1], found[2]) != (asked.name, asked.score):
                return False
            self._db.execute(
                "UPDATE result_seats SET initials = ? WHERE rowid = ?", (asked.initials, found[0])
            )
        return True

    def put_save(self, save: Save, *, replace: bool) -> bool:
        """Keep a saved game under its owner and name; False if the name is taken and not
        to be replaced."""
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        with self._transaction():
            cursor = self._db.execute(
                f"{verb} INTO saves (owner, name, game, text, moves, saved_by, saved_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    save.owner,
                    save.name,
                    save.game,
                    save.text,
                    save.moves,
                    save.saved_by,
                    time.time(),
                ),
            )
        return cursor.rowcount == 1

    def get_save(self, owner: str, name: str) -> tuple[str, str] | None:
        """The game and text `owner` saved under `name`, if any."""
        row = self._db.execute(
            "SELECT game, text FROM saves WHERE owner = ? AND name = ?", (owner, name)
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def list_saves(self, owner: str, game: str | None) -> list[dict[str, Any]]:
        """The games `owner` saved (of one game, or all), newest first."""
        rows = self._db.execute(
            "SELECT name, game, moves, saved_by, saved_at FROM saves WHERE owner = ?"
            " AND (? IS NULL OR game = ?) ORDER BY saved_at DESC, name LIMIT ?",
            (owner, game, game, MAX_LISTED),
        ).fetchall()
        return [
            {"name": name, "game": game, "moves": moves, "saved_by": by, "saved_at": int(at)}
            for name, game, moves, by, at in rows
        ]

    def claim_name(self, player: str | None, name: str) -> bool | None:
        """Whether `player` (None for a guest) may go by `name`: None if another player holds
        it; else True for a player the server meets for the first time. A player who may
        takes the name, giving up the one they had."""
        folded = fold(name)
        with self._transaction():
            if self.holder_of(name) not in (None, player):
                return None
            if player is None:
                return False
            now = time.time()
            cursor = self._db.execute(
                "UPDATE players SET name = ?, folded = ?, seen = ? WHERE id = ?",
                (name, folded, now, player),
            )
            if cursor.rowcount:
                return False
            self._db.execute(
                "INSERT INTO players (id, name, folded, created, seen) VALUES (?, ?, ?, ?, ?)",
                (player, name, folded, now, now),
            )
        return True

    def standing(self, player: str | None, name: str) -> Standing:
        """What the records say of a person saying hello (`moderation.Standing`)."""
        person = person_of(player, name)
        bar = self._db.execute("SELECT reason FROM bars WHERE player = ?", (person,)).fetchone()
        kept: dict[str, dict[str, str]] = {MUTE: {}, BLOCK: {}}
        if player is not None:
            rows = self._db.execute(
                "SELECT kind, person, name FROM standings WHERE player = ?", (player,)
            )
            for kind, other, other_name in rows:
                kept[kind][other] = other_name
        by = self._db.execute(
            "SELECT player FROM standings WHERE person = ? AND kind = ?", (person, BLOCK)
        )
        blockers = frozenset(str(row[0]) for row in by)
        return Standing(None if bar is None else bar[0], kept[MUTE], kept[BLOCK], blockers)

    def set_standing(self, change: SetStanding) -> None:
        """Keep a mute or a block a player made, or lifted."""
        if change.on:
            self._db.execute(
                "INSERT OR REPLACE INTO standings (player, kind, person, name, at)"
                " VALUES (?, ?, ?, ?, ?)",
                (change.player, change.kind, change.person, change.name, time.time()),
            )
        else:
            self._db.execute(
                "DELETE FROM standings WHERE player = ? AND kind = ? AND person = ?",
                (change.player, change.kind, change.person),
            )

    def file_report(self, report: Report) -> None:
        """Keep a report for the operators, once."""
        self._db.execute(
            "INSERT OR IGNORE INTO reports (at, key, report) VALUES (?, ?, ?)",
            (report.at, report.key, json.dumps(report.describe())),
        )

    def reports(self, limit: int = REPORTS_SHOWN) -> list[dict[str, Any]]:
        """The newest reports kept, newest first."""
        rows = self._db.execute(
            "SELECT report FROM reports ORDER BY at DESC, id DESC LIMIT ?", (limit,)
        )
        return [json.loads(row[0]) for row in rows]

    def bar(self, player: str, reason: str) -> None:
        """An operator bars `player` from the server: their next hello is refused."""
        self._db.execute(
            "INSERT OR REPLACE INTO bars (player, at, reason) VALUES (?, ?, ?)",
            (player, time.time(), reason),
        )

    def lift_bar(self, player: str) -> bool:
        """An operator lets `player` in again; whether they were barred."""
        return self._db.execute("DELETE FROM bars WHERE player = ?", (player,)).rowcount > 0

    def holder_of(self, name: str) -> str | None:
        """The player who holds `name`, if one does (a computer's name is held by all)."""
        folded = fold(name)
        if folded.startswith(COMPUTER_NAMES):
            return COMPUTER
        row = self._db.execute("SELECT id FROM players WHERE folded = ?", (folded,)).fetchone()
        return None if row is None else str(row[0])

    def ratings(self, game: str, players: Iterable[str]) -> dict[str, Rating]:
        """The ratings in the pool `game` (`ratings.pool`) of those of `players` who have
        one."""
        wanted = list(dict.fromkeys(players))
        found = {}
        for at in range(0, len(wanted), 500):
            chunk = wanted[at : at + 500]
            marks = ",".join("?" * len(chunk))
            for player, mu, sigma, games in self._db.execute(
                "SELECT player, mu, sigma, games FROM ratings WHERE game = ?"
                f" AND player IN ({marks})",
                (game, *chunk),
            ):
                found[str(player)] = Rating(float(mu), float(sigma), int(games))
        return found

    def rate(self, result: Result) -> dict[str, dict[str, int]]:
        """Rate a finished rated game once, however often it is asked: each colour's shown
        rating before and after."""
        with self._transaction():
            kept = self._db.execute(
                "SELECT colour, before, after FROM rated WHERE room = ? AND version = ?",
                (result.room, result.version),
            ).fetchall()
            if kept:
                return {str(c): {"before": b, "after": a} for c, b, a in kept}
            seats = [seat.rated_as or "" for seat in result.seats]
            before = self.ratings(result.pool, seats)
            ranks = result.ranks
            after = rate_players(before, seats, ranks)
            self._db.executemany(
                "INSERT OR REPLACE INTO ratings (game, player, mu, sigma, games)"
                " VALUES (?, ?, ?, ?, ?)",
                [(result.pool, p, r.mu, r.sigma, r.games) for p, r in after.items()],
            )
            changes = {
                seat.colour: {
                    "before": before.get(player, NEW).display,
                    "after": after[player].display,
                }
                for seat, player in zip(result.seats, seats, strict=True)
            }
            self._db.executemany(
                "INSERT INTO rated (room, version, colour, player, before, after)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (result.room, result.version, colour, player, c["before"], c["after"])
                    for (colour, c), player in zip(changes.items(), seats, strict=True)
                ],
            )
        return changes

    def take_vacation(self, player: str, days: int | None, now: float) -> Vacation | None:
        """A vacation of `days` days from `now` for `player` (0: end the one on; None: the
        one kept), kept; None, and nothing changed, if the year has not that many days left."""
        with self._transaction():
            row = self._db.execute(
                "SELECT year, used, start, until FROM vacations WHERE player = ?", (player,)
            ).fetchone()
            before = None if row is None else Vacation(int(row[0]), int(row[1]), row[2], row[3])
            after = vacations.take(before, days, now)
            if after is not None and after != before:
                self._db.execute(
                    "INSERT OR REPLACE INTO vacations (player, year, used, start, until)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (player, after.year, after.used, after.start, after.until),
                )
        return after

    def leaderboard(self, game: str) -> list[dict[str, Any]]:
        """The best rated players and computer levels in the pool `game` (`ratings.pool`),
        by conservative rating."""
        rows = self._db.execute(
            "SELECT r.player, p.name, r.mu, r.sigma, r.games FROM ratings r"
            " LEFT JOIN players p ON p.id = r.player WHERE r.game = ?",
            (game,),
        ).fetchall()
        rated = [
            (str(who), name, Rating(mu, sigma, games)) for who, name, mu, sigma, games in rows
        ]
        return leaders(rated)

    def finished_games(self, player: str) -> list[dict[str, Any]]:
        """`player`'s finished games, newest first, with every seat and its rating change."""
        results = self._db.execute(
            "SELECT r.id, r.room, r.version, r.game, r.preset, r.finished_at, r.moves"
            " FROM results r WHERE r.id IN (SELECT result FROM result_players WHERE player = ?)"
            " ORDER BY r.finished_at DESC, r.id DESC LIMIT ?",
            (player, MY_GAMES),
        ).fetchall()
        return [finished_game(self._db, row) for row in results]

    def record(self, record: str) -> str | None:
        """The game file of the finished game `record` names, if it is kept."""
        room, _, version = record.rpartition(".")
        if not version.isdigit():
            return None
        row = self._db.execute(
            "SELECT record FROM results WHERE room = ? AND version = ? AND record IS NOT NULL"
            " ORDER BY id LIMIT 1",
            (room, int(version)),
        ).fetchone()
        return None if row is None else str(row[0])

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

    def mark_alive(self, at: float) -> None:
        """The server is running at the Unix time `at`: after a stop, its rooms' clocks are
        given back the time since."""
        self._db.execute(
            "INSERT INTO alive (id, at) VALUES (0, ?) ON CONFLICT (id) DO UPDATE SET at = ?",
            (at, at),
        )

    def alive_at(self) -> float | None:
        """When the server that wrote this database was last known to run, in Unix time."""
        row = self._db.execute("SELECT at FROM alive WHERE id = 0").fetchone()
        return None if row is None else float(row[0])

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database, on a connection of its own, so that
        a thread can do it while the server goes on writing: commits then never wait for
        the log's sync, which is what made the occasional move slow."""
        if self.path == MEMORY:
            return
        checkpointer = sqlite3.connect(self.path, isolation_level=None)
        try:
            checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            checkpointer.close()

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()


class SqliteMail:
    """Players' email records and the mails claimed for sending, in a server's SQLite
    (protocol.md 2.13); `RedisMail` keeps the same for a cluster."""

    def __init__(
        self, db: sqlite3.Connection, transaction: Callable[[], AbstractContextManager[None]]
    ) -> None:
        self._db = db
        self._transaction = transaction

    def keep_unsent(self, mails: Iterable[Mail]) -> None:
        """Mails a stopping server could not send, kept for `take_unsent` to send later."""
        with self._transaction():
            rows = [(mail.dumps(),) for mail in mails]
            self._db.executemany("INSERT INTO unsent (mail) VALUES (?)", rows)

    def take_unsent(self) -> list[Mail]:
        """Every mail kept unsent, in order, no longer kept: the sender's now."""
        with self._transaction():
            rows = self._db.execute("SELECT mail FROM unsent ORDER BY id").fetchall()
            self._db.execute("DELETE FROM unsent")
        return [Mail.loads(text) for (text,) in rows]

    def change_email(self, player: str, change: EmailChange, now_ms: int) -> EmailAnswer:
        """Apply a request about `player`'s address to their record (`emails.py`)."""
        address = code_address(change)
        with self._transaction():
            record = self._email(player)
            to_address = 0
            if address is not None:
                self._db.execute("DELETE FROM codes_sent WHERE at_ms <= ?", (now_ms - HOUR_MS,))
                (to_address,) = self._db.execute(
                    "SELECT count(*) FROM codes_sent WHERE address = ?", (address,)
                ).fetchone()
            after, answer = change.apply(record, player, now_ms, to_address)
            if after != record:
                self._put_email(player, after)
            if answer.code is not None:
                self._db.execute(
                    "INSERT INTO codes_sent (address, at_ms) VALUES (?, ?)", (address, now_ms)
                )
        return answer

    def claim_digest(
        self, player: str, began_ms: int, now_ms: int, games: tuple[dict[str, Any], ...]
    ) -> Digest | NotYet:
        """A digest of `games` to send `player` now, noted as sent; or when to ask again
        (`emails.digest_due`)."""
        with self._transaction():
            record = self._email(player)
            due = digest_due(record, began_ms, now_ms)
            if not isinstance(due, DigestDue):
                return due
            if not games:
                return NotYet(None)
            self._put_email(player, record.digested(now_ms))
        return Digest(due.address, games, due.hours)

    def claim_reminder(self, player: str, marker: str, now_ms: int, keep_ms: int) -> str | None:
        """`player`'s verified address, the first time the turn `marker` is asked of."""
        with self._transaction():
            record = self._email(player)
            if record.address is None or not record.verified:
                return None
            self._db.execute("DELETE FROM mailed WHERE until_ms < ?", (now_ms,))
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO mailed (marker, until_ms) VALUES (?, ?)",
                (marker, now_ms + keep_ms),
            )
        return record.address if cursor.rowcount == 1 else None

    def _email(self, player: str) -> EmailRecord:
        row = self._db.execute("SELECT record FROM emails WHERE player = ?", (player,)).fetchone()
        return EmailRecord.read(None if row is None else str(row[0]))

    def _put_email(self, player: str, record: EmailRecord) -> None:
        self._db.execute(
            "INSERT INTO emails (player, record) VALUES (?, ?) ON CONFLICT (player)"
            " DO UPDATE SET record = excluded.record",
            (player, record.text()),
        )


def player_lines(
    rows: Iterable[tuple[Any, ...]], ratings: dict[str, Rating]
) -> list[dict[str, Any]]:
    """A score card's line per player from rows of (who, name, keyed, outcome, count):
    counted by key where a key held the seat, named as the player is named now, with
    their rating."""
    rows = list(rows)
    names = {who: (name, bool(keyed)) for who, name, keyed, _, _ in rows}
    lines = tally([(who, outcome, count) for who, _, _, outcome, count in rows], "who")
    for line in lines:
        who = line.pop("who")
        name, keyed = names[who]
        line["name"] = name
        line["player"] = who if keyed or is_computer(who) else None
        if who in ratings:
            line["rating"] = shown(ratings[who])
    return sorted(lines, key=lambda line: (-line["wins"], line["name"]))


def shown(rating: Rating) -> dict[str, Any]:
    """A rating as protocol.md 2.10 shows it."""
    return {"value": rating.display, "provisional": rating.provisional, "games": rating.games}


def leaders(rated: Iterable[tuple[str, str | None, Rating]]) -> list[dict[str, Any]]:
    """A leaderboard of (player, name, rating): the best `LEADERS` by conservative rating."""
    ordered = sorted(rated, key=lambda each: (-each[2].ordinal, each[0]))[:LEADERS]
    return [
        {
            "rank": rank,
            "player": player,
            "name": name or computer_name(player),
            "computer": is_computer(player),
            "rating": rating.display,
            "provisional": rating.provisional,
            "games": rating.games,
        }
        for rank, (player, name, rating) in enumerate(ordered, start=1)
    ]


def computer_name(player: str) -> str:
    """How a computer level's id reads on a card: `computer, level hard`."""
    return COMPUTER_NAME + player.removeprefix(COMPUTER)


def tally(rows: Iterable[tuple[str, str, int]], key: str) -> list[dict[str, Any]]:
    """Rows of (who, outcome, count) as a line per who: wins, losses, ties, games, win %."""
    lines: dict[str, dict[str, Any]] = {}
    for who, outcome, count in rows:
        line = lines.setdefault(who, {key: who, "wins": 0, "losses": 0, "ties": 0})
        line[{"win": "wins", "loss": "losses", "tie": "ties"}[outcome]] += count
    for line in lines.values():
        line["games"] = line["wins"] + line["losses"] + line["ties"]
        line["win_percent"] = round(100 * line["wins"] / line["games"])
    return sorted(lines.values(), key=lambda line: (-line["wins"], line[key]))


def _compact(record: dict[str, Any]) -> str:
    """A record as short JSON; records are plain data, so nothing need be checked."""
    return json.dumps(record, separators=(",", ":"), check_circular=False)


def finished_game(db: sqlite3.Connection, row: tuple[Any, ...]) -> dict[str, Any]:
    """One finished game of a player's list (`my_games`) from its `results` row (id, room,
    version, game, preset, finished_at, moves): its seats and rating changes."""
    number, room, version, game, preset, finished_at, moves = row
    changes = {
        colour: {"before": before, "after": after}
        for colour, before, after in db.execute(
            "SELECT colour, before, after FROM rated WHERE room = ? AND version = ?",
            (room, version),
        )
    }
    seats = [
        {
            "colour": colour,
            "kind": kind,
            "name": name,
            "player": seat_player,
            "level": level,
            "outcome": outcome,
            "score": score,
            "rating": changes.get(colour),
        }
        for colour, kind, name, seat_player, level, outcome, score in db.execute(
            "SELECT s.colour, s.kind, coalesce(p.name, s.name), s.player, s.level,"
            " s.outcome, s.score FROM result_seats s LEFT JOIN players p"
            " ON p.id = s.player WHERE s.result = ? ORDER BY s.rowid",
            (number,),
        )
    ]
    return {
        "record": record_id(room, version),
        "game": game,
        "preset": preset,
        "finished_at": int(finished_at),
        "moves": moves,
        "rated": bool(changes),
        "seats": seats,
    }
