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
import time
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass
from typing import Any, Final

from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection
from redis.exceptions import RedisError

from parlour.protocol import messages as m
from parlour.protocol.codes import room_key
from parlour.protocol.wire import Message as Wire

from ..answers import Outbox
from ..app import ParlourServer
from ..lobby import ROOM_ID_LENGTH
from ..metrics import Metrics
from ..people import held_name
from ..records import record_text
from ..room import ConnId, Room
from ..scores import Result
from ..workers import BotWorkers, Thinkers
from . import envelopes as env
from .connect import connect
from .members import NOTED, Held, Memberships
from .metrics import ClusterMetrics
from .outbound import (
    NODE_BITS,
    RETRY_SECONDS,
    Change,
    Outbound,
    node_of,
    room_named,
    unavailable,
)
from .records import CHECK, KEEP, NEW_ROOM, RedisRecords, RoomWrite
from .remote import RemoteThinkers
from .takeover import Takeover
from .worker import JobWorker

log = logging.getLogger("parlour.cluster")

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
    m.SetInitials,
)
"""Requests that change a room or the records."""
ANSWER_MARGIN: Final = 2.0
"""Seconds past the lease by which every request is answered, if only `unavailable`: time
for another node to take a lost owner's rooms (protocol.md, section 6)."""
SILENT_SECONDS: Final = 0.5
"""How long a node that a request reached no listener of is left alone before it is
tried again (until its lease runs out, when another node takes its rooms)."""
EXPIRE_SECONDS: Final = 0.25
"""How often requests that waited too long for another node are looked for."""
MAX_MOVES: Final = 5
"""Times a request follows its room to a new owner before it is answered `unavailable`."""


@dataclass
class Forwarded:
    """A request sent to a room's owner, until the owner says it is done with it."""

    conn: ConnId
    message: m.ClientMessage
    room: str
    owner: int
    deadline: float
    moves: int = 0
    """How many times the request was sent on because its room had moved."""
    abandoned: bool = False
    """Answered here already (`unavailable`, or sent again to the room's new owner): a
    late answer from the node it went to is dropped."""


class ClusterNode(Takeover):
    """One node of a cluster: the keeper a server shell is given for rooms owned under
    leases in Redis, with its own listeners (the node's channel, heartbeats, outbound
    writes), acting through the shell's lobby and connections."""

    def __init__(self, shell: ParlourServer) -> None:
        config = shell.config
        assert config.redis_url is not None
        self.shell = shell
        self.config = config
        self.lobby = shell.lobby
        self.metrics = shell.metrics
        self.connections = shell.connections
        self.redis = connect(config.redis_url)
        self.records = RedisRecords(self.redis, round(config.lease_seconds * 1000))
        shell.remote_archive = self.records
        self.cluster_metrics = ClusterMetrics(self.metrics)
        self.patience = config.lease_seconds + ANSWER_MARGIN
        """Seconds within which every request is answered, if only `unavailable`."""
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
        self._silent: dict[int, float] = {}
        """Nodes a request reached no listener of, and when: gone (though maybe still live
        in Redis until their heartbeat runs out), or making their subscription anew."""
        self._heard: dict[int, float] = {}
        """When each other node was last heard from: live, whatever a heartbeat that was
        on its way meanwhile says."""
        self._listed: dict[str, str | None] = {}
        """Each owned room's lobby line as last written (None: not listed)."""
        self.broken: set[str] = set()
        """Rooms whose records could not be rebuilt: left alone, not taken again and again."""
        self._seqs = itertools.count(1)
        self._forwarded: dict[int, Forwarded] = {}
        self._behind: dict[ConnId, list[m.ClientMessage]] = {}
        """Requests waiting behind one of the same connection's whose room is being found."""
        self._names_free: set[tuple[ConnId, str]] = set()
        """Names for a second person at a shared screen that Redis said no player holds,
        for the request that asked to go on."""
        self.outbound = Outbound(self.records, self)
        self.outbound.write_seconds = self.cluster_metrics.write_seconds.set
        self._pubsub: PubSub | None = None

    # Starting and stopping.

    async def start(self) -> None:
        """Join the cluster in Redis, listen to the node's channel, then serve."""
        try:
            self.node = await self.records.join_cluster()
            await self.records.load_scripts()
        except (RedisError, OSError) as error:
            await self.redis.aclose()
            raise ConnectionError(f"cannot reach Redis: {error}") from None
        self.available = True
        self.cluster_metrics.redis_up.set(1)
        self.live = {self.node}
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(self.channel(self.node), self._cluster_channel())
        assert self._pubsub.connection is not None
        self._pubsub.connection.register_connect_callback(self._subscribed_again)
        await self.shell.serve_now()
        self._spawn(self._listen_forever())
        self._spawn(self.outbound.run())
        self._spawn(self.outbound.run_control())
        self._spawn(self._heartbeat_forever())
        self._spawn(self._expire_forever())
        log.info("node %d joined the cluster at %s", self.node, self.config.redis_url)

    async def close(self) -> None:
        """Once the shell stopped serving, give the rooms up for the others to take."""
        with contextlib.suppress(RedisError):
            await self.outbound.flush()
            await self.records.release(self.node, self.fences)
        if self._pubsub is not None:
            with contextlib.suppress(RedisError):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.redis.aclose()

    def health_problem(self) -> str | None:
        return None if self.available else "Redis cannot be reached"

    def _cluster_channel(self) -> str:
        return f"{self.records.prefix}cluster"

    def conn_id(self, serial: int) -> ConnId:
        return (self.node << NODE_BITS) | serial

    # Requests from this node's connections.

    def handle(self, conn: ConnId, message: m.ClientMessage) -> None:
        """Act on a request here or send it to its room's owner, in the order the
        connection sent its requests: while one waits to learn where its room is, the
        ones after it wait too."""
        waiting = self._behind.get(conn)
        if waiting is not None:
            waiting.append(message)
            return
        if not self.available and _needs_redis(message):
            why = "the game records cannot be reached; try again soon"
            self._deliver([(conn, unavailable(message.id, why))])
            return
        if isinstance(message, m.ListRooms):
            self._spawn(self._list_rooms(conn, message))
            return
        named = self.lobby.guest_name(conn, message)
        if named is not None and (conn, named) not in self._names_free:
            self._behind[conn] = []
            self._spawn(self._check_name_then_go_on(conn, message, named))
            return
        self._names_free.discard((conn, named or ""))
        ref = getattr(message, "room", None)
        if not isinstance(ref, str):
            self.shell.handle_here(conn, message)
            return
        key = room_key(ref)
        room = self.refs.get(key, key)
        if self._guessing(conn, ref, room):
            refused = m.Error.from_exception(self.lobby.too_many_guesses(), message.id)
            self._deliver([(conn, refused)])
            return
        if isinstance(message, m.Leave):
            self.members.left(conn, room)
        owner = self.owners.get(room)
        if (owner == self.node and room in self.fences) or (
            owner is not None and owner != self.node and self._reachable(owner)
        ):
            self._hand_to(conn, message, room, owner)
        else:
            self._behind[conn] = []
            self._spawn(self._find_then_go_on(conn, message, key))

    def _guessing(self, conn: ConnId, ref: str, room: str) -> bool:
        """Whether a request names a room by a code its connection, past the guessing
        limit, may not try: any room it is not in. Refused here, before Redis is asked,
        so that neither the answer nor its time tells whether the room is there."""
        return (
            len(ref) > ROOM_ID_LENGTH
            and self.lobby.limited(conn)
            and self.members.held(conn, room) is None
        )

    async def _find_then_go_on(self, conn: ConnId, message: m.ClientMessage, ref: str) -> None:
        try:
            await self._find_owner(conn, message, ref)
        finally:
            for waiting in self._behind.pop(conn, []):
                if conn in self.connections:
                    self.handle(conn, waiting)

    async def _check_name_then_go_on(
        self, conn: ConnId, message: m.ClientMessage, name: str
    ) -> None:
        """Ask Redis whether a player holds the name a second person at a shared screen
        asked for (the lobby asks SQLite itself), then act on the request or refuse it."""
        try:
            holder = await self.records.holder_of(name)
            free: bool | None = holder in (None, self.lobby.players.get(conn))
        except Exception:
            log.exception("could not ask Redis whether the name %r is held", name)
            why = "the game records cannot be reached; try again soon"
            self._deliver([(conn, unavailable(message.id, why))])
            free = None
        waiting = self._behind.pop(conn, [])
        if free is False:
            self._deliver([(conn, m.Error.from_exception(held_name(name), message.id))])
        elif free and conn in self.connections:
            self._names_free.add((conn, name))
            self.handle(conn, message)
        for later in waiting:
            if conn in self.connections:
                self.handle(conn, later)

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
        deadline = time.monotonic() + self.patience
        while conn in self.connections:
            try:
                room = self.refs.get(ref) or await self.records.room_id(ref)
                if room is None:
                    self.shell.handle_here(conn, message)  # the lobby answers no_such_room
                    return
                if room != ref:
                    self.refs[ref] = room
                owner = await self.records.owner(room)
                if owner is None or (owner == self.node and room not in self.lobby.rooms):
                    await self._claim([room])
                    owner = self.owners.get(room)
            except RedisError:
                self.lost_redis()
                break
            if (owner == self.node and room in self.fences) or (
                owner is not None and owner != self.node and self._reachable(owner)
            ):
                self.owners[room] = owner
                self._hand_to(conn, message, room, owner, moves)
                return
            if time.monotonic() > deadline or moves > MAX_MOVES:
                break
            await asyncio.sleep(RETRY_SECONDS)
        self._deliver([(conn, unavailable(message.id, "the room's server is not answering"))])

    def _hand_to(
        self, conn: ConnId, message: m.ClientMessage, room: str, owner: int, moves: int = 0
    ) -> None:
        """Hand a request to the room's owner, this node or another; if the room has moved
        since the connection was last put in it, or it is not in there any more, put it
        back in there first."""
        held = self.members.held(conn, room)
        if owner == self.node:
            if held is not None and not self._inside(conn, room):
                self._attach_one(conn, room, held, owner)
            self.shell.handle_here(conn, message)
            return
        if held is not None and held.at != owner:
            self._attach_one(conn, room, held, owner)
        self._forward(conn, message, room, owner, moves)

    def _inside(self, conn: ConnId, room_id: str) -> bool:
        """Whether `conn` is in the room (this node's), in a seat or watching."""
        room = self.lobby.rooms.get(room_id)
        return room is not None and conn in room.connections()

    def _forward(
        self, conn: ConnId, message: m.ClientMessage, room: str, owner: int, moves: int = 0
    ) -> None:
        seq = next(self._seqs)
        deadline = time.monotonic() + self.patience
        self._forwarded[seq] = Forwarded(conn, message, room, owner, deadline, moves)
        self.members.asked_node(conn, owner)
        name = self.lobby.names.get(conn, "")
        player = self.lobby.players.get(conn, "")
        held = self.members.held(conn, room)
        token = None if held is None else held.token
        request = env.Request(
            self.node, seq, conn, name, message.to_wire(), player, token, held is not None
        )
        self._publish(self.channel(owner), request)
        self.cluster_metrics.forwarded.inc()

    def _send_again(self, room: str, owner: int) -> None:
        """`room` has a new owner: the requests still waiting on its old one go to the new
        one, since the old one can no longer carry them out (Redis refuses its writes),
        and had it carried one out, its answer would have come before the news of the new
        owner (both come through this node's subscription, which Redis keeps in order)."""
        for forwarded in list(self._forwarded.values()):
            if forwarded.room != room or forwarded.owner == owner or forwarded.abandoned:
                continue
            forwarded.abandoned = True
            if forwarded.conn in self.connections:
                moves = forwarded.moves + 1
                self._hand_to(forwarded.conn, forwarded.message, room, owner, moves)

    async def _expire_forever(self) -> None:
        while True:
            await asyncio.sleep(EXPIRE_SECONDS)
            self._expire_forwarded()

    def _expire_forwarded(self) -> None:
        """Answer `unavailable` for requests their room's node has not answered in time;
        forget them once a late answer could no longer come."""
        now = time.monotonic()
        for seq, forwarded in list(self._forwarded.items()):
            if not forwarded.abandoned and now > forwarded.deadline:
                forwarded.abandoned = True
                why = "the room's server did not answer in time; try again"
                self._deliver([(forwarded.conn, unavailable(forwarded.message.id, why))])
            if now > forwarded.deadline + self.patience:
                del self._forwarded[seq]

    def disconnected(self, conn: ConnId) -> None:
        for node in self.members.forget(conn):
            if node != self.node:
                self._publish(self.channel(node), env.Gone((conn,)))

    # Envelopes from other nodes.

    async def _listen_forever(self) -> None:
        """Act on every envelope on this node's channel and the cluster's, in order."""
        while True:
            pubsub = self._pubsub
            assert pubsub is not None
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except RedisError:
                self.lost_redis()
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
            case env.Request() | env.Attach():
                self._heard[envelope.edge] = time.monotonic()
            case env.Gone() if envelope.conns:
                self._heard[node_of(envelope.conns[0])] = time.monotonic()
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
                self.send(outbox)
                self._follow_up()
            case env.Moved():
                self._moved(envelope.seq)
            case env.Owner():
                self._owner_changed(envelope.room, envelope.node, envelope.fence)

    def _owned(self, ref: str) -> Room | None:
        """The room `ref` names, if this node owns it."""
        room = self.lobby.named(ref)
        if room is None or room.id not in self.fences:
            return None
        return room

    def _serve_request(self, request: env.Request) -> None:
        """A request from another node's connection about a room this node should own."""
        message = m.read_client_message(request.wire)
        ref = getattr(message, "room", "")
        room = self._owned(ref)
        if room is None:
            self._publish(self.channel(request.edge), env.Moved(request.seq))
            return
        self.lobby.know(request.conn, request.name, request.player)
        if request.member and request.conn not in room.connections():
            # The room was taken over, or the connection dropped while its node seemed
            # lost: it comes back in before its request, whatever became of its Attach.
            back = env.Attach(
                request.edge, request.conn, request.name, room.id, request.token, request.player
            )
            self._attach(back)
        if not self.available and _needs_redis(message):
            why = "the game records cannot be reached; try again soon"
            outbox: Outbox = [(request.conn, unavailable(message.id, why))]
        else:
            outbox = self.shell._ask_lobby(request.conn, message)
        self.send(outbox, request=(request.conn, message), done=(request.edge, request.seq))
        self._follow_up()

    def _attach(self, attach: env.Attach) -> None:
        """Put another node's connection back into a room that moved here, into its seat
        unless the seat's person has already come back through another connection."""
        room = self._owned(attach.room)
        if room is None:
            return
        self.lobby.know(attach.conn, attach.name, attach.player)
        outbox = self.lobby.handle(attach.conn, _coming_back(room, attach))
        if isinstance(outbox[0][1], m.Error):
            outbox = self.lobby.handle(attach.conn, m.Spectate(room=room.code or room.id))
        answer = outbox[0][1]
        if isinstance(answer, m.Joined | m.Watching):
            outbox[0] = (attach.conn, m.RoomView(room=answer.room))
        self.send(outbox)
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

    def _moved(self, seq: int, *, followed: bool = True) -> None:
        """The node asked no longer owns the room: find who does and ask again."""
        forwarded = self._forwarded.pop(seq, None)
        if forwarded is None or forwarded.abandoned:
            return
        self.owners.pop(forwarded.room, None)
        moves = forwarded.moves + followed
        self._spawn(self._find_owner(forwarded.conn, forwarded.message, forwarded.room, moves))

    def _owner_changed(self, room: str, node: int, fence: int) -> None:
        """Another node took `room` from its record, with everyone away: forget it here if
        it was ours, put this node's connections in it back with their tokens, and send
        the requests waiting on its old owner to the new one."""
        if node == self.node or self.fences.get(room, 0) > fence:
            return  # `_claim` did all this, or this node took the room after that node
        self.owners[room] = node
        if room in self.fences:
            self._forget_rooms([room])
        self._attach_members(room, node, again=True)
        self._send_again(room, node)

    def _attach_members(self, room: str, node: int, *, again: bool = False) -> None:
        """Put this node's connections in `room` back into it, at its owner `node`: those
        put in at another node, or `again` every one."""
        for conn, held in list(self.members.in_room(room)):
            if again or held.at != node:
                self._attach_one(conn, room, held, node)

    def _attach_one(self, conn: ConnId, room: str, held: Held, node: int) -> None:
        held.at = node
        name = self.lobby.names.get(conn, "")
        player = self.lobby.players.get(conn, "")
        attach = env.Attach(self.node, conn, name, room, held.token, player)
        if node == self.node:
            self._attach(attach)
        else:
            self.members.asked_node(conn, node)
            self._publish(self.channel(node), attach)

    # Sending: records first, then messages.

    def send(
        self,
        outbox: Outbox,
        request: tuple[ConnId, m.ClientMessage] | None = None,
        about: Iterable[str] = (),
        *,
        done: tuple[int, int] | None = None,
    ) -> None:
        """Send the lobby's messages once Redis holds the records they tell of, in the
        order they were made. Rooms they show but did not change are checked: the messages
        go only if this node still holds them, so nobody is shown a room as a node that
        lost it has it (a change Redis refused, say)."""
        unsaved = self.lobby.take_unsaved()
        results: dict[str, list[Result]] = {}
        for result in unsaved.results:
            results.setdefault(result.room, []).append(result)
        writes = [self._room_write(room, results.get(room.id, ())) for room in unsaved.rooms]
        for room_id in unsaved.closed:
            self._listed.pop(room_id, None)
            writes.append(RoomWrite(room_id, self.fences.get(room_id, NEW_ROOM), None))
        shown = set(about)
        if request is not None:
            shown.add(getattr(request[1], "room", None) or "")
        shown.update(filter(None, (room_named(message) for _, message in outbox)))
        written = {write.room for write in writes}
        for ref in sorted(shown):
            room = self.lobby.named(ref) if ref else None
            if room is not None and room.id not in written:
                written.add(room.id)
                writes.append(RoomWrite(room.id, self.fences.get(room.id, NEW_ROOM), CHECK))
        self.outbound.change(Change(writes, outbox, done, request))

    def _room_write(self, room: Room, results: Iterable[Result]) -> RoomWrite:
        """The room's record as text for Redis; its lobby line only when it changed (most
        moves change nothing the lobby shows), its code only when the room is new."""
        fence = self.fences.get(room.id, NEW_ROOM)
        record = record_text(room).text
        summary = json.dumps(room.summary(), separators=(",", ":")) if room.listed else None
        if room.id in self._listed and self._listed[room.id] == summary:
            summary = KEEP
        else:
            self._listed[room.id] = summary
        code = room.code if fence == NEW_ROOM else None
        return RoomWrite(room.id, fence, record, summary, code, tuple(results))

    def channel(self, node: int) -> str:
        return f"{self.records.prefix}node:{node}"

    def deliver_here(self, outbox: Outbox) -> None:
        self._deliver(outbox)

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
        self.cluster_metrics.rooms_owned.set(len(self.fences))

    def not_kept(self, writes: list[RoomWrite], fenced_out: int = 0) -> None:
        """Redis refused (`fenced_out` of them for a lease this node lost), or never got,
        these rooms' writes: forget the rooms here, unless this node has taken one again
        under a new fence meanwhile."""
        self.cluster_metrics.fenced_out.inc(fenced_out)
        held = self.fences
        self._forget_rooms({w.room for w in writes if held.get(w.room, NEW_ROOM) == w.fence})

    def ask_again(self, change: Change) -> None:
        """Redis refused a change for a lease this node lost, so the request it answered
        was carried out nowhere: it goes to the room's owner now."""
        if change.done is not None:
            edge, seq = change.done
            self._publish(self.channel(edge), env.Moved(seq))
        elif change.request is not None and change.request[0] in self.connections:
            self.handle(*change.request)

    def unheard(self, seq: int) -> None:
        """A request reached no node: its room's owner is gone (its lease may not have run
        out yet), or making its subscription anew. The request waits a little, then goes
        to whoever holds the room by then: that node again, or the one that took it."""
        forwarded = self._forwarded.get(seq)
        if forwarded is not None:
            self._silent[forwarded.owner] = time.monotonic()
        self._moved(seq, followed=False)

    def _reachable(self, node: int) -> bool:
        """Whether `node` is live and, if what was last sent to it reached no listener, a
        while has passed since: a node that is only making its subscription anew after a
        broken link is back within it, and a request nobody heard is safe to send again."""
        silent = self._silent.get(node)
        if silent is not None and time.monotonic() - silent < SILENT_SECONDS:
            return False
        return node in self.live

    def _deliver(self, outbox: Outbox) -> None:
        for conn, message in outbox:
            if message.TYPE in NOTED and conn in self.connections:
                self.members.note(conn, message.TYPE, message.to_wire(), self.node)
        self.shell._deliver(outbox)

    def _deliver_wire(self, conn: ConnId, wire: Wire) -> None:
        """A message from another node, as its wire map, to one of this node's connections."""
        entry = self.connections.get(conn)
        if entry is None:
            return
        kind = str(wire.get("type"))
        if kind in NOTED:
            about = wire.get("room")
            room = about.get("room") if isinstance(about, dict) else about
            self.members.note(conn, kind, wire, self.owners.get(str(room)))
        websocket, session = entry
        if kind == m.Error.TYPE:
            self.metrics.errors.labels(str(wire.get("code"))).inc()
        self.shell._send_frame(conn, websocket, session.codec.encode(wire))

    def _publish(self, channel: str, envelope: env.Envelope) -> None:
        self.outbound.publish(channel, envelope)

    def lost_redis(self) -> None:
        """Redis cannot be reached: every request about a room is answered `unavailable`
        until it can, those waiting on other nodes at once (their answers could only come
        through Redis)."""
        if self.available:
            log.warning("node %d cannot reach Redis: refusing room changes", self.node)
            self._give_up_forwarded("the game records cannot be reached; try again soon")
        self.available = False
        self.cluster_metrics.redis_up.set(0)

    def _give_up_forwarded(self, why: str) -> None:
        """Answer `unavailable` for every request waiting on another node; an answer that
        comes after all the same is dropped."""
        for forwarded in self._forwarded.values():
            if not forwarded.abandoned:
                forwarded.abandoned = True
                self._deliver([(forwarded.conn, unavailable(forwarded.message.id, why))])

    def redis_back(self) -> None:
        if not self.available:
            log.info("node %d reaches Redis again", self.node)
            self.available = True
            self.cluster_metrics.redis_up.set(1)
            # Idle connections made before Redis went away are dead: not one request
            # should meet one.
            self._spawn(self.redis.connection_pool.disconnect(inuse_connections=False))
            self.lobby.recheck()
            self._follow_up()

    def _subscribed_again(self, connection: Connection) -> None:
        """redis-py made this node's subscription again on a new connection: whatever was
        published meanwhile never came. Answers to requests sent before may be lost: they
        are answered `unavailable`. Rooms may have changed hands unheard: this node's
        connections are put back in their rooms wherever these are now."""
        log.warning("node %d listens again: what was published meanwhile was missed", self.node)
        self._give_up_forwarded("the answer was lost on the way; try again")
        self.owners = {room: node for room, node in self.owners.items() if node == self.node}
        self._spawn(self._attach_everywhere())

    def thinkers(self) -> Thinkers:
        """The cluster's workers, through Redis; this node's processes among them, if any."""
        config = self.config
        own = None
        if config.bot_workers > 0:
            pool = BotWorkers(config.bot_workers, config.think, config.bot_grace, Metrics())
            own = JobWorker(self.redis, pool, self.records.prefix)
        return RemoteThinkers(self.redis, self.metrics, config.bot_grace, own, self.records.prefix)

    def may_think(self) -> bool:
        return self.available

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        return self.shell._spawn(work)

    def _follow_up(self) -> None:
        self.shell._follow_up()


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


def _needs_redis(message: m.ClientMessage) -> bool:
    """Whether a request changes a room or the records, or is about a room (what a node
    shows of a room, Redis must confirm): refused while Redis cannot be reached."""
    return isinstance(message, ROOM_CHANGES) or getattr(message, "room", None) is not None
