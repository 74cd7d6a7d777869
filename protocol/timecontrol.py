"""A room's time control (protocol.md 2.12), as `create_room` asks for it and rooms show it.

`none`: no clock. `live`: Fischer, a base time and an increment per move for each seat.
`days`: each move within so many days, unused time banked up to a cap.
"""

import re
from dataclasses import dataclass
from typing import Any, Final

from .errors import bad_field

NONE: Final = "none"
LIVE: Final = "live"
DAYS: Final = "days"
KINDS: Final = (NONE, LIVE, DAYS)

MIN_BASE_S: Final = 15
MAX_BASE_S: Final = 3 * 60 * 60
MAX_INCREMENT_S: Final = 180
MIN_DAYS: Final = 1
MAX_DAYS: Final = 14
MAX_BANK_DAYS: Final = 28
DAY_MS: Final = 24 * 60 * 60 * 1000


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time each seat has: one of `KINDS` and its numbers."""

    kind: str = NONE
    base_s: int = 0
    """`live`: each seat's time at the start, in seconds."""
    increment_s: int = 0
    """`live`: seconds added to a seat's time after each of its moves."""
    days: int = 0
    """`days`: the days each move must come within."""
    bank_days: int = 0
    """`days`: the most unused time a seat carries from move to move, in days (0: none)."""

    @property
    def clocked(self) -> bool:
        return self.kind != NONE

    @property
    def speed(self) -> str:
        """The kind of game for ratings: `none`, `live` or `days`."""
        return self.kind

    def describe(self) -> dict[str, Any]:
        """The wire map (protocol.md 2.12)."""
        if self.kind == LIVE:
            return {"kind": LIVE, "base_s": self.base_s, "increment_s": self.increment_s}
        if self.kind == DAYS:
            return {"kind": DAYS, "days": self.days, "bank_days": self.bank_days}
        return {"kind": NONE}

    def label(self) -> str:
        """As players name it: `5+3` (minutes and seconds), `3 days a move`, `no clock`."""
        if self.kind == LIVE:
            minutes = self.base_s / 60
            base = f"{minutes:g}" if self.base_s % 30 == 0 else f"{self.base_s}s"
            return f"{base}+{self.increment_s}"
        if self.kind == DAYS:
            days = f"{self.days} day{'s' if self.days != 1 else ''} a move"
            return f"{days}, bank {self.bank_days}" if self.bank_days else days
        return "no clock"


def read_time_control(name: str, value: object) -> TimeControl:
    """A time control from its wire map; `bad_field` naming what is wrong."""
    if not isinstance(value, dict):
        raise bad_field(name, f"'{name}' must be a map with a 'kind'")
    kind = value.get("kind")
    allowed = {NONE: {"kind"}, LIVE: {"kind", "base_s", "increment_s"}}
    allowed[DAYS] = {"kind", "days", "bank_days"}
    if kind not in allowed:
        raise bad_field(name, f"'{name}.kind' must be one of {', '.join(KINDS)}")
    extra = sorted(set(value) - allowed[str(kind)])
    if extra:
        raise bad_field(name, f"'{name}' of kind {kind} has no field {extra[0]!r}")
    if kind == LIVE:
        base = _integer(name, value, "base_s", (MIN_BASE_S, MAX_BASE_S), None)
        increment = _integer(name, value, "increment_s", (0, MAX_INCREMENT_S), 0)
        return TimeControl(LIVE, base_s=base, increment_s=increment)
    if kind == DAYS:
        days = _integer(name, value, "days", (MIN_DAYS, MAX_DAYS), None)
        bank = _integer(name, value, "bank_days", (0, MAX_BANK_DAYS), 0)
        return TimeControl(DAYS, days=days, bank_days=bank)
    return TimeControl()


_LIVE = re.compile(r"(\d+(?:\.\d+)?)(s?)\s*\+\s*(\d+)")
_DAYS = re.compile(r"(\d+)\s*d(?:ays?)?(?:\s*\+\s*(\d+)\s*(?:d(?:ays?)?)?)?")

WRITTEN: Final = (
    "M+S for a live clock (minutes and seconds a move: 5+3, 0.5+0, 90s+2), Nd for N days a"
    " move (3d), Nd+B with B days banked (3d+7), or none"
)
"""How a time control is written on a command line, as `read_written` reads it."""


def read_written(text: str) -> TimeControl:
    """A time control as players write it (`WRITTEN`); ValueError, in words, otherwise."""
    written = text.strip().lower()
    if written in {"none", "no", "off", ""}:
        return TimeControl()
    if live := _LIVE.fullmatch(written):
        base, seconds, increment = live.groups()
        base_s = float(base) if seconds else float(base) * 60
        if base_s != int(base_s) or not MIN_BASE_S <= base_s <= MAX_BASE_S:
            raise ValueError(
                f"a live clock's base must be whole seconds from {MIN_BASE_S} s to"
                f" {MAX_BASE_S // 3600} hours, not {text.strip()!r}"
            )
        if int(increment) > MAX_INCREMENT_S:
            raise ValueError(f"the increment must be 0 to {MAX_INCREMENT_S} seconds a move")
        return TimeControl(LIVE, base_s=int(base_s), increment_s=int(increment))
    if days := _DAYS.fullmatch(written):
        count, bank = int(days[1]), int(days[2] or 0)
        if not MIN_DAYS <= count <= MAX_DAYS:
            raise ValueError(f"a move may take {MIN_DAYS} to {MAX_DAYS} days, not {count}")
        if bank > MAX_BANK_DAYS:
            raise ValueError(f"at most {MAX_BANK_DAYS} days may be banked, not {bank}")
        return TimeControl(DAYS, days=count, bank_days=bank)
    raise ValueError(f"{text.strip()!r} is no time control: write {WRITTEN}")


def _integer(
    name: str, value: dict[Any, Any], key: str, bounds: tuple[int, int], default: int | None
) -> int:
    lo, hi = bounds
    item = value.get(key, default)
    if item is None:
        raise bad_field(name, f"'{name}' of kind {value['kind']} needs '{key}'")
    if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
        raise bad_field(name, f"'{name}.{key}' must be an integer from {lo} to {hi}")
    return item
