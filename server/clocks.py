"""A room's clock (protocol.md 2.12): each seat's time, charged to the seat to move from
the moment its turn began, worked out from timestamps when asked (nothing ticks).

Times are Unix milliseconds on the lobby's wall clock, so that a clock outlives its
server: a restored room is given back the time its server was away (`paused`).

- `live` (Fischer): each seat starts with the base time and gains the increment after each
  of its moves. The network's lag on a move is forgiven from a small budget per seat, as
  lichess does, and a seat is flagged only a short grace after its time reaches zero.
- `days`: each move within so many days; time left unused is banked, up to a cap, for
  the seat's later moves.
"""

from dataclasses import dataclass, field
from typing import Any, Final

from parlour.protocol.timecontrol import DAY_MS, DAYS, LIVE, TimeControl, read_time_control

GRACE_MS: Final = 1000
"""How long past zero a live clock runs before its seat is flagged: the last move's way
over the network."""
LAG_BUDGET_MS: Final = 3000
"""The most network lag a seat has forgiven, all told, before it is refilled."""
LAG_REFILL_MS: Final = 200
"""Lag forgiveness a seat earns back with each of its moves."""
MAX_LAG_MS: Final = 1000
"""The most lag forgiven on one move."""
FIRST_MOVE_MS: Final = {LIVE: 30_000, DAYS: DAY_MS}
"""How long a person has for the first move of their own in a game, before the game is
aborted for them: nothing was played that could be rated."""
MAX_PAUSE_GIVEN_MS: Final = 7 * DAY_MS
"""The most time given back for one pause of the server (a restart, a failover)."""


@dataclass
class Clock:
    """The time each seat of a room has left, and whose time runs."""

    control: TimeControl
    remaining_ms: list[int]
    """Each seat's time as it was when its clock last stopped (or the game began)."""
    lag_budget_ms: list[int]
    running: int | None = None
    """The seat whose time runs, if any: the seat to move, while it is timed."""
    since_ms: int = 0
    """When the running seat's time began to run."""
    untimed: set[int] = field(default_factory=set)
    """Seats no longer timed: flagged in a game of three, the computer plays them on."""
    holds: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Seats whose time stands still from one time to another (Unix milliseconds): their
    player is on vacation (a days clock only)."""

    @classmethod
    def start(cls, control: TimeControl, seats: int, to_move: int | None, now_ms: int) -> "Clock":
        """Every seat's full time, the first to move's running from `now_ms`."""
        full = control.base_s * 1000 if control.kind == LIVE else control.days * DAY_MS
        clock = cls(control, [full] * seats, [LAG_BUDGET_MS] * seats)
        clock.run(to_move, now_ms)
        return clock

    def run(self, seat: int | None, now_ms: int) -> None:
        """`seat`'s time runs from `now_ms` (no seat's for None, or an untimed seat)."""
        self.running = None if seat is None or seat in self.untimed else seat
        self.since_ms = now_ms

    def left_ms(self, seat: int, now_ms: int) -> int:
        """The time `seat` has left at `now_ms` (below zero once run out)."""
        left = self.remaining_ms[seat]
        if seat == self.running:
            left -= self._charged(seat, now_ms)
        return left

    def _charged(self, seat: int, now_ms: int) -> int:
        """The running time since `since_ms` that counts against `seat`: all but its hold."""
        spent = max(0, now_ms - self.since_ms)
        hold = self.holds.get(seat)
        if hold is not None:
            spent -= max(0, min(now_ms, hold[1]) - max(self.since_ms, hold[0]))
        return spent

    def deadline_ms(self) -> int | None:
        """When the running seat is flagged, if it does not move first."""
        if self.running is None:
            return None
        grace = GRACE_MS if self.control.kind == LIVE else 0
        return self._due(self.remaining_ms[self.running] + grace)

    def first_move_due_ms(self) -> int | None:
        """When the running seat's person is late with a first move (FIRST_MOVE_MS), which
        aborts a game not yet played by everyone (protocol.md 2.7)."""
        if self.running is None:
            return None
        return self._due(FIRST_MOVE_MS[self.control.kind])

    def _due(self, allowance_ms: int) -> int:
        """When the running seat has run `allowance_ms` of its time, its holds not counted."""
        assert self.running is not None
        deadline = self.since_ms + allowance_ms
        hold = self.holds.get(self.running)
        if hold is not None and hold[0] < deadline and hold[1] > self.since_ms:
            deadline += hold[1] - max(hold[0], self.since_ms)
        return deadline

    def next_event_ms(self) -> int | None:
        """When the clock next needs looking at: its flag, or the end of the running seat's
        hold (its time runs again, and the room is shown so)."""
        deadline = self.deadline_ms()
        hold = None if self.running is None else self.holds.get(self.running)
        if deadline is None or hold is None or hold[1] <= self.since_ms:
            return deadline
        return min(deadline, hold[1])

    def settle(self, now_ms: int) -> bool:
        """Fold in the holds that ended by `now_ms`; whether the running seat's time runs
        again from one."""
        ran_again = False
        for seat, (start, end) in list(self.holds.items()):
            if end > now_ms:
                continue
            if seat == self.running:
                self.since_ms += max(0, end - max(start, self.since_ms))
                ran_again = start < now_ms
            del self.holds[seat]
        return ran_again

    def hold(self, seat: int, from_ms: int, until_ms: int) -> None:
        """`seat`'s time stands still from `from_ms` to `until_ms` (a vacation); the time
        it ran before, it keeps spent."""
        if seat == self.running and from_ms > self.since_ms:
            self.remaining_ms[seat] -= self._charged(seat, from_ms)
            self.since_ms = from_ms
        self.holds[seat] = (from_ms, until_ms)

    def out_of_time(self, now_ms: int) -> int | None:
        """The running seat, if its time (and grace) ran out by `now_ms`."""
        deadline = self.deadline_ms()
        return self.running if deadline is not None and now_ms >= deadline else None

    def moved(self, seat: int, now_ms: int, lag_ms: int, to_move: int | None) -> None:
        """`seat` moved at `now_ms`, `lag_ms` of its move's time spent on the way: charge
        it, then run the next seat's time."""
        if seat == self.running:
            elapsed = self._charged(seat, now_ms)
            if self.control.kind == LIVE:
                self._charge_live(seat, elapsed, lag_ms)
            elif self.control.kind == DAYS:
                unused = max(0, self.remaining_ms[seat] - elapsed)
                bank = min(unused, self.control.bank_days * DAY_MS)
                self.remaining_ms[seat] = self.control.days * DAY_MS + bank
        if seat in self.holds and self.holds[seat][1] <= now_ms:
            del self.holds[seat]
        self.run(to_move, now_ms)

    def _charge_live(self, seat: int, elapsed: int, lag_ms: int) -> None:
        budget = self.lag_budget_ms[seat]
        forgiven = min(max(0, lag_ms), MAX_LAG_MS, budget, elapsed)
        self.lag_budget_ms[seat] = min(LAG_BUDGET_MS, budget - forgiven + LAG_REFILL_MS)
        left = max(0, self.remaining_ms[seat] - (elapsed - forgiven))
        self.remaining_ms[seat] = left + self.control.increment_s * 1000

    def stop(self, now_ms: int) -> None:
        """No seat's time runs (the game is over): the running seat is charged till now."""
        if self.running is not None:
            self.remaining_ms[self.running] = max(0, self.left_ms(self.running, now_ms))
        self.run(None, now_ms)

    def flag(self, seat: int, now_ms: int) -> None:
        """`seat` ran out of time: its time stays at zero and is not timed again."""
        self.remaining_ms[seat] = 0
        self.untimed.add(seat)
        if self.running == seat:
            self.run(None, now_ms)

    def retire(self, seat: int, now_ms: int) -> None:
        """`seat` left the game (it resigned): its time stays as it is, not timed again."""
        if self.running == seat:
            self.remaining_ms[seat] = max(0, self.left_ms(seat, now_ms))
            self.run(None, now_ms)
        self.untimed.add(seat)

    def paused(self, since_ms: int, now_ms: int) -> int:
        """The server was away from `since_ms` to `now_ms`: that time is given back to the
        running seat (at most `MAX_PAUSE_GIVEN_MS`). The time given back."""
        if self.running is None or now_ms <= since_ms:
            return 0
        given = min(now_ms - max(since_ms, self.since_ms), MAX_PAUSE_GIVEN_MS)
        given = max(0, given)
        self.since_ms += given
        return given

    def describe(self, colours: tuple[str, ...], now_ms: int) -> dict[str, Any]:
        """The clock as a room view shows it (protocol.md 2.12): each seat's time left at
        `now_ms`, the server's clock reading then; a seat on vacation is not running."""
        held = {
            colours[seat]: until
            for seat, (_, until) in sorted(self.holds.items())
            if until > now_ms
        }
        running = self.running
        if running is not None and colours[running] in held and self.holds[running][0] <= now_ms:
            running = None
        shown: dict[str, Any] = {
            "control": self.control.describe(),
            "left_ms": {
                colour: max(0, self.left_ms(seat, now_ms)) for seat, colour in enumerate(colours)
            },
            "running": None if running is None else colours[running],
            "at": now_ms,
        }
        if held:
            shown["held_until"] = held
        return shown

    @classmethod
    def from_record(cls, value: dict[str, Any]) -> "Clock":
        """The clock a room's record kept (`record`); KeyError, TypeError or ValueError
        if it is not one."""
        return cls(
            read_time_control("clock.control", value["control"]),
            [int(ms) for ms in value["remaining_ms"]],
            [int(ms) for ms in value["lag_budget_ms"]],
            None if value["running"] is None else int(value["running"]),
            int(value["since_ms"]),
            {int(seat) for seat in value.get("untimed", [])},
            {int(seat): (int(start), int(end)) for seat, start, end in value.get("holds", [])},
        )

    def record(self) -> dict[str, Any]:
        """What a room's record keeps of the clock."""
        return {
            "control": self.control.describe(),
            "remaining_ms": list(self.remaining_ms),
            "lag_budget_ms": list(self.lag_budget_ms),
            "running": self.running,
            "since_ms": self.since_ms,
            "untimed": sorted(self.untimed),
            "holds": [[seat, start, end] for seat, (start, end) in sorted(self.holds.items())],
        }


def left_in_record(record: dict[str, Any] | None, now_ms: int) -> int | None:
    """The time the running seat has left at `now_ms`, from a room record's clock
    (`Clock.record`); None without a clock or a running seat."""
    clock = None if record is None else Clock.from_record(record)
    if clock is None or clock.running is None:
        return None
    return max(0, clock.left_ms(clock.running, now_ms))
