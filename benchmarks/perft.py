"""Perft speed: leaves per second for Othello perft(9) and dealt boards of the other games.

Run: `python benchmarks/perft.py` (after `pip install -e .`). Othello runs perft(9); every
other board is searched one ply deeper at a time until a run takes `--seconds`, since dealt
boards differ widely in how bushy they are. The deepest depth is timed `--repeat` times in
this one process and the fastest run counts; the last column compares each rate with
Othello's. Targets (one core): Othello perft(9) under 5 s;
Tribolo and Doublolo at no less than half of Othello's leaves per second.
"""

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass
from typing import Any

from parlour.rules import State, get_game

MAX_DEPTH = 20


@dataclass(frozen=True)
class Case:
    """One perft case: a game, a board number and, if fixed, a depth."""

    game: str
    board: int
    depth: int | None = None


def timed_perft(state: State[Any], depth: int) -> tuple[int, float]:
    """The leaf count and the seconds it took."""
    began = time.perf_counter()
    leaves = state.perft(depth)
    return leaves, time.perf_counter() - began


def measure(case: Case, repeat: int, seconds: float) -> tuple[int, int, float]:
    """The depth, the leaf count and the fastest of `repeat` timings at that depth."""
    start = get_game(case.game).new(seed=case.board)
    depth = case.depth or 1
    leaves, best = timed_perft(start, depth)
    while case.depth is None and best < seconds and depth < MAX_DEPTH:
        depth += 1
        leaves, best = timed_perft(start, depth)
    for _ in range(repeat - 1):
        best = min(best, timed_perft(start, depth)[1])
    return depth, leaves, best


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timings per case (best counts)")
    parser.add_argument("--seconds", type=float, default=1.0, help="deepen until a run takes this")
    parser.add_argument("--boards", type=int, nargs="+", default=[1, 2, 3], help="board numbers")
    args = parser.parse_args()

    cases = [Case("othello", 0, 9)]
    for game in ("tribolo", "doublolo", "numlo"):
        cases += [Case(game, board) for board in args.boards]

    print(f"python {platform.python_version()} ({sys.implementation.name}), {platform.machine()}")
    print(f"cpu: {cpu_model()}, {os.cpu_count()} cores; one process, one core used")
    print(f"best of {args.repeat} runs per case\n")
    header = f"{'game':<10}{'board':>6}{'depth':>6}{'leaves':>12}{'seconds':>9}{'leaves/s':>12}"
    print(f"{header}  vs othello")
    othello_rate = 0.0
    for case in cases:
        depth, leaves, seconds = measure(case, args.repeat, args.seconds)
        rate = leaves / seconds
        othello_rate = othello_rate or rate
        print(
            f"{case.game:<10}{case.board:>6}{depth:>6}{leaves:>12}{seconds:>9.2f}"
            f"{rate:>12,.0f}  {rate / othello_rate:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
