"""What the nodes of a cluster say to each other through Redis, as MessagePack.

A node that holds a player's connection (the edge) sends the player's requests about a
room to the node that owns the room, and the owner sends back every message for that
edge's connections. Client messages travel as their wire maps, already checked by the
edge; nothing here awaits.
"""

from dataclasses import dataclass
from typing import Any

import msgpack

from parlour.protocol.wire import Message as Wire

from ..notices import TurnNotice
from ..room import ConnId


class EnvelopeError(ValueError):
    """Bytes from the cluster channel that are not an envelope of this version."""


@dataclass(frozen=True, slots=True)
class Request:
    """A client's request about a room, for the room's owner."""

    edge: int
    seq: int
    """The edge's number for the request: the owner says when it is done with it."""
    conn: ConnId
    name: str
    wire: Wire
    player: str = ""
    """The id the connection's key proved; empty for a guest."""
    token: str | None = None
    """The seat (or host) token the connection holds in the room, as far as the edge
    knows; None for a spectator."""
    member: bool = False
    """Whether the connection is in the room, as far as the edge knows: if the owner has
    it away (the room was taken over, say), it comes back in with `token` first."""
    lag_ms: int = 0
    """The connection's network lag as the edge measured it (half its last ping's round
    trip), forgiven on a move's clock as the owner's own connections' is."""
    blocked_by: tuple[str, ...] = ()
    """The people who block the connection's person, as the edge knows: they may not be
    seated together (protocol.md 2.14)."""


@dataclass(frozen=True, slots=True)
class Attach:
    """Put a connection back into a room that has moved to another owner."""

    edge: int
    conn: ConnId
    name: str
    room: str
    token: str | None
    """The seat (or host) token it held; None for a spectator."""
    player: str = ""


@dataclass(frozen=True, slots=True)
class Gone:
    """Connections that closed: their seats wait for their tokens."""

    conns: tuple[ConnId, ...]


@dataclass(frozen=True, slots=True)
class Deliver:
    """Messages for an edge's connections, in order; then, if `done`, the request with
    that number has been answered in full."""

    messages: tuple[tuple[ConnId, Wire], ...]
    done: int | None = None


@dataclass(frozen=True, slots=True)
class Moved:
    """The room a request named is not the receiver's (any more): ask its owner."""

    seq: int


@dataclass(frozen=True, slots=True)
class Owner:
    """A node took a room under a fence (told to every node)."""

    room: str
    node: int
    fence: int = 0


@dataclass(frozen=True, slots=True)
class Turn:
    """A room's turn passed to a player (told to every node): each node tells that
    player's connections it holds that are not in the room."""

    notice: TurnNotice


@dataclass(frozen=True, slots=True)
class Vacation:
    """A player's vacation, taken or ended on node `edge` (told to every node): the other
    nodes' rooms' days clocks of that player's seats stand still meanwhile."""

    player: str
    from_ms: int
    until_ms: int
    edge: int


@dataclass(frozen=True, slots=True)
class Standing:
    """A mute or block made or lifted on node `edge` (told to every node): the player's
    connections and the person's elsewhere see it at once."""

    player: str
    kind: str
    person: str
    name: str
    on: bool
    edge: int


Envelope = Request | Attach | Gone | Deliver | Moved | Owner | Turn | Vacation | Standing


def pack(envelope: Envelope) -> bytes:
    """The envelope as bytes for a Redis channel."""
    match envelope:
        case Request():
            fields: list[Any] = [
                "q",
                envelope.edge,
                envelope.seq,
                envelope.conn,
                envelope.name,
                envelope.wire,
                envelope.player,
                envelope.token,
                envelope.member,
                envelope.lag_ms,
                list(envelope.blocked_by),
            ]
        case Attach():
            fields = ["a", envelope.edge, envelope.conn, envelope.name, envelope.room]
            fields += [envelope.token, envelope.player]
        case Gone():
            fields = ["g", list(envelope.conns)]
        case Deliver():
            fields = ["d", [list(item) for item in envelope.messages], envelope.done]
        case Moved():
            fields = ["m", envelope.seq]
        case Owner():
            fields = ["w", envelope.room, envelope.node, envelope.fence]
        case Turn():
            notice = envelope.notice
            fields = ["t", notice.player, notice.room, notice.ref, notice.game]
            fields += [list(notice.seats), sorted(notice.present), notice.time_left_ms]
        case Vacation():
            fields = ["v", envelope.player, envelope.from_ms, envelope.until_ms, envelope.edge]
        case Standing():
            fields = ["s", envelope.player, envelope.kind, envelope.person, envelope.name]
            fields += [envelope.on, envelope.edge]
    packed: bytes = msgpack.packb(fields, use_bin_type=True)
    return packed


def unpack(data: bytes) -> Envelope:
    """The envelope in `data`; EnvelopeError if there is none."""
    try:
        fields = msgpack.unpackb(data, raw=False)
        kind, *rest = fields
        match kind:
            case "q":
                edge, seq, conn, name, wire, player, *held = rest
                token, member, lag, blocked_by = [*held, *(None, False, 0, [])[len(held) :]][:4]
                return Request(
                    int(edge),
                    int(seq),
                    int(conn),
                    str(name),
                    dict(wire),
                    str(player),
                    None if token is None else str(token),
                    bool(member),
                    int(lag),
                    tuple(str(person) for person in blocked_by),
                )
            case "a":
                edge, conn, name, room, token, player = rest
                return Attach(int(edge), int(conn), str(name), str(room), token, str(player))
            case "g":
                (conns,) = rest
                return Gone(tuple(int(conn) for conn in conns))
            case "d":
                messages, done = rest
                items = tuple((int(conn), dict(wire)) for conn, wire in messages)
                return Deliver(items, None if done is None else int(done))
            case "m":
                (seq,) = rest
                return Moved(int(seq))
            case "w":
                room, node, *fence = rest
                return Owner(str(room), int(node), int(fence[0]) if fence else 0)
            case "t":
                player, room, ref, game, seats, present, time_left_ms = rest
                notice = TurnNotice(
                    player=str(player),
                    room=str(room),
                    ref=str(ref),
                    game=str(game),
                    seats=tuple(str(colour) for colour in seats),
                    present=frozenset(int(conn) for conn in present),
                    time_left_ms=None if time_left_ms is None else int(time_left_ms),
                )
                return Turn(notice)
            case "v":
                player, from_ms, until_ms, edge = rest
                return Vacation(str(player), int(from_ms), int(until_ms), int(edge))
            case "s":
                player, kind, person, name, on, edge = rest
                return Standing(
                    str(player), str(kind), str(person), str(name), bool(on), int(edge)
                )
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise EnvelopeError(f"not a cluster envelope: {error}") from None
    raise EnvelopeError(f"unknown envelope kind {kind!r}")
