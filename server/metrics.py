"""What the server counts, in the Prometheus text format that `GET /metrics` serves."""

from dataclasses import dataclass, field
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from .turns import Dispatch

CONTENT_TYPE = CONTENT_TYPE_LATEST
THINK_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


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
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self.bot_queue = Gauge(
            "parlour_bot_queue_length", "searches waiting for a worker", registry=registry
        )
        self.bot_queue_oldest = Gauge(
            "parlour_bot_queue_oldest_seconds",
            "how long the search longest in the queue has waited",
            registry=registry,
        )
        self.bot_waited_seconds = Histogram(
            "parlour_bot_queue_wait_seconds",
            "time a search waited for a worker",
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self.bot_given_seconds = Histogram(
            "parlour_bot_given_seconds",
            "time a search was given to think when a worker took it",
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self.bot_used_seconds = Histogram(
            "parlour_bot_used_seconds",
            "time a search took in its worker",
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self.bot_travel_seconds = Histogram(
            "parlour_bot_travel_seconds",
            "time a search spent going to a worker through Redis and its answer coming back",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
            registry=registry,
        )
        self.bot_late_answers = Counter(
            "parlour_bot_late_answers",
            "answers from workers to searches already answered or given up, dropped",
            registry=registry,
        )
        self.bot_shortened = Counter(
            "parlour_bot_searches_shortened",
            "searches given less than their room's think time because others waited",
            registry=registry,
        )

        self.store_failures = Counter(
            "parlour_store_failures",
            "writes of changed rooms to the database that failed",
            registry=registry,
        )
        self.mails = Counter(
            "parlour_mails",
            "mails by kind (code, digest, reminder) and outcome: sent, retried (the SMTP"
            " server could not take it then) or dropped",
            ["kind", "outcome"],
            registry=registry,
        )
        self.mails_waiting = Gauge(
            "parlour_mails_waiting", "mails waiting to be sent or tried again", registry=registry
        )
        self.rooms_not_restored = Counter(
            "parlour_rooms_not_restored",
            "stored rooms left out at start because their records could not be rebuilt",
            registry=registry,
        )

    def observe_dispatch(self, dispatch: Dispatch) -> None:
        """A worker took a search: how long it waited and what it was given."""
        self.bot_waited_seconds.observe(dispatch.waited)
        self.bot_given_seconds.observe(dispatch.given)
        if dispatch.shortened:
            self.bot_shortened.inc()

    def render(self) -> bytes:
        """The metrics in the Prometheus text format."""
        return generate_latest(self.registry)
