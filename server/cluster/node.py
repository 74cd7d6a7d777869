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

import contextlib
import logging
from collections.abc import Iterable, Mapping
from typing import Final

from redis.exceptions import RedisError

from parlour.protocol import messages as m

from ..answers import Outbox
from ..app import ParlourServer
from ..metrics import Metrics
from ..room import ConnId
from ..scores import Result
from ..workers import BotWorkers, Thinkers
from . import envelopes as env
from .connect import connect
from .forwarding import Forwarding
from .inbox import Inbox
from .leases import Leases
from .link import Link
from .members import NOTED, Memberships
from .metrics import ClusterMetrics
from .outbound import NODE_BITS, Change, Outbound, room_named
from .presence import Presence
from .records import RedisRecords, RoomWrite
from .remote import RemoteThinkers
from .routing import AWAY, Routing
from .worker import JobWorker

log = logging.getLogger("parlour.cluster")

ANSWER_MARGIN: Final = 2.0
"""Seconds past the lease by which every request is answered, if only `unavailable`: time
for another node to take a lost owner's rooms (protocol.md, section 6)."""


class ClusterNode:
    """One node of a cluster: the keeper a server shell is given for rooms owned under
    leases in Redis. It is made of parts that each keep their own state: its link to
    Redis, its leases, the routing of its connections' requests, the requests waiting on
    other nodes, what it hears from them, and its outbound writes; it wires them to each
    other and to the shell's lobby and connections."""

    def __init__(self, shell: ParlourServer) -> None:
        config = shell.config
        assert config.redis_url is not None
        self.shell = shell
        self.config = config
        self.lobby = shell.lobby
        self.connections = shell.connections
        self.redis = connect(config.redis_url)
        self.records = RedisRecords(self.redis, round(config.lease_seconds * 1000))
        shell.remote_archive = self.records
        self.counts = ClusterMetrics(shell.metrics)
        self.members = Memberships()
        patience = config.lease_seconds + ANSWER_MARGIN
        self.forwarding = Forwarding(patience, self.deliver_here)
        self.link = Link(
            self.records,
            self.counts,
            on_lost=self._redis_lost,
            on_back=self._redis_back,
        )
        self._lost_at = 0.0
        """When Redis was found away last (the lobby's Unix time): clocks stand still since."""
        self.leases = Leases(
            records=self.records,
            lobby=self.lobby,
            members=self.members,
            link=self.link,
            shell=shell,
            holder=self,
            metrics=shell.metrics,
            counts=self.counts,
        )
        self.routing = Routing(
            lobby=self.lobby,
            connections=self.connections,
            records=self.records,
            members=self.members,
            link=self.link,
            leases=self.leases,
            forwarding=self.forwarding,
            shell=shell,
            edge=self,
            forwarded=self.counts.forwarded,
        )
        self.inbox = Inbox(
            lobby=self.lobby,
            connections=self.connections,
            members=self.members,
            link=self.link,
            leases=self.leases,
            forwarding=self.forwarding,
            routing=self.routing,
            shell=shell,
            edge=self,
            errors=shell.metrics.errors,
        )
        self.outbound = Outbound(self.records, self)
        self.outbound.write_seconds = self.counts.write_seconds.set
        keep_ms = round(config.lease_seconds * 2000)
        self.presence = Presence(self.records, lambda: self.node, shell.spawn, keep_ms)
        """Which players are connected here, for every node's digests to see."""

    @property
    def node(self) -> int:
        """This node's number in the cluster."""
        return self.link.node

    @property
    def fences(self) -> Mapping[str, int]:
        """The rooms this node owns, with the fencing number it holds each under."""
        return self.leases.fences

    # The keeper's part: starting, stopping, requests, connections.

    async def start(self) -> None:
        """Join the cluster in Redis, listen to the node's channel, then serve."""
        try:
            await self.link.join()
        except (RedisError, OSError) as error:
            await self.redis.aclose()
            raise ConnectionError(f"cannot reach Redis: {error}") from None
        self.leases.joined()
        await self.inbox.subscribe(self.redis)
        await self.shell.serve_now()
        spawn = self.shell.spawn
        spawn(self.inbox.listen_forever())
        spawn(self.outbound.run())
        spawn(self.outbound.run_control())
        spawn(self.leases.heartbeat_forever(self.config.lease_seconds / 3))
        spawn(self.presence.renew_forever(self.config.lease_seconds / 3))
        spawn(self.forwarding.expire_forever())
        log.info("node %d joined the cluster at %s", self.node, self.config.redis_url)

    async def close(self) -> None:
        """Once the shell stopped serving, give the rooms up for the others to take."""
        with contextlib.suppress(RedisError):
            await self.outbound.flush()
            await self.leases.release()
        with contextlib.suppress(RedisError):
            await self.inbox.close()
        await self.redis.aclose()

    def health_problem(self) -> str | None:
        return None if self.link.available else "Redis cannot be reached"

    def conn_id(self, serial: int) -> ConnId:
        return (self.node << NODE_BITS) | serial

    def handle(self, conn: ConnId, message: m.ClientMessage) -> None:
        """Act on a request here or send it to its room's owner (`Routing.handle`)."""
        self.routing.handle(conn, message)

    def disconnected(self, conn: ConnId) -> None:
        self.routing.disconnected(conn)
        self.presence.closed(conn)

    def thinkers(self) -> Thinkers:
        """The cluster's workers, through Redis; this node's processes among them, if any."""
        config = self.config
        own = None
        if config.bot_workers > 0:
            pool = BotWorkers(config.bot_workers, config.think, config.bot_grace, Metrics())
            own = JobWorker(self.redis, pool, self.records.prefix)
        metrics, prefix = self.shell.metrics, self.records.prefix
        return RemoteThinkers(self.redis, metrics, config.bot_grace, own, prefix)

    def may_think(self) -> bool:
        return self.link.available

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
        lost it has it (a change Redis refused, say). A turn passed to a player is told
        to every node, for each to tell the player's connections it holds."""
        for conn, message in outbox:
            if isinstance(message, m.Welcome) and message.player and conn in self.connections:
                self.presence.welcomed(conn, str(message.player["id"]))
        unsaved = self.lobby.take_unsaved()
        results: dict[str, list[Result]] = {}
        for result in unsaved.results:
            results.setdefault(result.room, []).append(result)
        leases = self.leases
        writes = [leases.write(room, results.get(room.id, ())) for room in unsaved.rooms]
        writes += [leases.closing(room_id) for room_id in unsaved.closed]
        shown = set(about)
        if request is not None:
            shown.add(getattr(request[1], "room", None) or "")
        shown.update(filter(None, (room_named(message) for _, message in outbox)))
        written = {write.room for write in writes}
        for ref in sorted(shown):
            room = self.lobby.named(ref) if ref else None
            if room is not None and room.id not in written:
                written.add(room.id)
                writes.append(leases.check(room.id))
        everyone = self.link.cluster_channel()
        turns = [(everyone, env.Turn(notice)) for notice in self.lobby.your_turns()]
        self.outbound.change(Change(writes, outbox, done, request, turns=turns))
        for player, start, until in self.lobby.timekeeper.vacations_taken():
            self.outbound.publish(everyone, env.Vacation(player, start, until, self.node))
        for change in self.lobby.standings_changed():
            told = env.Standing(
                change.player, change.kind, change.person, change.name, change.on, self.node
            )
            self.outbound.publish(everyone, told)

    def deliver_here(self, outbox: Outbox) -> None:
        """Send messages to this node's connections now, noting the rooms they are in."""
        for conn, message in outbox:
            if message.TYPE in NOTED and conn in self.connections:
                self.members.note(conn, message.TYPE, message.to_wire(), self.node)
        self.shell.deliver(outbox)

    def publish(self, node: int, envelope: env.Envelope) -> None:
        """Send an envelope to `node` at once."""
        self.outbound.publish(self.channel(node), envelope)

    # What the outbound writes and the leases call back.

    def channel(self, node: int) -> str:
        return self.link.channel(node)

    def kept(self, write: RoomWrite, fence: int) -> None:
        self.leases.kept(write, fence)

    def not_kept(self, writes: list[RoomWrite], fenced_out: int = 0) -> None:
        self.leases.not_kept(writes, fenced_out)

    def ask_again(self, change: Change) -> None:
        """Redis refused a change for a lease this node lost, so the request it answered
        was carried out nowhere: it goes to the room's owner now."""
        if change.done is not None:
            edge, seq = change.done
            self.publish(edge, env.Moved(seq))
        elif change.request is not None and change.request[0] in self.connections:
            self.handle(*change.request)

    def unheard(self, seq: int) -> None:
        self.routing.unheard(seq)

    def lost_redis(self) -> None:
        self.link.lost()

    def redis_back(self) -> None:
        self.link.back()

    def _redis_lost(self) -> None:
        self._lost_at = self.lobby.wall()
        self.forwarding.give_up(AWAY)

    def _redis_back(self) -> None:
        # Idle connections made before Redis went away are dead: not one request should
        # meet one.
        self.shell.spawn(self.redis.connection_pool.disconnect(inuse_connections=False))
        self.send(self.lobby.timekeeper.resume_clocks(self._lost_at))
        self.lobby.recheck()
        self.shell.follow_up()

    def took(self, room: str, fence: int) -> None:
        """`room` is this node's now: the other nodes are told, this node's connections
        go back in, and the requests that waited on its old owner are carried out here."""
        self.outbound.publish(self.link.cluster_channel(), env.Owner(room, self.node, fence))
        self.routing.put_back(room, self.node)
        self.routing.send_again(room, self.node)

    def put_back(self, room: str, node: int) -> None:
        self.routing.put_back(room, node)
