"""A room's conduct (protocol.md 2.14), the part of a table that keeps it civil: chat with
watchers' lines marked apart from the players', the host sending a watcher out, people
blocked from sitting with those who block them, and a person reported to the operators
with the room's game and recent chat."""

from typing import Final

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.players import fold

from .answers import Outbox, refuse
from .archive import ArchiveAsk
from .history import CHAT
from .manage import game_file_of
from .moderation import RECENT_CHAT, FileReport, Report, person_of
from .room import ConnId, Room
from .services import Services

REMOVED_WORDS: Final = "the host sent you out of this room"


class Conduct:
    """Who may watch, sit and chat in a room, and what is said of them."""

    def __init__(self, room: Room, services: Services) -> None:
        self.room = room
        self.services = services

    def chat(self, conn: ConnId, message: m.Chat) -> Outbox:
        """A line of chat to everyone in the room, from a member; a watcher's marked so
        (clients keep it apart from the players'). Whom each reader mutes or blocks is kept
        from them where their connection is served."""
        room, people = self.room, self.services.people
        if conn not in room.connections():
            raise refuse(ErrorCode.NOT_IN_ROOM, "join or watch the room to chat in it")
        seat = room.seat_of(conn)
        watching = seat is None and conn != room.host_conn
        line = m.ChatLine(
            room=room.id,
            name=people.name(conn),
            seat=seat.colour if seat else None,
            text=message.text,
            player=people.players.get(conn),
            watching=watching,
        )
        marked: dict[str, object] = {"watching": True} if watching else {}
        if line.player is not None:
            marked["player"] = line.player
        wall = self.services.wall()
        room.history.add(CHAT, wall, name=line.name, seat=line.seat, text=line.text, **marked)
        self.services.journal.unsaved.add(room.id)
        told = [(member, line) for member in sorted(room.connections())]
        return [(conn, m.Ok(id=message.id)), *told]

    def may_enter(self, conn: ConnId) -> None:
        """Refuse a person the host sent out of the room."""
        if self.services.people.person(conn) in self.room.removed:
            raise refuse(ErrorCode.REMOVED, REMOVED_WORDS)

    def watchers_shown(self, but: ConnId) -> Outbox:
        """The room view to everyone in it but `but`, for its list of watchers: nothing in
        the game changed (no bot is woken, nothing is stored)."""
        room = self.room
        return [
            (member, m.RoomView(room=room.view(member)))
            for member in sorted(room.connections())
            if member != but
        ]

    def may_sit(self, conn: ConnId) -> None:
        """Refuse a seat to a person the host sent out, or whom the host or a person seated
        blocks."""
        room, people = self.room, self.services.people
        self.may_enter(conn)
        here = {room.host_person} | {
            person_of(seat.player, seat.name)
            for seat in room.seats
            if seat.belongs_to_person and seat.name is not None
        }
        if people.standing(conn).blocked_by & here:
            raise refuse(ErrorCode.BLOCKED, "a person in this room has blocked you")

    def remove_watcher(self, conn: ConnId, message: m.RemoveWatcher) -> Outbox:
        """The host sends every watcher of the name out, for the room's life; sent again,
        once they are out, it is `ok` again."""
        room = self.room
        if room.host_conn != conn:
            raise refuse(ErrorCode.NOT_HOST, "only the room's host may send a watcher out")
        named = fold(message.name)
        found = [
            (watcher, name, player)
            for watcher, (name, player) in sorted(room.watchers.items())
            if watcher in room.spectators and fold(name) == named
        ]
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if not found:
            if any(fold(gone) == named for gone in room.removed.values()):
                return done
            raise refuse(ErrorCode.NOT_IN_ROOM, f"nobody called {message.name} watches here")
        told: Outbox = []
        for watcher, name, player in found:
            room.removed[person_of(player, name)] = name
            room.spectators.discard(watcher)
            room.thinkers.discard(watcher)
            del room.watchers[watcher]
            told.append((watcher, m.Removed(room=room.id)))
        return [*done, *told, *self.services.shown(room)]

    def report(self, conn: ConnId, message: m.Report) -> Outbox:
        """A member reports a person seen in the room, with a reason: kept for the
        operators with the room's game and its last chat lines, watchers' too."""
        room, people = self.room, self.services.people
        if conn not in room.connections():
            raise refuse(ErrorCode.NOT_IN_ROOM, "join or watch the room to report in it")
        player = message.player or self._player_named(message.name)
        person = person_of(player, message.name)
        if person == people.person(conn):
            raise refuse(ErrorCode.BAD_FIELD, "you cannot report yourself", field="name")
        chat = [entry for entry in room.history.window() if entry["kind"] == CHAT]
        report = Report(
            at=self.services.wall(),
            by=people.person(conn),
            by_name=people.name(conn),
            person=person,
            name=message.name,
            room=room.id,
            game=room.game.name,
            reason=message.reason,
            chat=tuple(chat[-RECENT_CHAT:]),
            record=game_file_of(room).text(),
        )
        return self.services.asker.ask(ArchiveAsk(conn, message.id, FileReport(report)))

    def _player_named(self, name: str) -> str | None:
        """The player id of the person of that name in the room, if one has a key."""
        room, named = self.room, fold(name)
        for seat in room.seats:
            if seat.name is not None and fold(seat.name) == named and seat.player:
                return seat.player
        for watched, player in room.watchers.values():
            if fold(watched) == named and player:
                return player
        return None
