"""Which players have a connection open on this node, kept in Redis for every node to see:
a digest never goes to a player connected anywhere in the cluster (protocol.md 2.13).

Each node keeps a set of its players, written again with every beat and let run out a
little after, so that a node that is lost stops counting; a player's first connection
here and their last closing are written at once."""

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from redis.exceptions import RedisError

from ..room import ConnId
from .records import RedisRecords

log = logging.getLogger("parlour.cluster")


class Presence:
    """This node's connections' players, and their set in Redis."""

    def __init__(
        self,
        records: RedisRecords,
        node: Callable[[], int],
        spawn: Callable[[Coroutine[Any, Any, None]], object],
        keep_ms: int,
    ) -> None:
        self.records = records
        self.node = node
        self.spawn = spawn
        self.keep_ms = keep_ms
        """How long the set outlives the node's last beat."""
        self.here: dict[ConnId, str] = {}
        """The player each of this node's connections proved, for those that did."""

    def welcomed(self, conn: ConnId, player: str) -> None:
        """A connection of this node's was welcomed as `player`."""
        if self.here.get(conn) == player:
            return
        self.closed(conn)
        first = player not in self.here.values()
        self.here[conn] = player
        if first:
            self.spawn(self._quietly(self.records.mail.arrived(self.node(), player, self.keep_ms)))

    def closed(self, conn: ConnId) -> None:
        """A connection of this node's closed."""
        player = self.here.pop(conn, None)
        if player is not None and player not in self.here.values():
            self.spawn(self._quietly(self.records.mail.departed(self.node(), player)))

    async def renew_forever(self, interval: float) -> None:
        """Write the set again every `interval` seconds."""
        while True:
            await asyncio.sleep(interval)
            await self._quietly(
                self.records.mail.set_present(self.node(), self.here.values(), self.keep_ms)
            )

    @staticmethod
    async def _quietly(write: Coroutine[Any, Any, None]) -> None:
        """A write that may fail while Redis is away: the next beat writes it all again."""
        try:
            await write
        except (RedisError, OSError) as error:
            log.warning("could not note players connected here: %s", error)
