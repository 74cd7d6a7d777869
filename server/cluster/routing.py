"""Where a cluster node's connections' requests go: to this node's lobby, or through Redis
to the node that owns their room, in the order each connection sent them; and how its
connections are put back into rooms that moved, with the tokens they hold there."""

import asyncio
import logging
import time
from collections.abc import Container, Iterable
from typing import Final, Protocol

from prometheus_client import Counter
from redis.exceptions import RedisError

from parlour.protocol import messages as m
from parlour.protocol.codes import room_key

from ..answers import Outbox
from ..app import Shell
from ..lobby import ROOM_ID_LENGTH, Lobby
from ..people import held_name
from ..room import ConnId, Room
from . import envelopes as env
from .forwarding import Forwarded, Forwarding
from .leases import Leases
from .link import Link
from .members import Held, Memberships
from .outbound import RETRY_SECONDS, unavailable
from .records import RedisRecords

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
    m.HandOver,
    m.Resign,
    m.OfferDraw,
    m.Abort,
    m.Claim,
    m.Answer,
    m.ImportGame,
    m.LoadGame,
    m.SaveGame,
    m.SetInitials,
    m.SetEmail,
    m.VerifyEmail,
)
"""Requests that change a room or the records."""
MAX_MOVES: Final = 5
"""Times a request follows its room to a new owner before it is answered `unavailable`."""
AWAY: Final = "the game records cannot be reached; try again soon"


class Edge(Protocol):
    """What the routing, and the envelopes from other nodes, ask of their node."""

    def deliver_here(self, outbox: Outbox) -> None:
        """Send messages to this node's connections now."""

    def publish(self, node: int, envelope: env.Envelope) -> None:
        """Send an envelope to another node at once."""

    def send(
        self,
        outbox: Outbox,
        request: tuple[ConnId, m.ClientMessage] | None = None,
        about: Iterable[str] = (),
        *,
        done: tuple[int, int] | None = None,
    ) -> None:
        """Keep what the lobby changed, then send its messages (`ClusterNode.send`)."""


class Routing:
    """This node's connections' requests, each acted on here or sent to its room's owner,
    and its connections' places in rooms that moved."""

    def __init__(
        self,
        *,
        lobby: Lobby,
        connections: Container[ConnId],
        records: RedisRecords,
        members: Memberships,
        link: Link,
        leases: Leases,
        forwarding: Forwarding,
        shell: Shell,
        edge: Edge,
        forwarded: Counter,
    ) -> None:
        self.lobby = lobby
        self.connections = connections
        self.records = records
        self.members = members
        self.link = link
        self.leases = leases
        self.forwarding = forwarding
        self.shell = shell
        self.edge = edge
        self.forwarded = forwarded
        """Counts the requests sent to other nodes."""
        self._behind: dict[ConnId, list[m.ClientMessage]] = {}
        """Requests waiting behind one of the same connection's whose room is being found."""
        self._names_free: set[tuple[ConnId, str]] = set()
        """Names for a second person at a shared screen that Redis said no player holds,
        for the request that asked to go on."""

    @property
    def node(self) -> int:
        return self.link.node

    def handle(self, conn: ConnId, message: m.ClientMessage) -> None:
        """Act on a request here or send it to its room's owner, in the order the
        connection sent its requests: while one waits to learn where its room is, the
        ones after it wait too."""
        waiting = self._behind.get(conn)
        if waiting is not None:
            waiting.append(message)
            return
        if not self.link.available and needs_redis(message):
            self.edge.deliver_here([(conn, unavailable(message.id, AWAY))])
            return
        if isinstance(message, m.ListRooms):
            self.shell.spawn(self._list_rooms(conn, message))
            return
        named = self.lobby.people.guest_name(conn, message)
        if named is not None and (conn, named) not in self._names_free:
            self._behind[conn] = []
            self.shell.spawn(self._check_name_then_go_on(conn, message, named))
            return
        self._names_free.discard((conn, named or ""))
        ref = getattr(message, "room", None)
        if not isinstance(ref, str):
            self.shell.handle_here(conn, message)
            return
        key = room_key(ref)
        room = self.leases.refs.get(key, key)
        if self._guessing(conn, ref, room):
            refused = m.Error.from_exception(self.lobby.too_many_guesses(), message.id)
            self.edge.deliver_here([(conn, refused)])
            return
        if isinstance(message, m.Leave):
            self.members.left(conn, room)
        owner = self.leases.owners.get(room)
        if self._at(room, owner):
            assert owner is not None
            self._hand_to(conn, message, room, owner)
        else:
            self._behind[conn] = []
            self.shell.spawn(self._find_then_go_on(conn, message, key))

    def _at(self, room: str, owner: int | None) -> bool:
        """Whether a request about `room` can go to `owner` now: this node, holding it, or
        another that is reachable."""
        if owner == self.node:
            return room in self.leases.fences
        return owner is not None and self._reachable(owner)

    def _reachable(self, node: int) -> bool:
        """Whether `node` is live and, if what was last sent to it reached no listener, a
        while has passed since."""
        return not self.forwarding.silent(node) and node in self.leases.live

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
            free: bool | None = holder in (None, self.lobby.people.players.get(conn))
        except Exception:
            log.exception("could not ask Redis whether the name %r is held", name)
            self.edge.deliver_here([(conn, unavailable(message.id, AWAY))])
            free = None
        waiting = self._behind.pop(conn, [])
        if free is False:
            self.edge.deliver_here([(conn, m.Error.from_exception(held_name(name), message.id))])
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
        self.edge.deliver_here([(conn, listed)])

    async def _find_owner(
        self, conn: ConnId, message: m.ClientMessage, ref: str, moves: int = 0
    ) -> None:
        """Ask Redis which room `ref` names and who owns it, and take it if nobody does
        (its owner was lost); then hand the request to the owner. Waits while the room's
        lease outlives an owner that no longer answers."""
        leases = self.leases
        deadline = time.monotonic() + self.forwarding.patience
        while conn in self.connections:
            try:
                room = leases.refs.get(ref) or await self.records.room_id(ref)
                if room is None:
                    self.shell.handle_here(conn, message)  # the lobby answers no_such_room
                    return
                if room != ref:
                    leases.refs[ref] = room
                owner = await self.records.owner(room)
                if owner is None or (owner == self.node and room not in self.lobby.rooms):
                    await leases.claim([room])
                    owner = leases.owners.get(room)
            except RedisError:
                self.link.lost()
                break
            if self._at(room, owner):
                assert owner is not None
                leases.owners[room] = owner
                self._hand_to(conn, message, room, owner, moves)
                return
            if time.monotonic() > deadline or moves > MAX_MOVES:
                break
            await asyncio.sleep(RETRY_SECONDS)
        why = "the room's server is not answering"
        self.edge.deliver_here([(conn, unavailable(message.id, why))])

    def _hand_to(
        self, conn: ConnId, message: m.ClientMessage, room: str, owner: int, moves: int = 0
    ) -> None:
        """Hand a request to the room's owner, this node or another; if the room has moved
        since the connection was last put in it, or it is not in there any more, put it
        back in there first."""
        held = self.members.held(conn, room)
        if owner == self.node:
            if held is not None and not self._inside(conn, room):
                self._put_one_back(conn, room, held, owner)
            self.shell.handle_here(conn, message)
            return
        if held is not None and held.at != owner:
            self._put_one_back(conn, room, held, owner)
        self._forward(conn, message, room, owner, moves)

    def _inside(self, conn: ConnId, room_id: str) -> bool:
        """Whether `conn` is in the room (this node's), in a seat or watching."""
        room = self.lobby.rooms.get(room_id)
        return room is not None and conn in room.connections()

    def _forward(
        self, conn: ConnId, message: m.ClientMessage, room: str, owner: int, moves: int = 0
    ) -> None:
        seq = self.forwarding.add(conn, message, room, owner, moves)
        self.members.asked_node(conn, owner)
        name = self.lobby.people.names.get(conn, "")
        player = self.lobby.people.players.get(conn, "")
        held = self.members.held(conn, room)
        token = None if held is None else held.token
        member, lag = held is not None, self.lobby.people.lag_ms(conn)
        wire = message.to_wire()
        blocked_by = tuple(sorted(self.lobby.people.standing(conn).blocked_by))
        request = env.Request(
            self.node, seq, conn, name, wire, player, token, member, lag, blocked_by
        )
        self.edge.publish(owner, request)
        self.forwarded.inc()

    # Requests whose room moved.

    def send_again(self, room: str, owner: int) -> None:
        """`room` has a new owner: the requests still waiting on its old one go to it."""
        for forwarded in self.forwarding.again(room, owner):
            if forwarded.conn in self.connections:
                moves = forwarded.moves + 1
                self._hand_to(forwarded.conn, forwarded.message, room, owner, moves)

    def moved(self, seq: int) -> None:
        """The node asked no longer owns the room: find who does and ask again."""
        forwarded = self.forwarding.moved(seq)
        if forwarded is not None:
            self._follow(forwarded, forwarded.moves + 1)

    def unheard(self, seq: int) -> None:
        """A request reached no node: its room's owner is gone (its lease may not have run
        out yet), or making its subscription anew. The request waits a little, then goes
        to whoever holds the room by then: that node again, or the one that took it."""
        forwarded = self.forwarding.unheard(seq)
        if forwarded is not None:
            self._follow(forwarded, forwarded.moves)

    def _follow(self, forwarded: Forwarded, moves: int) -> None:
        self.leases.owners.pop(forwarded.room, None)
        find = self._find_owner(forwarded.conn, forwarded.message, forwarded.room, moves)
        self.shell.spawn(find)

    def disconnected(self, conn: ConnId) -> None:
        """One of this node's connections closed: the nodes its requests went to are told."""
        for node in self.members.forget(conn):
            if node != self.node:
                self.edge.publish(node, env.Gone((conn,)))

    # Connections put back into rooms that moved.

    def put_back(self, room: str, node: int) -> None:
        """Put every one of this node's connections in `room` back into it, at its owner
        `node`, with what each held there."""
        for conn, held in list(self.members.in_room(room)):
            self._put_one_back(conn, room, held, node)

    def _put_one_back(self, conn: ConnId, room: str, held: Held, node: int) -> None:
        held.at = node
        name = self.lobby.people.names.get(conn, "")
        player = self.lobby.people.players.get(conn, "")
        attach = env.Attach(self.node, conn, name, room, held.token, player)
        if node == self.node:
            self.attach(attach)
        else:
            self.members.asked_node(conn, node)
            self.edge.publish(node, attach)

    def attach(self, attach: env.Attach) -> None:
        """Put a connection (this node's or another's) back into a room of this node's that
        moved here, into its seat unless the seat's person has already come back through
        another connection."""
        room = self.leases.owned(attach.room)
        if room is None:
            return
        self.lobby.people.know(attach.conn, attach.name, attach.player)
        outbox = self.lobby.handle(attach.conn, _coming_back(room, attach))
        if isinstance(outbox[0][1], m.Error):
            outbox = self.lobby.handle(attach.conn, m.Spectate(room=room.code or room.id))
        answer = outbox[0][1]
        if isinstance(answer, m.Joined | m.Watching):
            outbox[0] = (attach.conn, m.RoomView(room=answer.room))
        self.edge.send(outbox)
        self.shell.follow_up()


def needs_redis(message: m.ClientMessage) -> bool:
    """Whether a request changes a room or the records, or is about a room (what a node
    shows of a room, Redis must confirm): refused while Redis cannot be reached."""
    return isinstance(message, ROOM_CHANGES) or getattr(message, "room", None) is not None


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
