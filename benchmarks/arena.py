"""Bot strength: levels play each other over many boards, seats rotated, against targets.

Run: `python benchmarks/arena.py` (after `pip install -e .`); `--quick` for a smoke run,
`--pairing othello` (or several) for some pairings only, `--help` for the rest.

Each pairing puts one level (the searching side) against another in every other seat.
Game i is played on board number i // seats with the searching side in seat i % seats,
so every board is played from every seat. A game is a win for the searching side when
it alone has the best result, a draw when it shares it, a loss otherwise. Every move is
timed from the call until the bot's last thought.

`--report` plays nothing and prints what the recorded games came to.

Games are spread over `--jobs` processes (2 by default, one a core: each move still
has a core to itself, as in the server's worker pool). Each finished game is appended to
`--results` (JSON lines), and a run skips the games already there for the same pairing
and budget, so a long run can be stopped and taken up again.

Targets (2 cores, 1 s a move for the searching side, at least 200 games a pairing):
Tribolo and Numlo `hard` against two `easy` win at least 80%; Doublolo and Othello `hard`
against `easy` at least 95%; Oubliette level 6 against level 1 at least 90%; Tripppin
`perfect` against level 9 wins every game that is a forced win for its side (so loses
none of them), and solves a board in under 2 s; every move of every level
within its budget plus 100 ms.
"""

import argparse
import json
import math
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from parlour.bots import think
from parlour.bots.thinking import Deadline
from parlour.bots.tripppin_solver import Solver, position_index
from parlour.rules import GAMES, State
from parlour.rules.tripppin import TripppinState, deal_tiles

OVERRUN: Final = 0.100
"""How far past its budget a move may run."""
Z95: Final = 1.959964
DEFAULT_RESULTS: Final = Path("benchmarks/arena-results.jsonl")
SOLVE_LIMIT: Final = 60.0
"""Seconds a Tripppin solve may take before the arena gives up on it."""


@dataclass(frozen=True)
class Pairing:
    """A level against another in the other seats, with the share of wins it must reach."""

    name: str
    game: str
    level: str
    opponent: str
    target: float | None
    """The least win rate for the searching side; None where `judge` decides."""
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        return len(GAMES[self.game].seats)

    def title(self) -> str:
        others = " and ".join([self.opponent] * (self.seats - 1))
        return f"{GAMES[self.game].title}: {self.level} against {others}"


PAIRINGS: Final = (
    Pairing("tribolo", "tribolo", "hard", "easy", 0.80),
    Pairing("numlo", "numlo", "hard", "easy", 0.80),
    Pairing("doublolo", "doublolo", "hard", "easy", 0.95),
    Pairing("othello", "othello", "hard", "easy", 0.95),
    Pairing("oubliette", "oubliette", "6", "1", 0.90, {"max_plies": 400}),
    Pairing("tripppin", "tripppin", "perfect", "9", None, {"max_plies": 400}),
)


@dataclass(frozen=True)
class Task:
    pairing: Pairing
    index: int
    budget: float

    @property
    def board(self) -> int:
        return self.index // self.pairing.seats

    @property
    def seat(self) -> int:
        """The searching side's seat."""
        return self.index % self.pairing.seats


def play_game(task: Task) -> dict[str, Any]:
    """One game of the task's pairing: its result and the time of every move, by level."""
    pairing = task.pairing
    game = GAMES[pairing.game]
    options = game.resolve_options(pairing.options)
    state: State[Any] = game.new(options, seed=task.board)
    start = state
    times: dict[str, list[float]] = {pairing.level: [], pairing.opponent: []}
    plies = 0
    while not state.is_over:
        level = pairing.level if state.to_move == task.seat else pairing.opponent
        seed = task.index * 100_003 + plies
        began = time.perf_counter()
        last = None
        for last in think(state, level, task.budget, seed):  # noqa: B007 (the last one counts)
            pass
        times[level].append(time.perf_counter() - began)
        assert last is not None, f"{level} had no move"
        state = state.play(last.move)
        plies += 1
    winners = state.winners()
    outcome = (
        "win"
        if winners == (task.seat,)
        else "draw"
        if task.seat in winners or not winners
        else "loss"
    )
    return {
        "pairing": pairing.name,
        "index": task.index,
        "budget": task.budget,
        "board": task.board,
        "seat": task.seat,
        "outcome": outcome,
        "plies": plies,
        "scores": list(state.scores()),
        "value": judge_value(pairing, start, task.seat),
        "times": times,
    }


def judge_value(pairing: Pairing, start: State[Any], seat: int) -> str | None:
    """For Tripppin: what `seat` can force from the start (win, draw or loss), the ply
    limit counted; None for the other games."""
    if not isinstance(start, TripppinState):
        return None
    solution = Solver(start.tiles).solve(Deadline(SOLVE_LIMIT))
    index = position_index(start.to_move, start.pieces, start.progress)
    plies = solution.plies(index)
    if plies is None or (start.max_plies and plies > start.max_plies - start.ply):
        return "draw"
    mover_wins = solution.wins(index)
    return "win" if mover_wins == (start.to_move == seat) else "loss"


@dataclass
class Tally:
    """What the games of one pairing came to."""

    games: int = 0
    outcomes: dict[str, int] = field(default_factory=lambda: {"win": 0, "draw": 0, "loss": 0})
    times: dict[str, list[float]] = field(default_factory=dict)
    values: dict[tuple[str, str], int] = field(default_factory=dict)
    """(what the side could force, what it got) for Tripppin."""

    def add(self, record: dict[str, Any]) -> None:
        self.games += 1
        self.outcomes[record["outcome"]] += 1
        for level, spent in record["times"].items():
            self.times.setdefault(level, []).extend(spent)
        if record["value"] is not None:
            key = (record["value"], record["outcome"])
            self.values[key] = self.values.get(key, 0) + 1

    def win_rate(self) -> tuple[float, float, float]:
        """The share of wins with its 95% Wilson interval."""
        return wilson(self.outcomes["win"], self.games)


def wilson(wins: int, games: int) -> tuple[float, float, float]:
    """A share of wins and its 95% Wilson score interval."""
    if games == 0:
        return math.nan, math.nan, math.nan
    share = wins / games
    centre = (share + Z95**2 / (2 * games)) / (1 + Z95**2 / games)
    spread = (
        Z95
        * math.sqrt(share * (1 - share) / games + Z95**2 / (4 * games**2))
        / (1 + Z95**2 / games)
    )
    return share, centre - spread, centre + spread


def load_results(path: Path) -> list[dict[str, Any]]:
    """The games recorded so far, each game once (the first record of it counts).

    A torn line (a run stopped mid-write) is skipped, and so is a second record of a game
    that two runs played, so that no game is counted twice.
    """
    if not path.exists():
        return []
    records: dict[tuple[str, int, float], dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        records.setdefault((record["pairing"], record["index"], record["budget"]), record)
    return list(records.values())


def tasks_to_play(
    pairings: Iterable[Pairing], games: int, budget: float, done: Iterable[dict[str, Any]]
) -> list[Task]:
    """The games not yet recorded for each pairing at this budget."""
    recorded = {(r["pairing"], r["index"], r["budget"]) for r in done}
    return [
        Task(pairing, index, budget)
        for pairing in pairings
        for index in range(games)
        if (pairing.name, index, budget) not in recorded
    ]


def run_games(tasks: Sequence[Task], jobs: int, record: Callable[[dict[str, Any]], None]) -> None:
    """Play the tasks in `jobs` processes, recording each game as it ends."""
    if jobs == 1:
        for task in tasks:
            record(play_game(task))
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for result in pool.imap_unordered(play_game, tasks):
            record(result)


def tripppin_solve_times(boards: int) -> list[float]:
    """Seconds a solve of each of the first `boards` Tripppin boards takes from scratch."""
    spent = []
    for board in range(boards):
        began = time.perf_counter()
        Solver(deal_tiles(board)).solve(Deadline(SOLVE_LIMIT))
        spent.append(time.perf_counter() - began)
    return spent


def print_table(pairings: Sequence[Pairing], tallies: dict[str, Tally], budget: float) -> None:
    print(
        f"{'pairing':<44}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'win %':>8}  {'95% interval':<14}"
        f"{'level':>9}{'mean s':>8}{'max s':>7}{'over':>6}"
    )
    for pairing in pairings:
        tally = tallies.get(pairing.name, Tally())
        share, low, high = tally.win_rate()
        outcomes = tally.outcomes
        head = (
            f"{pairing.title():<44}{tally.games:>6}{outcomes['win']:>5}{outcomes['draw']:>5}"
            f"{outcomes['loss']:>5}{share * 100:>7.1f}%  {low * 100:5.1f}-{high * 100:5.1f}%   "
        )
        for n, level in enumerate(dict.fromkeys((pairing.level, pairing.opponent))):
            spent = tally.times.get(level, [])
            mean = sum(spent) / len(spent) if spent else math.nan
            top = max(spent, default=math.nan)
            over = sum(seconds > budget + OVERRUN for seconds in spent)
            prefix = head if n == 0 else " " * len(head)
            print(f"{prefix}{level:>9}{mean:>8.3f}{top:>7.3f}{over:>6}")
    print(f"(over: moves longer than the budget plus {OVERRUN * 1000:.0f} ms)")
    print()


def print_targets(
    pairings: Sequence[Pairing],
    tallies: dict[str, Tally],
    budget: float,
    solve_times: list[float],
) -> None:
    print("targets:")
    for pairing in pairings:
        tally = tallies.get(pairing.name, Tally())
        short = "" if tally.games >= 200 else f"  (over {tally.games} games; the target is 200)"
        if tally.games == 0:
            print(f"  ----  {pairing.title()}: no games played yet")
        elif pairing.target is not None:
            share = tally.win_rate()[0]
            print(
                f"  {verdict(share >= pairing.target)}  {pairing.title()}: wins {share:.1%}"
                f" >= {pairing.target:.0%}{short}"
            )
        else:
            print_forced_targets(pairing, tally, short)
    if solve_times:
        print(
            f"  {verdict(max(solve_times) < 2.0)}  Tripppin perfect solves a board in"
            f" {max(solve_times):.2f} s at most (mean {sum(solve_times) / len(solve_times):.2f}"
            f" s over {len(solve_times)} boards) < 2 s"
        )
    spent = [
        seconds
        for tally in tallies.values()
        for level_times in tally.times.values()
        for seconds in level_times
    ]
    over = sum(seconds > budget + OVERRUN for seconds in spent)
    print(
        f"  {verdict(over == 0)}  every move within its budget + {OVERRUN * 1000:.0f} ms:"
        f" {over} of {len(spent)} over, the longest {max(spent, default=0.0):.3f} s"
    )


def print_forced_targets(pairing: Pairing, tally: Tally, short: str) -> None:
    """Tripppin's: a win wherever its side could force one, so no loss there either.

    Draws are told apart: with "prevent loops" on (the default, as in the original) a
    computer player may have to leave a draw it could only keep by cycling.
    """
    values = tally.values
    winnable = sum(count for (value, _), count in values.items() if value == "win")
    won = values.get(("win", "win"), 0)
    drawn = sum(count for (value, _), count in values.items() if value == "draw")
    drawn_lost = values.get(("draw", "loss"), 0)
    print(
        f"  {verdict(won == winnable)}  {pairing.title()}: won {won} of the {winnable} games"
        f" that were forced wins for its side{short}"
    )
    print(
        f"  info  {pairing.title()}: of {drawn} games drawn with best play, won"
        f" {values.get(('draw', 'win'), 0)} and lost {drawn_lost} (leaving loops can cost"
        " a draw)"
    )


def verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def print_conditions(args: argparse.Namespace, pairings: Sequence[Pairing]) -> None:
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cpus; {args.jobs} games at once;"
        f" {args.budget:g} s a move; {args.games} games a pairing:"
        f" {', '.join(pairing.name for pairing in pairings)}"
    )
    print(f"results kept in {args.results}")
    print(flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    names = [pairing.name for pairing in PAIRINGS]
    parser.add_argument("--pairing", nargs="+", choices=names, default=names)
    parser.add_argument("--games", type=int, default=200, help="games a pairing")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS)
    parser.add_argument(
        "--solve-boards", type=int, default=10, help="Tripppin boards to time a solve on"
    )
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument(
        "--report", action="store_true", help="only print what the games recorded so far came to"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.budget, args.solve_boards = 6, 0.1, 2
        args.results = Path(os.devnull)
    pairings = [pairing for pairing in PAIRINGS if pairing.name in args.pairing]
    print_conditions(args, pairings)
    done = [r for r in load_results(args.results) if r["budget"] == args.budget]
    tasks = [] if args.report else tasks_to_play(pairings, args.games, args.budget, done)
    print(f"{len(done)} games recorded before, {len(tasks)} to play", flush=True)
    with args.results.open("a") as kept:

        def record(result: dict[str, Any]) -> None:
            done.append(result)
            kept.write(json.dumps(result) + "\n")
            kept.flush()
            print(
                f"  {result['pairing']} game {result['index']}: {result['outcome']}",
                file=sys.stderr,
                flush=True,
            )

        run_games(tasks, args.jobs, record)
    wanted = {(pairing.name, index) for pairing in pairings for index in range(args.games)}
    tallies: dict[str, Tally] = {}
    for result in done:
        if (result["pairing"], result["index"]) in wanted:
            tallies.setdefault(result["pairing"], Tally()).add(result)
    print_table(pairings, tallies, args.budget)
    solve_times = (
        tripppin_solve_times(args.solve_boards)
        if any(p.game == "tripppin" for p in pairings)
        else []
    )
    print_targets(pairings, tallies, args.budget, solve_times)


if __name__ == "__main__":
    main()
