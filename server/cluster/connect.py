"""How a node or a worker talks to Redis: a dead link is found well within a lease, and a
pooled connection that died with a restarted Redis or a reset link is replaced at once,
so that no request fails on one once Redis is back."""

from typing import Final

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

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
        # One more try, on a new connection: what a dead pooled one needs. A change sent
        # twice so is carried out once (scripts.WRITE_ROOMS keeps its answer by token).
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), retries=1),
    )
