"""What a node sends through Redis, in the order it made it, records before the messages
that tell of them.

A change (a move, a seat taken, a room closed) is one script call that writes its rooms
under the node's fencing numbers and, only if Redis kept every one, publishes its messages
to the other nodes; with every write synced, they go out after the change is on disk. The
node's own connections are told once the call has answered. Everything queued goes to
Redis in one round trip, so a busy node writes many changes per sync.
"""

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, Protocol

from redis.exceptions import RedisError

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.wire import Message as Wire

from ..answers import Outbox, refuse
from ..room import ConnId
from . import envelopes as env
from .records import CHECK, FIRST_FENCE, NEW_ROOM, RedisRecords, RoomWrite

log = logging.getLogger("parlour.cluster")

NODE_BITS: Final = 32
"""A connection's id is its node's number above this many bits of the node's own count."""
RETRY_SECONDS: Final = 0.25
PATIENCE: Final = 2.0
"""Seconds a change waits for Redis to come back before it is given up."""

Plain = tuple[str, env.Envelope]
"""An envelope for a channel, sent as it is."""


def node_of(conn: ConnId) -> int:
    return conn >> NODE_BITS


def unavailable(request: str | int | None, why: str) -> m.Error:
    return m.Error.from_exception(refuse(ErrorCode.UNAVAILABLE, why), request)


@dataclass
class Change:
    """Rooms to write (or check), each under the fence it was changed under, then the
    messages that tell of them; `done` names the forwarded request this answers in full,
    and `request` the request of this node's connection it answers, if one does."""

    writes: list[RoomWrite]
    outbox: Outbox
    done: tuple[int, int] | None = None
    request: tuple[ConnId, m.ClientMessage] | None = None
    since: float = field(default_factory=time.monotonic)
    token: str = ""
    """Names the change in Redis, so that sent again it is carried out once."""
    turns: list[tuple[str, env.Turn]] = field(default_factory=list)
    """The "your turn" notices it makes, for the cluster's channel: published only if Redis
    keeps the change, as its messages are."""


class Sender(Protocol):
    """The node an `Outbound` sends for."""

    @property
    def node(self) -> int: ...
    @property
    def fences(self) -> Mapping[str, int]: ...

    def channel(self, node: int) -> str: ...
    def deliver_here(self, outbox: Outbox) -> None: ...
    def kept(self, write: RoomWrite, fence: int) -> None: ...
    def not_kept(self, writes: list[RoomWrite], fenced_out: int = 0) -> None: ...
    def ask_again(self, change: Change) -> None: ...
    def unheard(self, seq: int) -> None: ...
    def lost_redis(self) -> None: ...
    def redis_back(self) -> None: ...


class Outbound:
    """A node's queue of changes and envelopes for Redis, sent in order."""

    def __init__(self, records: RedisRecords, sender: Sender) -> None:
        self.records = records
        self.sender = sender
        self.queue: list[Change | Plain] = []
        """Changes, and the deliveries that must follow them, in order."""
        self.control: list[Plain] = []
        """Requests, attachments, departures and owners: they go at once, never behind a
        write (no delivery need follow them in order)."""
        self._wanted = asyncio.Event()
        self._control_wanted = asyncio.Event()
        self._tokens = itertools.count(1)
        self.write_seconds: Callable[[float], None] = lambda seconds: None

    def publish(self, channel: str, envelope: env.Envelope) -> None:
        """Send a control envelope (not a `Deliver`) at once."""
        self.control.append((channel, envelope))
        self._control_wanted.set()

    def _deliver_later(self, channel: str, envelope: env.Deliver) -> None:
        self.queue.append((channel, envelope))
        self._wanted.set()

    def change(self, change: Change) -> None:
        """Send a change's messages once its rooms are written; at once if it has none and
        nothing waits before it."""
        if not change.writes and not self.queue:
            self._tell(change.outbox, change.done)
            for channel, turn in change.turns:
                self.publish(channel, turn)
            return
        change.token = f"{self.sender.node}:{next(self._tokens)}"
        self.queue.append(change)
        self._wanted.set()

    def _tell(self, outbox: Outbox, done: tuple[int, int] | None) -> None:
        """Deliver to this node's connections; queue the rest for the other nodes."""
        local, remote = self.split(outbox, done)
        for channel, envelope in remote:
            self._deliver_later(channel, envelope)
        self.sender.deliver_here(local)

    def split(
        self, outbox: Outbox, done: tuple[int, int] | None
    ) -> tuple[Outbox, list[tuple[str, env.Deliver]]]:
        """The messages for this node's connections, and a `Deliver` for each other node
        (with `done` for the node whose request this answers)."""
        here = self.sender.node
        local: Outbox = []
        remote: dict[int, list[tuple[ConnId, Wire]]] = {}
        wires: dict[int, Wire] = {}
        for conn, message in outbox:
            node = node_of(conn)
            if node == here:
                local.append((conn, message))
                continue
            wire = wires.get(id(message))
            if wire is None:
                wire = wires[id(message)] = message.to_wire()
            remote.setdefault(node, []).append((conn, wire))
        if done is not None:
            remote.setdefault(done[0], [])
        envelopes: list[tuple[str, env.Deliver]] = []
        for node, messages in remote.items():
            seq = done[1] if done is not None and done[0] == node else None
            envelopes.append((self.sender.channel(node), env.Deliver(tuple(messages), seq)))
        return local, envelopes

    async def run(self) -> None:
        """Send whatever is queued, again and again; while Redis is away, keep it queued,
        and give changes up once they have waited too long."""
        while True:
            await self._wanted.wait()
            self._wanted.clear()
            try:
                await self.flush()
            except RedisError:
                self.sender.lost_redis()
                if self._oldest_change() > PATIENCE:
                    self.give_up()
                await asyncio.sleep(RETRY_SECONDS)
                with contextlib.suppress(RedisError):
                    await self.records.load_scripts()  # Redis may have started again
                self._wanted.set()

    async def run_control(self) -> None:
        """Publish control envelopes as they come, in order, a batch a round trip."""
        while True:
            await self._control_wanted.wait()
            self._control_wanted.clear()
            batch, self.control = self.control, []
            try:
                async with self.records.redis.pipeline(transaction=False) as pipe:
                    for channel, envelope in batch:
                        pipe.publish(channel, env.pack(envelope))
                    heard = await pipe.execute()
            except RedisError:
                self.sender.lost_redis()
                self.control[:0] = batch
                await asyncio.sleep(RETRY_SECONDS)
                self._control_wanted.set()
                continue
            for (_, envelope), listeners in zip(batch, heard, strict=True):
                if isinstance(envelope, env.Request) and not listeners:
                    self.sender.unheard(envelope.seq)

    def _oldest_change(self) -> float:
        since = [item.since for item in self.queue if isinstance(item, Change) and item.writes]
        return time.monotonic() - min(since) if since else 0.0

    async def flush(self) -> None:
        """Everything queued to Redis in one round trip, then told where it goes."""
        if not self.queue:
            return
        batch = list(self.queue)
        started = time.monotonic()
        sent: list[tuple[Change | Plain, list[RoomWrite], Outbox, int]] = []
        made: set[str] = set()
        async with self.records.redis.pipeline(transaction=False) as pipe:
            for item in batch:
                if isinstance(item, tuple):
                    channel, envelope = item
                    pipe.publish(channel, env.pack(envelope))
                    sent.append((item, [], [], 1))
                    continue
                writes = [self._resolved(write, made) for write in item.writes]
                local, remote = self.split(item.outbox, item.done)
                packed = [(channel, env.pack(envelope)) for channel, envelope in remote]
                packed += [(channel, env.pack(turn)) for channel, turn in item.turns]
                if writes:
                    node = self.sender.node
                    await self.records.queue_write(pipe, node, writes, packed, item.token)
                    sent.append((item, writes, local, 1))
                else:
                    for channel, message in packed:
                        pipe.publish(channel, message)
                    sent.append((item, writes, local, len(packed)))
            answers = await pipe.execute()
        del self.queue[: len(batch)]
        self.write_seconds(time.monotonic() - started)
        self.sender.redis_back()
        at = 0
        for item, writes, local, count in sent:
            found, at = answers[at : at + count], at + count
            if isinstance(item, tuple):
                continue
            if writes:
                self._written(item, writes, local, found[0])
            else:
                self.sender.deliver_here(local)

    def _resolved(self, write: RoomWrite, made: set[str]) -> RoomWrite:
        """A new room's write under the fence it got, if an earlier write made it already:
        one answered before (its fence is known), or one earlier in this batch (a new
        room's first fence is 1)."""
        if write.fence != NEW_ROOM:
            return write
        fence = self.sender.fences.get(write.room)
        if fence is None and write.room in made:
            fence = FIRST_FENCE
        if fence is None:
            if write.record not in (None, CHECK):
                made.add(write.room)
            return write
        return dataclasses.replace(write, fence=fence)

    def _written(
        self, change: Change, writes: list[RoomWrite], local: Outbox, found: list[int]
    ) -> None:
        refused: list[RoomWrite] = []
        for write, answer in zip(writes, found, strict=True):
            fence = int(answer)
            if fence > 0:
                self.sender.kept(write, fence)
            else:
                refused.append(write)
                log.warning("room %s: Redis refused this node's write (%d)", write.room, fence)
        if not refused:
            self.sender.deliver_here(local)
            return
        fenced_out = [write for write in refused if write.fence != NEW_ROOM]
        self.sender.not_kept(refused, len(fenced_out))
        moved = "the room moved to another server; try again"
        lost = {write.room for write in refused}
        told = without(change.outbox, lost, moved)
        for channel, turn in change.turns:
            if turn.notice.room not in lost:
                self.queue.append((channel, turn))
                self._wanted.set()
        if change.request is None or len(fenced_out) < len(refused):
            self._tell(told, change.done)
            return
        # Redis refused a lease this node had lost: the request was carried out nowhere,
        # so it goes to the room's owner now instead of being answered.
        conn, asked = change.request
        told = [(to, message) for to, message in told if to != conn or message.id != asked.id]
        self._tell(told, None)
        self.sender.ask_again(change)

    def give_up(self) -> None:
        """Redis has been away too long for the changes waiting: they are not kept, so
        nobody is told of them; each request waiting is answered `unavailable`."""
        batch, self.queue = self.queue, []
        writes = [write for item in batch if isinstance(item, Change) for write in item.writes]
        rooms = {write.room for write in writes}
        log.warning("gave up writing %d room(s) while Redis is away", len(rooms))
        self.sender.not_kept(writes)
        for item in batch:
            if isinstance(item, tuple):
                self.queue.append(item)
            else:
                changed = {write.room for write in item.writes}
                away = "the game records cannot be reached; try again soon"
                self._tell(without(item.outbox, changed, away), item.done)


def without(outbox: Outbox, rooms: set[str], why: str) -> Outbox:
    """A change's messages when Redis did not keep its change to `rooms`: the answer to the
    request becomes `unavailable` (saying `why`), and nothing tells of those rooms."""
    if not rooms:
        return outbox
    kept: Outbox = []
    for conn, message in outbox:
        if message.id is not None:
            kept.append((conn, unavailable(message.id, why)))
        elif room_named(message) not in rooms:
            kept.append((conn, message))
    return kept


def room_named(message: m.ServerMessage) -> str | None:
    """The id of the room a message tells of, if it names one."""
    about = getattr(message, "room", None)
    if isinstance(about, dict):
        about = about.get("room")
    return about if isinstance(about, str) else None
