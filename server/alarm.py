"""The shell's alarm for the rooms' clocks: asleep till the soonest time a clock needs
looking at (`Timekeeper.next_deadline`), woken when a sooner one comes, so that flags come
on time without ticking every room."""

import asyncio
import contextlib
import math
from collections.abc import Callable

from .timekeeping import Timekeeper


class ClockAlarm:
    """Calls `ring` at each deadline of the timekeeper's, while `may_ring` says so."""

    def __init__(
        self,
        timekeeper: Timekeeper,
        now: Callable[[], float],
        ring: Callable[[], None],
        may_ring: Callable[[], bool],
        idle: float,
    ) -> None:
        self.timekeeper = timekeeper
        self.now = now
        """Unix time, as the lobby tells it."""
        self.ring = ring
        self.may_ring = may_ring
        """Whether the rooms can be kept now (a cluster node cut off from Redis flags nobody)."""
        self.idle = idle
        """Seconds to wait before trying again while it may not ring."""
        self._moved = asyncio.Event()
        self._waiting_until = math.inf
        """The deadline (Unix time) `run` sleeps till."""

    def look(self) -> None:
        """The rooms changed: wake the alarm if a deadline now comes sooner."""
        deadline = self.timekeeper.next_deadline()
        if deadline is not None and deadline < self._waiting_until:
            self._moved.set()

    async def run(self) -> None:
        while True:
            deadline = self.timekeeper.next_deadline()
            self._waiting_until = math.inf if deadline is None else deadline
            self._moved.clear()
            delay = None if deadline is None else max(0.0, deadline - self.now())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._moved.wait(), delay)
            if not self.may_ring():
                await asyncio.sleep(self.idle)
                continue
            self.ring()
