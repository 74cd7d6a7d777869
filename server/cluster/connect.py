"""How a node or a worker talks to Redis: a dead link is found well within a lease, and a
pooled connection that died with a restarted Redis or a reset link is replaced at once,
so that no request fails on one once Redis is back."""

from typing import Final

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as LinkDown

COMMAND_TIMEOUT: Final = 2.0
"""Seconds a command may take before its connection is taken for dead: Redis answers in
milliseconds, and a node cut off must find out well within its lease."""
CONNECT_TIMEOUT: Final = 1.0
HEALTH_CHECK_SECONDS: Final = 5
"""A pooled connection idle this long is pinged before it is used again."""


def connect(url: str) -> Redis:
    """A client of the cluster's Redis at `url` (connections are made when first used)."""
    return Redis.from_url(
        url,
        socket_timeout=COMMAND_TIMEOUT,
        socket_connect_timeout=CONNECT_TIMEOUT,
        socket_keepalive=True,
        health_check_interval=HEALTH_CHECK_SECONDS,
        # One more try, on a new connection, when the first finds its connection dead: a
        # pooled one that died with a restarted Redis or a reset link. A change sent twice
        # so is carried out once (scripts.WRITE_ROOMS keeps its answer by token). A
        # command that timed out is not tried again: the link is down, and a node must
        # know it within its lease.
        retry=Retry(
            ExponentialBackoff(cap=0.2, base=0.05), retries=1, supported_errors=(LinkDown,)
        ),
    )
