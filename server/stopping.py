"""Stopping background tasks for good: a library may swallow a cancellation that comes
mid-command (redis-py does, and the task then runs on as if never told), so a task is
cancelled again for as long as it goes on, up to a bound."""

import asyncio
import time
from collections.abc import Collection
from typing import Any, Final

STOP_SECONDS: Final = 5.0
"""How long a stopping server or worker waits for its background tasks to end."""
CANCEL_AGAIN_SECONDS: Final = 0.2
"""Seconds between cancelling a task that goes on and cancelling it again."""


async def cancel_all(tasks: Collection[asyncio.Task[Any]], within: float = STOP_SECONDS) -> int:
    """Cancel `tasks` (a collection that may change meanwhile), again while any goes on,
    for `within` seconds at most; how many would not stop."""
    deadline = time.monotonic() + within
    running = [task for task in tasks if not task.done()]
    while running and time.monotonic() < deadline:
        for task in running:
            task.cancel()
        await asyncio.wait(running, timeout=CANCEL_AGAIN_SECONDS)
        running = [task for task in tasks if not task.done()]
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: a task that failed as it stopped is not news
    return len(running)
