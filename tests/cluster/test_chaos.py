"""Short chaos runs, one for each fault: three nodes behind proxies to Redis, a few rooms
played across them, and one fault (a node killed, a node paused past its lease, Redis killed
and started again, a node's Redis connections reset, a node cut off from Redis for a while).
Whatever any client was shown must be what the cluster kept. The long run of many rounds is
benchmarks/chaos.py.

Each run's record (every message every client received) and its report are written to the
test's folder, `cluster/record.jsonl` and `cluster/report.txt`, beside the nodes' logs."""

from pathlib import Path

import pytest

from .chaos import (
    CHECKS,
    KINDS,
    Ack,
    Chaos,
    Fault,
    FinalView,
    Heard,
    Recorder,
    Round,
    SeatCheck,
    Settings,
    judge,
)
from .processes import REDIS_SERVER

SETTINGS = Settings(
    nodes=3,
    lease=2.0,
    othello_rooms=2,
    tribolo_rooms=1,
    seed=7,
    calm=(0.3, 0.6),
    settle=1.0,
    blackhole_seconds=2.5,
    pause=2.5,
    redis_down=(1.0, 1.5),
    tail=0.3,
    final_timeout=8.0,
)
"""A short run: a node is cut off or paused for longer than its lease all the same."""
NAMED = 12
"""Violations of each check named in the failure message."""


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name.lower())
async def test_what_clients_are_shown_survives_the_fault(kind: Fault, tmp_path: Path) -> None:
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"{REDIS_SERVER} is missing: install Debian's redis-server package")
    report = await Chaos(SETTINGS, tmp_path / "cluster", print).run([kind])
    print(report.table())

    assert [r.kind for r in report.rounds] == [kind]
    assert report.total("acked") > 0, "nobody's move was acknowledged"
    failed = [check for check in CHECKS if report.problems(check)]
    assert not failed, f"failed: {', '.join(failed)}\n{report.described(NAMED)}"


def test_the_judge_names_moves_shown_or_acknowledged_and_not_kept() -> None:
    recorder = Recorder()
    recorder.heard += [
        Heard(1.0, "ann", "update", "r1", 2, "b"),
        Heard(1.1, "bob", "update", "r1", 3, "x"),
        Heard(1.2, "bob", "room", "r1", 2, moves=("a", "y")),
        Heard(1.3, "bob", "room", "r1", 1, moves=("a",)),
    ]
    recorder.acks += [
        Ack(0.5, "ann", "r1", 1, "a"),
        Ack(0.6, "ann", "r1", 1, "a"),
        Ack(1.0, "bob", "r1", 2, "b"),
        Ack(1.0, "ann", "r1", 2, "q"),
        Ack(1.4, "bob", "r1", 4, "d"),
    ]
    finals = {"r1": FinalView("r1", ("a", "b", "c"))}
    report = judge(SETTINGS, recorder, [], finals, [])

    assert report.problems("replaced") == [
        "[calm] room r1 version 3: shown 'x' (update) to 1 connection(s) bob; kept 'c'"
        " (at 0.10 s, between faults)",
        "[calm] room r1 version 2: shown 'y' (room) to 1 connection(s) bob; kept 'b'"
        " (at 0.20 s, between faults)",
    ]
    assert report.problems("doubled") == [
        "[calm] room r1 version 2: 'q' acknowledged to ann after 'b' was acknowledged to bob"
        " (at 0.00 s, between faults)"
    ]
    lost = [line.split(":")[0] for line in report.problems("lost")]
    assert lost == ["[calm] room r1 version 2", "[calm] room r1 version 4"]
    assert report.total("acked") == 4, "a move acknowledged again is one move"


def test_the_judge_leaves_out_moves_shown_past_a_final_view_read_before_them() -> None:
    recorder = Recorder()
    recorder.heard += [
        Heard(1.0, "ann", "update", "r1", 2, "b"),
        Heard(3.0, "auditor", "update", "r1", 3, "c"),  # a computer's, after the read
        Heard(3.1, "bob", "room", "r1", 3, moves=("a", "b", "c")),
        Heard(3.2, "bob", "room", "r1", 3, moves=("a", "x", "c")),
        Heard(1.5, "cy", "update", "r1", 3, "c"),  # before the read, and not in it
    ]
    finals = {"r1": FinalView("r1", ("a", "b"), read_at=2.0)}
    report = judge(SETTINGS, recorder, [], finals, [])

    assert report.problems("replaced") == [
        "[calm] room r1 version 2: shown 'x' (room) to 1 connection(s) bob; kept 'b'"
        " (at 2.20 s, between faults)",
        "[calm] room r1 version 3: shown 'c' (update) to 1 connection(s) cy; kept nothing"
        " (at 0.50 s, between faults)",
    ]


def test_the_judge_times_failover_and_checks_seats() -> None:
    fault = Round(1, Fault.NODE_KILL, "node 1", fault_at=10.0, from_at=10.0, end_at=20.0)
    fault.affected, fault.excluded = {"r1": 3, "r2": 5, "r3": 1}, {"r3"}
    recorder = Recorder(people={"ann"})
    recorder.acks.append(Ack(11.0, "ann", "r1", 4, "d"))
    recorder.heard += [
        Heard(9.0, "ann", "update", "r2", 5, "e"),
        Heard(16.5, "bob", "update", "r2", 6, "f"),
        Heard(12.0, "ann", "error", "r1", code="not_seated", request="move"),
        Heard(12.0, "host", "error", "r1", code="not_seated", request="start"),
        Heard(13.0, "ann", "error", "r1", code="unavailable", request="move"),
    ]
    seats = ({"colour": "black", "holder": {"kind": "human", "name": "Ann", "connected": False}},)
    finals = {
        room: FinalView(room, ("a", "b", "c", "d", "e", "f"), seats) for room in fault.affected
    }
    report = judge(SETTINGS, recorder, [fault], finals, [SeatCheck("r1", "black", "Ann", True)])

    figures = report.figures[Fault.NODE_KILL]
    assert (figures.rounds, figures.failover, figures.not_serving) == (1, [1.0, 6.5], 1)
    assert report.problems("not_serving") == [
        "[node kill] round 1 (node kill, node 1): room r2 (at version 5) moved again 6.50 s"
        f" after the fault (bound {SETTINGS.bound:g} s)"
    ]
    assert (figures.not_seated, figures.unavailable) == (1, 1)
    assert len(report.problems("not_seated")) == 1
    assert (
        "shows {'kind': 'human', 'name': 'Ann', 'connected': False}" in report.problems("seat")[0]
    )


def test_the_judge_names_clocks_that_disagree_go_up_or_flag() -> None:
    def shown(at: float, conn: str, kind: str, left: tuple[int, int]) -> Heard:
        seats = (("black", left[0]), ("white", left[1]))
        return Heard(at, conn, kind, "r1", 3, left=seats, running="white")

    recorder = Recorder()
    recorder.heard += [
        shown(1.0, "ann", "update", (250_000, 280_000)),
        shown(1.1, "bob", "update", (250_000, 280_000)),
        shown(1.5, "cy", "room", (250_000, 279_600)),  # white's time runs down: fine
        shown(4.0, "cy", "room", (250_000, 280_900)),  # a failover gave back 1.3 s: fine
        shown(5.0, "ann", "room", (249_000, 279_000)),  # black's time is not running
        shown(6.0, "bob", "room", (250_000, 290_000)),  # white's went up 10 s
        Heard(7.0, "ann", "room", "r1", 4, flagged=("white",)),
    ]
    report = judge(SETTINGS, recorder, [], {"r1": FinalView("r1", ("a", "b", "c"))}, [])

    assert report.problems("clock") == [
        "[calm] room r1: ('white',) flagged (at 6.00 s, between faults)",
        "[calm] room r1 version 3: black shown 250000 ms left to ann (update), then 249000"
        " ms to ann (room) (at 4.00 s, between faults)",
        "[calm] room r1 version 3: white shown 280000 ms left to ann (update), then 290000"
        " ms to bob (room) while running (at 5.00 s, between faults)",
    ]
