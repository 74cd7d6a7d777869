"""The lobby's requests about known players (protocol.md 2.10): hello with a player key,
names held by one player at a time, ratings shown and moved, a player's own games, the
leaderboards and replays.

A part of `Lobby` kept in a module of its own, like `Keeping`: the database's answers come
back through `archived`, at once from SQLite or later from a cluster's Redis.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from parlour import __version__
from parlour.bots import default_level, levels_for
from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.players import player_id
from parlour.rules import GAMES, RulesError
from parlour.rules.gamefile import parse_game_file

from .answers import Outbox, refuse
from .archive import (
    Archive,
    ArchiveAsk,
    ClaimName,
    FinishedQuery,
    KnownQuery,
    LeaderboardQuery,
    RateGame,
    RatingsQuery,
    RecordQuery,
)
from .manage import game_file_of
from .ratings import NEW, Rating
from .records import room_record
from .replays import replay_of
from .room import ConnId, Room, Status
from .scores import Result
from .store import GUESTS, shown


class Known:
    """Players by key, their ratings, games and replays, for `Lobby`."""

    names: dict[ConnId, str]
    players: dict[ConnId, str]
    rooms: dict[str, Room]
    archive: Archive | None
    reach: list[str]
    tls: bool
    _replays: list["ReplayAsked"]
    _ask: Callable[[ArchiveAsk], Outbox]
    """Ask the database (`Keeping`)."""

    def _find(self, conn: ConnId, ref: str) -> Room:
        raise NotImplementedError

    def _broadcast_view(self, room: Room, but: ConnId | None = None) -> Outbox:
        raise NotImplementedError

    def know(self, conn: ConnId, name: str, player: str) -> None:
        """Another node's connection, welcomed there: its name and player ("" for a guest)."""
        self.names[conn] = name
        if player:
            self.players[conn] = player
        else:
            self.players.pop(conn, None)

    def owner_of_saves(self, conn: ConnId) -> str:
        """Whose saved games a connection sees: its player's, or the guests' shared ones."""
        return self.players.get(conn, GUESTS)

    def player_of(self, conn: ConnId, name: str) -> str | None:
        """The player id a seat taken by `conn` for the person `name` carries: the
        connection's player where the name is theirs (one of several at a shared screen
        may be someone else)."""
        player = self.players.get(conn)
        return player if player is not None and name == self.names.get(conn) else None

    def guest_name(self, conn: ConnId, message: m.ClientMessage) -> str | None:
        """The name a request gives a second person at `conn`'s screen, if it gives one
        other than the connection's own: a name no player may hold."""
        named = message.name if isinstance(message, m.Join | m.SetSeat) else None
        return named if named is not None and named != self.names.get(conn) else None

    def _check_guest_name(self, conn: ConnId, message: m.Join | m.SetSeat) -> None:
        """Refuse a second person's name that a player holds, where the database is at
        hand (a cluster node asks Redis before the request reaches the lobby)."""
        named = self.guest_name(conn, message)
        if named is None or self.archive is None:
            return
        if self.archive.holder_of(named) not in (None, self.players.get(conn)):
            raise held_name(named)

    # Hello.

    def _hello(self, conn: ConnId, message: m.Hello) -> Outbox:
        player = None if message.key is None else player_id(message.key)
        return self._ask(ArchiveAsk(conn, message.id, ClaimName(player, message.name)))

    def _welcome(
        self, conn: ConnId, request: str | int | None, claim: ClaimName, found: bool | None
    ) -> Outbox:
        if found is None:
            raise held_name(claim.name)
        self.names[conn] = claim.name
        player = None
        if claim.player is not None:
            self.players[conn] = claim.player
            player = {"id": claim.player, "name": claim.name, "new": bool(found)}
        games = [
            game.describe()
            | {"levels": list(levels_for(name)), "default_level": default_level(name)}
            for name, game in GAMES.items()
        ]
        welcome = m.Welcome(
            id=request,
            version=m.PROTOCOL_VERSION,
            server=f"parlour {__version__}",
            games=games,
            player=player,
            addresses=list(self.reach) or None,
            tls=self.tls,
        )
        return [(conn, welcome)]

    # Ratings.

    def _show_ratings(self, room: Room) -> Outbox:
        """Read the ratings of the room's holders to show with its seats: at once from a
        database at hand, else the room is shown them when they come."""
        held = tuple(dict.fromkeys(seat.rated_as for seat in room.seats if seat.rated_as))
        if not held:
            return []
        return self._ask(ArchiveAsk(None, None, RatingsQuery(room.game.name, held), room=room.id))

    def _shown_ratings(self, room_id: str, found: dict[str, Rating]) -> Outbox:
        room = self.rooms.get(room_id)
        if room is None:
            return []
        for seat in room.seats:
            if seat.rated_as is not None:
                seat.rating = shown(found.get(seat.rated_as, NEW))
        return [] if self.archive is not None else self._broadcast_view(room)

    def _rate(self, room: Room, result: Result) -> Outbox:
        """A finished game rated, if it counts (protocol.md 2.10)."""
        if not result.rated:
            return []
        return self._ask(ArchiveAsk(None, None, RateGame(result), room=room.id))

    def _rated(self, room_id: str, result: Result, changes: dict[str, dict[str, int]]) -> Outbox:
        room = self.rooms.get(room_id)
        if room is None or room.version != result.version:
            return []
        room.rating_changes = changes
        self._room_changed(room)
        return self._show_ratings(room) + self._broadcast_view(room)

    def _room_changed(self, room: Room) -> None:
        raise NotImplementedError

    # A player's games, the leaderboards, replays.

    def _my_games(self, conn: ConnId, message: m.MyGames) -> Outbox:
        player = self.players.get(conn)
        if player is None:
            raise refuse(ErrorCode.NO_KEY, "guests have no games of their own: send a player key")
        return self._ask(ArchiveAsk(conn, message.id, FinishedQuery(player)))

    def playing(self, player: str) -> list[dict[str, Any]]:
        """The rooms not finished where `player` holds a seat, to go back to."""
        return playing_in(
            [room_record(room, history=False) for room in self.rooms.values()], player
        )

    def _leaderboard(self, conn: ConnId, message: m.Leaderboard) -> Outbox:
        if message.game not in GAMES:
            raise refuse(ErrorCode.NO_SUCH_GAME, f"there is no game '{message.game}'")
        return self._ask(ArchiveAsk(conn, message.id, LeaderboardQuery(message.game)))

    def _replay(self, conn: ConnId, message: m.Replay) -> Outbox:
        asked = [message.record, message.room, message.text]
        if sum(each is not None for each in asked) != 1:
            raise refuse(ErrorCode.BAD_FIELD, "name one game: a record, a room or a game file")
        if message.record is not None:
            return self._ask(ArchiveAsk(conn, message.id, RecordQuery(message.record)))
        if message.room is not None:
            room = self._find(conn, message.room)
            if conn not in room.connections():
                raise refuse(ErrorCode.NOT_IN_ROOM, "join or watch the room first")
            if room.state is None:
                raise refuse(ErrorCode.NOT_STARTED, "the game has not started")
            text = game_file_of(room).text()
            return self._replay_asked(ReplayAsked(conn, message.id, text, room.id))
        return self._replay_asked(ReplayAsked(conn, message.id, message.text or ""))

    def _replay_asked(self, asked: "ReplayAsked") -> Outbox:
        self._replays.append(asked)
        return []

    def replays_asked(self) -> list["ReplayAsked"]:
        """Every replay asked for since the last call, for the shell to build off its loop."""
        asked, self._replays = self._replays, []
        return asked

    def _known_archived(
        self, conn: ConnId | None, request: str | int | None, query: KnownQuery, room: str | None
    ) -> Callable[[Any], Outbox]:
        """What to do with the database's answer to one of this module's questions."""
        match query:
            case ClaimName():
                assert conn is not None
                return lambda found: self._welcome(conn, request, query, found)
            case RatingsQuery():
                assert room is not None
                return lambda found: self._shown_ratings(room, found)
            case RateGame():
                assert room is not None
                return lambda found: self._rated(room, query.result, found)
            case LeaderboardQuery():
                assert conn is not None
                return lambda found: [
                    (conn, m.LeaderboardReply(id=request, game=query.game, players=found))
                ]
            case FinishedQuery():
                assert conn is not None
                return lambda found: [
                    (
                        conn,
                        m.MyGamesReply(
                            id=request,
                            playing=found["playing"] or self.playing(query.player),
                            finished=found["finished"],
                        ),
                    )
                ]
            case RecordQuery():
                assert conn is not None
                return lambda found: self._record_replay(conn, request, query.record, found)

    def _record_replay(
        self, conn: ConnId, request: str | int | None, record: str, text: str | None
    ) -> Outbox:
        if text is None:
            raise refuse(ErrorCode.NO_SUCH_RECORD, f"no finished game is kept as {record!r}")
        return self._replay_asked(ReplayAsked(conn, request, text))


@dataclass(frozen=True, slots=True)
class ReplayAsked:
    """A replay to build from a game file: a tenth of a second or more of work, which the
    shell does off its event loop."""

    conn: ConnId
    request: str | int | None
    text: str
    room: str | None = None
    """The room whose game it replays, if it is a room's."""

    def answer(self) -> Outbox:
        """The replay, or the error that says why there is none."""
        try:
            return [(self.conn, replay_message(self.request, self.text))]
        except ProtocolError as error:
            return [(self.conn, m.Error.from_exception(error, self.request))]


def held_name(name: str) -> ProtocolError:
    """The refusal of a name a player holds, for someone who is not them."""
    return refuse(
        ErrorCode.NAME_TAKEN,
        f"the name {name} belongs to another player on this server; choose another",
    )


def playing_in(records: Iterable[dict[str, Any]], player: str) -> list[dict[str, Any]]:
    """Of rooms' records, those not finished where `player` holds a seat, newest first."""
    found = []
    for record in records:
        seats = [seat["colour"] for seat in record["seats"] if seat.get("player") == player]
        if seats and record["status"] != Status.FINISHED.value:
            found.append(
                {
                    "room": record["id"],
                    "ref": record["code"] or record["id"],
                    "game": record["game"],
                    "seats": seats,
                    "status": record["status"],
                    "moved_at": record["moved_at"],
                }
            )
    return sorted(found, key=lambda entry: -int(entry["moved_at"]))


def replay_message(request: str | int | None, text: str) -> m.ReplayReply:
    """The replay of the game file `text`; `bad_save` if it makes no game."""
    try:
        replay = replay_of(parse_game_file(text))
    except (RulesError, ValueError) as error:
        raise refuse(ErrorCode.BAD_SAVE, f"that game cannot be replayed: {error}") from None
    return m.ReplayReply.from_wire({"type": m.ReplayReply.TYPE, "id": request} | replay.describe())
