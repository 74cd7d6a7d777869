"""Rooms where a person waits are served first: a hundred Othello rooms of bots at level
hard on one server with two bot workers, ten of them with a person playing black.

Run: `python benchmarks/people_first.py` (after `pip install -e .`); `--seconds S` for a
longer run. For every bot move, the time from the update that began its turn to the update
with its move, as each room's client sees it; and the positions each bot turn looked at,
from its thoughts, in rooms with a person and in ten rooms without. Goals: no bot move
later than think time + pause + 0.8 s, and searches where a person waits looking at 1.5
times the positions of the others (server/turns.py gives them three shares of the
workers' time to one).
"""

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from parlour.client.connection import Connection
from parlour.protocol import messages as m
from parlour.rules import GAMES
from parlour.server import ServerConfig, running_server
from parlour.server.services import Limits
from server import cpu_model, ms, percentile, verdict

ROOMS: Final = 100
WITH_PEOPLE: Final = 10
WATCHED_WITHOUT: Final = 10
THINK_MS: Final = 1000
PAUSE: Final = 0.4
MARGIN: Final = 0.8
WEIGHT_GOAL: Final = 1.5


@dataclass
class RoomLog:
    """What one room's client saw: how long each bot turn took, and how deep it looked."""

    person: bool
    turns: list[float] = field(default_factory=list)
    nodes: dict[int, int] = field(default_factory=dict)


async def play_room(url: str, number: int, person: bool, watch: bool, until: float) -> RoomLog:
    """Host an Othello room (a person as black, or bots only); play or watch until `until`."""
    log = RoomLog(person)
    client = await Connection.open(url, f"Player {number}")
    try:
        create = m.CreateRoom(
            game="othello", public=False, seat="black" if person else None, bot_think_ms=THINK_MS
        )
        joined = await client.request(create)
        assert isinstance(joined, m.Joined), joined
        room = str(joined.room["room"])
        await client.request(m.FillBots(room=room, level="hard"))
        if watch:
            await client.request(m.ShowThinking(room=room, on=True))
        state = GAMES["othello"].new()
        await client.request(m.Start(room=room))
        turn_began, version = time.monotonic(), 0
        while time.monotonic() < until and not state.is_over:
            if person and state.to_move == 0:
                move = state.format_move(state.legal_moves()[0])
                await client.request(m.Move(room=room, version=version, move=move))
            try:
                async with asyncio.timeout(until - time.monotonic()):
                    event = await client.events.get()
            except TimeoutError:
                break
            if isinstance(event, m.Thinking):
                nodes = int(event.search["nodes"])
                log.nodes[event.version] = max(nodes, log.nodes.get(event.version, 0))
            elif isinstance(event, m.Update):
                arrived = time.monotonic()
                if event.seat == "white" or not person:
                    log.turns.append(arrived - turn_began)
                turn_began, version = arrived, event.version
                state = state.play_text(event.move)
    finally:
        await client.close()
    return log


async def run(seconds: float) -> bool:
    config = ServerConfig(
        bot_workers=2, bot_pause=PAUSE, tick_interval=0.05, limits=Limits(max_hosted=ROOMS)
    )
    async with running_server(config) as server:
        url = f"ws://127.0.0.1:{server.port}/ws"
        until = time.monotonic() + seconds
        logs = await asyncio.gather(
            *(
                play_room(
                    url,
                    number,
                    person=number < WITH_PEOPLE,
                    watch=number < WITH_PEOPLE + WATCHED_WITHOUT,
                    until=until,
                )
                for number in range(ROOMS)
            )
        )
        shortened = server.metrics.registry.get_sample_value(
            "parlour_bot_searches_shortened_total"
        )
    due = THINK_MS / 1000 + PAUSE
    turns = sorted(seconds for log in logs for seconds in log.turns)
    late = [seconds for seconds in turns if seconds > due + MARGIN]
    people = statistics.median(n for log in logs[:WITH_PEOPLE] for n in log.nodes.values())
    others = statistics.median(n for log in logs[WITH_PEOPLE:] for n in log.nodes.values())
    on_time, weighted = not late, people >= WEIGHT_GOAL * others
    print(f"machine: {cpu_model()}, Python {sys.version.split()[0]}")
    print(f"{ROOMS} Othello rooms, level hard, 2 bot workers, {seconds:.0f} s of play")
    print(f"bot moves: {len(turns)}; searches shortened by load: {shortened:.0f}")
    print(f"turn time p50 {ms(percentile(turns, 0.5))} ms, p99 {ms(percentile(turns, 0.99))} ms")
    print(f"late (past {due + MARGIN:.1f} s): {len(late)}  {verdict(on_time)}")
    print(
        f"positions per turn: {people:.0f} where a person waits, {others:.0f} elsewhere,"
        f" {people / max(others, 1):.2f}x (goal {WEIGHT_GOAL}x)  {verdict(weighted)}"
    )
    return on_time and weighted


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="play time (8)")
    sys.exit(0 if asyncio.run(run(parser.parse_args(argv).seconds)) else 1)


if __name__ == "__main__":
    main()
