"""Clocks at scale: thousands of live clocks running on one server, flagged on time, at
little cost while they run; and a client's drawing of a clock that never drifts.

Run: `python benchmarks/clocks.py` (after `pip install -e .`); `--quick` for a smoke run
(500 clocks, a one-minute game), `--clocks N` and `--game-minutes M` to choose.

The server runs in a process of its own, from this file (`--serve`): `parlour serve`'s
defaults, with the room limits raised to hold the clocks. Clients in this process:

- Idle CPU: the server's CPU over 10 s with nobody in it, then over 10 s while `--clocks`
  rooms each run a live clock and nothing else happens. Each room is an Othello game a
  person plays both seats of at one screen (no bots), started at once; its first seat never
  moves, so its clock runs till it flags. The difference, divided by the clocks, is what an
  idle running clock costs.
- Flags: the clocks are 30 s to 89 s long, spread evenly, so about a sixtieth of them run
  out each second. A flag's delay is from its deadline (the clock's start, its time and
  the 1 s grace, by the server's clock) to the server's clock reading on the room view that
  tells of it (`clock.at`): how late the server notices. Goal: p99 under 50 ms.
- Drift: meanwhile two clients play a live game lasting about `--game-minutes` (each seat
  has that many minutes, no increment, and moves after a tenth to twice its share of half
  the game's time, at random). Each
  client draws the running clock as protocol.md 2.12 says: the time in the last message,
  less the time since it came. When the next update comes, the server's charge for the
  move is compared with what the client's drawing had taken off by then. Goal: the largest
  difference under 50 ms.
"""

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from parlour.protocol import MSGPACK, codec_for
from parlour.rules import GAMES
from parlour.server.app import ServerConfig
from parlour.server.serve import serve as serve_until_stopped
from parlour.server.services import Limits
from server import (
    Message,
    Peer,
    ServerProcess,
    cpu_model,
    cpu_seconds,
    percentile,
    python_argv,
    running,
    verdict,
)

CONNECTIONS: Final = 100
"""Connections that make the rooms: the server's rate limit is per connection."""
FIRST_BASE_S: Final = 30
SPREAD_S: Final = 60
IDLE_SECONDS: Final = 10.0
FLAG_GOAL_MS: Final = 50.0
DRIFT_GOAL_MS: Final = 50.0
MOVES_A_SIDE: Final = 30
"""About an Othello game's moves for each seat."""


def serve(data_dir: str, clocks: int) -> None:
    """Serve as `parlour serve` does, with room for `clocks` rooms, until SIGTERM."""
    limits = Limits(max_rooms=clocks + 100, max_hosted=clocks)
    config = ServerConfig(data_dir=Path(data_dir), limits=limits, bot_workers=1)
    asyncio.run(serve_until_stopped(config))


@contextlib.contextmanager
def clock_server(data_dir: str, clocks: int) -> Iterator[ServerProcess]:
    argv = [*python_argv(None), __file__, "--serve", "--data-dir", data_dir]
    argv += ["--clocks", str(clocks)]
    with running(ServerProcess(argv, "parlour")) as server:
        yield server


@dataclass
class Flags:
    """Each clock's deadline, and how late its flag came."""

    deadlines: dict[str, int] = field(default_factory=dict)
    """Room id to its deadline, in the server's milliseconds."""
    late_ms: list[float] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    async def heard(self, _peer: Peer, message: Message, _at: float) -> None:
        room = message.get("room")
        if message.get("type") != "room" or not isinstance(room, dict):
            return
        deadline = self.deadlines.pop(room["room"], None)
        if deadline is not None and room["flagged"]:
            self.late_ms.append(room["clock"]["at"] - deadline)
            if not self.deadlines:
                self.done.set()


def live_room(base_s: int) -> Message:
    """`create_room` for a private Othello room, black taken, with a live clock of `base_s`
    seconds a seat and no increment."""
    control = {"kind": "live", "base_s": base_s, "increment_s": 0}
    return {
        "type": "create_room",
        "game": "othello",
        "board": 1,
        "seat": "black",
        "public": False,
        "time_control": control,
    }


async def make_rooms(uri: str, clocks: int, flags: Flags) -> list[Peer]:
    """`clocks` started rooms, each with a live clock running for its first seat."""
    codec = codec_for(MSGPACK)
    gate = asyncio.Semaphore(50)
    peers = await asyncio.gather(
        *(Peer.open(uri, codec, f"Host {n}", None, gate) for n in range(CONNECTIONS))
    )
    for peer in peers:
        peer.on_push = flags.heard

    async def host(peer: Peer, numbers: range) -> None:
        for number in numbers:
            made = await peer.request(live_room(FIRST_BASE_S + number * SPREAD_S // clocks))
            room = made["room"]["room"]
            await peer.request({"type": "join", "room": room, "seat": "white", "name": "Other"})
            await peer.request({"type": "start", "room": room})
            shown = await peer.request({"type": "get_room", "room": room})
            clock = shown["room"]["clock"]
            flags.deadlines[room] = clock["at"] + clock["left_ms"]["black"] + 1000

    share = -(-clocks // CONNECTIONS)
    await asyncio.gather(
        *(
            host(peer, range(n * share, min(clocks, (n + 1) * share)))
            for n, peer in enumerate(peers)
        )
    )
    return peers


@dataclass
class Drawing:
    """A client's drawing of the running clock, and how far it was from the server's."""

    left_ms: float = 0.0
    running: str | None = None
    since: float = 0.0
    """When the last clock came, by this client's clock (seconds)."""
    drift_ms: list[float] = field(default_factory=list)

    def shown(self, now: float) -> float:
        return self.left_ms - (now - self.since) * 1000

    def corrected(self, clock: dict[str, Any], mover: str | None, at: float) -> None:
        """A message with the clock came at `at`: compare, then draw from it."""
        if mover is not None and mover == self.running:
            self.drift_ms.append(self.shown(at) - clock["left_ms"][mover])
        self.running = clock["running"]
        self.left_ms = clock["left_ms"][self.running] if self.running else 0.0
        self.since = at


async def play_game(uri: str, minutes: float, seed: int) -> Drawing:
    """Two clients play a live game of `minutes`; black's client draws the clocks."""
    codec = codec_for(MSGPACK)
    gate = asyncio.Semaphore(2)
    black = await Peer.open(uri, codec, "Black", None, gate)
    white = await Peer.open(uri, codec, "White", None, gate)
    made = await black.request(live_room(round(minutes * 60)))
    room = made["room"]["room"]
    await white.request({"type": "join", "room": made["code"], "seat": "white"})
    drawing = Drawing()
    over = asyncio.Event()
    rng = random.Random(seed)
    pace = minutes * 60 / 2 / MOVES_A_SIDE
    """Seconds a move takes on average: the game lasts about `minutes`."""
    state = GAMES["othello"].new()
    colours = {"black": black, "white": white}

    async def heard(peer: Peer, message: Message, at: float) -> None:
        nonlocal state
        if peer is not black:
            return
        if message.get("type") == "room" and message["room"]["status"] == "finished":
            over.set()
        if message.get("type") != "update":
            return
        state = state.play_text(message["move"])
        drawing.corrected(message["clock"], message["seat"], at)
        if state.is_over or message["clock"]["running"] is None:
            over.set()
            return
        asyncio.get_running_loop().create_task(move_later(message["version"]))

    async def move_later(version: int) -> None:
        await asyncio.sleep(rng.uniform(0.1, 1.9) * pace)
        mover = colours[GAMES["othello"].seats[state.to_move]]
        text = state.format_move(rng.choice(state.legal_moves()))
        with contextlib.suppress(RuntimeError):  # a flag may come first
            await mover.request({"type": "move", "room": room, "version": version, "move": text})

    black.on_push = heard
    white.on_push = heard
    await black.request({"type": "start", "room": room})
    shown = await black.request({"type": "get_room", "room": room})
    drawing.corrected(shown["room"]["clock"], None, time.perf_counter())
    await move_later(0)
    await over.wait()
    return drawing


async def measure(args: argparse.Namespace, data_dir: str) -> None:
    with clock_server(data_dir, args.clocks) as server:
        await asyncio.sleep(1.0)
        before = cpu_seconds(server.pid)
        await asyncio.sleep(IDLE_SECONDS)
        idle = cpu_seconds(server.pid) - before
        flags = Flags()
        game = asyncio.create_task(play_game(server.uri, args.game_minutes, args.seed))
        made = time.perf_counter()
        peers = await make_rooms(server.uri, args.clocks, flags)
        print(f"{args.clocks} rooms made and started in {time.perf_counter() - made:.1f} s")
        first = min(flags.deadlines.values()) / 1000
        room_for = first - time.time() - 1.0
        if room_for < IDLE_SECONDS:
            sys.exit(f"the rooms took too long to make: only {room_for:.1f} s before a flag")
        before = cpu_seconds(server.pid)
        await asyncio.sleep(IDLE_SECONDS)
        running_cpu = cpu_seconds(server.pid) - before
        async with asyncio.timeout(SPREAD_S + FIRST_BASE_S + 60):
            await flags.done.wait()
        drawing = await game
        for peer in peers:
            await peer.close(asyncio.Semaphore(50))
    report(args, idle, running_cpu, flags, drawing)


def report(
    args: argparse.Namespace, idle: float, running_cpu: float, flags: Flags, drawing: Drawing
) -> None:
    per_clock_us = max(0.0, running_cpu - idle) / IDLE_SECONDS / args.clocks * 1e6
    print(f"\nidle server: {idle / IDLE_SECONDS:.4f} of a core; with {args.clocks} live clocks")
    print(f"  running: {running_cpu / IDLE_SECONDS:.4f} of a core,", end=" ")
    print(f"{per_clock_us:.2f} us of CPU a second per clock")
    late = sorted(flags.late_ms)
    print(f"\nflags: {len(late)}, late by p50 {percentile(late, 0.5):.1f} ms,", end="")
    print(f" p99 {percentile(late, 0.99):.1f} ms, max {late[-1]:.1f} ms")
    drift = sorted(abs(each) for each in drawing.drift_ms)
    print(f"\nclock drawn by a client over a {args.game_minutes:g}-minute game:", end=" ")
    print(f"{len(drift)} moves, off by mean {statistics.fmean(drift):.2f} ms,", end=" ")
    print(f"p99 {percentile(drift, 0.99):.2f} ms, max {drift[-1]:.2f} ms")
    print("\ntargets:")
    flag_p99 = percentile(late, 0.99)
    print(
        f"  {verdict(flag_p99 < FLAG_GOAL_MS)}  flag p99 {flag_p99:.1f} ms < {FLAG_GOAL_MS:g} ms"
    )
    worst = drift[-1]
    print(f"  {verdict(worst < DRIFT_GOAL_MS)}  drift max {worst:.2f} ms < {DRIFT_GOAL_MS:g} ms")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clocks", type=int, default=5000, help="live clocks running at once")
    parser.add_argument("--game-minutes", type=float, default=10.0, help="the drift game's time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="500 clocks, a one-minute game")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.data_dir, args.clocks)
        return
    if args.quick:
        args.clocks, args.game_minutes = 500, 1.0
    print(f"python {sys.version.split()[0]}, {cpu_model()}")
    print(f"{args.clocks} live clocks, a {args.game_minutes:g}-minute game drawn by a client")
    with tempfile.TemporaryDirectory(prefix="bench-clocks-") as data_dir:
        asyncio.run(measure(args, data_dir))


if __name__ == "__main__":
    main()
