"""Jobs, answers and thoughts as they travel through Redis, and what is refused."""

import os
import pickle
import random

import msgpack
import pytest

from parlour.rules import GAMES
from parlour.server.cluster.jobs import (
    Done,
    Heard,
    JobError,
    pack_done,
    pack_heard,
    pack_job,
    stream_of,
    unpack_job,
    unpack_reply,
)
from parlour.server.turns import Job


def played(game: str, plies: int) -> Job:
    state = GAMES[game].new(seed=5)
    rng = random.Random(5)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return Job("n1:7", state, "hard", 1.0, 0.0, urgent=True, quick=False, seed=9, watched=True)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_job_arrives_whole_with_its_deadline_from_the_time_left(game: str) -> None:
    job = played(game, 12)
    posted = unpack_job(pack_job(job, "reply", 0.75), lambda left: 100.0 + left)
    assert posted.reply == "reply" and posted.left == 0.75
    assert posted.job.deadline == 100.75
    assert posted.job.state == job.state
    # What the rules keep of the past for loop detection, which the position text leaves
    # out, comes too: a bot elsewhere plays as it would here.
    assert getattr(posted.job.state, "recent", None) == getattr(job.state, "recent", None)
    assert (posted.job.key, posted.job.level, posted.job.seed) == ("n1:7", "hard", 9)
    assert posted.job.urgent and posted.job.watched and not posted.job.quick


def test_jobs_wait_in_the_stream_of_their_kind() -> None:
    job = played("othello", 0)
    assert stream_of(job) == "urgent"
    assert stream_of(Job("k", job.state, "easy", 1, 0, urgent=True, quick=True, seed=0)) == (
        "quick"
    )
    assert stream_of(Job("k", job.state, "hard", 1, 0, urgent=False, quick=False, seed=0)) == (
        "others"
    )


class Planted:
    """Something that runs a command when unpickled."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, ("echo planted",)


def test_a_job_that_would_build_anything_but_the_rules_state_is_refused() -> None:
    fields = msgpack.unpackb(pack_job(played("othello", 2), "reply", 1.0))
    fields[3] = pickle.dumps(Planted())
    with pytest.raises(JobError, match="may not build"):
        unpack_job(msgpack.packb(fields), lambda left: left)


@pytest.mark.parametrize(
    "data",
    [b"", b"\xc1", msgpack.packb([2, "k"]), msgpack.packb([1, "k", "r", b"junk"] + [0] * 7)],
)
def test_bytes_that_are_no_job_are_refused(data: bytes) -> None:
    with pytest.raises(JobError):
        unpack_job(data, lambda left: left)


def test_answers_and_thoughts_round_trip_and_bad_ones_are_refused() -> None:
    done = Done("k", {"move": "d3"}, None, 0.5, 0.4, 0.45)
    assert unpack_reply(pack_done(done)) == done
    failed = Done("k", None, "crashed")
    assert unpack_reply(pack_done(failed)) == failed
    heard = Heard("k", {"move": "d3", "depth": 2})
    assert unpack_reply(pack_heard(heard)) == heard
    for bad in (b"", msgpack.packb(["d", "k", None, None, 0, 0, 0]), msgpack.packb(["x", "k"])):
        with pytest.raises(JobError):
            unpack_reply(bad)
