"""Background tasks are stopped for good, though a library swallows a cancellation."""

import asyncio

from parlour.server.stopping import cancel_all


async def swallows_one_cancellation(cancelled: list[int]) -> None:
    """Wait; take the first cancellation as redis-py does mid-command, and go on waiting."""
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        cancelled.append(1)
    await asyncio.sleep(60)


async def test_a_task_that_swallows_a_cancellation_is_cancelled_again() -> None:
    cancelled: list[int] = []
    task = asyncio.create_task(swallows_one_cancellation(cancelled))
    await asyncio.sleep(0)
    assert await cancel_all([task], within=5.0) == 0
    assert task.cancelled() and cancelled == [1]


async def test_a_task_that_will_not_stop_is_left_after_the_bound_and_counted() -> None:
    released = asyncio.Event()

    async def stubborn() -> None:
        while not released.is_set():
            try:
                await released.wait()
            except asyncio.CancelledError:
                continue

    tasks = [asyncio.create_task(stubborn()), asyncio.create_task(asyncio.sleep(60))]
    await asyncio.sleep(0)
    assert await cancel_all(tasks, within=0.5) == 1
    assert tasks[1].cancelled() and not tasks[0].done()
    released.set()
    await tasks[0]
