"""The bot workers: processes that search for moves off the event loop, on time.

A search's answer is due its budget after its turn began, however many wait: the job
queue (`turns.JobQueue`) decides which search a free worker takes and how long it may
think. One worker more than asked for takes only quick levels, so they never wait behind
long searches. A worker that overruns its time and grace is killed and replaced, as is
one that crashes; a bot's turn then gets a legal fallback move, and the game goes on.
Workers are forked from a fork server that has the bots imported (`parlour.botworker`),
so a replacement is ready in milliseconds, not after a fresh interpreter's imports.

While a worker searches it sends each new thought back at once, one datagram each on a
Unix socket, so that people who asked can watch the computer think. Datagrams keep
thoughts whole even when a worker is killed mid-send, and the event loop reads them
without a thread.
"""

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
from pebble import ProcessExpired, ProcessPool

from parlour.bots import UnknownLevelError, fallback_move, level_named, ready
from parlour.botworker import Report, Think, run_search, start_worker, worker_context
from parlour.rules import State

from .metrics import Metrics
from .thinking import BotTurn, SuggestionAsked
from .turns import Dispatch, Job, JobQueue

log = logging.getLogger("parlour.server")

OnThought = Callable[[Report], None]


def is_quick(state: State[Any], level: str) -> bool:
    """Whether the level answers within milliseconds whatever its budget."""
    try:
        return level_named(state.game.name, level).quick
    except UnknownLevelError:
        return False


def turn_job(key: str, turn: BotTurn, seed: int) -> Job:
    """The search for a bot's move, due the room's think time after the turn began."""
    return Job(
        key,
        turn.state,
        turn.level,
        turn.budget,
        turn.began + turn.budget,
        urgent=turn.waited_on,
        quick=is_quick(turn.state, turn.level),
        seed=seed,
    )


def suggestion_job(key: str, asked: SuggestionAsked, seed: int) -> Job:
    """The search for a person's suggestion: a person waits for it."""
    return Job(
        key,
        asked.state,
        asked.level,
        asked.budget,
        asked.asked_at + asked.budget,
        urgent=True,
        quick=is_quick(asked.state, asked.level),
        seed=seed,
    )


class SearchError(Exception):
    """A search gave no answer: `reason` is timeout, crashed or error."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Answer:
    """A search's last thought, with the seconds it was given and took."""

    found: Report
    given: float
    used: float
    travel: float = 0.0
    """Seconds it spent on its way to a worker elsewhere and back, if it went."""


class Thinkers:
    """Whatever runs searches for a server: its own worker processes, or workers elsewhere."""

    metrics: Metrics

    async def think(self, job: Job, on_thought: OnThought | None = None) -> Answer:
        """The job's answer; `on_thought` hears each thought as it comes. SearchError if
        the search failed or overran."""
        raise NotImplementedError

    async def start(self) -> None:
        """Be ready to take searches."""

    async def close(self) -> None:
        """Stop, dropping searches not yet answered."""

    def waiting(self, now: float) -> tuple[int, float]:
        """Searches waiting for a worker, and the longest wait in seconds."""
        return 0, 0.0

    async def move(self, turn: BotTurn, on_thought: OnThought | None = None) -> tuple[str, int]:
        """The bot's move and the seed it chose with; a fallback if it failed or overran."""
        seed = secrets.randbits(53)
        started = time.monotonic()
        self.metrics.bot_turns_waiting.inc()
        try:
            answer = await self.think(turn_job(self.new_key(), turn, seed), on_thought)
            return str(answer.found["move"]), seed
        except SearchError as failure:
            reason = failure.reason
        finally:
            self.metrics.bot_turns_waiting.dec()
            self.metrics.bot_seconds.observe(time.monotonic() - started)
        log.warning(
            "bot %s in room %s: %s; playing a fallback move", turn.level, turn.room, reason
        )
        self.metrics.bot_fallbacks.labels(reason).inc()
        return fallback_move(turn.state, seed), seed

    async def suggest(self, asked: SuggestionAsked, on_thought: OnThought) -> Report | None:
        """The suggestion's search, as the strongest bot would make it; None if it failed."""
        job = suggestion_job(self.new_key(), asked, secrets.randbits(53))
        try:
            return (await self.think(job, on_thought)).found
        except SearchError:
            return None

    def new_key(self) -> str:
        raise NotImplementedError


class BotWorkers(Thinkers):
    """A pool of worker processes that search for bots and for people's suggestions."""

    def __init__(self, workers: int, think: Think, grace: float, metrics: Metrics) -> None:
        self.workers = workers
        self.think_entry = think
        self.grace = grace
        self.metrics = metrics
        self.queue = JobQueue(workers)
        self._folder = tempfile.TemporaryDirectory(prefix="parlour-")
        self._address = str(Path(self._folder.name) / "thoughts")
        self._inlet = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._inlet.bind(self._address)
        self._inlet.setblocking(False)
        self._keys = itertools.count(1)
        self._listeners: dict[str, OnThought] = {}
        self._answers: dict[str, asyncio.Future[Answer]] = {}
        self._running = 0
        self._searching = 0
        """Jobs running that are not quick: at most `workers`, so the quick lane stays free."""
        self._pool = ProcessPool(
            max_workers=workers + 1,
            initializer=start_worker,
            initargs=(self._address, os.getpid()),
            context=worker_context(),
        )

    def new_key(self) -> str:
        return str(next(self._keys))

    async def start(self) -> None:
        """Start the workers and wait until each has imported the bots."""
        asyncio.get_running_loop().add_reader(self._inlet.fileno(), self._receive)
        warming = [
            asyncio.wrap_future(self._pool.schedule(ready)) for _ in range(self.workers + 1)
        ]
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
                listener = self._listeners.get(key)
            except (ValueError, TypeError):
                log.warning("a worker sent a thought that could not be read")
                continue
            if listener is not None:
                listener(found)

    def waiting(self, now: float) -> tuple[int, float]:
        return len(self.queue), self.queue.oldest_wait(now)

    async def think(self, job: Job, on_thought: OnThought | None = None) -> Answer:
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._answers[job.key] = answer
        if on_thought is not None:
            self._listeners[job.key] = on_thought
        self.queue.push(job, time.monotonic())
        self._dispatch()
        try:
            return await answer
        finally:
            self._listeners.pop(job.key, None)
            if self._answers.pop(job.key, None) is not None:
                self.queue.drop(job.key)

    def _dispatch(self) -> None:
        """Give free workers the jobs next in line; quick ones may also take the quick lane."""
        now = time.monotonic()
        while self._running < self.workers + 1 and self.queue:
            quick_only = self._searching >= self.workers
            if quick_only and not self.queue.has_quick():
                return
            dispatch = self.queue.pop(now, quick_only=quick_only)
            if dispatch is None:
                return
            self._start(dispatch)

    def _start(self, dispatch: Dispatch) -> None:
        job = dispatch.job
        self._running += 1
        self._searching += not job.quick
        self.metrics.observe_dispatch(dispatch)
        watched = job.key if job.key in self._listeners else None
        future = self._pool.schedule(
            run_search,
            args=(self.think_entry, job.state, job.level, dispatch.given, job.seed),
            kwargs={"key": watched},
            timeout=dispatch.given + self.grace,
        )
        loop = asyncio.get_running_loop()

        def finished(done: "Future[tuple[Report, float]]") -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed first
                loop.call_soon_threadsafe(self._finished, dispatch, done)

        future.add_done_callback(finished)

    def _finished(self, dispatch: Dispatch, done: "Future[tuple[Report, float]]") -> None:
        """A worker is free again: answer its job and give it the next."""
        job = dispatch.job
        self._running -= 1
        self._searching -= not job.quick
        answer = self._answers.pop(job.key, None)
        self._dispatch()
        if answer is None or answer.done():
            return
        try:
            found, used = done.result()
        except TimeoutError:
            answer.set_exception(SearchError("timeout"))
        except ProcessExpired as error:
            log.warning("a bot worker died (exit code %s)", error.exitcode)
            answer.set_exception(SearchError("crashed"))
        except Exception:
            log.exception("a %s search failed", job.level)
            answer.set_exception(SearchError("error"))
        else:
            self.metrics.bot_used_seconds.observe(used)
            answer.set_result(Answer(found, dispatch.given, used))

    async def close(self) -> None:
        """Stop every worker, thinking or not, and wait until they are gone."""
        with contextlib.suppress(RuntimeError):  # the loop may be gone
            asyncio.get_running_loop().remove_reader(self._inlet.fileno())
        self._pool.stop()
        await asyncio.to_thread(self._pool.join)
        self._inlet.close()
        self._folder.cleanup()
