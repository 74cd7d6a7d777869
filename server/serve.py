"""`parlour serve`: run a server until SIGTERM or SIGINT, then close every client with 1001;
SIGHUP reads the certificate files again."""

import asyncio
import contextlib
import logging
import re
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

import platformdirs

from parlour import __version__

from .app import ParlourServer, ServerConfig
from .reach import EVERY_ADDRESS, joined
from .routes import WEBSOCKET_PATH

log = logging.getLogger("parlour.server")

WORKER_GRACE: Final = 0.5
"""Seconds past its time a search in `parlour worker` may run before it is killed."""


def make_server(config: ServerConfig) -> ParlourServer:
    """The server shell, its rooms in this process with SQLite, or owned under leases in
    Redis by a cluster node when the configuration names a Redis: chosen here, where the
    command line is read, so the shell never imports the cluster."""
    if config.redis_url is None:
        return ParlourServer(config)
    from .cluster.node import ClusterNode  # noqa: PLC0415 (redis is loaded only for a cluster)

    return ParlourServer(config, ClusterNode)


@contextlib.asynccontextmanager
async def running_server(config: ServerConfig) -> AsyncIterator[ParlourServer]:
    """A started server (or cluster node), closed and its workers stopped on leaving."""
    server = make_server(config)
    await server.start()
    try:
        yield server
    finally:
        server.close()
        await server.wait_closed()


def data_directory(chosen: Path | None) -> Path:
    """The data directory: the one chosen, else the user's data directory for Parlour."""
    path = chosen if chosen is not None else Path(platformdirs.user_data_dir("parlour"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def addresses(host: str, port: int, *, tls: bool = False) -> tuple[str, str]:
    """The WebSocket and browser addresses to print for a server on `host`:`port`."""
    return urls(joined("127.0.0.1" if host in EVERY_ADDRESS else host, port), tls=tls)


def urls(address: str, *, tls: bool) -> tuple[str, str]:
    """The WebSocket and browser addresses of the server at `host:port`, over TLS or not."""
    secure = "s" if tls else ""
    return f"ws{secure}://{address}{WEBSOCKET_PATH}", f"http{secure}://{address}/"


def shown_url(url: str) -> str:
    """A Redis URL with any password in it hidden, for printing."""
    return re.sub(r"//([^:@/]*):[^@/]*@", r"//\1:***@", url)


async def serve(config: ServerConfig) -> None:
    """Serve until told to stop by a signal."""
    server = make_server(config)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    serving_tls = server.ssl_context is not None
    if serving_tls:
        loop.add_signal_handler(signal.SIGHUP, server.reload_tls)
    websocket_url, page_url = addresses(config.host, server.port, tls=serving_tls)
    print(f"parlour {__version__} serving {websocket_url} (browser: {page_url})", flush=True)
    for address in server.lobby.reach:
        websocket_url, page_url = urls(address, tls=server.lobby.tls)
        print(f"other machines: {websocket_url} (browser: {page_url})")
    if not server.lobby.reach:
        print("only this machine can connect (--host 0.0.0.0 lets other machines in)")
    if server.metrics_port is not None:
        metrics_at = addresses(config.host, server.metrics_port)[1]
        print(f"metrics: {metrics_at}metrics (to {', '.join(config.metrics_from)})")
    if server.mailer is not None:
        print(f"mail: sent through {server.mailer.server.shown()} from {server.mailer.sender}")
    if config.redis_url is not None:
        print(f"cluster node: rooms kept in Redis at {shown_url(config.redis_url)}", flush=True)
    else:
        print(f"data directory: {config.data_dir}", flush=True)
    await stop.wait()
    log.info("shutting down: closing every connection with 1001")
    server.close()
    await server.wait_closed()
    print("parlour server stopped", flush=True)


async def run_worker(redis_url: str, procs: int) -> None:
    """`parlour worker`: take bot searches from the cluster's Redis until told to stop.

    ConnectionError if Redis cannot be reached at the start.
    """
    from redis.exceptions import RedisError  # noqa: PLC0415

    from parlour import bots  # noqa: PLC0415 (the worker alone loads these here)

    from .cluster.connect import connect  # noqa: PLC0415 (redis is loaded only for a cluster)
    from .cluster.worker import JobWorker  # noqa: PLC0415
    from .metrics import Metrics  # noqa: PLC0415
    from .workers import BotWorkers  # noqa: PLC0415

    redis = connect(redis_url)
    try:
        await redis.ping()
    except (RedisError, OSError) as error:
        await redis.aclose()
        raise ConnectionError(f"cannot reach Redis: {error}") from None
    pool = BotWorkers(procs, bots.think, WORKER_GRACE, Metrics())
    worker = JobWorker(redis, pool)
    await pool.start()
    try:
        await worker.start()
        print(
            f"parlour {__version__} worker {worker.name}: {procs}"
            f" {'process' if procs == 1 else 'processes'} taking bot"
            f" searches from Redis at {shown_url(redis_url)}",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        log.info("stopping: answering the searches held, taking no more")
        await worker.close()
    finally:
        await pool.close()
        await redis.aclose()
    print(f"parlour worker stopped after {worker.taken} searches", flush=True)
