"""What the server counts, in the Prometheus text format that `GET /metrics` serves."""

from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST


@dataclass
class Metrics:
    """One server's metrics, in a registry of their own so that servers do not share them."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)

    def __post_init__(self) -> None:
        registry = self.registry
        self.connections = Gauge(
            "parlour_connections", "open WebSocket connections", registry=registry
        )
        self.rooms = Gauge("parlour_rooms", "rooms by status", ["status"], registry=registry)
        self.messages = Counter(
            "parlour_messages_received",
            "valid client messages by type",
            ["type"],
            registry=registry,
        )
        self.errors = Counter(
            "parlour_errors_sent", "error messages sent, by code", ["code"], registry=registry
        )
        self.moves = Counter(
            "parlour_moves", "moves applied, by who made them", ["by"], registry=registry
        )
        self.bot_fallbacks = Counter(
            "parlour_bot_fallbacks",
            "bot moves replaced by a fallback move, by reason",
            ["reason"],
            registry=registry,
        )
        self.bot_turns_waiting = Gauge(
            "parlour_bot_turns_waiting",
            "bot turns asked of the workers and not yet answered",
            registry=registry,
        )
        self.bot_seconds = Histogram(
            "parlour_bot_think_seconds",
            "time from asking the workers for a bot's move to its answer, waiting included",
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
            registry=registry,
        )

        self.store_failures = Counter(
            "parlour_store_failures",
            "writes of changed rooms to the database that failed",
            registry=registry,
        )
        self.rooms_not_restored = Counter(
            "parlour_rooms_not_restored",
            "stored rooms left out at start because their records could not be rebuilt",
            registry=registry,
        )

    def render(self) -> bytes:
        """The metrics in the Prometheus text format."""
        return generate_latest(self.registry)
