"""Server speed: move round trips in many rooms, against a bare `websockets` broadcast server.

Run: `python benchmarks/server.py` (after `pip install -e .`); `--quick` for a smoke run.

Every server under test runs in a process of its own (`python -m parlour serve` on a free
loopback port, or this file's bare server), so that client CPU never counts against the
server's loop. The play runs' clients are split between `--client-procs` processes (2: one
asyncio loop cannot keep up with the bare server); the other runs' clients are in this one.

Measurements, each against a freshly started server:

- Play: `--rooms` Tribolo rooms of three clients (the host sits blue, two join as red and
  green; once every room is set up, every host starts) play `--moves` moves each, or to the
  game's end. Whoever is to move sends `move` with the room's version and the first legal
  move of its observation. A move's round trip runs from just before its `move` is sent
  until the last of the room's three clients has its `update`. Two runs: the closed loop
  sends each move as soon as its client sees its turn, so the rooms saturate the server and
  the round trip is mostly queueing (rooms / moves per second); the paced run waits 0.5 to
  1.5 times `--think` seconds first, an offered load of about rooms / think moves a second.
- The same clients against a bare `websockets` server written below, with Parlour's codecs
  and transport settings: it decodes each move, answers `ok` and broadcasts one update built
  from a real Tribolo observation, encoded once, to the room's three clients. No rules, no
  checks: the floor for this traffic.
- Memory: `--idle` connections that say hello and then sit idle; the server's resident set
  (VmRSS) before and after, divided by the count. Same for the bare server. The clients
  offer permessage-deflate, as browsers do; both servers decline it.
- Loop lag while bots think: probe clients send `get_room` every 10 ms, first on an idle
  server, then while `--bot-rooms` rooms play bots against each other in the server's
  worker processes. By default the bots think as the strong levels will, busy on the CPU
  for their whole time budget (1 s) before they play the weakest level's move, so both
  workers never rest; `--bots weakest` runs the game's weakest level, which answers at once.
  The server is started from this file (`--serve-parlour`) to give it those bots, with the
  defaults of `parlour serve` otherwise (`--bot-pause` 0.4). The probe's reply latency is a
  proxy for the server loop's lag, measured from a client: it includes one loopback round
  trip and the handling of one small request.

CPU use is given as a share of one core, for the server, the clients and every other
process on the machine (a busy machine disturbs the figures; the run then says so).

Targets (2 cores): 300 rooms (900 clients) with round-trip p99 under 50 ms; Parlour's round
trip at most twice the bare server's; under 30 KiB per idle connection; loop lag p99 under
20 ms while bots think in 50 rooms. The round-trip targets are judged on the paced run,
where clients take turns as people do. The closed loop measures capacity: every room always
has a move in flight, so its round trip is rooms / throughput (Little's law): 300 rooms
under 50 ms would need over 6,000 moves a second, and even the bare server's p99 is above
50 ms there on this machine. It is reported, not judged.
"""

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import math
import multiprocessing
import os
import platform
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.synchronize import Barrier as BarrierType
from pathlib import Path
from typing import Any, Final, Literal, cast

import msgpack
import websockets
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from parlour import bots
from parlour.bots import Thought
from parlour.protocol import JSON, MAX_FRAME_BYTES, MSGPACK, Codec, codec_for
from parlour.rules import State
from parlour.server.app import ServerConfig
from parlour.server.serve import serve as serve_parlour_until_stopped

Message = dict[str, Any]
Frame = bytes | str
Compression = Literal["deflate"] | None

SEATS: Final = ("blue", "red", "green")
GAME: Final = "tribolo"
CONNECT_AT_ONCE: Final = 48
"""Handshakes in flight at once, per client process: two processes stay under the server's
listen backlog (100), past which handshakes wait for a SYN to be sent again."""
PROBE_EVERY: Final = 0.010
PROBE_CONNECTIONS: Final = 8
"""Probes are spread over this many connections to stay under the 20 messages/s limit."""
RATE_LIMITED_PAUSE: Final = 0.05
SERVER_START_TIMEOUT: Final = 30.0
SETTLE: Final = 0.5
"""Seconds to let a server settle before its memory is read."""
PLAY_TIMEOUT: Final = 900.0
CLOSED_LOOP: Final = "closed loop"
MIB: Final = 1 << 20
KIB: Final = 1 << 10


CODECS: Final = {"msgpack": MSGPACK, "json": JSON}
"""The codecs by the name `--codec` takes, to their subprotocols (protocol.md, section 1)."""


# The bare server: the same traffic with nothing behind it.


def sample_state() -> Message:
    """A real Tribolo observation from the middle of a game, for the bare server's updates."""
    from parlour.rules import get_game  # noqa: PLC0415 (only the bare server needs it)

    state = get_game(GAME).new(seed=7)
    for _ in range(15):
        state = state.play(state.legal_moves()[0])
    return cast(Message, state.observation(state.to_move))


@dataclass
class BareRoom:
    id: str
    members: list[ServerConnection] = field(default_factory=list)
    version: int = 0


async def bare_server(codec: Codec) -> None:
    """Serve the bare protocol on a free port until SIGTERM; print the port first."""
    state = sample_state()
    rooms: dict[str, BareRoom] = {}
    numbers = itertools.count(10_000_000)

    def send(websocket: ServerConnection, message: Message) -> None:
        broadcast([websocket], codec.encode(message))

    async def handler(websocket: ServerConnection) -> None:
        room: BareRoom | None = None
        async for frame in websocket:
            message = codec.decode(frame)
            kind, request = message.get("type"), message.get("id")
            if kind == "move" and room is not None:
                if message["version"] != room.version:
                    send(websocket, {"type": "error", "code": "stale_version"})
                    continue
                room.version += 1
                send(websocket, {"type": "ok"})
                update = {
                    "type": "update",
                    "room": room.id,
                    "version": room.version,
                    "seat": SEATS[(room.version - 1) % 3],
                    "move": message["move"],
                    "passed": [],
                    "state": state | {"to_move": SEATS[room.version % 3]},
                }
                broadcast(room.members, codec.encode(update))
            elif kind == "hello":
                send(websocket, {"type": "welcome", "id": request, "version": 1})
            elif kind == "create_room":
                room = BareRoom(str(next(numbers)), [websocket])
                rooms[room.id] = room
                joined = {"room": {"room": room.id}, "seat": SEATS[0]}
                send(websocket, {"type": "joined", "id": request, **joined})
            elif kind == "join":
                room = rooms[message["room"]]
                room.members.append(websocket)
                joined = {"room": {"room": room.id}, "seat": message["seat"]}
                send(websocket, {"type": "joined", "id": request, **joined})
            elif kind == "start" and room is not None:
                send(websocket, {"type": "ok", "id": request})
                view = {"room": room.id, "status": "playing", "version": 0, "state": state}
                broadcast(room.members, codec.encode({"type": "room", "room": view}))

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    subprotocols = [Subprotocol(name) for name in CODECS.values()]
    async with serve(
        handler,
        "127.0.0.1",
        0,
        subprotocols=subprotocols,
        compression=None,
        max_size=MAX_FRAME_BYTES,
    ) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"bare server on ws://127.0.0.1:{port}/ws", flush=True)
        await stop.wait()


# Server processes.


class ServerProcess:
    """A server in a process of its own, its address read from what it prints first."""

    def __init__(self, argv: list[str], name: str) -> None:
        self.name = name
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in stop)
            mode="w+", prefix=f"bench-{name}-", suffix=".log"
        )
        self.process = subprocess.Popen(
            argv, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        self.uri = self._wait_for_address()
        self.port = int(self.uri.rsplit(":", 1)[1].split("/")[0])

    @property
    def pid(self) -> int:
        return self.process.pid

    def _wait_for_address(self) -> str:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            found = re.search(r"ws://127\.0\.0\.1:\d+/ws", Path(self.log.name).read_text())
            if found:
                return found.group(0)
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the {self.name} server did not start:\n{self.output()}")

    def output(self) -> str:
        return Path(self.log.name).read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@contextlib.contextmanager
def parlour_server(data_dir: str, profile: str | None = None) -> Iterator[ServerProcess]:
    """`parlour serve` on a free port; under cProfile, writing to `profile`, if given."""
    argv = [*python_argv(profile), "-m", "parlour", "serve", "--host", "127.0.0.1"]
    argv += ["--port", "0", "--data-dir", data_dir]
    with running(ServerProcess(argv, "parlour")) as server:
        yield server


@contextlib.contextmanager
def parlour_server_with_bots(
    data_dir: str, bots: str, bot_pause: float, profile: str | None = None
) -> Iterator[ServerProcess]:
    """A Parlour server whose bots are `bots` (see BOTS), from this file's `--serve-parlour`."""
    argv = [*python_argv(profile), __file__, "--serve-parlour", "--bots", bots]
    argv += ["--bot-pause", str(bot_pause), "--data-dir", data_dir]
    with running(ServerProcess(argv, "parlour")) as server:
        yield server


def python_argv(profile: str | None) -> list[str]:
    """This Python, under cProfile writing to `profile` if given."""
    return [sys.executable, *(["-m", "cProfile", "-o", profile] if profile else [])]


@contextlib.contextmanager
def running(server: ServerProcess) -> Iterator[ServerProcess]:
    try:
        yield server
    finally:
        server.stop()


def thinking_bot(
    state: State[Any], level: str, budget: float, seed: int
) -> Iterator[Thought[Any]]:
    """A bot that thinks as the strong levels do, busy on the CPU for its whole budget; then
    it plays the weakest level's move."""
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        pass
    yield from bots.think(state, bots.levels_for(state.game.name)[0], budget, seed)


BOTS: Final = {"thinking": thinking_bot, "weakest": bots.think}
"""The bots `--serve-parlour` can run: each a `ServerConfig.think`."""


def serve_parlour(bots: str, bot_pause: float, data_dir: str) -> None:
    """Serve Parlour as `parlour serve` does, with the bots named, until SIGTERM."""
    config = ServerConfig(data_dir=Path(data_dir), bot_pause=bot_pause, think=BOTS[bots])
    asyncio.run(serve_parlour_until_stopped(config))


@contextlib.contextmanager
def bare_server_process(codec: str) -> Iterator[ServerProcess]:
    argv = [sys.executable, __file__, "--serve-bare", "--codec", codec]
    with running(ServerProcess(argv, "bare")) as server:
        yield server


CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of process `pid` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children_cpu_seconds(pid: int) -> float:
    """CPU seconds of the live children of `pid` (the server's bot workers)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        except (OSError, IndexError, ValueError):
            continue
    return total


def rss_bytes(pid: int) -> int:
    """The resident set size of process `pid`."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * KIB
    raise RuntimeError(f"no VmRSS for process {pid}")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy, from /proc/stat."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


@dataclass(frozen=True)
class CpuShares:
    """CPU used over a stretch of time, each as a share of one core."""

    server: float
    workers: float
    own: float
    machine: float
    """Every process on the machine, these included."""


class CpuMeter:
    """CPU use of the server, its workers, this process and the machine since it was made;
    the server's share counts the processes in `also` too (a cluster's other nodes and its
    Redis)."""

    def __init__(self, pid: int, also: Sequence[int] = ()) -> None:
        self.pid = pid
        self.pids = (pid, *also)
        self.wall = time.perf_counter()
        self.server = sum(map(cpu_seconds, self.pids))
        self.workers = children_cpu_seconds(pid)
        self.own = own_cpu_seconds()
        self.machine = machine_busy_seconds()

    def shares(self) -> CpuShares:
        wall = time.perf_counter() - self.wall
        return CpuShares(
            server=(sum(map(cpu_seconds, self.pids)) - self.server) / wall,
            workers=(children_cpu_seconds(self.pid) - self.workers) / wall,
            own=(own_cpu_seconds() - self.own) / wall,
            machine=(machine_busy_seconds() - self.machine) / wall,
        )


# Clients.


class Peer:
    """One client connection: requests matched to replies by id, the rest to `on_push`."""

    def __init__(self, websocket: ClientConnection, codec: Codec) -> None:
        self.websocket = websocket
        self.codec = codec
        self.colour = ""
        self.started = False
        self.finished = False
        self.on_push: Callable[[Peer, Message, float], Awaitable[None]] | None = None
        self.on_lost: Callable[[BaseException], None] | None = None
        """Called when the connection ends, for whatever reason."""
        self.last_size = 0
        """The size of the last frame handed to `on_push`."""
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, uri: str, codec: Codec, name: str, compression: Compression, gate: asyncio.Semaphore
    ) -> "Peer":
        async with gate:
            websocket = await connect(
                uri,
                subprotocols=[Subprotocol(codec.subprotocol)],
                compression=compression,
                open_timeout=60,
                ping_interval=None,
                max_size=1 << 20,
            )
            peer = cls(websocket, codec)
            await peer.request({"type": "hello", "version": 1, "name": name})
        return peer

    async def _read(self) -> None:
        failure: BaseException = ConnectionError("the server closed the connection")
        try:
            async for frame in self.websocket:
                now = time.perf_counter()
                message = self.codec.decode(frame)
                waiting = self._waiting.pop(message.get("id", -1), None)
                if waiting is not None:
                    waiting.set_result(message)
                elif self.on_push is not None:
                    self.last_size = len(frame)
                    await self.on_push(self, message, now)
        except ConnectionClosed:
            pass
        except Exception as error:  # handed to whoever waits on this peer
            failure = error
        finally:
            for waiting in self._waiting.values():
                if not waiting.done():
                    waiting.set_exception(failure)
            if self.on_lost is not None:
                self.on_lost(failure)

    async def send(self, message: Message) -> None:
        await self.websocket.send(self.codec.encode(message))

    async def request(self, message: Message, timeout: float = 60.0) -> Message:
        """Send `message` with a fresh id; its reply, waiting and retrying if rate limited."""
        while True:
            request = next(self._ids)
            reply = asyncio.get_running_loop().create_future()
            self._waiting[request] = reply
            await self.send(message | {"id": request})
            async with asyncio.timeout(timeout):
                answer: Message = await reply
            if answer.get("code") != "rate_limited":
                if answer.get("type") == "error":
                    raise RuntimeError(f"{message['type']} refused: {answer}")
                return answer
            await asyncio.sleep(RATE_LIMITED_PAUSE)

    async def close(self, gate: asyncio.Semaphore) -> None:
        async with gate:
            await self.websocket.close()
        await self._reader


@dataclass
class Tally:
    """What the clients of one scenario saw."""

    round_trips: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    updates: int = 0
    update_bytes: int = 0


class RoomPlay:
    """Three clients playing one room: moves on their turns, round trips timed."""

    def __init__(
        self,
        room: str,
        *,
        limit: int,
        think: float,
        seed: int,
        tally: Tally,
        tasks: set[asyncio.Future[None]],
    ) -> None:
        self.room = room
        self.limit = limit
        self.think = think
        self.rng = random.Random(seed)
        self.tally = tally
        self.tasks = tasks
        self.sent: dict[int, float] = {}
        self.seen: dict[int, int] = {}
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.finished = 0
        self.last: tuple[Peer, Message] | None = None

    async def on_push(self, peer: Peer, message: Message, now: float) -> None:
        kind = message["type"]
        if kind == "update":
            version = message["version"]
            seen = self.seen.pop(version, 0) + 1
            if seen == 3:
                self.tally.round_trips.append(now - self.sent.pop(version))
            else:
                self.seen[version] = seen
            self.tally.updates += 1
            self.tally.update_bytes += peer.last_size
            await self._turn(peer, version, message["state"])
        elif kind == "room":
            view = message["room"]
            if view["status"] == "playing" and not peer.started:
                peer.started = True
                await self._turn(peer, view["version"], view["state"])
        elif kind == "error":
            code = message.get("code", "?")
            self.tally.errors[code] += 1
            if code == "rate_limited" and self.last is not None:
                self._spawn(self._move_later(*self.last, RATE_LIMITED_PAUSE))
            else:
                self.fail(RuntimeError(f"room {self.room}: {message}"))

    def fail(self, error: BaseException) -> None:
        """The room cannot go on (a refusal, a lost connection)."""
        if not self.done.done():
            self.done.set_exception(error)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _turn(self, peer: Peer, version: int, state: Message) -> None:
        if state["over"] or version >= self.limit:
            if not peer.finished:
                peer.finished = True
                self.finished += 1
                if self.finished == 3 and not self.done.done():
                    self.done.set_result(None)
            return
        if state["to_move"] != peer.colour:
            return
        move = {"type": "move", "room": self.room, "version": version}
        move["move"] = state["legal_moves"][0]
        if self.think > 0:
            pause = self.think * self.rng.uniform(0.5, 1.5)
            self._spawn(self._move_later(peer, move, pause))
        else:
            await self._move(peer, move)

    async def _move_later(self, peer: Peer, move: Message, pause: float) -> None:
        await asyncio.sleep(pause)
        await self._move(peer, move)

    async def _move(self, peer: Peer, move: Message) -> None:
        """Send a move; a resent one (after `rate_limited`) keeps its first sending time."""
        self.sent.setdefault(move["version"] + 1, time.perf_counter())
        self.last = (peer, move)
        await peer.send(move)


@dataclass
class PartResult:
    """What the clients of one client process saw while their rooms played."""

    round_trips: list[float]
    errors: Counter[str]
    updates: int
    update_bytes: int
    began: float
    ended: float
    cpu: float


Hook = Callable[[], Awaitable[None]]


async def nothing() -> None:
    pass


@dataclass(frozen=True)
class Job:
    """Rooms for one client process to play: `rooms` of them, numbered from `first`."""

    uri: str
    codec: str
    first: int
    rooms: int
    moves: int
    think: float
    compression: Compression
    spread: tuple[str, ...] = ()
    """Servers to spread the clients over in place of `uri`: room n's clients connect to
    the (n mod count)th, or with `across`, room n's seat s to the ((n + s) mod count)th,
    so that every room has clients on two of them."""
    across: bool = False

    def uri_for(self, room: int, seat: int) -> str:
        if not self.spread:
            return self.uri
        return self.spread[(room + seat * self.across) % len(self.spread)]


async def play_part(job: Job, ready: Hook = nothing, played: Hook = nothing) -> PartResult:
    """Every room of `job` opened, then all started at once and played to the end.

    `ready` is awaited once every room is open and before any starts; `played` once every
    room has played, before the connections close.
    """
    codec = codec_for(CODECS[job.codec])
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)
    tally = Tally()
    tasks: set[asyncio.Future[None]] = set()

    async def open_room(index: int) -> tuple[RoomPlay, list[Peer]]:
        peers = [
            await Peer.open(
                job.uri_for(index, n), codec, f"p{index}-{seat}", job.compression, gate
            )
            for n, seat in enumerate(SEATS)
        ]
        host = peers[0]
        create = {"type": "create_room", "game": GAME, "seat": SEATS[0], "board": index + 1}
        joined = await host.request(create)
        room = joined["room"]["room"]
        for peer, seat in zip(peers[1:], SEATS[1:], strict=True):
            await peer.request({"type": "join", "room": room, "seat": seat})
        game = RoomPlay(
            room, limit=job.moves, think=job.think, seed=index, tally=tally, tasks=tasks
        )
        for peer, seat in zip(peers, SEATS, strict=True):
            peer.colour = seat
            peer.on_push = game.on_push
            peer.on_lost = game.fail
        return game, peers

    opened = await asyncio.gather(*(open_room(job.first + n) for n in range(job.rooms)))
    await ready()
    began, cpu = time.perf_counter(), own_cpu_seconds()
    async with asyncio.timeout(PLAY_TIMEOUT):
        starts = [peers[0].request({"type": "start", "room": g.room}) for g, peers in opened]
        await asyncio.gather(*starts)
        await asyncio.gather(*(game.done for game, _ in opened))
    ended, cpu = time.perf_counter(), own_cpu_seconds() - cpu
    await played()
    await asyncio.gather(*(peer.close(gate) for _, peers in opened for peer in peers))
    return PartResult(
        tally.round_trips, tally.errors, tally.updates, tally.update_bytes, began, ended, cpu
    )


def client_process(
    job: Job, go: BarrierType, stop: BarrierType, results: "multiprocessing.Queue[PartResult]"
) -> None:
    """One of several client processes: its share of the rooms, in step with the others."""

    async def ready() -> None:
        await asyncio.to_thread(go.wait, PLAY_TIMEOUT)

    async def played() -> None:
        await asyncio.to_thread(stop.wait, PLAY_TIMEOUT)

    results.put(asyncio.run(play_part(job, ready, played)))


@dataclass
class PlayResult:
    """What every client process saw, and the server's CPU use meanwhile."""

    round_trips: list[float]
    errors: Counter[str]
    update_bytes: float
    seconds: float
    server_cpu: float
    client_cpu: float
    other_cpu: float
    """Every other process on the machine."""

    @property
    def rate(self) -> float:
        return len(self.round_trips) / self.seconds


async def play(
    server: ServerProcess, job: Job, processes: int, also: Sequence[int] = ()
) -> PlayResult:
    """The job's rooms of three clients, all playing at once, from `processes` processes;
    the server's CPU share counts the processes in `also` too."""
    meter: CpuMeter | None = None
    shares = CpuShares(0.0, 0.0, 0.0, 0.0)

    async def ready() -> None:
        nonlocal meter
        meter = CpuMeter(server.pid, also)

    async def played() -> None:
        nonlocal shares
        assert meter is not None
        shares = meter.shares()

    if processes == 1:
        parts = [await play_part(job, ready, played)]
    else:
        parts = await play_in_processes(job, processes, ready, played)
    began = min(part.began for part in parts)
    seconds = max(part.ended for part in parts) - began
    updates = sum(part.updates for part in parts)
    clients = sum(part.cpu for part in parts) / seconds
    if processes > 1:
        clients += shares.own
    return PlayResult(
        round_trips=sorted(rtt for part in parts for rtt in part.round_trips),
        errors=sum((part.errors for part in parts), Counter()),
        update_bytes=sum(part.update_bytes for part in parts) / max(1, updates),
        seconds=seconds,
        server_cpu=shares.server,
        client_cpu=clients,
        other_cpu=max(0.0, shares.machine - shares.server - clients),
    )


async def play_in_processes(
    job: Job, processes: int, ready: Hook, played: Hook
) -> list[PartResult]:
    """The job's rooms split between client processes that start and stop together."""
    context = multiprocessing.get_context("spawn")
    go, stop = context.Barrier(processes + 1), context.Barrier(processes + 1)
    results: multiprocessing.Queue[PartResult] = context.Queue()
    bounds = [job.first + job.rooms * n // processes for n in range(processes + 1)]
    workers = [
        context.Process(
            target=client_process,
            args=(dataclasses.replace(job, first=lo, rooms=hi - lo), go, stop, results),
            daemon=True,
        )
        for lo, hi in itertools.pairwise(bounds)
    ]
    for worker in workers:
        worker.start()
    try:
        await asyncio.to_thread(go.wait, PLAY_TIMEOUT)
        await ready()
        await asyncio.to_thread(stop.wait, PLAY_TIMEOUT)
        await played()
        return [await asyncio.to_thread(results.get, True, PLAY_TIMEOUT) for _ in workers]
    finally:
        for worker in workers:
            worker.join(5)
            if worker.is_alive():
                worker.terminate()


@dataclass
class MemoryResult:
    connections: int
    before: int
    after: int

    @property
    def per_connection(self) -> float:
        return (self.after - self.before) / self.connections


async def idle_memory(
    server: ServerProcess, codec: Codec, connections: int, compression: Compression
) -> MemoryResult:
    """The server's resident set before and after `connections` idle clients said hello."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)
    warm = [await Peer.open(server.uri, codec, "warm", compression, gate) for _ in range(20)]
    await asyncio.gather(*(peer.close(gate) for peer in warm))
    await asyncio.sleep(SETTLE)
    before = rss_bytes(server.pid)
    peers = await asyncio.gather(
        *(Peer.open(server.uri, codec, f"idle{n}", compression, gate) for n in range(connections))
    )
    await asyncio.sleep(SETTLE)
    after = rss_bytes(server.pid)
    await asyncio.gather(*(peer.close(gate) for peer in peers))
    return MemoryResult(connections, before, after)


@dataclass
class LagResult:
    idle: list[float]
    busy: list[float]
    bot_rooms: int
    bot_moves: int
    games: int
    seconds: float
    cpu: CpuShares
    metrics: dict[str, float]


class Probe:
    """Small requests on a fixed beat, spread over a few connections; each reply's latency."""

    def __init__(self, peers: list[Peer], rooms: list[str]) -> None:
        self.peers = peers
        self.rooms = rooms

    async def run(self, seconds: float) -> list[float]:
        latencies: list[float] = []
        pending: set[asyncio.Task[None]] = set()

        async def one(index: int) -> None:
            peer = self.peers[index % len(self.peers)]
            sent = time.perf_counter()
            await peer.request({"type": "get_room", "room": self.rooms[index % len(self.rooms)]})
            latencies.append(time.perf_counter() - sent)

        began = time.perf_counter()
        for index in itertools.count():
            beat = began + index * PROBE_EVERY
            if beat - began >= seconds:
                break
            await asyncio.sleep(max(0.0, beat - time.perf_counter()))
            task = asyncio.create_task(one(index))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)
        return sorted(latencies)


async def bot_lag(
    server: ServerProcess,
    codec: Codec,
    *,
    bot_rooms: int,
    idle_seconds: float,
    busy_seconds: float,
    compression: Compression,
) -> LagResult:
    """Probe latency on an idle server, then while `bot_rooms` rooms of bots play."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)
    probes = [
        await Peer.open(server.uri, codec, f"probe{n}", compression, gate)
        for n in range(PROBE_CONNECTIONS)
    ]
    rooms = []
    for peer in probes:
        joined = await peer.request({"type": "create_room", "game": GAME, "public": False})
        rooms.append(joined["room"]["room"])
    probe = Probe(probes, rooms)
    await probe.run(0.5)  # warm up
    idle = await probe.run(idle_seconds)

    stop = asyncio.Event()
    wakers: list[asyncio.Event] = []
    moves = games = 0

    async def host_games(index: int) -> None:
        nonlocal moves, games
        host = await Peer.open(server.uri, codec, f"host{index}", compression, gate)
        over = asyncio.Event()
        wakers.append(over)

        async def on_push(peer: Peer, message: Message, now: float) -> None:
            nonlocal moves
            if message["type"] == "update":
                moves += 1
                if message["state"]["over"]:
                    over.set()

        host.on_push = on_push
        board = index + 1
        while not stop.is_set():
            over.clear()
            joined = await host.request({"type": "create_room", "game": GAME, "board": board})
            room = joined["room"]["room"]
            await host.request({"type": "fill_bots", "room": room})
            await host.request({"type": "start", "room": room})
            await over.wait()
            if stop.is_set():
                break
            games += 1
            await host.request({"type": "leave", "room": room})
            board += bot_rooms
        await host.close(gate)

    hosts = [asyncio.create_task(host_games(index)) for index in range(bot_rooms)]
    await asyncio.sleep(1.0)  # every room playing, the bot workers started
    moves_before = moves
    meter = CpuMeter(server.pid)
    busy = await probe.run(busy_seconds)
    seconds = time.perf_counter() - meter.wall
    shares = meter.shares()
    bot_moves = moves - moves_before
    metrics = await scrape_metrics(server.port)
    stop.set()
    for waker in wakers:
        waker.set()
    await asyncio.gather(*hosts)
    await asyncio.gather(*(peer.close(gate) for peer in probes))
    return LagResult(idle, busy, bot_rooms, bot_moves, games, seconds, shares, metrics)


async def scrape_metrics(port: int) -> dict[str, float]:
    """The server's /metrics as sample name (with labels) to value."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    if length is None:
        raise RuntimeError(f"/metrics answered without a length: {head!r}")
    body = await reader.readexactly(int(length.group(1)))
    writer.close()
    samples = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


# Reporting.


def percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of sorted values."""
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


def row(label: str, values: Sequence[float], rate: str = "", extra: str = "") -> str:
    figures = "".join(ms(percentile(values, q)) for q in (0.5, 0.9, 0.99))
    top = ms(values[-1] if values else math.nan)
    return f"{label:<34}{len(values):>7}{figures}{top}{rate:>9}  {extra}"


def cpu_model() -> str:
    """The processor's name where the system tells it."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def websockets_version() -> str:
    return str(getattr(websockets, "__version__", "?"))


def raise_open_files(wanted: int) -> int:
    """Raise this process's (and its children's) open-files limit towards `wanted`."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def print_conditions(args: argparse.Namespace) -> None:
    clients = (
        "every client in this benchmark process"
        if args.client_procs == 1
        else f"play clients in {args.client_procs} processes, the others in this one"
    )
    print(
        f"python {platform.python_version()}, websockets {websockets_version()},"
        f" msgpack {'.'.join(map(str, msgpack.version))}, {os.cpu_count()} cpus ({cpu_model()})"
    )
    print(f"codec {CODECS[args.codec]}; clients offer compression: {args.compression}")
    print(
        "every server in a process of its own (parlour: `parlour serve`, 2 bot workers);"
        f" {clients}, one asyncio loop each"
    )
    if "play" in args.only:
        print(
            f"play: {args.rooms} {GAME} rooms x 3 clients ({3 * args.rooms} connections),"
            " every room at once; round trip: `move` sent until all three clients of the room"
            " have its `update`"
        )
        print(
            "  closed loop: each move sent as soon as its client sees its turn, saturating the"
            f" server (round trip = rooms / throughput), {args.moves} moves a room"
        )
        if args.think > 0:
            print(
                f"  paced: each move sent {args.think * 0.5:g} to {args.think * 1.5:g} s (uniform)"
                f" after its client sees its turn, {args.paced_moves} moves a room"
            )
    print(flush=True)


@dataclass
class Comparison:
    label: str
    ours: PlayResult
    bare: PlayResult
    note: str = ""

    @property
    def ratios(self) -> tuple[float, float]:
        """Parlour's round trip over the bare server's, at p50 and p99."""
        ours, bare = self.ours.round_trips, self.bare.round_trips
        return (
            percentile(ours, 0.5) / percentile(bare, 0.5),
            percentile(ours, 0.99) / percentile(bare, 0.99),
        )


def print_play(comparisons: list[Comparison]) -> None:
    heads = "".join(f"{head:>8}" for head in ("p50 ms", "p90 ms", "p99 ms", "max ms"))
    print(f"{'move round trip':<34}{'moves':>7}{heads}{'moves/s':>9}  cpu, share of a core")
    for comparison in comparisons:
        print(comparison.label + comparison.note)
        for name, result in (
            ("  parlour", comparison.ours),
            ("  bare websockets", comparison.bare),
        ):
            extra = (
                f"server {result.server_cpu:.2f}, clients {result.client_cpu:.2f},"
                f" other {result.other_cpu:.2f}"
            )
            print(row(name, result.round_trips, f"{result.rate:,.0f}", extra))
        ratio50, ratio99 = comparison.ratios
        throughput = comparison.ours.rate / comparison.bare.rate
        print(
            f"{'  parlour / bare':<34}{'':>7}{ratio50:>8.2f}{'':>8}{ratio99:>8.2f}{'':>8}"
            f"{throughput:>9.2f}"
        )
    for comparison in comparisons:
        for name, result in (("parlour", comparison.ours), ("bare", comparison.bare)):
            warn_if_busy(f"{comparison.label}, {name}", result.other_cpu)
    last = comparisons[-1]
    print(
        f"update frame, mean bytes received: parlour {last.ours.update_bytes:.0f},"
        f" bare {last.bare.update_bytes:.0f}"
    )
    for comparison in comparisons:
        for name, result in (("parlour", comparison.ours), ("bare", comparison.bare)):
            if result.errors:
                print(f"{comparison.label.strip()} {name}: errors {dict(result.errors)}")
    print(flush=True)


async def measure_play(args: argparse.Namespace, data_dir: str) -> list[Comparison]:
    """The closed loop, then (with `--think`) the paced run, each on Parlour and bare."""
    runs = [(CLOSED_LOOP, "closed-loop", 0.0, args.moves)]
    if args.think > 0:
        runs.append(("paced", "paced", args.think, args.paced_moves))
    comparisons: list[Comparison] = []
    for label, name, think, moves in runs:
        job = Job(
            uri="",
            codec=args.codec,
            first=0,
            rooms=args.rooms,
            moves=moves,
            think=think,
            compression=compression_of(args.compression),
        )
        profile = f"{args.profile_server}.{name}" if args.profile_server else None
        with parlour_server(data_dir, profile=profile) as server:
            ours = await play(server, dataclasses.replace(job, uri=server.uri), args.client_procs)
        with bare_server_process(args.codec) as server:
            bare = await play(server, dataclasses.replace(job, uri=server.uri), args.client_procs)
        note = ""
        if comparisons:
            offered = args.rooms / think
            note = (
                f": offered about {offered:,.0f} moves/s, {offered / comparisons[0].ours.rate:.2f}"
                " of parlour's closed-loop rate"
            )
        comparisons.append(Comparison(label, ours, bare, note))
    return comparisons


async def measure_memory(args: argparse.Namespace, data_dir: str) -> dict[str, MemoryResult]:
    codec = codec_for(CODECS[args.codec])
    compression = compression_of(args.compression)
    found = {}
    with parlour_server(data_dir) as server:
        found["parlour"] = await idle_memory(server, codec, args.idle, compression)
    with bare_server_process(args.codec) as server:
        found["bare websockets"] = await idle_memory(server, codec, args.idle, compression)
    print(
        f"memory per idle connection ({args.idle} connections that said hello, offering"
        f" compression {args.compression}; VmRSS):"
    )
    for name, memory in found.items():
        print(
            f"  {name:<40}{memory.per_connection / KIB:7.1f} KiB"
            f"   ({memory.before / MIB:.1f} -> {memory.after / MIB:.1f} MiB)"
        )
    print(flush=True)
    return found


async def measure_lag(args: argparse.Namespace, data_dir: str) -> LagResult:
    profile = f"{args.profile_server}.lag" if args.profile_server else None
    with parlour_server_with_bots(data_dir, args.bots, args.bot_pause, profile) as server:
        lag = await bot_lag(
            server,
            codec_for(CODECS[args.codec]),
            bot_rooms=args.bot_rooms,
            idle_seconds=args.probe_seconds,
            busy_seconds=args.bot_seconds,
            compression=compression_of(args.compression),
        )
    print(
        "loop lag proxy: `get_room` reply latency seen by a client (a loopback round trip"
        f" included), one probe every {PROBE_EVERY * 1000:g} ms over {PROBE_CONNECTIONS}"
        " connections"
    )
    heads = "".join(f"{head:>8}" for head in ("p50 ms", "p90 ms", "p99 ms", "max ms"))
    kind = (
        "each thinks on the CPU for its whole budget (1 s), as the strong levels will"
        if args.bots == "thinking"
        else "the game's weakest level, which answers at once"
    )
    pace = (
        "bots move as soon as they have chosen"
        if args.bot_pause == 0
        else f"a bot's turn takes at least {args.bot_pause:g} s"
    )
    print(f"  bots in the server's 2 worker processes: {kind}")
    print(f"  --bot-pause {args.bot_pause:g}: {pace}")
    print(f"{'':<34}{'probes':>7}{heads}")
    print(row("  idle server", lag.idle))
    print(row(f"  {lag.bot_rooms} rooms of {args.bots} bots playing", lag.busy))
    fallbacks = {k: v for k, v in lag.metrics.items() if k.startswith("parlour_bot_fallbacks")}
    count = lag.metrics.get("parlour_bot_think_seconds_count", 0.0)
    total = lag.metrics.get("parlour_bot_think_seconds_sum", 0.0)
    print(
        f"  while probed: {lag.bot_moves / lag.seconds:,.0f} bot moves/s; cpu, share of a core:"
        f" server {lag.cpu.server:.2f}, bot workers {lag.cpu.workers:.2f},"
        f" clients {lag.cpu.own:.2f}, other processes"
        f" {max(0.0, lag.cpu.machine - lag.cpu.server - lag.cpu.workers - lag.cpu.own):.2f}"
    )
    print(
        f"  bot think, asked to answered (server's metric, whole run): {count:.0f} moves,"
        f" mean {total / max(1.0, count) * 1000:.1f} ms; fallbacks: {fallbacks or 'none'};"
        f" {lag.games} games finished"
    )
    warn_if_busy("the bots' run", lag.cpu.machine - lag.cpu.server - lag.cpu.workers - lag.cpu.own)
    print(flush=True)
    return lag


def print_targets(
    args: argparse.Namespace,
    comparisons: list[Comparison],
    memory: dict[str, MemoryResult],
    lag: LagResult | None,
) -> None:
    print("targets:")
    rooms_note = "" if args.rooms >= 300 else "  (the target is for 300 rooms)"
    for comparison in comparisons:
        if comparison.label == CLOSED_LOOP:
            ours, bare = comparison.ours.rate, comparison.bare.rate
            print(
                f"  info  closed loop, capacity: parlour {ours:,.0f} moves/s, bare {bare:,.0f}"
                f" (x{ours / bare:.2f}); its round trip is queueing, judged by no target"
            )
            continue
        p99 = percentile(comparison.ours.round_trips, 0.99)
        print(
            f"  {verdict(p99 < 0.050)}  {args.rooms} rooms, {comparison.label}: round trip p99"
            f" {p99 * 1000:.1f} ms < 50 ms{rooms_note}"
        )
        ratio50, ratio99 = comparison.ratios
        print(
            f"  {verdict(ratio50 <= 2 and ratio99 <= 2)}  {comparison.label}: round trip over"
            f" the bare server's, p50 x{ratio50:.2f} and p99 x{ratio99:.2f} <= x2"
        )
    if "parlour" in memory:
        per = memory["parlour"].per_connection
        print(
            f"  {verdict(per < 30 * KIB)}  memory per idle connection {per / KIB:.1f} KiB < 30 KiB"
        )
    if lag is not None:
        lag99 = percentile(lag.busy, 0.99)
        note = "" if args.bot_rooms >= 50 else "  (the target is for 50 rooms)"
        print(
            f"  {verdict(lag99 < 0.020)}  loop lag proxy p99 with {lag.bot_rooms} rooms of bots"
            f" {lag99 * 1000:.1f} ms < 20 ms{note}"
        )


BUSY_MACHINE: Final = 0.25
"""A share of a core used by other processes that makes a run's figures suspect."""


def warn_if_busy(run: str, other: float) -> None:
    if other > BUSY_MACHINE:
        print(f"warning: other processes used {other:.2f} of a core during {run}")


def compression_of(offer: str) -> Compression:
    return None if offer == "none" else "deflate"


async def run(args: argparse.Namespace) -> None:
    print_conditions(args)
    with tempfile.TemporaryDirectory(prefix="bench-parlour-") as data_dir:
        await measure_all(args, data_dir)


async def measure_all(args: argparse.Namespace, data_dir: str) -> None:
    comparisons = await measure_play(args, data_dir) if "play" in args.only else []
    if comparisons:
        print_play(comparisons)
    memory = await measure_memory(args, data_dir) if "memory" in args.only else {}
    lag = await measure_lag(args, data_dir) if "lag" in args.only else None
    print_targets(args, comparisons, memory, lag)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rooms", type=int, default=300, help="rooms playing at once")
    parser.add_argument("--moves", type=int, default=30, help="moves a room (or to game over)")
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="mean seconds before each move in the paced run (0: closed loop only)",
    )
    parser.add_argument("--paced-moves", type=int, default=15, help="moves a room, paced")
    parser.add_argument("--codec", choices=sorted(CODECS), default="msgpack")
    parser.add_argument(
        "--compression",
        choices=["deflate", "none"],
        default="deflate",
        help="what the clients offer (browsers and websockets offer permessage-deflate)",
    )
    parser.add_argument("--idle", type=int, default=1000, help="idle connections for memory")
    parser.add_argument("--bot-rooms", type=int, default=50, help="rooms of bots for loop lag")
    parser.add_argument(
        "--bots",
        choices=sorted(BOTS),
        default="thinking",
        help="the bots of the loop lag run: 'thinking' ones use their whole time budget",
    )
    parser.add_argument(
        "--bot-pause",
        type=float,
        default=0.4,
        help="the server's --bot-pause for the loop lag run (0.4, as `parlour serve`)",
    )
    parser.add_argument("--bot-seconds", type=float, default=10.0, help="probing while bots play")
    parser.add_argument("--probe-seconds", type=float, default=3.0, help="probing an idle server")
    parser.add_argument(
        "--client-procs",
        type=int,
        default=2,
        help="client processes for the play runs (one loop cannot keep up with the bare server)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=["play", "memory", "lag"],
        default=["play", "memory", "lag"],
        help="run only these measurements",
    )
    parser.add_argument(
        "--profile-server",
        metavar="FILE",
        help="run the Parlour servers of the play and lag runs under cProfile, their stats to"
        " FILE.closed-loop, FILE.paced and FILE.lag (the figures are then the profiler's)",
    )
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--serve-bare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-parlour", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_parlour:
        serve_parlour(args.bots, args.bot_pause, args.data_dir)
        return
    if args.serve_bare:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(bare_server(codec_for(CODECS[args.codec])))
        return
    if args.quick:
        args.rooms, args.moves, args.idle = min(args.rooms, 30), min(args.moves, 15), 200
        args.think, args.paced_moves = min(args.think, 0.2), min(args.paced_moves, 15)
        args.bot_rooms, args.bot_seconds, args.probe_seconds = 10, 2.0, 0.5
    raise_open_files(4 * (3 * args.rooms + args.idle) + 256)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
