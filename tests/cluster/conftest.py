"""A Redis of each test's own, and a cluster of `parlour serve` nodes on it."""

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from .processes import REDIS_SERVER, Node, RedisProcess, Worker, start_node, start_worker

StartNode = Callable[..., Awaitable[Node]]
StartWorker = Callable[[], Awaitable[Worker]]


@pytest.fixture
async def redis_server(tmp_path: Path) -> AsyncIterator[RedisProcess]:
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"{REDIS_SERVER} is missing: install Debian's redis-server package")
    server = RedisProcess(tmp_path / "redis")
    await server.start()
    try:
        yield server
    finally:
        await server.kill()


@pytest.fixture
async def start(redis_server: RedisProcess, tmp_path: Path) -> AsyncIterator[StartNode]:
    """Start a node of the test's cluster (`start("--lease", "2")`); every node started is
    stopped when the test ends. Each node's log is in the test's folder, numbered in the
    order the nodes were asked for (several may start at once, see `start_nodes`)."""
    started: list[Node] = []
    numbers = itertools.count(1)

    async def start_one(*args: str) -> Node:
        log = tmp_path / f"node-{next(numbers)}.log"
        node = await start_node(redis_server.url, *args, log=log)
        started.append(node)
        return node

    try:
        yield start_one
    finally:
        await asyncio.gather(*(node.stop() for node in started), return_exceptions=True)


async def start_nodes(start: StartNode, count: int, *args: str) -> list[Node]:
    """`count` nodes of the test's cluster, started at once, each with `args`."""
    return list(await asyncio.gather(*(start(*args) for _ in range(count))))


@pytest.fixture
async def worker(redis_server: RedisProcess, tmp_path: Path) -> AsyncIterator[StartWorker]:
    """Start a `parlour worker` of one process on the test's cluster; every worker started
    is stopped when the test ends. Several may start at once."""
    started: list[Worker] = []
    numbers = itertools.count(1)

    async def start_one() -> Worker:
        log = tmp_path / f"worker-{next(numbers)}.log"
        one = await start_worker(redis_server.url, procs=1, log=log)
        started.append(one)
        return one

    try:
        yield start_one
    finally:
        await asyncio.gather(*(one.stop() for one in started), return_exceptions=True)
