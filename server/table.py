"""One room's table: every request about the room, checked in protocol.md's order and
answered with an outbox, without I/O.

The lobby finds the room and hands the request to its table. The file reads as a room's
life: people come in and take seats, the host fills the empty ones and starts, people and
bots move, the game ends and is rated; meanwhile the clock hands the seats of people long
away to stand-ins. Seats changing hands (`seats.py`), taking back and starting again by
consent (`consent.py`), the computer's help (`helping.py`) and the game's files
(`gamefiles.py`) are the table's parts, each given the same room.
"""

import dataclasses
from typing import Any

from parlour.bots import default_level
from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.endings import PLAYED
from parlour.rules import IllegalMoveError, MalformedMoveError, State

from .answers import Outbox, playing_seat, refuse, running
from .conduct import Conduct
from .consent import Consent
from .endings import Endings
from .gamefiles import GameFiles
from .helping import Help
from .history import MOVE, OVER, STARTED
from .manage import game_file_of
from .room import ConnId, Holder, LeftSeats, Room, Seat, Status
from .scores import Result, result_of
from .seats import Seats, level_asked, no_such_seat, room_level
from .services import Services
from .thinking import BotTurn
from .timing import TableClock

TableRequest = (
    m.Join
    | m.Spectate
    | m.Leave
    | m.SetSeat
    | m.FillBots
    | m.Start
    | m.Move
    | m.GetRoom
    | m.Chat
    | m.Hint
    | m.ShowThinking
    | m.Suggest
    | m.Undo
    | m.NewGame
    | m.HandOver
    | m.Resign
    | m.OfferDraw
    | m.Abort
    | m.Claim
    | m.Answer
    | m.ExportGame
    | m.SaveGame
    | m.ImportGame
    | m.LoadGame
    | m.SetInitials
    | m.Report
    | m.RemoveWatcher
)
"""The requests about one room, which its table answers."""


class Table:
    """A room, and the rules of who may do what in it."""

    def __init__(self, room: Room, services: Services) -> None:
        self.room = room
        self.services = services
        self.conduct = Conduct(room, services)
        self.seats = Seats(room, services, self.conduct.may_sit)
        self.help = Help(room, services)
        self.files = GameFiles(room, services)
        self.consent = Consent(room, services, self.seats, self._agreed)
        self.endings = Endings(room, services, self.seats, self._end, self.consent.outlived)
        self.timing = TableClock(room, services, self.endings.out, self.endings.late)

    def handle(self, conn: ConnId, message: TableRequest) -> Outbox:
        """Act on one valid request, once a seat whose time ran out is flagged; a refusal
        raises ProtocolError and changes nothing (but the flag). A game of days begun asks
        after its players' vacations."""
        flagged = self.timing.time_up()
        clock = self.room.clock
        try:
            done = self._handle(conn, message)
        except ProtocolError as error:
            if not flagged:
                raise
            return [(conn, m.Error.from_exception(error, message.id)), *flagged]
        return [*done, *flagged, *self.timing.vacations_asked(clock)]

    def _handle(self, conn: ConnId, message: TableRequest) -> Outbox:
        match message:
            case m.Move():
                return self._move(conn, message)
            case m.Join():
                return [*self._join(conn, message), *self.consent.shown_to(conn)]
            case m.Spectate():
                return [*self._spectate(conn, message), *self.consent.shown_to(conn)]
            case m.Leave():
                return self._leave(conn, message)
            case m.SetSeat():
                return self.seats.change(conn, message)
            case m.FillBots() | m.Start():
                return self._host_action(conn, message)
            case m.GetRoom():
                return [(conn, m.RoomView(id=message.id, room=self.room.view(conn)))]
            case m.Chat():
                return self.conduct.chat(conn, message)
            case m.Report():
                return self.conduct.report(conn, message)
            case m.RemoveWatcher():
                return self.conduct.remove_watcher(conn, message)
            case m.Hint():
                return self.help.hint(conn, message)
            case m.ShowThinking():
                return self.help.show_thinking(conn, message)
            case m.Suggest():
                return self.help.suggest(conn, message)
            case m.Undo():
                return self.consent.undo(conn, message)
            case m.NewGame():
                return self.consent.new_game(conn, message)
            case m.HandOver():
                return self.consent.hand_over(conn, message)
            case m.Resign():
                return self.endings.resign(conn, message)
            case m.OfferDraw():
                return self.consent.draw(conn, message)
            case m.Abort():
                return self.endings.abort(conn, message)
            case m.Claim():
                return self.endings.claim(conn, message)
            case m.Answer():
                return self.consent.answer(conn, message)
            case m.ExportGame() | m.SaveGame() | m.ImportGame() | m.LoadGame() | m.SetInitials():
                return self.files.handle(conn, message)

    # Coming in and going out.

    def open(self, conn: ConnId, request: str | int | None, colour: str | None) -> Outbox:
        """The host comes into the room just made: into `colour`'s seat, or watching."""
        room = self.room
        self.services.journal.unsaved.add(room.id)
        room.host_person = self.services.people.person(conn)
        seat = room.seat_named(colour) if colour else None
        if seat is not None:
            name = self.services.people.name(conn)
            player = self.services.people.player_of(conn, name)
            seat.seat_human(name, room.host_token, conn, player)
            self.seats.noted(seat, by=name)
        else:
            self.seats.watching(conn)
        self.seats.enter(conn)
        shown = self.services.known.show_ratings(room)
        return [(conn, self.seats.joined(conn, request, room.host_token, seat)), *shown]

    def _join(self, conn: ConnId, message: m.Join) -> Outbox:
        room, people = self.room, self.services.people
        people.check_guest_name(conn, message, self.services.asker.archive)
        self.conduct.may_enter(conn)
        if message.token is not None:
            return self.seats.rejoin(conn, message)
        if message.seat is not None:
            seat = room.seat_named(message.seat)
            if seat is None:
                raise no_such_seat(room.game, message.seat)
            if self._holds(conn, seat, message.name) and seat.token is not None:
                return [(conn, self.seats.joined(conn, message.id, seat.token, seat))]
            mine = seat.player is not None and seat.player == people.players.get(conn)
            if mine and seat.token is not None:
                return self.seats.rejoin(conn, dataclasses.replace(message, token=seat.token))
            if seat.holder is not Holder.OPEN:
                raise refuse(ErrorCode.SEAT_TAKEN, f"{seat.colour} is taken")
        else:
            held = next((s for s in room.seats if self._holds(conn, s, message.name)), None)
            if held is not None and held.token is not None:
                return [(conn, self.seats.joined(conn, message.id, held.token, held))]
            player = people.players.get(conn)
            own = next((s for s in room.seats if player and s.player == player and s.token), None)
            if own is not None:
                return self.seats.rejoin(conn, dataclasses.replace(message, token=own.token))
            seat = next((seat for seat in room.seats if seat.holder is Holder.OPEN), None)
            if seat is None:
                raise refuse(ErrorCode.ROOM_FULL, "every seat in this room is taken")
        self.conduct.may_sit(conn)
        token = self.seats.token_for(conn)
        name = message.name or people.name(conn)
        seat.seat_human(name, token, conn, people.player_of(conn, name))
        room.spectators.discard(conn)
        self.seats.enter(conn)
        shown = self.services.known.show_ratings(room)
        joined = self.seats.joined(conn, message.id, token, seat)
        return [(conn, joined), *self.seats.changed(seat, conn, but=conn), *shown]

    def _holds(self, conn: ConnId, seat: Seat, name: str | None) -> bool:
        """Whether `conn` holds `seat` already as the person a `join` of it names: the
        join sent again (its answer lost, or `unavailable`), answered `joined` again."""
        if seat.conn != conn or seat.holder is not Holder.HUMAN:
            return False
        return (name or self.services.people.name(conn)) == seat.name

    def _spectate(self, conn: ConnId, message: m.Spectate) -> Outbox:
        room = self.room
        new = not room.owned_by(conn) and conn not in room.spectators
        if not room.owned_by(conn):
            self.conduct.may_enter(conn)
            self.seats.watching(conn)
        self.seats.enter(conn)
        watching = m.Watching(id=message.id, room=room.view(conn), history=room.history.window())
        return [(conn, watching), *(self.conduct.watchers_shown(but=conn) if new else [])]

    def _leave(self, conn: ConnId, message: m.Leave) -> Outbox:
        """Out of the room: the seats stay the person's, unless they give them up."""
        room = self.room
        outbox: Outbox = [(conn, m.Ok(id=message.id))]
        if message.give_up:
            for seat in room.owned_by(conn):
                if room.status is Status.WAITING or room.left_seats is LeftSeats.OPEN:
                    seat.open()
                else:
                    seat.seat_bot(room_level(room))
                room.record_seat_change(seat)
                outbox += self.seats.told(seat, by=self.services.people.name(conn))
        return [*outbox, *self.drop(conn)]

    def drop(self, conn: ConnId) -> Outbox:
        """`conn` is out of the room, gone or left: its seats wait for their tokens."""
        room = self.room
        for seat in room.owned_by(conn):
            seat.conn = None
            if seat.holder is Holder.HUMAN:
                seat.dropped_at = self.services.clock()
        if room.host_conn == conn:
            room.host_conn = None
        room.spectators.discard(conn)
        room.thinkers.discard(conn)
        if not room.connections():
            room.empty_since = self.services.clock()
        return self.services.shown(room)

    # The host fills the empty seats and starts.

    def _host_action(self, conn: ConnId, message: m.FillBots | m.Start) -> Outbox:
        room = self.room
        if room.host_conn != conn:
            raise refuse(ErrorCode.NOT_HOST, "only the room's host may do that")
        if isinstance(message, m.Start) and room.status is not Status.WAITING:
            return [(conn, m.Ok(id=message.id))]  # a start sent again: the game has begun
        if room.status is not Status.WAITING:
            raise refuse(ErrorCode.NOT_WAITING, "the game has begun")
        if isinstance(message, m.FillBots):
            level = level_asked(room, message.level, default_level(room.game.name))
            if level == room.bot_level and all(s.holder is not Holder.OPEN for s in room.seats):
                return [(conn, m.Ok(id=message.id))]  # sent again, or nothing to fill
            room.bot_level = level
            for seat in room.seats:
                if seat.holder is Holder.OPEN:
                    seat.seat_bot(level)
                    room.record_seat_change(seat)
                    self.seats.noted(seat, by=self.services.people.name(conn))
        else:
            self._start(conn, message.call)
        shown = self.services.known.show_ratings(room)
        return [(conn, m.Ok(id=message.id)), *shown, *self.services.shown(room)]

    # Play.

    def _start(self, conn: ConnId, call: str | None) -> None:
        room = self.room
        open_seats = [seat.colour for seat in room.seats if seat.holder is Holder.OPEN]
        if open_seats:
            raise refuse(
                ErrorCode.SEATS_OPEN,
                f"nobody holds {', '.join(open_seats)}: seat someone or a bot first",
                seats=open_seats,
            )
        if call is not None:
            self.consent.toss(conn, call)
        room.state = room.initial
        room.status = Status.FINISHED if room.state.is_over else Status.PLAYING
        room.begin_record()
        coin = None if room.coin is None else room.coin.describe()
        room.history.add(STARTED, self.services.wall(), first=room.first_colour(), coin=coin)

    def _move(self, conn: ConnId, message: m.Move) -> Outbox:
        room = self.room
        state = room.state
        if state is not None and not state.is_over:
            to_move = room.seats[state.to_move]
            if to_move.conn == conn and to_move.colour in room.resigned:
                raise refuse(ErrorCode.RESIGNED, f"{to_move.colour} resigned this game")
            if to_move.conn == conn and to_move.colour in room.out:
                raise refuse(ErrorCode.OUT_OF_TIME, f"{to_move.colour}'s time ran out")
        seat = playing_seat(room, conn)
        if made_already(room, conn, message):
            return [(conn, m.Ok(id=message.id))]
        lag = self.services.people.lag_ms(conn)
        return [(conn, m.Ok(id=message.id)), *self._play(seat, message.version, message.move, lag)]

    def bot_turn(self, now: float) -> BotTurn | None:
        """The turn a bot or stand-in is to play now, if one is: not while a proposal
        waits, nor in a room nobody is connected to, where nobody would see it play (but
        where its clock runs)."""
        room = self.room
        if room.status is not Status.PLAYING or room.state is None:
            return None
        if room.proposal is not None or (not room.connections() and room.clock is None):
            return None
        seat = room.seats[room.state.to_move]
        if not seat.plays_as_bot:
            return None
        assert seat.level is not None
        waited_on = any(
            other.holder is Holder.HUMAN and other.conn is not None for other in room.seats
        )
        return BotTurn(
            room.id,
            room.version,
            seat.colour,
            seat.level,
            room.bot_think_ms / 1000,
            room.state,
            began=now,
            waited_on=waited_on,
            seat_changes=seat.changes,
        )

    def play_bot(self, turn: BotTurn, move: str) -> Outbox:
        """A bot's move, checked exactly as a person's (its real thinking time charged to
        its clock); ProtocolError if refused."""
        flagged = self.timing.time_up()
        if flagged:
            return flagged
        seat = self.room.seat_named(turn.colour)
        if seat is None or not seat.plays_as_bot or seat.changes != turn.seat_changes:
            raise refuse(ErrorCode.NOT_SEATED, f"{turn.colour}'s seat changed hands")
        return self._play(seat, turn.version, move)

    def _play(self, seat: Seat, version: int, text: str, lag_ms: int = 0) -> Outbox:
        """Check a move in protocol.md's order, then apply it and tell everyone."""
        room = self.room
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
        room.moved_at = int(self.services.wall())
        passed = [room.seats[index].colour for index in after.passed]
        if room.clock is not None:
            to_move = None if after.is_over else after.to_move
            room.clock.moved(room.seats.index(seat), room.now_ms(), lag_ms, to_move)
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
        result = self._end(after, PLAYED) if after.is_over else None
        self.services.journal.shown(room.id)
        told = self._updates(seat, played, passed)
        if result is None:
            return told
        return [*told, *self.services.shown(room), *self.services.known.rate(room, result)]

    def _updates(self, seat: Seat, played: str, passed: list[str]) -> Outbox:
        """The move as each member sees it: one `update` per viewpoint, sent to each."""
        room = self.room
        updates: dict[int | None, m.Update] = {}
        outbox: Outbox = []
        clock = room.clock_view()
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
                    clock=clock,
                )
            outbox.append((member, updates[viewpoint]))
        return outbox

    # The end.

    def _agreed(self) -> Outbox:
        """The people seated agreed to end the game as it stands (`Endings.agree`)."""
        return self.endings.agree()

    def _end(self, state: State[Any], how: str) -> Result:
        """The game is over, ended `how` (played out, a flag, ...): its result, for the
        score cards and the ratings; the winners, scores and people in the room's history."""
        room = self.room
        room.status = Status.FINISHED
        room.ended = how
        room.put_absent_out()
        if room.clock is not None:
            room.clock.stop(room.now_ms())
        room.note_players()
        result = result_of(room, game_file_of(room).text())
        room.winners = [room.seats[index].colour for index in result.winners]
        self.services.journal.results.append(result)
        room.history.add(
            OVER,
            self.services.wall(),
            winners=[room.seats[index].colour for index in result.winners],
            scores=dict(zip(room.game.seats, state.scores(), strict=True)),
            names={
                seat.colour: seat.name if seat.belongs_to_person else None for seat in room.seats
            },
        )
        return result

    # Time passing.

    def tick(self, now: float, *, flags: bool = True) -> Outbox:
        """A proposal nobody answered in time ends; seats of people long away go to
        stand-ins; a seat out of time is flagged (unless `flags` is false)."""
        outbox = self.consent.expire(now) + (self.timing.time_up() if flags else [])
        if self.room.status is Status.PLAYING:
            outbox += self.seats.stand_in(now)
        return outbox


def made_already(room: Room, conn: ConnId, asked: m.Move) -> bool:
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
