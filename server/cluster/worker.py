"""A worker of the cluster: takes searches from Redis for its processes, answers them.

`parlour worker` runs one on any machine, and a node with worker processes of its own runs
one beside its rooms. Jobs are read from the streams (`jobs`) by a consumer group, so
each is taken by one worker; a worker takes only as many as it has room for, with a few
more to share its time among (`PREFETCH`). While it holds a job it tells Redis so twice a
second; a job nobody has told of for `RECLAIM_SECONDS` belonged to a worker that died or
stopped, and the first worker with room takes it over and runs it with whatever time is
left. Answers, and thoughts as they come, go to the channel the job names, in order.
"""

import asyncio
import contextlib
import functools
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import RedisError, ResponseError

from ..stopping import cancel_all
from ..workers import BotWorkers, SearchError
from .jobs import GROUP, STREAMS, Done, Heard, JobError, Posted, pack_done, pack_heard, unpack_job
from .records import PREFIX

log = logging.getLogger("parlour.worker")

PREFETCH: Final = 2
"""Jobs a worker holds per process at most, running or queued, so it can share out time."""
KEEP_SECONDS: Final = 0.5
"""How often a worker tells Redis it still holds its jobs, and looks for abandoned ones."""
RECLAIM_SECONDS: Final = 1.5
"""How long a held job may go untold of before another worker takes it over."""
STALE_SECONDS: Final = 30.0
"""How long past its deadline a job is still worth running: after that nobody waits."""
BLOCK_MS: Final = 1000
CLOCK_SECONDS: Final = 10.0
"""How often a worker measures its clock against Redis's."""
RETRY_SECONDS: Final = 0.5


@dataclass(frozen=True, slots=True)
class Publish:
    """A thought or answer for the channel its job named."""

    channel: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Finish:
    """A job done with: its answer sent (if any), then the job out of its stream."""

    stream: str
    entry_id: bytes
    answer: Publish | None


Reply = Publish | Finish


def stream_key(prefix: str, name: str) -> str:
    return f"{prefix}bots:{name}"


class JobWorker:
    """Takes jobs from the cluster's streams for a pool of processes, and answers them."""

    def __init__(self, redis: Redis, pool: BotWorkers, prefix: str = PREFIX) -> None:
        self.redis = redis
        self.pool = pool
        self.prefix = prefix
        self.name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.held: dict[str, dict[bytes, str]] = {name: {} for name in STREAMS}
        """The jobs this worker holds, by stream: entry id to job key."""
        self._room = {False: asyncio.Event(), True: asyncio.Event()}
        """Set while there is room for searches (False) or for quick levels (True)."""
        self._outstanding = {False: 0, True: 0}
        self._clock_offset = 0.0
        """Redis's clock less this machine's, in seconds."""
        self._replies: asyncio.Queue[Reply] = asyncio.Queue()
        self._ends: asyncio.Queue[Finish] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        self.taken = 0
        self.reclaimed = 0

    async def start(self) -> None:
        """Join the consumer group of every stream and start taking jobs."""
        for name in STREAMS:
            with contextlib.suppress(ResponseError):  # BUSYGROUP: made already
                await self.redis.xgroup_create(
                    stream_key(self.prefix, name), GROUP, id="0", mkstream=True
                )
        await self._measure_clock()
        self._update_room()
        self._tasks = [
            asyncio.create_task(self._take_forever(quick=False)),
            asyncio.create_task(self._take_forever(quick=True)),
            asyncio.create_task(self._keep_forever()),
            asyncio.create_task(self._reply_forever()),
            asyncio.create_task(self._end_forever()),
        ]

    async def close(self, patience: float = 10.0) -> None:
        """Take no more jobs, answer those held (for `patience` seconds at most), then stop."""
        takers, self._tasks = self._tasks[:2], self._tasks[2:]
        await cancel_all(takers)
        if self._running:
            await asyncio.wait(self._running, timeout=patience)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                await self._replies.join()
                await self._ends.join()
        await cancel_all([*self._tasks, *self._running])

    # Taking jobs.

    def _limit(self, quick: bool) -> int:
        return PREFETCH * (1 if quick else self.pool.workers)

    def _update_room(self) -> None:
        for quick, room in self._room.items():
            if self._outstanding[quick] < self._limit(quick):
                room.set()
            else:
                room.clear()

    async def _take_forever(self, *, quick: bool) -> None:
        """Read new jobs from the streams this lane runs whenever it has room for them."""
        names = ("quick",) if quick else ("urgent", "others")
        streams: dict[Any, Any] = {stream_key(self.prefix, name): ">" for name in names}
        while True:
            await self._room[quick].wait()
            room = self._limit(quick) - self._outstanding[quick]
            try:
                found: Any = await self.redis.xreadgroup(
                    GROUP, self.name, streams, count=max(1, room), block=BLOCK_MS
                )
            except (RedisError, OSError) as error:
                log.warning("cannot read jobs from Redis: %s", error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            for stream, entries in found or ():
                for entry_id, fields in entries:
                    self._take(_name_of(stream), entry_id, fields)

    def _take(self, name: str, entry_id: bytes, fields: dict[bytes, bytes] | None) -> None:
        """Start on one job read from a stream; drop it if it is unreadable or stale."""
        age = self._age(entry_id)
        try:
            if not fields:
                raise JobError("the job's entry is empty")
            posted = unpack_job(fields[b"job"], lambda left: time.monotonic() + left - age)
        except (JobError, KeyError) as error:
            log.warning("dropped job %r: %s", entry_id, error)
            self._finish(name, entry_id, None)
            return
        if age > posted.left + STALE_SECONDS:
            log.info("dropped job %s: nobody waits for it any more", posted.job.key)
            self._finish(name, entry_id, None)
            return
        self.taken += 1
        quick = posted.job.quick
        self.held[name][entry_id] = posted.job.key
        self._outstanding[quick] += 1
        self._update_room()
        task = asyncio.create_task(self._run(name, entry_id, posted))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run(self, name: str, entry_id: bytes, posted: Posted) -> None:
        job = posted.job
        taken = time.monotonic()

        def heard(thought: dict[str, Any]) -> None:
            self._replies.put_nowait(Publish(posted.reply, pack_heard(Heard(job.key, thought))))

        try:
            answer = await self.pool.think(job, heard if job.watched else None)
            held = time.monotonic() - taken
            done = Done(job.key, answer.found, None, answer.given, answer.used, held)
        except SearchError as failure:
            done = Done(job.key, None, failure.reason, held=time.monotonic() - taken)
        finally:
            self.held[name].pop(entry_id, None)
            self._outstanding[job.quick] -= 1
            self._update_room()
        self._finish(name, entry_id, Publish(posted.reply, pack_done(done)))

    def _finish(self, name: str, entry_id: bytes, reply: Publish | None) -> None:
        """Send the answer (if any), then take the job out of its stream for good."""
        self._replies.put_nowait(Finish(name, entry_id, reply))

    async def _reply_forever(self) -> None:
        """Send thoughts and answers in the order they came, a batch per round trip; then
        hand the jobs answered to be taken out of their streams.

        Publishing writes nothing, so an answer does not wait for Redis to sync its files
        to disk, as it would in one round trip with the writes that end its job.
        """
        while True:
            batch = [await self._replies.get()]
            while not self._replies.empty():
                batch.append(self._replies.get_nowait())
            sent = [each if isinstance(each, Publish) else each.answer for each in batch]
            await self._send_until_taken(functools.partial(_publish_all, sent=sent))
            for each in batch:
                if isinstance(each, Finish):
                    self._ends.put_nowait(each)
                self._replies.task_done()

    async def _end_forever(self) -> None:
        """Take answered jobs out of their streams, a batch per round trip."""
        while True:
            batch = [await self._ends.get()]
            while not self._ends.empty():
                batch.append(self._ends.get_nowait())
            await self._send_until_taken(functools.partial(self._end_all, batch=batch))
            for _ in batch:
                self._ends.task_done()

    def _end_all(self, pipe: Pipeline, batch: list[Finish]) -> None:
        for each in batch:
            stream = stream_key(self.prefix, each.stream)
            pipe.xack(stream, GROUP, each.entry_id)
            pipe.xdel(stream, each.entry_id)

    async def _send_until_taken(self, fill: Callable[[Pipeline], None]) -> None:
        """Send until Redis takes it: an answer lost is a turn played by a fallback."""
        while True:
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    fill(pipe)
                    await pipe.execute()
                return
            except (RedisError, OSError) as error:
                log.warning("cannot answer through Redis: %s", error)
                await asyncio.sleep(RETRY_SECONDS)

    # Holding and taking over.

    async def _keep_forever(self) -> None:
        """Tell Redis of the jobs held, take over abandoned ones, keep the clock right."""
        measured = time.monotonic()
        while True:
            await asyncio.sleep(KEEP_SECONDS)
            try:
                await self._keep()
                await self._reclaim()
                if time.monotonic() - measured > CLOCK_SECONDS:
                    await self._measure_clock()
                    measured = time.monotonic()
            except (RedisError, OSError) as error:
                log.warning("cannot keep jobs in Redis: %s", error)

    async def _keep(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for name, held in self.held.items():
                if held:
                    stream = stream_key(self.prefix, name)
                    pipe.xclaim(stream, GROUP, self.name, 0, list(held), justid=True)
            await pipe.execute()

    async def _reclaim(self) -> None:
        for name in STREAMS:
            quick = name == "quick"
            room = self._limit(quick) - self._outstanding[quick]
            if room <= 0:
                continue
            stream = stream_key(self.prefix, name)
            reply = await self.redis.xautoclaim(
                stream, GROUP, self.name, round(RECLAIM_SECONDS * 1000), "0-0", count=room
            )
            for entry_id, fields in reply[1]:
                if entry_id in self.held[name]:
                    continue
                log.info("took over job %r from a worker that went silent", entry_id)
                self.reclaimed += 1
                self._take(name, entry_id, fields)

    # Time.

    async def _measure_clock(self) -> None:
        before = time.time()
        seconds, micros = await self.redis.time()
        after = time.time()
        self._clock_offset = seconds + micros / 1e6 - (before + after) / 2

    def _age(self, entry_id: bytes) -> float:
        """Seconds since the entry was added to its stream, by Redis's clock."""
        added = int(entry_id.split(b"-", 1)[0]) / 1000
        return max(0.0, time.time() + self._clock_offset - added)


def _publish_all(pipe: Pipeline, sent: list[Publish | None]) -> None:
    for each in sent:
        if each is not None:
            pipe.publish(each.channel, each.data)


def _name_of(stream: bytes | str) -> str:
    text = stream.decode() if isinstance(stream, bytes) else stream
    return text.rsplit(":", 1)[1]
