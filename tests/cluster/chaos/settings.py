"""What a chaos run plays, how hard it pushes, and which faults it injects in what order."""

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Fault(StrEnum):
    """The faults a round may inject."""

    NODE_KILL = "node kill"
    """SIGKILL a node; a new one is started in its place before the next round."""
    NODE_PAUSE = "node pause"
    """SIGSTOP a node for a while (twice the lease by default), then SIGCONT."""
    REDIS_KILL = "redis kill"
    """SIGKILL Redis, then start it again from its append-only file on the same port."""
    PROXY_RESET = "proxy reset"
    """Reset every connection between one node and Redis."""
    BLACKHOLE = "blackhole"
    """Let nothing pass between one node and Redis for a while, then deliver it all."""


KINDS: Final = tuple(Fault)
CALM: Final = "calm"
"""What happens outside every fault's window is counted under this name."""


@dataclass(frozen=True)
class Settings:
    """What a chaos run plays and how hard it pushes."""

    nodes: int = 3
    lease: float = 3.0
    othello_rooms: int = 10
    tribolo_rooms: int = 2
    seed: int = 1
    bot_workers: int = 1
    """Bot processes on each node."""
    pace: tuple[float, float] = (0.15, 0.35)
    """Seconds a person waits on their turn before moving, drawn from this range."""
    calm: tuple[float, float] = (1.5, 3.0)
    """Seconds of play before each fault, drawn from this range."""
    settle: float = 3.0
    """Seconds past the bound that a round waits for rooms to move again."""
    blackhole_seconds: float = 5.0
    pause: float | None = None
    """Seconds a paused node stays paused; None: twice the lease."""
    redis_down: tuple[float, float] = (1.5, 3.0)
    tail: float = 2.0
    """Seconds of play after the last round, before the final views are read."""
    final_timeout: float = 15.0
    """How long reading a room's final view may take (`unavailable`, `no_such_room`)."""
    clock: tuple[int, int] | None = (300, 2)
    """Each room's live clock: base seconds and increment a move (None: no clock). Long
    enough that nobody runs out of time in a run: a flag is a clock kept wrong."""
    request_timeout: float | None = None
    """Seconds a request may go unanswered before it counts as `no answer`; default the
    failover bound."""

    @property
    def bound(self) -> float:
        """How soon every room must move again after a fault: the lease and 2 s more."""
        return self.lease + 2.0

    @property
    def timeout(self) -> float:
        return self.request_timeout if self.request_timeout is not None else self.bound

    @property
    def time_control(self) -> dict[str, object]:
        """The rooms' `time_control`."""
        if self.clock is None:
            return {"kind": "none"}
        return {"kind": "live", "base_s": self.clock[0], "increment_s": self.clock[1]}

    @property
    def pause_seconds(self) -> float:
        return 2 * self.lease if self.pause is None else self.pause


def schedule(rounds: int, rng: random.Random) -> list[Fault]:
    """`rounds` fault kinds: every kind once in a shuffled order, then again, and so on."""
    kinds: list[Fault] = []
    while len(kinds) < rounds:
        batch = list(KINDS)
        rng.shuffle(batch)
        kinds += batch
    return kinds[:rounds]
