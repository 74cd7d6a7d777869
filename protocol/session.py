"""The state machines of one connection, server side and client side: frames in, frames out.

No sockets and no awaiting: the server's shell feeds each received frame to
`ServerSession.receive` with the time, and sends what it is told to.
"""

from dataclasses import dataclass, field
from typing import Final

from .errors import CloseCode, ErrorCode, ProtocolError
from .messages import (
    PROTOCOL_VERSION,
    ClientMessage,
    Error,
    Hello,
    ServerMessage,
    Welcome,
    read_client_message,
    read_server_message,
    request_id,
)
from .wire import Codec, Frame, Message, as_message, check_schema

RATE: Final = 20.0
BURST: Final = 40.0
FLOOD_CLOSE_AFTER: Final = 10.0
HELLO_REFUSALS: Final = (ErrorCode.NAME_TAKEN.value, ErrorCode.BARRED.value)
"""Refusals of a hello after which the client may say hello again: with another name, or
(barred) without the key."""


@dataclass
class TokenBucket:
    """`rate` messages a second on average, `burst` at once."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = field(init=False)
    """Tokens left; a new bucket is full."""
    updated: float | None = None

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float) -> bool:
        """Spend one token if there is one."""
        if self.updated is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(frozen=True, slots=True)
class Request:
    """A valid message from the client, for the lobby to act on."""

    message: ClientMessage


@dataclass(frozen=True, slots=True)
class Refusal:
    """An `error` to send back, and the close code to close with after it, if any."""

    error: Error
    close: int | None = None


@dataclass
class ServerSession:
    """One connection as the server sees it: hello first, the rate limit, then requests."""

    codec: Codec
    bucket: TokenBucket = field(default_factory=TokenBucket)
    flood_close_after: float = FLOOD_CLOSE_AFTER
    name: str | None = None
    """The hello's name, from when it came until the server refuses it (`refused_hello`)."""
    greeting: str | int | None = None
    """The hello's request id, while the server has not welcomed it."""
    welcomed: bool = False
    limited_since: float | None = None
    """When the client was first refused for sending too fast, until its bucket half refills."""

    def receive(self, frame: Frame, now: float) -> Request | Refusal:
        """What to do with one received frame; every frame counts against the rate limit."""
        allowed = self.bucket.take(now)
        try:
            value = self.codec.parse(frame)
        except ProtocolError as error:
            return self._refuse(error, None) if allowed else self._limited(now, None)
        answering = request_id(value) if isinstance(value, dict) else None
        if not allowed:
            return self._limited(now, answering)
        if self.bucket.tokens >= self.bucket.burst / 2:
            self.limited_since = None
        try:
            message = read_client_message(self._in_order(as_message(value)))
            if isinstance(message, Hello):
                self._greet(message)
        except ProtocolError as error:
            return self._refuse(error, answering)
        return Request(message)

    @staticmethod
    def _refuse(error: ProtocolError, answering: str | int | None) -> Refusal:
        return Refusal(Error.from_exception(error, answering), error.close)

    def _in_order(self, wire: Message) -> Message:
        """The message if it may come now: hello first, and only once."""
        if self.name is None and wire["type"] != Hello.TYPE:
            raise ProtocolError(
                ErrorCode.HELLO_FIRST,
                "the first message must be 'hello'",
                close=CloseCode.POLICY_VIOLATION,
            )
        if self.name is not None and wire["type"] == Hello.TYPE:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "this connection already said hello")
        return wire

    def _greet(self, message: Hello) -> None:
        """Check the hello's version and remember who this is."""
        if message.version != PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.UNSUPPORTED_VERSION,
                f"this server speaks protocol version {PROTOCOL_VERSION}, not {message.version}",
                detail={"version": PROTOCOL_VERSION},
                close=CloseCode.PROTOCOL_ERROR,
            )
        self.name = message.name
        self.greeting = message.id

    def _limited(self, now: float, answering: str | int | None) -> Refusal:
        if self.limited_since is None:
            self.limited_since = now
        flooding = now - self.limited_since >= self.flood_close_after
        error = Error(
            id=answering,
            code=ErrorCode.RATE_LIMITED.value,
            message=f"more than {self.bucket.rate:g} messages a second; wait and send again",
        )
        return Refusal(error, CloseCode.POLICY_VIOLATION if flooding else None)

    def send(self, message: ServerMessage) -> Frame:
        """The frame that carries `message`; a refused hello may be sent again."""
        if isinstance(message, Welcome):
            self.welcomed = True
        elif (
            isinstance(message, Error)
            and not self.welcomed
            and self.name is not None
            and message.id == self.greeting
            and message.code in HELLO_REFUSALS
        ):
            self.name = None
        return self.codec.encode(message.to_wire())


@dataclass
class ClientSession:
    """One connection as a client sees it: client messages out, server messages in."""

    codec: Codec

    def send(self, message: ClientMessage) -> Frame:
        """The frame that carries `message`."""
        wire = message.to_wire()
        check_schema(wire)
        return self.codec.encode(wire)

    def receive(self, frame: Frame) -> ServerMessage:
        """The server's message in `frame`; ProtocolError if the frame holds none."""
        return read_server_message(self.codec.decode(frame))
