"""Vacations (protocol.md 2.12): days a player's days-per-move clocks stand still, up to
`VACATION_DAYS` a calendar year, counted as taken and given back, for whole days not
begun, when a vacation is ended early. Pure: both stores (SQLite, Redis) keep a player's
`Vacation` and ask `take` what a request makes of it."""

import time
from dataclasses import dataclass
from typing import Any, Final

VACATION_DAYS: Final = 30
"""Vacation days a player has a calendar year (UTC)."""
DAY: Final = 24 * 60 * 60


@dataclass(frozen=True, slots=True)
class Vacation:
    """A player's vacation as kept: the year its days count in, the days used of it, and
    the current (or last) vacation's start and end, in Unix seconds."""

    year: int
    used: int = 0
    start: float = 0.0
    until: float = 0.0

    def describe(self, now: float) -> dict[str, Any]:
        """The `vacation` answer: when it ends if one is on, and the days left this year."""
        on = self.until > now
        return {
            "until": int(self.until) if on else None,
            "days_left": VACATION_DAYS - (self.used if self.year == year_of(now) else 0),
        }


def year_of(at: float) -> int:
    return time.gmtime(at).tm_year


def take(before: Vacation | None, days: int | None, now: float) -> Vacation | None:
    """The vacation after a request for `days` days from `now` (0: end the one on; None:
    only look); None if the year has not that many days left. A vacation on is ended
    first, its whole days not begun given back."""
    year = year_of(now)
    if days is None:
        return before if before is not None else Vacation(year)
    used = before.used if before is not None and before.year == year else 0
    if before is not None and before.until > now:
        used = max(0, used - int((before.until - now) // DAY))
    if days == 0:
        start = before.start if before is not None and before.until > now else now
        return Vacation(year, used, start, now)
    if used + days > VACATION_DAYS:
        return None
    return Vacation(year, used + days, now, now + days * DAY)
