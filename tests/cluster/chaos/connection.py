"""A WebSocket connection of a chaos run that records every message it receives, and the
graceful closes left to finish in the background."""

import asyncio
import contextlib
import dataclasses
import itertools
from collections.abc import Callable
from typing import Any, Final, TypeGuard

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.typing import Subprotocol

from parlour.protocol import ClientSession, ProtocolError, codec_for
from parlour.protocol import messages as m

from .record import Recorder

SUBPROTOCOL: Final = "parlour.v1.msgpack"
RETRY_PAUSE: Final = 0.2
CLOSE_TIMEOUT: Final = 10.0
"""How long a graceful close may wait for the node (a paused one wakes within this)."""

News = Callable[[m.ServerMessage], None]


class LostError(Exception):
    """The connection closed, or could not be opened: its node is gone or unreachable."""


class Conn:
    """One WebSocket connection of the run; a reader records every message it receives,
    late answers included, and hands requests their answers."""

    def __init__(
        self,
        websocket: ClientConnection,
        label: str,
        port: int,
        *,
        recorder: Recorder,
        timeout: float,
        news: News | None,
    ) -> None:
        self.websocket = websocket
        self.label = label
        self.port = port
        self.recorder = recorder
        self.timeout = timeout
        """Seconds a request may go unanswered before it counts as `no answer`."""
        self.news = news
        self.session = ClientSession(codec_for(SUBPROTOCOL))
        self.sent: dict[int, m.ClientMessage] = {}
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[m.ServerMessage | None]] = {}
        self.closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls,
        port: int,
        name: str,
        label: str,
        *,
        recorder: Recorder,
        timeout: float,
        news: News | None = None,
    ) -> "Conn":
        """A connection to the node on `port`, welcomed as `name`; LostError if there is none
        within `timeout`."""
        try:
            websocket = await connect(
                f"ws://127.0.0.1:{port}/ws",
                subprotocols=[Subprotocol(SUBPROTOCOL)],
                open_timeout=timeout,
                close_timeout=CLOSE_TIMEOUT,
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
            raise LostError(f"cannot connect to {port}: {error!r}") from None
        conn = cls(websocket, label, port, recorder=recorder, timeout=timeout, news=news)
        welcome = await conn.request(m.Hello(version=1, name=name))
        if not isinstance(welcome, m.Welcome):
            conn.abandon()
            raise LostError(f"no welcome from {port}: {welcome}")
        return conn

    async def request(self, message: m.ClientMessage) -> m.ServerMessage | None:
        """The answer to `message`, or None if none came within the timeout (a `no answer`);
        LostError if the connection closed. Told `rate_limited`, it waits and sends again."""
        while True:
            if self.closed.is_set():
                raise LostError(f"{self.label} is closed")
            request_id = next(self._ids)
            sent = dataclasses.replace(message, id=request_id)
            self.sent[request_id] = sent
            waiting: asyncio.Future[m.ServerMessage | None]
            waiting = asyncio.get_running_loop().create_future()
            self._waiting[request_id] = waiting
            try:
                async with asyncio.timeout(self.timeout):
                    await self.websocket.send(self.session.send(sent))
                    answer = await waiting
            except TimeoutError:
                self.recorder.unanswered(self.label, sent)
                return None
            except ConnectionClosed:
                answer = None
            finally:
                self._waiting.pop(request_id, None)
            if answer is None:
                raise LostError(f"{self.label} closed")
            if isinstance(answer, m.Error) and answer.code == "rate_limited":
                await asyncio.sleep(RETRY_PAUSE)
                continue
            return answer

    async def close(self) -> None:
        """Close gracefully: the node gets the close, and what was sent before it, when it
        can read (a paused node when it wakes)."""
        with contextlib.suppress(Exception):
            await self.websocket.close()
        await self._reader

    def abandon(self) -> None:
        """Close in the background, gracefully, for a connection nobody waits on."""
        _background(self.close())

    async def _read(self) -> None:
        """Record and route every message until the connection closes; then wake every
        request still waiting, with None."""
        try:
            async for frame in self.websocket:
                try:
                    message = self.session.receive(frame)
                except ProtocolError as error:
                    self.recorder.unreadable(self.label, error)
                    continue
                request = self.sent.get(message.id) if isinstance(message.id, int) else None
                self.recorder.hear(self.label, message, request)
                if self.news is not None:
                    self.news(message)
                waiting = self._waiting.get(message.id) if isinstance(message.id, int) else None
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
        except (ConnectionClosed, OSError):
            pass
        finally:
            self.closed.set()
            for waiting in self._waiting.values():
                if not waiting.done():
                    waiting.set_result(None)


def is_open(conn: Conn | None) -> TypeGuard[Conn]:
    """Whether `conn` is there and not closed."""
    return conn is not None and not conn.closed.is_set()


def abandon(conn: Conn | None) -> None:
    """Close `conn`, if there is one, gracefully, in the background."""
    if conn is not None:
        conn.abandon()


_tasks: set[asyncio.Task[None]] = set()


def _background(work: Any) -> None:
    """Run `work` on its own, kept until done."""
    task: asyncio.Task[None] = asyncio.ensure_future(work)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def settle_background(timeout: float) -> None:
    """Wait for the background closes, then cancel what is left."""
    if _tasks:
        await asyncio.wait(list(_tasks), timeout=timeout)
    for task in list(_tasks):
        task.cancel()
