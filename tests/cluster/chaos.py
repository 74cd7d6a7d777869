"""A chaos harness for the Redis cluster: rooms played on a cluster whose nodes reach Redis
through proxies, real faults injected one a round, and everything any client was shown
recorded and checked against what the cluster kept.

The cluster is one redis-server (every write synced) and N `parlour serve --redis` nodes,
each reaching Redis through its own `TcpProxy`. Each room is made by a host connection on
one node that takes no seat; its people join through other nodes, so their requests and
updates cross Redis. People move when it is their turn, after a short pause, with a legal
move drawn from a seeded generator; a finished game is followed by a fresh room at the same
table. A person whose connection closes comes back through another node with the seat
token; a request answered `unavailable` is sent again after a pause; a request with no
answer within the timeout counts as `no answer` and the person carries on on the same
connection (a paused node must still get what was sent to it when it wakes).

A round lets play run a few seconds, injects one fault (`KINDS`) and waits until every
room playing at the fault has moved again. At the end each room's view is read through a
live node, and `judge` checks:

(a) nothing shown was later replaced: every `update` shown matches the final moves at its
    version; every room view's moves are a prefix of the final moves (rooms are never
    undone here, and a finished game is followed by a fresh room, so a room's history only
    grows);
(b) every move acknowledged with `ok` is in the final moves at the version it made, once
    (none lost; no version acknowledged for two moves, no move kept twice);
(c) failover: each room playing at the fault moves again (a move acknowledged or shown)
    within lease + 2 s of it (for Redis killed: of Redis answering again); rooms whose own
    people are connected through a paused or cut-off node are left out of the bound, and a
    room an earlier fault left stuck counts against that fault only;
(d) no person holding a seat is told `not_seated`, and at the end every person's seat shows
    them connected;
(e) `unavailable` errors and requests with no answer are counted.

`Chaos(settings, folder).run(kinds)` does it all and returns a `Report`; the record of
every message (`record.jsonl`) and the report (`report.txt`) are written to the folder,
beside the nodes' logs.
"""

import asyncio
import contextlib
import dataclasses
import itertools
import json
import math
import random
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.typing import Subprotocol

from parlour.protocol import ClientSession, ProtocolError, codec_for
from parlour.protocol import messages as m

from .processes import Node, RedisProcess, start_node
from .proxy import TcpProxy


class Fault(StrEnum):
    """The faults a round may inject."""

    NODE_KILL = "node kill"
    """SIGKILL a node; a new one is started in its place."""
    NODE_PAUSE = "node pause"
    """SIGSTOP a node for twice the lease, then SIGCONT."""
    REDIS_KILL = "redis kill"
    """SIGKILL Redis, then start it again from its append-only file on the same port."""
    PROXY_RESET = "proxy reset"
    """Reset every connection between one node and Redis."""
    BLACKHOLE = "blackhole"
    """Let nothing pass between one node and Redis for a while, then deliver it all."""


KINDS: Final = tuple(Fault)
CALM: Final = "calm"
"""What happens outside every fault's window is counted under this name."""

SUBPROTOCOL: Final = "parlour.v1.msgpack"
RETRY_PAUSE: Final = 0.2
NEWS_PATIENCE: Final = 1.0
"""Seconds a person waits without news before asking for the room."""
CLOSE_TIMEOUT: Final = 10.0
"""How long a graceful close may wait for the node (a paused one wakes within this)."""
READ_PAUSE: Final = 0.06
"""Seconds between the final views' requests: within the protocol's rate limit."""
CREATE_TRIES: Final = 10
PERSON_SEATS: Final = {"othello": ("black", "white"), "tribolo": ("blue",)}
BOT_SEATS: Final = {"othello": (), "tribolo": ("red", "green")}
BOT_LEVEL: Final = "easy"
BOT_THINK_MS: Final = 100


@dataclass(frozen=True)
class Settings:
    """What a chaos run plays and how hard it pushes."""

    nodes: int = 3
    lease: float = 3.0
    othello_rooms: int = 10
    tribolo_rooms: int = 2
    seed: int = 1
    bot_workers: int = 1
    """Bot processes on each node."""
    pace: tuple[float, float] = (0.15, 0.35)
    """Seconds a person waits on their turn before moving, drawn from this range."""
    calm: tuple[float, float] = (1.5, 3.0)
    """Seconds of play before each fault, drawn from this range."""
    settle: float = 3.0
    """Seconds past the bound that a round waits for rooms to move again."""
    blackhole_seconds: float = 5.0
    redis_down: tuple[float, float] = (1.5, 3.0)
    tail: float = 2.0
    """Seconds of play after the last round, before the final views are read."""
    final_timeout: float = 15.0
    """How long reading a room's final view may take (`unavailable`, `no_such_room`)."""
    request_timeout: float | None = None
    """Seconds a request may go unanswered before it counts as `no answer`; default the
    failover bound."""

    @property
    def bound(self) -> float:
        """How soon every room must move again after a fault: the lease and 2 s more."""
        return self.lease + 2.0

    @property
    def timeout(self) -> float:
        return self.request_timeout if self.request_timeout is not None else self.bound

    @property
    def pause_seconds(self) -> float:
        return 2 * self.lease


def schedule(rounds: int, rng: random.Random) -> list[Fault]:
    """`rounds` fault kinds: every kind once in a shuffled order, then again, and so on."""
    kinds: list[Fault] = []
    while len(kinds) < rounds:
        batch = list(KINDS)
        rng.shuffle(batch)
        kinds += batch
    return kinds[:rounds]


# Recording.


@dataclass(frozen=True)
class Heard:
    """One message a connection received: its type and the facts the checks use."""

    at: float
    conn: str
    kind: str
    room: str | None = None
    version: int | None = None
    move: str | None = None
    """An update's move."""
    moves: tuple[str, ...] | None = None
    """A room view's moves."""
    code: str | None = None
    """An error's code."""
    request: str | None = None
    """The type of the request this answers, if it answers one."""


@dataclass(frozen=True)
class Ack:
    """A move a connection was told `ok` for: it made `version` of `room`."""

    at: float
    conn: str
    room: str
    version: int
    move: str


@dataclass(frozen=True)
class NoAnswer:
    """A request that got no answer within the timeout."""

    at: float
    conn: str
    request: str


@dataclass
class Recorder:
    """Everything every connection of the run was told, with the monotonic time."""

    heard: list[Heard] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    no_answers: list[NoAnswer] = field(default_factory=list)
    people: set[str] = field(default_factory=set)
    """The labels of the connections that hold a seat."""
    latest: dict[str, int] = field(default_factory=dict)
    """The highest version any connection was shown or acknowledged, by room."""
    started: set[str] = field(default_factory=set)
    over: set[str] = field(default_factory=set)

    def playing(self) -> dict[str, int]:
        """Rooms started and not over, with their latest version."""
        return {room: self.latest.get(room, 0) for room in self.started - self.over}

    def hear(self, conn: str, message: m.ServerMessage, request: m.ClientMessage | None) -> None:
        """Record a message `conn` received, and the acknowledgement or start it tells of."""
        at = time.monotonic()
        asked = request.TYPE if request is not None else None
        match message:
            case m.Update():
                self._saw(message.room, message.version, bool(message.state.get("over")))
                self.heard.append(
                    Heard(at, conn, message.TYPE, message.room, message.version, message.move)
                )
            case m.RoomView() | m.Joined() | m.Watching():
                self.heard.append(self._view(at, conn, message.TYPE, message.room, asked))
            case m.Error():
                room = getattr(request, "room", None)
                self.heard.append(
                    Heard(at, conn, message.TYPE, room, code=message.code, request=asked)
                )
            case m.SeatChanged() | m.SeatSet() | m.Thinking() | m.ChatLine():
                self.heard.append(Heard(at, conn, message.TYPE, message.room, request=asked))
            case _:
                self.heard.append(Heard(at, conn, message.TYPE, request=asked))
        if isinstance(message, m.Ok) and isinstance(request, m.Move):
            self.acks.append(Ack(at, conn, request.room, request.version + 1, request.move))
            self._saw(request.room, request.version + 1, False)
        if isinstance(request, m.Start) and (
            isinstance(message, m.Ok)
            or (isinstance(message, m.Error) and message.code == "not_waiting")
        ):
            self.started.add(request.room)

    def write(self, path: Path, rounds: Sequence["Round"]) -> None:
        """Everything recorded, and the rounds, as JSON lines in time order, for reading
        after a run (times in seconds since the first message)."""
        entries: list[tuple[float, str, dict[str, Any]]] = []
        for kind, items in (
            ("heard", self.heard),
            ("ack", self.acks),
            ("silence", self.no_answers),
        ):
            entries += [(item.at, kind, dataclasses.asdict(item)) for item in items]
        for fault in rounds:
            entries.append((fault.fault_at, "round", _round_facts(fault)))
        start = min((at for at, _, _ in entries), default=0.0)
        with path.open("w") as out:
            for at, kind, facts in sorted(entries, key=lambda entry: entry[0]):
                given = {key: value for key, value in facts.items() if value is not None}
                given["at"] = round(at - start, 3)
                out.write(json.dumps({"record": kind, **given}) + "\n")

    def unanswered(self, conn: str, request: m.ClientMessage) -> None:
        """Record a request that got no answer in time."""
        self.no_answers.append(NoAnswer(time.monotonic(), conn, request.TYPE))

    def _view(
        self, at: float, conn: str, kind: str, view: dict[str, Any], asked: str | None
    ) -> Heard:
        """A room view as heard, noting how far it shows the room has come."""
        room, version = str(view["room"]), int(view["version"])
        self._saw(room, version, view.get("status") == "finished")
        moves = tuple(str(move) for move in view.get("moves", ()))
        return Heard(at, conn, kind, room, version, moves=moves, request=asked)

    def _saw(self, room: str, version: int, over: bool) -> None:
        """Note how far a room is known to have come, and whether its game is over."""
        self.latest[room] = max(version, self.latest.get(room, 0))
        if over:
            self.over.add(room)


# Connections.


class LostError(Exception):
    """The connection closed, or could not be opened: its node is gone or unreachable."""


class RefusedError(Exception):
    """The cluster would not make or fill a room now."""


News = Callable[[m.ServerMessage], None]


class Conn:
    """One WebSocket connection of the run; a reader records every message it receives,
    late answers included, and hands requests their answers."""

    def __init__(
        self,
        websocket: ClientConnection,
        label: str,
        port: int,
        recorder: Recorder,
        news: News | None,
    ) -> None:
        self.websocket = websocket
        self.label = label
        self.port = port
        self.recorder = recorder
        self.news = news
        self.session = ClientSession(codec_for(SUBPROTOCOL))
        self.sent: dict[int, m.ClientMessage] = {}
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[m.ServerMessage | None]] = {}
        self.closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls,
        port: int,
        name: str,
        label: str,
        *,
        recorder: Recorder,
        timeout: float,
        news: News | None = None,
    ) -> "Conn":
        """A connection to the node on `port`, welcomed as `name`; LostError if there is none
        within `timeout`."""
        try:
            websocket = await connect(
                f"ws://127.0.0.1:{port}/ws",
                subprotocols=[Subprotocol(SUBPROTOCOL)],
                open_timeout=timeout,
                close_timeout=CLOSE_TIMEOUT,
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
            raise LostError(f"cannot connect to {port}: {error!r}") from None
        conn = cls(websocket, label, port, recorder, news)
        welcome = await conn.request(m.Hello(version=1, name=name), timeout)
        if not isinstance(welcome, m.Welcome):
            conn.abandon()
            raise LostError(f"no welcome from {port}: {welcome}")
        return conn

    async def request(self, message: m.ClientMessage, timeout: float) -> m.ServerMessage | None:
        """The answer to `message`, or None if none came within `timeout` (a `no answer`);
        LostError if the connection closed. Told `rate_limited`, it waits and sends again."""
        while True:
            if self.closed.is_set():
                raise LostError(f"{self.label} is closed")
            request_id = next(self._ids)
            sent = dataclasses.replace(message, id=request_id)
            self.sent[request_id] = sent
            waiting: asyncio.Future[m.ServerMessage | None]
            waiting = asyncio.get_running_loop().create_future()
            self._waiting[request_id] = waiting
            try:
                async with asyncio.timeout(timeout):
                    await self.websocket.send(self.session.send(sent))
                    answer = await waiting
            except TimeoutError:
                self.recorder.unanswered(self.label, sent)
                return None
            except ConnectionClosed:
                answer = None
            finally:
                self._waiting.pop(request_id, None)
            if answer is None:
                raise LostError(f"{self.label} closed")
            if isinstance(answer, m.Error) and answer.code == "rate_limited":
                await asyncio.sleep(RETRY_PAUSE)
                continue
            return answer

    async def close(self) -> None:
        """Close gracefully: the node gets the close, and what was sent before it, when it
        can read (a paused node when it wakes)."""
        with contextlib.suppress(Exception):
            await self.websocket.close()
        await self._reader

    def abandon(self) -> None:
        """Close in the background, gracefully, for a connection nobody waits on."""
        _background(self.close())

    async def _read(self) -> None:
        """Record and route every message until the connection closes; then wake every
        request still waiting, with None."""
        try:
            async for frame in self.websocket:
                try:
                    message = self.session.receive(frame)
                except ProtocolError as error:
                    self.recorder.heard.append(Heard(time.monotonic(), self.label, repr(error)))
                    continue
                request = self.sent.get(message.id) if isinstance(message.id, int) else None
                self.recorder.hear(self.label, message, request)
                if self.news is not None:
                    self.news(message)
                waiting = self._waiting.get(message.id) if isinstance(message.id, int) else None
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
        except (ConnectionClosed, OSError):
            pass
        finally:
            self.closed.set()
            for waiting in self._waiting.values():
                if not waiting.done():
                    waiting.set_result(None)


_tasks: set[asyncio.Task[None]] = set()


def _background(work: Any) -> None:
    """Run `work` on its own, kept until done."""
    task: asyncio.Task[None] = asyncio.ensure_future(work)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def settle_background(timeout: float) -> None:
    """Wait for the background closes, then cancel what is left."""
    if _tasks:
        await asyncio.wait(list(_tasks), timeout=timeout)
    for task in list(_tasks):
        task.cancel()


# The cluster.


@dataclass
class Slot:
    """One node's place in the cluster: its proxy to Redis and the node there now."""

    number: int
    proxy: TcpProxy
    node: Node
    started: int = 1
    down: bool = False
    """Paused or cut off from Redis: new connections go elsewhere."""

    @property
    def live(self) -> bool:
        return self.node.process.returncode is None

    @property
    def name(self) -> str:
        return f"node {self.number}"


class Cluster:
    """Redis, and N nodes, each reaching Redis through its own proxy; logs in `folder`."""

    def __init__(self, folder: Path, settings: Settings) -> None:
        self.folder = folder
        self.settings = settings
        self.redis = RedisProcess(folder / "redis")
        self.slots: list[Slot] = []
        self._proxies: list[TcpProxy] = []

    async def start(self) -> None:
        """Start Redis, the proxies and the nodes; if one fails, what started is kept
        in `slots` for `stop`, and the failure raised."""
        self.folder.mkdir(parents=True, exist_ok=True)
        await self.redis.start()
        proxies = [TcpProxy("127.0.0.1", self.redis.port) for _ in range(self.settings.nodes)]
        for proxy in proxies:
            await proxy.start()
        self._proxies = proxies
        nodes = await asyncio.gather(
            *(self._node(number, proxy, 1) for number, proxy in enumerate(proxies, 1)),
            return_exceptions=True,
        )
        self.slots = [
            Slot(number, proxy, node)
            for number, (proxy, node) in enumerate(zip(proxies, nodes, strict=True), 1)
            if isinstance(node, Node)
        ]
        for failed in nodes:
            if isinstance(failed, BaseException):
                raise failed

    def log(self, number: int, generation: int) -> Path:
        """The log of the `generation`th node started in place `number`."""
        return self.folder / f"node-{number}-{generation}.log"

    async def _node(self, number: int, proxy: TcpProxy, generation: int) -> Node:
        """A node through `proxy`, logging to a file of its own."""
        log = self.log(number, generation)
        return await start_node(
            f"redis://127.0.0.1:{proxy.port}/0",
            "--lease",
            f"{self.settings.lease:g}",
            "--bot-workers",
            str(self.settings.bot_workers),
            log=log,
        )

    async def replace(self, slot: Slot) -> None:
        """Start a new node in the place of a killed one, through the same proxy."""
        slot.started += 1
        slot.node = await self._node(slot.number, slot.proxy, slot.started)

    def ports(self, avoid: int | None = None) -> list[int]:
        """The ports of the live nodes that are neither paused nor cut off, `avoid` last."""
        ports = [slot.node.port for slot in self.slots if slot.live and not slot.down]
        return sorted(ports, key=lambda port: port == avoid)

    async def stop(self) -> None:
        """Stop every node (waking a paused one), the proxies, and Redis."""
        await asyncio.gather(*(slot.node.stop() for slot in self.slots), return_exceptions=True)
        for proxy in self._proxies:
            await proxy.close()
        await self.redis.kill()


# People and tables.


@dataclass
class Play:
    """What every person and table of the run shares."""

    settings: Settings
    recorder: Recorder
    cluster: Cluster
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    _labels: Iterator[int] = field(default_factory=itertools.count)

    @property
    def stopping(self) -> bool:
        return self.stop.is_set()

    async def open(self, port: int, name: str, news: News | None = None) -> Conn:
        """A welcomed connection, labelled with its name, a number and its port."""
        label = f"{name}#{next(self._labels)}@{port}"
        return await Conn.open(
            port, name, label, recorder=self.recorder, timeout=self.settings.timeout, news=news
        )


class Person:
    """One person in a seat of one room, playing their turns and coming back with the
    seat token when their connection closes."""

    def __init__(self, play: Play, name: str, colour: str, room: str, rng: random.Random) -> None:
        self.play = play
        self.name = name
        self.colour = colour
        self.room = room
        self.rng = rng
        self.token = ""
        self.conn: Conn | None = None
        self.version = 0
        self.status = "waiting"
        self.to_move: str | None = None
        self.legal: list[str] = []
        self.stale = True
        """Whether what this person knows of the room may be behind: ask for it."""
        self.news = asyncio.Event()
        self.rejoined = 0

    async def sit(self, port: int, seat: str) -> None:
        """Connect through `port` and take `seat`; RefusedError or LostError if that fails."""
        self.conn = await self.play.open(port, self.name, self.hear)
        self.play.recorder.people.add(self.conn.label)
        joined = await join(self.conn, m.Join(room=self.room, seat=seat), self.play)
        self.token = joined.token

    @property
    def my_turn(self) -> bool:
        return (
            not self.stale
            and self.status == "playing"
            and self.to_move == self.colour
            and bool(self.legal)
        )

    def hear(self, message: m.ServerMessage) -> None:
        """Learn from every message this person's connection receives."""
        match message:
            case m.Update() if message.room == self.room:
                if message.version == self.version + 1:
                    self._learn(message.version, message.state, None)
                elif message.version > self.version:
                    self.stale = True
            case m.RoomView() | m.Joined() | m.Watching() if message.room["room"] == self.room:
                view = message.room
                if message.id is not None or view["version"] >= self.version:
                    self._learn(view["version"], view.get("state") or {}, view["status"])
            case m.SeatChanged() if message.room == self.room:
                self.stale = True
        self.news.set()

    def _learn(self, version: int, state: dict[str, Any], status: str | None) -> None:
        """Take what a message says of the room as what this person knows."""
        self.version = version
        self.to_move = state.get("to_move")
        self.legal = list(state.get("legal_moves") or [])
        if status is not None:
            self.status = status
        elif state.get("over"):
            self.status = "finished"
        else:
            self.status = "playing"
        self.stale = False

    async def run(self) -> None:
        """Play this person's turns until the game is over or the run stops."""
        while not self.play.stopping and self.status != "finished":
            try:
                await self._step()
            except LostError:
                await self.come_back()

    async def _step(self) -> None:
        """One thing to do: catch up, move, or wait for news (then catch up)."""
        if self.conn is None or self.conn.closed.is_set():
            raise LostError("closed")
        if self.stale:
            await self._refresh()
        elif self.my_turn:
            await self._move()
        else:
            self.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), NEWS_PATIENCE)
            if not self.news.is_set():
                self.stale = True

    async def _ask(self, message: m.ClientMessage) -> m.ServerMessage | None:
        """The answer on this person's connection, or None for no answer in time."""
        assert self.conn is not None
        return await self.conn.request(message, self.play.settings.timeout)

    async def _refresh(self) -> None:
        """Ask for the room; wait a little if the cluster cannot say."""
        answer = await self._ask(m.GetRoom(room=self.room))
        if isinstance(answer, m.Error) and answer.code == "not_seated":
            await self._take_back()
        if self.stale:
            await asyncio.sleep(RETRY_PAUSE)

    async def _move(self) -> None:
        """After a short pause, a legal move at the version known; any trouble makes the
        person ask for the room again."""
        await asyncio.sleep(self.rng.uniform(*self.play.settings.pace))
        if not self.my_turn:
            return
        version, move = self.version, self.rng.choice(self.legal)
        answer = await self._ask(m.Move(room=self.room, version=version, move=move))
        if isinstance(answer, m.Ok):
            if self.version == version:
                self.to_move = None
            return
        self.stale = True
        if isinstance(answer, m.Error) and answer.code == "not_seated":
            await self._take_back()
        if isinstance(answer, m.Error) and answer.code == "unavailable":
            await asyncio.sleep(RETRY_PAUSE)

    async def _take_back(self) -> None:
        """Told `not_seated` while holding the seat: join again with the token, as a
        client would, so that play goes on (the error is counted all the same)."""
        await self._ask(m.Join(room=self.room, token=self.token))

    async def come_back(self) -> None:
        """Connect again through another live node and take the seat back with the token,
        until that works or the run stops."""
        old = self.conn
        avoid = old.port if old is not None else None
        while not self.play.stopping:
            for port in self.play.cluster.ports(avoid):
                if await self._back_through(port):
                    self.rejoined += 1
                    return
            await asyncio.sleep(RETRY_PAUSE)

    async def _back_through(self, port: int) -> bool:
        """Whether a new connection through `port` took the seat back."""
        try:
            conn = await self.play.open(port, self.name, self.hear)
        except LostError:
            return False
        self.play.recorder.people.add(conn.label)
        try:
            answer = await conn.request(
                m.Join(room=self.room, token=self.token), self.play.settings.timeout
            )
        except LostError:
            return False
        if isinstance(answer, m.Joined):
            self.conn = conn
            return True
        conn.abandon()
        return False

    def leave(self) -> None:
        """Close this person's connection, gracefully, in the background."""
        if self.conn is not None:
            self.conn.abandon()


async def must(
    conn: Conn, message: m.ClientMessage, play: Play, done: Callable[[m.ServerMessage], bool]
) -> m.ServerMessage:
    """The answer to `message` that is `done`; sent again while the answer is `unavailable`
    or none comes (a few times); RefusedError otherwise."""
    for _ in range(CREATE_TRIES):
        if play.stopping:
            break
        answer = await conn.request(message, play.settings.timeout)
        if answer is not None and done(answer):
            return answer
        if answer is None or (isinstance(answer, m.Error) and answer.code == "unavailable"):
            await asyncio.sleep(RETRY_PAUSE)
            continue
        raise RefusedError(f"{message.TYPE} answered {answer}")
    raise RefusedError(f"{message.TYPE} not done")


async def join(conn: Conn, message: m.CreateRoom | m.Join, play: Play) -> m.Joined:
    """`joined` for a room made or a seat taken."""
    answer = await must(conn, message, play, lambda answer: isinstance(answer, m.Joined))
    assert isinstance(answer, m.Joined)
    return answer


def started(answer: m.ServerMessage) -> bool:
    """`start` was done, now or by an earlier request whose answer was late."""
    return isinstance(answer, m.Ok) or (
        isinstance(answer, m.Error) and answer.code == "not_waiting"
    )


def set_seat(answer: m.ServerMessage) -> bool:
    """`set_seat` was done."""
    return isinstance(answer, m.Ok)


class Table:
    """One table of the run: a room at a time, made by a host that takes no seat on one
    node, with its people on the others; a fresh room when a game ends."""

    def __init__(self, play: Play, number: int, game: str, rng: random.Random) -> None:
        self.play = play
        self.number = number
        self.game = game
        self.rng = rng
        self.rooms: list[str] = []
        """Every room made here, in order."""
        self.room: str | None = None
        """The room being played, once started."""
        self.host: Conn | None = None
        self.people: list[Person] = []

    async def run(self) -> None:
        """Make a room, play it to the end, make another, until the run stops."""
        while await self._open_room():
            await asyncio.gather(*(person.run() for person in self.people))
            if self.play.stopping:
                return
            self.leave()

    async def _open_room(self) -> bool:
        """Make and start a room, trying other nodes while the cluster refuses; False
        if the run stopped first."""
        for attempt in itertools.count():
            if self.play.stopping:
                return False
            ports = self.play.cluster.ports()
            if len(ports) >= 2:
                host = ports[(self.number + len(self.rooms) + attempt) % len(ports)]
                try:
                    await self._make(host, [port for port in ports if port != host])
                    return True
                except (RefusedError, LostError):
                    self.leave()
            await asyncio.sleep(RETRY_PAUSE)
        return False

    async def _make(self, host_port: int, others: list[int]) -> None:
        """Make a room through `host_port`, seat its people through `others`, start it."""
        play = self.play
        self.host = host = await play.open(host_port, f"host{self.number}")
        create = m.CreateRoom(
            game=self.game, seat=None, standin_after=0, bot_think_ms=BOT_THINK_MS
        )
        room = str((await join(host, create, play)).room["room"])
        self.rooms.append(room)
        for seat in BOT_SEATS[self.game]:
            bot = m.SetSeat(room=room, seat=seat, holder="bot", level=BOT_LEVEL)
            await must(host, bot, play, set_seat)
        for index, colour in enumerate(PERSON_SEATS[self.game]):
            name = f"t{self.number}{colour[0]}{len(self.rooms)}"
            person = Person(play, name, colour, room, random.Random(self.rng.random()))
            self.people.append(person)
            await person.sit(others[(self.number + index) % len(others)], colour)
        await must(host, m.Start(room=room), play, started)
        self.room = room

    def leave(self) -> None:
        """Close this table's connections, gracefully, in the background."""
        if self.host is not None:
            self.host.abandon()
        for person in self.people:
            person.leave()
        self.host, self.people, self.room = None, [], None


# Rounds.


@dataclass
class Round:
    """One fault: when it struck, when failover is timed from, and the rooms it met."""

    number: int
    kind: Fault
    target: str
    fault_at: float
    from_at: float = 0.0
    """When failover is timed from: the fault, or for Redis killed, Redis back."""
    cleared_at: float = 0.0
    """When the fault was over: the node woken, the proxy released, Redis back."""
    end_at: float = math.inf
    affected: dict[str, int] = field(default_factory=dict)
    """The rooms playing at `from_at`, with the latest version any client knew then."""
    excluded: set[str] = field(default_factory=set)
    """Rooms with a person connected through the paused or cut-off node."""
    stuck: set[str] = field(default_factory=set)
    """Rooms playing at `from_at` that had not moved since an earlier fault stopped them:
    counted against that fault, not this one."""

    def holds(self, at: float) -> bool:
        return self.fault_at <= at <= self.end_at

    @property
    def title(self) -> str:
        return f"round {self.number} ({self.kind}, {self.target})"


def _round_facts(fault: Round) -> dict[str, Any]:
    """A round as JSON-ready facts, its times relative to the fault."""
    return {
        "number": fault.number,
        "kind": str(fault.kind),
        "target": fault.target,
        "from": round(fault.from_at - fault.fault_at, 3),
        "cleared": round(fault.cleared_at - fault.fault_at, 3),
        "end": round(fault.end_at - fault.fault_at, 3),
        "affected": fault.affected,
        "excluded": sorted(fault.excluded),
        "stuck": sorted(fault.stuck),
    }


def _silent(_: str) -> None:
    """Say nothing."""


class Chaos:
    """A chaos run: the cluster, its tables, the rounds of faults, then the judgement."""

    def __init__(
        self, settings: Settings, folder: Path, say: Callable[[str], None] = _silent
    ) -> None:
        self.settings = settings
        self.say = say
        self.rng = random.Random(settings.seed)
        self.recorder = Recorder()
        self.cluster = Cluster(folder, settings)
        self.play = Play(settings, self.recorder, self.cluster)
        self.tables: list[Table] = []
        self.rounds: list[Round] = []
        self.stuck: dict[str, int] = {}
        """Rooms that did not move again after a fault, and the version they stopped at."""
        self.crashes: list[Violation] = []
        """Nodes that exited though no fault killed them."""

    async def run(self, kinds: Sequence[Fault]) -> "Report":
        """Start the cluster and play, one round for each of `kinds`, then read every
        room's final view and judge what was shown against it."""
        tasks: list[asyncio.Task[None]] = []
        try:
            await self.cluster.start()
            games = ["othello"] * self.settings.othello_rooms
            games += ["tribolo"] * self.settings.tribolo_rooms
            self.tables = [
                Table(self.play, number, game, random.Random(self.rng.random()))
                for number, game in enumerate(games, 1)
            ]
            tasks = [asyncio.create_task(table.run()) for table in self.tables]
            await self._until_playing()
            for number, kind in enumerate(kinds, 1):
                self.rounds.append(await self._round(number, kind))
            await asyncio.sleep(self.settings.tail)
            await self._replace_dead("the end")
            await self._wind_down(tasks)
            finals = await self._final_views()
            report = judge(self.settings, self.recorder, self.rounds, finals, self._seats())
            report.violations += self.crashes
            (self.cluster.folder / "report.txt").write_text(report.described() + "\n")
            return report
        finally:
            with contextlib.suppress(OSError):
                self.recorder.write(self.cluster.folder / "record.jsonl", self.rounds)
            self.play.stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for table in self.tables:
                table.leave()
            await settle_background(CLOSE_TIMEOUT)
            await self.cluster.stop()

    async def _until_playing(self) -> None:
        """Wait (a while) until every table plays a room."""
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline and any(t.room is None for t in self.tables):
            await asyncio.sleep(0.1)

    async def _wind_down(self, tasks: list[asyncio.Task[None]]) -> None:
        """Stop play; a table that failed (the harness's own fault) fails the run."""
        self.play.stop.set()
        await asyncio.wait(tasks, timeout=self.settings.timeout + 5.0)
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise RuntimeError("a table of the chaos run failed") from task.exception()

    async def _round(self, number: int, kind: Fault) -> Round:
        """Play a while, inject one fault, and wait until the rooms move again."""
        await asyncio.sleep(self.rng.uniform(*self.settings.calm))
        slot = self._target()
        target = "redis" if kind == Fault.REDIS_KILL else slot.name
        fault = Round(number, kind, target, time.monotonic())
        await self._inject(fault, slot)
        fault.cleared_at = time.monotonic()
        await self._until_moved(fault)
        fault.end_at = time.monotonic()
        self.say(self._told(fault))
        latest = self.recorder.latest
        for room, version in fault.affected.items():
            if latest.get(room, 0) <= version:
                self.stuck[room] = version
        killed = slot if fault.kind == Fault.NODE_KILL else None
        await self._replace_dead(fault.title, killed)
        return fault

    async def _replace_dead(self, when: str, killed: Slot | None = None) -> None:
        """Start a node in the place of each that is gone; one that exited though no
        fault killed it is a violation."""
        for slot in self.cluster.slots:
            if slot.live:
                continue
            if slot is not killed:
                code = slot.node.process.returncode
                log = self.cluster.log(slot.number, slot.started)
                text = f"{slot.name} exited by itself (code {code}) by {when}; its log: {log}"
                self.crashes.append(Violation("crashed", CALM, text))
            await self.cluster.replace(slot)

    def _target(self) -> Slot:
        """A node to fault, drawn from those some table's connections go through (a node
        started in place of a killed one may have none yet)."""
        ports = {
            conn.port
            for table in self.tables
            for conn in [table.host, *(person.conn for person in table.people)]
            if conn is not None
        }
        used = [slot for slot in self.cluster.slots if slot.node.port in ports]
        return self.rng.choice(used or self.cluster.slots)

    async def _inject(self, fault: Round, slot: Slot) -> None:
        """Do the fault (a node killed is replaced once the rooms have moved again, so
        that a node starting takes no CPU from the failover timed)."""
        settings = self.settings
        match fault.kind:
            case Fault.NODE_KILL:
                self._mark(fault)
                await slot.node.kill()
            case Fault.NODE_PAUSE:
                self._cut_off(fault, slot)
                slot.node.signal(signal.SIGSTOP)
                try:
                    await asyncio.sleep(settings.pause_seconds)
                finally:
                    slot.node.signal(signal.SIGCONT)
                    slot.down = False
            case Fault.REDIS_KILL:
                await self.cluster.redis.kill()
                await asyncio.sleep(self.rng.uniform(*settings.redis_down))
                await self.cluster.redis.start()
                self._mark(fault)
            case Fault.PROXY_RESET:
                self._mark(fault)
                slot.proxy.reset()
            case Fault.BLACKHOLE:
                self._cut_off(fault, slot)
                try:
                    await slot.proxy.blackhole(settings.blackhole_seconds)
                finally:
                    slot.down = False

    def _mark(self, fault: Round) -> None:
        """Failover is timed from now, for the rooms playing now that an earlier fault
        has not left stuck."""
        fault.from_at = time.monotonic()
        latest = self.recorder.latest
        self.stuck = {room: v for room, v in self.stuck.items() if latest.get(room, 0) <= v}
        playing = self.recorder.playing()
        fault.stuck = set(playing) & set(self.stuck)
        fault.affected = {room: v for room, v in playing.items() if room not in fault.stuck}

    def _cut_off(self, fault: Round, slot: Slot) -> None:
        """`slot`'s node is about to be paused or cut off: the rooms with a person
        connected through it are left out of the bound."""
        slot.down = True
        fault.excluded = {
            table.room
            for table in self.tables
            if table.room is not None
            and any(p.conn is not None and p.conn.port == slot.node.port for p in table.people)
        }
        self._mark(fault)

    async def _until_moved(self, fault: Round) -> None:
        """Wait until every room playing at the fault has moved again, or for the bound
        and `settle` seconds after the fault cleared."""
        deadline = fault.cleared_at + self.settings.bound + self.settings.settle
        latest = self.recorder.latest
        while time.monotonic() < deadline and any(
            latest.get(room, 0) <= version for room, version in fault.affected.items()
        ):
            await asyncio.sleep(0.1)

    def _told(self, fault: Round) -> str:
        """A line on how the round went, for the one watching."""
        latest = self.recorder.latest
        still = [room for room, v in fault.affected.items() if latest.get(room, 0) <= v]
        moving = f"{len(fault.affected) - len(still)} of {len(fault.affected)} rooms moved"
        took = time.monotonic() - fault.from_at
        earlier = f"; {len(fault.stuck)} still stuck from before" if fault.stuck else ""
        return f"{fault.title}: {moving} again within {took:.1f} s{earlier}"

    async def _final_views(self) -> dict[str, "FinalView"]:
        """Every room's view, read through a live node (retried while refused)."""
        reader = FinalReader(self.play, time.monotonic() + self.settings.final_timeout)
        finals = {}
        for table in self.tables:
            for room in table.rooms:
                finals[room] = await reader.read(room)
                await asyncio.sleep(READ_PAUSE)
        reader.close()
        return finals

    def _seats(self) -> list["SeatCheck"]:
        """Every person of every table's current room, to be found in their seat."""
        return [
            SeatCheck(
                table.room,
                person.colour,
                person.name,
                person.conn is not None and not person.conn.closed.is_set(),
            )
            for table in self.tables
            if table.room is not None
            for person in table.people
        ]


@dataclass(frozen=True)
class FinalView:
    """A room's view at the end; `moves` None if it could not be read (`error` says why)."""

    room: str
    moves: tuple[str, ...] | None
    seats: tuple[dict[str, Any], ...] = ()
    error: str = ""


@dataclass(frozen=True)
class SeatCheck:
    """A person who should be in their seat at the end."""

    room: str
    colour: str
    name: str
    connected: bool
    """Whether the person's own connection is open."""


class FinalReader:
    """Reads rooms' views as a watcher, through whichever live node answers."""

    def __init__(self, play: Play, deadline: float) -> None:
        self.play = play
        self.deadline = deadline
        self.conn: Conn | None = None

    async def read(self, room: str) -> FinalView:
        """The room's view; tried until the deadline (once at least)."""
        while True:
            try:
                answer = await self._ask(m.Spectate(room=room))
            except LostError as lost:
                answer, why = None, str(lost)
            else:
                why = _why(answer, self.play.settings.timeout)
            if isinstance(answer, m.Watching):
                view = answer.room
                moves = tuple(str(move) for move in view["moves"])
                return FinalView(room, moves, tuple(view["seats"]))
            if time.monotonic() > self.deadline:
                return FinalView(room, None, error=why)
            await asyncio.sleep(RETRY_PAUSE)

    async def _ask(self, message: m.ClientMessage) -> m.ServerMessage | None:
        """Ask through the reader's connection, opening one to a live node if needed."""
        if self.conn is None or self.conn.closed.is_set():
            ports = self.play.cluster.ports()
            if not ports:
                raise LostError("no live node")
            self.conn = await self.play.open(ports[0], "auditor")
        return await self.conn.request(message, self.play.settings.timeout)

    def close(self) -> None:
        """Close the reader's connection in the background."""
        if self.conn is not None:
            self.conn.abandon()


def _why(answer: m.ServerMessage | None, timeout: float) -> str:
    """Why an answer is not the one wanted, in a few words."""
    if answer is None:
        return f"no answer within {timeout:g} s"
    if isinstance(answer, m.Error):
        return answer.code
    return answer.TYPE


# Judging.


@dataclass
class Figures:
    """What one kind of fault (or the calm between faults) came to."""

    rounds: int = 0
    acked: int = 0
    replaced: int = 0
    lost: int = 0
    doubled: int = 0
    failover: list[float] = field(default_factory=list)
    """Seconds until each room the bound applies to moved again (inf: never seen)."""
    unavailable: int = 0
    not_seated: int = 0
    no_answer: int = 0
    not_serving: int = 0
    """Rooms that did not move again within the bound."""
    errors: Counter[str] = field(default_factory=Counter)
    """Every error code any connection was sent."""


CHECKS: Final = {
    "replaced": "moves shown, then replaced",
    "lost": "acknowledged moves lost",
    "doubled": "moves acknowledged twice",
    "unreadable": "rooms that could not be read at the end",
    "not_serving": "rooms not moving again within the bound after a fault",
    "stuck": "rooms of people on a paused or cut-off node not moving again once it was back",
    "crashed": "nodes that exited though no fault killed them",
    "not_seated": "not_seated told to a person holding a seat",
    "seat": "seats not back at the end",
}
"""Every check's name, and what its violations are."""


@dataclass(frozen=True)
class Violation:
    """One thing a check found wrong, in words."""

    check: str
    """One of CHECKS."""
    bucket: str
    """The fault kind it happened under, or CALM."""
    text: str


@dataclass
class Report:
    """Figures by fault kind and every violation found, in words."""

    settings: Settings
    figures: dict[str, Figures]
    violations: list[Violation]
    rounds: list[Round]
    rooms: int
    final_moves: int

    def problems(self, check: str) -> list[str]:
        """The violations of one check, as lines for an assertion message."""
        return [f"[{v.bucket}] {v.text}" for v in self.violations if v.check == check]

    def total(self, name: str) -> int:
        """A figure added up over every fault kind and the calm."""
        return sum(int(getattr(figures, name)) for figures in self.figures.values())

    def table(self) -> str:
        """The figures as a text table, a row for each fault kind that ran, then calm."""
        head = (
            f"{'fault':<12} {'rounds':>6} {'acked':>6} {'replaced':>8} {'lost':>5}"
            f" {'doubled':>7}  {'failover p50 / p99 / max':>26} {'unavail':>7}"
            f" {'not_seated':>10} {'no answer':>9} {'not serving':>11}"
        )
        lines = [head, "-" * len(head)]
        for kind, figures in self.figures.items():
            if kind != CALM and not figures.rounds:
                continue
            rounds = str(figures.rounds) if kind != CALM else "-"
            lines.append(
                f"{kind:<12} {rounds:>6} {figures.acked:>6} {figures.replaced:>8}"
                f" {figures.lost:>5} {figures.doubled:>7}  {spread(figures.failover):>26}"
                f" {figures.unavailable:>7} {figures.not_seated:>10} {figures.no_answer:>9}"
                f" {figures.not_serving:>11}"
            )
        other = {
            kind: dict(figures.errors) for kind, figures in self.figures.items() if figures.errors
        }
        lines += [f"  errors sent, {kind}: {codes}" for kind, codes in other.items()]
        return "\n".join(lines)

    def described(self, limit: int | None = None) -> str:
        """The table, then each check's violations (at most `limit` of each), in words."""
        parts = [self.table()]
        for check, title in CHECKS.items():
            found = self.problems(check)
            if found:
                shown = found[:limit] if limit is not None else found
                more = len(found) - len(shown)
                parts.append(f"{title}: {len(found)}")
                parts += [f"  {line}" for line in shown]
                parts += [f"  ... and {more} more"] if more else []
        return "\n".join(parts)

    def goals(self) -> list[tuple[str, bool]]:
        """Each goal in words, and whether the run met it."""
        bound = self.settings.bound
        met = [
            ("0 moves shown then replaced", self.total("replaced") == 0),
            ("0 acknowledged moves lost", self.total("lost") == 0),
            ("0 acknowledged moves doubled", self.total("doubled") == 0),
            ("every room read at the end", not self.problems("unreadable")),
            ("every room moving again once its node was back", not self.problems("stuck")),
            ("no node exited by itself", not self.problems("crashed")),
        ]
        for kind, figures in self.figures.items():
            if kind != CALM and figures.rounds:
                p99 = percentile(figures.failover, 0.99)
                met.append((f"{kind}: failover p99 <= {bound:g} s ({seconds(p99)})", p99 <= bound))
        return met


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def seconds(value: float) -> str:
    """Seconds for a table, `never` for a room that never moved."""
    return "never" if math.isinf(value) else f"{value:.2f}"


def spread(values: Sequence[float]) -> str:
    """p50 / p99 / max in seconds, or '-' when nothing was timed."""
    if not values:
        return "-"
    parts = (percentile(values, 0.5), percentile(values, 0.99), max(values))
    return " / ".join(seconds(value) for value in parts) + " s"


class Judge:
    """Checks a run's record against the rooms' final views."""

    def __init__(
        self,
        settings: Settings,
        recorder: Recorder,
        rounds: list[Round],
        finals: dict[str, FinalView],
    ) -> None:
        self.settings = settings
        self.recorder = recorder
        self.rounds = rounds
        self.finals = finals
        self.figures: dict[str, Figures] = {kind: Figures() for kind in (*KINDS, CALM)}
        self.violations: list[Violation] = []
        self.start = min((h.at for h in recorder.heard), default=0.0)

    def bucket(self, at: float) -> str:
        """The fault kind whose window holds `at`, else CALM."""
        return next((r.kind for r in self.rounds if r.holds(at)), CALM)

    def when(self, at: float) -> str:
        """A moment, in seconds since the run's first message, and the round it fell in."""
        within = next((r.title for r in self.rounds if r.holds(at)), "between faults")
        return f"{at - self.start:.2f} s, {within}"

    def note(self, check: str, at: float, text: str) -> None:
        """A violation at a moment, counted under the fault kind of that moment."""
        self.violations.append(Violation(check, self.bucket(at), f"{text} (at {self.when(at)})"))

    def kept(self, room: str) -> tuple[str, ...] | None:
        """The moves the cluster kept in `room`, if its view could be read."""
        final = self.finals.get(room)
        return final.moves if final is not None else None

    def check_unreadable(self) -> None:
        """Rooms whose final view could not be read: nothing in them can be checked."""
        for final in self.finals.values():
            if final.moves is None:
                self.violations.append(
                    Violation(
                        "unreadable",
                        CALM,
                        f"room {final.room}: not read at the end ({final.error})",
                    )
                )

    def check_shown(self) -> None:
        """(a) every update and room view shown agrees with the final moves."""
        first: dict[tuple[str, int, str], list[Heard]] = defaultdict(list)
        for heard in self.recorder.heard:
            kept = self.kept(heard.room) if heard.room is not None else None
            if kept is None or heard.version is None:
                continue
            if heard.move is not None and heard.kind == m.Update.TYPE:
                if heard.version > len(kept) or kept[heard.version - 1] != heard.move:
                    first[(heard.room or "", heard.version, heard.move)].append(heard)
            elif heard.moves is not None:
                differ = _first_difference(heard.moves, kept)
                if differ is not None:
                    first[(heard.room or "", differ + 1, heard.moves[differ])].append(heard)
        for (room, version, move), seen in first.items():
            kept = self.kept(room) or ()
            instead = repr(kept[version - 1]) if version <= len(kept) else "nothing"
            conns = sorted({heard.conn for heard in seen})
            self.figures[self.bucket(seen[0].at)].replaced += 1
            self.note(
                "replaced",
                seen[0].at,
                f"room {room} version {version}: shown {move!r} ({seen[0].kind}) to"
                f" {len(conns)} connection(s) {', '.join(conns[:4])}; kept {instead}",
            )

    def check_acked(self) -> None:
        """(b) every acknowledged move is kept at its version, and kept once. A move sent
        again and acknowledged again (at the same version) is one move; two moves
        acknowledged for one version, or a move kept twice (in the placement games played
        here a square is played once a game), are doubled."""
        acked: dict[tuple[str, int, str], Ack] = {}
        for ack in self.recorder.acks:
            acked.setdefault((ack.room, ack.version, ack.move), ack)
        by_version: dict[tuple[str, int], list[Ack]] = defaultdict(list)
        for ack in acked.values():
            self.figures[self.bucket(ack.at)].acked += 1
            by_version[(ack.room, ack.version)].append(ack)
        for (room, version), acks in sorted(by_version.items()):
            kept = self.kept(room)
            if kept is None:
                continue
            for ack in acks[1:]:
                self._doubled(
                    ack,
                    f"{ack.move!r} acknowledged to {ack.conn} after {acks[0].move!r} was"
                    f" acknowledged to {acks[0].conn}",
                )
            for ack in acks:
                if version > len(kept) or kept[version - 1] != ack.move:
                    instead = repr(kept[version - 1]) if version <= len(kept) else "nothing"
                    self.figures[self.bucket(ack.at)].lost += 1
                    self.note(
                        "lost",
                        ack.at,
                        f"room {room} version {version}: {ack.move!r} acknowledged to"
                        f" {ack.conn}; kept {instead}",
                    )
                elif kept.count(ack.move) > 1:
                    self._doubled(ack, f"{ack.move!r} kept {kept.count(ack.move)} times")

    def _doubled(self, ack: Ack, what: str) -> None:
        """Count and name a doubled move."""
        self.figures[self.bucket(ack.at)].doubled += 1
        self.note("doubled", ack.at, f"room {ack.room} version {ack.version}: {what}")

    def check_failover(self) -> None:
        """(c) every room playing at a fault moved again within the bound."""
        moved = self._moves_by_room()
        bound = self.settings.bound
        for fault in self.rounds:
            figures = self.figures[fault.kind]
            figures.rounds += 1
            for room, version in sorted(fault.affected.items()):
                at = next(
                    (at for at, v in moved[room] if at >= fault.from_at and v > version), None
                )
                if room in fault.excluded:
                    self._check_back(fault, room, at)
                    continue
                took = at - fault.from_at if at is not None else math.inf
                figures.failover.append(took)
                if took > bound:
                    figures.not_serving += 1
                    since = "Redis answered" if fault.kind == Fault.REDIS_KILL else "the fault"
                    after = f"{took:.2f} s" if at is not None else "no move seen"
                    self.violations.append(
                        Violation(
                            "not_serving",
                            fault.kind,
                            f"{fault.title}: room {room} (at version {version}) moved again"
                            f" {after} after {since} (bound {bound:g} s)",
                        )
                    )

    def _check_back(self, fault: Round, room: str, at: float | None) -> None:
        """A room left out of the bound must still move again before its round ends
        (the bound and `settle` seconds after its node was back)."""
        if at is None or at > fault.end_at:
            waited = fault.end_at - fault.cleared_at
            self.violations.append(
                Violation(
                    "stuck",
                    fault.kind,
                    f"{fault.title}: room {room}, with people on {fault.target}, did not"
                    f" move again within {waited:.1f} s of {fault.target} being back",
                )
            )

    def _moves_by_room(self) -> dict[str, list[tuple[float, int]]]:
        """When each room was seen at each version, by acknowledgements and by messages."""
        moved: dict[str, list[tuple[float, int]]] = defaultdict(list)
        for ack in self.recorder.acks:
            moved[ack.room].append((ack.at, ack.version))
        for heard in self.recorder.heard:
            if heard.room is not None and heard.version is not None:
                moved[heard.room].append((heard.at, heard.version))
        for seen in moved.values():
            seen.sort()
        return moved

    def check_errors(self) -> None:
        """(d) no `not_seated` to a seated person; (e) `unavailable` and no answers."""
        for heard in self.recorder.heard:
            if heard.code is None:
                continue
            figures = self.figures[self.bucket(heard.at)]
            figures.errors[heard.code] += 1
            if heard.code == "unavailable":
                figures.unavailable += 1
            if heard.code == "not_seated" and heard.conn in self.recorder.people:
                figures.not_seated += 1
                self.note(
                    "not_seated",
                    heard.at,
                    f"room {heard.room}: {heard.conn}, who holds a seat, was told not_seated"
                    f" for {heard.request}",
                )
        for silence in self.recorder.no_answers:
            self.figures[self.bucket(silence.at)].no_answer += 1

    def check_seats(self, seats: list[SeatCheck]) -> None:
        """(d) every person's seat shows them connected at the end."""
        for seat in seats:
            final = self.finals.get(seat.room)
            if final is None or final.moves is None:
                continue
            holder = next(
                (s.get("holder") for s in final.seats if s.get("colour") == seat.colour), None
            )
            if isinstance(holder, dict) and (
                holder.get("kind") == "human"
                and holder.get("name") == seat.name
                and holder.get("connected") is True
            ):
                continue
            own = "open" if seat.connected else "closed (not back)"
            self.violations.append(
                Violation(
                    "seat",
                    CALM,
                    f"room {seat.room} seat {seat.colour} ({seat.name}, connection {own}):"
                    f" shows {holder}",
                )
            )


def _first_difference(shown: Sequence[str], kept: Sequence[str]) -> int | None:
    """The index of the first move shown that is not the one kept there, if any."""
    for index, move in enumerate(shown):
        if index >= len(kept) or kept[index] != move:
            return index
    return None


def judge(
    settings: Settings,
    recorder: Recorder,
    rounds: list[Round],
    finals: dict[str, FinalView],
    seats: list[SeatCheck],
) -> Report:
    """Check everything recorded against the final views; the report."""
    judging = Judge(settings, recorder, rounds, finals)
    judging.check_unreadable()
    judging.check_shown()
    judging.check_acked()
    judging.check_failover()
    judging.check_errors()
    judging.check_seats(seats)
    final_moves = sum(len(f.moves) for f in finals.values() if f.moves is not None)
    return Report(settings, judging.figures, judging.violations, rounds, len(finals), final_moves)
