"""A TCP proxy a test controls, to put real network faults between a node and Redis: reset
every connection (RST, as a dropped route does), hold everything (a partition that
heals: what was sent arrives late and in order, as TCP retransmits it), or slow every
byte down (a long way round the world)."""

import asyncio
import contextlib
import socket
import struct
from dataclasses import dataclass, field

CHUNK = 65536
_LINGER_NOW = struct.pack("ii", 1, 0)
"""SO_LINGER on with a timeout of 0: closing sends RST, not FIN."""


def _rst(writer: asyncio.StreamWriter) -> None:
    """Close abruptly: the peer sees a connection reset, not an orderly end."""
    if writer.is_closing():
        return
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _LINGER_NOW)
    writer.transport.abort()


@dataclass(eq=False)
class _Link:
    """One client connection and, once opened, its connection to the target."""

    client: asyncio.StreamWriter
    task: asyncio.Task[None] | None
    upstream: asyncio.StreamWriter | None = None

    def writers(self) -> list[asyncio.StreamWriter]:
        """Both sides, or the client alone while the target is not reached yet."""
        return [w for w in (self.client, self.upstream) if w is not None]

    def reset(self) -> None:
        """Reset both sides and stop forwarding."""
        for writer in self.writers():
            _rst(writer)
        if self.task is not None:
            self.task.cancel()

    def close(self) -> None:
        """Close both sides gracefully (FIN)."""
        for writer in self.writers():
            writer.close()


@dataclass
class TcpProxy:
    """Listens on 127.0.0.1 (a free port) and forwards each connection to `host:port`."""

    host: str
    target_port: int
    port: int = 0
    accepted: int = 0
    """Connections seen since the proxy started."""
    resets: int = 0
    """Connections reset by `reset`."""
    delay: float = 0.0
    """Seconds each chunk takes to go through, either way (network lag), kept in order."""
    _links: set[_Link] = field(default_factory=set)
    _open: asyncio.Event = field(default_factory=asyncio.Event)
    _server: asyncio.Server | None = None

    @property
    def connections(self) -> int:
        """Connections open now (a held one waiting for its target counts)."""
        return len(self._links)

    async def start(self) -> None:
        """Listen on a free loopback port (`port`)."""
        self._open.set()
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def reset(self) -> None:
        """Reset every current connection on both sides; new ones are served as usual."""
        for link in list(self._links):
            link.reset()
            self.resets += 1
        self._links.clear()

    def hold(self) -> None:
        """Let nothing through either way, nor open a connection to the target, until
        `release`; bytes already read wait, in order."""
        self._open.clear()

    def release(self) -> None:
        """Let everything held through, in order."""
        self._open.set()

    async def blackhole(self, seconds: float) -> None:
        """Hold everything for `seconds`, then deliver it."""
        self.hold()
        try:
            await asyncio.sleep(seconds)
        finally:
            self.release()

    async def close(self) -> None:
        """Stop listening and reset every connection."""
        self.release()
        if self._server is not None:
            self._server.close()
        self.reset()
        if self._server is not None:
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Forward one connection both ways until either side ends or `reset` cuts it.
        A target that refuses the connection resets the client's."""
        self.accepted += 1
        link = _Link(writer, asyncio.current_task())
        self._links.add(link)
        try:
            await self._open.wait()
            try:
                up_reader, link.upstream = await asyncio.open_connection(
                    self.host, self.target_port
                )
            except OSError:
                _rst(writer)
                return
            await asyncio.gather(self._pump(reader, link.upstream), self._pump(up_reader, writer))
        except asyncio.CancelledError:
            if link in self._links:  # not our own reset: a cancellation from outside
                raise
        finally:
            self._links.discard(link)
            link.close()

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        """Copy bytes one way, each chunk `delay` seconds after it came and waiting while
        the proxy holds; the source's end (or error) closes the sink."""
        chunks: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        reading = asyncio.create_task(self._read(source, chunks))
        try:
            while True:
                due, data = await chunks.get()
                await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()))
                await self._open.wait()
                if not data:
                    break
                sink.write(data)
                try:
                    await sink.drain()
                except OSError:
                    break
        finally:
            reading.cancel()
            sink.close()

    async def _read(
        self, source: asyncio.StreamReader, chunks: "asyncio.Queue[tuple[float, bytes]]"
    ) -> None:
        """Read chunks as they come, each with the time it is due on the other side; an
        empty chunk for the end."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                data = await source.read(CHUNK)
            except OSError:
                data = b""
            chunks.put_nowait((loop.time() + self.delay, data))
            if not data:
                return
