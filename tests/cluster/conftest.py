"""A Redis of each test's own, and a cluster of `parlour serve` nodes on it."""

import asyncio
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
    stopped when the test ends. Each node's log is in the test's folder."""
    started: list[Node] = []

    async def start_one(*args: str) -> Node:
        log = tmp_path / f"node-{len(started) + 1}.log"
        node = await start_node(redis_server.url, *args, log=log)
        started.append(node)
        return node

    try:
        yield start_one
    finally:
        await asyncio.gather(*(node.stop() for node in started), return_exceptions=True)


@pytest.fixture
async def worker(redis_server: RedisProcess, tmp_path: Path) -> AsyncIterator[StartWorker]:
    """Start a `parlour worker` of one process on the test's cluster; every worker started
    is stopped when the test ends."""
    started: list[Worker] = []

    async def start_one() -> Worker:
        log = tmp_path / f"worker-{len(started) + 1}.log"
        one = await start_worker(redis_server.url, procs=1, log=log)
        started.append(one)
        return one

    try:
        yield start_one
    finally:
        await asyncio.gather(*(one.stop() for one in started), return_exceptions=True)
