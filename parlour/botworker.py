"""What runs inside a bot worker process: its start, and a search that sends each thought
as it comes.

It lives apart from the server package so that the fork server the workers are forked from
imports the bots and pebble alone, not the whole server: a server (or a cluster node) starts
its workers in a third of the time.
"""

import contextlib
import ctypes
import multiprocessing
import multiprocessing.context
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any, Final

import msgpack

from parlour.bots import Thought, report
from parlour.rules import State

WORKER_NICENESS: Final = 10
"""How much lower than the server's a worker's CPU priority is: bots may wait, people not."""
PR_SET_PDEATHSIG: Final = 1
PRELOADED: Final = ("__main__", __name__, "pebble.pool.process")
"""What the fork server imports once, so that no worker forked from it imports it again: the
program's main module too (`parlour` imports the whole command line), which a new process
imports before anything else."""

Think = Callable[[State[Any], str, float, int], Iterator[Thought[Any]]]
"""A bots' entry point, run in the workers: (state, level, budget, seed) to its thoughts."""
Report = dict[str, Any]
"""A thought in the game's notation (`bots.report`)."""

_outlet: tuple[socket.socket, str] | None = None
"""In a worker: the socket it sends thoughts from and the server's address."""


def worker_context() -> multiprocessing.context.BaseContext:
    """Workers forked from a fork server that has the bots imported: a new worker, at the
    start or in place of one killed past its time, is ready in milliseconds instead of after
    a fresh interpreter's imports."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOADED))
    return context


def start_worker(address: str, server: int) -> None:
    """Run first in every new worker: yield the CPU to the event loop, die with the server
    (through the fork server, which exits when the server does: a server killed outright
    takes its searches with it; a worker whose server or fork server died while it was
    starting, before it could ask to, goes at once), open the outlet."""
    global _outlet  # noqa: PLW0603 (one outlet for the life of the worker process)
    parent = os.getppid()
    os.nice(WORKER_NICENESS)
    with contextlib.suppress(OSError, AttributeError):  # Linux only; elsewhere orphans finish
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent or not _alive(server):
        os._exit(0)
    outlet = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    outlet.setblocking(False)
    _outlet = (outlet, address)


def _alive(pid: int) -> bool:
    """Whether process `pid` is still there."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def run_search(
    think: Think, state: State[Any], level: str, budget: float, seed: int, *, key: str | None
) -> tuple[Report, float]:
    """Search, send each thought for `key` (if any) as it comes; the last thought and the
    seconds the search took."""
    started = time.monotonic()
    last: Report | None = None
    for thought in think(state, level, budget, seed):
        last = report(state, thought)
        if key is not None and _outlet is not None:
            outlet, address = _outlet
            with contextlib.suppress(OSError):  # a thought may be lost, never the search
                outlet.sendto(msgpack.packb((key, last)), address)
    if last is None:
        raise RuntimeError(f"the {level} bot had no thought")
    return last, time.monotonic() - started
