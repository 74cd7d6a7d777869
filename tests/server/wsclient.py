"""A scripted protocol client over a real WebSocket, for end-to-end tests."""

import asyncio
import dataclasses
import functools
import itertools
import ssl
from collections.abc import Callable
from typing import Self

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from parlour.protocol import ClientSession, codec_for
from parlour.protocol import messages as m

TIMEOUT = 10.0
RATE_LIMITED_PAUSE = 0.1


class Client:
    """One connection: typed messages out, typed messages in, kept until asked for."""

    def __init__(self, websocket: ClientConnection, subprotocol: str) -> None:
        self.websocket = websocket
        self.session = ClientSession(codec_for(subprotocol))
        self.inbox: list[m.ServerMessage] = []
        self._ids = itertools.count(1)
        self.welcome: m.Welcome | None = None

    @classmethod
    async def open(
        cls,
        port: int,
        name: str,
        subprotocol: str = "parlour.v1.msgpack",
        headers: dict[str, str] | None = None,
        *,
        key: str | None = None,
        greet: bool = True,
        tls: ssl.SSLContext | None = None,
    ) -> Self:
        """A connection to the server on `port` (over TLS, trusting what `tls` trusts, when
        given), welcomed under `name` (and `key`) unless it is not to `greet`."""
        scheme = "ws" if tls is None else "wss"
        websocket = await connect(
            f"{scheme}://127.0.0.1:{port}/ws",
            subprotocols=[Subprotocol(subprotocol)],
            open_timeout=TIMEOUT,
            additional_headers=headers,
            ssl=tls,
        )
        client = cls(websocket, subprotocol)
        if not greet:
            return client
        welcome = await client.request(m.Hello(version=1, name=name, key=key))
        assert isinstance(welcome, m.Welcome), welcome
        client.welcome = welcome
        return client

    async def send(self, message: m.ClientMessage) -> None:
        await self.websocket.send(self.session.send(message))

    async def request(self, message: m.ClientMessage) -> m.ServerMessage:
        """Send `message` with a fresh id and return the answer that carries it.

        A polite client: told it is sending too fast, it waits and sends again.
        """
        while True:
            request_id = next(self._ids)
            await self.send(dataclasses.replace(message, id=request_id))
            reply = await self.expect(functools.partial(_answers, request_id))
            if not (isinstance(reply, m.Error) and reply.code == "rate_limited"):
                return reply
            await asyncio.sleep(RATE_LIMITED_PAUSE)

    async def expect(
        self, wanted: Callable[[m.ServerMessage], bool], timeout: float = TIMEOUT
    ) -> m.ServerMessage:
        """The first message, kept or new, that `wanted` accepts; others are kept."""
        for index, message in enumerate(self.inbox):
            if wanted(message):
                return self.inbox.pop(index)
        async with asyncio.timeout(timeout):
            while True:
                message = self.session.receive(await self.websocket.recv())
                if wanted(message):
                    return message
                self.inbox.append(message)

    async def update(self, version: int) -> m.Update:
        """The update that brings the room to `version`."""
        update = await self.expect(
            lambda msg: isinstance(msg, m.Update) and msg.version == version
        )
        assert isinstance(update, m.Update)
        return update

    async def close(self) -> None:
        await self.websocket.close()


def _answers(request_id: int, message: m.ServerMessage) -> bool:
    return message.id == request_id
