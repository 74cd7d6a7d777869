"""What the lobby gives each table: its clocks and chance, the room limits, the people, the
database's questions, the players' records, the searches, and the journal for the shell."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .answers import Outbox
from .asking import Asker
from .guesses import GUESS_LIMIT, GUESS_WINDOW
from .journal import Journal, views
from .known import Known
from .people import People
from .room import ConnId, Room
from .thinking import Suggestions

MAX_ROOMS: Final = 1000
MAX_HOSTED: Final = 3
IDLE_CLOSE: Final = 600.0
UNLIST_AFTER: Final = 10.0
CLOSE_FINISHED_AFTER: Final = 300.0
PROPOSAL_SECONDS: Final = 30.0


@dataclass
class Limits:
    max_rooms: int = MAX_ROOMS
    max_hosted: int = MAX_HOSTED
    idle_close: float = IDLE_CLOSE
    """How long a room nobody is connected to lives: then it closes, and its tokens and
    code stop working."""
    unlist_after: float = UNLIST_AFTER
    """How long a public room nobody is connected to stays in the lobby's list: long enough
    for a page reloaded or a connection made again, and no longer, for nobody can play in
    it. It is kept for its people, unlisted, until they come back."""
    close_finished_after: float = CLOSE_FINISHED_AFTER
    """How long a finished public room nobody is connected to is kept: its game is on the
    score cards, and its people may still start another."""
    guesses: int = GUESS_LIMIT
    guess_window: float = GUESS_WINDOW
    """An address that names `guesses` rooms that are not there within `guess_window`
    seconds is refused look-ups by code until the window passes."""
    proposal_seconds: float = PROPOSAL_SECONDS
    """How long the others have to agree to an undo or new game; silence declines."""


@dataclass
class Services:
    """Shared by the lobby and all its tables; each part keeps its own state."""

    clock: Callable[[], float]
    """Seconds, for what is timed: stand-ins, proposals, idle rooms, bots' turns."""
    wall: Callable[[], float]
    """Unix time, for what is shown of when (`moved_at`, the history)."""
    secret: Callable[[int], str]
    """A URL-safe secret of so many random bytes: tokens, ids."""
    coin: Callable[[], str]
    """How a coin lands: `heads` or `tails`."""
    limits: Limits
    people: People
    asker: Asker
    known: Known
    journal: Journal
    suggestions: Suggestions

    def shown(self, room: Room, but: ConnId | None = None) -> Outbox:
        """The room's new view to everyone in it (but the one already answered)."""
        return views(room, self.journal, but)
