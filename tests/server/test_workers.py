"""The bot workers: a budget runs from when a worker takes a turn up, and workers yield."""

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from parlour.rules import GAMES
from parlour.server.lobby import BotTurn
from parlour.server.metrics import Metrics
from parlour.server.workers import WORKER_NICENESS, BotWorkers, Think

from . import faulty_bots


@contextlib.asynccontextmanager
async def started(workers: BotWorkers) -> AsyncIterator[BotWorkers]:
    await workers.start()
    try:
        yield workers
    finally:
        await workers.close()


def turns(count: int, budget: float = 1.0) -> list[BotTurn]:
    state = GAMES["tribolo"].new(seed=1)
    return [BotTurn(f"room{n}", 0, "red", "any", budget, state) for n in range(count)]


def fallbacks(metrics: Metrics) -> float:
    registry = metrics.registry
    return sum(
        registry.get_sample_value("parlour_bot_fallbacks_total", {"reason": reason}) or 0.0
        for reason in ("timeout", "crashed", "error")
    )


async def test_turns_waiting_for_a_worker_keep_their_whole_budget() -> None:
    # Four turns of 0.24 s for one worker: the last waits 0.72 s, past budget and grace.
    metrics = Metrics()
    workers = BotWorkers(1, faulty_bots.thoughtful_bot, 0.2, metrics)
    async with started(workers) as pool:
        asked = turns(4, budget=0.3)
        answers = await asyncio.gather(*(pool.move(turn) for turn in asked))
    state = asked[0].state
    last_legal = state.format_move(state.legal_moves()[-1])
    assert [move for move, _ in answers] == [last_legal] * 4  # each thought its 8 thoughts
    assert fallbacks(metrics) == 0
    assert metrics.registry.get_sample_value("parlour_bot_turns_waiting") == 0


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


async def test_workers_run_at_a_lower_priority_than_the_server() -> None:
    async with started(BotWorkers(1, faulty_bots.niceness_bot, 1.0, Metrics())) as pool:
        found = await pool.search(turns(1)[0].state, "any", 1.0, 0)
    assert found["score"] == min(19, os.nice(0) + WORKER_NICENESS)


async def test_each_thought_is_heard_as_it_comes_and_the_last_is_the_answer() -> None:
    heard: list[tuple[float, dict[str, Any]]] = []
    state = turns(1)[0].state
    async with started(BotWorkers(1, faulty_bots.thoughtful_bot, 1.0, Metrics())) as pool:
        began = time.monotonic()
        found = await pool.search(
            state, "any", 1.0, 0, lambda thought: heard.append((time.monotonic(), thought))
        )
        ended = time.monotonic()
    assert [thought["depth"] for _, thought in heard] == list(range(1, 9))
    assert heard[-1][1] == found
    assert found["move"] == state.format_move(state.legal_moves()[-1])
    assert found["line"] == [found["move"]]
    assert heard[0][0] - began < (ended - began) / 2  # the first came long before the end
