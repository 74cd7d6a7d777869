"""Searches the shell runs in worker processes: a bot's turn, and the suggested moves people
ask for (at most one each at a time), with the answer to whoever asked."""

from dataclasses import dataclass, field
from typing import Any

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.rules import State

from .answers import Outbox, refuse
from .room import ConnId


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot is to move in a room: what the shell hands to a worker process."""

    room: str
    version: int
    colour: str
    level: str
    budget: float
    """Seconds the bot may think: the room's setting."""
    state: State[Any]
    began: float
    """When the turn began, on the lobby's clock: the move is due `budget` after it."""
    waited_on: bool
    """Whether a person in the room waits for the move, rather than only computers."""
    seat_changes: int = 0
    """The seat's `changes` when the turn began: a change since makes the turn stale."""


@dataclass(frozen=True, slots=True)
class SuggestionAsked:
    """A person asked for a suggested move: what the shell hands to a worker process."""

    conn: ConnId
    request: str | int | None
    room: str
    version: int
    colour: str
    level: str
    budget: float
    state: State[Any]
    asked_at: float
    """When it was asked, on the lobby's clock: the answer is due `budget` after it."""


@dataclass
class Suggestions:
    """Suggestions being worked out, by the connection that asked."""

    suggesting: set[ConnId] = field(default_factory=set)
    """Connections with a suggestion being searched: one each at a time."""
    _asked: list[SuggestionAsked] = field(default_factory=list, repr=False)

    def ask(self, asked: SuggestionAsked) -> None:
        """Kept for the shell to search; `busy` if the asker's last one is still searched."""
        if asked.conn in self.suggesting:
            raise refuse(ErrorCode.BUSY, "a suggestion for you is still being worked out")
        self.suggesting.add(asked.conn)
        self._asked.append(asked)

    def take(self) -> list[SuggestionAsked]:
        """Every suggestion asked for since the last call, for the shell to search."""
        asked, self._asked = self._asked, []
        return asked

    def answered(
        self, asked: SuggestionAsked, found: dict[str, Any] | None, *, here: bool
    ) -> Outbox:
        """The answer to a suggestion, if its asker is still `here`; None if the search
        failed."""
        self.suggesting.discard(asked.conn)
        if not here:
            return []
        if found is None:
            error = refuse(ErrorCode.INTERNAL, "no suggestion could be worked out; ask again")
            return [(asked.conn, m.Error.from_exception(error, asked.request))]
        suggestion = m.Suggestion(
            id=asked.request, room=asked.room, version=asked.version, search=found
        )
        return [(asked.conn, suggestion)]

    def forget(self, conn: ConnId) -> None:
        self.suggesting.discard(conn)
