"""Bot searches through Redis: `parlour worker` processes think for a node with none of
its own, thoughts and suggestions included, and a worker lost mid-search costs no turn."""

import asyncio
import functools
import signal

import pytest
from redis.asyncio import Redis

from parlour.protocol import messages as m
from parlour.server.cluster.jobs import GROUP, STREAMS
from parlour.server.cluster.records import PREFIX
from parlour.server.cluster.worker import stream_key

from ..server.wsclient import Client
from .conftest import StartNode, StartWorker
from .processes import RedisProcess, Worker, http_get, metric

THINK_MS = 400
LONG_THINK_MS = 800
"""Long enough that a worker is lost mid-search, its first thought out and its time not."""
MOVES = 6
"""Turns watched: two rounds, each seat's turn twice."""


def bot_thought(version: int, message: m.ServerMessage) -> bool:
    return isinstance(message, m.Thinking) and message.of == "bot" and message.version == version


async def host_tribolo(client: Client, seat: str | None, think_ms: int) -> str:
    """A Tribolo room of hard bots (and the client in `seat`), thinking shown, started."""
    create = m.CreateRoom(game="tribolo", public=False, seat=seat, bot_think_ms=think_ms)
    joined = await client.request(create)
    assert isinstance(joined, m.Joined), joined
    room = joined.room["room"]
    assert isinstance(await client.request(m.FillBots(room=room, level="hard")), m.Ok)
    assert isinstance(await client.request(m.ShowThinking(room=room, on=True)), m.Ok)
    assert isinstance(await client.request(m.Start(room=room)), m.Ok)
    return str(room)


async def test_workers_elsewhere_play_the_bots_show_their_thinking_and_suggest(
    start: StartNode, worker: StartWorker
) -> None:
    node, *workers = await asyncio.gather(start("--bot-workers", "0"), worker(), worker())
    person = await Client.open(node.port, "Ada")
    room = await host_tribolo(person, "blue", THINK_MS)
    view = await person.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView)
    state, version, bot_moves, suggestions = view.room["state"], 0, 0, 0
    while version < MOVES and not state["over"]:
        if state["to_move"] == "blue":
            asked = await person.request(m.Suggest(room=room, think_ms=THINK_MS))
            assert isinstance(asked, m.Suggestion), asked
            suggestions += 1
            thought = await person.expect(
                lambda msg: isinstance(msg, m.Thinking) and msg.of == "suggestion"
            )
            assert isinstance(thought, m.Thinking)
            move = m.Move(room=room, version=version, move=asked.search["move"])
            assert isinstance(await person.request(move), m.Ok)
        else:  # a bot moves, thinking aloud
            thought = await person.expect(functools.partial(bot_thought, version))
            assert isinstance(thought, m.Thinking)
            bot_moves += 1
        version += 1
        state = (await person.update(version)).state
    if not state["over"] and state["to_move"] != "blue":
        bot_moves += 1  # its search is under way
    await person.close()
    text = await http_get(node.port, "/metrics")
    assert metric(text, "parlour_bot_late_answers_total") == 0
    assert sum(await asyncio.gather(*(one.searches() for one in workers))) == (
        bot_moves + suggestions
    )
    assert (
        'reason="timeout"' not in text
        or metric(text, 'parlour_bot_fallbacks_total{reason="timeout"}') == 0
    )


async def holder_and_other(redis_url: str, workers: list[Worker]) -> tuple[Worker, Worker]:
    """Of two workers, the one holding the cluster's one job out, and the other (asked again
    in the moment between one job's answer and the next's taking)."""
    redis = Redis.from_url(redis_url, decode_responses=True)
    try:
        async with asyncio.timeout(10):
            while True:
                held = [
                    str(entry["consumer"])
                    for name in STREAMS
                    for entry in await redis.xpending_range(
                        stream_key(PREFIX, name), GROUP, min="-", max="+", count=10
                    )
                ]
                if held:
                    break
                await asyncio.sleep(0.02)
    finally:
        await redis.aclose()
    assert len(held) == 1, held
    pid = int(held[0].split(":")[1])
    first, second = workers if workers[0].process.pid == pid else workers[::-1]
    assert first.process.pid == pid, (pid, [one.process.pid for one in workers])
    return first, second


@pytest.mark.parametrize("lost", [signal.SIGKILL, signal.SIGSTOP])
async def test_a_search_whose_worker_is_lost_is_taken_over_and_played_once(
    redis_server: RedisProcess, start: StartNode, worker: StartWorker, lost: signal.Signals
) -> None:
    node, *workers = await asyncio.gather(start("--bot-workers", "0"), worker(), worker())
    watcher = await Client.open(node.port, "Watcher")
    room = await host_tribolo(watcher, None, LONG_THINK_MS)
    await watcher.expect(lambda msg: isinstance(msg, m.Thinking) and msg.version == 0)
    first, second = await holder_and_other(redis_server.url, workers)
    first.signal(lost)  # mid-search: its first thought is out, its budget is not
    await watcher.update(1)
    await watcher.update(2)  # and the game goes on
    if lost is signal.SIGSTOP:
        first.signal(signal.SIGCONT)  # its answer, for a turn already played, comes late
        async with asyncio.timeout(10):
            while (
                metric(await http_get(node.port, "/metrics"), "parlour_bot_late_answers_total") < 1
            ):
                await asyncio.sleep(0.2)
    view = await watcher.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView)
    assert len(view.room["moves"]) == view.room["version"] >= 2
    text = await http_get(node.port, "/metrics")
    assert metric(text, 'parlour_bot_fallbacks_total{reason="timeout"}') == 0
    assert metric(text, 'parlour_bot_fallbacks_total{reason="error"}') == 0
    await watcher.close()
    assert await second.searches() >= 2  # the turn taken over, and the next
