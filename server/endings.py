"""Ending a game on purpose, and a seat's leaving it: a resignation, an abort before each
person has moved, and the seat put out of the game (by resigning or by its clock). Of two
seats the other wins; of three, the seat finishes last and the computer plays it on, the
game still counting for the others, until one seat is left."""

from collections.abc import Callable
from typing import Any

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.endings import ABORTED, AGREED, CLAIMED, FLAG, RESIGNED
from parlour.rules import State

from .answers import Outbox, refuse, running
from .history import ABORT, CLAIM, FLAGGED, RESIGN
from .room import ConnId, Holder, Room, Seat, Status
from .scores import Result
from .seats import Seats, room_level
from .services import Services


class Endings:
    """A room's resignations and aborts, and its seats put out of the game."""

    def __init__(
        self,
        room: Room,
        services: Services,
        seats: Seats,
        end: Callable[[State[Any], str], Result],
        outlive: Callable[[], Outbox],
    ) -> None:
        self.room = room
        self.services = services
        self.seats = seats
        self.end = end
        """How the table ends a game: its result noted, the room finished."""
        self.outlive = outlive
        """Ends a proposal about the game as it was (`Consent.outlived`)."""

    def resign(self, conn: ConnId, message: m.Resign) -> Outbox:
        """The sender gives up the game for one of its seats. Before each person seated has
        moved, that is an abort: nothing was played to rate. A resignation sent again (its
        answer lost) is answered `ok` again, whether it resigned or aborted the game."""
        room = self.room
        seat = self._resigning(conn, message.seat)
        done: Outbox = [(conn, m.Ok(id=message.id))]
        gone = seat.colour in room.resigned or room.ended == ABORTED
        if self._this_game(message.version) and gone:
            return done
        self._current(message.version)
        running(room)
        if seat.colour in room.out:
            raise refuse(ErrorCode.OUT_OF_TIME, f"{seat.colour} ran out of time already")
        if room.yet_to_move():
            return [*done, *self._aborted(seat)]
        return [*done, *self.out(room.seats.index(seat), RESIGNED)]

    def abort(self, conn: ConnId, message: m.Abort) -> Outbox:
        """End the game unrated, while some person seated has not made a first move; an
        abort sent again (its answer lost) is answered `ok` again."""
        room = self.room
        seats = room.owned_by(conn)
        if not seats:
            raise refuse(ErrorCode.NOT_SEATED, "only a person in a seat may abort the game")
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if self._this_game(message.version) and room.ended == ABORTED:
            return done
        self._current(message.version)
        running(room)
        if not room.yet_to_move():
            raise refuse(
                ErrorCode.NOT_ABORTABLE,
                "every person seated has moved: the game can be resigned, not aborted",
            )
        return [*done, *self._aborted(seats[0])]

    def claim(self, conn: ConnId, message: m.Claim) -> Outbox:
        """The sender, the one person still here, ends the game won: every other person
        seated is away, the computer standing in for them (they were away longer than the
        room's stand-in wait, or handed over), and finishes last. Before each person has
        moved, that is an abort; sent again, it is answered `ok` again."""
        room = self.room
        owned = room.owned_by(conn)
        if not owned:
            raise refuse(ErrorCode.NOT_SEATED, "only a person in a seat may claim the game")
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if self._this_game(message.version) and room.ended in (CLAIMED, ABORTED):
            return done
        self._current(message.version)
        running(room)
        others = [
            seat
            for seat in room.seats
            if seat.belongs_to_person and seat not in owned and seat.colour not in room.out
        ]
        if not others or any(seat.holder is not Holder.STANDIN for seat in others):
            raise refuse(
                ErrorCode.NOT_CLAIMABLE,
                "the game can be claimed only while every other person seated is away and"
                " the computer stands in for them",
            )
        if room.yet_to_move():
            return [*done, *self._aborted(owned[0])]
        by = owned[0]
        room.history.add(CLAIM, self.services.wall(), seat=by.colour, name=by.name)
        assert room.state is not None
        result = self.end(room.state, CLAIMED)
        rated = self.services.known.rate(room, result)
        return [*done, *self.outlive(), *self.services.shown(room), *rated]

    def agree(self) -> Outbox:
        """The people seated agreed to end the game as it stands (a draw offer accepted):
        its result, rated as the game was."""
        room = self.room
        assert room.state is not None
        result = self.end(room.state, AGREED)
        return self.services.known.rate(room, result)

    def out(self, index: int, how: str) -> Outbox:
        """Seat `index` is out of the game, `how` (`FLAG` or `RESIGNED`): it finishes last.
        With one seat left the game ends; else the computer plays the seat on, at the
        room's level."""
        room = self.room
        assert room.state is not None
        seat = room.seats[index]
        room.out[seat.colour] = seat.rated_as
        if how == RESIGNED:
            room.resigned.add(seat.colour)
            if room.clock is not None:
                room.clock.retire(index, room.now_ms())
        left = [each for each in room.seats if each.colour not in room.out]
        ends = len(left) < 2
        room.history.add(
            FLAGGED if how == FLAG else RESIGN,
            self.services.wall(),
            seat=seat.colour,
            name=seat.name if seat.belongs_to_person else None,
            ends=ends,
        )
        if ends:
            result = self.end(room.state, how)
            rated = self.services.known.rate(room, result)
            return [*self.outlive(), *self.services.shown(room), *rated]
        level = room_level(room)
        if seat.belongs_to_person:
            seat.hand_to_computer(level)
        else:
            seat.level = level
        room.record_seat_change(seat)
        shown = self.services.shown(room)  # that the seat is out, before who plays it on
        return [*self.outlive(), *shown, *self.seats.told(seat, by=None)]

    def late(self, index: int) -> Outbox:
        """Seat `index`'s person made no first move in the time a first move has: the game
        is aborted for them."""
        return self._aborted(self.room.seats[index], late=True)

    def _aborted(self, by: Seat, *, late: bool = False) -> Outbox:
        """The game ends here, rated for nobody, won by nobody."""
        room = self.room
        room.status, room.ended, room.winners = Status.FINISHED, ABORTED, []
        if room.clock is not None:
            room.clock.stop(room.now_ms())
        name = by.name if by.belongs_to_person else None
        fields = {"late": True} if late else {}
        room.history.add(ABORT, self.services.wall(), seat=by.colour, name=name, **fields)
        return [*self.outlive(), *self.services.shown(room)]

    def _resigning(self, conn: ConnId, colour: str | None) -> Seat:
        """The seat the sender resigns: the one named, else the one to move if it is the
        sender's, else the sender's first."""
        room = self.room
        owned = room.owned_by(conn)
        if not owned:
            raise refuse(ErrorCode.NOT_SEATED, "only a person in a seat may resign")
        if colour is not None:
            seat = next((each for each in owned if each.colour == colour), None)
            if seat is None:
                raise refuse(ErrorCode.NOT_SEATED, f"you do not play {colour} in this room")
            return seat
        state = room.state
        to_move = room.seats[state.to_move] if state is not None and not state.is_over else None
        return to_move if to_move in owned else owned[0]

    def _this_game(self, version: int) -> bool:
        """Whether `version` was seen during the room's game now (or just finished)."""
        room = self.room
        return room.status is not Status.WAITING and room.moves_since <= version <= room.version

    def _current(self, version: int) -> None:
        """Refuse a request made against another game than the room's now."""
        if not self._this_game(version) and self.room.status is not Status.WAITING:
            raise refuse(
                ErrorCode.STALE_VERSION,
                f"that was another game: the room is at version {self.room.version}",
                version=self.room.version,
            )
