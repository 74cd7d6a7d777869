"""The record of a chaos run: every message every client received, every move acknowledged,
every request left unanswered, and each round's fault; written out as JSON lines."""

import dataclasses
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.protocol import messages as m

from .settings import Fault


@dataclass(frozen=True)
class Heard:
    """One message a connection received: its type and the facts the checks use."""

    at: float
    conn: str
    kind: str
    room: str | None = None
    version: int | None = None
    move: str | None = None
    """An update's move."""
    moves: tuple[str, ...] | None = None
    """A room view's moves."""
    code: str | None = None
    """An error's code."""
    request: str | None = None
    """The type of the request this answers, if it answers one."""
    left: tuple[tuple[str, int], ...] | None = None
    """The clock shown: each seat's time left, in milliseconds."""
    running: str | None = None
    """The clock shown: whose time runs."""
    flagged: tuple[str, ...] = ()
    """A room view's seats out of time."""


@dataclass(frozen=True)
class Ack:
    """A move a connection was told `ok` for: it made `version` of `room`."""

    at: float
    conn: str
    room: str
    version: int
    move: str


@dataclass(frozen=True)
class NoAnswer:
    """A request that got no answer within the timeout."""

    at: float
    conn: str
    request: str


@dataclass
class Round:
    """One fault: when it struck, when failover is timed from, and the rooms it met."""

    number: int
    kind: Fault
    target: str
    fault_at: float
    from_at: float = 0.0
    """When failover is timed from: the fault, or for Redis killed, Redis back."""
    cleared_at: float = 0.0
    """When the fault was over: the node woken, the proxy released, Redis back."""
    end_at: float = math.inf
    affected: dict[str, int] = field(default_factory=dict)
    """The rooms playing at `from_at`, with the latest version any client knew then."""
    excluded: set[str] = field(default_factory=set)
    """Rooms with a person connected through the paused or cut-off node."""
    stuck: set[str] = field(default_factory=set)
    """Rooms playing at `from_at` that had not moved since an earlier fault stopped them:
    counted against that fault, not this one."""

    def holds(self, at: float) -> bool:
        return self.fault_at <= at <= self.end_at

    @property
    def title(self) -> str:
        return f"round {self.number} ({self.kind}, {self.target})"

    def facts(self) -> dict[str, Any]:
        """The round as JSON-ready facts, its times relative to the fault."""
        return {
            "number": self.number,
            "kind": str(self.kind),
            "target": self.target,
            "from": round(self.from_at - self.fault_at, 3),
            "cleared": round(self.cleared_at - self.fault_at, 3),
            "end": round(self.end_at - self.fault_at, 3),
            "affected": self.affected,
            "excluded": sorted(self.excluded),
            "stuck": sorted(self.stuck),
        }


def clock_shown(clock: Any) -> dict[str, Any]:
    """The facts of a clock shown (protocol.md 2.12) that the checks use."""
    if not isinstance(clock, dict):
        return {}
    left = tuple(sorted((str(seat), int(ms)) for seat, ms in clock["left_ms"].items()))
    return {"left": left, "running": clock.get("running")}


def started(answer: m.ServerMessage) -> bool:
    """`start` was done, now or by an earlier request whose answer was late."""
    return isinstance(answer, m.Ok) or (
        isinstance(answer, m.Error) and answer.code == "not_waiting"
    )


@dataclass
class Recorder:
    """Everything every connection of the run was told, with the monotonic time."""

    heard: list[Heard] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    no_answers: list[NoAnswer] = field(default_factory=list)
    people: set[str] = field(default_factory=set)
    """The labels of the connections that hold a seat."""
    latest: dict[str, int] = field(default_factory=dict)
    """The highest version any connection was shown or acknowledged, by room."""
    started: set[str] = field(default_factory=set)
    over: set[str] = field(default_factory=set)

    def playing(self) -> dict[str, int]:
        """Rooms started and not over, with their latest version."""
        return {room: self.latest.get(room, 0) for room in self.started - self.over}

    def unmoved(self, rooms: dict[str, int]) -> dict[str, int]:
        """Those of `rooms` nobody was shown or acknowledged past the version given."""
        return {room: v for room, v in rooms.items() if self.latest.get(room, 0) <= v}

    def hear(self, conn: str, message: m.ServerMessage, request: m.ClientMessage | None) -> None:
        """Record a message `conn` received, and the acknowledgement or start it tells of."""
        at = time.monotonic()
        asked = request.TYPE if request is not None else None
        match message:
            case m.Update():
                self._saw(message.room, message.version, bool(message.state.get("over")))
                self.heard.append(
                    Heard(
                        at,
                        conn,
                        message.TYPE,
                        message.room,
                        message.version,
                        message.move,
                        **clock_shown(message.clock),
                    )
                )
            case m.RoomView() | m.Joined() | m.Watching():
                self.heard.append(self._view(at, conn, message.TYPE, message.room, asked))
            case m.Error():
                room = getattr(request, "room", None)
                self.heard.append(
                    Heard(at, conn, message.TYPE, room, code=message.code, request=asked)
                )
            case m.SeatChanged() | m.SeatSet() | m.Thinking() | m.ChatLine():
                self.heard.append(Heard(at, conn, message.TYPE, message.room, request=asked))
            case _:
                self.heard.append(Heard(at, conn, message.TYPE, request=asked))
        if isinstance(message, m.Ok) and isinstance(request, m.Move):
            self.acks.append(Ack(at, conn, request.room, request.version + 1, request.move))
            self._saw(request.room, request.version + 1, False)
        if isinstance(request, m.Start) and started(message):
            self.started.add(request.room)

    def unreadable(self, conn: str, error: Exception) -> None:
        """Record a frame `conn` received that could not be read."""
        self.heard.append(Heard(time.monotonic(), conn, repr(error)))

    def unanswered(self, conn: str, request: m.ClientMessage) -> None:
        """Record a request that got no answer in time."""
        self.no_answers.append(NoAnswer(time.monotonic(), conn, request.TYPE))

    def write(self, path: Path, rounds: Sequence[Round]) -> None:
        """Everything recorded, and the rounds, as JSON lines in time order, for reading
        after a run (times in seconds since the first message)."""
        entries: list[tuple[float, str, dict[str, Any]]] = []
        for kind, items in (
            ("heard", self.heard),
            ("ack", self.acks),
            ("silence", self.no_answers),
        ):
            entries += [(item.at, kind, dataclasses.asdict(item)) for item in items]
        entries += [(fault.fault_at, "round", fault.facts()) for fault in rounds]
        start = min((at for at, _, _ in entries), default=0.0)
        with path.open("w") as out:
            for at, kind, facts in sorted(entries, key=lambda entry: entry[0]):
                given = {key: value for key, value in facts.items() if value is not None}
                given["at"] = round(at - start, 3)
                out.write(json.dumps({"record": kind, **given}) + "\n")

    def _view(
        self, at: float, conn: str, kind: str, view: dict[str, Any], asked: str | None
    ) -> Heard:
        """A room view as heard, noting how far it shows the room has come."""
        room, version = str(view["room"]), int(view["version"])
        self._saw(room, version, view.get("status") == "finished")
        moves = tuple(str(move) for move in view.get("moves", ()))
        flagged = tuple(str(colour) for colour in view.get("flagged") or ())
        clock = clock_shown(view.get("clock"))
        return Heard(
            at, conn, kind, room, version, moves=moves, request=asked, flagged=flagged, **clock
        )

    def _saw(self, room: str, version: int, over: bool) -> None:
        """Note how far a room is known to have come, and whether its game is over."""
        self.latest[room] = max(version, self.latest.get(room, 0))
        if over:
            self.over.add(room)
