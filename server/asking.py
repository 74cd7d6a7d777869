"""Questions for the database, put by the lobby and its tables: answered at once where the
database is at hand (SQLite), else kept for the shell to ask over the network (Redis).
Either way the answer goes back through the one function the lobby gives."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m

from .answers import Outbox, refuse
from .archive import Archive, ArchiveAsk, PutSave, SavesQuery, ScoreCardQuery, answer
from .room import ConnId
from .store import SetInitials


@dataclass
class Asker:
    """The database's questions and where their answers go."""

    answered: Callable[[ArchiveAsk, Any], Outbox]
    """What becomes of an answer: the lobby's `archived`."""
    archive: Archive | None = None
    """The database at hand, if any."""
    _asks: list[ArchiveAsk] = field(default_factory=list, repr=False)

    @property
    def at_hand(self) -> bool:
        return self.archive is not None

    def ask(self, ask: ArchiveAsk) -> Outbox:
        """Answered at once by a database at hand; else kept for the shell to ask."""
        if self.archive is not None:
            return self.answered(ask, answer(self.archive, ask.query))
        self._asks.append(ask)
        return []

    def take(self) -> list[ArchiveAsk]:
        """Every question for a remote database since the last call, for the shell to ask."""
        asks, self._asks = self._asks, []
        return asks


def filed_answer(
    conn: ConnId,
    request: str | int | None,
    query: ScoreCardQuery | SavesQuery | PutSave | SetInitials,
    found: Any,
) -> Outbox:
    """The answer to a question about score cards and saved games, as its asker is told."""
    match query:
        case ScoreCardQuery():
            reply = m.ScoreCardReply(id=request, game=query.game, preset=query.preset, **found)
            return [(conn, reply)]
        case SavesQuery():
            return [(conn, m.Saves(id=request, saves=found))]
        case PutSave():
            if not found:
                raise refuse(
                    ErrorCode.NAME_TAKEN, f"a game is saved as {query.save.name!r} already"
                )
            return [(conn, m.Ok(id=request))]
        case SetInitials():
            if not found:
                raise refuse(
                    ErrorCode.NOT_BEST,
                    f"{query.score} is not the best {query.name} holds on the {query.preset}"
                    " board's card",
                )
            return [(conn, m.Ok(id=request))]
