"""What a cluster node counts, beside the server's own metrics, in the same registry."""

from prometheus_client import Counter, Gauge

from ..metrics import Metrics


class ClusterMetrics:
    """What a node counts of the cluster, beside the server's own metrics."""

    def __init__(self, metrics: Metrics) -> None:
        registry = metrics.registry
        self.redis_up = Gauge(
            "parlour_redis_up", "whether this node reaches Redis (1) or not (0)", registry=registry
        )
        self.rooms_owned = Gauge(
            "parlour_rooms_owned", "rooms whose lease this node holds", registry=registry
        )
        self.forwarded = Counter(
            "parlour_requests_forwarded",
            "client requests sent to the node that owns their room",
            registry=registry,
        )
        self.claimed = Counter(
            "parlour_rooms_claimed",
            "rooms this node took over from a node that lost them",
            registry=registry,
        )
        self.fenced_out = Counter(
            "parlour_writes_fenced_out",
            "room writes Redis refused because this node no longer held the room",
            registry=registry,
        )
        self.write_seconds = Gauge(
            "parlour_redis_write_seconds",
            "how long the last batch of room writes took",
            registry=registry,
        )
