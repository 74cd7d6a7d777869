"""Real processes for the cluster tests: a redis-server of the test's own and `parlour serve`
nodes that keep their rooms in it, each of which a test may kill, stop or start again."""

import asyncio
import contextlib
import os
import re
import shutil
import signal
import socket
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_TIMEOUT = 60.0
SERVING = re.compile(r"serving ws://127\.0\.0\.1:(\d+)/ws")


def free_port() -> int:
    """A loopback port nobody listens on now (redis-server cannot be told to pick one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class RedisProcess:
    """Debian's redis-server on a free loopback port, its data in `folder`, every write
    synced to its append-only file before it answers (as the compose file runs it)."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def command(self) -> list[str]:
        """The redis-server command line."""
        self.folder.mkdir(parents=True, exist_ok=True)
        return [
            REDIS_SERVER,
            *("--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)),
            *("--appendonly", "yes", "--appendfsync", "always", "--save", ""),
            *("--logfile", str(self.folder / "redis.log")),
        ]

    def answers(self) -> bool:
        """Whether the server answers a ping."""
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        try:
            with contextlib.suppress(redis.ConnectionError):
                return bool(client.ping())
            return False
        finally:
            client.close()

    def not_started(self) -> RuntimeError:
        log = (self.folder / "redis.log").read_text(errors="replace")
        return RuntimeError(f"redis-server did not start: {log[-2000:]}")

    async def start(self) -> None:
        """Start (or start again, on the same port and files) and wait until it answers."""
        self.process = await asyncio.create_subprocess_exec(
            *self.command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not self.answers():
            if self.process.returncode is not None or time.monotonic() > deadline:
                raise self.not_started()
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        """SIGTERM: Redis syncs its files and exits."""
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


STOP_SECONDS = 5.0
"""How long a process a test started has to stop on SIGTERM before it is killed."""
WORKER_STOP_SECONDS = 15.0
"""How long a worker asked for its count of searches has to finish those it holds."""


@dataclass
class Spawned:
    """A process a test started, and signals it alone."""

    process: asyncio.subprocess.Process

    def signal(self, signum: int) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signum)

    async def kill(self) -> None:
        self.signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self, within: float = STOP_SECONDS) -> None:
        """SIGTERM, then SIGKILL if it has not stopped `within` seconds (a test that asks
        how a node stops says so itself; a test's teardown does not wait longer)."""
        if self.process.returncode is not None:
            return
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), within)
        except TimeoutError:
            await self.kill()


@dataclass
class Node(Spawned):
    """One `parlour serve --redis` process and the port it serves on."""

    port: int


@dataclass
class Worker(Spawned):
    """One `parlour worker` process."""

    async def searches(self) -> int:
        """Stop the worker; how many searches it says it took. It may finish the searches
        it holds first (`JobWorker.close`: ten seconds at most, and two for the answers)."""
        await self.stop(within=WORKER_STOP_SECONDS)
        assert self.process.stdout is not None
        said = (await self.process.stdout.read()).decode()
        found = re.search(r"stopped after (\d+) searches", said)
        assert found is not None, f"exit {self.process.returncode}, it said: {said!r}"
        return int(found.group(1))


async def start_worker(redis_url: str, procs: int = 1, log: Path | None = None) -> Worker:
    """`parlour worker` on the cluster in `redis_url`, once it takes searches."""
    with contextlib.ExitStack() as files:
        stderr = files.enter_context(log.open("ab")) if log else asyncio.subprocess.DEVNULL
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "parlour",
            "worker",
            "--redis",
            redis_url,
            "--procs",
            str(procs),
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    assert process.stdout is not None
    first = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)).decode()
    if "taking bot searches" not in first:
        process.kill()
        await process.wait()
        raise RuntimeError(f"the worker did not start: {first!r}")
    return Worker(process)


async def start_node(redis_url: str, *args: str, log: Path | None = None) -> Node:
    """`parlour serve` on a free port as a node of the cluster in `redis_url`; its log goes
    to `log` if given."""
    with contextlib.ExitStack() as files:
        stderr = files.enter_context(log.open("ab")) if log else asyncio.subprocess.DEVNULL
        process = await _spawn(redis_url, args, stderr)
    assert process.stdout is not None
    try:
        first = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)).decode()
    except TimeoutError:
        process.kill()
        raise
    found = SERVING.search(first)
    if found is None:
        process.kill()
        await process.wait()
        raise RuntimeError(f"the node did not start: {first!r}")
    return Node(process, int(found.group(1)))


async def _spawn(redis_url: str, args: tuple[str, ...], stderr: Any) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "parlour",
        "serve",
        "--port",
        "0",
        "--redis",
        redis_url,
        "--bot-pause",
        "0",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=stderr,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


async def http_get(port: int, path: str) -> str:
    """The body of GET `path` from a node, whatever its status."""

    def fetch() -> str:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as reply:
                return str(reply.read().decode())
        except urllib.error.HTTPError as error:
            return str(error.read().decode())

    return await asyncio.to_thread(fetch)


def metric(text: str, name: str) -> float:
    """A metric's value in Prometheus text; 0 if it is not there."""
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def metric_reaching(node: Node, name: str, least: float, timeout: float) -> float:
    """The node's metric `name`, read again until it is at least `least` or `timeout`
    seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = metric(await http_get(node.port, "/metrics"), name)
        if value >= least or time.monotonic() > deadline:
            return value
        await asyncio.sleep(0.1)


async def until_health(node: Node, status: str, timeout: float = 20.0) -> str:
    """Wait until the node's /healthz answers with `status` (200 or 503); its text."""
    url = f"http://127.0.0.1:{node.port}/healthz"

    def ask() -> tuple[str, str]:
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                return str(reply.status), reply.read().decode().strip()
        except urllib.error.HTTPError as error:
            return str(error.code), error.read().decode().strip()
        except OSError as error:
            return "none", str(error)

    async with asyncio.timeout(timeout):
        while True:
            code, text = await asyncio.to_thread(ask)
            if code == status:
                return text
            await asyncio.sleep(0.1)
