"""The chaos tests' TCP proxy: it forwards, resets and holds as a network would."""

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from .processes import RedisProcess
from .proxy import TcpProxy

QUIET = 0.3
"""How long nothing must arrive while the proxy holds."""


async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Send back everything received, until the peer ends."""
    try:
        while data := await reader.read(1024):
            writer.write(data)
            await writer.drain()
    except ConnectionError:
        pass
    finally:
        writer.close()


@pytest.fixture
async def proxy() -> AsyncIterator[TcpProxy]:
    """A proxy in front of an echo server on loopback."""
    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    one = TcpProxy("127.0.0.1", server.sockets[0].getsockname()[1])
    await one.start()
    try:
        yield one
    finally:
        await one.close()
        server.close()
        await server.wait_closed()


async def connect(proxy: TcpProxy) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", proxy.port)


async def read_exactly(reader: asyncio.StreamReader, size: int) -> bytes:
    return await asyncio.wait_for(reader.readexactly(size), 5)


async def test_bytes_pass_both_ways(proxy: TcpProxy) -> None:
    reader, writer = await connect(proxy)
    writer.write(b"hello")
    assert await read_exactly(reader, 5) == b"hello"
    writer.write(b"x" * 200_000)
    assert await read_exactly(reader, 200_000) == b"x" * 200_000
    assert (proxy.accepted, proxy.connections) == (1, 1)
    writer.close()
    await writer.wait_closed()


async def test_a_reset_is_a_connection_error_and_new_connections_work(proxy: TcpProxy) -> None:
    reader, writer = await connect(proxy)
    writer.write(b"ping")
    assert await read_exactly(reader, 4) == b"ping"
    proxy.reset()
    with pytest.raises(ConnectionResetError):
        await asyncio.wait_for(reader.read(10), 5)
    assert proxy.resets == 1

    reader, writer = await connect(proxy)
    writer.write(b"again")
    assert await read_exactly(reader, 5) == b"again"
    assert proxy.accepted == 2
    writer.close()


async def test_held_bytes_arrive_in_order_on_release(proxy: TcpProxy) -> None:
    reader, writer = await connect(proxy)
    writer.write(b"a")
    assert await read_exactly(reader, 1) == b"a"
    proxy.hold()
    for part in (b"b", b"cd", b"efg"):
        writer.write(part)
        await asyncio.sleep(0.05)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(reader.read(10), QUIET)
    proxy.release()
    assert await read_exactly(reader, 6) == b"bcdefg"
    writer.close()


async def test_a_connection_made_while_held_reaches_the_target_on_release(
    proxy: TcpProxy,
) -> None:
    held = asyncio.create_task(proxy.blackhole(QUIET * 2))
    await asyncio.sleep(0)
    reader, writer = await connect(proxy)
    writer.write(b"early")
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(reader.read(10), QUIET)
    await held
    assert await read_exactly(reader, 5) == b"early"
    writer.close()


async def test_a_reset_while_held_cuts_the_held_connection(proxy: TcpProxy) -> None:
    reader, writer = await connect(proxy)
    proxy.hold()
    writer.write(b"lost")
    await asyncio.sleep(0.05)
    proxy.reset()
    proxy.release()
    with pytest.raises(ConnectionResetError):
        await asyncio.wait_for(reader.read(10), 5)
    assert proxy.connections == 0


async def incr(client: "redis.asyncio.Redis", key: str) -> int:
    return int(await client.incr(key))


async def test_redis_through_the_proxy(redis_server: RedisProcess) -> None:
    """A Redis client sees a reset as a connection error, reconnects, and a partition
    only delays its commands."""
    proxy = TcpProxy("127.0.0.1", redis_server.port)
    await proxy.start()
    client = redis.asyncio.Redis(port=proxy.port, retry=Retry(NoBackoff(), 0))
    try:
        assert await client.set("k", "1")
        proxy.reset()
        with pytest.raises(RedisConnectionError):
            await client.get("k")
        assert await client.get("k") == b"1"
        proxy.hold()
        loop = asyncio.get_running_loop()
        began = loop.time()
        late = asyncio.create_task(incr(client, "k"))
        await asyncio.sleep(QUIET)
        assert not late.done()
        proxy.release()
        assert await late == 2
        assert loop.time() - began >= QUIET
    finally:
        await client.aclose()
        await proxy.close()
