"""Clocks as the terminal shows them (protocol.md 2.12): each seat's time from the last
message that carried a clock, the running seat's counted down from when that message came,
and the time controls the New room dialog asks for, read from what a person typed.

Pure: a clock map, the local time it came at and the local time now in, words out; the
room screen asks `next_change` when to draw again.
"""

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from decimal import Decimal
from typing import Any, Final, TypeGuard

from parlour.protocol import ProtocolError
from parlour.protocol.timecontrol import (
    DAY_MS,
    DAYS,
    LIVE,
    MAX_BANK_DAYS,
    MAX_BASE_S,
    MAX_DAYS,
    MAX_INCREMENT_S,
    MIN_BASE_S,
    MIN_DAYS,
    NONE,
    TimeControl,
    read_time_control,
)

SECOND_MS: Final = 1000
MINUTE_MS: Final = 60 * SECOND_MS
HOUR_MS: Final = 60 * MINUTE_MS
TENTHS_BELOW_MS: Final = 10 * SECOND_MS
"""A live clock shows tenths of a second below this."""
LOW_MS: Final = 10 * SECOND_MS
LOW_SHARE: Final = 10
"""Time is low under `LOW_MS` (a live clock), or under a tenth of the seat's starting time."""
OUT_OF_TIME: Final = "out of time"
ROUNDING_MS: Final = 1e-6
"""Seconds added up in floating point fall a hair short of a whole millisecond: this much
counts it whole."""
LIVE_PRESETS: Final = ((1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 0))
"""The live controls people play most, as (minutes, increment seconds)."""
WEEKDAYS: Final = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS: Final = (
    *("Jan", "Feb", "Mar", "Apr", "May", "Jun"),
    *("Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
)
"""English names whatever the machine's locale, as the rest of the client speaks."""


def date_words(at_s: float, *, since_s: float | None = None, zone: tzinfo | None = None) -> str:
    """A moment as a person reads it, in local time (or `zone`): `Thu 16 Jul 15:04`, with the
    year where it is not the year of `since_s` (or where that is not given)."""
    when = datetime.fromtimestamp(at_s).astimezone(zone)
    since = None if since_s is None else datetime.fromtimestamp(since_s).astimezone(zone)
    year = "" if since is not None and since.year == when.year else f" {when.year}"
    day = f"{WEEKDAYS[when.weekday()]} {when.day} {MONTHS[when.month - 1]}{year}"
    return f"{day} {when.hour:02d}:{when.minute:02d}"


def vacation_text(until_ms: int, since_ms: int) -> str:
    """A seat whose clock stands still while its player is on vacation (protocol.md 2.12)."""
    return f"on vacation until {date_words(until_ms / SECOND_MS, since_s=since_ms / SECOND_MS)}"


def live_text(ms: int) -> str:
    """A live clock's time: `4:59`, `1:02:03` above an hour, `0:09.3` below ten seconds."""
    ms = max(0, ms)
    if ms < TENTHS_BELOW_MS:
        return f"0:{ms // SECOND_MS:02d}.{ms % SECOND_MS // 100}"
    seconds = ms // SECOND_MS
    hours, minutes, seconds = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def span_text(ms: int) -> str:
    """A longer time, as a days-per-move clock shows it: `2d 03h`, `5h 12m`, `4:59`."""
    ms = max(0, ms)
    if ms >= DAY_MS:
        return f"{ms // DAY_MS}d {ms % DAY_MS // HOUR_MS:02d}h"
    if ms >= HOUR_MS:
        return f"{ms // HOUR_MS}h {ms % HOUR_MS // MINUTE_MS:02d}m"
    return f"{ms // MINUTE_MS}:{ms % MINUTE_MS // SECOND_MS:02d}"


def clock_text(ms: int, control: TimeControl) -> str:
    """A seat's time as its time control shows it."""
    return live_text(ms) if control.kind == LIVE else span_text(ms)


def step_ms(ms: int, control: TimeControl) -> int:
    """The smallest change of time `clock_text` shows at `ms`."""
    if control.kind == LIVE:
        return 100 if ms < TENTHS_BELOW_MS else SECOND_MS
    if ms >= DAY_MS:
        return HOUR_MS
    return MINUTE_MS if ms >= HOUR_MS else SECOND_MS


def full_ms(control: TimeControl) -> int:
    """A seat's time at the start."""
    return control.base_s * SECOND_MS if control.kind == LIVE else control.days * DAY_MS


def is_low(ms: int, control: TimeControl) -> bool:
    """Whether a seat's time is low: under ten seconds of a live clock, or under a tenth of
    the time it started with."""
    if control.kind == LIVE and ms < LOW_MS:
        return True
    return ms * LOW_SHARE < full_ms(control)


def control_label(value: object) -> str:
    """A room's time control as players name it (`5+3`, `3 days a move`, `no clock`), from
    its wire map; empty for one this client cannot read (or a server that sends none)."""
    if value is None:
        return ""
    try:
        return read_time_control("time_control", value).label()
    except ProtocolError:
        return ""


@dataclass(frozen=True, slots=True)
class ClockFace:
    """What a seat's clock shows: its text, and how to draw it."""

    text: str
    low: bool
    """Low time, or out of it: drawn in the warning colour."""
    running: bool
    out: bool
    held: bool = False
    """The seat's player is on vacation: its time stands still till a date, not a figure."""


@dataclass(frozen=True, slots=True)
class Clocks:
    """A room's clocks as the last message carrying them said, and when it came (local
    monotonic seconds, the same clock as every `now` given)."""

    control: TimeControl
    left_ms: Mapping[str, int]
    running: str | None
    at_ms: int
    """The server's reading when the message was made (Unix milliseconds)."""
    received: float
    held_until: Mapping[str, int] = field(default_factory=dict)
    """The seats on vacation, and when each runs again (Unix milliseconds)."""

    @classmethod
    def read(cls, clock: object, received: float) -> "Clocks | None":
        """The clocks of a room view's or update's `clock`; None where there is none, or it
        is not one (protocol.md 2.12)."""
        if not isinstance(clock, dict):
            return None
        try:
            control = read_time_control("clock.control", clock.get("control"))
        except ProtocolError:
            return None
        left, running, at = clock.get("left_ms"), clock.get("running"), clock.get("at")
        if not isinstance(left, dict) or not all(_is_int(ms) for ms in left.values()):
            return None
        if not (running is None or running in left) or not _is_int(at):
            return None
        seats = {str(colour): int(ms) for colour, ms in left.items()}
        held = clock.get("held_until") or {}
        if not isinstance(held, dict) or not all(_is_int(ms) for ms in held.values()):
            return None
        until = {str(colour): int(ms) for colour, ms in held.items()}
        running_seat = None if running is None else str(running)
        return cls(control, seats, running_seat, at, received, held_until=until)

    def left(self, colour: str, now: float) -> int:
        """`colour`'s time at `now`: the running seat's less the time since the message
        came; none below zero."""
        left = self.left_ms.get(colour, 0)
        if colour == self.running:
            left -= math.floor((now - self.received) * SECOND_MS + ROUNDING_MS)
        return max(0, left)

    def face(self, colour: str, now: float, *, out: bool = False) -> ClockFace | None:
        """What `colour`'s clock shows at `now` (`out`: the seat ran out of time); None for a
        seat without a clock, or a room whose time control has none."""
        if colour not in self.left_ms or self.control.kind == NONE:
            return None
        if out:
            return ClockFace(OUT_OF_TIME, low=True, running=False, out=True)
        held = self.held_until.get(colour)
        if held is not None and colour != self.running:
            text = vacation_text(held, self.at_ms)
            return ClockFace(text, low=False, running=False, out=False, held=True)
        left = self.left(colour, now)
        running = colour == self.running
        text = clock_text(left, self.control)
        return ClockFace(text, low=is_low(left, self.control), running=running, out=False)

    def next_change(self, now: float, *, most: float = 1.0) -> float | None:
        """Seconds from `now` until the running clock's text next changes, at most `most`;
        None when no clock runs, or the running one shows zero."""
        if self.running is None or self.control.kind == NONE:
            return None
        left = self.left(self.running, now)
        step = step_ms(left, self.control)
        if left < step:
            return None
        return min(most, (left - left // step * step + 1) / SECOND_MS)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class TimeControlError(ValueError):
    """What a person typed for a time control is not one: the message says which field and
    what it takes."""


NUMBER = re.compile(r"\d{1,6}(\.\d{1,6})?")
WHOLE = re.compile(r"\d{1,6}")


def typed_time_control(kind: str, typed: Mapping[str, str]) -> dict[str, Any]:
    """The `time_control` map of `create_room` from what was typed in the New room dialog:
    `minutes` and `increment` for a live clock, `days` and `bank` for days per move.
    TimeControlError names the field that is not a number in range."""
    if kind == NONE:
        return {"kind": NONE}
    if kind == LIVE:
        base_s = _minutes(typed.get("minutes", ""))
        low, high = 0, MAX_INCREMENT_S
        increment = _whole(typed.get("increment", ""), "Seconds added a move", low, high)
        return {"kind": LIVE, "base_s": base_s, "increment_s": increment}
    if kind == DAYS:
        days = _whole(typed.get("days", ""), "Days a move", MIN_DAYS, MAX_DAYS)
        bank = _whole(typed.get("bank", ""), "Days in the bank", 0, MAX_BANK_DAYS)
        return {"kind": DAYS, "days": days, "bank_days": bank}
    raise TimeControlError(f"There is no clock {kind!r}: no clock, live or days per move.")


def _minutes(text: str) -> int:
    """Each seat's time in seconds, from minutes typed (`5`, `1.5`, `0.25`)."""
    typed = text.strip()
    least, most = Decimal(MIN_BASE_S) / 60, MAX_BASE_S // 60
    wants = f"Minutes each must be a number from {least} to {most} (5, or 1.5)"
    if not NUMBER.fullmatch(typed):
        raise TimeControlError(f"{wants}; {_not_one(typed)}.")
    seconds = Decimal(typed) * 60
    if seconds != seconds.to_integral_value():
        raise TimeControlError(f"{wants}, in whole seconds; {typed} minutes is {seconds} s.")
    if not MIN_BASE_S <= seconds <= MAX_BASE_S:
        raise TimeControlError(f"{wants}; {typed} is not.")
    return int(seconds)


def _whole(text: str, field: str, least: int, most: int) -> int:
    typed = text.strip()
    wants = f"{field} must be a whole number from {least} to {most}"
    if not WHOLE.fullmatch(typed):
        raise TimeControlError(f"{wants}; {_not_one(typed)}.")
    if not least <= int(typed) <= most:
        raise TimeControlError(f"{wants}; {typed} is not.")
    return int(typed)


def _not_one(typed: str) -> str:
    """Why what was typed is not a number: it is something else, or nothing."""
    return f"“{typed}” is not one" if typed else "nothing was typed"
