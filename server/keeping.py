"""The lobby's requests about keeping games: taking moves back and starting again (with the
other people's consent), chat, score cards, and saving, loading, exporting and importing.

A part of `Lobby` kept in a module of its own; it uses the lobby's rooms, names and
helpers, declared here, and holds no state of its own.
"""

from collections.abc import Callable
from typing import Any, Final

from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.rules import GAMES, RulesError
from parlour.rules.gamefile import parse_game_file

from . import manage
from .answers import Outbox, refuse, running
from .archive import (
    Archive,
    ArchiveAsk,
    GetSave,
    KeepingQuery,
    KnownQuery,
    PutSave,
    SavesQuery,
    ScoreCardQuery,
    answer,
)
from .history import CHAT, LOADED, NEW_GAME, PROPOSAL, UNDO
from .manage import game_file_of
from .room import ConnId, Holder, Proposal, Room, Seat, Status
from .scores import preset_of
from .store import Save, SetInitials

PROPOSAL_ID_BYTES: Final = 6


class Keeping:
    """Undo, new game, chat, score cards and saved games, for `Lobby`."""

    names: dict[ConnId, str]
    clock: Callable[[], float]
    wall: Callable[[], float]
    secret: Callable[[int], str]
    coin: Callable[[], str]
    archive: Archive | None
    _changed: set[str]
    _archive_asks: list[ArchiveAsk]
    owner_of_saves: Callable[[ConnId], str]
    """Whose saved games a connection sees (`Known`)."""
    _known_archived: Callable[
        [ConnId | None, str | int | None, KnownQuery, str | None], Callable[[Any], Outbox]
    ]
    """What to do with the answer to a question about known players (`Known`)."""

    @property
    def proposal_seconds(self) -> float:
        raise NotImplementedError

    def _find(self, conn: ConnId, ref: str) -> Room:
        raise NotImplementedError

    def _broadcast_view(self, room: Room, but: ConnId | None = None) -> Outbox:
        raise NotImplementedError

    def _room_changed(self, room: Room) -> None:
        raise NotImplementedError

    def _helped(self, room: Room, seat: Seat, what: str) -> Outbox:
        """A person asked the computer for help (`what`): the game is friendly from now,
        and the room is told if it was rated until now."""
        counted = room.why_unrated() is None
        room.friendly(f"{seat.name or seat.colour} asked for {what}")
        if not counted or room.why_unrated() is None:
            return []
        self._changed.add(room.id)
        return self._broadcast_view(room)

    # Taking back, starting again, and agreeing to it.

    def _undo(self, conn: ConnId, message: m.Undo) -> Outbox:
        """Take back the asker's last move and the moves after it, with the others' consent."""
        room, seats = self._asking_person(conn, message.room)
        running(room)
        keep = manage.undo_point(room, {room.seats.index(seat) for seat in seats})
        if keep is None:
            colours = " or ".join(seat.colour for seat in seats)
            raise refuse(
                ErrorCode.NOTHING_TO_UNDO,
                f"{colours} has no move to take back"
                f" (at most {manage.MAX_UNDONE} moves can be taken back in a row)",
            )
        return self._propose(conn, message.id, room, seats, kind="undo", keep=keep)

    def _new_game(self, conn: ConnId, message: m.NewGame) -> Outbox:
        """Start again with the same seats: at once after a finished game, else by consent.
        A rematch may rotate the seats, after a finished game only."""
        room, seats = self._asking_person(conn, message.room)
        if room.status is Status.WAITING:
            raise refuse(ErrorCode.NOT_STARTED, "the game has not started")
        if message.rotate and room.status is not Status.FINISHED:
            raise refuse(
                ErrorCode.NOT_FINISHED,
                "the seats are rotated for a rematch, once the game is over",
            )
        call = self._call(room, conn, message)
        if room.status is Status.FINISHED:
            self._carry_out(room, "new_game", 0, message.board, call, rotate=message.rotate)
            return [(conn, m.Ok(id=message.id)), *self._broadcast_view(room)]
        return self._propose(
            conn, message.id, room, seats, kind="new_game", board=message.board, call=call
        )

    def _call(self, room: Room, conn: ConnId, message: m.NewGame) -> tuple[str, str] | None:
        """The seat calling the coin and its call, if one was made; refused where no coin is
        tossed."""
        if message.call is None:
            return None
        return self._caller(room, conn), message.call

    def _toss(self, room: Room, conn: ConnId, call: str) -> None:
        """Toss the coin `conn`'s person called for who moves first."""
        manage.toss_for_first(room, self._caller(room, conn), call, self.coin())

    @staticmethod
    def _caller(room: Room, conn: ConnId) -> str:
        """The seat whose person calls the coin; refused where no coin is tossed."""
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

    def _asking_person(self, conn: ConnId, ref: str) -> tuple[Room, list[Seat]]:
        """The room and the seats the asker's people play, if any, and nothing else is
        asked."""
        room = self._find(conn, ref)
        seats = room.seats_of(conn)
        if not seats:
            raise refuse(ErrorCode.NOT_SEATED, "only a person in a seat may ask for that")
        if room.proposal is not None:
            raise refuse(ErrorCode.BUSY, f"a {room.proposal.kind} proposal is waiting for answers")
        return room, seats

    def _propose(
        self,
        conn: ConnId,
        request: str | int | None,
        room: Room,
        seats: list[Seat],
        *,
        kind: str,
        keep: int = 0,
        board: int | None = None,
        call: tuple[str, str] | None = None,
    ) -> Outbox:
        """Do it now if nobody else is a person here; else ask every other person. People
        sharing the asker's screen agree with it."""
        others = {
            other.colour
            for other in room.seats
            if other.holder in (Holder.HUMAN, Holder.STANDIN) and other.conn != conn
        }
        done: Outbox = [(conn, m.Ok(id=request))]
        if not others:
            self._carry_out(room, kind, keep, board, call)
            return [*done, *self._broadcast_view(room)]
        proposal = Proposal(
            id=self.secret(PROPOSAL_ID_BYTES),
            kind=kind,
            by=seats[0].colour,
            waiting=others,
            expires_at=self.clock() + self.proposal_seconds,
            keep=keep,
            board=board,
            call=call,
        )
        room.proposal = proposal
        asked = m.Proposal(
            room=room.id,
            proposal=proposal.id,
            kind=kind,
            by=seats[0].colour,
            asked=sorted(others),
            expires_in=round(self.proposal_seconds),
        )
        return [*done, *((member, asked) for member in sorted(room.connections()))]

    def _answer(self, conn: ConnId, message: m.Answer) -> Outbox:
        room = self._find(conn, message.room)
        proposal = room.proposal
        if proposal is None or proposal.id != message.proposal:
            raise refuse(ErrorCode.NO_SUCH_PROPOSAL, "no such proposal waits in this room")
        asked = [seat.colour for seat in room.owned_by(conn) if seat.colour in proposal.waiting]
        if not asked:
            raise refuse(ErrorCode.NO_SUCH_PROPOSAL, "that proposal waits for no answer of yours")
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if not message.accept:
            return [*done, *self._end_proposal(room, "declined", asked[0])]
        proposal.waiting.difference_update(asked)
        if proposal.waiting:
            return done
        ended = self._end_proposal(room, "accepted", None)
        self._carry_out(room, proposal.kind, proposal.keep, proposal.board, proposal.call)
        return [*done, *ended, *self._broadcast_view(room)]

    def _end_proposal(self, room: Room, outcome: str, by: str | None) -> Outbox:
        proposal = room.proposal
        assert proposal is not None
        room.proposal = None
        self._changed.add(room.id)
        if outcome != "accepted":
            room.history.add(PROPOSAL, self.wall(), proposal=proposal.kind, outcome=outcome, by=by)
            self._room_changed(room)
        ended = m.ProposalEnded(
            room=room.id, proposal=proposal.id, kind=proposal.kind, outcome=outcome, by=by
        )
        return [(member, ended) for member in sorted(room.connections())]

    def _carry_out(
        self,
        room: Room,
        kind: str,
        keep: int,
        board: int | None,
        call: tuple[str, str] | None,
        *,
        rotate: bool = False,
    ) -> None:
        if kind == "undo":
            taken = len(room.moves) - keep
            manage.rewind(room, keep)
            room.friendly("a move was taken back")
            room.history.add(UNDO, self.wall(), moves=taken, version=room.version)
            return
        manage.restart(room, board, rotate=rotate)
        if call is not None:
            caller, side = call
            if rotate:
                caller = manage.next_colour(room, caller)
            manage.toss_for_first(room, caller, side, self.coin())
        room.history.add(
            NEW_GAME,
            self.wall(),
            first=room.first_colour(),
            board=room.board,
            rotated=rotate,
            coin=None if room.coin is None else room.coin.describe(),
        )

    def _chat(self, conn: ConnId, message: m.Chat) -> Outbox:
        """A line of chat to everyone in the room, from a member."""
        room = self._find(conn, message.room)
        if conn not in room.connections():
            raise refuse(ErrorCode.NOT_IN_ROOM, "join or watch the room to chat in it")
        seat = room.seat_of(conn)
        line = m.ChatLine(
            room=room.id,
            name=self.names[conn],
            seat=seat.colour if seat else None,
            text=message.text,
        )
        room.history.add(CHAT, self.wall(), name=line.name, seat=line.seat, text=line.text)
        self._room_changed(room)
        told = [(member, line) for member in sorted(room.connections())]
        return [(conn, m.Ok(id=message.id)), *told]

    def _set_initials(self, conn: ConnId, message: m.SetInitials) -> Outbox:
        """The initials of a person whose score in the game just finished is the best on its
        board's card, as Tribolo asked for them."""
        room = self._find(conn, message.room)
        seat = room.seat_named(message.seat)
        if seat is None or seat not in room.seats_of(conn):
            raise refuse(ErrorCode.NOT_SEATED, f"you do not play {message.seat} in this room")
        state = room.state
        if room.status is not Status.FINISHED or state is None:
            raise refuse(ErrorCode.NOT_BEST, "initials are for a finished game's best score")
        if seat.colour in room.changed_hands or seat.name is None:
            raise refuse(ErrorCode.NOT_BEST, "a seat that changed hands makes no best score")
        asked = SetInitials(
            room.game.name,
            preset_of(room.options, room.position),
            seat.name,
            state.scores()[room.seats.index(seat)],
            message.initials.upper(),
        )
        return self._ask(ArchiveAsk(conn, message.id, asked))

    def _score_card(self, conn: ConnId, message: m.ScoreCard) -> Outbox:
        """A game's wins, losses and ties, by colour and by player, and its best score."""
        game = GAMES.get(message.game)
        if game is None:
            raise refuse(ErrorCode.NO_SUCH_GAME, f"there is no game '{message.game}'")
        return self._ask(ArchiveAsk(conn, message.id, ScoreCardQuery(game.name, message.preset)))

    def _list_saves(self, conn: ConnId, message: m.ListSaves) -> Outbox:
        query = SavesQuery(self.owner_of_saves(conn), message.game)
        return self._ask(ArchiveAsk(conn, message.id, query))

    # Questions for the database.

    def _ask(self, ask: ArchiveAsk) -> Outbox:
        """Answered at once by a database at hand; else kept for the shell to ask."""
        if self.archive is not None:
            return self.archived(ask, answer(self.archive, ask.query))
        self._archive_asks.append(ask)
        return []

    def archive_asks(self) -> list[ArchiveAsk]:
        """Every question for a remote database since the last call, for the shell to ask."""
        asks, self._archive_asks = self._archive_asks, []
        return asks

    def archived(self, ask: ArchiveAsk, found: Any) -> Outbox:
        """The answer to the request that asked, now that the database has answered."""
        conn, request, query = ask.conn, ask.request, ask.query
        try:
            if isinstance(query, KnownQuery):
                return self._known_archived(conn, request, query, ask.room)(found)
            assert conn is not None
            return self._archived(conn, request, query, ask.room, found)
        except ProtocolError as error:
            return [] if conn is None else [(conn, m.Error.from_exception(error, request))]

    def archive_failed(self, ask: ArchiveAsk) -> Outbox:
        """The database could not be asked: the request may be sent again."""
        if ask.conn is None:
            return []
        error = refuse(ErrorCode.UNAVAILABLE, "the game records cannot be reached; try again soon")
        return [(ask.conn, m.Error.from_exception(error, ask.request))]

    def _archived(
        self,
        conn: ConnId,
        request: str | int | None,
        query: KeepingQuery,
        room: str | None,
        found: Any,
    ) -> Outbox:
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
            case GetSave():
                if found is None:
                    raise refuse(ErrorCode.NO_SUCH_SAVE, f"no game is saved as {query.name!r}")
                assert room is not None
                return self._load_text(conn, request, self._loadable(conn, room), found[1])

    # Saving, loading, exporting and importing games.

    def _export_game(self, conn: ConnId, message: m.ExportGame) -> Outbox:
        """The room's game as a game file, for anyone in the room."""
        room = self._member_room(conn, message.room)
        if room.state is None:
            raise refuse(ErrorCode.NOT_STARTED, "the game has not started")
        text = game_file_of(room).text()
        return [(conn, m.GameFileText(id=message.id, room=room.id, text=text))]

    def _save_game(self, conn: ConnId, message: m.SaveGame) -> Outbox:
        """The room's game kept on the server under a name."""
        room = self._member_room(conn, message.room)
        if room.state is None:
            raise refuse(ErrorCode.NOT_STARTED, "the game has not started")
        save = Save(
            name=message.name,
            game=room.game.name,
            text=game_file_of(room).text(),
            moves=len(room.moves),
            saved_by=self.names[conn],
            owner=self.owner_of_saves(conn),
        )
        return self._ask(ArchiveAsk(conn, message.id, PutSave(save, message.replace)))

    def _load_game(self, conn: ConnId, message: m.ImportGame | m.LoadGame) -> Outbox:
        """A saved or sent game in place of the one just begun."""
        room = self._loadable(conn, message.room)
        if isinstance(message, m.ImportGame):
            return self._load_text(conn, message.id, room, message.text)
        asked = GetSave(self.owner_of_saves(conn), message.name)
        return self._ask(ArchiveAsk(conn, message.id, asked, room=message.room))

    def _loadable(self, conn: ConnId, ref: str) -> Room:
        """The room, if a game may be loaded into it now: as Tribolo's Load, only at the start
        of a game (no person has moved; a bot's opening moves are replaced), by a person
        seated or the host."""
        room = self._find(conn, ref)
        seat = room.seat_of(conn)
        if room.host_conn != conn and (seat is None or seat.holder is not Holder.HUMAN):
            raise refuse(ErrorCode.NOT_SEATED, "only a person in a seat or the host may load")
        if (
            room.status is not Status.PLAYING
            or room.proposal is not None
            or any(room.seats[mover].holder is not Holder.BOT for mover in manage.movers(room))
        ):
            raise refuse(
                ErrorCode.NOT_AT_START,
                "a game is loaded at the start of a game, before anyone has moved",
            )
        return room

    def _load_text(self, conn: ConnId, request: str | int | None, room: Room, text: str) -> Outbox:
        try:
            loaded = parse_game_file(text)
        except (RulesError, ValueError) as error:
            raise refuse(ErrorCode.BAD_SAVE, f"that game cannot be loaded: {error}") from None
        if loaded.game is not room.game:
            raise refuse(
                ErrorCode.BAD_SAVE,
                f"that is a game of {loaded.game.title}; this room plays {room.game.title}",
            )
        manage.load(room, loaded)
        room.history.add(
            LOADED, self.wall(), moves=len(room.moves), over=room.status is Status.FINISHED
        )
        return [(conn, m.Ok(id=request)), *self._broadcast_view(room)]

    def _member_room(self, conn: ConnId, ref: str) -> Room:
        room = self._find(conn, ref)
        if conn not in room.connections():
            raise refuse(ErrorCode.NOT_IN_ROOM, "join or watch the room first")
        return room
