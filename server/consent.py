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
ACCEPTED: Final = "accepted"


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
        if self._sent_again(conn, message.version, "undo"):
            return [(conn, m.Ok(id=message.id))]
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
        return self._propose(conn, message, seats, kind="undo", keep=keep)

    def new_game(self, conn: ConnId, message: m.NewGame) -> Outbox:
        """Start again with the same seats, by the consent of every other person seated,
        during a game or after it (a rematch), so that nobody's clock starts while they
        are away or still reading the result. A rematch may rotate the seats."""
        room = self.room
        if self._sent_again(
            conn,
            message.version,
            "new_game",
            board=message.board,
            call=message.call,
            rotate=message.rotate,
        ):
            return [(conn, m.Ok(id=message.id))]
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
            message,
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
        seat = room.seat_named(message.seat)
        colour = message.seat if seat is None else seat.colour
        if self._sent_again(conn, message.version, "hand_over", seat=colour):
            return [(conn, m.Ok(id=message.id))]
        seats = self._asking_person(conn)
        running(room)
        if seat is None:
            raise refuse(ErrorCode.NO_SUCH_SEAT, f"{room.game.title} has no seat {message.seat!r}")
        if seat.holder is not Holder.HUMAN or seat.conn is not None:
            raise refuse(
                ErrorCode.NOT_AWAY,
                f"{seat.colour} is not held by a person who is away",
            )
        return self._propose(
            conn, message, seats, kind="hand_over", seat=seat.colour, but=seat.colour
        )

    def draw(self, conn: ConnId, message: m.OfferDraw) -> Outbox:
        """End the game as it stands, when every other person seated accepts: a tie of two
        seats, three ranked by their scores. The computer accepts no draw."""
        room = self.room
        if self._sent_again(conn, message.version, "draw"):
            return [(conn, m.Ok(id=message.id))]
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
        if room.yet_to_move():
            raise refuse(
                ErrorCode.TOO_EARLY,
                "nothing has been played yet to agree on: the game can be aborted instead",
            )
        return self._propose(conn, message, seats, kind="draw")

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

    def _sent_again(
        self,
        conn: ConnId,
        version: int | None,
        kind: str,
        *,
        board: int | None = None,
        call: str | None = None,
        rotate: bool = False,
        seat: str | None = None,
    ) -> bool:
        """Whether a request is one a seat of `conn`'s made already (its answer lost, or
        `unavailable`), to be answered `ok` again asking nobody: the same request, by the
        seat whose proposal is open, or whose last proposal, made at `version`, was carried
        out. One declined or expired changed nothing: it was made already only if `conn`
        was not answered `ok` for it (and so told how it ended), within its time."""
        room = self.room
        mine = {each.colour for each in room.owned_by(conn)}

        def same(proposal: Proposal) -> bool:
            return (
                proposal.kind == kind
                and proposal.by in mine
                and proposal.seat == seat
                and proposal.board == board
                and (None if proposal.call is None else proposal.call[1]) == call
                and proposal.rotate == rotate
            )

        waiting, last = room.proposal, room.last_proposal
        if waiting is not None and same(waiting):
            return True
        if version is None or last is None or last.version != version or not same(last):
            return False
        if last.outcome == ACCEPTED:
            return True
        return conn != last.asked_on and self.services.clock() < last.expires_at

    def _propose(
        self,
        conn: ConnId,
        request: m.Undo | m.NewGame | m.HandOver | m.OfferDraw,
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
        the seat a hand-over is about). People sharing the asker's screen agree with it.
        Either way the room keeps the proposal, at the version the request names (else
        the room's), to know the request if it comes again."""
        room = self.room
        others = {
            other.colour
            for other in room.seats
            if other.holder in (Holder.HUMAN, Holder.STANDIN)
            and other.conn != conn
            and other.colour != but
        }
        seconds = self.services.limits.proposal_seconds
        proposal = Proposal(
            id=self.services.secret(PROPOSAL_ID_BYTES),
            kind=kind,
            by=seats[0].colour,
            waiting=others,
            expires_at=self.services.clock() + seconds,
            expires_wall=self.services.wall() + seconds,
            version=room.version if request.version is None else request.version,
            keep=keep,
            board=board,
            call=call,
            seat=seat,
            rotate=rotate,
            asked_on=conn,
        )
        self.services.journal.unsaved.add(room.id)
        done: Outbox = [(conn, m.Ok(id=request.id))]
        if not others:
            proposal.outcome = ACCEPTED
            room.last_proposal = proposal
            return [*done, *self._carry_out(proposal), *self.services.shown(room)]
        room.proposal = proposal
        asked = self._asked(proposal, seconds)
        return [*done, *((member, asked) for member in sorted(room.connections()))]

    def shown_to(self, conn: ConnId) -> Outbox:
        """The proposal open, for a connection come into the room (back after a restart,
        a failover or a drop): what it may answer, with the seconds left."""
        proposal = self.room.proposal
        if proposal is None:
            return []
        left = max(0.0, proposal.expires_at - self.services.clock())
        return [(conn, self._asked(proposal, left))]

    def _asked(self, proposal: Proposal, seconds: float) -> m.Proposal:
        """The `proposal` message: the seats it still waits for, and its time left."""
        return m.Proposal(
            room=self.room.id,
            proposal=proposal.id,
            kind=proposal.kind,
            by=proposal.by,
            asked=sorted(proposal.waiting),
            expires_in=round(seconds),
            seat=proposal.seat,
            rotate=proposal.rotate,
        )

    def answer(self, conn: ConnId, message: m.Answer) -> Outbox:
        """One person's answer to the proposal open, for every seat of theirs it asks; the
        same answer sent again, while it is open or once it has ended, is `ok` again."""
        room = self.room
        proposal = room.proposal
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if proposal is None or proposal.id != message.proposal:
            if self._answered(room.last_proposal, conn, message):
                return done
            raise refuse(ErrorCode.NO_SUCH_PROPOSAL, "no such proposal waits in this room")
        if self._answered(proposal, conn, message):
            return done
        asked = [seat.colour for seat in room.owned_by(conn) if seat.colour in proposal.waiting]
        if not asked:
            raise refuse(ErrorCode.NO_SUCH_PROPOSAL, "that proposal waits for no answer of yours")
        proposal.answers.update(dict.fromkeys(asked, message.accept))
        self.services.journal.unsaved.add(room.id)
        if not message.accept:
            return [*done, *self._end("declined", asked[0])]
        proposal.waiting.difference_update(asked)
        if proposal.waiting:
            return done
        ended = self._end(ACCEPTED, None)
        told = self._carry_out(proposal)
        return [*done, *ended, *told, *self.services.shown(room)]

    def _answered(self, proposal: Proposal | None, conn: ConnId, message: m.Answer) -> bool:
        """Whether `message` is an answer a seat of `conn`'s gave `proposal` already."""
        if proposal is None or proposal.id != message.proposal:
            return False
        given = [proposal.answers.get(seat.colour) for seat in self.room.owned_by(conn)]
        return message.accept in given

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
        """The proposal open ends `outcome`, told to everyone; the room keeps it as its
        last, with its answers."""
        room = self.room
        proposal = room.proposal
        assert proposal is not None
        room.proposal = None
        proposal.outcome = outcome
        room.last_proposal = proposal
        journal = self.services.journal
        journal.changed.add(room.id)
        journal.unsaved.add(room.id)
        if outcome != ACCEPTED:
            wall = self.services.wall()
            seat = {} if proposal.seat is None else {"seat": proposal.seat}
            room.history.add(
                PROPOSAL, wall, proposal=proposal.kind, outcome=outcome, by=by, **seat
            )
        ended = m.ProposalEnded(
            room=room.id,
            proposal=proposal.id,
            kind=proposal.kind,
            outcome=outcome,
            by=by,
            seat=proposal.seat,
        )
        return [(member, ended) for member in sorted(room.connections())]

    def _carry_out(self, proposal: Proposal) -> Outbox:
        """Do what was agreed; the seat changes it tells of."""
        room = self.room
        kind = proposal.kind
        if kind == "hand_over":
            return self._hand_over(proposal.seat)
        if kind == "draw":
            return self.agree()
        if kind == "undo":
            taken = len(room.moves) - proposal.keep
            manage.rewind(room, proposal.keep)
            room.friendly("a move was taken back")
            room.history.add(UNDO, self.services.wall(), moves=taken, version=room.version)
            return []
        rotate = proposal.rotate
        manage.restart(room, proposal.board, rotate=rotate)
        if rotate:
            moved_on = {colour: manage.next_colour(room, colour) for colour in room.game.seats}
            proposal.by = moved_on[proposal.by]
            proposal.answers = {moved_on[c]: given for c, given in proposal.answers.items()}
        if proposal.call is not None:
            caller, side = proposal.call
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
