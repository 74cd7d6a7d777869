"""The bot workers: processes that choose bots' moves off the event loop, within a budget.

A turn waits for a free worker, and its budget runs from when a worker takes it up, so a
queue of turns never eats into anyone's thinking time. A worker that overruns its budget
and grace is killed and replaced, as is one that crashes; either way the turn gets a legal
fallback move, and the game goes on.
"""

import asyncio
import logging
import multiprocessing
import os
import secrets
import time
from collections.abc import Callable
from typing import Any, Final

from pebble import ProcessExpired, ProcessPool

from parlour.bots import fallback_move, ready
from parlour.rules import State

from .lobby import BotTurn
from .metrics import Metrics

log = logging.getLogger("parlour.server")

WORKER_NICENESS: Final = 10
"""How much lower than the server's a worker's CPU priority is: bots may wait, people not."""

Choose = Callable[[State[Any], str, float, int], str]
"""A bots' entry point, run in the workers: (state, level, budget, seed) to a move."""


def start_worker() -> None:
    """Run first in every new worker: it yields the CPU to the server's event loop."""
    os.nice(WORKER_NICENESS)


class BotWorkers:
    """A pool of worker processes that answer every bot turn with a move."""

    def __init__(
        self, workers: int, choose: Choose, budget: float, grace: float, metrics: Metrics
    ) -> None:
        self.workers = workers
        self.choose = choose
        self.budget = budget
        self.grace = grace
        self.metrics = metrics
        self._pool = ProcessPool(
            max_workers=workers,
            initializer=start_worker,
            context=multiprocessing.get_context("spawn"),
        )

    async def start(self) -> None:
        """Start the workers and wait until each has imported the bots."""
        warming = [asyncio.wrap_future(self._pool.schedule(ready)) for _ in range(self.workers)]
        await asyncio.gather(*warming)

    async def move(self, turn: BotTurn) -> tuple[str, int]:
        """The bot's move and the seed it chose with; a fallback if it failed or overran."""
        seed = secrets.randbits(53)
        started = time.monotonic()
        self.metrics.bot_turns_waiting.inc()
        future = self._pool.schedule(
            self.choose,
            args=(turn.state, turn.level, self.budget, seed),
            timeout=self.budget + self.grace,
        )
        try:
            move: str = await asyncio.wrap_future(future)
            return move, seed
        except TimeoutError:
            reason = "timeout"
        except ProcessExpired as error:
            log.warning("a bot worker died (exit code %s)", error.exitcode)
            reason = "crashed"
        except Exception:
            log.exception("bot %s failed in room %s", turn.level, turn.room)
            reason = "error"
        finally:
            self.metrics.bot_turns_waiting.dec()
            self.metrics.bot_seconds.observe(time.monotonic() - started)
        log.warning(
            "bot %s in room %s: %s; playing a fallback move", turn.level, turn.room, reason
        )
        self.metrics.bot_fallbacks.labels(reason).inc()
        return fallback_move(turn.state, seed), seed

    async def close(self) -> None:
        """Stop every worker, thinking or not, and wait until they are gone."""
        self._pool.stop()
        await asyncio.to_thread(self._pool.join)
