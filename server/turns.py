"""Which search a free worker takes next, and how long it may think: sans-I/O, no clock.

A bot's move is due a room's think time after its turn began, however many turns wait.
So a search is given the time left to its deadline, and when others wait behind it, its
share of the workers' time before the earliest of theirs is due, never less than `FLOOR`.
Where a person waits, the turn counts as due half its time sooner and its share weighs
`URGENT_WEIGHT` times as much: it goes before turns where only computers play and thinks
longer, yet those still come in time, as no turn is ever passed over past half its time.
Quick levels, which answer in milliseconds whatever their budget, have a worker of their
own, so they never wait behind searches.
"""

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.rules import State

FLOOR: Final = 0.005
"""The least a search is given: every level has its first sound thought by then."""
HANDOVER: Final = 0.03
"""Seconds kept back from a deadline for the answer to reach the room."""
URGENT_LEAD: Final = 0.5
"""The share of its time by which a turn a person waits for counts as due sooner."""
URGENT_WEIGHT: Final = 3
"""How many shares of the workers' time a search a person waits for gets, to one of others."""
SHORTENED: Final = 0.9
"""A search given less than this share of its room's think time was shortened by load."""


@dataclass(frozen=True, slots=True)
class Job:
    """A search a worker is to run: a bot's turn or a person's suggestion."""

    key: str
    """Unique among the jobs of one queue; answers and thoughts name it."""
    state: State[Any]
    level: str
    budget: float
    """Seconds the search may think when nothing waits: the room's or person's setting."""
    deadline: float
    """When the answer is due, on the clock the queue is given."""
    urgent: bool
    """Whether a person waits for it (a suggestion, or a bot's move in a room with people)."""
    quick: bool
    """Whether its level answers in milliseconds whatever its budget."""
    seed: int
    watched: bool = False
    """Whether someone wants its thoughts as they come."""


@dataclass(frozen=True, slots=True)
class Dispatch:
    """A job taken from the queue, with the seconds it may think."""

    job: Job
    given: float
    waited: float
    """Seconds it spent in the queue."""

    @property
    def shortened(self) -> bool:
        """Whether load cut its thinking short of what its room asked."""
        return self.given < self.job.budget * SHORTENED


@dataclass(order=True)
class _Entry:
    rank: tuple[float, int]
    queued_at: float = field(compare=False)
    job: Job | None = field(compare=False)
    """None once dropped: heap entries are removed lazily."""


class JobQueue:
    """Jobs waiting for `workers` searching workers (and one quick lane besides)."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._heap: list[_Entry] = []
        self._entries: dict[str, _Entry] = {}
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._entries)

    def push(self, job: Job, now: float) -> None:
        """Queue a job; ValueError if one with its key is already waiting."""
        if job.key in self._entries:
            raise ValueError(f"job {job.key} is already queued")
        lead = URGENT_LEAD * job.budget if job.urgent else 0.0
        entry = _Entry((job.deadline - lead, next(self._order)), now, job)
        self._entries[job.key] = entry
        heapq.heappush(self._heap, entry)

    def drop(self, key: str) -> Job | None:
        """Take a waiting job out (its turn was played another way); None if not waiting."""
        entry = self._entries.pop(key, None)
        if entry is None:
            return None
        job, entry.job = entry.job, None
        return job

    def oldest_wait(self, now: float) -> float:
        """Seconds the longest-waiting job has waited; 0 when none waits."""
        return max((now - entry.queued_at for entry in self._entries.values()), default=0.0)

    def has_quick(self) -> bool:
        return any(entry.job is not None and entry.job.quick for entry in self._heap)

    def pop(self, now: float, *, quick_only: bool = False) -> Dispatch | None:
        """The next job for a free worker (the quick lane takes only quick ones), or None."""
        self._discard_dropped()
        if quick_only:
            waiting = [entry for entry in self._heap if entry.job is not None and entry.job.quick]
            if not waiting:
                return None
            entry = min(waiting)
            self._heap.remove(entry)
            heapq.heapify(self._heap)
        elif self._heap:
            entry = heapq.heappop(self._heap)
        else:
            return None
        job = entry.job
        assert job is not None
        del self._entries[job.key]
        return Dispatch(job, self._budget(job, now), now - entry.queued_at)

    def _budget(self, job: Job, now: float) -> float:
        """The time left to `job`'s deadline, shared with the searches that wait behind it."""
        given = min(job.budget, job.deadline - HANDOVER - now)
        behind = [
            entry.job
            for entry in self._entries.values()
            if entry.job is not None and not entry.job.quick
        ]
        if behind and not job.quick:
            due = min(other.deadline for other in behind) - HANDOVER - now
            weights = sum(_weight(other) for other in behind) + _weight(job)
            given = min(given, due * self.workers * _weight(job) / weights)
        return max(FLOOR, given)

    def _discard_dropped(self) -> None:
        while self._heap and self._heap[0].job is None:
            heapq.heappop(self._heap)


def _weight(job: Job) -> int:
    return URGENT_WEIGHT if job.urgent else 1
