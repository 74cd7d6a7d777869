"""Which rooms each of a node's connections is in, what it holds there, and at which node.

A room's owner keeps who sits where only in memory. When the room moves to another node
(its owner lost, or stopped), the new owner restores the room with everyone away; the
nodes that hold the players' connections put them back in with the tokens noted here,
before anything else they send there, so a player whose own connection never dropped does
not notice the move.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..room import ConnId

JOINED = "joined"
WATCHING = "watching"
SEAT_CHANGED = "seat_changed"
NOTED = frozenset((JOINED, WATCHING, SEAT_CHANGED))
"""The message types that change what a connection holds in a room."""


@dataclass
class Held:
    """What a connection holds in a room, and the node that has it there."""

    token: str | None
    """Its seat's (or hosting's) token; None for a spectator."""
    at: int | None


@dataclass
class Memberships:
    """Each local connection's rooms, and the nodes its requests went to, which are told
    when it closes."""

    rooms: dict[ConnId, dict[str, Held]] = field(default_factory=dict)
    asked: dict[ConnId, set[int]] = field(default_factory=dict)

    def note(self, conn: ConnId, kind: str, wire: dict[str, Any], at: int | None) -> None:
        """Learn from a message sent to `conn` (its type and wire map) by the node `at`."""
        held = self.rooms.setdefault(conn, {})
        if kind == JOINED:
            held[str(wire["room"]["room"])] = Held(str(wire["token"]), at)
        elif kind == WATCHING:
            held.setdefault(str(wire["room"]["room"]), Held(None, at))
        elif kind == SEAT_CHANGED and str(wire["room"]) in held:
            held[str(wire["room"])].token = None

    def held(self, conn: ConnId, room: str) -> Held | None:
        return self.rooms.get(conn, {}).get(room)

    def asked_node(self, conn: ConnId, node: int) -> None:
        self.asked.setdefault(conn, set()).add(node)

    def left(self, conn: ConnId, room: str) -> None:
        self.rooms.get(conn, {}).pop(room, None)

    def in_room(self, room: str) -> Iterator[tuple[ConnId, Held]]:
        """Every connection in `room`, with what it holds."""
        for conn, rooms in self.rooms.items():
            if room in rooms:
                yield conn, rooms[room]

    def forget(self, conn: ConnId) -> set[int]:
        """A connection closed: the nodes to tell."""
        self.rooms.pop(conn, None)
        return self.asked.pop(conn, set())
