"""Every room on the server, and every request, without I/O: the router over the tables.

The lobby keeps what spans rooms: the connections and who they are, creating, finding,
listing and closing rooms, codes and the limit on guessing them, and the database's
answers. A request about one room goes to that room's table (`table.py`). It never awaits:
the server's shell feeds it requests, disconnects, clock ticks and bots' moves, and sends
the outbox it returns.
"""

import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.codes import new_code, room_key
from parlour.protocol.messages import COIN_SIDES
from parlour.protocol.players import player_id
from parlour.protocol.timecontrol import NONE, read_time_control
from parlour.rules import GAMES, Game, RulesError, State
from parlour.rules.dealing import MAX_BOARD_NUMBER

from .answers import Outbox, refuse
from .archive import (
    Archive,
    ArchiveAsk,
    ClaimName,
    DigestQuery,
    EmailQuery,
    GetSave,
    PutSave,
    ReminderQuery,
    SavesQuery,
    ScoreCardQuery,
    VacationQuery,
)
from .asking import Asker, filed_answer
from .gamefiles import saved_text
from .guesses import GuessLimit
from .journal import Journal, Unsaved
from .known import Known
from .mailing import Mailing
from .moderation import BLOCK, MUTE, FileReport, SetStanding, person_of
from .notices import TurnNotice, TurnNotices
from .people import People, welcome
from .room import ConnId, LeftSeats, Room, Seat, Status
from .seats import SECRET_BYTES, no_such_seat
from .services import Limits, Services
from .store import SetInitials
from .table import Table
from .thinking import BotTurn, SuggestionAsked, Suggestions
from .timekeeping import Timekeeper

ROOM_ID_BYTES: Final = 6
ROOM_ID_LENGTH: Final = 8
"""Characters in a room's id: `ROOM_ID_BYTES` as URL-safe base 64. A longer ref is a code."""
TABLE_REQUESTS: Final = (
    m.Join,
    m.Spectate,
    m.Leave,
    m.SetSeat,
    m.FillBots,
    m.Start,
    m.Move,
    m.GetRoom,
    m.Chat,
    m.Hint,
    m.ShowThinking,
    m.Suggest,
    m.Undo,
    m.NewGame,
    m.HandOver,
    m.Resign,
    m.OfferDraw,
    m.Abort,
    m.Claim,
    m.Answer,
    m.Report,
    m.RemoveWatcher,
    m.ExportGame,
    m.SaveGame,
    m.ImportGame,
    m.LoadGame,
    m.SetInitials,
)


class Rooms(Mapping[str, Room]):
    """The tables' rooms, by id: what the shells and the players' records read."""

    def __init__(self, tables: dict[str, Table]) -> None:
        self._tables = tables

    def __getitem__(self, room_id: str) -> Room:
        return self._tables[room_id].room

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)


class Lobby:
    """The server's rooms, routing each request to the table it is about."""

    def __init__(
        self,
        clock: Callable[[], float],
        limits: Limits | None = None,
        *,
        archive: Archive | None = None,
        secret: Callable[[int], str] = secrets.token_urlsafe,
        room_code: Callable[[], str] = new_code,
        wall: Callable[[], float] = time.time,
        coin: Callable[[], str] = lambda: secrets.choice(COIN_SIDES),
    ) -> None:
        self.clock = clock
        self.limits = limits or Limits()
        self.room_code = room_code
        """A new private room's code (`parlour.protocol.codes`)."""
        self.tables: dict[str, Table] = {}
        self.rooms = Rooms(self.tables)
        self.codes: dict[str, Table] = {}
        self.addresses: dict[ConnId, str] = {}
        """The client address of each connection of this server, for the guessing limit."""
        self.guessing = GuessLimit(clock, self.limits.guesses, self.limits.guess_window)
        self.reach: list[str] = []
        """`host:port` addresses other machines reach this server at, best first, for the
        invitations clients print (`reach.py`)."""
        self.tls = False
        """Whether those addresses are reached over TLS (`wss://`, `https://`): the server
        serves it, or a balancer in front of it does."""
        self.people = People()
        self.journal = Journal()
        self.asker = Asker(self.archived, archive)
        self.known = Known(
            self.asker,
            self.people,
            self.journal,
            self.rooms,
            lambda: int(self.services.wall() * 1000),
        )
        self.suggestions = Suggestions()
        self.notices = TurnNotices()
        self.services = Services(
            clock=clock,
            wall=wall,
            secret=secret,
            coin=coin,
            limits=self.limits,
            people=self.people,
            asker=self.asker,
            known=self.known,
            journal=self.journal,
            suggestions=self.suggestions,
        )
        self.timekeeper = Timekeeper(self.tables, self.journal, self.services)
        self.mailing = Mailing(
            self.asker,
            self.people,
            self.rooms,
            self.notices,
            lambda: int(self.services.wall() * 1000),
        )
        """Players' addresses and the mail they are sent (protocol.md 2.13)."""
        self._standings_told: list[SetStanding] = []

    def handle(self, conn: ConnId, message: m.ClientMessage) -> Outbox:
        """Act on one valid request; a refusal is an `error` to the sender and changes nothing."""
        try:
            if conn not in self.people.names and not isinstance(message, m.Hello):
                raise refuse(ErrorCode.BUSY, "wait for the welcome before asking anything else")
            return self._dispatch(conn, message)
        except ProtocolError as error:
            return [(conn, m.Error.from_exception(error, message.id))]

    def _dispatch(self, conn: ConnId, message: m.ClientMessage) -> Outbox:
        if isinstance(message, TABLE_REQUESTS):
            return self._find(conn, message.room).handle(conn, message)
        match message:
            case m.Hello():
                player = None if message.key is None else player_id(message.key)
                claim = ClaimName(player, message.name)
                return self.asker.ask(ArchiveAsk(conn, message.id, claim))
            case m.ListRooms():
                listed = [room.summary() for room in self.rooms.values() if room.listed]
                return [(conn, m.Rooms(id=message.id, rooms=listed))]
            case m.See():
                return self._see(conn, message)
            case m.CreateRoom():
                return self._create_room(conn, message)
            case m.ScoreCard():
                game = _game(message.game)
                query = ScoreCardQuery(game.name, message.preset)
                return self.asker.ask(ArchiveAsk(conn, message.id, query))
            case m.ListSaves():
                query_saves = SavesQuery(self.people.owner_of_saves(conn), message.game)
                return self.asker.ask(ArchiveAsk(conn, message.id, query_saves))
            case m.MyGames():
                return self.known.my_games(conn, message)
            case m.Leaderboard():
                return self.known.leaderboard(conn, message)
            case m.Replay():
                return self.known.replay(conn, message, lambda ref: self._room_game(conn, ref))
            case m.TakeVacation() | m.GetVacation():
                player = self.people.players.get(conn)
                if player is None:
                    raise refuse(ErrorCode.NO_KEY, "vacations are a player's: send a player key")
                days = message.days if isinstance(message, m.TakeVacation) else None
                vacation = VacationQuery(player, days, self.services.wall())
                return self.asker.ask(ArchiveAsk(conn, message.id, vacation))
            case m.SetEmail() | m.VerifyEmail() | m.GetEmail():
                return self.mailing.handle(conn, message)
            case m.Mute() | m.Block():
                return self._stand(conn, message)
        raise AssertionError(f"no handler for {type(message).__name__}")

    # Mutes and blocks.

    def _stand(self, conn: ConnId, message: m.Mute | m.Block) -> Outbox:
        """Mute or block a person, or no longer: at once for every connection here, kept
        with a player's key (a guest's last as long as the connection), and told to the
        other nodes of a cluster (`standings_changed`)."""
        kind = MUTE if isinstance(message, m.Mute) else BLOCK
        person = person_of(message.player, message.name)
        if person == self.people.person(conn):
            raise refuse(ErrorCode.BAD_FIELD, f"you cannot {kind} yourself", field="name")
        player = self.people.players.get(conn)
        by = player or self.people.person(conn)
        only = None if player else conn
        self.people.stood(by, kind, person, message.name, message.on, only=only)
        if player is None:
            return [(conn, m.Ok(id=message.id))]
        change = SetStanding(player, person, message.name, kind, message.on)
        self._standings_told.append(change)
        return self.asker.ask(ArchiveAsk(conn, message.id, change))

    def standings_changed(self) -> list[SetStanding]:
        """Every mute and block players made or lifted here since the last call, for a
        cluster node to tell the other nodes, whose connections it does not hold."""
        told, self._standings_told = self._standings_told, []
        return told

    # Connections.

    def connect(self, conn: ConnId, address: str) -> None:
        """A connection of this server opened, from the client address `address`."""
        self.addresses[conn] = address

    def disconnect(self, conn: ConnId) -> Outbox:
        """A connection is gone: its seats wait for their tokens, its rooms are told."""
        self.addresses.pop(conn, None)
        self.suggestions.forget(conn)
        outbox: Outbox = []
        for room_id in sorted(self.people.forget(conn)):
            table = self.tables.get(room_id)
            if table is not None and conn in table.room.connections():
                outbox += table.drop(conn)
        return outbox

    def wall(self) -> float:
        """Unix time, as the lobby tells it."""
        return self.services.wall()

    # Rooms.

    def _create_room(self, conn: ConnId, message: m.CreateRoom) -> Outbox:
        game = _game(message.game)
        if message.seat is not None and message.seat not in game.seats:
            raise no_such_seat(game, message.seat)
        hosted = sum(
            room.host_conn == conn and room.status is not Status.FINISHED
            for room in self.rooms.values()
        )
        if hosted >= self.limits.max_hosted:
            raise refuse(
                ErrorCode.TOO_MANY_ROOMS,
                f"a connection may host {self.limits.max_hosted} rooms at once",
            )
        if len(self.tables) >= self.limits.max_rooms:
            raise refuse(ErrorCode.SERVER_FULL, "the server holds as many rooms as it may")
        board, options, initial = _start_of(game, message)
        made_at = int(self.wall())
        room = Room(
            id=self._new_room_id(),
            code=None if message.public else self._new_code(),
            game=game,
            options=options,
            board=board,
            public=message.public,
            host_name=self.people.name(conn),
            host_token=self.services.secret(SECRET_BYTES),
            host_conn=conn,
            standin_after=message.standin_after,
            bot_think_ms=message.bot_think_ms,
            initial=initial,
            seats=[Seat(colour) for colour in game.seats],
            position=message.position,
            left_seats=LeftSeats(message.left_seats),
            moved_at=made_at,
            created_at=made_at,
            rated=message.rated,
            time_control=read_time_control("time_control", message.time_control or {"kind": NONE}),
        )
        return self._register(room).open(conn, message.id, message.seat)

    def _see(self, conn: ConnId, message: m.See) -> Outbox:
        """The board a room with these options would start from, as Tribolo's "See"."""
        board, _, initial = _start_of(_game(message.game), message)
        seen = m.Seen(id=message.id, game=message.game, board=board, state=initial.observation())
        return [(conn, seen)]

    def _register(self, room: Room) -> Table:
        services = self.services
        room.now_ms = lambda: int(services.wall() * 1000)
        table = Table(room, self.services)
        self.tables[room.id] = table
        if room.code is not None:
            self.codes[room.code] = table
        return table

    def restore(self, rooms: list[Room], away_since: float | None = None) -> None:
        """Take back the rooms a stopped server left open, as they were stored; their
        clocks given back the time since `away_since` (Unix time), when the server that
        kept them was last known to run."""
        for room in rooms:
            table = self._register(room)
            if away_since is not None:
                table.timing.paused(int(away_since * 1000))
            self.journal.changed.add(room.id)
            self.known.show_ratings(room)
            self.notices.seen(room)

    def release(self, room_id: str) -> None:
        """Forget a room that another server keeps now; unlike closing it, nothing is told
        or stored."""
        table = self.tables.pop(room_id, None)
        if table is not None and table.room.code is not None:
            self.codes.pop(table.room.code, None)
        self.journal.forget(room_id)
        self.notices.forget(room_id)

    def _close(self, room: Room) -> None:
        del self.tables[room.id]
        if room.code is not None:
            del self.codes[room.code]
        self.journal.closed.add(room.id)
        self.notices.forget(room.id)

    def _new_room_id(self) -> str:
        while True:
            room_id = self.services.secret(ROOM_ID_BYTES)
            if room_id not in self.tables:
                return room_id

    def _new_code(self) -> str:
        while True:
            code = self.room_code()
            if code not in self.codes:
                return code

    def named(self, ref: str) -> Room | None:
        """The room `ref` names, by its id or its code as typed, whoever may see it."""
        table = self.tables.get(ref) or self.codes.get(room_key(ref))
        return None if table is None else table.room

    def _find(self, conn: ConnId, ref: str) -> Table:
        """A public room's table or that of one `conn` is in by its id, or a private
        room's by its code.

        A code that names no room counts against the asker's address; an address past the
        guessing limit is refused every code but those of rooms it is in, whether the room
        is there or not, so the answer tells a guess nothing.
        """
        table = self.tables.get(ref)
        if table is not None and (table.room.public or conn in table.room.connections()):
            return table
        if len(ref) <= ROOM_ID_LENGTH:
            raise _no_such_room()
        table = self.codes.get(room_key(ref))
        if table is not None and conn in table.room.connections():
            return table
        address = self.addresses.get(conn)
        if address is not None and self.guessing.limited(address):
            raise self.too_many_guesses()
        if table is None:
            if address is not None:
                self.guessing.missed(address)
            raise _no_such_room()
        return table

    def _room_game(self, conn: ConnId, ref: str) -> tuple[str, str]:
        """The id and game file of the room `ref` names, for someone in it to replay."""
        table = self._find(conn, ref)
        return table.room.id, table.files.game_text(conn)

    def limited(self, conn: ConnId) -> bool:
        """Whether `conn`'s address is past the guessing limit."""
        address = self.addresses.get(conn)
        return address is not None and self.guessing.limited(address)

    def too_many_guesses(self) -> ProtocolError:
        """The refusal of a code to an address past the guessing limit."""
        minutes = round(self.limits.guess_window / 60)
        return refuse(
            ErrorCode.TOO_MANY_GUESSES,
            f"{self.limits.guesses} room codes from your address named no room within"
            f" {minutes} minutes: try a code again later",
        )

    # Time and bots.

    def tick(self, *, flags: bool = True) -> Outbox:
        """Take public rooms nobody is in out of the list, close rooms nobody has been in
        for a while, and let every table's time pass (proposals, stand-ins, and flags
        unless the keeper cannot keep the rooms now: a cluster node cut off from Redis)."""
        now = self.clock()
        outbox: Outbox = []
        for table in list(self.tables.values()):
            room = table.room
            timed = room.clock is not None and room.status is Status.PLAYING
            if room.empty_since is not None and not timed:
                empty = now - room.empty_since
                if empty >= self.limits.idle_close or (
                    empty >= self.limits.close_finished_after
                    and room.public
                    and room.status is Status.FINISHED
                ):
                    self._close(room)
                    continue
                if empty >= self.limits.unlist_after and room.public and not room.dormant:
                    room.dormant = True
                    self.journal.unsaved.add(room.id)
            outbox += table.tick(now, flags=flags)
        return outbox

    def bot_turns(self) -> list[BotTurn]:
        """Every room changed since the last call where a bot or stand-in is now to move.

        Bots wait in a room nobody is connected to, for nobody would see them play; they
        play on when someone comes in. Where a clock runs, they play on regardless.
        """
        now = self.clock()
        turns = []
        for room_id in sorted(self.journal.take_changed()):
            table = self.tables.get(room_id)
            turn = None if table is None else table.bot_turn(now)
            if turn is not None:
                turns.append(turn)
        return turns

    def play_bot(self, turn: BotTurn, move: str) -> Outbox:
        """A bot's move, checked exactly as a person's; ProtocolError if refused."""
        table = self.tables.get(turn.room)
        if table is None:
            raise refuse(ErrorCode.NO_SUCH_ROOM, "the room has closed")
        return table.play_bot(turn, move)

    def bot_thought(self, turn: BotTurn, found: dict[str, Any]) -> Outbox:
        """A thinking bot's latest thought, for the room's members who watch it think."""
        table = self.tables.get(turn.room)
        return [] if table is None else table.help.bot_thought(turn, found)

    def suggested(self, asked: SuggestionAsked, found: dict[str, Any] | None) -> Outbox:
        """The answer to a suggestion; None if the search failed."""
        return self.suggestions.answered(asked, found, here=asked.conn in self.people.names)

    def suggestion_thought(self, asked: SuggestionAsked, found: dict[str, Any]) -> Outbox:
        """A suggestion's search so far, for the person who asked, if they watch it think."""
        table = self.tables.get(asked.room)
        return [] if table is None else table.help.suggestion_thought(asked, found)

    def your_turns(self) -> list[TurnNotice]:
        """Every turn passed to a seat a player holds as a person since the last call, once
        each, for the shell to tell that player's connections outside the room."""
        now_ms = int(self.services.wall() * 1000)
        return self.notices.look(self.rooms, self.journal.take_turns(), now_ms)

    def recheck(self) -> None:
        """Look at every room again for bots to move, as after a pause in the service."""
        self.journal.changed.update(self.tables)

    # What the shell stores, asks and builds.

    def take_unsaved(self) -> Unsaved:
        """The rooms changed, the ids of rooms closed and the games finished since the last
        call."""
        return self.journal.take_unsaved(self.rooms)

    def archived(self, ask: ArchiveAsk, found: Any) -> Outbox:
        """The answer to the request that asked, now that the database has answered."""
        conn, request, query = ask.conn, ask.request, ask.query
        try:
            match query:
                case ClaimName():
                    assert conn is not None
                    player = self.people.claimed(conn, query, found)
                    email = self.mailing.enabled
                    standing = self.people.standing(conn)
                    hello = welcome(
                        request, player, self.reach, self.tls, email=email, standing=standing
                    )
                    return [(conn, hello)]
                case SetStanding() | FileReport():
                    assert conn is not None
                    return [(conn, m.Ok(id=request))]
                case GetSave():
                    assert conn is not None and ask.room is not None
                    text = saved_text(query, found)
                    table = self._find(conn, ask.room)
                    clock = table.room.clock
                    loaded = table.files.load_saved(conn, request, text)
                    return [*loaded, *table.timing.vacations_asked(clock)]
                case VacationQuery() if conn is None:
                    return self.timekeeper.vacation_found(query, found)
                case VacationQuery():
                    assert conn is not None
                    return self.timekeeper.vacation_taken(conn, request, query, found)
                case ScoreCardQuery() | SavesQuery() | PutSave() | SetInitials():
                    assert conn is not None
                    return filed_answer(conn, request, query, found)
                case EmailQuery() | DigestQuery() | ReminderQuery():
                    return self.mailing.archived(conn, request, query, found)
                case _:
                    return self.known.archived(conn, request, query, ask.room)(found)
        except ProtocolError as error:
            return [] if conn is None else [(conn, m.Error.from_exception(error, request))]

    def archive_failed(self, ask: ArchiveAsk) -> Outbox:
        """The database could not be asked: the request may be sent again."""
        if isinstance(ask.query, EmailQuery | DigestQuery | ReminderQuery):
            self.mailing.failed(ask.query)
        if ask.conn is None:
            return []
        error = refuse(ErrorCode.UNAVAILABLE, "the game records cannot be reached; try again soon")
        return [(ask.conn, m.Error.from_exception(error, ask.request))]


def _game(name: str) -> Game[Any]:
    game = GAMES.get(name)
    if game is None:
        raise refuse(ErrorCode.NO_SUCH_GAME, f"there is no game '{name}'")
    return game


def _start_of(
    game: Game[Any], asked: m.CreateRoom | m.See
) -> tuple[int, dict[str, Any], State[Any]]:
    """The board number, options and first position a room would start from; a board
    number drawn if none is given. `bad_options` if they make no game."""
    if asked.position is not None and asked.board is not None:
        raise refuse(ErrorCode.BAD_OPTIONS, "give a board number or a position, not both")
    board = asked.board if asked.board is not None else secrets.randbelow(MAX_BOARD_NUMBER)
    try:
        options = game.resolve_options(asked.options or {})
        if asked.position is not None:
            board, initial = 0, game.start_from(asked.position, options)
        else:
            initial = game.new(options, seed=board)
    except RulesError as error:
        raise refuse(ErrorCode.BAD_OPTIONS, str(error)) from None
    if initial.is_over:
        raise refuse(ErrorCode.BAD_OPTIONS, "that position is already the end of a game")
    return board, options, initial


def _no_such_room() -> ProtocolError:
    return refuse(ErrorCode.NO_SUCH_ROOM, "there is no room with that id or code")
