"""Requests of a node's connections sent to the nodes that own their rooms, until each
is answered: sent on when the room moves, answered `unavailable` when no answer comes in
time, and an answer that comes after one was given here dropped.

Only the bookkeeping lives here; where a request goes next is the routing's to decide.
"""

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from parlour.protocol import messages as m
from parlour.protocol.wire import Message as Wire

from ..answers import Outbox
from ..room import ConnId
from . import envelopes as env
from .outbound import unavailable

SILENT_SECONDS: Final = 0.5
"""How long a node that a request reached no listener of is left alone before it is
tried again (until its lease runs out, when another node takes its rooms)."""
EXPIRE_SECONDS: Final = 0.25
"""How often requests that waited too long for another node are looked for."""


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


class Forwarding:
    """The requests this node's connections wait on other nodes for, by number, and the
    nodes a request lately reached no listener of."""

    def __init__(self, patience: float, deliver: Callable[[Outbox], None]) -> None:
        self.patience = patience
        """Seconds within which every request is answered, if only `unavailable`."""
        self.deliver = deliver
        self._seqs = itertools.count(1)
        self._forwarded: dict[int, Forwarded] = {}
        self._silent: dict[int, float] = {}
        """Nodes a request reached no listener of, and when: gone (though maybe still live
        in Redis until their heartbeat runs out), or making their subscription anew."""

    def add(
        self, conn: ConnId, message: m.ClientMessage, room: str, owner: int, moves: int = 0
    ) -> int:
        """Wait for `owner`'s answer to a request about `room`; the request's number."""
        seq = next(self._seqs)
        deadline = time.monotonic() + self.patience
        self._forwarded[seq] = Forwarded(conn, message, room, owner, deadline, moves)
        return seq

    def silent(self, node: int) -> bool:
        """Whether what was last sent to `node` reached no listener a moment ago: a node
        that is only making its subscription anew after a broken link is back within it,
        and a request nobody heard is safe to send again."""
        silent = self._silent.get(node)
        return silent is not None and time.monotonic() - silent < SILENT_SECONDS

    def unheard(self, seq: int) -> Forwarded | None:
        """A request reached no node: its owner is left alone a moment, and the request is
        to go to whoever holds its room then (as `moved` says)."""
        forwarded = self._forwarded.get(seq)
        if forwarded is not None:
            self._silent[forwarded.owner] = time.monotonic()
        return self.moved(seq)

    def moved(self, seq: int) -> Forwarded | None:
        """The node asked no longer owns the room: the request, to ask its owner again,
        unless it was answered here already."""
        forwarded = self._forwarded.pop(seq, None)
        if forwarded is None or forwarded.abandoned:
            return None
        return forwarded

    def again(self, room: str, owner: int) -> list[Forwarded]:
        """`room` has a new owner: the requests still waiting on its old one, to send to the
        new one. The old one can no longer carry them out (Redis refuses its writes), and
        had it carried one out, its answer would have come before the news of the new
        owner (both come through this node's subscription, which Redis keeps in order)."""
        again = []
        for forwarded in list(self._forwarded.values()):
            if forwarded.room != room or forwarded.owner == owner or forwarded.abandoned:
                continue
            forwarded.abandoned = True
            again.append(forwarded)
        return again

    def answered(self, deliver: env.Deliver) -> list[tuple[ConnId, Wire]]:
        """The messages of an owner's `Deliver` to pass on: all but the answer to a request
        that was answered here already."""
        forwarded = self._forwarded.pop(deliver.done, None) if deliver.done else None
        if forwarded is None or not forwarded.abandoned:
            return list(deliver.messages)
        asked = forwarded.message.id
        return [
            (conn, wire)
            for conn, wire in deliver.messages
            if not (conn == forwarded.conn and wire.get("id") is not None and wire["id"] == asked)
        ]

    async def expire_forever(self) -> None:
        while True:
            await asyncio.sleep(EXPIRE_SECONDS)
            self.expire()

    def expire(self) -> None:
        """Answer `unavailable` for requests their room's node has not answered in time;
        forget them once a late answer could no longer come."""
        now = time.monotonic()
        for seq, forwarded in list(self._forwarded.items()):
            if not forwarded.abandoned and now > forwarded.deadline:
                forwarded.abandoned = True
                why = "the room's server did not answer in time; try again"
                self.deliver([(forwarded.conn, unavailable(forwarded.message.id, why))])
            if now > forwarded.deadline + self.patience:
                del self._forwarded[seq]

    def give_up(self, why: str) -> None:
        """Answer `unavailable` for every request waiting on another node; an answer that
        comes after all the same is dropped."""
        for forwarded in self._forwarded.values():
            if not forwarded.abandoned:
                forwarded.abandoned = True
                self.deliver([(forwarded.conn, unavailable(forwarded.message.id, why))])
