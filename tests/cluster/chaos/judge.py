"""The judgement of a chaos run: everything any client was shown or acknowledged, checked
against each room's view read at the end through a live node.

(a) nothing shown was later replaced: every `update` shown matches the final moves at its
    version; every room view's moves are a prefix of the final moves (rooms are never
    undone here, and a finished game is followed by a fresh room, so a room's history only
    grows); the computers may play on after a final view is read, and what is shown
    after it, past its moves, is left out;
(b) every move acknowledged with `ok` is in the final moves at the version it made, once
    (none lost; no version acknowledged for two moves, no move kept twice);
(c) failover: each room playing at the fault moves again (a move acknowledged or shown)
    within lease + 2 s of it (for Redis killed: of Redis answering again); rooms whose own
    people are connected through a paused or cut-off node are left out of the bound, and a
    room an earlier fault left stuck counts against that fault only;
(d) no person holding a seat is told `not_seated`, and at the end every person's seat shows
    them connected;
(e) `unavailable` errors and requests with no answer are counted;
(f) clocks: every message of one version of a room shows the same time left for each
    seat whose time does not run (the clock kept is the clock shown, whichever node shows
    it); the running seat's time never goes up within a version by more than a lease (what
    a failover gives back, from the lost node's last heartbeat, after a view it made);
    and nobody is flagged, the clocks being far longer than a run.
"""

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.protocol import messages as m

from .record import Ack, Heard, Recorder, Round
from .report import Figures, Report, Violation
from .settings import CALM, KINDS, Fault, Settings


@dataclass(frozen=True)
class FinalView:
    """A room's view at the end; `moves` None if it could not be read (`error` says why)."""

    room: str
    moves: tuple[str, ...] | None
    seats: tuple[dict[str, Any], ...] = ()
    error: str = ""
    read_at: float = math.inf
    """When the view came: the room's computers may move on after it, and what is shown
    later past its moves is not for it to judge."""


@dataclass(frozen=True)
class SeatCheck:
    """A person who should be in their seat at the end."""

    room: str
    colour: str
    name: str
    connected: bool
    """Whether the person's own connection is open."""


def kept_at(kept: Sequence[str], version: int) -> str | None:
    """The move kept at `version`; None if the room never came that far."""
    return kept[version - 1] if version <= len(kept) else None


def as_kept(kept: Sequence[str], version: int) -> str:
    """The move kept at `version`, for a message: quoted, or `nothing`."""
    move = kept_at(kept, version)
    return repr(move) if move is not None else "nothing"


def first_difference(shown: Sequence[str], kept: Sequence[str]) -> int | None:
    """The index of the first move shown that is not the one kept there, if any."""
    for index, move in enumerate(shown):
        if kept_at(kept, index + 1) != move:
            return index
    return None


class Judge:
    """Checks a run's record against the rooms' final views."""

    def __init__(
        self,
        settings: Settings,
        recorder: Recorder,
        rounds: list[Round],
        finals: dict[str, FinalView],
    ) -> None:
        self.settings = settings
        self.recorder = recorder
        self.rounds = rounds
        self.finals = finals
        self.figures: dict[str, Figures] = {kind: Figures() for kind in (*KINDS, CALM)}
        self.violations: list[Violation] = []
        self.start = min((h.at for h in recorder.heard), default=0.0)

    def bucket(self, at: float) -> str:
        """The fault kind whose window holds `at`, else CALM."""
        return next((r.kind for r in self.rounds if r.holds(at)), CALM)

    def when(self, at: float) -> str:
        """A moment, in seconds since the run's first message, and the round it fell in."""
        within = next((r.title for r in self.rounds if r.holds(at)), "between faults")
        return f"{at - self.start:.2f} s, {within}"

    def flag(self, check: str, bucket: str, text: str) -> None:
        """A violation of `check`, under the fault kind `bucket` (or CALM)."""
        self.violations.append(Violation(check, bucket, text))

    def note(self, check: str, at: float, text: str) -> None:
        """A violation at a moment, counted (in the figure of the check's name) under the
        fault kind of that moment."""
        bucket = self.bucket(at)
        self.figures[bucket].count(check)
        self.flag(check, bucket, f"{text} (at {self.when(at)})")

    def kept(self, room: str) -> tuple[str, ...] | None:
        """The moves the cluster kept in `room`, if its view could be read."""
        final = self.finals.get(room)
        return final.moves if final is not None else None

    def check_unreadable(self) -> None:
        """Rooms whose final view could not be read: nothing in them can be checked."""
        for final in self.finals.values():
            if final.moves is None:
                text = f"room {final.room}: not read at the end ({final.error})"
                self.flag("unreadable", CALM, text)

    def check_shown(self) -> None:
        """(a) every update and room view shown agrees with the final moves."""
        first: dict[tuple[str, int, str], list[Heard]] = defaultdict(list)
        for heard in self.recorder.heard:
            final = self.finals.get(heard.room) if heard.room is not None else None
            if final is None or final.moves is None or heard.version is None:
                continue
            kept, later = final.moves, heard.at > final.read_at
            if heard.move is not None and heard.kind == m.Update.TYPE:
                if later and heard.version > len(kept):
                    continue
                if kept_at(kept, heard.version) != heard.move:
                    first[(heard.room or "", heard.version, heard.move)].append(heard)
            elif heard.moves is not None:
                shown = heard.moves[: len(kept)] if later else heard.moves
                differ = first_difference(shown, kept)
                if differ is not None:
                    first[(heard.room or "", differ + 1, heard.moves[differ])].append(heard)
        for (room, version, move), seen in first.items():
            conns = sorted({heard.conn for heard in seen})
            self.note(
                "replaced",
                seen[0].at,
                f"room {room} version {version}: shown {move!r} ({seen[0].kind}) to"
                f" {len(conns)} connection(s) {', '.join(conns[:4])};"
                f" kept {as_kept(self.kept(room) or (), version)}",
            )

    def check_acked(self) -> None:
        """(b) every acknowledged move is kept at its version, and kept once. A move sent
        again and acknowledged again (at the same version) is one move; two moves
        acknowledged for one version, or a move kept twice (in the placement games played
        here a square is played once a game), are doubled."""
        acked: dict[tuple[str, int, str], Ack] = {}
        for ack in self.recorder.acks:
            acked.setdefault((ack.room, ack.version, ack.move), ack)
        by_version: dict[tuple[str, int], list[Ack]] = defaultdict(list)
        for ack in acked.values():
            self.figures[self.bucket(ack.at)].acked += 1
            by_version[(ack.room, ack.version)].append(ack)
        for (room, version), acks in sorted(by_version.items()):
            kept = self.kept(room)
            if kept is None:
                continue
            for ack in acks[1:]:
                self._wrong(
                    "doubled",
                    ack,
                    f"{ack.move!r} acknowledged to {ack.conn} after {acks[0].move!r} was"
                    f" acknowledged to {acks[0].conn}",
                )
            for ack in acks:
                if kept_at(kept, version) != ack.move:
                    instead = as_kept(kept, version)
                    self._wrong(
                        "lost", ack, f"{ack.move!r} acknowledged to {ack.conn}; kept {instead}"
                    )
                elif kept.count(ack.move) > 1:
                    self._wrong("doubled", ack, f"{ack.move!r} kept {kept.count(ack.move)} times")

    def _wrong(self, check: str, ack: Ack, what: str) -> None:
        """Count and name an acknowledged move that was not kept as acknowledged."""
        self.note(check, ack.at, f"room {ack.room} version {ack.version}: {what}")

    def check_failover(self) -> None:
        """(c) every room playing at a fault moved again within the bound."""
        moved = self._moves_by_room()
        bound = self.settings.bound
        for fault in self.rounds:
            figures = self.figures[fault.kind]
            figures.rounds += 1
            for room, version in sorted(fault.affected.items()):
                at = next(
                    (at for at, v in moved[room] if at >= fault.from_at and v > version), None
                )
                if room in fault.excluded:
                    self._check_back(fault, room, at)
                    continue
                took = at - fault.from_at if at is not None else math.inf
                figures.failover.append(took)
                if took > bound:
                    figures.not_serving += 1
                    since = "Redis answered" if fault.kind == Fault.REDIS_KILL else "the fault"
                    after = f"{took:.2f} s" if at is not None else "no move seen"
                    self.flag(
                        "not_serving",
                        fault.kind,
                        f"{fault.title}: room {room} (at version {version}) moved again"
                        f" {after} after {since} (bound {bound:g} s)",
                    )

    def _check_back(self, fault: Round, room: str, at: float | None) -> None:
        """A room left out of the bound must still move again before its round ends
        (the bound and `settle` seconds after its node was back)."""
        if at is None or at > fault.end_at:
            waited = fault.end_at - fault.cleared_at
            self.flag(
                "stuck",
                fault.kind,
                f"{fault.title}: room {room}, with people on {fault.target}, did not"
                f" move again within {waited:.1f} s of {fault.target} being back",
            )

    def _moves_by_room(self) -> dict[str, list[tuple[float, int]]]:
        """When each room was seen at each version, by acknowledgements and by messages."""
        moved: dict[str, list[tuple[float, int]]] = defaultdict(list)
        for ack in self.recorder.acks:
            moved[ack.room].append((ack.at, ack.version))
        for heard in self.recorder.heard:
            if heard.room is not None and heard.version is not None:
                moved[heard.room].append((heard.at, heard.version))
        for seen in moved.values():
            seen.sort()
        return moved

    def check_errors(self) -> None:
        """(d) no `not_seated` to a seated person; (e) `unavailable` and no answers."""
        for heard in self.recorder.heard:
            if heard.code is None:
                continue
            figures = self.figures[self.bucket(heard.at)]
            figures.errors[heard.code] += 1
            if heard.code == "unavailable":
                figures.unavailable += 1
            if heard.code == "not_seated" and heard.conn in self.recorder.people:
                self.note(
                    "not_seated",
                    heard.at,
                    f"room {heard.room}: {heard.conn}, who holds a seat, was told not_seated"
                    f" for {heard.request}",
                )
        for silence in self.recorder.no_answers:
            self.figures[self.bucket(silence.at)].no_answer += 1

    def check_clocks(self) -> None:
        """(f) the clocks shown agree with each other, run down, and flag nobody."""
        by_version: dict[tuple[str, int], list[Heard]] = defaultdict(list)
        for heard in self.recorder.heard:
            if heard.flagged:
                self.note("clock", heard.at, f"room {heard.room}: {heard.flagged} flagged")
            if heard.left is not None and heard.room is not None and heard.version is not None:
                by_version[(heard.room, heard.version)].append(heard)
        allowed = self.settings.lease * 1000
        for (room, version), seen in sorted(by_version.items()):
            first = seen[0]
            for later in seen[1:]:
                assert first.left is not None and later.left is not None
                was, now = dict(first.left), dict(later.left)
                for seat, left in now.items():
                    running = seat in (first.running, later.running)
                    if left == was.get(seat) or (running and left <= was[seat] + allowed):
                        continue
                    self.note(
                        "clock",
                        later.at,
                        f"room {room} version {version}: {seat} shown {was.get(seat)} ms left"
                        f" to {first.conn} ({first.kind}), then {left} ms to {later.conn}"
                        f" ({later.kind}){' while running' if running else ''}",
                    )

    def check_seats(self, seats: list[SeatCheck]) -> None:
        """(d) every person's seat shows them connected at the end."""
        for seat in seats:
            final = self.finals.get(seat.room)
            if final is None or final.moves is None:
                continue
            holder = next(
                (s.get("holder") for s in final.seats if s.get("colour") == seat.colour), None
            )
            if isinstance(holder, dict) and (
                holder.get("kind") == "human"
                and holder.get("name") == seat.name
                and holder.get("connected") is True
            ):
                continue
            own = "open" if seat.connected else "closed (not back)"
            self.flag(
                "seat",
                CALM,
                f"room {seat.room} seat {seat.colour} ({seat.name}, connection {own}):"
                f" shows {holder}",
            )


def judge(
    settings: Settings,
    recorder: Recorder,
    rounds: list[Round],
    finals: dict[str, FinalView],
    seats: list[SeatCheck],
) -> Report:
    """Check everything recorded against the final views; the report."""
    judging = Judge(settings, recorder, rounds, finals)
    judging.check_unreadable()
    judging.check_shown()
    judging.check_acked()
    judging.check_failover()
    judging.check_errors()
    judging.check_seats(seats)
    judging.check_clocks()
    return Report(settings, judging.figures, judging.violations, rounds)
