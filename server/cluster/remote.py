"""A node's searches, sent through Redis to whichever worker takes them first.

The node adds each job to its stream and waits for the answer on a channel of its own.
It waits past the deadline for the grace and for a worker that died to be replaced
(`RECLAIM_SECONDS`); then the turn gets a fallback move as a failed search does. The
first answer counts: a late one, from a worker that was thought dead, is dropped.
"""

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Final

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from ..metrics import Metrics
from ..stopping import cancel_all
from ..turns import SHORTENED, Job
from ..workers import Answer, OnThought, SearchError, Thinkers
from .jobs import MAX_JOBS, Done, JobError, pack_job, stream_of, unpack_reply
from .records import PREFIX
from .worker import RECLAIM_SECONDS, JobWorker, stream_key

log = logging.getLogger("parlour.server")

PATIENCE: Final = RECLAIM_SECONDS + 1.0
"""Seconds past a job's deadline and grace that a node waits for a worker to take it over."""


@dataclass
class Waiting:
    """A job sent to the workers, until its answer comes."""

    answer: asyncio.Future[Answer]
    on_thought: OnThought | None
    sent_at: float
    budget: float


class RemoteThinkers(Thinkers):
    """Searches run by the cluster's workers; this node's own, if it has any, among them."""

    def __init__(
        self,
        redis: Redis,
        metrics: Metrics,
        grace: float,
        own: JobWorker | None = None,
        prefix: str = PREFIX,
    ) -> None:
        self.redis = redis
        self.metrics = metrics
        self.grace = grace
        self.own = own
        self.prefix = prefix
        self.reply = f"{prefix}bots:reply:{secrets.token_hex(8)}"
        self._keys = itertools.count(1)
        self._key_prefix = secrets.token_hex(4)
        self._waiting: dict[str, Waiting] = {}
        self._pubsub: PubSub | None = None
        self._listener: asyncio.Task[None] | None = None

    def new_key(self) -> str:
        return f"{self._key_prefix}:{next(self._keys)}"

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(self.reply)
        self._listener = asyncio.create_task(self._listen_forever())
        if self.own is not None:
            await self.own.pool.start()
            await self.own.start()

    async def close(self) -> None:
        if self.own is not None:
            await self.own.close(patience=0.0)
            await self.own.pool.close()
        if self._listener is not None:
            await cancel_all([self._listener])
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]

    def waiting(self, now: float) -> tuple[int, float]:
        oldest = max((now - each.sent_at for each in self._waiting.values()), default=0.0)
        return len(self._waiting), oldest

    async def think(self, job: Job, on_thought: OnThought | None = None) -> Answer:
        now = time.monotonic()
        left = job.deadline - now
        watched = Job(
            job.key,
            job.state,
            job.level,
            job.budget,
            job.deadline,
            urgent=job.urgent,
            quick=job.quick,
            seed=job.seed,
            watched=on_thought is not None,
        )
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting[job.key] = Waiting(answer, on_thought, now, job.budget)
        try:
            await self.redis.xadd(
                stream_key(self.prefix, stream_of(job)),
                {"job": pack_job(watched, self.reply, left)},
                maxlen=MAX_JOBS,
                approximate=True,
            )
            async with asyncio.timeout(max(0.0, left) + self.grace + PATIENCE):
                return await answer
        except TimeoutError:
            raise SearchError("timeout") from None
        except (RedisError, OSError) as error:
            log.warning("cannot send a search to the workers: %s", error)
            raise SearchError("error") from None
        finally:
            self._waiting.pop(job.key, None)

    async def _listen_forever(self) -> None:
        """Hand each answer and thought from the workers to the search waiting for it."""
        while True:
            pubsub = self._pubsub
            assert pubsub is not None
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except (RedisError, OSError):
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                reply = unpack_reply(message["data"])
            except JobError as error:
                log.warning("dropped a reply from a worker: %s", error)
                continue
            waiting = self._waiting.get(reply.key)
            if waiting is None or waiting.answer.done():
                if isinstance(reply, Done):  # answered already, or given up on
                    self.metrics.bot_late_answers.inc()
                continue
            if isinstance(reply, Done):
                self._answered(waiting, reply)
            elif waiting.on_thought is not None:
                waiting.on_thought(reply.thought)

    def _answered(self, waiting: Waiting, done: Done) -> None:
        if done.found is None:
            waiting.answer.set_exception(SearchError(done.failure or "error"))
            return
        travel = max(0.0, time.monotonic() - waiting.sent_at - done.held)
        self.metrics.bot_used_seconds.observe(done.used)
        self.metrics.bot_given_seconds.observe(done.given)
        self.metrics.bot_travel_seconds.observe(travel)
        if done.given < waiting.budget * SHORTENED:
            self.metrics.bot_shortened.inc()
        waiting.answer.set_result(Answer(done.found, done.given, done.used, travel))
