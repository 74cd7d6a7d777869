"""Searches as they travel through Redis to workers on any machine, and back.

A job waits in one of three streams read by the consumer group `workers`: quick levels,
turns a person waits for, and the rest, so a worker with a free slot takes the urgent
first and a free quick lane takes only quick levels. A job carries the seconds left to
its deadline when it was added; the stream entry's id is Redis's clock at that moment, so
a worker on another machine knows how long it has waited without trusting its own clock.
Answers and thoughts go back on the channel the job names.

States travel pickled, exactly as the worker processes receive them (loop history
included), and are read back by an unpickler that builds nothing but the rules' own
classes: a job that names anything else is refused with a JobError.
"""

import io
import pickle
from dataclasses import dataclass
from typing import Any, Final

import msgpack

from parlour.botworker import Report

from ..turns import Job

VERSION: Final = 1
GROUP: Final = "workers"
STREAMS: Final = ("quick", "urgent", "others")
"""The job streams' names after the prefix and `bots:`, the order a worker reads them in."""
MAX_JOBS: Final = 10_000
"""Entries a job stream keeps at most when no worker reads it."""
SAFE_BUILTINS: Final = frozenset({"frozenset", "set", "tuple", "list", "dict", "range"})


class JobError(ValueError):
    """Bytes from Redis that are not a job, answer or thought of this version."""


@dataclass(frozen=True, slots=True)
class Posted:
    """A job as read from its stream, with the seconds it had left when it was added."""

    job: Job
    reply: str
    """The channel its answer and thoughts go to."""
    left: float


@dataclass(frozen=True, slots=True)
class Done:
    """A worker's answer: the last thought, or why there is none (timeout, crashed, error)."""

    key: str
    found: Report | None
    failure: str | None = None
    given: float = 0.0
    used: float = 0.0
    held: float = 0.0
    """Seconds from the worker taking the job to its answer: the rest of the node's wait
    was the way through Redis."""


@dataclass(frozen=True, slots=True)
class Heard:
    """A thought of a watched search, as it comes."""

    key: str
    thought: Report


def stream_of(job: Job) -> str:
    """Which stream a job waits in."""
    return "quick" if job.quick else "urgent" if job.urgent else "others"


def pack_job(job: Job, reply: str, left: float) -> bytes:
    return msgpack.packb(
        [
            VERSION,
            job.key,
            reply,
            pickle.dumps(job.state, protocol=pickle.HIGHEST_PROTOCOL),
            job.level,
            job.budget,
            left,
            job.urgent,
            job.quick,
            job.seed,
            job.watched,
        ]
    )


def unpack_job(data: bytes, deadline_from_left: Any) -> Posted:
    """The job in `data`, its deadline set by `deadline_from_left(left)`; JobError if none."""
    try:
        version, key, reply, state, level, budget, left, urgent, quick, seed, watched = (
            msgpack.unpackb(data)
        )
        if version != VERSION:
            raise JobError(f"a job of version {version}, not {VERSION}")
        job = Job(
            str(key),
            _RulesUnpickler(io.BytesIO(state)).load(),
            str(level),
            float(budget),
            deadline_from_left(float(left)),
            urgent=bool(urgent),
            quick=bool(quick),
            seed=int(seed),
            watched=bool(watched),
        )
        return Posted(job, str(reply), float(left))
    except JobError:
        raise
    except Exception as error:  # whatever the bytes were, they are no job
        raise JobError(f"not a job: {type(error).__name__}: {error}") from None


def pack_done(done: Done) -> bytes:
    return msgpack.packb(
        ["d", done.key, done.found, done.failure, done.given, done.used, done.held]
    )


def pack_heard(heard: Heard) -> bytes:
    return msgpack.packb(["t", heard.key, heard.thought])


def unpack_reply(data: bytes) -> Done | Heard:
    """An answer or thought from a worker; JobError if it is neither."""
    try:
        kind, key, *rest = msgpack.unpackb(data)
        if kind == "d":
            found, failure, given, used, held = rest
            if (found is None) == (failure is None):
                raise JobError("an answer must have a thought or a failure")
            return Done(
                str(key),
                dict(found) if found is not None else None,
                str(failure) if failure is not None else None,
                float(given),
                float(used),
                float(held),
            )
        if kind == "t":
            (thought,) = rest
            return Heard(str(key), dict(thought))
        raise JobError(f"unknown reply {kind!r}")
    except JobError:
        raise
    except Exception as error:
        raise JobError(f"not a reply: {type(error).__name__}: {error}") from None


class _RulesUnpickler(pickle.Unpickler):
    """Builds the rules' states and nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "parlour.rules" or module.startswith("parlour.rules."):
            return super().find_class(module, name)
        if module == "builtins" and name in SAFE_BUILTINS:
            return super().find_class(module, name)
        raise JobError(f"a job may not build {module}.{name}")
