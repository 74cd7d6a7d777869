"""Perft speed: leaves per second for Othello perft(9) and the start of every other game.

Run: `python benchmarks/perft.py` (after `pip install -e .`). Othello runs perft(9); every
other start is searched one ply deeper at a time until a run takes `--seconds`, since
dealt boards differ widely in how bushy they are. The deepest depth is then timed
`--repeat` times in this one process, each time right after a run of Othello perft(9),
and the fastest of each counts: shared machines change speed from minute to minute, and
pairing keeps the comparison fair.

Columns: `leaves/s` counts the leaves, which the last ply counts without building them;
`made/s` counts the positions actually built (every node above the leaves); `vs othello`
divides the leaf rate by Othello's leaf rate measured alongside it.

Targets (one core): Othello perft(9) under 5 s; Tribolo and Doublolo at no less than half
of Othello's leaves per second; Oubliette from its start at no less than 20,000 positions
per second; Tripppin far above that.
"""

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from parlour.rules import GAMES, State, get_game
from parlour.rules.options import ChoiceOption, OptionValue

MAX_DEPTH = 30
REFERENCE_DEPTH = 9
OTHELLO_PERFT_9 = 3_005_288


@dataclass(frozen=True)
class Case:
    """One perft case: a game, a board number, options and, if fixed, a depth."""

    game: str
    board: int = 0
    options: dict[str, OptionValue] = field(default_factory=dict)
    depth: int | None = None

    @property
    def label(self) -> str:
        return str(self.options.get("board", self.board))


@dataclass(frozen=True)
class Result:
    """What one case measured."""

    depth: int
    leaves: int
    made: int
    """Positions built: the nodes above the leaves."""
    seconds: float


def timed_perft(state: State[Any], depth: int) -> tuple[int, float]:
    """The leaf count and the seconds it took."""
    began = time.perf_counter()
    leaves = state.perft(depth)
    return leaves, time.perf_counter() - began


def deepen(state: State[Any], fixed: int | None, seconds: float) -> list[int]:
    """Leaf counts from depth 0 until a run takes `seconds` (or to the fixed depth)."""
    counts = [1]
    while True:
        depth = len(counts)
        leaves, took = timed_perft(state, depth)
        counts.append(leaves)
        deep_enough = depth >= fixed if fixed else took >= seconds
        if deep_enough or depth >= MAX_DEPTH:
            return counts


def measure(
    case: Case, reference: State[Any], repeat: int, seconds: float
) -> tuple[Result, float]:
    """The case's fastest run and Othello perft(9)'s fastest run, timed alternately."""
    start = get_game(case.game).new(case.options, seed=case.board)
    counts = deepen(start, case.depth, seconds)
    depth = len(counts) - 1
    best = best_reference = float("inf")
    for _ in range(repeat):
        best_reference = min(best_reference, timed_perft(reference, REFERENCE_DEPTH)[1])
        best = min(best, timed_perft(start, depth)[1])
    return Result(depth, counts[depth], sum(counts[1:depth]), best), best_reference


def cpu_model() -> str:
    """The processor's name where the system tells it."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def cases(boards: list[int]) -> list[Case]:
    """Othello's perft(9), each dealt game on `boards`, and each named board."""
    found = [Case("othello", depth=REFERENCE_DEPTH)]
    for name, game in GAMES.items():
        if name == "othello":
            continue
        presets = [
            s for s in game.option_specs if isinstance(s, ChoiceOption) and s.name == "board"
        ]
        if presets:
            found += [Case(name, options={"board": p}) for p in presets[0].choices]
        else:
            found += [Case(name, board) for board in boards]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timings per case (best counts)")
    parser.add_argument("--seconds", type=float, default=1.0, help="deepen until a run takes this")
    parser.add_argument("--boards", type=int, nargs="+", default=[1, 2, 3], help="board numbers")
    parser.add_argument("--games", nargs="+", help="only these games (othello always runs)")
    args = parser.parse_args()

    print(f"python {platform.python_version()} ({sys.implementation.name}), {platform.machine()}")
    print(f"cpu: {cpu_model()}, {os.cpu_count()} cores; one process, one core used")
    print(f"best of {args.repeat} runs per case\n")
    header = f"{'game':<10}{'board':>14}{'depth':>6}{'leaves':>12}{'seconds':>9}"
    print(f"{header}{'leaves/s':>12}{'made/s':>11}  vs othello")
    reference = get_game("othello").new()
    for case in cases(args.boards):
        if args.games and case.game not in {*args.games, "othello"}:
            continue
        result, reference_seconds = measure(case, reference, args.repeat, args.seconds)
        rate = result.leaves / result.seconds
        ratio = rate / (OTHELLO_PERFT_9 / reference_seconds)
        print(
            f"{case.game:<10}{case.label:>14}{result.depth:>6}{result.leaves:>12}"
            f"{result.seconds:>9.2f}{rate:>12,.0f}{result.made / result.seconds:>11,.0f}"
            f"  {ratio:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
