"""A hundred rooms of bots on one server with two workers: every room plays and no search
fails. Whether moves are on time, and how much further the searches a person waits for
look, are figures of the machine, measured by benchmarks/people_first.py and
benchmarks/bots.py, not asserted here; the order of service is checked on a clock of the
test's own in test_turns.py."""

import asyncio
import time
from dataclasses import dataclass, field

from parlour.protocol import messages as m
from parlour.rules import GAMES
from parlour.server import ServerConfig, running_server
from parlour.server.services import Limits

from .wsclient import Client

ROOMS = 100
WITH_PEOPLE = 10
WATCHED_WITHOUT = 10
"""Rooms of computers only whose thinking the test watches, to compare with people's."""
THINK_MS = 1000
PAUSE = 0.4
TURNS = 2
"""Computers' turns each room plays: all rooms' first ones wait on each other, so the load
is real from the start."""
PLAY_SECONDS = 8.0
"""The most a room plays for, however slowly its turns come."""


@dataclass
class RoomLog:
    """What one room's watcher saw: how long each bot's turn took, and how deep it looked."""

    person: bool
    turns: list[float] = field(default_factory=list)
    nodes: dict[int, int] = field(default_factory=dict)
    """Positions each bot turn looked at, by the room version it began at."""


async def play_room(port: int, number: int, person: bool, watch: bool, until: float) -> RoomLog:
    """Host an Othello room (a person as black, or bots only), play or watch its computers'
    first `TURNS` turns, or until `until`."""
    log = RoomLog(person)
    client = await Client.open(port, f"Player {number}")
    create = m.CreateRoom(
        game="othello", public=False, seat="black" if person else None, bot_think_ms=THINK_MS
    )
    joined = await client.request(create)
    assert isinstance(joined, m.Joined), joined
    room = joined.room["room"]
    fill = m.FillBots(room=room, level="hard")
    assert isinstance(await client.request(fill), m.Ok)
    if watch:
        assert isinstance(await client.request(m.ShowThinking(room=room, on=True)), m.Ok)
    state = GAMES["othello"].new()
    assert isinstance(await client.request(m.Start(room=room)), m.Ok)
    turn_began = time.monotonic()
    version = 0
    while time.monotonic() < until and not state.is_over and len(log.turns) < TURNS:
        if person and state.to_move == 0:
            move = state.format_move(state.legal_moves()[0])
            await client.send(m.Move(room=room, version=version, move=move))
        try:
            async with asyncio.timeout(until - time.monotonic()):
                message = await client.expect(
                    lambda msg: isinstance(msg, m.Update | m.Thinking | m.Error)
                )
        except TimeoutError:
            break
        assert not isinstance(message, m.Error), message
        if isinstance(message, m.Thinking):
            nodes = message.search["nodes"]
            log.nodes[message.version] = max(nodes, log.nodes.get(message.version, 0))
            continue
        assert isinstance(message, m.Update)
        arrived = time.monotonic()
        if message.seat == "white" or not person:
            log.turns.append(arrived - turn_began)
        turn_began, version = arrived, message.version
        state = state.play_text(message.move)
    await client.close()
    return log


async def test_a_hundred_rooms_of_bots_all_play_and_people_are_served_first() -> None:
    config = ServerConfig(
        bot_workers=2, bot_pause=PAUSE, tick_interval=0.05, limits=Limits(max_hosted=ROOMS)
    )
    async with running_server(config) as server:
        until = time.monotonic() + PLAY_SECONDS
        logs = await asyncio.gather(
            *(
                play_room(
                    server.port,
                    number,
                    person=number < WITH_PEOPLE,
                    watch=number < WITH_PEOPLE + WATCHED_WITHOUT,
                    until=until,
                )
                for number in range(ROOMS)
            )
        )
        metrics = server.metrics.registry
        shortened = metrics.get_sample_value("parlour_bot_searches_shortened_total")
        fallbacks = server.metrics.bot_fallbacks.labels("timeout")._value.get()
    assert all(log.turns for log in logs), "a room never saw its computers move"
    assert shortened is not None and shortened > 0  # the load was real
    assert fallbacks == 0
    # Every watched room's searches were shown; how much further a person's look depends on
    # the CPU the workers get, which benchmarks/people_first.py measures.
    assert all(log.nodes for log in logs[: WITH_PEOPLE + WATCHED_WITHOUT])
