"""Computer players under load: moves on time however many rooms wait, and searches
through Redis against the node's own workers.

Run: `python benchmarks/bots.py` (after `pip install -e .`, with Debian's redis-server for
the second part); `--quick` for a smoke run.

- On time: `parlour serve` defaults (2 bot workers, 0.4 s bot pause, 1 s think time),
  started from benchmarks/server.py with its thinking bots: busy on the CPU for all the
  time they are given, as the strong levels are, then the weakest level's move. 10, 50
  and 200 Tribolo rooms of such bots at level expert, one watching client each; for every
  bot move, the time from the update that began its turn to the update with its move, as
  the client sees it. Goal: p99 within think time + pause + 0.3 s at every load. The mean
  time each search was given, and the share shortened by load, come from /metrics.
- Through Redis: the same searches (Tribolo, level hard, 50 ms each, real bots) run by the
  node's own 2 worker processes, then by two `parlour worker --procs 1` processes through
  a Redis of the run's own, two searches in flight so neither waits for a worker. Bot
  moves a second, and each search's overhead: the time from asking to the answer, less
  the time the search took in its worker; and of that, the way through Redis and back (the
  node's wait less the time the worker held the job, which the worker reports). Goal: the
  way through Redis under 5 ms p99.
"""

import argparse
import asyncio
import contextlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cluster import redis_server
from redis.asyncio import Redis

from parlour import bots
from parlour.protocol import MSGPACK, codec_for
from parlour.rules import GAMES, State
from parlour.server.cluster.remote import RemoteThinkers
from parlour.server.metrics import Metrics
from parlour.server.turns import Job
from parlour.server.workers import BotWorkers, Thinkers
from server import (
    CONNECT_AT_ONCE,
    GAME,
    Message,
    Peer,
    cpu_model,
    ms,
    parlour_server_with_bots,
    percentile,
    scrape_metrics,
    verdict,
)

THINK: Final = 1.0
PAUSE: Final = 0.4
ON_TIME_MARGIN: Final = 0.3
OVERHEAD_GOAL: Final = 0.005
SEARCH_BUDGET: Final = 0.05
IN_FLIGHT: Final = (1, 2)
"""Searches at once: one leaves a core free; two keep both cores searching."""


@dataclass
class OnTime:
    rooms: int
    turns: list[float]
    given_mean: float
    shortened: float
    searches: float


async def watch_bots(uri: str, index: int, stop: asyncio.Event, warm_until: float) -> list[float]:
    """Host a room of thinking bots and time each of their turns until `stop`."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)
    host = await Peer.open(uri, codec_for(MSGPACK), f"host{index}", None, gate)
    turns: list[float] = []
    began = time.perf_counter()

    async def on_push(peer: Peer, message: Message, now: float) -> None:
        nonlocal began
        if message["type"] != "update":
            return
        if began >= warm_until:
            turns.append(now - began)
        began = now
        if message["state"]["over"]:
            await start_game()

    async def start_game() -> None:
        nonlocal began
        joined = await host.request({"type": "create_room", "game": GAME, "public": False})
        room = joined["room"]["room"]
        await host.request({"type": "fill_bots", "room": room, "level": "expert"})
        await host.request({"type": "start", "room": room})
        began = time.perf_counter()

    host.on_push = on_push
    await start_game()
    await stop.wait()
    await host.close(gate)
    return turns


async def on_time(rooms: int, seconds: float) -> OnTime:
    with (
        tempfile.TemporaryDirectory() as data_dir,
        parlour_server_with_bots(data_dir, "thinking", PAUSE) as server,
    ):
        stop = asyncio.Event()
        warm_until = time.perf_counter() + 2.0
        watchers = [
            asyncio.create_task(watch_bots(server.uri, index, stop, warm_until))
            for index in range(rooms)
        ]
        await asyncio.sleep(seconds + 2.0)
        metrics = await scrape_metrics(server.port)
        stop.set()
        turns = sorted(t for watched in await asyncio.gather(*watchers) for t in watched)
    count = metrics.get("parlour_bot_given_seconds_count", 0.0)
    given = metrics.get("parlour_bot_given_seconds_sum", 0.0) / count if count else 0.0
    shortened = metrics.get("parlour_bot_searches_shortened_total", 0.0)
    return OnTime(rooms, turns, given, shortened / count if count else 0.0, count)


@dataclass
class Throughput:
    label: str
    searches: int
    seconds: float
    overheads: list[float]
    travels: list[float]


def positions(count: int) -> list[State[Any]]:
    """Tribolo positions from random games, a few plies to many in."""
    rng = random.Random(11)
    found: list[State[Any]] = []
    while len(found) < count:
        state = GAMES[GAME].new(seed=rng.randrange(1000))
        for _ in range(rng.randrange(0, 40)):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            found.append(state)
    return found


async def searches(label: str, thinkers: Thinkers, count: int, in_flight: int) -> Throughput:
    """`count` searches with `in_flight` at a time; each one's overhead."""
    overheads: list[float] = []
    travels: list[float] = []
    queue = positions(count)

    async def one_after_another() -> None:
        while queue:
            state = queue.pop()
            key = thinkers.new_key()
            asked = time.monotonic()
            job = Job(
                key,
                state,
                "hard",
                SEARCH_BUDGET,
                asked + SEARCH_BUDGET + 0.5,
                urgent=True,
                quick=False,
                seed=1,
            )
            answer = await thinkers.think(job)
            overheads.append(time.monotonic() - asked - answer.used)
            travels.append(answer.travel)

    began = time.monotonic()
    await asyncio.gather(*(one_after_another() for _ in range(in_flight)))
    return Throughput(label, count, time.monotonic() - began, sorted(overheads), sorted(travels))


@contextlib.contextmanager
def workers_elsewhere(redis_url: str, count: int) -> Iterator[None]:
    """`count` `parlour worker --procs 1` processes, stopped on leaving."""
    argv = [sys.executable, "-m", "parlour", "worker", "--redis", redis_url, "--procs", "1"]
    started = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for _ in range(count)
    ]
    try:
        for process in started:
            assert process.stdout is not None
            process.stdout.readline()  # it takes searches from now on
        yield
    finally:
        for process in started:
            process.terminate()
            process.wait(20)


async def through_redis(count: int) -> list[Throughput]:
    local = BotWorkers(2, bots.think, 0.5, Metrics())
    await local.start()
    try:
        await searches("warm-up", local, 20, 2)
        own = [
            await searches(f"node's own 2 workers, {n} at once", local, count, n)
            for n in IN_FLIGHT
        ]
    finally:
        await local.close()
    with redis_server() as redis_process:
        redis = Redis.from_url(redis_process.url)
        remote = RemoteThinkers(redis, Metrics(), 0.5)
        await remote.start()
        try:
            with workers_elsewhere(redis_process.url, 2):
                await searches("warm-up", remote, 20, 2)
                elsewhere = [
                    await searches(f"2 parlour workers via Redis, {n} at once", remote, count, n)
                    for n in IN_FLIGHT
                ]
        finally:
            await remote.close()
            await redis.aclose()
    return [*own, *elsewhere]


def print_on_time(results: list[OnTime]) -> None:
    goal = THINK + PAUSE + ON_TIME_MARGIN
    print(f"\nOn time (think {THINK:.1f} s, pause {PAUSE:.1f} s; goal p99 <= {goal:.1f} s)")
    print(" rooms  bot moves   p50 ms   p99 ms   max ms  given mean ms  shortened  verdict")
    for result in results:
        turns = result.turns
        p99 = percentile(turns, 0.99)
        print(
            f"{result.rooms:6d} {len(turns):10d} {ms(percentile(turns, 0.5))}"
            f" {ms(p99)} {ms(turns[-1] if turns else 0.0)} {ms(result.given_mean):>14}"
            f" {result.shortened:9.0%}  {verdict(p99 <= goal)}"
        )


def print_throughput(results: list[Throughput]) -> None:
    print(
        f"\nThrough Redis (Tribolo, hard, {SEARCH_BUDGET * 1000:.0f} ms a search;"
        f" goal: the way through Redis under {OVERHEAD_GOAL * 1000:.0f} ms p99)"
    )
    print(" searched by                                 moves/s  overhead p50 ms  p99 ms")
    for result in results:
        overheads = result.overheads
        print(
            f" {result.label:43} {result.searches / result.seconds:7.1f}"
            f" {ms(percentile(overheads, 0.5)):>16} {ms(percentile(overheads, 0.99))}"
        )
    half = len(results) // 2
    for own, elsewhere in zip(results[:half], results[half:], strict=True):
        travels = elsewhere.travels
        travel = percentile(travels, 0.99)
        extra = statistics.median(elsewhere.overheads) - statistics.median(own.overheads)
        print(
            f" {elsewhere.label.rsplit(', ', 1)[1]}: the way through Redis and back"
            f" p50 {percentile(travels, 0.5) * 1000:.1f} ms, p99 {travel * 1000:.1f} ms"
            f" {verdict(travel < OVERHEAD_GOAL)}; median overhead added {extra * 1000:.1f} ms"
        )


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {cpu_model()}, Python {sys.version.split()[0]}")
    loads = (10, 50) if args.quick else (10, 50, 200)
    seconds = 5.0 if args.quick else args.seconds
    print_on_time([await on_time(rooms, seconds) for rooms in loads])
    print_throughput(await through_redis(60 if args.quick else args.searches))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--seconds", type=float, default=20.0, help="play per load (20)")
    parser.add_argument("--searches", type=int, default=400, help="searches each way (400)")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
