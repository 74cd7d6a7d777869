"""A cluster node's tie to Redis: the number it joined the cluster under, the channels
the nodes hear each other on, and whether Redis can be reached now, as the node last
found (every part that talks to Redis says)."""

import logging
from collections.abc import Callable

from .metrics import ClusterMetrics
from .records import RedisRecords

log = logging.getLogger("parlour.cluster")


class Link:
    """Whether this node reaches Redis; `on_lost` and `on_back` run when that changes."""

    def __init__(
        self,
        records: RedisRecords,
        counts: ClusterMetrics,
        *,
        on_lost: Callable[[], None],
        on_back: Callable[[], None],
    ) -> None:
        self.records = records
        self.counts = counts
        self.on_lost = on_lost
        self.on_back = on_back
        self.node = 0
        """This node's number in the cluster, once it joined."""
        self.available = False

    async def join(self) -> None:
        """Join the cluster in Redis under a number of this node's own, scripts loaded.

        RedisError or OSError if Redis cannot be reached.
        """
        self.node = await self.records.join_cluster()
        await self.records.load_scripts()
        self.available = True
        self.counts.redis_up.set(1)

    def channel(self, node: int) -> str:
        """The channel `node` hears requests and answers for it on."""
        return f"{self.records.prefix}node:{node}"

    def cluster_channel(self) -> str:
        """The channel every node hears on which node owns a room now, and whose turn it
        is in a room."""
        return f"{self.records.prefix}cluster"

    def lost(self) -> None:
        """Redis cannot be reached: every request about a room is answered `unavailable`
        until it can, those waiting on other nodes at once (their answers could only come
        through Redis)."""
        if self.available:
            log.warning("node %d cannot reach Redis: refusing room changes", self.node)
            self.on_lost()
        self.available = False
        self.counts.redis_up.set(0)

    def back(self) -> None:
        """Redis answered: if it had been away, the node takes up its work again."""
        if not self.available:
            log.info("node %d reaches Redis again", self.node)
            self.available = True
            self.counts.redis_up.set(1)
            self.on_back()
