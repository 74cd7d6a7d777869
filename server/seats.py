"""A room's seats changing hands: people coming in and taking their seats back with their
token, seats given to the computer, taken, opened or given new levels, stand-ins for people
long away; and every change told to the room and noted in its history."""

import secrets
from collections.abc import Callable
from typing import Any, Final

from parlour.bots import default_level, levels_for
from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.rules import Game

from .answers import Outbox, refuse
from .history import SEAT
from .room import ConnId, Holder, Room, Seat, Status
from .services import Services

SECRET_BYTES: Final = 16
"""128 bits for seat and host tokens."""


class Seats:
    """Who holds each of a room's seats, and who is in the room."""

    def __init__(self, room: Room, services: Services, may_sit: Callable[[ConnId], None]) -> None:
        self.room = room
        self.services = services
        self.may_sit = may_sit
        """Refuses a seat to a person blocked or sent out (`Conduct.may_sit`)."""

    def token_for(self, conn: ConnId) -> str:
        """The token for a seat `conn` takes: the one it already has in the room (the host's,
        or its other seats'), so that one token brings back everything it holds."""
        return self.room.token_of(conn) or self.services.secret(SECRET_BYTES)

    def rejoin(self, conn: ConnId, message: m.Join) -> Outbox:
        """Take every seat a token holds, and hosting, back with it."""
        room, people = self.room, self.services.people
        token = message.token or ""
        seats = [
            seat for seat in room.seats if seat.token and secrets.compare_digest(seat.token, token)
        ]
        hosting = secrets.compare_digest(token, room.host_token)
        if not seats and not hosting:
            raise refuse(ErrorCode.BAD_TOKEN, "that token holds no seat in this room")
        outbox: Outbox = []
        back: list[Seat] = []
        if len(seats) == 1:
            # One person's seat takes the name they come back under; where people share
            # a screen, each seat keeps its person's name.
            seats[0].name = message.name or people.name(conn)
            seats[0].player = people.player_of(conn, seats[0].name)
        for seat in seats:
            if seat.conn is not None and seat.conn != conn:
                room.spectators.add(seat.conn)  # their own old connection: not a watcher
                outbox.append((seat.conn, m.SeatChanged(room=room.id, seat=seat.colour)))
            seat.conn, seat.dropped_at = conn, None
            if seat.holder is Holder.STANDIN:
                seat.take_back()
                room.record_seat_change(seat, own=True)
                back.append(seat)
        if seats:
            room.spectators.discard(conn)
        else:
            self.watching(conn)
        if hosting:
            room.host_conn = conn
        self.enter(conn)
        joined = self.joined(conn, message.id, token, next(iter(seats), None))
        for seat in back:
            outbox += self.told(seat, by=None)
        return [(conn, joined), *outbox, *self.services.shown(room, but=conn)]

    def watching(self, conn: ConnId) -> None:
        """`conn` watches the room from now on, named in its list of watchers."""
        people = self.services.people
        self.room.spectators.add(conn)
        name = people.names.get(conn)
        if name is not None:
            self.room.watchers[conn] = (name, people.players.get(conn))

    def joined(
        self, conn: ConnId, request: str | int | None, token: str, seat: Seat | None
    ) -> m.Joined:
        room = self.room
        hosting = room.host_conn == conn
        return m.Joined(
            id=request,
            room=room.view(conn),
            seat=seat.colour if seat else None,
            token=token,
            host=hosting,
            code=room.code if hosting else None,
            history=room.history.window(),
        )

    def enter(self, conn: ConnId) -> None:
        """`conn` has come in (to a seat, watching or hosting): the room is not empty, is
        listed again if it is public, and its bots play on."""
        room = self.room
        self.services.people.came_in(conn, room.id)
        if room.empty_since is not None:
            room.empty_since = None
            self.services.journal.changed.add(room.id)
        room.dormant = False
        self.services.journal.unsaved.add(room.id)

    def change(self, conn: ConnId, message: m.SetSeat) -> Outbox:
        """A seat handed to the computer, taken back by a person, given a new level or
        opened: by the host for any seat not held by another person who is here (before the
        start, one held by a person too: they watch), and by anyone for their own seats; at
        any time but while a proposal waits."""
        room, people = self.room, self.services.people
        seat = room.seat_named(message.seat)
        if seat is None:
            raise no_such_seat(room.game, message.seat)
        if seat.colour in room.out and room.status is Status.PLAYING:
            raise refuse(
                ErrorCode.OUT_OF_TIME,
                f"{seat.colour} ran out of time: the computer plays it to the end of the game",
            )
        own = seat.conn == conn
        taking_open = seat.holder is Holder.OPEN and message.holder == "human"
        if not (own or taking_open or room.host_conn == conn):
            raise refuse(ErrorCode.NOT_HOST, "only the host may change a seat that is not yours")
        displaced = None
        if seat.conn is not None and not own:
            before_start = room.host_conn == conn and room.status is Status.WAITING
            if not before_start or message.holder != "open":
                raise refuse(ErrorCode.SEAT_TAKEN, f"{seat.colour} is held by {seat.name}")
            displaced = seat.conn
        if room.proposal is not None and not self._held_as_asked(seat, message, own=own):
            raise refuse(
                ErrorCode.BUSY, f"the game waits for answers to a {room.proposal.kind} proposal"
            )
        before = seat.describe()
        if message.holder == "bot":
            level = level_asked(room, message.level, room_level(room))
            if not seat.belongs_to_person:
                room.bot_level = level
            to_computer(room, seat, level, own=own)
        elif message.holder == "human" and own:
            seat.take_back()
        elif message.holder == "human":
            people.check_guest_name(conn, message, self.services.asker.archive)
            self.may_sit(conn)
            name = message.name or people.name(conn)
            seat.seat_human(name, self.token_for(conn), conn, people.player_of(conn, name))
            room.spectators.discard(conn)
            self.enter(conn)
        else:
            seat.open()
            if own:
                self.watching(conn)
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if displaced is not None and displaced not in {each.conn for each in room.seats}:
            self.watching(displaced)
        if displaced is not None:
            done.append((displaced, m.SeatChanged(room=room.id, seat=seat.colour)))
        if seat.describe() == before:
            return done
        shown = self.services.known.show_ratings(room)
        return [*done, *self.changed(seat, conn), *shown]

    def _held_as_asked(self, seat: Seat, message: m.SetSeat, *, own: bool) -> bool:
        """Whether `seat` is held already as `message` asks (a change sent again), which
        changes nothing and is `ok` even while a proposal waits."""
        room = self.room
        if message.holder == "open":
            return seat.holder is Holder.OPEN
        if message.holder == "human":
            return own and seat.holder is Holder.HUMAN
        level = level_asked(room, message.level, room_level(room))
        return (
            seat.plays_as_bot
            and seat.level == level
            and (seat.belongs_to_person or room_level(room) == level)
        )

    def changed(self, seat: Seat, by: ConnId, but: ConnId | None = None) -> Outbox:
        """A seat changed hands: noted in the room, told to everyone, the view sent."""
        self.room.record_seat_change(seat)
        told = self.told(seat, by=self.services.people.name(by))
        return [*told, *self.services.shown(self.room, but=but)]

    def told(self, seat: Seat, by: str | None) -> Outbox:
        """`seat_set` to everyone in the room; `by` None for the server's own doing."""
        room = self.room
        self.services.journal.reseated.add((room.id, seat.colour))
        entry = self.noted(seat, by)
        notice = m.SeatSet(
            room=room.id, seat=seat.colour, holder=entry["holder"], by=by, after=entry["after"]
        )
        return [(member, notice) for member in sorted(room.connections())]

    def noted(self, seat: Seat, by: str | None) -> dict[str, Any]:
        """A seat's change in the room's history: its new holder, who changed it, when."""
        room = self.room
        after = None if room.status is Status.WAITING else len(room.moves)
        holder = seat.describe()["holder"]
        wall = self.services.wall()
        room.history.add(SEAT, wall, seat=seat.colour, holder=holder, by=by, after=after)
        self.services.journal.unsaved.add(room.id)
        return {"holder": holder, "after": after}

    def stand_in(self, now: float) -> Outbox:
        """A bot takes over each seat whose person has been away too long, while another
        person is seated to play on with it (against the computer alone, the game waits)."""
        room = self.room
        if room.standin_after == 0 or room.clock is not None:
            return []  # with a clock, the time of a person away runs on instead
        outbox: Outbox = []
        for seat in room.seats:
            away = seat.dropped_at
            if (
                seat.holder is Holder.HUMAN
                and away is not None
                and now - away >= room.standin_after
                and any(other.belongs_to_person for other in room.seats if other is not seat)
            ):
                seat.holder, seat.level = Holder.STANDIN, room_level(room)
                room.stood_in.add(seat.colour)
                room.record_seat_change(seat, own=True)
                outbox += self.told(seat, by=None)
        return [*outbox, *self.services.shown(room)] if outbox else []


def no_such_seat(game: Game[Any], colour: str) -> ProtocolError:
    seats = game.seats
    return refuse(
        ErrorCode.NO_SUCH_SEAT,
        f"{game.title} has no seat '{colour}'; its seats are {', '.join(seats)}",
        seats=list(seats),
    )


def level_asked(room: Room, level: str | None, otherwise: str) -> str:
    """The level asked for, `otherwise` where none is; `no_such_level` if the game's bots
    do not play at it."""
    levels = levels_for(room.game.name)
    if level is None:
        return otherwise
    if level not in levels:
        raise refuse(
            ErrorCode.NO_SUCH_LEVEL,
            f"{room.game.title} bots play at {', '.join(levels)}, not '{level}'",
            levels=list(levels),
        )
    return level


def room_level(room: Room) -> str:
    """The level the computer takes a person's seat at (a stand-in, a seat given up): the
    one the room's computer seats were last set to, else the game's default."""
    return room.bot_level or default_level(room.game.name)


def to_computer(room: Room, seat: Seat, level: str, *, own: bool) -> None:
    """The computer plays `seat` at `level`: for its person, if it is theirs."""
    if seat.holder is Holder.OPEN:
        seat.seat_bot(level)
    elif seat.holder is Holder.HUMAN and not own:
        seat.holder, seat.level = Holder.STANDIN, level
        if room.status is Status.PLAYING:
            room.stood_in.add(seat.colour)
    elif seat.holder is Holder.HUMAN:
        seat.hand_to_computer(level)
    else:
        seat.level = level
