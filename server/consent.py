"""Taking moves back, starting again, a draw, and handing a person's seat to the computer
while they are away, with the other people's consent: asked, answered, expired, carried out;
and the coin a seat calls for who moves first."""

from collections.abc import Callable
from typing import Final

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m

from . import manage
from .answers import Outbox, refuse, running
from .history import NEW_GAME, PROPOSAL, UNDO
from .room import ConnId, Holder, Proposal, Room, Seat, Status
from .seats import Seats, room_level
from .services import Services

PROPOSAL_ID_BYTES: Final = 6


class Consent:
    """A room's undo, new game, draw and hand-over proposals."""

    def __init__(
        self, room: Room, services: Services, seats: Seats, agree: Callable[[], Outbox]
    ) -> None:
        self.room = room
        self.services = services
        self.seats = seats
        self.agree = agree
        """Ends the game as it stands, agreed (`Endings.agree`)."""

    def undo(self, conn: ConnId, message: m.Undo) -> Outbox:
        """Take back the asker's last move and the moves after it, with the others' consent."""
        room = self.room
        seats = self._asking_person(conn)
        running(room)
        keep = manage.undo_point(room, {room.seats.index(seat) for seat in seats})
        if keep is None:
            colours = " or ".join(seat.colour for seat in seats)
            raise refuse(
                ErrorCode.NOTHING_TO_UNDO,
                f"{colours} has no move to take back"
                f" (at most {manage.MAX_UNDONE} moves can be taken back in a row)",
            )
        return self._propose(conn, message.id, seats, kind="undo", keep=keep)

    def new_game(self, conn: ConnId, message: m.NewGame) -> Outbox:
        """Start again with the same seats, by the consent of every other person seated,
        during a game or after it (a rematch), so that nobody's clock starts while they
        are away or still reading the result. A rematch may rotate the seats."""
        room = self.room
        seats = self._asking_person(conn)
        if room.status is Status.WAITING:
            raise refuse(ErrorCode.NOT_STARTED, "the game has not started")
        if message.rotate and room.status is not Status.FINISHED:
            raise refuse(
                ErrorCode.NOT_FINISHED,
                "the seats are rotated for a rematch, once the game is over",
            )
        call = None if message.call is None else (self._caller(conn), message.call)
        return self._propose(
            conn,
            message.id,
            seats,
            kind="new_game",
            board=message.board,
            call=call,
            rotate=message.rotate,
        )

    def hand_over(self, conn: ConnId, message: m.HandOver) -> Outbox:
        """The computer plays, at once, the seat of a person who is away (their time runs
        on otherwise), with the consent of the others who are here; the person takes the
        seat back when they come back, as from any stand-in."""
        room = self.room
        seats = self._asking_person(conn)
        running(room)
        seat = room.seat_named(message.seat)
        if seat is None:
            raise refuse(ErrorCode.NO_SUCH_SEAT, f"{room.game.title} has no seat {message.seat!r}")
        if seat.holder is not Holder.HUMAN or seat.conn is not None:
            raise refuse(
                ErrorCode.NOT_AWAY,
                f"{seat.colour} is not held by a person who is away",
            )
        return self._propose(
            conn, message.id, seats, kind="hand_over", seat=seat.colour, but=seat.colour
        )

    def draw(self, conn: ConnId, message: m.OfferDraw) -> Outbox:
        """End the game as it stands, when every other person seated accepts: a tie of two
        seats, three ranked by their scores. The computer accepts no draw."""
        room = self.room
        seats = self._asking_person(conn)
        running(room)
        if not any(
            seat.belongs_to_person and seat.conn != conn and seat.colour not in room.out
            for seat in room.seats
        ):
            raise refuse(
                ErrorCode.NOBODY_TO_ASK,
                "nobody else here can accept a draw: the computer plays on",
            )
        return self._propose(conn, message.id, seats, kind="draw")

    def toss(self, conn: ConnId, call: str) -> None:
        """Toss the coin `conn`'s person called for who moves first."""
        manage.toss_for_first(self.room, self._caller(conn), call, self.services.coin())

    def _caller(self, conn: ConnId) -> str:
        """The seat whose person calls the coin; refused where no coin is tossed."""
        room = self.room
        if not room.tosses_for_first:
            first = room.options.get("first")
            raise refuse(
                ErrorCode.BAD_OPTIONS,
                f"no coin is tossed in this room ({room.game.title}, first={first})",
            )
        seats = room.seats_of(conn)
        if not seats:
            raise refuse(ErrorCode.NOT_SEATED, "the coin is called by a person in a seat")
        return seats[0].colour

    def _asking_person(self, conn: ConnId) -> list[Seat]:
        """The seats the asker's people play, if any, and nothing else is asked."""
        room = self.room
        seats = room.seats_of(conn)
        if not seats:
            raise refuse(ErrorCode.NOT_SEATED, "only a person in a seat may ask for that")
        if room.proposal is not None:
            raise refuse(ErrorCode.BUSY, f"a {room.proposal.kind} proposal is waiting for answers")
        return seats

    def _propose(
        self,
        conn: ConnId,
        request: str | int | None,
        seats: list[Seat],
        *,
        kind: str,
        keep: int = 0,
        board: int | None = None,
        call: tuple[str, str] | None = None,
        seat: str | None = None,
        but: str | None = None,
        rotate: bool = False,
    ) -> Outbox:
        """Do it now if nobody else is a person here; else ask every other person (`but`
        the seat a hand-over is about). People sharing the asker's screen agree with it."""
        room = self.room
        others = {
            other.colour
            for other in room.seats
            if other.holder in (Holder.HUMAN, Holder.STANDIN)
            and other.conn != conn
            and other.colour != but
        }
        done: Outbox = [(conn, m.Ok(id=request))]
        if not others:
            told = self._carry_out(kind, keep, board, call, seat=seat, rotate=rotate)
            return [*done, *told, *self.services.shown(room)]
        seconds = self.services.limits.proposal_seconds
        proposal = Proposal(
            id=self.services.secret(PROPOSAL_ID_BYTES),
            kind=kind,
            by=seats[0].colour,
            waiting=others,
            expires_at=self.services.clock() + seconds,
            keep=keep,
            board=board,
            call=call,
            seat=seat,
            rotate=rotate,
        )
        room.proposal = proposal
        asked = m.Proposal(
            room=room.id,
            proposal=proposal.id,
            kind=kind,
            by=seats[0].colour,
            asked=sorted(others),
            expires_in=round(seconds),
            seat=seat,
        )
        return [*done, *((member, asked) for member in sorted(room.connections()))]

    def answer(self, conn: ConnId, message: m.Answer) -> Outbox:
        room = self.room
        proposal = room.proposal
        if proposal is None or proposal.id != message.proposal:
            raise refuse(ErrorCode.NO_SUCH_PROPOSAL, "no such proposal waits in this room")
        asked = [seat.colour for seat in room.owned_by(conn) if seat.colour in proposal.waiting]
        if not asked:
            raise refuse(ErrorCode.NO_SUCH_PROPOSAL, "that proposal waits for no answer of yours")
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if not message.accept:
            return [*done, *self._end("declined", asked[0])]
        proposal.waiting.difference_update(asked)
        if proposal.waiting:
            return done
        ended = self._end("accepted", None)
        told = self._carry_out(
            proposal.kind,
            proposal.keep,
            proposal.board,
            proposal.call,
            seat=proposal.seat,
            rotate=proposal.rotate,
        )
        return [*done, *ended, *told, *self.services.shown(room)]

    def outlived(self) -> Outbox:
        """The game changed under a proposal about it (it ended, or a seat went out of it):
        the proposal ends, expired, changing nothing. A new game still stands."""
        proposal = self.room.proposal
        if proposal is None or proposal.kind == "new_game":
            return []
        return self._end("expired", None)

    def expire(self, now: float) -> Outbox:
        """Silence declines: a proposal nobody answered in time ends."""
        proposal = self.room.proposal
        if proposal is None or now < proposal.expires_at:
            return []
        return self._end("expired", None)

    def _end(self, outcome: str, by: str | None) -> Outbox:
        room = self.room
        proposal = room.proposal
        assert proposal is not None
        room.proposal = None
        journal = self.services.journal
        journal.changed.add(room.id)
        if outcome != "accepted":
            wall = self.services.wall()
            seat = {} if proposal.seat is None else {"seat": proposal.seat}
            room.history.add(
                PROPOSAL, wall, proposal=proposal.kind, outcome=outcome, by=by, **seat
            )
            journal.unsaved.add(room.id)
        ended = m.ProposalEnded(
            room=room.id,
            proposal=proposal.id,
            kind=proposal.kind,
            outcome=outcome,
            by=by,
            seat=proposal.seat,
        )
        return [(member, ended) for member in sorted(room.connections())]

    def _carry_out(
        self,
        kind: str,
        keep: int,
        board: int | None,
        call: tuple[str, str] | None,
        *,
        rotate: bool = False,
        seat: str | None = None,
    ) -> Outbox:
        """Do what was agreed; the seat changes it tells of."""
        room = self.room
        if kind == "hand_over":
            return self._hand_over(seat)
        if kind == "draw":
            return self.agree()
        if kind == "undo":
            taken = len(room.moves) - keep
            manage.rewind(room, keep)
            room.friendly("a move was taken back")
            room.history.add(UNDO, self.services.wall(), moves=taken, version=room.version)
            return []
        manage.restart(room, board, rotate=rotate)
        if call is not None:
            caller, side = call
            if rotate:
                caller = manage.next_colour(room, caller)
            manage.toss_for_first(room, caller, side, self.services.coin())
        room.history.add(
            NEW_GAME,
            self.services.wall(),
            first=room.first_colour(),
            board=room.board,
            rotated=rotate,
            coin=None if room.coin is None else room.coin.describe(),
        )
        return []

    def _hand_over(self, colour: str | None) -> Outbox:
        """The computer stands in for the seat's person, if they are still away."""
        room = self.room
        seat = room.seat_named(colour or "")
        if seat is None or seat.holder is not Holder.HUMAN or seat.conn is not None:
            return []  # they came back meanwhile
        seat.holder, seat.level = Holder.STANDIN, room_level(room)
        room.stood_in.add(seat.colour)
        room.record_seat_change(seat, own=True)
        return self.seats.told(seat, by=None)
