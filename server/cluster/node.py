"""A Parlour server as one node of a cluster that keeps its rooms in Redis.

Every node serves the page and `/ws`. A room is owned by one node at a time, which holds
its lease in Redis and runs it through the same lobby a single server runs. A request
about a room held elsewhere goes to its owner through Redis (the node's channel) and the
owner's answers come back the same way; players on several nodes so share one room and
see its moves in the owner's order. Every change is written to Redis under the owner's
fencing number before anyone is told of it; a node that lost a room can no longer write
it and forgets it. A node's rooms outlive it: when its heartbeat stops, the others take
its rooms from their records, and the players come back with their tokens.
"""

import asyncio
import contextlib
import itertools
import json
import logging
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from prometheus_client import Counter, Gauge
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.wire import Message as Wire

from ..answers import Outbox, refuse
from ..app import ParlourServer, ServerConfig
from ..records import RecordError, restore_room, room_record
from ..room import ConnId, Room, Status
from . import envelopes as env
from .members import NOTED, Memberships
from .records import FENCED_OUT, NEW_ROOM, RedisRecords, RoomWrite

log = logging.getLogger("parlour.cluster")

NODE_BITS: Final = 32
"""A connection's id is its node's number above this many bits of the node's own count."""
ROOM_CHANGES: Final = (
    m.CreateRoom,
    m.Join,
    m.Leave,
    m.SetSeat,
    m.FillBots,
    m.Start,
    m.Move,
    m.Undo,
    m.NewGame,
    m.Answer,
    m.ImportGame,
    m.LoadGame,
    m.SaveGame,
)
"""Requests that change a room or the records: refused while Redis cannot be reached."""
REQUEST_SECONDS: Final = 5.0
"""How long a request sent to another node may go unanswered before `unavailable`."""
CLAIM_BATCH: Final = 20
COMMIT_PATIENCE: Final = 2.0
"""Seconds a change waits for Redis to come back before it is given up."""
MAX_MOVES: Final = 5
"""Times a request follows its room to a new owner before it is answered `unavailable`."""
RETRY_SECONDS: Final = 0.25


def node_of(conn: ConnId) -> int:
    return conn >> NODE_BITS


def unavailable(request: str | int | None, why: str) -> m.Error:
    return m.Error.from_exception(refuse(ErrorCode.UNAVAILABLE, why), request)


@dataclass
class Forwarded:
    """A request sent to a room's owner, until the owner says it is done with it."""

    conn: ConnId
    message: m.ClientMessage
    room: str
    deadline: float
    moves: int = 0
    """How many times the request was sent on because its room had moved."""
    abandoned: bool = False


@dataclass
class Commit:
    """The records to write for one change, then the messages it sends."""

    records: dict[str, tuple[str | None, str | None, str | None]]
    """Each changed room's record, lobby summary and code (a None record: closed)."""
    fences: dict[str, int]
    """The fencing number each room was changed under (NEW_ROOM: made here, not yet
    written)."""
    results: dict[str, list[Any]]
    outbox: Outbox
    done: tuple[int, int] | None = None
    """The edge and number of the forwarded request this answers in full."""
    since: float = field(default_factory=time.monotonic)


class ClusterMetrics:
    """What a node counts of the cluster, beside the server's own metrics."""

    def __init__(self, server: ParlourServer) -> None:
        registry = server.metrics.registry
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


class ClusterNode(ParlourServer):
    """One node of a cluster: the single server's lobby and shell, with rooms in Redis."""

    def __init__(self, config: ServerConfig) -> None:
        super().__init__(config)
        assert config.redis_url is not None
        self.redis = Redis.from_url(config.redis_url, socket_timeout=5, socket_connect_timeout=2)
        self.records = RedisRecords(self.redis, round(config.lease_seconds * 1000))
        self.remote_archive = self.records
        self.cluster_metrics = ClusterMetrics(self)
        self.node = 0
        self.available = False
        self.fences: dict[str, int] = {}
        """The rooms this node owns, with the fencing number it holds each under."""
        self.owners: dict[str, int] = {}
        """Where rooms were last known to be owned."""
        self.refs: dict[str, str] = {}
        """Room ids by code, as Redis answered them."""
        self.members = Memberships()
        self.live: set[int] = set()
        self.broken: set[str] = set()
        """Rooms whose records could not be rebuilt: left alone, not taken again and again."""
        self._conn_counter = itertools.count(1)
        self._seqs = itertools.count(1)
        self._forwarded: dict[int, Forwarded] = {}
        self._commits: list[Commit] = []
        self._commit_wanted = asyncio.Event()
        self._outgoing: list[tuple[str, env.Envelope]] = []
        self._send_wanted = asyncio.Event()
        self._pubsub: PubSub | None = None

    # Starting and stopping.

    async def start(self) -> None:
        """Join the cluster in Redis, listen to the node's channel, then serve."""
        try:
            self.node = await self.records.join_cluster()
        except (RedisError, OSError) as error:
            await self.redis.aclose()
            raise ConnectionError(f"cannot reach Redis: {error}") from None
        self.available = True
        self.cluster_metrics.redis_up.set(1)
        self.live = {self.node}
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(self._channel(self.node), self._cluster_channel())
        await self._start_serving()
        self._spawn(self._listen_forever())
        self._spawn(self._commit_forever())
        self._spawn(self._publish_forever())
        self._spawn(self._heartbeat_forever())
        log.info("node %d joined the cluster at %s", self.node, self.config.redis_url)

    async def wait_closed(self) -> None:
        """Close as a single server does, then give the rooms up for the others to take."""
        await super().wait_closed()
        with contextlib.suppress(RedisError):
            await self._write_pending()
            await self.records.release(self.node, self.fences)
        if self._pubsub is not None:
            with contextlib.suppress(RedisError):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    def health_problem(self) -> str | None:
        problem = super().health_problem()
        if problem is None and not self.available:
            return "Redis cannot be reached"
        return problem

    def _channel(self, node: int) -> str:
        return f"{self.records.prefix}node:{node}"

    def _cluster_channel(self) -> str:
        return f"{self.records.prefix}cluster"

    def _new_conn_id(self) -> ConnId:
        return (self.node << NODE_BITS) | next(self._conn_counter)

    # Requests from this node's connections.

    def _handle(self, conn: ConnId, message: m.ClientMessage) -> None:
        if not self.available and isinstance(message, ROOM_CHANGES):
            why = "the game records cannot be reached; try again soon"
            self._deliver([(conn, unavailable(message.id, why))])
            return
        if isinstance(message, m.ListRooms):
            self._spawn(self._list_rooms(conn, message))
            return
        ref = getattr(message, "room", None)
        if not isinstance(ref, str):
            super()._handle(conn, message)
            return
        room = self.refs.get(ref, ref)
        if isinstance(message, m.Leave):
            self.members.left(conn, room)
        owner = self.owners.get(room)
        if owner == self.node and room in self.fences:
            super()._handle(conn, message)
        elif owner is not None and owner in self.live:
            self._forward(conn, message, room, owner)
        else:
            self._spawn(self._find_owner(conn, message, ref))

    async def _list_rooms(self, conn: ConnId, message: m.ListRooms) -> None:
        try:
            listed: m.ServerMessage = m.Rooms(
                id=message.id, rooms=await self.records.public_rooms()
            )
        except RedisError:
            listed = unavailable(message.id, "the rooms cannot be listed now; try again soon")
        self._deliver([(conn, listed)])

    async def _find_owner(
        self, conn: ConnId, message: m.ClientMessage, ref: str, moves: int = 0
    ) -> None:
        """Ask Redis which room `ref` names and who owns it, and take it if nobody does
        (its owner was lost); then hand the request to the owner. Waits while the room's
        lease outlives an owner that no longer answers."""
        deadline = time.monotonic() + self.config.lease_seconds + REQUEST_SECONDS
        while conn in self.connections:
            try:
                room = self.refs.get(ref) or await self.records.room_id(ref)
                if room is None:
                    super()._handle(conn, message)  # the lobby answers no_such_room
                    return
                if room != ref:
                    self.refs[ref] = room
                owner = await self.records.owner(room)
                if owner is None:
                    await self._claim([room])
                    owner = self.owners.get(room)
            except RedisError:
                self._lost_redis()
                break
            if owner == self.node and room in self.fences:
                super()._handle(conn, message)
                return
            if owner is not None and owner != self.node and owner in self.live:
                self.owners[room] = owner
                self._forward(conn, message, room, owner, moves)
                return
            if time.monotonic() > deadline or moves > MAX_MOVES:
                break
            await asyncio.sleep(RETRY_SECONDS)
        self._deliver([(conn, unavailable(message.id, "the room's server is not answering"))])

    def _forward(
        self, conn: ConnId, message: m.ClientMessage, room: str, owner: int, moves: int = 0
    ) -> None:
        seq = next(self._seqs)
        deadline = time.monotonic() + REQUEST_SECONDS
        self._forwarded[seq] = Forwarded(conn, message, room, deadline, moves)
        self.members.asked_node(conn, owner)
        name = self.lobby.names.get(conn, "")
        request = env.Request(self.node, seq, conn, name, message.to_wire())
        self._publish(self._channel(owner), request)
        self.cluster_metrics.forwarded.inc()

    def _disconnected(self, conn: ConnId) -> None:
        super()._disconnected(conn)
        for node in self.members.forget(conn):
            if node != self.node:
                self._publish(self._channel(node), env.Gone((conn,)))

    # Envelopes from other nodes.

    async def _listen_forever(self) -> None:
        """Act on every envelope on this node's channel and the cluster's, in order."""
        while True:
            pubsub = self._pubsub
            assert pubsub is not None
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except RedisError:
                self._lost_redis()
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                envelope = env.unpack(message["data"])
            except env.EnvelopeError as error:
                log.warning("dropped an envelope: %s", error)
                continue
            try:
                self._receive_envelope(envelope)
            except Exception:
                log.exception("failed on a %s envelope", type(envelope).__name__)

    def _receive_envelope(self, envelope: env.Envelope) -> None:
        match envelope:
            case env.Request():
                self._serve_request(envelope)
            case env.Deliver():
                self._delivered(envelope)
            case env.Attach():
                self._attach(envelope)
            case env.Gone():
                outbox: Outbox = []
                for conn in envelope.conns:
                    outbox += self.lobby.disconnect(conn)
                self._send(outbox)
                self._follow_up()
            case env.Moved():
                self._moved(envelope.seq)
            case env.Owner():
                self._owner_changed(envelope.room, envelope.node)

    def _owned(self, ref: str) -> Room | None:
        """The room `ref` names, if this node owns it."""
        room = self.lobby.codes.get(ref) or self.lobby.rooms.get(ref)
        if room is None or room.id not in self.fences:
            return None
        return room

    def _serve_request(self, request: env.Request) -> None:
        """A request from another node's connection about a room this node should own."""
        message = m.read_client_message(request.wire)
        ref = getattr(message, "room", "")
        if self._owned(ref) is None:
            self._publish(self._channel(request.edge), env.Moved(request.seq))
            return
        self.lobby.names[request.conn] = request.name
        if not self.available and isinstance(message, ROOM_CHANGES):
            why = "the game records cannot be reached; try again soon"
            outbox: Outbox = [(request.conn, unavailable(message.id, why))]
        else:
            outbox = self._ask_lobby(request.conn, message)
        self._send(outbox, done=(request.edge, request.seq))
        self._follow_up()

    def _attach(self, attach: env.Attach) -> None:
        """Put another node's connection back into a room that moved here, into its seat
        unless the seat's person has already come back through another connection."""
        room = self._owned(attach.room)
        if room is None:
            return
        self.lobby.names[attach.conn] = attach.name
        outbox = self.lobby.handle(attach.conn, _coming_back(room, attach))
        if isinstance(outbox[0][1], m.Error):
            outbox = self.lobby.handle(attach.conn, m.Spectate(room=room.code or room.id))
        answer = outbox[0][1]
        if isinstance(answer, m.Joined | m.Watching):
            outbox[0] = (attach.conn, m.RoomView(room=answer.room))
        self._send(outbox)
        self._follow_up()

    def _delivered(self, deliver: env.Deliver) -> None:
        """Messages from a room's owner for this node's connections."""
        forwarded = self._forwarded.pop(deliver.done, None) if deliver.done else None
        for conn, wire in deliver.messages:
            if (
                forwarded is not None
                and forwarded.abandoned
                and conn == forwarded.conn
                and wire.get("id") is not None
                and wire.get("id") == forwarded.message.id
            ):
                continue
            self._deliver_wire(conn, wire)

    def _moved(self, seq: int) -> None:
        """The node asked no longer owns the room: find who does and ask again."""
        forwarded = self._forwarded.pop(seq, None)
        if forwarded is None or forwarded.abandoned:
            return
        self.owners.pop(forwarded.room, None)
        moves = forwarded.moves + 1
        self._spawn(self._find_owner(forwarded.conn, forwarded.message, forwarded.room, moves))

    def _owner_changed(self, room: str, node: int) -> None:
        """A node took `room`: forget it here if it was ours, and put this node's
        connections in it back with their tokens."""
        self.owners[room] = node
        if node != self.node and room in self.fences:
            self._forget_rooms([room])
        self._attach_members(room, node)

    def _attach_members(self, room: str, node: int) -> None:
        """Put this node's connections in `room` back into it, at its owner `node`."""
        for conn, token in list(self.members.in_room(room)):
            name = self.lobby.names.get(conn, "")
            attach = env.Attach(self.node, conn, name, room, token)
            if node == self.node:
                self._attach(attach)
            else:
                self.members.asked_node(conn, node)
                self._publish(self._channel(node), attach)

    # Sending: records first, then messages.

    def _send(self, outbox: Outbox, done: tuple[int, int] | None = None) -> None:
        """Queue the records the lobby changed and the messages that tell of them; they go
        out once Redis holds the records, in the order they were made."""
        unsaved = self.lobby.take_unsaved()
        records: dict[str, tuple[str | None, str | None, str | None]] = {
            room.id: _room_record(room) for room in unsaved.rooms
        }
        for room_id in unsaved.closed:
            records[room_id] = (None, None, None)
        results: dict[str, list[Any]] = {}
        for result in unsaved.results:
            results.setdefault(result.room, []).append(result)
        if not records and not self._commits:
            self._deliver_all(outbox, done)
            return
        fences = {room: self.fences.get(room, NEW_ROOM) for room in records}
        self._commits.append(Commit(records, fences, results, outbox, done))
        self._commit_wanted.set()

    async def _commit_forever(self) -> None:
        """Write queued records in batches, then send what each change says."""
        while True:
            await self._commit_wanted.wait()
            self._commit_wanted.clear()
            try:
                await self._write_pending()
            except RedisError:
                self._lost_redis()
                if self._commits and time.monotonic() - self._commits[0].since > COMMIT_PATIENCE:
                    self._give_up_commits()
                await asyncio.sleep(RETRY_SECONDS)
                self._commit_wanted.set()

    def _give_up_commits(self) -> None:
        """Redis has been away too long for the changes waiting to be written: they are not
        kept, so nobody is told of them. Their rooms are forgotten here, to be taken again
        from Redis as they were last written, and each request waiting is answered
        `unavailable`."""
        commits, self._commits = self._commits, []
        rooms = {room for commit in commits for room in commit.records}
        log.warning("gave up writing %d room(s) while Redis is away", len(rooms))
        self._forget_rooms(rooms)
        for commit in commits:
            lost = rooms & commit.records.keys()
            self._deliver_all(
                _without(commit.outbox, lost) if lost else commit.outbox, commit.done
            )

    async def _write_pending(self) -> None:
        """Write every queued commit in one round trip; send their messages."""
        if not self._commits:
            return
        commits = list(self._commits)
        writes: dict[str, RoomWrite] = {}
        for commit in commits:
            for room_id, (record, summary, code) in commit.records.items():
                held = writes.get(room_id)
                results = (*held.results, *commit.results.get(room_id, ())) if held else ()
                if not held:
                    results = tuple(commit.results.get(room_id, ()))
                fence = commit.fences[room_id] or self.fences.get(room_id, NEW_ROOM)
                writes[room_id] = RoomWrite(room_id, fence, record, summary, code, results)
        started = time.monotonic()
        answers = await self.records.write(self.node, writes.values()) if writes else {}
        self.cluster_metrics.write_seconds.set(time.monotonic() - started)
        del self._commits[: len(commits)]
        self._redis_back()
        refused = set()
        for room_id, fence in answers.items():
            written = writes[room_id]
            if fence > 0 and written.record is not None:
                self.fences[room_id] = fence
                self.owners[room_id] = self.node
                if written.code is not None:
                    self.refs[written.code] = room_id
            elif fence > 0:
                self.fences.pop(room_id, None)
                self.owners.pop(room_id, None)
            else:
                refused.add(room_id)
                if fence == FENCED_OUT:
                    self.cluster_metrics.fenced_out.inc()
                log.warning("room %s: Redis refused this node's write (%d)", room_id, fence)
        self._forget_rooms(refused)
        for commit in commits:
            lost = refused & commit.records.keys()
            self._deliver_all(
                _without(commit.outbox, lost) if lost else commit.outbox, commit.done
            )
        self.cluster_metrics.rooms_owned.set(len(self.fences))

    def _deliver_all(self, outbox: Outbox, done: tuple[int, int] | None = None) -> None:
        """Send to this node's connections at once and to other nodes' through Redis."""
        local: Outbox = []
        remote: dict[int, list[tuple[ConnId, Wire]]] = {}
        wires: dict[int, Wire] = {}
        for conn, message in outbox:
            node = node_of(conn)
            if node == self.node:
                local.append((conn, message))
                continue
            wire = wires.get(id(message))
            if wire is None:
                wire = wires[id(message)] = message.to_wire()
            remote.setdefault(node, []).append((conn, wire))
        if done is not None:
            remote.setdefault(done[0], [])
        for node, messages in remote.items():
            seq = done[1] if done is not None and done[0] == node else None
            self._publish(self._channel(node), env.Deliver(tuple(messages), seq))
        self._deliver(local)

    def _deliver(self, outbox: Outbox) -> None:
        for conn, message in outbox:
            if message.TYPE in NOTED and conn in self.connections:
                self.members.note(conn, message.TYPE, message.to_wire())
        super()._deliver(outbox)

    def _deliver_wire(self, conn: ConnId, wire: Wire) -> None:
        """A message from another node, as its wire map, to one of this node's connections."""
        entry = self.connections.get(conn)
        if entry is None:
            return
        kind = str(wire.get("type"))
        if kind in NOTED:
            self.members.note(conn, kind, wire)
        websocket, session = entry
        if kind == m.Error.TYPE:
            self.metrics.errors.labels(str(wire.get("code"))).inc()
        self._send_frame(conn, websocket, session.codec.encode(wire))

    def _publish(self, channel: str, envelope: env.Envelope) -> None:
        self._outgoing.append((channel, envelope))
        self._send_wanted.set()

    async def _publish_forever(self) -> None:
        """Publish queued envelopes in order, in one round trip a batch."""
        while True:
            await self._send_wanted.wait()
            self._send_wanted.clear()
            batch, self._outgoing = self._outgoing, []
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, envelope in batch:
                        pipe.publish(channel, env.pack(envelope))
                    heard = await pipe.execute()
            except RedisError:
                self._lost_redis()
                self._outgoing[:0] = batch
                await asyncio.sleep(RETRY_SECONDS)
                self._send_wanted.set()
                continue
            for (_, envelope), listeners in zip(batch, heard, strict=True):
                if isinstance(envelope, env.Request) and not listeners:
                    self._moved(envelope.seq)

    # Rooms that change hands.

    async def _claim(self, rooms: Iterable[str]) -> None:
        """Take the rooms nobody holds, rebuild them from their records, and say so."""
        wanted = [room for room in rooms if room not in self.broken]
        if not wanted:
            return
        claimed = await self.records.claim(self.node, wanted)
        now = time.monotonic()
        for found in claimed:
            try:
                room = restore_room(found.record, now)
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
            self._publish(self._cluster_channel(), env.Owner(room.id, self.node))
        if claimed:
            log.info("node %d took %d room(s)", self.node, len(claimed))
            self._follow_up()
        self.cluster_metrics.rooms_owned.set(len(self.fences))

    def _forget_rooms(self, rooms: Iterable[str]) -> None:
        """Rooms this node no longer owns: dropped from memory (Redis keeps them)."""
        for room_id in rooms:
            self.fences.pop(room_id, None)
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
                self._lost_redis()

    async def _heartbeat(self) -> None:
        beat = await self.records.heartbeat(self.node, self.fences)
        if beat is None:
            await self._rejoin()
            return
        self._redis_back()
        self._forget_rooms(beat.lost)
        gone = self.live - beat.live
        self.live = beat.live
        if gone:
            self._drop_connections_of(gone)
        orphans = [room for room in beat.orphans if room not in self.broken]
        random.shuffle(orphans)
        for start in range(0, len(orphans), CLAIM_BATCH):
            await self._claim(orphans[start : start + CLAIM_BATCH])
        now = time.monotonic()
        for seq, forwarded in list(self._forwarded.items()):
            if not forwarded.abandoned and now > forwarded.deadline:
                forwarded.abandoned = True
                why = "the room's server did not answer in time; try again"
                self._deliver([(forwarded.conn, unavailable(forwarded.message.id, why))])
            if now > forwarded.deadline + REQUEST_SECONDS:
                del self._forwarded[seq]

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
        self._send(outbox)
        self._follow_up()

    async def _rejoin(self) -> None:
        """This node's heartbeat ran out (Redis was away, or this node paused or cut off),
        and the others may have taken its rooms and dropped its connections from theirs:
        forget its rooms, register again, and once every node has seen it live again, put
        its connections back into their rooms wherever these are owned now."""
        log.error("node %d was taken for lost: its rooms go to whoever takes them", self.node)
        self._forget_rooms(list(self.fences))
        self.owners.clear()
        await self.records.join_cluster(self.node)
        self.live = {self.node}
        await asyncio.sleep(self.config.lease_seconds / 3)
        rooms = {room for held in self.members.rooms.values() for room in held}
        for room in sorted(rooms):
            owner = await self.records.owner(room)
            if owner is None:
                await self._claim([room])
            elif owner != self.node:
                self.owners[room] = owner
                self._attach_members(room, owner)

    def _lost_redis(self) -> None:
        if self.available:
            log.warning("node %d cannot reach Redis: refusing room changes", self.node)
        self.available = False
        self.cluster_metrics.redis_up.set(0)

    def _redis_back(self) -> None:
        if not self.available:
            log.info("node %d reaches Redis again", self.node)
            self.available = True
            self.cluster_metrics.redis_up.set(1)
            self.lobby.recheck()
            self._follow_up()

    def _schedule_bots(self) -> None:
        if self.available:
            super()._schedule_bots()


def _coming_back(room: Room, attach: env.Attach) -> m.Join | m.Spectate:
    """How a connection comes back into a room that moved: with its token, unless another
    connection holds what the token holds by now; else as a spectator."""
    ref = room.code or room.id
    token = attach.token
    if token is None:
        return m.Spectate(room=ref)
    free = {attach.conn, None}
    seat = next((seat for seat in room.seats if seat.token == token), None)
    if seat is not None and seat.conn not in free:
        return m.Spectate(room=ref)
    if token == room.host_token and room.host_conn not in free:
        return m.Spectate(room=ref)
    return m.Join(room=ref, token=token)


def _room_record(room: Room) -> tuple[str, str | None, str | None]:
    """A room's record, its lobby line while listed, and its code, as text for Redis."""
    record = json.dumps(room_record(room), separators=(",", ":"))
    listed = room.public and room.status is not Status.FINISHED
    summary = json.dumps(room.summary(), separators=(",", ":")) if listed else None
    return record, summary, room.code


def _without(outbox: Outbox, rooms: set[str]) -> Outbox:
    """A change's messages when Redis refused to keep its change to `rooms`: the answer to
    the request becomes `unavailable`, and nothing tells of those rooms."""
    kept: Outbox = []
    for conn, message in outbox:
        if message.id is not None:
            why = "the room moved to another server; try again"
            kept.append((conn, unavailable(message.id, why)))
            continue
        about = getattr(message, "room", None)
        if isinstance(about, dict):
            about = about.get("room")
        if about not in rooms:
            kept.append((conn, message))
    return kept
