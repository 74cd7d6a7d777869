"""Cluster speed: nodes sharing rooms through Redis, against one node and the single server.

Run: `python benchmarks/cluster.py` (after `pip install -e .`, with Debian's redis-server);
`--quick` for a smoke run.

Redis runs as docker-compose.yml runs it: append-only file on, every write synced before it
answers. Nodes are `parlour serve --redis` processes on free loopback ports; the clients
are benchmarks/server.py's (Tribolo rooms of three clients, msgpack, in `--client-procs`
processes), so the figures compare with its own.

- Capacity: the closed loop (each move sent as soon as its client sees its turn) on the
  single server (SQLite), on one node alone, and on two nodes with the clients spread
  over both: room n's clients on node n mod 2 (each room's players on the node that made
  it, so on its owner: the nodes share only Redis), then room n's seat s on node
  (n + s) mod 2 ("rooms across": every room has players on both nodes, so its requests
  and updates cross Redis too). Goal: two nodes at least 1.6 times one node's moves a
  second.
- Round trip when people take turns: the paced run (each move 0.5 to 1.5 times `--think`
  seconds after the player's turn begins), on the single server and on two nodes with
  every room's players on both ("rooms across"). Goal: p99 at most 3 ms more than the
  single server's.
- Failover: `--rooms-failing` Othello rooms on three nodes, each made on one node (which
  owns it) by a player there, its other player on another node. The owner is killed with
  SIGKILL; each dropped player connects again to a live node at once, takes the seat back
  with its token and moves. The time from the kill until that move is accepted, per room,
  over `--kills` kills (a new node replacing each one killed). Goal: p99 under 8 s, with
  the nodes' `--lease` (default 3 s, as `parlour serve`).

On a 2-core machine the nodes, Redis and the client processes share two cores, so two
nodes show the cost of going through Redis more than the gain of more cores.
"""

import argparse
import asyncio
import contextlib
import dataclasses
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import redis

from parlour.protocol import MSGPACK, codec_for
from server import (
    CLOSED_LOOP,
    Job,
    Peer,
    PlayResult,
    ServerProcess,
    cpu_model,
    ms,
    parlour_server,
    percentile,
    play,
    raise_open_files,
    row,
    verdict,
)

REDIS_SERVER: Final = shutil.which("redis-server") or "/usr/bin/redis-server"
CAPACITY_GOAL: Final = 1.6
ROUND_TRIP_GOAL: Final = 0.003
FAILOVER_GOAL: Final = 8.0
RETRY: Final = 0.05


@dataclass
class RedisServer:
    """redis-server on a free loopback port, its files in a temporary folder."""

    process: subprocess.Popen[bytes]
    port: int
    folder: tempfile.TemporaryDirectory[str]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        return self.process.pid


@contextlib.contextmanager
def redis_server() -> Iterator[RedisServer]:
    folder = tempfile.TemporaryDirectory(prefix="bench-redis-")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", folder.name]
    argv += ["--appendonly", "yes", "--appendfsync", "always", "--save", ""]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    try:
        for _ in range(200):
            with contextlib.suppress(redis.ConnectionError):
                if client.ping():
                    break
            time.sleep(0.05)
        yield RedisServer(process, port, folder)
    finally:
        client.close()
        process.terminate()
        process.wait()
        folder.cleanup()


def node(redis_url: str, lease: float | None = None) -> ServerProcess:
    """`parlour serve --redis` on a free loopback port."""
    argv = [sys.executable, "-m", "parlour", "serve", "--host", "127.0.0.1", "--port", "0"]
    argv += ["--redis", redis_url]
    if lease is not None:
        argv += ["--lease", str(lease)]
    return ServerProcess(argv, "node")


@contextlib.contextmanager
def nodes(redis_url: str, count: int) -> Iterator[list[ServerProcess]]:
    started = [node(redis_url) for _ in range(count)]
    try:
        yield started
    finally:
        for each in started:
            each.stop()


def job(args: argparse.Namespace, think: float, moves: int) -> Job:
    return Job(
        uri="",
        codec="msgpack",
        first=0,
        rooms=args.rooms,
        moves=moves,
        think=think,
        compression=None,
    )


@dataclass
class Run:
    label: str
    result: PlayResult


def print_runs(title: str, runs: list[Run]) -> None:
    print(f"\n{title}")
    for run in runs:
        result = run.result
        rate = f"  {result.rate:,.0f} moves/s"
        per_move = result.server_cpu / result.rate * 1000
        cpu = (
            f"servers {result.server_cpu:.2f} cores ({per_move:.2f} ms CPU a move),"
            f" clients {result.client_cpu:.2f}"
        )
        errors = f", errors {dict(result.errors)}" if result.errors else ""
        print(row(run.label, result.round_trips, rate, f"{cpu}{errors}"))


async def on_single_server(args: argparse.Namespace, played: Job) -> Run:
    with (
        tempfile.TemporaryDirectory(prefix="bench-parlour-") as data_dir,
        parlour_server(data_dir) as single,
    ):
        ours = dataclasses.replace(played, uri=single.uri)
        return Run("single server", await play(single, ours, args.client_procs))


async def on_nodes(
    args: argparse.Namespace, played: Job, count: int, label: str, *, across: bool = False
) -> Run:
    """The job on `count` nodes of a new Redis, its clients spread over them."""
    with redis_server() as store, nodes(store.url, count) as started:
        uris = tuple(each.uri for each in started)
        spread = dataclasses.replace(played, spread=uris, across=across)
        also = [each.pid for each in started[1:]] + [store.pid]
        return Run(label, await play(started[0], spread, args.client_procs, also))


async def measure_capacity(args: argparse.Namespace) -> list[Run]:
    closed = job(args, 0.0, args.moves)
    return [
        await on_single_server(args, closed),
        await on_nodes(args, closed, 1, "one node"),
        await on_nodes(args, closed, 2, "two nodes"),
        await on_nodes(args, closed, 2, "two, rooms across", across=True),
    ]


async def measure_paced(args: argparse.Namespace) -> list[Run]:
    paced = job(args, args.think, args.paced_moves)
    return [
        await on_single_server(args, paced),
        await on_nodes(args, paced, 2, "two, rooms across", across=True),
    ]


# Failover.


@dataclass
class FailingRoom:
    room: str
    token: str
    """The token of the player on the node that will be killed."""
    peers: list[Peer]


async def failing_room(owner: ServerProcess, other: ServerProcess, index: int) -> FailingRoom:
    """An Othello room made on `owner` by black, white joining through `other`; two moves
    played, so that it is black's turn."""
    codec = codec_for(MSGPACK)
    gate = asyncio.Semaphore(8)
    black = await Peer.open(owner.uri, codec, f"black{index}", None, gate)
    white = await Peer.open(other.uri, codec, f"white{index}", None, gate)
    joined = await black.request({"type": "create_room", "game": "othello", "seat": "black"})
    room = joined["room"]["room"]
    await white.request({"type": "join", "room": room, "seat": "white"})
    await black.request({"type": "start", "room": room})
    for peer in (black, white):
        view = await peer.request({"type": "get_room", "room": room})
        state = view["room"]["state"]
        move = {"type": "move", "room": room, "version": view["room"]["version"]}
        await peer.request(move | {"move": state["legal_moves"][0]})
    return FailingRoom(room, joined["token"], [black, white])


async def back_and_moving(room: FailingRoom, live: list[ServerProcess], killed: float) -> float:
    """Seconds from the kill until the dropped player is back in the seat and has moved."""
    codec = codec_for(MSGPACK)
    gate = asyncio.Semaphore(1)
    while True:
        try:
            peer = await Peer.open(random.choice(live).uri, codec, "back", None, gate)
            await peer.request({"type": "join", "room": room.room, "token": room.token})
            view = await peer.request({"type": "get_room", "room": room.room})
            state = view["room"]["state"]
            move = {"type": "move", "room": room.room, "version": view["room"]["version"]}
            await peer.request(move | {"move": state["legal_moves"][0]})
        except (OSError, RuntimeError, TimeoutError) as error:
            if "unavailable" not in str(error) and not isinstance(error, OSError | TimeoutError):
                raise
            await asyncio.sleep(RETRY)
            continue
        room.peers.append(peer)
        return time.monotonic() - killed


async def measure_failover(args: argparse.Namespace) -> list[float]:
    times: list[float] = []
    with redis_server() as store:
        running_nodes = [node(store.url, args.lease) for _ in range(3)]
        try:
            for kill in range(args.kills):
                owner, *live = running_nodes
                rooms = await asyncio.gather(
                    *(failing_room(owner, live[i % 2], i) for i in range(args.rooms_failing))
                )
                killed = time.monotonic()
                owner.process.send_signal(signal.SIGKILL)
                owner.process.wait()
                owner.stop()
                taken = await asyncio.gather(*(back_and_moving(r, live, killed) for r in rooms))
                times += taken
                print(f"  kill {kill + 1}: every room moving again after {max(taken):.2f} s")
                for room in rooms:
                    for peer in room.peers:
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(peer.websocket.close(), 2)
                running_nodes = [*live, node(store.url, args.lease)]
        finally:
            for each in running_nodes:
                each.stop()
    return sorted(times)


def print_conditions(args: argparse.Namespace) -> None:
    version = subprocess.run(
        [REDIS_SERVER, "--version"], capture_output=True, text=True, check=False
    ).stdout.split()
    print("Conditions")
    print(f"  machine: {cpu_model()}, {len(__import__('os').sched_getaffinity(0))} cores")
    print(f"  python {sys.version.split()[0]}, {' '.join(version[:3])}, appendfsync always")
    print(f"  {args.rooms} Tribolo rooms of three clients in {args.client_procs} processes;")
    print(f"  closed loop {args.moves} moves a room; paced {args.paced_moves} moves, think")
    print(f"  {args.think} s; failover: {args.kills} kills of {args.rooms_failing} rooms'")
    print(f"  owner, lease {args.lease} s")


def judge(capacity: list[Run], paced: list[Run], failover: list[float], lease: float) -> None:
    print("\nTargets")
    if capacity:
        single, one = capacity[0].result.rate, capacity[1].result.rate
        for run in capacity[2:]:
            two = run.result.rate
            ratio = two / one
            print(
                f"  {run.label}: {ratio:.2f}x one node's moves/s ({two:,.0f} / {one:,.0f};"
                f" {two / single:.2f}x the single server's) (goal >= {CAPACITY_GOAL}x):"
                f" {verdict(ratio >= CAPACITY_GOAL)}"
            )
    if paced:
        single = percentile(paced[0].result.round_trips, 0.99)
        cluster = percentile(paced[1].result.round_trips, 0.99)
        extra = cluster - single
        print(
            f"  paced p99 with players on two nodes {ms(cluster)} against {ms(single)}:"
            f" {ms(extra)} more (goal <= {ms(ROUND_TRIP_GOAL)}):"
            f" {verdict(extra <= ROUND_TRIP_GOAL)}"
        )
    if failover:
        p50, p99 = percentile(failover, 0.5), percentile(failover, 0.99)
        print(
            f"  failover (lease {lease} s) p50 {p50:.2f} s, p99 {p99:.2f} s, longest"
            f" {failover[-1]:.2f} s over {len(failover)} rooms (goal p99 < {FAILOVER_GOAL} s):"
            f" {verdict(p99 < FAILOVER_GOAL)}"
        )


async def run(args: argparse.Namespace) -> None:
    print_conditions(args)
    capacity = await measure_capacity(args) if "capacity" in args.only else []
    if capacity:
        print_runs(f"Capacity ({CLOSED_LOOP})", capacity)
    paced = await measure_paced(args) if "paced" in args.only else []
    if paced:
        print_runs("Round trip, paced", paced)
    failover = []
    if "failover" in args.only:
        print("\nFailover")
        failover = await measure_failover(args)
    judge(capacity, paced, failover, args.lease)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rooms", type=int, default=150, help="rooms playing at once")
    parser.add_argument("--moves", type=int, default=30, help="moves a room, closed loop")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds a move, paced")
    parser.add_argument("--paced-moves", type=int, default=15, help="moves a room, paced")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    parser.add_argument("--kills", type=int, default=10, help="owners killed, one by one")
    parser.add_argument("--rooms-failing", type=int, default=10, help="rooms on each owner")
    parser.add_argument("--lease", type=float, default=3.0, help="the nodes' --lease")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=["capacity", "paced", "failover"],
        default=["capacity", "paced", "failover"],
    )
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.rooms, args.moves, args.paced_moves = 20, 10, 6
        args.think, args.kills, args.rooms_failing = 0.2, 2, 3
    raise_open_files(4 * 3 * args.rooms + 256)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
