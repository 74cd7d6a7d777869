"""Score cards and saved games as questions for the database, apart from the lobby's rules.

The lobby decides who may ask; a question it cannot answer from memory is an `ArchiveAsk`.
A server with its database at hand (SQLite) answers at once; a cluster node asks Redis
over the network and hands the answer back to the lobby when it comes.
"""

from dataclasses import dataclass
from typing import Any, Protocol

from .room import ConnId
from .store import Save, SetInitials


@dataclass(frozen=True, slots=True)
class ScoreCardQuery:
    game: str
    preset: str | None


@dataclass(frozen=True, slots=True)
class SavesQuery:
    game: str | None


@dataclass(frozen=True, slots=True)
class PutSave:
    save: Save
    replace: bool


@dataclass(frozen=True, slots=True)
class GetSave:
    name: str


Query = ScoreCardQuery | SavesQuery | PutSave | GetSave | SetInitials


@dataclass(frozen=True, slots=True)
class ArchiveAsk:
    """A request waiting for the database's answer to `query`."""

    conn: ConnId
    request: str | int | None
    query: Query
    room: str | None = None
    """For a saved game to load: the room it goes into."""


class Archive(Protocol):
    """Where score cards are read and games are saved, at hand: SQLite."""

    def score_card(self, game: str, preset: str | None) -> dict[str, Any]: ...
    def put_save(self, save: Save, *, replace: bool) -> bool: ...
    def get_save(self, name: str) -> tuple[str, str] | None: ...
    def list_saves(self, game: str | None) -> list[dict[str, Any]]: ...
    def set_initials(self, asked: SetInitials) -> bool: ...


class RemoteArchive(Protocol):
    """The same over the network: Redis, shared by every node of a cluster."""

    async def score_card(self, game: str, preset: str | None) -> dict[str, Any]: ...
    async def put_save(self, save: Save, *, replace: bool) -> bool: ...
    async def get_save(self, name: str) -> tuple[str, str] | None: ...
    async def list_saves(self, game: str | None) -> list[dict[str, Any]]: ...
    async def set_initials(self, asked: SetInitials) -> bool: ...


def answer(archive: Archive, query: Query) -> Any:
    """What `archive` answers to `query`."""
    match query:
        case ScoreCardQuery():
            return archive.score_card(query.game, query.preset)
        case SavesQuery():
            return archive.list_saves(query.game)
        case PutSave():
            return archive.put_save(query.save, replace=query.replace)
        case GetSave():
            return archive.get_save(query.name)
        case SetInitials():
            return archive.set_initials(query)


async def answer_remotely(archive: RemoteArchive, query: Query) -> Any:
    """What the remote `archive` answers to `query`."""
    match query:
        case ScoreCardQuery():
            return await archive.score_card(query.game, query.preset)
        case SavesQuery():
            return await archive.list_saves(query.game)
        case PutSave():
            return await archive.put_save(query.save, replace=query.replace)
        case GetSave():
            return await archive.get_save(query.name)
        case SetInitials():
            return await archive.set_initials(query)
