"""Every room on the server and every request about them, without I/O.

The lobby takes valid requests from connections, checks them in protocol.md's order, and
answers with an outbox: the messages to send, to whom. It never awaits; the server's shell
feeds it requests, disconnects, clock ticks and bots' moves, and sends what it returns.
"""

import dataclasses
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.bots import default_level, levels_for
from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.codes import new_code, room_key
from parlour.protocol.messages import COIN_SIDES
from parlour.rules import GAMES, Game, IllegalMoveError, MalformedMoveError, RulesError, State
from parlour.rules.dealing import MAX_BOARD_NUMBER

from .answers import Outbox, refuse, running
from .archive import Archive, ArchiveAsk
from .guesses import GUESS_LIMIT, GUESS_WINDOW, GuessLimit
from .history import MOVE, OVER, SEAT, STARTED
from .keeping import Keeping
from .known import Known, ReplayAsked
from .manage import game_file_of
from .room import ConnId, Holder, LeftSeats, Room, Seat, Status
from .scores import Result, result_of

MAX_ROOMS: Final = 1000
MAX_HOSTED: Final = 3
IDLE_CLOSE: Final = 600.0
UNLIST_AFTER: Final = 10.0
CLOSE_FINISHED_AFTER: Final = 300.0
ROOM_ID_BYTES: Final = 6
ROOM_ID_LENGTH: Final = 8
"""Characters in a room's id: `ROOM_ID_BYTES` as URL-safe base 64. A longer ref is a code."""
PROPOSAL_SECONDS: Final = 30.0
SECRET_BYTES: Final = 16
"""128 bits for seat and host tokens."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot is to move in a room: what the shell hands to a worker process."""

    room: str
    version: int
    colour: str
    level: str
    budget: float
    """Seconds the bot may think: the room's setting."""
    state: State[Any]
    began: float
    """When the turn began, on the lobby's clock: the move is due `budget` after it."""
    waited_on: bool
    """Whether a person in the room waits for the move, rather than only computers."""
    seat_changes: int = 0
    """The seat's `changes` when the turn began: a change since makes the turn stale."""


@dataclass(frozen=True, slots=True)
class SuggestionAsked:
    """A person asked for a suggested move: what the shell hands to a worker process."""

    conn: ConnId
    request: str | int | None
    room: str
    version: int
    colour: str
    level: str
    budget: float
    state: State[Any]
    asked_at: float
    """When it was asked, on the lobby's clock: the answer is due `budget` after it."""


@dataclass(frozen=True, slots=True)
class Unsaved:
    """What must be stored before anyone is told of it."""

    rooms: list[Room]
    closed: list[str]
    results: list[Result]


@dataclass
class Limits:
    max_rooms: int = MAX_ROOMS
    max_hosted: int = MAX_HOSTED
    idle_close: float = IDLE_CLOSE
    """How long a room nobody is connected to lives: then it closes, and its tokens and
    code stop working."""
    unlist_after: float = UNLIST_AFTER
    """How long a public room nobody is connected to stays in the lobby's list: long enough
    for a page reloaded or a connection made again, and no longer, for nobody can play in
    it. It is kept for its people, unlisted, until they come back."""
    close_finished_after: float = CLOSE_FINISHED_AFTER
    """How long a finished public room nobody is connected to is kept: its game is on the
    score cards, and its people may still start another."""
    guesses: int = GUESS_LIMIT
    guess_window: float = GUESS_WINDOW
    """An address that names `guesses` rooms that are not there within `guess_window`
    seconds is refused look-ups by code until the window passes."""
    proposal_seconds: float = PROPOSAL_SECONDS
    """How long the others have to agree to an undo or new game; silence declines."""


@dataclass
class Lobby(Keeping, Known):
    """The server's rooms, and the rules of who may do what in them."""

    clock: Callable[[], float]
    limits: Limits = field(default_factory=Limits)
    secret: Callable[[int], str] = secrets.token_urlsafe
    room_code: Callable[[], str] = new_code
    """A new private room's code (`parlour.protocol.codes`)."""
    wall: Callable[[], float] = time.time
    """Unix time, for what the lobby shows of when (`moved_at`); `clock` times the rest."""
    coin: Callable[[], str] = field(default=lambda: secrets.choice(COIN_SIDES))
    """How a coin lands: `heads` or `tails`."""
    rooms: dict[str, Room] = field(default_factory=dict)
    codes: dict[str, Room] = field(default_factory=dict)
    names: dict[ConnId, str] = field(default_factory=dict)
    """Each welcomed connection's name."""
    players: dict[ConnId, str] = field(default_factory=dict)
    """The player id each connection's key proved, for those that sent one."""
    entered: dict[ConnId, set[str]] = field(default_factory=dict)
    """The rooms each connection has come into: all a disconnect need look at."""
    _changed: set[str] = field(default_factory=set, repr=False)
    """Rooms announced since `bot_turns` last looked: only these can have a new bot turn."""
    _unsaved: set[str] = field(default_factory=set, repr=False)
    """Rooms changed since `take_unsaved` last looked: what must be stored before anyone
    is told."""
    _closed: set[str] = field(default_factory=set, repr=False)
    _results: list[Result] = field(default_factory=list, repr=False)
    """Games finished since `take_unsaved` last looked, for the score cards."""
    archive: Archive | None = None
    """Score cards and saved games, when the database is at hand; else they are asked for
    through `archive_asks`."""
    _archive_asks: list[ArchiveAsk] = field(default_factory=list, repr=False)
    _asked: list[SuggestionAsked] = field(default_factory=list, repr=False)
    _replays: list[ReplayAsked] = field(default_factory=list, repr=False)
    suggesting: set[ConnId] = field(default_factory=set)
    """Connections with a suggestion being searched: one each at a time."""
    _reseated: set[tuple[str, str]] = field(default_factory=set, repr=False)
    """Seats (room, colour) changed since `seats_changed` last looked."""
    addresses: dict[ConnId, str] = field(default_factory=dict)
    """The client address of each connection of this server, for the guessing limit."""
    guessing: GuessLimit = field(init=False)
    reach: list[str] = field(default_factory=list)
    """`host:port` addresses other machines reach this server at, best first, for the
    invitations clients print (`reach.py`)."""
    tls: bool = False
    """Whether those addresses are reached over TLS (`wss://`, `https://`): the server serves
    it, or a balancer in front of it does."""

    def __post_init__(self) -> None:
        self.guessing = GuessLimit(self.clock, self.limits.guesses, self.limits.guess_window)

    @property
    def proposal_seconds(self) -> float:
        return self.limits.proposal_seconds

    def handle(self, conn: ConnId, message: m.ClientMessage) -> Outbox:
        """Act on one valid request; a refusal is an `error` to the sender and changes nothing."""
        try:
            if conn not in self.names and not isinstance(message, m.Hello):
                raise refuse(ErrorCode.BUSY, "wait for the welcome before asking anything else")
            return self._dispatch(conn, message)
        except ProtocolError as error:
            return [(conn, m.Error.from_exception(error, message.id))]

    def _dispatch(self, conn: ConnId, message: m.ClientMessage) -> Outbox:
        match message:
            case m.Hello():
                return self._hello(conn, message)
            case m.ListRooms():
                return self._list_rooms(conn, message)
            case m.See():
                return self._see(conn, message)
            case m.CreateRoom():
                return self._create_room(conn, message)
            case m.Join():
                return self._join(conn, message)
            case m.Spectate():
                return self._spectate(conn, message)
            case m.Leave():
                return self._leave(conn, message)
            case m.SetSeat():
                return self._change_seat(conn, message)
            case m.FillBots() | m.Start():
                return self._host_action(conn, message)
            case m.Move():
                return self._move(conn, message)
            case m.GetRoom():
                room = self._find(conn, message.room)
                return [(conn, m.RoomView(id=message.id, room=room.view(conn)))]
            case m.Hint():
                return self._hint(conn, message)
            case m.ShowThinking():
                return self._show_thinking(conn, message)
            case m.Suggest():
                return self._suggest(conn, message)
            case m.Undo():
                return self._undo(conn, message)
            case m.NewGame():
                return self._new_game(conn, message)
            case m.Answer():
                return self._answer(conn, message)
            case m.Chat():
                return self._chat(conn, message)
            case m.ScoreCard():
                return self._score_card(conn, message)
            case m.SetInitials():
                return self._set_initials(conn, message)
            case m.ExportGame():
                return self._export_game(conn, message)
            case m.ImportGame() | m.LoadGame():
                return self._load_game(conn, message)
            case m.SaveGame():
                return self._save_game(conn, message)
            case m.ListSaves():
                return self._list_saves(conn, message)
            case m.MyGames():
                return self._my_games(conn, message)
            case m.Leaderboard():
                return self._leaderboard(conn, message)
            case m.Replay():
                return self._replay(conn, message)

    # Connections.

    def connect(self, conn: ConnId, address: str) -> None:
        """A connection of this server opened, from the client address `address`."""
        self.addresses[conn] = address

    def disconnect(self, conn: ConnId) -> Outbox:
        """A connection is gone: its seats wait for their tokens, its rooms are told."""
        self.names.pop(conn, None)
        self.players.pop(conn, None)
        self.addresses.pop(conn, None)
        self.suggesting.discard(conn)
        outbox: Outbox = []
        for room_id in sorted(self.entered.pop(conn, ())):
            room = self.rooms.get(room_id)
            if room is not None and conn in room.connections():
                self._drop(room, conn)
                outbox += self._broadcast_view(room)
        return outbox

    def _enter(self, room: Room, conn: ConnId) -> None:
        """`conn` has come into `room` (as a seat, spectator or host): the room is not empty,
        is listed again if it is public, and its bots play on."""
        self.entered.setdefault(conn, set()).add(room.id)
        if room.empty_since is not None:
            room.empty_since = None
            self._changed.add(room.id)
        room.dormant = False
        self._unsaved.add(room.id)

    def _drop(self, room: Room, conn: ConnId) -> None:
        for seat in room.owned_by(conn):
            seat.conn = None
            if seat.holder is Holder.HUMAN:
                seat.dropped_at = self.clock()
        if room.host_conn == conn:
            room.host_conn = None
        room.spectators.discard(conn)
        room.thinkers.discard(conn)
        if not room.connections():
            room.empty_since = self.clock()

    # The lobby.

    def _list_rooms(self, conn: ConnId, message: m.ListRooms) -> Outbox:
        listed = [room.summary() for room in self.rooms.values() if room.listed]
        return [(conn, m.Rooms(id=message.id, rooms=listed))]

    def _create_room(self, conn: ConnId, message: m.CreateRoom) -> Outbox:
        game = self._game(message.game)
        if message.seat is not None and message.seat not in game.seats:
            raise self._no_such_seat(game.title, message.seat, game.seats)
        hosted = sum(
            room.host_conn == conn and room.status is not Status.FINISHED
            for room in self.rooms.values()
        )
        if hosted >= self.limits.max_hosted:
            raise refuse(
                ErrorCode.TOO_MANY_ROOMS,
                f"a connection may host {self.limits.max_hosted} rooms at once",
            )
        if len(self.rooms) >= self.limits.max_rooms:
            raise refuse(ErrorCode.SERVER_FULL, "the server holds as many rooms as it may")
        board, options, initial = self._start_of(game, message)
        made_at = int(self.wall())
        room = Room(
            id=self._new_room_id(),
            code=None if message.public else self._new_code(),
            game=game,
            options=options,
            board=board,
            public=message.public,
            host_name=self.names[conn],
            host_token=self.secret(SECRET_BYTES),
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
        )
        self._register(room)
        self._unsaved.add(room.id)
        seat = room.seat_named(message.seat) if message.seat else None
        if seat is not None:
            name = self.names[conn]
            seat.seat_human(name, room.host_token, conn, self.player_of(conn, name))
            self._note_seat(room, seat, by=name)
        else:
            room.spectators.add(conn)
        self._enter(room, conn)
        shown = self._show_ratings(room)
        return [(conn, self._joined(room, conn, message.id, room.host_token, seat)), *shown]

    @staticmethod
    def _game(name: str) -> Game[Any]:
        game = GAMES.get(name)
        if game is None:
            raise refuse(ErrorCode.NO_SUCH_GAME, f"there is no game '{name}'")
        return game

    @staticmethod
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

    def _see(self, conn: ConnId, message: m.See) -> Outbox:
        """The board a room with these options would start from, as Tribolo's "See"."""
        board, _, initial = self._start_of(self._game(message.game), message)
        seen = m.Seen(id=message.id, game=message.game, board=board, state=initial.observation())
        return [(conn, seen)]

    def _register(self, room: Room) -> None:
        self.rooms[room.id] = room
        if room.code is not None:
            self.codes[room.code] = room

    def restore(self, rooms: list[Room]) -> None:
        """Take back the rooms a stopped server left open, as they were stored."""
        for room in rooms:
            self._register(room)
            self._changed.add(room.id)
            self._show_ratings(room)

    def release(self, room_id: str) -> None:
        """Forget a room that another server keeps now; unlike closing it, nothing is told
        or stored."""
        room = self.rooms.pop(room_id, None)
        if room is not None and room.code is not None:
            self.codes.pop(room.code, None)
        self._changed.discard(room_id)
        self._unsaved.discard(room_id)

    def recheck(self) -> None:
        """Look at every room again for bots to move, as after a pause in the service."""
        self._changed.update(self.rooms)

    def requeue(self, unsaved: Unsaved) -> None:
        """Changes that could not be stored: kept to be stored with the next ones."""
        self._unsaved.update(room.id for room in unsaved.rooms)
        self._closed.update(unsaved.closed)
        self._results[:0] = unsaved.results

    def take_unsaved(self) -> Unsaved:
        """The rooms changed, the ids of rooms closed and the games finished since the last
        call."""
        unsaved, self._unsaved = self._unsaved, set()
        closed, self._closed = self._closed, set()
        results, self._results = self._results, []
        rooms = [self.rooms[room_id] for room_id in sorted(unsaved) if room_id in self.rooms]
        return Unsaved(rooms, sorted(closed), results)

    def _new_room_id(self) -> str:
        while True:
            room_id = self.secret(ROOM_ID_BYTES)
            if room_id not in self.rooms:
                return room_id

    def _new_code(self) -> str:
        while True:
            code = self.room_code()
            if code not in self.codes:
                return code

    def named(self, ref: str) -> Room | None:
        """The room `ref` names, by its id or its code as typed, whoever may see it."""
        return self.rooms.get(ref) or self.codes.get(room_key(ref))

    def _find(self, conn: ConnId, ref: str) -> Room:
        """A public room or one `conn` is in by its id, or a private room by its code.

        A code that names no room counts against the asker's address; an address past the
        guessing limit is refused every code but those of rooms it is in, whether the room
        is there or not, so the answer tells a guess nothing.
        """
        room = self.rooms.get(ref)
        if room is not None and (room.public or conn in room.connections()):
            return room
        if len(ref) <= ROOM_ID_LENGTH:
            raise self._no_such_room()
        room = self.codes.get(room_key(ref))
        if room is not None and conn in room.connections():
            return room
        address = self.addresses.get(conn)
        if address is not None and self.guessing.limited(address):
            raise self.too_many_guesses()
        if room is None:
            if address is not None:
                self.guessing.missed(address)
            raise self._no_such_room()
        return room

    def limited(self, conn: ConnId) -> bool:
        """Whether `conn`'s address is past the guessing limit."""
        address = self.addresses.get(conn)
        return address is not None and self.guessing.limited(address)

    @staticmethod
    def _no_such_room() -> ProtocolError:
        return refuse(ErrorCode.NO_SUCH_ROOM, "there is no room with that id or code")

    def too_many_guesses(self) -> ProtocolError:
        """The refusal of a code to an address past the guessing limit."""
        minutes = round(self.limits.guess_window / 60)
        return refuse(
            ErrorCode.TOO_MANY_GUESSES,
            f"{self.limits.guesses} room codes from your address named no room within"
            f" {minutes} minutes: try a code again later",
        )

    def _joined(
        self, room: Room, conn: ConnId, request: str | int | None, token: str, seat: Seat | None
    ) -> m.Joined:
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

    # Seats.

    def _join(self, conn: ConnId, message: m.Join) -> Outbox:
        room = self._find(conn, message.room)
        self._check_guest_name(conn, message)
        if message.token is not None:
            return self._rejoin(room, conn, message)
        if message.seat is not None:
            seat = room.seat_named(message.seat)
            if seat is None:
                raise self._no_such_seat(room.game.title, message.seat, room.game.seats)
            mine = seat.player is not None and seat.player == self.players.get(conn)
            if mine and seat.token is not None:
                return self._rejoin(room, conn, dataclasses.replace(message, token=seat.token))
            if seat.holder is not Holder.OPEN:
                raise refuse(ErrorCode.SEAT_TAKEN, f"{seat.colour} is taken")
        else:
            seat = next((seat for seat in room.seats if seat.holder is Holder.OPEN), None)
            if seat is None:
                raise refuse(ErrorCode.ROOM_FULL, "every seat in this room is taken")
        token = self._token_for(room, conn)
        name = message.name or self.names[conn]
        seat.seat_human(name, token, conn, self.player_of(conn, name))
        room.spectators.discard(conn)
        self._enter(room, conn)
        shown = self._show_ratings(room)
        joined = self._joined(room, conn, message.id, token, seat)
        return [(conn, joined), *self._seat_changed(room, seat, conn, but=conn), *shown]

    def _token_for(self, room: Room, conn: ConnId) -> str:
        """The token for a seat `conn` takes: the one it already has in the room (the host's,
        or its other seats'), so that one token brings back everything it holds."""
        return room.token_of(conn) or self.secret(SECRET_BYTES)

    def _rejoin(self, room: Room, conn: ConnId, message: m.Join) -> Outbox:
        """Take every seat a token holds, and hosting, back with it."""
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
            seats[0].name = message.name or self.names[conn]
            seats[0].player = self.player_of(conn, seats[0].name)
        for seat in seats:
            if seat.conn is not None and seat.conn != conn:
                room.spectators.add(seat.conn)
                outbox.append((seat.conn, m.SeatChanged(room=room.id, seat=seat.colour)))
            seat.conn, seat.dropped_at = conn, None
            if seat.holder is Holder.STANDIN:
                seat.take_back()
                room.record_seat_change(seat)
                back.append(seat)
        if seats:
            room.spectators.discard(conn)
        else:
            room.spectators.add(conn)
        if hosting:
            room.host_conn = conn
        self._enter(room, conn)
        joined = self._joined(room, conn, message.id, token, next(iter(seats), None))
        for seat in back:
            outbox += self._seat_told(room, seat, by=None)
        return [(conn, joined), *outbox, *self._broadcast_view(room, but=conn)]

    def _spectate(self, conn: ConnId, message: m.Spectate) -> Outbox:
        room = self._find(conn, message.room)
        if not room.owned_by(conn):
            room.spectators.add(conn)
        self._enter(room, conn)
        watching = m.Watching(id=message.id, room=room.view(conn), history=room.history.window())
        return [(conn, watching)]

    def _leave(self, conn: ConnId, message: m.Leave) -> Outbox:
        """Out of the room: the seats stay the person's, unless they give them up."""
        room = self._find(conn, message.room)
        outbox: Outbox = [(conn, m.Ok(id=message.id))]
        if message.give_up:
            for seat in room.owned_by(conn):
                self._give_up(room, seat)
                outbox += self._seat_told(room, seat, by=self.names[conn])
        self._drop(room, conn)
        return [*outbox, *self._broadcast_view(room)]

    def _give_up(self, room: Room, seat: Seat) -> None:
        """A seat its person gives up: it opens, or during a game goes to the computer if
        the room says so."""
        if room.status is Status.WAITING or room.left_seats is LeftSeats.OPEN:
            seat.open()
        else:
            seat.seat_bot(self._room_level(room))
        room.record_seat_change(seat)

    def _host_action(self, conn: ConnId, message: m.FillBots | m.Start) -> Outbox:
        room = self._find(conn, message.room)
        if room.host_conn != conn:
            raise refuse(ErrorCode.NOT_HOST, "only the room's host may do that")
        if room.status is not Status.WAITING:
            raise refuse(ErrorCode.NOT_WAITING, "the game has begun")
        outbox: Outbox = [(conn, m.Ok(id=message.id))]
        if isinstance(message, m.FillBots):
            level = self._level(room, message.level, default_level(room.game.name))
            room.bot_level = level
            for seat in room.seats:
                if seat.holder is Holder.OPEN:
                    seat.seat_bot(level)
                    room.record_seat_change(seat)
                    self._note_seat(room, seat, by=self.names[conn])
        else:
            self._start(room, conn, message.call)
        outbox += self._show_ratings(room)
        return [*outbox, *self._broadcast_view(room)]

    def _change_seat(self, conn: ConnId, message: m.SetSeat) -> Outbox:
        """A seat handed to the computer, taken back by a person, given a new level or
        opened: by the host for any seat not held by another person who is here, and by
        anyone for their own seats; at any time but while a proposal waits."""
        room = self._find(conn, message.room)
        seat = room.seat_named(message.seat)
        if seat is None:
            raise self._no_such_seat(room.game.title, message.seat, room.game.seats)
        own = seat.conn == conn
        taking_open = seat.holder is Holder.OPEN and message.holder == "human"
        if not (own or taking_open or room.host_conn == conn):
            raise refuse(ErrorCode.NOT_HOST, "only the host may change a seat that is not yours")
        if seat.conn is not None and not own:
            raise refuse(ErrorCode.SEAT_TAKEN, f"{seat.colour} is held by {seat.name}")
        if room.proposal is not None:
            raise refuse(
                ErrorCode.BUSY, f"the game waits for answers to a {room.proposal.kind} proposal"
            )
        before = seat.describe()
        if message.holder == "bot":
            level = self._level(room, message.level, self._room_level(room))
            if not seat.belongs_to_person:
                room.bot_level = level
            self._to_computer(room, seat, level, own=own)
        elif message.holder == "human":
            if own:
                seat.take_back()
            else:
                self._check_guest_name(conn, message)
                name = message.name or self.names[conn]
                seat.seat_human(
                    name, self._token_for(room, conn), conn, self.player_of(conn, name)
                )
                room.spectators.discard(conn)
                self._enter(room, conn)
        else:
            seat.open()
            if own:
                room.spectators.add(conn)
        done: Outbox = [(conn, m.Ok(id=message.id))]
        if seat.describe() == before:
            return done
        shown = self._show_ratings(room)
        return [*done, *self._seat_changed(room, seat, conn), *shown]

    @staticmethod
    def _to_computer(room: Room, seat: Seat, level: str, *, own: bool) -> None:
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

    def _seat_changed(
        self, room: Room, seat: Seat, by: ConnId, but: ConnId | None = None
    ) -> Outbox:
        """A seat changed hands: noted in the room, told to everyone, the view sent."""
        room.record_seat_change(seat)
        told = self._seat_told(room, seat, by=self.names[by])
        return [*told, *self._broadcast_view(room, but=but)]

    def _seat_told(self, room: Room, seat: Seat, by: str | None) -> Outbox:
        """`seat_set` to everyone in the room; `by` None for the server's own doing."""
        self._reseated.add((room.id, seat.colour))
        entry = self._note_seat(room, seat, by)
        notice = m.SeatSet(
            room=room.id, seat=seat.colour, holder=entry["holder"], by=by, after=entry["after"]
        )
        return [(member, notice) for member in sorted(room.connections())]

    def _note_seat(self, room: Room, seat: Seat, by: str | None) -> dict[str, Any]:
        """A seat's change in the room's history: its new holder, who changed it, when."""
        after = None if room.status is Status.WAITING else len(room.moves)
        holder = seat.describe()["holder"]
        room.history.add(SEAT, self.wall(), seat=seat.colour, holder=holder, by=by, after=after)
        self._unsaved.add(room.id)
        return {"holder": holder, "after": after}

    def seats_changed(self) -> set[tuple[str, str]]:
        """The seats (room, colour) that changed since the last call: their bots' searches
        are stale."""
        changed, self._reseated = self._reseated, set()
        return changed

    @staticmethod
    def _level(room: Room, level: str | None, otherwise: str) -> str:
        """The level asked for, `otherwise` where none is; `no_such_level` if the game's
        bots do not play at it."""
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

    @staticmethod
    def _room_level(room: Room) -> str:
        """The level the computer takes a person's seat at (a stand-in, a seat given up):
        the one the room's computer seats were last set to, else the game's default."""
        return room.bot_level or default_level(room.game.name)

    def _start(self, room: Room, conn: ConnId, call: str | None) -> None:
        open_seats = [seat.colour for seat in room.seats if seat.holder is Holder.OPEN]
        if open_seats:
            raise refuse(
                ErrorCode.SEATS_OPEN,
                f"nobody holds {', '.join(open_seats)}: seat someone or a bot first",
                seats=open_seats,
            )
        if call is not None:
            self._toss(room, conn, call)
        room.state = room.initial
        room.status = Status.FINISHED if room.state.is_over else Status.PLAYING
        room.begin_record()
        coin = None if room.coin is None else room.coin.describe()
        room.history.add(STARTED, self.wall(), first=room.first_colour(), coin=coin)

    @staticmethod
    def _no_such_seat(title: str, colour: str, seats: tuple[str, ...]) -> ProtocolError:
        return refuse(
            ErrorCode.NO_SUCH_SEAT,
            f"{title} has no seat '{colour}'; its seats are {', '.join(seats)}",
            seats=list(seats),
        )

    # Play.

    def _move(self, conn: ConnId, message: m.Move) -> Outbox:
        room = self._find(conn, message.room)
        seat = self._playing_seat(room, conn)
        if _made_already(room, conn, message):
            return [(conn, m.Ok(id=message.id))]
        return [
            (conn, m.Ok(id=message.id)),
            *self._play(room, seat, message.version, message.move),
        ]

    @staticmethod
    def _playing_seat(room: Room, conn: ConnId) -> Seat:
        """The seat `conn` plays whose turn it is, or failing that its first (for the error
        that says it is not its turn); NOT_SEATED if it plays none."""
        seats = room.seats_of(conn)
        if not seats:
            raise refuse(ErrorCode.NOT_SEATED, "you hold no seat in this room")
        to_move = room.state.to_move if room.state is not None else None
        return next((seat for seat in seats if room.seats.index(seat) == to_move), seats[0])

    def play_bot(self, turn: BotTurn, move: str) -> Outbox:
        """A bot's move, checked exactly as a person's; ProtocolError if refused."""
        room = self.rooms.get(turn.room)
        if room is None:
            raise refuse(ErrorCode.NO_SUCH_ROOM, "the room has closed")
        seat = room.seat_named(turn.colour)
        if seat is None or not seat.plays_as_bot or seat.changes != turn.seat_changes:
            raise refuse(ErrorCode.NOT_SEATED, f"{turn.colour}'s seat changed hands")
        return self._play(room, seat, turn.version, move)

    def _play(self, room: Room, seat: Seat, version: int, text: str) -> Outbox:
        """Check a move in protocol.md's order, then apply it and tell everyone."""
        state = running(room)
        if room.proposal is not None:
            raise refuse(
                ErrorCode.BUSY, f"the game waits for answers to a {room.proposal.kind} proposal"
            )
        if room.seats.index(seat) != state.to_move:
            raise refuse(
                ErrorCode.NOT_YOUR_TURN, f"it is {room.seats[state.to_move].colour}'s turn"
            )
        if version != room.version:
            raise refuse(
                ErrorCode.STALE_VERSION,
                f"that move was made against version {version};"
                f" the room is at version {room.version}",
                version=room.version,
            )
        try:
            move = state.parse_move(text)
        except MalformedMoveError as error:
            raise refuse(ErrorCode.MALFORMED_MOVE, str(error)) from None
        try:
            after = state.play(move)
        except IllegalMoveError as error:
            raise refuse(ErrorCode.ILLEGAL_MOVE, str(error)) from None
        played = state.format_move(move)
        room.state = after
        room.version += 1
        room.moves.append(played)
        room.undone = 0
        room.moved_at = int(self.wall())
        passed = [room.seats[index].colour for index in after.passed]
        room.history.add(
            MOVE,
            room.moved_at,
            seat=seat.colour,
            move=played,
            version=room.version,
            passed=passed,
            name=seat.name if seat.belongs_to_person else None,
            level=seat.level if seat.plays_as_bot else None,
        )
        result = None
        if after.is_over:
            room.status = Status.FINISHED
            room.note_players()
            result = result_of(room, game_file_of(room).text())
            self._results.append(result)
            self._note_over(room, after)
        self._changed.add(room.id)
        self._unsaved.add(room.id)
        updates: dict[int | None, m.Update] = {}
        outbox: Outbox = []
        for member in sorted(room.connections()):
            seen_by = room.seat_of(member)
            viewpoint = room.viewpoint(seen_by)
            if viewpoint not in updates:
                updates[viewpoint] = m.Update(
                    room=room.id,
                    version=room.version,
                    seat=seat.colour,
                    move=played,
                    passed=passed,
                    state=room.observation(seen_by) or {},
                )
            outbox.append((member, updates[viewpoint]))
        if result is not None:
            outbox += self._rate(room, result)
        return outbox

    def _note_over(self, room: Room, state: State[Any]) -> None:
        """The end of a game in the room's history: the winners, the scores, and the person
        whose each seat was (None for a computer's own)."""
        room.history.add(
            OVER,
            self.wall(),
            winners=[room.seats[index].colour for index in state.winners()],
            scores=dict(zip(room.game.seats, state.scores(), strict=True)),
            names={
                seat.colour: seat.name if seat.belongs_to_person else None for seat in room.seats
            },
        )

    def _room_changed(self, room: Room) -> None:
        self._unsaved.add(room.id)

    def _hint(self, conn: ConnId, message: m.Hint) -> Outbox:
        room, seat, state = self._own_turn(conn, message.room, "hints")
        moves = state.legal_moves() if message.kind == "possible" else state.best_moves()
        texts = [state.format_move(move) for move in moves]
        reply = m.HintReply(id=message.id, kind=message.kind, moves=texts)
        if message.kind == "possible":
            return [(conn, reply)]
        return [(conn, reply), *self._helped(room, seat, "the best move")]

    def _own_turn(self, conn: ConnId, ref: str, what: str) -> tuple[Room, Seat, State[Any]]:
        """The room, seat and state where it is `conn`'s turn; else the error that says why."""
        room = self._find(conn, ref)
        seat = self._playing_seat(room, conn)
        state = running(room)
        if room.seats.index(seat) != state.to_move:
            raise refuse(ErrorCode.NOT_YOUR_TURN, f"{what} are for the seat whose turn it is")
        return room, seat, state

    # Watching the computer think.

    def _show_thinking(self, conn: ConnId, message: m.ShowThinking) -> Outbox:
        room = self._find(conn, message.room)
        if conn not in room.connections():
            raise refuse(ErrorCode.NOT_IN_ROOM, "join or spectate the room first")
        if message.on:
            room.thinkers.add(conn)
        else:
            room.thinkers.discard(conn)
        return [(conn, m.Ok(id=message.id))]

    def _suggest(self, conn: ConnId, message: m.Suggest) -> Outbox:
        room, seat, state = self._own_turn(conn, message.room, "suggestions")
        if conn in self.suggesting:
            raise refuse(ErrorCode.BUSY, "a suggestion for you is still being worked out")
        self.suggesting.add(conn)
        asked = SuggestionAsked(
            conn,
            message.id,
            room.id,
            room.version,
            seat.colour,
            levels_for(room.game.name)[-1],
            message.think_ms / 1000,
            state,
            self.clock(),
        )
        self._asked.append(asked)
        return self._helped(room, seat, "a suggestion")

    def suggestions_asked(self) -> list[SuggestionAsked]:
        """Every suggestion asked for since the last call, for the shell to search."""
        asked, self._asked = self._asked, []
        return asked

    def suggested(self, asked: SuggestionAsked, found: dict[str, Any] | None) -> Outbox:
        """The answer to a suggestion; None if the search failed."""
        self.suggesting.discard(asked.conn)
        if asked.conn not in self.names:
            return []
        if found is None:
            error = refuse(ErrorCode.INTERNAL, "no suggestion could be worked out; ask again")
            return [(asked.conn, m.Error.from_exception(error, asked.request))]
        suggestion = m.Suggestion(
            id=asked.request, room=asked.room, version=asked.version, search=found
        )
        return [(asked.conn, suggestion)]

    def bot_thought(self, turn: "BotTurn", found: dict[str, Any]) -> Outbox:
        """A thinking bot's latest thought, for the room's members who watch it think."""
        room = self.rooms.get(turn.room)
        if room is None or room.version != turn.version or not room.thinkers:
            return []
        thinking = m.Thinking(
            room=room.id, version=turn.version, seat=turn.colour, of="bot", search=found
        )
        return [(conn, thinking) for conn in sorted(room.thinkers)]

    def suggestion_thought(self, asked: SuggestionAsked, found: dict[str, Any]) -> Outbox:
        """A suggestion's search so far, for the person who asked, if they watch it think."""
        room = self.rooms.get(asked.room)
        if room is None or asked.conn not in room.thinkers:
            return []
        thinking = m.Thinking(
            room=room.id, version=asked.version, seat=asked.colour, of="suggestion", search=found
        )
        return [(asked.conn, thinking)]

    # Time and bots.

    def tick(self) -> Outbox:
        """Hand long-dropped seats to stand-in bots, take public rooms nobody is in out of
        the list, and close rooms nobody has been in for a while."""
        now = self.clock()
        outbox: Outbox = []
        for room in list(self.rooms.values()):
            if room.empty_since is not None:
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
                    self._unsaved.add(room.id)
            if room.proposal is not None and now >= room.proposal.expires_at:
                outbox += self._end_proposal(room, "expired", None)
            if room.status is Status.PLAYING:
                outbox += self._stand_in(room, now)
        return outbox

    def _stand_in(self, room: Room, now: float) -> Outbox:
        """A bot takes over each seat whose person has been away too long."""
        if room.standin_after == 0:
            return []
        outbox: Outbox = []
        for seat in room.seats:
            away = seat.dropped_at
            if (
                seat.holder is Holder.HUMAN
                and away is not None
                and now - away >= room.standin_after
            ):
                seat.holder, seat.level = Holder.STANDIN, self._room_level(room)
                room.stood_in.add(seat.colour)
                room.record_seat_change(seat)
                outbox += self._seat_told(room, seat, by=None)
        return [*outbox, *self._broadcast_view(room)] if outbox else []

    def _close(self, room: Room) -> None:
        del self.rooms[room.id]
        if room.code is not None:
            del self.codes[room.code]
        self._closed.add(room.id)

    def bot_turns(self) -> list[BotTurn]:
        """Every room changed since the last call where a bot or stand-in is now to move.

        Bots wait in a room nobody is connected to, for nobody would see them play; they
        play on when someone comes in.
        """
        turns = []
        now = self.clock()
        changed, self._changed = self._changed, set()
        for room_id in sorted(changed):
            room = self.rooms.get(room_id)
            if room is None or room.status is not Status.PLAYING or room.state is None:
                continue
            if room.proposal is not None or not room.connections():
                continue
            seat = room.seats[room.state.to_move]
            if seat.plays_as_bot:
                assert seat.level is not None
                turn = BotTurn(
                    room.id,
                    room.version,
                    seat.colour,
                    seat.level,
                    room.bot_think_ms / 1000,
                    room.state,
                    began=now,
                    waited_on=any(
                        other.holder is Holder.HUMAN and other.conn is not None
                        for other in room.seats
                    ),
                    seat_changes=seat.changes,
                )
                turns.append(turn)
        return turns

    def _broadcast_view(self, room: Room, but: ConnId | None = None) -> Outbox:
        """The room's new view to everyone in it (but the one already answered)."""
        self._changed.add(room.id)
        self._unsaved.add(room.id)
        return [
            (member, m.RoomView(room=room.view(member)))
            for member in sorted(room.connections())
            if member != but
        ]


def _made_already(room: Room, conn: ConnId, asked: m.Move) -> bool:
    """Whether `asked` is a move sent again (its answer was lost, or said `unavailable`
    while the room changed servers) that the room already made: that move, by a seat of
    `conn`'s, at that version. Answered `ok` again, as it was the first time."""
    if room.state is None or not room.moves_since <= asked.version < room.version:
        return False
    index = asked.version - room.version + len(room.moves)
    if not 0 <= index < len(room.moves):
        return False
    state = room.initial
    for move in room.moves[:index]:
        state = state.play_text(move)
    try:
        sent = state.format_move(state.parse_move(asked.move))
    except MalformedMoveError:
        return False
    return sent == room.moves[index] and room.seats[state.to_move] in room.seats_of(conn)
