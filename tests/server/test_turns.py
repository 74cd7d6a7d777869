"""The job queue: who a free worker serves next, and how long it may think."""

import pytest

from parlour.rules import GAMES
from parlour.server.turns import FLOOR, HANDOVER, URGENT_WEIGHT, Job, JobQueue

STATE = GAMES["tribolo"].new(seed=1)


def job(
    key: str,
    *,
    deadline: float = 1.0,
    budget: float = 1.0,
    urgent: bool = False,
    quick: bool = False,
) -> Job:
    return Job(key, STATE, "hard", budget, deadline, urgent=urgent, quick=quick, seed=0)


def keys_in_order(queue: JobQueue, now: float = 0.0) -> list[str]:
    order = []
    while (taken := queue.pop(now)) is not None:
        order.append(taken.job.key)
    return order


def test_turns_a_person_waits_for_go_first_unless_others_have_waited_half_their_time() -> None:
    queue = JobQueue(workers=2)
    queue.push(job("bots", deadline=1.0), now=0.0)
    queue.push(job("person", deadline=1.0, urgent=True), now=0.0)
    queue.push(job("bots later", deadline=1.6), now=0.6)
    queue.push(job("person later", deadline=1.6, urgent=True), now=0.6)
    # The first turn among computers has waited past half its time when the later person's
    # turn comes, so it goes before it; the later turn among computers has not.
    assert keys_in_order(queue, now=0.6) == ["person", "bots", "person later", "bots later"]


def test_a_search_alone_gets_its_whole_budget_less_what_it_waited() -> None:
    queue = JobQueue(workers=2)
    queue.push(job("a", deadline=10.0, budget=1.0), now=9.0)
    taken = queue.pop(now=9.0)
    assert taken is not None
    assert taken.given == pytest.approx(1.0 - HANDOVER)
    assert not taken.shortened
    queue.push(job("b", deadline=10.0, budget=1.0), now=9.0)
    taken = queue.pop(now=9.6)
    assert taken is not None
    assert taken.given == pytest.approx(0.4 - HANDOVER)
    assert taken.waited == pytest.approx(0.6)
    assert taken.shortened


def test_a_crowd_of_turns_shares_the_workers_time_so_the_last_is_still_on_time() -> None:
    # A hundred turns due in a second, two workers: each search gets a fiftieth of the
    # time the workers have, and taking them in turn ends near the deadline, not past it.
    queue = JobQueue(workers=2)
    for number in range(100):
        queue.push(job(f"room{number}", deadline=1.0), now=0.0)
    free_at = [0.0, 0.0]
    given = []
    while queue:
        worker = free_at.index(min(free_at))
        taken = queue.pop(now=free_at[worker])
        assert taken is not None
        given.append(taken.given)
        free_at[worker] += taken.given
    assert given[0] == pytest.approx((1.0 - HANDOVER) * 2 / 100)
    assert max(free_at) <= 1.0 - HANDOVER + 1e-9
    assert min(given) >= FLOOR


def test_a_search_past_its_deadline_still_gets_the_floor() -> None:
    queue = JobQueue(workers=1)
    queue.push(job("late", deadline=1.0), now=0.0)
    taken = queue.pop(now=5.0)
    assert taken is not None
    assert taken.given == FLOOR
    assert taken.shortened


def test_a_search_a_person_waits_for_gets_more_of_the_workers_time() -> None:
    queue = JobQueue(workers=1)
    for number in range(20):
        queue.push(job(f"bots{number}", deadline=1.0), now=0.0)
    queue.push(job("person", deadline=1.0, urgent=True), now=0.0)
    person = queue.pop(now=0.0)
    assert person is not None
    assert person.job.key == "person"
    assert person.given == pytest.approx((1.0 - HANDOVER) * URGENT_WEIGHT / (20 + URGENT_WEIGHT))
    computers = queue.pop(now=0.0)
    assert computers is not None
    assert computers.given == pytest.approx((1.0 - HANDOVER) / 20)


def test_the_quick_lane_takes_only_quick_levels_and_they_do_not_shorten_searches() -> None:
    queue = JobQueue(workers=1)
    queue.push(job("hard", urgent=True), now=0.0)
    queue.push(job("easy", quick=True, deadline=2.0), now=0.0)
    quick = queue.pop(now=0.0, quick_only=True)
    assert quick is not None
    assert quick.job.key == "easy"
    assert queue.pop(now=0.0, quick_only=True) is None
    queue.push(job("easy again", quick=True, deadline=2.0), now=0.0)
    hard = queue.pop(now=0.0)
    assert hard is not None
    assert hard.job.key == "hard"
    assert hard.given == pytest.approx(1.0 - HANDOVER)


def test_a_dropped_job_is_never_taken_and_keys_are_unique() -> None:
    queue = JobQueue(workers=1)
    queue.push(job("gone", deadline=0.5), now=0.0)
    queue.push(job("kept"), now=0.2)
    with pytest.raises(ValueError, match="already queued"):
        queue.push(job("kept"), now=0.3)
    assert queue.oldest_wait(now=1.0) == pytest.approx(1.0)
    dropped = queue.drop("gone")
    assert dropped is not None
    assert dropped.key == "gone"
    assert queue.drop("gone") is None
    assert queue.oldest_wait(now=1.0) == pytest.approx(0.8)
    assert keys_in_order(queue) == ["kept"]
    assert queue.oldest_wait(now=1.0) == 0.0
