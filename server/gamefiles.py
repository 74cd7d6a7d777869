"""A room's game as a game file: exported, saved on the server under a name, loaded or
imported at the start of a game, and the initials of its best score for the card."""

from typing import Any

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.endings import PLAYED
from parlour.rules import RulesError
from parlour.rules.gamefile import parse_game_file

from . import manage
from .answers import Outbox, refuse
from .archive import ArchiveAsk, GetSave, PutSave
from .history import LOADED
from .manage import game_file_of
from .room import ConnId, Holder, Room, Status
from .scores import preset_of
from .services import Services
from .store import Save, SetInitials

FileRequest = m.ExportGame | m.SaveGame | m.ImportGame | m.LoadGame | m.SetInitials


class GameFiles:
    """A room's requests about its game's file."""

    def __init__(self, room: Room, services: Services) -> None:
        self.room = room
        self.services = services

    def handle(self, conn: ConnId, message: FileRequest) -> Outbox:
        match message:
            case m.ExportGame():
                return self._export(conn, message)
            case m.SaveGame():
                return self._save(conn, message)
            case m.ImportGame() | m.LoadGame():
                return self._load(conn, message)
            case m.SetInitials():
                return self._set_initials(conn, message)

    def game_text(self, conn: ConnId) -> str:
        """The game file of the room's game, for someone in the room."""
        room = self.room
        if conn not in room.connections():
            raise refuse(ErrorCode.NOT_IN_ROOM, "join or watch the room first")
        if room.state is None:
            raise refuse(ErrorCode.NOT_STARTED, "the game has not started")
        return game_file_of(room).text()

    def _export(self, conn: ConnId, message: m.ExportGame) -> Outbox:
        """The room's game as a game file, for anyone in the room."""
        text = self.game_text(conn)
        return [(conn, m.GameFileText(id=message.id, room=self.room.id, text=text))]

    def _save(self, conn: ConnId, message: m.SaveGame) -> Outbox:
        """The room's game kept on the server under a name."""
        people = self.services.people
        save = Save(
            name=message.name,
            game=self.room.game.name,
            text=self.game_text(conn),
            moves=len(self.room.moves),
            saved_by=people.name(conn),
            owner=people.owner_of_saves(conn),
        )
        return self.services.asker.ask(
            ArchiveAsk(conn, message.id, PutSave(save, message.replace))
        )

    def _load(self, conn: ConnId, message: m.ImportGame | m.LoadGame) -> Outbox:
        """A saved or sent game in place of the one just begun."""
        self._check_loadable(conn)
        if isinstance(message, m.ImportGame):
            return self._load_text(conn, message.id, message.text)
        asked = GetSave(self.services.people.owner_of_saves(conn), message.name)
        return self.services.asker.ask(ArchiveAsk(conn, message.id, asked, room=message.room))

    def load_saved(self, conn: ConnId, request: str | int | None, text: str) -> Outbox:
        """A saved game, read from the database, in place of the one just begun."""
        self._check_loadable(conn)
        return self._load_text(conn, request, text)

    def _check_loadable(self, conn: ConnId) -> None:
        """Whether a game may be loaded now: as Tribolo's Load, only at the start of a game
        (no person has moved; a bot's opening moves are replaced), by a person seated or
        the host."""
        room = self.room
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

    def _load_text(self, conn: ConnId, request: str | int | None, text: str) -> Outbox:
        room = self.room
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
            LOADED,
            self.services.wall(),
            moves=len(room.moves),
            over=room.status is Status.FINISHED,
        )
        return [(conn, m.Ok(id=request)), *self.services.shown(room)]

    def _set_initials(self, conn: ConnId, message: m.SetInitials) -> Outbox:
        """The initials of a person whose score in the game just finished is the best on its
        board's card, as Tribolo asked for them."""
        room = self.room
        seat = room.seat_named(message.seat)
        if seat is None or seat not in room.seats_of(conn):
            raise refuse(ErrorCode.NOT_SEATED, f"you do not play {message.seat} in this room")
        state = room.state
        if room.status is not Status.FINISHED or state is None:
            raise refuse(ErrorCode.NOT_BEST, "initials are for a finished game's best score")
        if seat.colour in room.changed_hands or seat.name is None:
            raise refuse(ErrorCode.NOT_BEST, "a seat that changed hands makes no best score")
        if room.ended != PLAYED:
            raise refuse(ErrorCode.NOT_BEST, "a game that was not played out makes no best score")
        if seat.colour in room.stood_in:
            raise refuse(
                ErrorCode.NOT_BEST, "the computer played some of this seat's moves: no best score"
            )
        asked = SetInitials(
            room.game.name,
            preset_of(room.options, room.position),
            seat.name,
            state.scores()[room.seats.index(seat)],
            message.initials.upper(),
        )
        return self.services.asker.ask(ArchiveAsk(conn, message.id, asked))


def saved_text(query: GetSave, found: Any) -> str:
    """The game file the database found under a save's name; `no_such_save` if none."""
    if found is None:
        raise refuse(ErrorCode.NO_SUCH_SAVE, f"no game is saved as {query.name!r}")
    return str(found[1])
