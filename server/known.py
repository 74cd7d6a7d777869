"""Known players (protocol.md 2.10): their ratings, shown with a room's seats and moved by
its rated games, their own games, the leaderboards, and replays.

The database's answers come back through `archived`, at once from SQLite or later from a
cluster's Redis; replays are built by the shell off its loop.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.rules import GAMES, RulesError
from parlour.rules.gamefile import parse_game_file

from .answers import Outbox, refuse
from .archive import (
    ArchiveAsk,
    FinishedQuery,
    LeaderboardQuery,
    RateGame,
    RatingsQuery,
    RecordQuery,
)
from .asking import Asker
from .clocks import left_in_record
from .journal import Journal, views
from .people import People
from .ratings import NEW, Rating, pool
from .records import room_record
from .replays import replay_of
from .room import ConnId, Holder, Room, Status
from .scores import Result
from .store import shown

KnownQuery = RatingsQuery | RateGame | LeaderboardQuery | FinishedQuery | RecordQuery
"""The questions `Known` puts to the database."""


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


@dataclass
class Known:
    """Players by key, their ratings, games and replays."""

    asker: Asker
    people: People
    journal: Journal
    rooms: Mapping[str, Room]
    """The lobby's rooms, by id."""
    now_ms: Callable[[], int]
    """Unix milliseconds, for the time left on clocks."""
    _replays: list[ReplayAsked] = field(default_factory=list, repr=False)

    # Ratings.

    def show_ratings(self, room: Room) -> Outbox:
        """Read the ratings of the room's holders to show with its seats: at once from a
        database at hand, else the room is shown them when they come."""
        held = tuple(dict.fromkeys(seat.rated_as for seat in room.seats if seat.rated_as))
        if not held:
            return []
        query = RatingsQuery(pool(room.game.name, room.time_control.speed), held)
        return self.asker.ask(ArchiveAsk(None, None, query, room=room.id))

    def rate(self, room: Room, result: Result) -> Outbox:
        """A finished game rated, if it counts (protocol.md 2.10)."""
        if not result.rated:
            return []
        return self.asker.ask(ArchiveAsk(None, None, RateGame(result), room=room.id))

    def _shown_ratings(self, room_id: str, found: dict[str, Rating]) -> Outbox:
        room = self.rooms.get(room_id)
        if room is None:
            return []
        for seat in room.seats:
            if seat.rated_as is not None:
                seat.rating = shown(found.get(seat.rated_as, NEW))
        return [] if self.asker.at_hand else views(room, self.journal)

    def _rated(self, room_id: str, result: Result, changes: dict[str, dict[str, int]]) -> Outbox:
        room = self.rooms.get(room_id)
        if room is None or room.version != result.version:
            return []
        room.rating_changes = changes
        self.journal.unsaved.add(room.id)
        return self.show_ratings(room) + views(room, self.journal)

    # A player's games, the leaderboards, replays.

    def my_games(self, conn: ConnId, message: m.MyGames) -> Outbox:
        player = self.people.players.get(conn)
        if player is None:
            raise refuse(ErrorCode.NO_KEY, "guests have no games of their own: send a player key")
        return self.asker.ask(ArchiveAsk(conn, message.id, FinishedQuery(player)))

    def playing(self, player: str) -> list[dict[str, Any]]:
        """The rooms not finished where `player` holds a seat, to go back to."""
        records = [room_record(room, history=False) for room in self.rooms.values()]
        return playing_in(records, player, self.now_ms())

    def leaderboard(self, conn: ConnId, message: m.Leaderboard) -> Outbox:
        if message.game not in GAMES:
            raise refuse(ErrorCode.NO_SUCH_GAME, f"there is no game '{message.game}'")
        query = LeaderboardQuery(message.game, message.speed)
        return self.asker.ask(ArchiveAsk(conn, message.id, query))

    def replay(
        self, conn: ConnId, message: m.Replay, room_game: Callable[[str], tuple[str, str]]
    ) -> Outbox:
        """A finished game's replay by its record, a room's game's (`room_game` gives its
        room id and game file, if the asker may see it), or a game file's."""
        asked = [message.record, message.room, message.text]
        if sum(each is not None for each in asked) != 1:
            raise refuse(ErrorCode.BAD_FIELD, "name one game: a record, a room or a game file")
        if message.record is not None:
            return self.asker.ask(ArchiveAsk(conn, message.id, RecordQuery(message.record)))
        if message.room is not None:
            room_id, text = room_game(message.room)
            return self._replay_asked(ReplayAsked(conn, message.id, text, room_id))
        return self._replay_asked(ReplayAsked(conn, message.id, message.text or ""))

    def _replay_asked(self, asked: ReplayAsked) -> Outbox:
        self._replays.append(asked)
        return []

    def replays_asked(self) -> list[ReplayAsked]:
        """Every replay asked for since the last call, for the shell to build off its loop."""
        asked, self._replays = self._replays, []
        return asked

    def archived(
        self, conn: ConnId | None, request: str | int | None, query: KnownQuery, room: str | None
    ) -> Callable[[Any], Outbox]:
        """What to do with the database's answer to one of this part's questions."""
        match query:
            case RatingsQuery():
                assert room is not None
                return lambda found: self._shown_ratings(room, found)
            case RateGame():
                assert room is not None
                return lambda found: self._rated(room, query.result, found)
            case LeaderboardQuery():
                assert conn is not None
                return lambda found: [
                    (
                        conn,
                        m.LeaderboardReply(
                            id=request, game=query.game, speed=query.speed, players=found
                        ),
                    )
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


def playing_in(
    records: Iterable[dict[str, Any]], player: str, now_ms: int
) -> list[dict[str, Any]]:
    """Of rooms' records, those not finished where `player` holds a seat: those waiting
    on their move first, then newest first; with the time the seat to move has left at
    `now_ms` (Unix milliseconds) where a clock runs."""
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
                    "turn": waits_on(record, player),
                    "time_left_ms": left_in_record(record.get("clock"), now_ms),
                }
            )
    return sorted(found, key=lambda entry: (not entry["turn"], -int(entry["moved_at"])))


def waits_on(record: dict[str, Any], player: str) -> bool:
    """Whether a room's record waits on `player`'s move: a game in play whose seat to move
    they hold as a person (not one the computer plays for them)."""
    if record["status"] != Status.PLAYING.value:
        return False
    to_move = record.get("to_move")
    return any(
        seat["colour"] == to_move
        and seat["holder"] == Holder.HUMAN.value
        and seat.get("player") == player
        for seat in record["seats"]
    )


def replay_message(request: str | int | None, text: str) -> m.ReplayReply:
    """The replay of the game file `text`; `bad_save` if it makes no game."""
    try:
        replay = replay_of(parse_game_file(text))
    except (RulesError, ValueError) as error:
        raise refuse(ErrorCode.BAD_SAVE, f"that game cannot be replayed: {error}") from None
    return m.ReplayReply.from_wire({"type": m.ReplayReply.TYPE, "id": request} | replay.describe())
