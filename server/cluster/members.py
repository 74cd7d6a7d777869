"""Which rooms each of a node's connections is in, and what it holds there.

A room's owner keeps who sits where only in memory. When the room moves to another node
(its owner lost, or stopped), the new owner restores the room with everyone away; the
nodes that hold the players' connections put them back in with the tokens noted here,
so a player whose own connection never dropped does not notice the move.
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
class Memberships:
    """Each local connection's rooms, each with its token (None for a spectator), and the
    nodes its requests went to, which are told when it closes."""

    rooms: dict[ConnId, dict[str, str | None]] = field(default_factory=dict)
    asked: dict[ConnId, set[int]] = field(default_factory=dict)

    def note(self, conn: ConnId, kind: str, wire: dict[str, Any]) -> None:
        """Learn from a message sent to `conn` (its type and wire map)."""
        if kind == JOINED:
            self.rooms.setdefault(conn, {})[str(wire["room"]["room"])] = str(wire["token"])
        elif kind == WATCHING:
            self.rooms.setdefault(conn, {}).setdefault(str(wire["room"]["room"]), None)
        elif kind == SEAT_CHANGED and conn in self.rooms:
            self.rooms[conn][str(wire["room"])] = None

    def asked_node(self, conn: ConnId, node: int) -> None:
        self.asked.setdefault(conn, set()).add(node)

    def left(self, conn: ConnId, room: str) -> None:
        self.rooms.get(conn, {}).pop(room, None)

    def in_room(self, room: str) -> Iterator[tuple[ConnId, str | None]]:
        """Every connection in `room`, with its token."""
        for conn, rooms in self.rooms.items():
            if room in rooms:
                yield conn, rooms[room]

    def forget(self, conn: ConnId) -> set[int]:
        """A connection closed: the nodes to tell."""
        self.rooms.pop(conn, None)
        return self.asked.pop(conn, set())
