"""Where a cluster node's rooms live, and how they change hands.

A node holds each of its rooms under a lease in Redis with a fencing number, and writes
it under that number; it remembers where other rooms were last owned, which codes name
them, and which nodes are live. Heartbeats keep its leases; it takes over the rooms of
nodes that were lost, from their records, and forgets a room another node took.
"""

import asyncio
import json
import logging
import random
import time
from collections.abc import Iterable
from typing import Final, Protocol

from redis.exceptions import RedisError

from ..answers import Outbox
from ..app import Shell
from ..lobby import Lobby
from ..metrics import Metrics
from ..records import RecordError, record_text, restore_room
from ..room import Room
from ..scores import Result
from .link import Link
from .members import Memberships
from .metrics import ClusterMetrics
from .outbound import node_of
from .records import CHECK, KEEP, NEW_ROOM, RedisRecords, RoomWrite

log = logging.getLogger("parlour.cluster")

CLAIM_BATCH: Final = 20
"""Rooms taken over in one script call, so that several nodes share a lost node's rooms."""
CACHE_LIMIT: Final = 20_000
"""Rooms' owners and codes remembered before those nobody here uses are forgotten."""


class Holder(Protocol):
    """What a node does as its rooms change hands."""

    def took(self, room: str, fence: int) -> None:
        """`room` is this node's now, under `fence`: say so, put this node's connections
        back in, and carry out the requests that waited on its old owner."""

    def put_back(self, room: str, node: int) -> None:
        """Put this node's connections in `room` back into it, at its owner `node`."""

    def send(self, outbox: Outbox) -> None:
        """Keep what the lobby changed, then send its messages."""


class Leases:
    """The rooms this node owns and the fences it holds them under, where it last knew
    other rooms to be, and the live nodes; kept up by heartbeats and takeovers."""

    def __init__(
        self,
        *,
        records: RedisRecords,
        lobby: Lobby,
        members: Memberships,
        link: Link,
        shell: Shell,
        holder: Holder,
        metrics: Metrics,
        counts: ClusterMetrics,
    ) -> None:
        self.records = records
        self.lobby = lobby
        self.members = members
        self.link = link
        self.shell = shell
        self.holder = holder
        self.metrics = metrics
        self.counts = counts
        self.fences: dict[str, int] = {}
        """The rooms this node owns, with the fencing number it holds each under."""
        self.owners: dict[str, int] = {}
        """Where rooms were last known to be owned."""
        self.refs: dict[str, str] = {}
        """Room ids by code, as Redis answered them."""
        self.live: set[int] = set()
        self.broken: set[str] = set()
        """Rooms whose records could not be rebuilt: left alone, not taken again and again."""
        self._heard: dict[int, float] = {}
        """When each other node was last heard from: live, whatever a heartbeat that was
        on its way meanwhile says."""
        self._listed: dict[str, str | None] = {}
        """Each owned room's lobby line as last written (None: not listed)."""

    @property
    def node(self) -> int:
        return self.link.node

    def joined(self) -> None:
        """This node joined the cluster: it is the one live node it knows of yet."""
        self.live = {self.node}

    def heard(self, node: int) -> None:
        """`node` was heard from just now."""
        self._heard[node] = time.monotonic()

    def owned(self, ref: str) -> Room | None:
        """The room `ref` names, if this node owns it."""
        room = self.lobby.named(ref)
        if room is None or room.id not in self.fences:
            return None
        return room

    async def release(self) -> None:
        """Give every room up, for the others to take at once."""
        await self.records.release(self.node, self.fences)

    # Rooms changing hands.

    async def claim(self, rooms: Iterable[str]) -> None:
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
            away = None if found.alive_ms is None else found.alive_ms / 1000
            self.lobby.restore([room], away_since=away)
            self.fences[room.id] = found.fence
            self.owners[room.id] = self.node
            if room.code is not None:
                self.refs[room.code] = room.id
            self.counts.claimed.inc()
            self.holder.took(room.id, found.fence)
        if claimed:
            log.info("node %d took %d room(s)", self.node, len(claimed))
            self.shell.follow_up()
        self.counts.rooms_owned.set(len(self.fences))

    def taken(self, room: str, node: int, fence: int) -> bool:
        """Another node took `room` under `fence`, with everyone away: forget it here if it
        was this node's. Whether this node's connections should follow it there: not if
        this node took the room itself, or took it after that node."""
        if node == self.node or self.fences.get(room, 0) > fence:
            return False
        self.owners[room] = node
        if room in self.fences:
            self.forget([room])
        return True

    def forget(self, rooms: Iterable[str]) -> None:
        """Rooms this node no longer owns: dropped from memory (Redis keeps them)."""
        for room_id in rooms:
            self.fences.pop(room_id, None)
            self._listed.pop(room_id, None)
            if self.owners.get(room_id) == self.node:
                del self.owners[room_id]
            self.lobby.release(room_id)

    def forget_others(self) -> None:
        """Where other nodes' rooms are may have changed unheard: ask Redis again."""
        self.owners = {room: node for room, node in self.owners.items() if node == self.node}

    async def heartbeat_forever(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.heartbeat()
            except RedisError as error:
                log.warning("heartbeat failed: %s", error)
                self.link.lost()

    async def heartbeat(self) -> None:
        """Renew this node's leases and learn which nodes are live; forget the rooms lost,
        drop the connections of nodes that are gone, and take the rooms nobody holds."""
        started = time.monotonic()
        held = dict(self.fences)
        beat = await self.records.heartbeat(self.node, held)
        self.link.back()
        self.forget([room for room in beat.lost if self.fences.get(room) == held[room]])
        if beat.lapsed:
            log.error("node %d was taken for lost: its connections go back in", self.node)
            self.shell.spawn(self.attach_everywhere())
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
            await self.claim(orphans[start : start + CLAIM_BATCH])
        self.trim_caches()

    def trim_caches(self) -> None:
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
        conns = [conn for conn in self.lobby.people.entered if node_of(conn) in nodes]
        conns += [conn for conn in self.lobby.people.names if node_of(conn) in nodes]
        outbox: Outbox = []
        for conn in dict.fromkeys(conns):
            outbox += self.lobby.disconnect(conn)
        for room, node in list(self.owners.items()):
            if node in nodes:
                del self.owners[room]
        self.holder.send(outbox)
        self.shell.follow_up()

    async def attach_everywhere(self) -> None:
        """Put this node's connections back into every room they are in that another node
        owns (or nobody: then this node takes it): after this node was taken for lost, the
        owners dropped them; after its subscription broke, rooms may have moved unheard."""
        rooms = sorted(
            {room for held in self.members.rooms.values() for room in held} - set(self.fences)
        )
        try:
            owners = await self.records.owners(rooms)
            await self.claim(
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
                self.holder.put_back(room, owner)

    # Writes under the leases.

    def write(self, room: Room, results: Iterable[Result]) -> RoomWrite:
        """The room's record as text for Redis, under its fence; its lobby line only when it
        changed (most moves change nothing the lobby shows), its code only when the room is
        new."""
        fence = self.fences.get(room.id, NEW_ROOM)
        record = record_text(room).text
        summary = json.dumps(room.summary(), separators=(",", ":")) if room.listed else None
        if room.id in self._listed and self._listed[room.id] == summary:
            summary = KEEP
        else:
            self._listed[room.id] = summary
        code = room.code if fence == NEW_ROOM else None
        return RoomWrite(room.id, fence, record, summary, code, tuple(results))

    def closing(self, room: str) -> RoomWrite:
        """The write that removes a closed room."""
        self._listed.pop(room, None)
        return RoomWrite(room, self.fences.get(room, NEW_ROOM), None)

    def check(self, room: str) -> RoomWrite:
        """The write that only checks this node still holds the room."""
        return RoomWrite(room, self.fences.get(room, NEW_ROOM), CHECK)

    def kept(self, write: RoomWrite, fence: int) -> None:
        """Redis holds the room's write: a new room is this node's under `fence`, a closed
        one is gone. A new room forgotten while its write was on the way stays forgotten:
        its lease, which names this node, has it taken again from its record."""
        if write.record is None:
            if self.fences.get(write.room) == fence:
                del self.fences[write.room]
                self.owners.pop(write.room, None)
        elif write.fence == NEW_ROOM and write.room in self.lobby.rooms:
            self.fences[write.room] = fence
            self.owners[write.room] = self.node
            if write.code is not None:
                self.refs[write.code] = write.room
        self.counts.rooms_owned.set(len(self.fences))

    def not_kept(self, writes: list[RoomWrite], fenced_out: int = 0) -> None:
        """Redis refused (`fenced_out` of them for a lease this node lost), or never got,
        these rooms' writes: forget the rooms here, unless this node has taken one again
        under a new fence meanwhile."""
        self.counts.fenced_out.inc(fenced_out)
        held = self.fences
        self.forget({w.room for w in writes if held.get(w.room, NEW_ROOM) == w.fence})
