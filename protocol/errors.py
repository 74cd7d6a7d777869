"""Protocol errors: each has a code from protocol.md section 3 and maybe a close code."""

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every error code of protocol.md, section 3."""

    BAD_FRAME = "bad_frame"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"
    HELLO_FIRST = "hello_first"
    UNSUPPORTED_VERSION = "unsupported_version"
    NO_SUCH_ROOM = "no_such_room"
    BAD_OPTIONS = "bad_options"
    NO_SUCH_GAME = "no_such_game"
    SEAT_TAKEN = "seat_taken"
    ROOM_FULL = "room_full"
    NO_SUCH_SEAT = "no_such_seat"
    NO_SUCH_LEVEL = "no_such_level"
    BAD_TOKEN = "bad_token"
    NOT_HOST = "not_host"
    NOT_WAITING = "not_waiting"
    SEATS_OPEN = "seats_open"
    NOT_SEATED = "not_seated"
    NOT_IN_ROOM = "not_in_room"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    OUT_OF_TIME = "out_of_time"
    RESIGNED = "resigned"
    NOT_ABORTABLE = "not_abortable"
    NOBODY_TO_ASK = "nobody_to_ask"
    NOT_CLAIMABLE = "not_claimable"
    TOO_EARLY = "too_early"
    BLOCKED = "blocked"
    REMOVED = "removed"
    BARRED = "barred"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_VERSION = "stale_version"
    MALFORMED_MOVE = "malformed_move"
    ILLEGAL_MOVE = "illegal_move"
    BUSY = "busy"
    NOTHING_TO_UNDO = "nothing_to_undo"
    NO_SUCH_PROPOSAL = "no_such_proposal"
    NOT_AT_START = "not_at_start"
    NOT_FINISHED = "not_finished"
    NOT_AWAY = "not_away"
    NO_VACATION_LEFT = "no_vacation_left"
    NAME_TAKEN = "name_taken"
    NOT_BEST = "not_best"
    NO_SUCH_SAVE = "no_such_save"
    BAD_SAVE = "bad_save"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_GUESSES = "too_many_guesses"
    NO_KEY = "no_key"
    NO_SUCH_RECORD = "no_such_record"
    BAD_CODE = "bad_code"
    NO_EMAIL = "no_email"
    TOO_MANY_ROOMS = "too_many_rooms"
    SERVER_FULL = "server_full"
    UNAVAILABLE = "unavailable"
    INTERNAL = "internal"


class CloseCode:
    """The WebSocket close codes of protocol.md, section 4."""

    NORMAL = 1000
    GOING_AWAY = 1001
    PROTOCOL_ERROR = 1002
    POLICY_VIOLATION = 1008
    MESSAGE_TOO_BIG = 1009
    INTERNAL_ERROR = 1011


class ProtocolError(Exception):
    """A request refused: the `error` message to send, and whether to close after it."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        detail: dict[str, Any] | None = None,
        close: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
        self.close = close

    def __repr__(self) -> str:
        return f"ProtocolError({self.code.value!r}, {self.message!r})"


def bad_field(field: str, message: str) -> ProtocolError:
    """A field missing, of the wrong type or out of range."""
    return ProtocolError(ErrorCode.BAD_FIELD, message, detail={"field": field})
