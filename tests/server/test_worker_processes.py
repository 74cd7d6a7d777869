"""The bot workers die with their server: they are forked from a fork server of the
server's own, and a server killed outright, with no chance to stop them, leaves no process
of its behind."""

import asyncio
import re
import signal
import time
from pathlib import Path

from .serving import kill_all, spawn_serve

START_TIMEOUT = 60.0
GONE_TIMEOUT = 10.0


def session_of(pid: int) -> dict[int, str]:
    """Every live process in the session `pid` leads, but `pid`, with its command line."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue  # gone while being read
        state, session = fields[0], int(fields[3])
        member = int(stat.parent.name)
        if session == pid and member != pid and state != "Z":
            found[member] = command
    return found


async def test_a_server_killed_outright_leaves_no_worker_behind(tmp_path: Path) -> None:
    args = ("--port", "0", "--bot-workers", "2", "--data-dir", str(tmp_path))
    process = await spawn_serve(*args, stderr=asyncio.subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)).decode()
        assert re.search(r"serving ws://127\.0\.0\.1:\d+/ws", first), first
        started = session_of(process.pid)
        forked = [pid for pid, command in started.items() if "forkserver" in command]
        assert len(forked) == 1 + 3, f"the fork server and the 2 + 1 workers it forked: {started}"

        process.send_signal(signal.SIGKILL)
        await process.wait()
        deadline = time.monotonic() + GONE_TIMEOUT
        while session_of(process.pid) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert session_of(process.pid) == {}
    finally:
        if session_of(process.pid):
            kill_all(process)
