"""The bot workers: moves on time under load, quick levels and people first, workers yield."""

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from parlour.botworker import WORKER_NICENESS, Think
from parlour.rules import GAMES
from parlour.server.metrics import Metrics
from parlour.server.thinking import BotTurn
from parlour.server.turns import Job
from parlour.server.workers import BotWorkers, turn_job

from . import faulty_bots


@contextlib.asynccontextmanager
async def started(workers: BotWorkers) -> AsyncIterator[BotWorkers]:
    await workers.start()
    try:
        yield workers
    finally:
        await workers.close()


def turns(
    count: int, budget: float = 1.0, *, level: str = "any", waited_on: bool = False
) -> list[BotTurn]:
    state = GAMES["tribolo"].new(seed=1)
    began = time.monotonic()
    return [
        BotTurn(f"room{n}", 0, "red", level, budget, state, began, waited_on) for n in range(count)
    ]


def fallbacks(metrics: Metrics) -> float:
    registry = metrics.registry
    return sum(
        registry.get_sample_value("parlour_bot_fallbacks_total", {"reason": reason}) or 0.0
        for reason in ("timeout", "crashed", "error")
    )


async def timed_move(pool: BotWorkers, turn: BotTurn) -> tuple[str, float]:
    """The bot's move and when it came, in seconds after its turn began."""
    move, _ = await pool.move(turn)
    return move, time.monotonic() - turn.began


async def test_turns_that_wait_for_a_worker_get_the_time_left_and_answer_on_time() -> None:
    # Four turns of 0.4 s for one worker: whole budgets would end the last at 1.6 s.
    metrics = Metrics()
    async with started(BotWorkers(1, faulty_bots.thoughtful_bot, 0.3, metrics)) as pool:
        asked = turns(4, budget=0.4)
        answers = await asyncio.gather(*(timed_move(pool, turn) for turn in asked))
    state = asked[0].state
    assert all(state.parse_move(move) in state.legal_moves() for move, _ in answers)
    assert max(after for _, after in answers) < 0.4 + 0.15
    assert fallbacks(metrics) == 0
    shortened = metrics.registry.get_sample_value("parlour_bot_searches_shortened_total")
    assert shortened is not None and shortened >= 3
    assert metrics.registry.get_sample_value("parlour_bot_turns_waiting") == 0


async def test_a_quick_level_never_waits_behind_long_searches() -> None:
    async with started(BotWorkers(1, faulty_bots.levelled_bot, 0.3, Metrics())) as pool:
        searches = [asyncio.ensure_future(timed_move(pool, turn)) for turn in turns(3)]
        await asyncio.sleep(0.05)
        _, quick_after = await timed_move(pool, turns(1, level="easy")[0])
        slow = await asyncio.gather(*searches)
    assert quick_after < 0.25
    assert max(after for _, after in slow) > 0.5


async def test_turns_a_person_waits_for_go_before_turns_among_computers() -> None:
    finished: list[str] = []

    async def move(pool: BotWorkers, turn: BotTurn, name: str) -> None:
        await pool.move(turn)
        finished.append(name)

    async with started(BotWorkers(1, faulty_bots.thoughtful_bot, 0.3, Metrics())) as pool:
        first = asyncio.ensure_future(move(pool, turns(1, budget=0.3)[0], "first"))
        await asyncio.sleep(0.05)  # the only worker is busy with the first
        computers = asyncio.ensure_future(move(pool, turns(1, budget=0.3)[0], "computers"))
        await asyncio.sleep(0.01)
        person = asyncio.ensure_future(
            move(pool, turns(1, budget=0.3, waited_on=True)[0], "person")
        )
        await asyncio.gather(first, computers, person)
    assert finished == ["first", "person", "computers"]


@pytest.mark.parametrize(
    ("bot", "grace", "reason"),
    [
        (faulty_bots.hanging_bot, 0.05, "timeout"),
        # A death is only seen as such if it is noticed before the budget and grace are up.
        (faulty_bots.dying_bot, 2.0, "crashed"),
    ],
)
async def test_a_hung_or_dead_worker_is_replaced(bot: Think, grace: float, reason: str) -> None:
    metrics = Metrics()
    async with started(BotWorkers(1, bot, grace, metrics)) as pool:
        answers = await asyncio.gather(*(pool.move(turn) for turn in turns(3, budget=0.05)))
    state = turns(1)[0].state
    assert all(state.parse_move(move) in state.legal_moves() for move, _ in answers)
    sample = metrics.registry.get_sample_value("parlour_bot_fallbacks_total", {"reason": reason})
    assert sample == 3


def job(turn: BotTurn) -> Job:
    return turn_job("key", turn, seed=0)


async def test_workers_run_at_a_lower_priority_than_the_server() -> None:
    async with started(BotWorkers(1, faulty_bots.niceness_bot, 1.0, Metrics())) as pool:
        found = (await pool.think(job(turns(1)[0]))).found
    assert found["score"] == min(19, os.nice(0) + WORKER_NICENESS)


async def test_each_thought_is_heard_as_it_comes_and_the_last_is_the_answer() -> None:
    heard: list[tuple[float, dict[str, Any]]] = []
    state = turns(1)[0].state
    async with started(BotWorkers(1, faulty_bots.thoughtful_bot, 1.0, Metrics())) as pool:
        began = time.monotonic()
        found = (
            await pool.think(
                job(turns(1)[0]), lambda thought: heard.append((time.monotonic(), thought))
            )
        ).found
        ended = time.monotonic()
    assert [thought["depth"] for _, thought in heard] == list(range(1, 9))
    assert heard[-1][1] == found
    assert found["move"] == state.format_move(state.legal_moves()[-1])
    assert found["line"] == [found["move"]]
    assert heard[0][0] - began < (ended - began) / 2  # the first came long before the end
