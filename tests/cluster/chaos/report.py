"""What a chaos run came to: figures by fault kind, every violation found, and each goal
met or not, in words and as a table."""

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from .record import Round
from .settings import CALM, Settings

CHECKS: Final = {
    "replaced": "moves shown, then replaced",
    "lost": "acknowledged moves lost",
    "doubled": "moves acknowledged twice",
    "unreadable": "rooms that could not be read at the end",
    "not_serving": "rooms not moving again within the bound after a fault",
    "stuck": "rooms of people on a paused or cut-off node not moving again once it was back",
    "crashed": "nodes that exited though no fault killed them",
    "not_seated": "not_seated told to a person holding a seat",
    "seat": "seats not back at the end",
    "clock": "clocks shown that disagree, go up, or flag someone",
}
"""Every check's name, and what its violations are."""


@dataclass
class Figures:
    """What one kind of fault (or the calm between faults) came to."""

    rounds: int = 0
    acked: int = 0
    replaced: int = 0
    lost: int = 0
    doubled: int = 0
    failover: list[float] = field(default_factory=list)
    """Seconds until each room the bound applies to moved again (inf: never seen)."""
    unavailable: int = 0
    not_seated: int = 0
    no_answer: int = 0
    not_serving: int = 0
    """Rooms that did not move again within the bound."""
    clock: int = 0
    """Clocks shown wrong (check f)."""
    errors: Counter[str] = field(default_factory=Counter)
    """Every error code any connection was sent."""

    def count(self, name: str) -> None:
        """One more of the figure called `name`."""
        setattr(self, name, getattr(self, name) + 1)


@dataclass(frozen=True)
class Violation:
    """One thing a check found wrong, in words."""

    check: str
    """One of CHECKS."""
    bucket: str
    """The fault kind it happened under, or CALM."""
    text: str


@dataclass
class Report:
    """Figures by fault kind and every violation found, in words."""

    settings: Settings
    figures: dict[str, Figures]
    violations: list[Violation]
    rounds: list[Round]

    def problems(self, check: str) -> list[str]:
        """The violations of one check, as lines for an assertion message."""
        return [f"[{v.bucket}] {v.text}" for v in self.violations if v.check == check]

    def total(self, name: str) -> int:
        """A figure added up over every fault kind and the calm."""
        return sum(int(getattr(figures, name)) for figures in self.figures.values())

    def table(self) -> str:
        """The figures as a text table, a row for each fault kind that ran, then calm."""
        head = (
            f"{'fault':<12} {'rounds':>6} {'acked':>6} {'replaced':>8} {'lost':>5}"
            f" {'doubled':>7}  {'failover p50 / p99 / max':>26} {'unavail':>7}"
            f" {'not_seated':>10} {'no answer':>9} {'not serving':>11}"
        )
        lines = [head, "-" * len(head)]
        for kind, figures in self.figures.items():
            if kind != CALM and not figures.rounds:
                continue
            rounds = str(figures.rounds) if kind != CALM else "-"
            lines.append(
                f"{kind:<12} {rounds:>6} {figures.acked:>6} {figures.replaced:>8}"
                f" {figures.lost:>5} {figures.doubled:>7}  {spread(figures.failover):>26}"
                f" {figures.unavailable:>7} {figures.not_seated:>10} {figures.no_answer:>9}"
                f" {figures.not_serving:>11}"
            )
        other = {
            kind: dict(figures.errors) for kind, figures in self.figures.items() if figures.errors
        }
        lines += [f"  errors sent, {kind}: {codes}" for kind, codes in other.items()]
        return "\n".join(lines)

    def described(self, limit: int | None = None) -> str:
        """The table, then each check's violations (at most `limit` of each), in words."""
        parts = [self.table()]
        for check, title in CHECKS.items():
            found = self.problems(check)
            if found:
                shown = found[:limit] if limit is not None else found
                more = len(found) - len(shown)
                parts.append(f"{title}: {len(found)}")
                parts += [f"  {line}" for line in shown]
                parts += [f"  ... and {more} more"] if more else []
        return "\n".join(parts)

    def goals(self) -> list[tuple[str, bool]]:
        """Each goal in words, and whether the run met it."""
        bound = self.settings.bound
        met = [
            ("0 moves shown then replaced", self.total("replaced") == 0),
            ("0 acknowledged moves lost", self.total("lost") == 0),
            ("0 acknowledged moves doubled", self.total("doubled") == 0),
            ("every room read at the end", not self.problems("unreadable")),
            ("every room moving again once its node was back", not self.problems("stuck")),
            ("no node exited by itself", not self.problems("crashed")),
        ]
        for kind, figures in self.figures.items():
            if kind != CALM and figures.rounds:
                p99 = percentile(figures.failover, 0.99)
                met.append((f"{kind}: failover p99 <= {bound:g} s ({seconds(p99)})", p99 <= bound))
        return met


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def seconds(value: float) -> str:
    """Seconds for a table, `never` for a room that never moved."""
    return "never" if math.isinf(value) else f"{value:.2f}"


def spread(values: Sequence[float]) -> str:
    """p50 / p99 / max in seconds, or '-' when nothing was timed."""
    if not values:
        return "-"
    parts = (percentile(values, 0.5), percentile(values, 0.99), max(values))
    return " / ".join(seconds(value) for value in parts) + " s"
