"""One client connection to a Parlour server: requests with their answers, everything else
as events, and reconnection when the network drops.

The socket is read by one task; answers go to the request that carries their id, and
the server's own messages (updates, room views, thoughts) queue up as events for the
client to take one at a time. When the connection drops, the reader says so with
`Dropped`, dials again with growing pauses, and says `Reconnected` once it has said hello;
rejoining rooms with their seat tokens is the caller's business.

Every hello carries the player's key, if the client has one (guests have none). A hello
refused because its name is another player's (`name_taken`) is sent again with the name
`ask_name` gives, on the same socket, as the server allows; without one, NameTakenError.

A `wss://` address is dialled with TLS, the server's certificate checked as `client.tls`
says (with a private CA's certificate given as `ca`); a refused certificate is a
CertificateError, and ends the dialling again too. A `wss://` address is never tried as
`ws://`.
"""

import asyncio
import contextlib
import dataclasses
import itertools
import shlex
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage, InvalidURI
from websockets.typing import Subprotocol

from parlour import __version__
from parlour.protocol import MSGPACK, PROTOCOL_VERSION, ClientSession, ProtocolError, codec_for
from parlour.protocol import messages as m
from parlour.protocol.hosts import this_machine_only

from .invocation import parlour_command
from .tls import CaFileError, client_context, handshake_words, refusal_words

OPEN_TIMEOUT: Final = 10.0
ANSWER_TIMEOUT: Final = 15.0
"""Seconds to wait for an answer, beyond any thinking time the request asks for."""
RETRY_DELAYS: Final = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Pauses between attempts to reconnect; the last repeats until the connection is closed."""
RATE_LIMITED_PAUSE: Final = 0.2
UNAVAILABLE_PAUSE: Final = 0.4
UNAVAILABLE_PATIENCE: Final = 8.0
"""Seconds a request answered `unavailable` is sent again for (a cluster's room changing
servers, or its records out of reach: protocol.md 6) before the refusal stands."""


class ConnectError(Exception):
    """The server could not be reached or refused the connection."""


class LastingRefusalError(ConnectError):
    """A refusal that dialling again will not change: a dropped connection stops trying."""


class NameTakenError(LastingRefusalError):
    """The server said the name belongs to another player, and no other name was given."""

    def __init__(self, url: str, name: str) -> None:
        super().__init__(f"the name {name} belongs to another player on this server ({url})")
        self.name = name


class BarredError(LastingRefusalError):
    """This server's operators barred the player (protocol.md 2.14): every hello with their
    key is refused, so a dropped connection stops dialling."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url} refused us: {reason}")
        self.reason = reason
        """The server's words, which say why."""


class CertificateError(LastingRefusalError):
    """The server's TLS certificate was refused; the message says why and what may help."""


class ConnectionLostError(Exception):
    """The connection dropped before a request was answered."""


class RefusedError(Exception):
    """The server answered a request with an error."""

    def __init__(self, error: m.Error) -> None:
        super().__init__(error.message)
        self.code = error.code
        self.error = error


@dataclass(frozen=True, slots=True)
class Dropped:
    """The connection was lost; the client is dialling again, unless `final`."""

    reason: str
    final: bool = False
    """The client stopped trying: the server refused its name and no other was given, or
    its certificate was refused."""


@dataclass(frozen=True, slots=True)
class Reconnected:
    """The connection is back and has said hello; rooms must be joined again."""

    welcome: m.Welcome


Event = m.ServerMessage | Dropped | Reconnected
AskName = Callable[[str], Awaitable[str | None]]
"""Asked with a name the server refused as another player's: another name to try, or None
to give up."""


def server_url(text: str) -> str:
    """The WebSocket address for what a person typed: `host:port`, `ws://host:port`, an
    `http(s)://` address, with or without the `/ws` path."""
    text = text.strip()
    if "://" not in text:
        text = f"ws://{text}"
    parts = urlsplit(text)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.hostname:
        raise ConnectError(f"{text!r} is not a server address: give host:port or ws://host:port")
    try:
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError:
        raise ConnectError(f"{text!r} has a bad port number") from None
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, parts.netloc, path if path else "/ws", "", ""))


def server_option(url: str, ca: Path | None = None) -> str:
    """The `--server` a command reaches the server at `url` by, as short as it can be typed
    and keeping the scheme (`host:port` plain, `wss://host:port` over TLS, the whole
    address off `/ws`), with `--ca` when a private CA's certificate is needed."""
    parts = urlsplit(url)
    if parts.path != "/ws":
        server = url
    elif parts.scheme == "ws":
        server = parts.netloc
    else:
        server = f"{parts.scheme}://{parts.netloc}"
    words = f"--server {shlex.quote(server)}"
    return words if ca is None else f"{words} --ca {shlex.quote(str(ca))}"


def join_command(url: str, ref: str, ca: Path | None = None) -> str:
    """The command that joins room `ref` on the server at `url` (trusting the CA in `ca`)."""
    return f"{parlour_command()} join {ref} {server_option(url, ca)}"


def is_tls(url: str) -> bool:
    """Whether the WebSocket address `url` is reached over TLS."""
    return urlsplit(url).scheme == "wss"


def room_link(url: str, ref: str) -> str:
    """The browser page of room `ref` on the server whose WebSocket address is `url`."""
    parts = urlsplit(url)
    scheme = "https" if parts.scheme == "wss" else "http"
    folder = parts.path.removesuffix("/ws")
    return urlunsplit((scheme, parts.netloc, f"{folder}/r/{ref}", "", ""))


def shared_url(url: str, welcome: m.Welcome | None) -> str:
    """The server's address to give friends: `url`, unless it names this machine alone
    and the server says where other machines reach it (protocol.md 2.1), over TLS when
    the server says those addresses are (`tls`) or `url` is; never plain for a `wss://`."""
    parts = urlsplit(url)
    if welcome is None or not welcome.addresses or not this_machine_only(parts.hostname or ""):
        return url
    scheme = "wss" if welcome.tls or parts.scheme == "wss" else "ws"
    path = parts.path if parts.path else "/ws"
    return urlunsplit((scheme, str(welcome.addresses[0]), path, "", ""))


def reaches_only_here(url: str, welcome: m.Welcome | None) -> bool:
    """Whether a server at `url` can be reached from this machine alone, as far as it says."""
    parts = urlsplit(url)
    return this_machine_only(parts.hostname or "") and not (welcome and welcome.addresses)


class Connection:
    """A connection that has said hello, with its reader running."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        key: str | None = None,
        ask_name: AskName | None = None,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        ca: Path | None = None,
    ):
        self.url = url
        self.ca = ca
        """A private CA's certificate trusted besides the system's, for a `wss://` server."""
        self._tls = client_context(ca) if is_tls(url) else None
        self.name = name
        """The name the server knows this connection by (changed when a refused one is
        replaced)."""
        self.key = key
        """The player key every hello carries; None for a guest."""
        self.ask_name = ask_name
        """Asked for another name when the server refuses one; an app replaces it with a
        dialog of its own while it runs."""
        self.retry_delays = tuple(retry_delays)
        self.session = ClientSession(codec_for(MSGPACK))
        self.welcome: m.Welcome | None = None
        self.events: asyncio.Queue[Event] = asyncio.Queue()
        self._websocket: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[m.ServerMessage]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._closing = False

    @classmethod
    async def open(
        cls,
        url: str,
        name: str,
        *,
        key: str | None = None,
        ask_name: AskName | None = None,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        ca: Path | None = None,
    ) -> "Connection":
        """Connect, say hello, and start reading; ConnectError if that fails (NameTakenError
        when the name is another player's and no other was given, CertificateError when the
        server's certificate is refused)."""
        try:
            connection = cls(
                url, name, key=key, ask_name=ask_name, retry_delays=retry_delays, ca=ca
            )
        except CaFileError as error:
            raise ConnectError(f"--ca {error}") from None
        connection.welcome = await connection._dial()
        connection._reader = asyncio.create_task(connection._read_forever())
        return connection

    @property
    def connected(self) -> bool:
        return self._websocket is not None

    async def request(self, message: m.ClientMessage, wait: float = 0.0) -> m.ServerMessage:
        """Send `message` and return its answer; RefusedError for an error answer,
        ConnectionLostError if the connection drops first. `wait` is thinking time the answer
        may take. Told to slow down, or that the answer is `unavailable` for now, it sends
        the request again as it was, as protocol.md asks; a limit that says how long to wait
        (`detail.retry_after_s`: codes mailed an hour) is the request's answer, refused."""
        patience = time.monotonic() + UNAVAILABLE_PATIENCE
        while True:
            answer = await self._exchange(message, ANSWER_TIMEOUT + wait)
            if not isinstance(answer, m.Error):
                return answer
            if answer.code == "rate_limited" and "retry_after_s" not in (answer.detail or {}):
                await asyncio.sleep(RATE_LIMITED_PAUSE)
            elif answer.code == "unavailable" and time.monotonic() < patience:
                await asyncio.sleep(UNAVAILABLE_PAUSE)
            else:
                raise RefusedError(answer)

    async def close(self) -> None:
        """Close for good: no more reconnecting."""
        self._closing = True
        if self._websocket is not None:
            await self._websocket.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self._fail_waiting()

    async def _exchange(self, message: m.ClientMessage, timeout: float) -> m.ServerMessage:
        websocket = self._websocket
        if websocket is None:
            raise ConnectionLostError("not connected to the server just now")
        request_id = next(self._ids)
        answer = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        try:
            await websocket.send(self.session.send(dataclasses.replace(message, id=request_id)))
            return await asyncio.wait_for(answer, timeout)
        except ConnectionClosed:
            raise ConnectionLostError("the connection dropped") from None
        except TimeoutError:
            raise ConnectionLostError(f"no answer from the server in {timeout:g} s") from None
        finally:
            self._waiting.pop(request_id, None)

    async def _dial(self) -> m.Welcome:
        """Open the socket (with TLS for `wss://`) and say hello."""
        tls: dict[str, Any] = {} if self._tls is None else {"ssl": self._tls}
        try:
            websocket = await connect(
                self.url,
                subprotocols=[Subprotocol(MSGPACK)],
                open_timeout=OPEN_TIMEOUT,
                compression=None,
                **tls,
            )
        except ConnectionRefusedError:
            raise ConnectError(
                f"cannot connect to {self.url}: no server is listening there"
                f" (start one with `{parlour_command()} serve`, or give --server HOST:PORT)"
            ) from None
        except ssl.SSLCertVerificationError as error:
            raise CertificateError(refusal_words(error, self.url, self.ca)) from None
        except (ssl.SSLError, ConnectionResetError) as error:
            if self._tls is None:
                raise ConnectError(f"cannot connect to {self.url}: {error}") from None
            raise ConnectError(handshake_words(error, self.url)) from None
        except InvalidMessage as error:
            hint = "" if self._tls else "; if it serves TLS, its address is wss://HOST:PORT"
            raise ConnectError(f"cannot connect to {self.url}: {error}{hint}") from None
        except (OSError, InvalidURI, InvalidHandshake, TimeoutError) as error:
            raise ConnectError(f"cannot connect to {self.url}: {error}") from None
        try:
            reply = await self._greet(websocket)
        except (ConnectionClosed, TimeoutError, ProtocolError) as error:
            await websocket.close()
            raise ConnectError(f"{self.url} did not greet us: {error}") from None
        except BaseException:
            await websocket.close()
            raise
        if isinstance(reply, m.Error):
            await websocket.close()
            if reply.code == "name_taken":
                raise NameTakenError(self.url, self.name)
            if reply.code == "barred":
                raise BarredError(self.url, reply.message)
            raise ConnectError(f"{self.url} refused us: {reply.message}")
        if not isinstance(reply, m.Welcome):
            await websocket.close()
            raise ConnectError(f"{self.url} answered hello with {reply.TYPE!r}")
        self._websocket = websocket
        return reply

    async def _greet(self, websocket: ClientConnection) -> m.ServerMessage:
        """Say hello, again with another name for as long as the name is another player's
        and `ask_name` gives one; the last answer."""
        while True:
            hello = m.Hello(
                version=PROTOCOL_VERSION,
                name=self.name,
                client=f"parlour {__version__}",
                key=self.key,
            )
            await websocket.send(self.session.send(hello))
            reply = self.session.receive(await asyncio.wait_for(websocket.recv(), OPEN_TIMEOUT))
            if not (isinstance(reply, m.Error) and reply.code == "name_taken"):
                return reply
            other = None if self.ask_name is None else await self.ask_name(self.name)
            other = (other or "").strip()
            if not other or other == self.name:
                return reply
            self.name = other

    async def _read_forever(self) -> None:
        while not self._closing:
            reason = await self._read()
            self._websocket = None
            self._fail_waiting()
            if self._closing:
                return
            self.events.put_nowait(Dropped(reason))
            try:
                welcome = await self._redial()
            except LastingRefusalError as refused:
                self._closing = True
                self.events.put_nowait(Dropped(f"{refused}; not reconnecting", final=True))
                return
            self.welcome = welcome
            self.events.put_nowait(Reconnected(welcome))

    async def _read(self) -> str:
        """Read frames until the connection drops; why it dropped."""
        websocket = self._websocket
        assert websocket is not None
        try:
            async for frame in websocket:
                self._dispatch(frame)
        except ConnectionClosed:
            pass
        if websocket.close_code is None:
            return "the connection dropped"
        reason = f": {websocket.close_reason}" if websocket.close_reason else ""
        return f"the server closed the connection ({websocket.close_code}{reason})"

    def _dispatch(self, frame: str | bytes) -> None:
        """An answer to whoever waits for it; anything else to the events."""
        try:
            message = self.session.receive(frame)
        except ProtocolError:
            return
        answer = self._waiting.get(message.id) if isinstance(message.id, int) else None
        if answer is not None and not answer.done():
            answer.set_result(message)
        else:
            self.events.put_nowait(message)

    async def _redial(self) -> m.Welcome:
        """Dial until the server is back; a name refused and not replaced, or a certificate
        refused, ends the trying (the reader stops, and the caller hears so from `Dropped`)."""
        for attempt in itertools.count():
            await asyncio.sleep(self.retry_delays[min(attempt, len(self.retry_delays) - 1)])
            try:
                return await self._dial()
            except LastingRefusalError:
                raise
            except ConnectError:
                continue
        raise AssertionError("unreachable")

    def _fail_waiting(self) -> None:
        for answer in self._waiting.values():
            if not answer.done():
                answer.set_exception(ConnectionLostError("the connection dropped"))


def invitation(connection: Connection, ref: str) -> str:
    """How friends come into room `ref`: the command and the page's link, each on a line of
    its own, at the address other machines reach the server by.

    A client trusting the server by `--ca` says so: friends need that CA's certificate too.
    The command names it by its file name alone, for friends to save it by, since the path
    on this machine means nothing on theirs; the note names the path here, to send from."""
    url = shared_url(connection.url, connection.welcome)
    ca = connection.ca if is_tls(url) else None
    theirs = None if ca is None else Path(ca.name)
    words = (
        f"Friends join with:\n{join_command(url, ref, theirs)}\n"
        f"or in a browser at:\n{room_link(url, ref)}"
    )
    if ca is not None:
        words += (
            "\nThe server's certificate is from a private CA: friends need the CA's too."
            f"\nSend them {ca} (it holds no secret) to save as {theirs}"
            "\nwhere they run the command, and to trust in their browsers for the link."
        )
    if reaches_only_here(connection.url, connection.welcome):
        words += (
            "\nOnly this machine reaches this server: start it with"
            " `--host 0.0.0.0` to let friends elsewhere in."
        )
    return words
