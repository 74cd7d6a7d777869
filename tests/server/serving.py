"""`parlour serve` started as a user starts it, in a process of its own."""

import asyncio
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
    )
