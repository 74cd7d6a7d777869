"""The "your turn" notices (protocol.md 2.10): when a room's turn passes to a seat a player
holds as a person, that player's connections that are not in the room are told, once a turn.

The lobby notes which turns it has told of; the shell delivers each notice to the
connections it holds (a cluster node publishes it for every node to deliver to its own).
"""

from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field

from parlour.protocol import messages as m

from .answers import Outbox
from .room import ConnId, Holder, Room, Seat, Status

Turn = tuple[int, str, str]
"""A turn told of: the room's version, the colour to move and the player who holds it."""


@dataclass(frozen=True, slots=True)
class TurnNotice:
    """A room's turn passed to a seat `player` holds as a person."""

    player: str
    room: str
    ref: str
    """What to `join` the room with: its code for a private room, else its id."""
    game: str
    seats: tuple[str, ...]
    """The colours the player holds in the room, as `my_games` lists them."""
    present: frozenset[ConnId]
    """The connections in the room when the turn passed: they see it there."""
    time_left_ms: int | None = None
    """The time the seat to move has left; None while the room has no clock."""

    def message(self) -> m.YourTurn:
        return m.YourTurn(
            room=self.room,
            ref=self.ref,
            game=self.game,
            seats=list(self.seats),
            time_left_ms=self.time_left_ms,
        )

    def outbox(self, players: Mapping[ConnId, str], here: Container[ConnId]) -> Outbox:
        """`your_turn` to each connection `here` whose key proved the player, but those in
        the room."""
        told = self.message()
        return [
            (conn, told)
            for conn, player in sorted(players.items())
            if player == self.player and conn in here and conn not in self.present
        ]


def seat_to_move(room: Room) -> Seat | None:
    """The seat to move in a game in play; None before the start and at the end."""
    state = room.state
    if room.status is not Status.PLAYING or state is None or state.is_over:
        return None
    return room.seats[state.to_move]


def awaited(room: Room) -> tuple[Seat, str] | None:
    """The seat to move and its player, where a player with a key plays it as a person
    (not the computer for them)."""
    seat = seat_to_move(room)
    if seat is None or seat.holder is not Holder.HUMAN or seat.player is None:
        return None
    return seat, seat.player


def turn_began_ms(room: Room) -> int:
    """When the turn of the seat to move began, as a room's state tells it (Unix
    milliseconds): its clock's start where one runs, else the last move."""
    clock = room.clock
    if clock is not None and clock.running is not None:
        return clock.since_ms
    return room.moved_at * 1000


def time_left(room: Room) -> int | None:
    """The time the seat to move has left, where its clock runs."""
    clock = room.clock
    if clock is None or clock.running is None:
        return None
    return max(0, clock.left_ms(clock.running, room.now_ms()))


@dataclass
class TurnNotices:
    """The last turn told of in each room, so that each turn is told once, and when it
    began."""

    told: dict[str, Turn] = field(default_factory=dict)
    began: dict[str, int] = field(default_factory=dict)
    """When each turn told of began (Unix milliseconds), as far as this server saw it."""

    def look(
        self, rooms: Mapping[str, Room], changed: Iterable[str], now_ms: int
    ) -> list[TurnNotice]:
        """A notice for each room of `changed` whose turn passed to a player since it was
        last told of (at `now_ms`); a room no longer in `rooms` is forgotten."""
        notices = []
        for room_id in sorted(changed):
            room = rooms.get(room_id)
            if room is None:
                self.forget(room_id)
                continue
            found = awaited(room)
            if found is None:
                continue
            seat, player = found
            turn = (room.version, seat.colour, player)
            if self.told.get(room_id) == turn:
                continue
            self.told[room_id] = turn
            timed = room.clock is not None and room.clock.running is not None
            self.began[room_id] = turn_began_ms(room) if timed else now_ms
            notices.append(
                TurnNotice(
                    player=player,
                    room=room.id,
                    ref=room.code or room.id,
                    game=room.game.name,
                    seats=tuple(each.colour for each in room.seats if each.player == player),
                    present=frozenset(room.connections()),
                    time_left_ms=time_left(room),
                )
            )
        return notices

    def seen(self, room: Room) -> None:
        """A room taken back as it was stored: its turn was told of before, if ever."""
        found = awaited(room)
        if found is not None:
            self.told[room.id] = (room.version, found[0].colour, found[1])
            self.began[room.id] = turn_began_ms(room)

    def began_ms(self, room: Room) -> int:
        """When the turn of the room's seat to move began: when it was told of, where it
        was, else as the room's state tells it (`turn_began_ms`)."""
        found = awaited(room)
        told = self.told.get(room.id)
        if found is not None and told == (room.version, found[0].colour, found[1]):
            return self.began.get(room.id, turn_began_ms(room))
        return turn_began_ms(room)

    def forget(self, room_id: str) -> None:
        self.told.pop(room_id, None)
        self.began.pop(room_id, None)
