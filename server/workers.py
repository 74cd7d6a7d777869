"""The bot workers: processes that search for moves off the event loop, within a budget.

A search waits for a free worker, and its budget runs from when a worker takes it up, so a
queue of searches never eats into anyone's thinking time. A worker that overruns its
budget and grace is killed and replaced, as is one that crashes. A bot's turn then gets a
legal fallback move, and the game goes on.

While a worker searches it sends each new thought back at once, one datagram each on a
Unix socket, so that people who asked can watch the computer think. Datagrams keep
thoughts whole even when a worker is killed mid-send, and the event loop reads them
without a thread.
"""

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import secrets
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import msgpack
from pebble import ProcessExpired, ProcessPool

from parlour.bots import Thought, fallback_move, ready, report
from parlour.rules import State

from .lobby import BotTurn
from .metrics import Metrics

log = logging.getLogger("parlour.server")

WORKER_NICENESS: Final = 10
"""How much lower than the server's a worker's CPU priority is: bots may wait, people not."""

Think = Callable[[State[Any], str, float, int], Iterator[Thought[Any]]]
"""A bots' entry point, run in the workers: (state, level, budget, seed) to its thoughts."""
Report = dict[str, Any]
"""A thought in the game's notation (`bots.report`)."""
OnThought = Callable[[Report], None]

_outlet: tuple[socket.socket, str] | None = None
"""In a worker: the socket it sends thoughts from and the server's address."""


def start_worker(address: str) -> None:
    """Run first in every new worker: yield the CPU to the event loop, open the outlet."""
    global _outlet  # noqa: PLW0603 (one outlet for the life of the worker process)
    os.nice(WORKER_NICENESS)
    outlet = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    outlet.setblocking(False)
    _outlet = (outlet, address)


def run_search(
    think: Think, state: State[Any], level: str, budget: float, seed: int, *, key: int | None
) -> Report:
    """In a worker: search, send each thought for `key` (if any) as it comes, return the last."""
    last: Report | None = None
    for thought in think(state, level, budget, seed):
        last = report(state, thought)
        if key is not None and _outlet is not None:
            outlet, address = _outlet
            with contextlib.suppress(OSError):  # a thought may be lost, never the search
                outlet.sendto(msgpack.packb((key, last)), address)
    if last is None:
        raise RuntimeError(f"the {level} bot had no thought")
    return last


class SearchError(Exception):
    """A search gave no answer: `reason` is timeout, crashed or error."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BotWorkers:
    """A pool of worker processes that search for bots and for people's suggestions."""

    def __init__(self, workers: int, think: Think, grace: float, metrics: Metrics) -> None:
        self.workers = workers
        self.think = think
        self.grace = grace
        self.metrics = metrics
        self._folder = tempfile.TemporaryDirectory(prefix="parlour-")
        self._address = str(Path(self._folder.name) / "thoughts")
        self._inlet = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._inlet.bind(self._address)
        self._inlet.setblocking(False)
        self._keys = itertools.count(1)
        self._listeners: dict[int, OnThought] = {}
        self._pool = ProcessPool(
            max_workers=workers,
            initializer=start_worker,
            initargs=(self._address,),
            context=multiprocessing.get_context("spawn"),
        )

    async def start(self) -> None:
        """Start the workers and wait until each has imported the bots."""
        asyncio.get_running_loop().add_reader(self._inlet.fileno(), self._receive)
        warming = [asyncio.wrap_future(self._pool.schedule(ready)) for _ in range(self.workers)]
        await asyncio.gather(*warming)

    def _receive(self) -> None:
        """Hand every thought waiting on the socket to whoever listens for its search."""
        while True:
            try:
                datagram = self._inlet.recv(1 << 16)
            except BlockingIOError:
                return
            try:
                key, found = msgpack.unpackb(datagram)
            except (ValueError, TypeError):
                log.warning("a worker sent a thought that could not be read")
                continue
            listener = self._listeners.get(key)
            if listener is not None:
                listener(found)

    async def search(
        self,
        state: State[Any],
        level: str,
        budget: float,
        seed: int,
        on_thought: OnThought | None = None,
    ) -> Report:
        """The search's last thought; `on_thought` hears each as it comes. SearchError if
        the search fails or overruns its budget and the grace."""
        key = next(self._keys)
        if on_thought is not None:
            self._listeners[key] = on_thought
        started = time.monotonic()
        self.metrics.bot_turns_waiting.inc()
        future = self._pool.schedule(
            run_search,
            args=(self.think, state, level, budget, seed),
            kwargs={"key": key if on_thought else None},
            timeout=budget + self.grace,
        )
        try:
            found: Report = await asyncio.wrap_future(future)
            return found
        except TimeoutError:
            raise SearchError("timeout") from None
        except ProcessExpired as error:
            log.warning("a bot worker died (exit code %s)", error.exitcode)
            raise SearchError("crashed") from None
        except Exception:
            log.exception("a %s search failed", level)
            raise SearchError("error") from None
        finally:
            self._listeners.pop(key, None)
            self.metrics.bot_turns_waiting.dec()
            self.metrics.bot_seconds.observe(time.monotonic() - started)

    async def move(self, turn: BotTurn, on_thought: OnThought | None = None) -> tuple[str, int]:
        """The bot's move and the seed it chose with; a fallback if it failed or overran."""
        seed = secrets.randbits(53)
        try:
            found = await self.search(turn.state, turn.level, turn.budget, seed, on_thought)
            return str(found["move"]), seed
        except SearchError as failure:
            reason = failure.reason
        log.warning(
            "bot %s in room %s: %s; playing a fallback move", turn.level, turn.room, reason
        )
        self.metrics.bot_fallbacks.labels(reason).inc()
        return fallback_move(turn.state, seed), seed

    async def close(self) -> None:
        """Stop every worker, thinking or not, and wait until they are gone."""
        with contextlib.suppress(RuntimeError):  # the loop may be gone
            asyncio.get_running_loop().remove_reader(self._inlet.fileno())
        self._pool.stop()
        await asyncio.to_thread(self._pool.join)
        self._inlet.close()
        self._folder.cleanup()
