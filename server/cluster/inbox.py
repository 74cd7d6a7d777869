"""What a cluster node hears from the others through Redis: requests about its rooms,
connections to put back in them, messages for its own connections, connections gone,
requests to send elsewhere, rooms that changed hands, and turns passed to players."""

import asyncio
import logging
from collections.abc import Mapping

from prometheus_client import Counter
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import Connection
from redis.exceptions import RedisError
from websockets.asyncio.server import ServerConnection

from parlour.protocol import ServerSession
from parlour.protocol import messages as m
from parlour.protocol.wire import Message as Wire

from ..answers import Outbox
from ..app import Shell
from ..lobby import Lobby
from ..room import ConnId
from . import envelopes as env
from .forwarding import Forwarding
from .leases import Leases
from .link import Link
from .members import NOTED, Memberships
from .outbound import RETRY_SECONDS, node_of, unavailable
from .routing import AWAY, Edge, Routing, needs_redis

log = logging.getLogger("parlour.cluster")


class Inbox:
    """This node's subscription to its own channel and the cluster's, and what it does
    with each envelope, in the order Redis delivers them."""

    def __init__(
        self,
        *,
        lobby: Lobby,
        connections: Mapping[ConnId, tuple[ServerConnection, ServerSession]],
        members: Memberships,
        link: Link,
        leases: Leases,
        forwarding: Forwarding,
        routing: Routing,
        shell: Shell,
        edge: Edge,
        errors: Counter,
    ) -> None:
        self.lobby = lobby
        self.connections = connections
        self.members = members
        self.link = link
        self.leases = leases
        self.forwarding = forwarding
        self.routing = routing
        self.shell = shell
        self.edge = edge
        self.errors = errors
        """Counts the errors sent, by code (the server's own counter)."""
        self._pubsub: PubSub | None = None

    async def subscribe(self, redis: Redis) -> None:
        """Listen to this node's channel and the cluster's (`listen_forever` hears them)."""
        self._pubsub = redis.pubsub()
        await self._pubsub.subscribe(
            self.link.channel(self.link.node), self.link.cluster_channel()
        )
        assert self._pubsub.connection is not None
        self._pubsub.connection.register_connect_callback(self._subscribed_again)

    async def close(self) -> None:
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]

    async def listen_forever(self) -> None:
        """Act on every envelope on this node's channel and the cluster's, in order."""
        while True:
            pubsub = self._pubsub
            assert pubsub is not None
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except RedisError:
                self.link.lost()
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
                self.receive(envelope)
            except Exception:
                log.exception("failed on a %s envelope", type(envelope).__name__)

    def receive(self, envelope: env.Envelope) -> None:
        """Act on one envelope from another node (or this one, on the cluster's channel)."""
        match envelope:
            case env.Request() | env.Attach():
                self.leases.heard(envelope.edge)
            case env.Gone() if envelope.conns:
                self.leases.heard(node_of(envelope.conns[0]))
        match envelope:
            case env.Request():
                self._serve_request(envelope)
            case env.Deliver():
                for conn, wire in self.forwarding.answered(envelope):
                    self._deliver_wire(conn, wire)
            case env.Attach():
                self.routing.attach(envelope)
            case env.Gone():
                outbox: Outbox = []
                for conn in envelope.conns:
                    outbox += self.lobby.disconnect(conn)
                self.edge.send(outbox)
                self.shell.follow_up()
            case env.Moved():
                self.routing.moved(envelope.seq)
            case env.Owner():
                self._owner_changed(envelope.room, envelope.node, envelope.fence)
            case env.Turn():
                told = envelope.notice.outbox(self.lobby.people.players, self.connections)
                self.edge.deliver_here(told)
            case env.Standing() if envelope.edge != self.link.node:
                self.lobby.people.stood(
                    envelope.player, envelope.kind, envelope.person, envelope.name, envelope.on
                )
            case env.Vacation() if envelope.edge != self.link.node:
                held = self.lobby.timekeeper.apply_vacation(
                    envelope.player, envelope.from_ms, envelope.until_ms
                )
                self.edge.send(held)

    def _serve_request(self, request: env.Request) -> None:
        """A request from another node's connection about a room this node should own."""
        message = m.read_client_message(request.wire)
        ref = getattr(message, "room", "")
        room = self.leases.owned(ref)
        if room is None:
            self.edge.publish(request.edge, env.Moved(request.seq))
            return
        blocked_by = frozenset(request.blocked_by)
        self.lobby.people.know(request.conn, request.name, request.player, blocked_by)
        if isinstance(message, m.Move):
            self.lobby.people.lags[request.conn] = request.lag_ms
        if request.member and request.conn not in room.connections():
            # The room was taken over, or the connection dropped while its node seemed
            # lost: it comes back in before its request, whatever became of its Attach.
            back = env.Attach(
                request.edge, request.conn, request.name, room.id, request.token, request.player
            )
            self.routing.attach(back)
        if not self.link.available and needs_redis(message):
            outbox: Outbox = [(request.conn, unavailable(message.id, AWAY))]
        else:
            outbox = self.shell.ask_lobby(request.conn, message)
        self.edge.send(outbox, request=(request.conn, message), done=(request.edge, request.seq))
        self.shell.follow_up()

    def _deliver_wire(self, conn: ConnId, wire: Wire) -> None:
        """A message from another node, as its wire map, to one of this node's connections."""
        entry = self.connections.get(conn)
        if entry is None:
            return
        kind = str(wire.get("type"))
        if kind in NOTED:
            about = wire.get("room")
            room = about.get("room") if isinstance(about, dict) else about
            self.members.note(conn, kind, wire, self.leases.owners.get(str(room)))
        websocket, session = entry
        if kind == m.Error.TYPE:
            self.errors.labels(str(wire.get("code"))).inc()
        elif kind == m.ChatLine.TYPE and self.lobby.people.hides(
            conn, _text(wire.get("player")), str(wire.get("name"))
        ):
            return  # the reader muted or blocked its writer
        self.shell.send_frame(conn, websocket, session.codec.encode(wire))

    def _owner_changed(self, room: str, node: int, fence: int) -> None:
        """Another node took `room` from its record, with everyone away: forget it here if
        it was ours, put this node's connections in it back with their tokens, and send
        the requests waiting on its old owner to the new one."""
        if self.leases.taken(room, node, fence):
            self.routing.put_back(room, node)
            self.routing.send_again(room, node)

    def _subscribed_again(self, connection: Connection) -> None:
        """redis-py made this node's subscription again on a new connection: whatever was
        published meanwhile never came. Answers to requests sent before may be lost: they
        are answered `unavailable`. Rooms may have changed hands unheard: this node's
        connections are put back in their rooms wherever these are now."""
        log.warning(
            "node %d listens again: what was published meanwhile was missed", self.link.node
        )
        self.forwarding.give_up("the answer was lost on the way; try again")
        self.leases.forget_others()
        self.shell.spawn(self.leases.attach_everywhere())


def _text(value: object) -> str | None:
    """A wire field that is a string, else None."""
    return value if isinstance(value, str) else None
