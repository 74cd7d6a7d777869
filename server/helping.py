"""The computer's help in a room: the possible and best moves, a suggested move searched
for, and the searches of bots and suggestions shown to those who watch them think. Asking
for help makes the game friendly."""

from typing import Any

from parlour.bots import levels_for
from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.rules import State

from .answers import Outbox, playing_seat, refuse, running
from .room import ConnId, Room, Seat
from .services import Services
from .thinking import BotTurn, SuggestionAsked


class Help:
    """Hints, suggestions and thinking shown, in one room."""

    def __init__(self, room: Room, services: Services) -> None:
        self.room = room
        self.services = services

    def hint(self, conn: ConnId, message: m.Hint) -> Outbox:
        seat, state = self._own_turn(conn, "hints")
        moves = state.legal_moves() if message.kind == "possible" else state.best_moves()
        texts = [state.format_move(move) for move in moves]
        reply = m.HintReply(id=message.id, kind=message.kind, moves=texts)
        if message.kind == "possible":
            return [(conn, reply)]
        return [(conn, reply), *self._helped(seat, "the best move")]

    def suggest(self, conn: ConnId, message: m.Suggest) -> Outbox:
        room = self.room
        seat, state = self._own_turn(conn, "suggestions")
        asked = SuggestionAsked(
            conn,
            message.id,
            room.id,
            room.version,
            seat.colour,
            levels_for(room.game.name)[-1],
            message.think_ms / 1000,
            state,
            self.services.clock(),
        )
        self.services.suggestions.ask(asked)
        return self._helped(seat, "a suggestion")

    def _own_turn(self, conn: ConnId, what: str) -> tuple[Seat, State[Any]]:
        """The seat and state where it is `conn`'s turn; else the error that says why."""
        room = self.room
        seat = playing_seat(room, conn)
        state = running(room)
        if room.seats.index(seat) != state.to_move:
            raise refuse(ErrorCode.NOT_YOUR_TURN, f"{what} are for the seat whose turn it is")
        return seat, state

    def _helped(self, seat: Seat, what: str) -> Outbox:
        """A person asked the computer for help (`what`): the game is friendly from now,
        and the room is told if it was rated until now."""
        room = self.room
        counted = room.why_unrated() is None
        room.friendly(f"{seat.name or seat.colour} asked for {what}")
        if not counted or room.why_unrated() is None:
            return []
        return self.services.shown(room)

    # Watching the computer think.

    def show_thinking(self, conn: ConnId, message: m.ShowThinking) -> Outbox:
        room = self.room
        if conn not in room.connections():
            raise refuse(ErrorCode.NOT_IN_ROOM, "join or spectate the room first")
        if message.on:
            room.thinkers.add(conn)
        else:
            room.thinkers.discard(conn)
        return [(conn, m.Ok(id=message.id))]

    def bot_thought(self, turn: BotTurn, found: dict[str, Any]) -> Outbox:
        """A thinking bot's latest thought, for the room's members who watch it think."""
        room = self.room
        if room.version != turn.version or not room.thinkers:
            return []
        thinking = m.Thinking(
            room=room.id, version=turn.version, seat=turn.colour, of="bot", search=found
        )
        return [(conn, thinking) for conn in sorted(room.thinkers)]

    def suggestion_thought(self, asked: SuggestionAsked, found: dict[str, Any]) -> Outbox:
        """A suggestion's search so far, for the person who asked, if they watch it think."""
        if asked.conn not in self.room.thinkers:
            return []
        thinking = m.Thinking(
            room=self.room.id,
            version=asked.version,
            seat=asked.colour,
            of="suggestion",
            search=found,
        )
        return [(asked.conn, thinking)]
