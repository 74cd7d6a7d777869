"""`parlour serve` started as a user starts it, in a process of its own."""

import asyncio
import os
import signal
import sys


async def spawn_serve(
    *args: str, stderr: int = asyncio.subprocess.PIPE
) -> asyncio.subprocess.Process:
    """`python -m parlour serve ARGS`, its output piped to the test."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "parlour",
        "serve",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=stderr,
        start_new_session=True,
    )


def kill_all(process: asyncio.subprocess.Process) -> None:
    """SIGKILL the server and every process it started (its bot workers, one of which may
    still be starting, before it would die with the server): all the test started."""
    os.killpg(process.pid, signal.SIGKILL)
