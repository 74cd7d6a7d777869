"""What the lobby and its tables answer with: outboxes of messages, and refusals."""

from typing import Any

from parlour.protocol import ErrorCode, ProtocolError
from parlour.protocol import messages as m
from parlour.rules import State

from .room import ConnId, Room, Seat, Status

Outbox = list[tuple[ConnId, m.ServerMessage]]
"""Messages to send, and to whom, in order."""


def refuse(code: ErrorCode, message: str, **detail: Any) -> ProtocolError:
    """The refusal of a request: an `error` to its sender, nothing changed."""
    return ProtocolError(code, message, detail=detail or None)


def running(room: Room) -> State[Any]:
    """The room's game, if it is being played; else the refusal to raise."""
    if room.status is Status.WAITING or room.state is None:
        raise refuse(ErrorCode.NOT_STARTED, "the game has not started")
    if room.status is Status.FINISHED:
        raise refuse(ErrorCode.GAME_OVER, "the game is over")
    return room.state


def playing_seat(room: Room, conn: ConnId) -> Seat:
    """The seat `conn` plays whose turn it is, or failing that its first (for the error that
    says it is not its turn); `not_seated` if it plays none."""
    seats = room.seats_of(conn)
    if not seats:
        raise refuse(ErrorCode.NOT_SEATED, "you hold no seat in this room")
    to_move = room.state.to_move if room.state is not None else None
    return next((seat for seat in seats if room.seats.index(seat) == to_move), seats[0])
