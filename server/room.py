"""One room: a game, its seats and watchers, and what each connection is shown of it."""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from parlour.protocol.endings import ABORTED, PLAYED
from parlour.protocol.timecontrol import TimeControl
from parlour.rules import Game, State
from parlour.rules.gamefile import SeatChange

from .clocks import Clock
from .history import History
from .ratings import computer_player

ConnId = int
"""The server's number for one WebSocket connection."""


class Holder(StrEnum):
    """Who holds a seat (protocol.md, 2.2)."""

    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"
    STANDIN = "standin"


class LeftSeats(StrEnum):
    """What becomes of a seat its person gives up during a game (protocol.md, 2.3)."""

    BOT = "bot"
    OPEN = "open"


class Status(StrEnum):
    """Where a room is in its life (protocol.md, 5)."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class Seat:
    """One colour of the game and whoever holds it.

    A seat belongs to a person while it has their `name` and `token`: they play it
    (`human`), or the computer plays it for them, because they handed it over (`bot`) or
    dropped out (`standin`). `conn` is that person's connection while they are here.
    """

    colour: str
    holder: Holder = Holder.OPEN
    name: str | None = None
    token: str | None = None
    conn: ConnId | None = None
    level: str | None = None
    dropped_at: float | None = None
    """When the person holding the seat lost their connection, while they are away."""
    changes: int = 0
    """Counts every change of the seat's holder or level: a bot's search for it begun
    before the last change is not played."""
    player: str | None = None
    """The id of the player whose key holds the seat (protocol.md, 2.10); None for a
    guest or a computer."""
    rating: dict[str, Any] | None = field(default=None, compare=False)
    """The holder's rating for the room's game as last read, shown with the seat."""

    @property
    def plays_as_bot(self) -> bool:
        return self.holder in (Holder.BOT, Holder.STANDIN)

    @property
    def belongs_to_person(self) -> bool:
        return self.token is not None

    def describe(self) -> dict[str, Any]:
        """The seat as protocol.md's `seat` map."""
        holder: dict[str, Any] = {"kind": self.holder.value}
        if self.holder is Holder.HUMAN:
            holder |= {"name": self.name, "connected": self.conn is not None}
        elif self.holder is Holder.BOT:
            holder["level"] = self.level
            if self.belongs_to_person:
                holder |= {"name": self.name, "connected": self.conn is not None}
        elif self.holder is Holder.STANDIN:
            holder |= {"name": self.name, "level": self.level}
        if self.player is not None and self.holder is not Holder.OPEN:
            holder["player"] = self.player
        described: dict[str, Any] = {"colour": self.colour, "holder": holder}
        if self.rating is not None and self.holder is not Holder.OPEN:
            described["rating"] = self.rating
        return described

    @property
    def rated_as(self) -> str | None:
        """Whom the seat's games rate: its player, or the computer level playing it alone;
        None for a guest, an open seat or a stand-in."""
        if self.holder is Holder.HUMAN:
            return self.player
        if self.holder is Holder.BOT and not self.belongs_to_person and self.level:
            return computer_player(self.level)
        return None

    def holder_text(self) -> str:
        """Who holds the seat, as a game file's `Seats` tag and seat lines write it."""
        if self.holder is Holder.HUMAN:
            return self.name or "?"
        if self.plays_as_bot:
            playing = f"computer ({self.level})"
            return f"{playing} for {self.name}" if self.belongs_to_person else playing
        return "open"

    def seat_human(self, name: str, token: str, conn: ConnId, player: str | None = None) -> None:
        self.holder, self.name, self.token, self.conn = Holder.HUMAN, name, token, conn
        self.level = self.dropped_at = None
        self.player, self.rating = player, None

    def seat_bot(self, level: str) -> None:
        self.holder, self.level = Holder.BOT, level
        self.name = self.token = self.conn = self.dropped_at = self.player = self.rating = None

    def open(self) -> None:
        self.holder = Holder.OPEN
        self.name = self.token = self.conn = self.level = self.dropped_at = None
        self.player = self.rating = None

    def hand_to_computer(self, level: str) -> None:
        """The computer plays the seat for its person from now, until they take it back."""
        self.holder, self.level = Holder.BOT, level

    def take_back(self) -> None:
        """The seat's own person plays it again."""
        self.holder, self.level, self.dropped_at = Holder.HUMAN, None, None

    def take_over(self, other: "Seat") -> None:
        """Whoever holds `other` holds this seat instead, with their token and connection."""
        self.holder, self.name, self.token, self.conn = (
            other.holder,
            other.name,
            other.token,
            other.conn,
        )
        self.level, self.dropped_at = other.level, other.dropped_at
        self.player, self.rating = other.player, other.rating
        self.changes += 1


@dataclass
class Proposal:
    """An undo, new game, draw or hand-over waiting for the other people in the room to
    agree."""

    id: str
    kind: str
    """`undo`, `new_game`, `draw` or `hand_over`."""
    by: str
    """The colour of the seat that asked."""
    waiting: set[str]
    """The colours that have not yet agreed."""
    expires_at: float
    """When silence declines it, on the lobby's clock."""
    expires_wall: float = 0.0
    """The same instant in Unix time, as the room's record keeps it: a restart or another
    server's clock does not carry the lobby's."""
    version: int = 0
    """The room's version the request named (else the room's when it was asked): the
    request sent again names it."""
    answers: dict[str, bool] = field(default_factory=dict)
    """Each colour's answer given, `True` for accepted."""
    outcome: str | None = None
    """Once it has ended: `accepted` (also when nobody was asked), `declined` or
    `expired`."""
    keep: int = 0
    """For an undo: how many moves stay."""
    board: int | None = None
    """For a new game: the board number asked for, if any."""
    call: tuple[str, str] | None = None
    """For a new game: the seat calling the coin for who moves first, and its call."""
    seat: str | None = None
    """For a hand-over: the seat of the person away that the computer is to play."""
    rotate: bool = False
    """For a rematch: whether each holder moves on to the next seat."""
    asked_on: ConnId | None = None
    """The connection the request was answered `ok` on, and told how it ended: the same
    request from it after a refusal or silence asks anew. Not kept in the record."""


@dataclass(frozen=True, slots=True)
class CoinToss:
    """A coin called for who moves first, and how it landed (Doublolo)."""

    by: str
    """The colour of the seat that called."""
    call: str
    landed: str
    first: str
    """The colour that moves first: the caller's if the call was right."""

    def describe(self) -> dict[str, str]:
        return {"by": self.by, "call": self.call, "landed": self.landed, "first": self.first}


@dataclass
class Room:
    """A room and its game; the lobby changes it only after every check has passed."""

    id: str
    code: str | None
    game: Game[Any]
    options: dict[str, Any]
    board: int
    public: bool
    host_name: str
    host_token: str
    host_conn: ConnId | None
    standin_after: int
    bot_think_ms: int
    """How long the searching bot levels think about a move, in milliseconds."""
    initial: State[Any]
    seats: list[Seat]
    position: str | None = None
    """The start in the game's position notation, where it was not dealt from `board`."""
    spectators: set[ConnId] = field(default_factory=set)
    watchers: dict[ConnId, tuple[str, str | None]] = field(default_factory=dict)
    """Who pressed Watch, by connection: their name and player id (a guest's None); the
    room view lists those still watching, for the host to send one out."""
    removed: dict[str, str] = field(default_factory=dict)
    """The people the host sent out of watching (`moderation.person_of`), with their names:
    for the room's life, they may not watch or sit in it."""
    host_person: str = ""
    """The host's person (`moderation.person_of`): whom they block may not sit here."""
    thinkers: set[ConnId] = field(default_factory=set)
    """Members who asked to see the computer think."""
    status: Status = Status.WAITING
    state: State[Any] | None = None
    moves: list[str] = field(default_factory=list)
    version: int = 0
    moves_since: int = 0
    """The version after the last undo, new game or load: from it on each version is one
    more move, so the move made at version v >= moves_since is `moves[v - version +
    len(moves)]` (how a move sent again is known)."""
    undone: int = 0
    """Moves taken back since the last move was played."""
    proposal: Proposal | None = None
    """The proposal waiting for answers, if one is."""
    last_proposal: Proposal | None = None
    """The proposal that ended last (or was carried out with nobody to ask), with its
    answers and outcome: what a request or an answer sent again is known by."""
    stood_in: set[str] = field(default_factory=set)
    """Colours a bot has stood in for during this game."""
    left_seats: LeftSeats = LeftSeats.BOT
    seat_log: list[SeatChange] = field(default_factory=list)
    """The seats that changed hands during this game, in order."""
    changed_hands: set[str] = field(default_factory=set)
    """Colours whose holder changed during this game: they count for nobody's score card."""
    played_by: dict[str, list[str]] = field(default_factory=dict)
    """Each colour's players (ids) who held it during this game, in order: the game is in
    each one's list of games, though the computer played their seat at the end."""
    seats_at_start: str | None = None
    """Who held the seats when this game began, as a game file's `Seats` tag."""
    coin: CoinToss | None = None
    """The coin tossed for who moved first in this game, if one was."""
    first_by_coin: bool = False
    """Whether the first player is left to chance (the coin, or the deal) though `options`
    names this game's: the coin's call, or a rematch with the seats rotated, named it."""
    empty_since: float | None = None
    """Since when nobody has been connected to the room, on the lobby's clock."""
    dormant: bool = False
    """A public room nobody has been connected to for a while: out of the lobby's list,
    kept for its people to come back to."""
    moved_at: int = 0
    """When the last move was made, or the room created before any, in Unix seconds."""
    created_at: int = 0
    """When the room was created, in Unix seconds: tells apart rooms that look alike."""
    bot_level: str | None = None
    """The level last given to a computer seat that is nobody's (`fill_bots`, `set_seat`):
    the room's level, at which stand-ins play (protocol.md, 2.3)."""
    rated: bool = True
    """Whether the room's games may be rated (protocol.md, 2.10)."""
    unrated_by: str | None = None
    """What made this game friendly: a hint asked for, an undo, a game loaded."""
    rating_changes: dict[str, dict[str, int]] | None = None
    """After a rated game ends and its ratings are kept: each colour's before and after."""
    history: History = field(default_factory=History)
    """What happened in the room lately, for those who come in (protocol.md 2.11)."""
    time_control: TimeControl = field(default_factory=TimeControl)
    clock: Clock | None = None
    """The game's clock, while a game with a time control is played (protocol.md 2.12)."""
    winners: list[str] = field(default_factory=list)
    """The colours that won the game just finished, however it ended."""
    out: dict[str, str | None] = field(default_factory=dict)
    """The seats out of this game, in order (they finish last, the first last of all): run
    out of time, or resigned; each with whom the game rated it as then (its player, or
    None)."""
    resigned: set[str] = field(default_factory=set)
    """Which seats of `out` resigned."""
    absent: set[str] = field(default_factory=set)
    """Which seats of `out` were away at the end, the computer standing in for their
    person; the rest of `out` ran out of time."""
    ended: str | None = None
    """How the game just finished ended (`parlour.protocol.endings`); None while played."""
    now_ms: Callable[[], int] = field(default=lambda: int(time.time() * 1000), repr=False)
    """Unix milliseconds, for the clock: the lobby's wall clock once it holds the room."""
    _observed: tuple[State[Any] | None, dict[int | None, dict[str, Any]]] = field(
        default_factory=lambda: (None, {}), repr=False, compare=False
    )

    def seat_of(self, conn: ConnId) -> Seat | None:
        """The first seat `conn` plays here as a person, if any."""
        return next(iter(self.seats_of(conn)), None)

    def seats_of(self, conn: ConnId) -> list[Seat]:
        """Every seat `conn` plays here as a person: several where people share a screen."""
        return [seat for seat in self.seats if seat.conn == conn and seat.holder is Holder.HUMAN]

    def owned_by(self, conn: ConnId) -> list[Seat]:
        """Every seat that belongs to `conn`'s people, whoever plays it now."""
        return [seat for seat in self.seats if seat.conn == conn]

    def token_of(self, conn: ConnId) -> str | None:
        """The token that brings `conn` back: the host's, or that of the seats it holds
        (one token for every seat taken from one connection)."""
        if self.host_conn == conn:
            return self.host_token
        return next((seat.token for seat in self.owned_by(conn)), None)

    @property
    def tosses_for_first(self) -> bool:
        """Whether a coin may be called for who moves first: a game that tosses, dealt with
        its first player left to chance (or to the coin before)."""
        return (
            self.game.first_by_coin
            and self.position is None
            and (self.options.get("first") == "random" or self.first_by_coin)
        )

    def holders_text(self) -> str:
        """Who holds each seat, as a game file's `Seats` tag."""
        return "; ".join(f"{seat.colour}: {seat.holder_text()}" for seat in self.seats)

    def record_seat_change(self, seat: Seat, *, own: bool = False) -> None:
        """Note that `seat` changed hands: bots searching for it are not played, and during
        a game the record keeps the change and, unless it was between a person and the
        computer standing in for them (`own`), its score card counts it for nobody."""
        seat.changes += 1
        if self.status is Status.PLAYING:
            self.seat_log.append(SeatChange(len(self.moves), seat.colour, seat.holder_text()))
            if not own:
                self.changed_hands.add(seat.colour)
            self.note_players()

    def note_players(self) -> None:
        """Note the players who hold the seats now among those who held them this game, the
        one who held each last at the end."""
        for seat in self.seats:
            held = self.played_by.setdefault(seat.colour, [])
            if seat.player is not None and held[-1:] != [seat.player]:
                if seat.player in held:
                    held.remove(seat.player)
                held.append(seat.player)

    def why_unrated(self) -> str | None:
        """Why this game does not count for ratings, in words; None if it does (the rules
        of protocol.md 2.10)."""
        if not self.rated:
            return "the room is not rated"
        if self.position is not None:
            return "the game began from a position of its own"
        if self.unrated_by is not None:
            return self.unrated_by
        if self.ended == ABORTED:
            return "the game was aborted before everyone had moved"
        for seat in self.seats:
            if seat.colour in self.out:
                continue  # the computer plays on for a seat out of the game; it counts last
            if seat.colour in self.changed_hands:
                return f"{seat.colour}'s seat changed hands"
        people = [seat for seat in self.seats if seat.belongs_to_person]
        if not people:
            return "no person plays"
        for seat in people:
            sharing = next(
                (
                    o
                    for o in people
                    if o is not seat and o.conn is not None and o.conn == seat.conn
                ),
                None,
            )
            if seat.player is None and sharing is not None:
                return (
                    f"{seat.name} plays at {sharing.name}'s screen (hot-seat games are friendly)"
                )
            if seat.player is None:
                return f"{seat.name} plays as a guest"
            if seat.holder is Holder.BOT and seat.colour not in self.out:
                return f"the computer plays {seat.name}'s seat"
        players = [seat.player for seat in people]
        if len(set(players)) < len(players):
            return "one player holds two seats"
        return None

    def friendly(self, reason: str) -> None:
        """The game stops counting for ratings, for `reason` (the first one is kept)."""
        if self.status is Status.PLAYING and self.unrated_by is None:
            self.unrated_by = reason

    def begin_record(self) -> None:
        """A new game's record: the seats as they are, nothing changed yet."""
        self.unrated_by = None
        self.rating_changes = None
        self.seats_at_start = self.holders_text()
        self.seat_log = []
        self.changed_hands = {seat.colour for seat in self.seats if seat.holder is Holder.STANDIN}
        self.played_by = {}
        self.note_players()
        self.winners = []
        self.start_clock()

    def start_clock(self) -> None:
        """A new game's clock, the first to move's time running (none without a time
        control), and nobody out of it yet."""
        self.out = {}
        self.resigned = set()
        self.absent = set()
        self.ended = PLAYED if self.status is Status.FINISHED else None
        state = self.state
        if not self.time_control.clocked or state is None or self.status is not Status.PLAYING:
            self.clock = None
            return
        self.clock = Clock.start(self.time_control, len(self.seats), state.to_move, self.now_ms())

    def clock_view(self) -> dict[str, Any] | None:
        """The clock as the room shows it now (protocol.md 2.12); None without one."""
        if self.clock is None:
            return None
        return self.clock.describe(self.game.seats, self.now_ms())

    def first_colour(self) -> str:
        """The colour that moves first in this game."""
        return self.seats[self.initial.to_move].colour

    def seat_named(self, colour: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.colour == colour), None)

    def connections(self) -> set[ConnId]:
        """Every connection that is shown this room: seats, spectators and the host."""
        members = {seat.conn for seat in self.seats if seat.conn is not None}
        members |= self.spectators
        if self.host_conn is not None:
            members.add(self.host_conn)
        return members

    @property
    def listed(self) -> bool:
        """Whether the lobby lists the room: public, not finished, and not left dormant."""
        return self.public and self.status is not Status.FINISHED and not self.dormant

    def summary(self) -> dict[str, Any]:
        """The room as the lobby lists it (protocol.md, 2.2)."""
        return {
            "room": self.id,
            "game": self.game.name,
            "options": dict(self.options),
            "board": self.board,
            "position": self.position,
            "status": self.status.value,
            "seats": [seat.describe() for seat in self.seats],
            "host": self.host_name,
            "bot_think_ms": self.bot_think_ms,
            "left_seats": self.left_seats.value,
            "people": len(self.connections()),
            "moved_at": self.moved_at,
            "created_at": self.created_at,
            "time_control": self.time_control.describe(),
        }

    def view(self, conn: ConnId | None) -> dict[str, Any]:
        """The whole room as `conn` sees it (protocol.md, 2.5)."""
        seat = self.seat_of(conn) if conn is not None else None
        owned = self.owned_by(conn) if conn is not None else []
        return self.summary() | {
            "public": self.public,
            "version": self.version,
            "moves": list(self.moves),
            "coin": None if self.coin is None else self.coin.describe(),
            "seat_changes": [
                {"after": change.after, "seat": change.colour, "holder": change.holder}
                for change in self.seat_log
            ],
            "state": self.observation(seat),
            "you": seat.colour if seat else None,
            "yours": [each.colour for each in owned],
            "rated": self.why_unrated() is None,
            "unrated": self.why_unrated(),
            "rating_changes": self.rating_changes,
            "clock": self.clock_view(),
            "flagged": [colour for colour in self.out if self.flagged(colour)],
            "resigned": [colour for colour in self.out if colour in self.resigned],
            "absent": [colour for colour in self.out if colour in self.absent],
            "winners": list(self.winners),
            "ended": self.ended,
            "abortable": self.status is Status.PLAYING and bool(self.yet_to_move()),
            "watchers": [
                {"name": name} | ({} if player is None else {"player": player})
                for watcher, (name, player) in sorted(self.watchers.items())
                if watcher in self.spectators
            ],
        }

    def yet_to_move(self) -> list[int]:
        """The seats held by people that have made no move of their own in this game (a seat
        the computer played for its person counts as moved): while one is left, nothing was
        played that could be rated, and the game may be aborted."""
        people = {index for index, seat in enumerate(self.seats) if seat.belongs_to_person}
        state = self.initial
        for move in self.moves:
            people.discard(state.to_move)
            if not people:
                break
            state = state.play_text(move)
        return sorted(people)

    def viewpoint(self, seat: Seat | None) -> int | None:
        """Whose eyes `seat` sees the game through: its own where seats see differently."""
        return self.seats.index(seat) if seat and self.game.private_observations else None

    def observation(self, seat: Seat | None) -> dict[str, Any] | None:
        """The game as `seat` (or a spectator, for None) sees it; None before the start.

        Made once per state and viewpoint: every member is sent it after every move.
        """
        state = self.state
        if state is None:
            return None
        index = self.viewpoint(seat)
        observed_state, made = self._observed
        if observed_state is not state:
            made = {}
            self._observed = (state, made)
        if index not in made:
            made[index] = state.observation(index)
        if self.status is Status.FINISHED and (self.out or not state.is_over):
            return made[index] | self.end_shown()
        return made[index]

    def flagged(self, colour: str) -> bool:
        """Whether `colour` is out of the game because its time ran out."""
        return colour in self.out and colour not in self.resigned | self.absent

    def put_absent_out(self) -> None:
        """At the end, each seat whose person is still away, the computer standing in, is
        out of the game: last of all, the game counting for those who stayed."""
        away = [seat for seat in self.seats if seat.holder is Holder.STANDIN]
        away = [seat for seat in away if seat.colour not in self.out]
        self.out = {seat.colour: seat.player for seat in away} | self.out
        self.absent.update(seat.colour for seat in away)

    def end_shown(self) -> dict[str, Any]:
        """What an observation says of a game that ended before its rules ended it (a flag,
        a resignation, a draw agreed, an abort), or with a seat out of it: over, as a game
        played out says it, with the room's winners."""
        return {"over": True, "to_move": None, "legal_moves": [], "winners": list(self.winners)}
