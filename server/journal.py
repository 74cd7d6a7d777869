"""What the lobby and its tables note for the shell between its looks: the rooms to store
before anyone is told of them, the rooms where a bot may now be to move or a player be told
it is their turn, the seats whose searches went stale, and the games finished. Each note
is taken once."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from parlour.protocol import messages as m

from .answers import Outbox
from .room import ConnId, Room
from .scores import Result


@dataclass(frozen=True, slots=True)
class Unsaved:
    """What must be stored before anyone is told of it."""

    rooms: list[Room]
    closed: list[str]
    results: list[Result]


@dataclass
class Journal:
    """Rooms, seats and games changed since the shell last looked."""

    changed: set[str] = field(default_factory=set)
    """Rooms shown anew since `take_changed`: only these can have a new bot turn."""
    unsaved: set[str] = field(default_factory=set)
    """Rooms changed since the shell last stored them."""
    closed: set[str] = field(default_factory=set)
    results: list[Result] = field(default_factory=list)
    """Games finished since the shell last stored them, for the score cards."""
    reseated: set[tuple[str, str]] = field(default_factory=set)
    """Seats (room, colour) that changed hands since `take_reseated`."""
    timed: set[str] = field(default_factory=set)
    """Rooms shown anew since `take_timed`: only these can have a new clock deadline."""
    turns: set[str] = field(default_factory=set)
    """Rooms shown anew since `take_turns`: only these can have a new turn to tell of."""

    def shown(self, room_id: str) -> None:
        """The room is shown anew: stored, and looked at for a bot to move, for when its
        clock runs out and for a turn to tell its player of."""
        self.changed.add(room_id)
        self.unsaved.add(room_id)
        self.timed.add(room_id)
        self.turns.add(room_id)

    def take_timed(self) -> set[str]:
        timed, self.timed = self.timed, set()
        return timed

    def take_changed(self) -> set[str]:
        changed, self.changed = self.changed, set()
        return changed

    def take_turns(self) -> set[str]:
        turns, self.turns = self.turns, set()
        return turns

    def take_reseated(self) -> set[tuple[str, str]]:
        reseated, self.reseated = self.reseated, set()
        return reseated

    def take_unsaved(self, rooms: Mapping[str, Room]) -> Unsaved:
        """The rooms of `rooms` changed, the ids of rooms closed and the games finished."""
        unsaved, self.unsaved = self.unsaved, set()
        closed, self.closed = self.closed, set()
        results, self.results = self.results, []
        kept = [rooms[room_id] for room_id in sorted(unsaved) if room_id in rooms]
        return Unsaved(kept, sorted(closed), results)

    def requeue(self, unsaved: Unsaved) -> None:
        """Changes that could not be stored: kept to be stored with the next ones."""
        self.unsaved.update(room.id for room in unsaved.rooms)
        self.closed.update(unsaved.closed)
        self.results[:0] = unsaved.results

    def forget(self, room_id: str) -> None:
        """A room another server keeps now: nothing of it is stored or played here."""
        self.changed.discard(room_id)
        self.unsaved.discard(room_id)
        self.turns.discard(room_id)


def views(room: Room, journal: Journal, but: ConnId | None = None) -> Outbox:
    """The room's new view to everyone in it (but the one already answered), noted in
    `journal` to be stored before it is sent."""
    journal.shown(room.id)
    return [
        (member, m.RoomView(room=room.view(member)))
        for member in sorted(room.connections())
        if member != but
    ]
