"""Score cards and saved games as questions for the database, apart from the lobby's rules.

The lobby decides who may ask; a question it cannot answer from memory is an `ArchiveAsk`.
A server with its database at hand (SQLite) answers at once; a cluster node asks Redis
over the network and hands the answer back to the lobby when it comes.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .emails import Digest, EmailAnswer, EmailChange, NotYet
from .letters import Mail
from .moderation import FileReport, Report, SetStanding, Standing
from .ratings import Rating, pool
from .room import ConnId
from .scores import Result
from .store import Save, SetInitials
from .vacations import Vacation


@dataclass(frozen=True, slots=True)
class ScoreCardQuery:
    game: str
    preset: str | None


@dataclass(frozen=True, slots=True)
class SavesQuery:
    owner: str
    game: str | None


@dataclass(frozen=True, slots=True)
class PutSave:
    save: Save
    replace: bool


@dataclass(frozen=True, slots=True)
class GetSave:
    owner: str
    name: str


@dataclass(frozen=True, slots=True)
class ClaimName:
    """A hello: may `player` (None for a guest) go by `name`? Answered with the person's
    standing (`moderation.Standing`): a barred person claims nothing."""

    player: str | None
    name: str


@dataclass(frozen=True, slots=True)
class RatingsQuery:
    """The ratings of a room's holders, to show with its seats."""

    game: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RateGame:
    """A finished rated game, to rate once."""

    result: Result


@dataclass(frozen=True, slots=True)
class VacationQuery:
    """A player's vacation of `days` days from `now` (0: end it; None: only look): the
    vacation it makes, or None if the year has not that many days left."""

    player: str
    days: int | None
    now: float


@dataclass(frozen=True, slots=True)
class LeaderboardQuery:
    game: str
    speed: str = "none"

    @property
    def pool(self) -> str:
        return pool(self.game, self.speed)


@dataclass(frozen=True, slots=True)
class FinishedQuery:
    player: str


@dataclass(frozen=True, slots=True)
class RecordQuery:
    record: str


@dataclass(frozen=True, slots=True)
class EmailQuery:
    """A request about a player's address (protocol.md 2.13): what it does to their
    record, at `now_ms` (Unix milliseconds)."""

    player: str
    change: EmailChange
    now_ms: int


@dataclass(frozen=True, slots=True)
class DigestQuery:
    """May a digest go to `player` now, a game having begun waiting on them at `began_ms`?
    If so it is noted as sent, once however many servers ask. `games` are those waiting
    on them that the asker keeps (a cluster's records list them all)."""

    player: str
    began_ms: int
    now_ms: int
    games: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class ReminderQuery:
    """Where to remind `player` that the time for their move in `game` (an entry of
    `my_games`' `playing`) runs out: their verified address, the first time `marker`
    (the turn) is asked of, kept `keep_ms`."""

    player: str
    marker: str
    now_ms: int
    keep_ms: int
    game: dict[str, Any]


MailQuery = EmailQuery | DigestQuery | ReminderQuery
"""The questions about players' mail."""

Query = (
    ScoreCardQuery
    | SavesQuery
    | PutSave
    | GetSave
    | SetInitials
    | ClaimName
    | RatingsQuery
    | RateGame
    | LeaderboardQuery
    | VacationQuery
    | FinishedQuery
    | RecordQuery
    | EmailQuery
    | DigestQuery
    | ReminderQuery
    | SetStanding
    | FileReport
)


@dataclass(frozen=True, slots=True)
class ArchiveAsk:
    """A request waiting for the database's answer to `query`."""

    conn: ConnId | None
    """Who asked; None for the server's own questions (ratings to show, a game to rate)."""
    request: str | int | None
    query: Query
    room: str | None = None
    """For a saved game to load: the room it goes into; for ratings, the room they are
    for."""


class Archive(Protocol):
    """Where score cards, players and ratings are read and games are saved, at hand: SQLite."""

    def score_card(self, game: str, preset: str | None) -> dict[str, Any]: ...
    def put_save(self, save: Save, *, replace: bool) -> bool: ...
    def get_save(self, owner: str, name: str) -> tuple[str, str] | None: ...
    def list_saves(self, owner: str, game: str | None) -> list[dict[str, Any]]: ...
    def set_initials(self, asked: SetInitials) -> bool: ...
    def claim_name(self, player: str | None, name: str) -> bool | None: ...
    def holder_of(self, name: str) -> str | None: ...
    def standing(self, player: str | None, name: str) -> Standing: ...
    def set_standing(self, change: SetStanding) -> None: ...
    def file_report(self, report: Report) -> None: ...
    def ratings(self, game: str, players: Iterable[str]) -> dict[str, Rating]: ...
    def rate(self, result: Result) -> dict[str, dict[str, int]]: ...
    def leaderboard(self, game: str) -> list[dict[str, Any]]: ...
    def take_vacation(self, player: str, days: int | None, now: float) -> Vacation | None: ...
    def finished_games(self, player: str) -> list[dict[str, Any]]: ...
    def record(self, record: str) -> str | None: ...
    @property
    def mail(self) -> "MailArchive": ...


class MailArchive(Protocol):
    """Players' email records and the mails claimed for sending, at hand (`Store.mail`)."""

    def keep_unsent(self, mails: Iterable[Mail]) -> None: ...
    def take_unsent(self) -> list[Mail]: ...

    def change_email(self, player: str, change: EmailChange, now_ms: int) -> EmailAnswer: ...
    def claim_digest(
        self, player: str, began_ms: int, now_ms: int, games: tuple[dict[str, Any], ...]
    ) -> Digest | NotYet: ...
    def claim_reminder(
        self, player: str, marker: str, now_ms: int, keep_ms: int
    ) -> str | None: ...


class RemoteArchive(Protocol):
    """The same over the network: Redis, shared by every node of a cluster."""

    async def score_card(self, game: str, preset: str | None) -> dict[str, Any]: ...
    async def put_save(self, save: Save, *, replace: bool) -> bool: ...
    async def get_save(self, owner: str, name: str) -> tuple[str, str] | None: ...
    async def list_saves(self, owner: str, game: str | None) -> list[dict[str, Any]]: ...
    async def set_initials(self, asked: SetInitials) -> bool: ...
    async def claim_name(self, player: str | None, name: str) -> bool | None: ...
    async def standing(self, player: str | None, name: str) -> Standing: ...
    async def set_standing(self, change: SetStanding) -> None: ...
    async def file_report(self, report: Report) -> None: ...
    async def ratings(self, game: str, players: Iterable[str]) -> dict[str, Rating]: ...
    async def rate(self, result: Result) -> dict[str, dict[str, int]]: ...
    async def leaderboard(self, game: str) -> list[dict[str, Any]]: ...
    async def take_vacation(
        self, player: str, days: int | None, now: float
    ) -> Vacation | None: ...
    async def finished_games(self, player: str) -> list[dict[str, Any]]: ...
    async def playing(self, player: str) -> list[dict[str, Any]]: ...
    async def record(self, record: str) -> str | None: ...
    @property
    def mail(self) -> "RemoteMailArchive": ...


class RemoteMailArchive(Protocol):
    """The same as `MailArchive` over the network (`RedisRecords.mail`)."""

    async def keep_unsent(self, mails: Iterable[Mail]) -> None: ...
    async def take_unsent(self) -> list[Mail]: ...

    async def change_email(self, player: str, change: EmailChange, now_ms: int) -> EmailAnswer: ...
    async def claim_digest(
        self, player: str, began_ms: int, now_ms: int, games: tuple[dict[str, Any], ...]
    ) -> Digest | NotYet: ...
    async def claim_reminder(
        self, player: str, marker: str, now_ms: int, keep_ms: int
    ) -> str | None: ...


def answer(archive: Archive, query: Query) -> Any:
    """What `archive` answers to `query`."""
    match query:
        case ScoreCardQuery():
            return archive.score_card(query.game, query.preset)
        case SavesQuery():
            return archive.list_saves(query.owner, query.game)
        case PutSave():
            return archive.put_save(query.save, replace=query.replace)
        case GetSave():
            return archive.get_save(query.owner, query.name)
        case SetInitials():
            return archive.set_initials(query)
        case ClaimName():
            standing = archive.standing(query.player, query.name)
            claimed = None if standing.barred else archive.claim_name(query.player, query.name)
            return claimed, standing
        case SetStanding():
            return archive.set_standing(query)
        case FileReport():
            return archive.file_report(query.report)
        case RatingsQuery():
            return archive.ratings(query.game, query.players)
        case RateGame():
            return archive.rate(query.result)
        case LeaderboardQuery():
            return archive.leaderboard(query.pool)
        case VacationQuery():
            return archive.take_vacation(query.player, query.days, query.now)
        case FinishedQuery():
            return {"finished": archive.finished_games(query.player), "playing": None}
        case RecordQuery():
            return archive.record(query.record)
        case EmailQuery():
            return archive.mail.change_email(query.player, query.change, query.now_ms)
        case DigestQuery():
            return archive.mail.claim_digest(
                query.player, query.began_ms, query.now_ms, query.games
            )
        case ReminderQuery():
            return archive.mail.claim_reminder(
                query.player, query.marker, query.now_ms, query.keep_ms
            )


async def answer_remotely(archive: RemoteArchive, query: Query) -> Any:
    """What the remote `archive` answers to `query`."""
    match query:
        case ScoreCardQuery():
            return await archive.score_card(query.game, query.preset)
        case SavesQuery():
            return await archive.list_saves(query.owner, query.game)
        case PutSave():
            return await archive.put_save(query.save, replace=query.replace)
        case GetSave():
            return await archive.get_save(query.owner, query.name)
        case SetInitials():
            return await archive.set_initials(query)
        case ClaimName():
            standing = await archive.standing(query.player, query.name)
            if standing.barred:
                return None, standing
            return await archive.claim_name(query.player, query.name), standing
        case SetStanding():
            return await archive.set_standing(query)
        case FileReport():
            return await archive.file_report(query.report)
        case RatingsQuery():
            return await archive.ratings(query.game, query.players)
        case RateGame():
            return await archive.rate(query.result)
        case LeaderboardQuery():
            return await archive.leaderboard(query.pool)
        case VacationQuery():
            return await archive.take_vacation(query.player, query.days, query.now)
        case FinishedQuery():
            finished = await archive.finished_games(query.player)
            return {"finished": finished, "playing": await archive.playing(query.player)}
        case RecordQuery():
            return await archive.record(query.record)
        case EmailQuery():
            return await archive.mail.change_email(query.player, query.change, query.now_ms)
        case DigestQuery():
            return await archive.mail.claim_digest(
                query.player, query.began_ms, query.now_ms, query.games
            )
        case ReminderQuery():
            return await archive.mail.claim_reminder(
                query.player, query.marker, query.now_ms, query.keep_ms
            )
