"""How a cluster node's rooms change hands: heartbeats that keep its leases, rooms taken
over from nodes that were lost, and rooms given up when another node took them.

A part of `ClusterNode` kept in a module of its own; it uses the node's fields and
methods, declared here, as `Keeping` does for the lobby.
"""

import asyncio
import logging
import random
import time
from collections.abc import Coroutine, Iterable
from typing import TYPE_CHECKING, Any, Final

from redis.exceptions import RedisError

from ..answers import Outbox
from ..app import ServerConfig
from ..lobby import Lobby
from ..metrics import Metrics
from ..records import RecordError, restore_room
from . import envelopes as env
from .members import Memberships
from .metrics import ClusterMetrics
from .outbound import node_of
from .records import RedisRecords

log = logging.getLogger("parlour.cluster")

CLAIM_BATCH: Final = 20
"""Rooms taken over in one script call, so that several nodes share a lost node's rooms."""
CACHE_LIMIT: Final = 20_000
"""Rooms' owners and codes remembered before those nobody here uses are forgotten."""


class Takeover:
    """Leases kept, rooms taken over and given up, for `ClusterNode`."""

    config: ServerConfig
    lobby: Lobby
    metrics: Metrics
    cluster_metrics: ClusterMetrics
    records: RedisRecords
    members: Memberships
    node: int
    live: set[int]
    fences: dict[str, int]
    owners: dict[str, int]
    refs: dict[str, str]
    broken: set[str]
    _listed: dict[str, str | None]
    _heard: dict[int, float]

    if TYPE_CHECKING:  # the node's own, declared for the type checker only

        def _publish(self, channel: str, envelope: env.Envelope) -> None: ...
        def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]: ...
        def _cluster_channel(self) -> str: ...
        def send(self, outbox: Outbox) -> None: ...
        def _follow_up(self) -> None: ...
        def _attach_members(self, room: str, node: int, *, again: bool = False) -> None: ...
        def _send_again(self, room: str, owner: int) -> None: ...
        def lost_redis(self) -> None: ...
        def redis_back(self) -> None: ...

    async def _claim(self, rooms: Iterable[str]) -> None:
        """Take the rooms nobody holds (or this node forgot), rebuild them from their
        records, put this node's connections back in, and say so."""
        wanted = [room for room in rooms if room not in self.broken | self.lobby.rooms.keys()]
        if not wanted:
            return
        claimed = await self.records.claim(self.node, wanted)
        now = time.monotonic()
        for found in claimed:
            try:
                room = restore_room(found.record, now, self.lobby.wall())
            except RecordError as error:
                log.error("room %s not taken over: %s", found.room, error)
                self.broken.add(found.room)
                self.metrics.rooms_not_restored.inc()
                continue
            self.lobby.restore([room])
            self.fences[room.id] = found.fence
            self.owners[room.id] = self.node
            if room.code is not None:
                self.refs[room.code] = room.id
            self.cluster_metrics.claimed.inc()
            self._publish(self._cluster_channel(), env.Owner(room.id, self.node, found.fence))
            self._attach_members(room.id, self.node, again=True)
            self._send_again(room.id, self.node)
        if claimed:
            log.info("node %d took %d room(s)", self.node, len(claimed))
            self._follow_up()
        self.cluster_metrics.rooms_owned.set(len(self.fences))

    def _forget_rooms(self, rooms: Iterable[str]) -> None:
        """Rooms this node no longer owns: dropped from memory (Redis keeps them)."""
        for room_id in rooms:
            self.fences.pop(room_id, None)
            self._listed.pop(room_id, None)
            if self.owners.get(room_id) == self.node:
                del self.owners[room_id]
            self.lobby.release(room_id)

    async def _heartbeat_forever(self) -> None:
        interval = self.config.lease_seconds / 3
        while True:
            await asyncio.sleep(interval)
            try:
                await self._heartbeat()
            except RedisError as error:
                log.warning("heartbeat failed: %s", error)
                self.lost_redis()

    async def _heartbeat(self) -> None:
        started = time.monotonic()
        held = dict(self.fences)
        beat = await self.records.heartbeat(self.node, held)
        self.redis_back()
        self._forget_rooms([room for room in beat.lost if self.fences.get(room) == held[room]])
        if beat.lapsed:
            log.error("node %d was taken for lost: its connections go back in", self.node)
            self._spawn(self._attach_everywhere())
        # A node heard from since this heartbeat left is live, whatever Redis said then:
        # its connections stay, and the next heartbeat tells.
        spared = {node for node in self.live - beat.live if self._heard.get(node, 0) > started}
        gone = self.live - beat.live - spared
        self.live = beat.live | spared
        if gone:
            self._drop_connections_of(gone)
        orphans = [room for room in beat.orphans if room not in self.broken]
        random.shuffle(orphans)
        for start in range(0, len(orphans), CLAIM_BATCH):
            await self._claim(orphans[start : start + CLAIM_BATCH])
        self._trim_caches()

    def _trim_caches(self) -> None:
        """Where rooms live and which codes name them are only remembered to spare a
        question to Redis: past a bound, keep what this node's rooms and connections use."""
        if len(self.owners) + len(self.refs) <= CACHE_LIMIT:
            return
        used = set(self.fences)
        for rooms in self.members.rooms.values():
            used.update(rooms)
        self.owners = {room: node for room, node in self.owners.items() if room in used}
        self.refs = {code: room for code, room in self.refs.items() if room in used}

    def _drop_connections_of(self, nodes: set[int]) -> None:
        """Nodes whose heartbeat ran out: their connections are gone from this node's rooms."""
        conns = [conn for conn in self.lobby.entered if node_of(conn) in nodes]
        conns += [conn for conn in self.lobby.names if node_of(conn) in nodes]
        outbox: Outbox = []
        for conn in dict.fromkeys(conns):
            outbox += self.lobby.disconnect(conn)
        for room, node in list(self.owners.items()):
            if node in nodes:
                del self.owners[room]
        self.send(outbox)
        self._follow_up()

    async def _attach_everywhere(self) -> None:
        """Put this node's connections back into every room they are in that another node
        owns (or nobody: then this node takes it): after this node was taken for lost, the
        owners dropped them; after its subscription broke, rooms may have moved unheard."""
        rooms = sorted(
            {room for held in self.members.rooms.values() for room in held} - set(self.fences)
        )
        try:
            owners = await self.records.owners(rooms)
            await self._claim(
                room
                for room, owner in owners.items()
                if owner is None or (owner == self.node and room not in self.lobby.rooms)
            )
        except RedisError as error:
            log.warning("could not find where this node's connections' rooms are: %s", error)
            return  # each connection goes back in before its next request there
        for room, owner in owners.items():
            if owner is not None and owner != self.node:
                self.owners[room] = owner
                self._attach_members(room, owner, again=True)
