"""A Parlour server run on an event loop of its own in a thread of the test's process, its
wall clock the test's: for page tests that turn the server's time (clocks, vacations)
while Playwright drives the page from the main thread."""

import asyncio
import threading
from collections.abc import Iterator
from typing import Final

from parlour.server import ServerConfig
from parlour.server.app import ParlourServer

SERVER_SECONDS: Final = 30
"""How long the server may take to start or stop."""


class Wall:
    """Unix seconds the test turns: the server's wall clock, which its clocks run on."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def serve_in_thread(config: ServerConfig, wall: Wall) -> Iterator[str]:
    """`config` served in a thread of this process, its wall clock `wall`: its page's
    address while the caller goes on; stopped after."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def start() -> ParlourServer:
        server = ParlourServer(config)
        server.lobby.services.wall = wall
        await server.start()
        return server

    async def stop(server: ParlourServer) -> None:
        server.close()
        await server.wait_closed()

    server = asyncio.run_coroutine_threadsafe(start(), loop).result(SERVER_SECONDS)
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        asyncio.run_coroutine_threadsafe(stop(server), loop).result(SERVER_SECONDS)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(SERVER_SECONDS)
        loop.close()
