"""Replays: the CPU time to build a whole game's replay, game by game, since the server
builds them on request; with `--calibrate`, how well the judges' scales fit the results.

Run: `python benchmarks/replays.py` (after `pip install -e .`); `--games N` games of each
game (default 6), `--calibrate` for the fit as well (best with `--games 24` or more).

The games are played by the quick bot levels, a level drawn for each seat (easy or medium
in the flank games, 0 to 2 in Oubliette, 1 to 3 in Tripppin), the first four moves at
random so that no two games are alike; Oubliette and Tripppin games are drawn at 600
plies. The levels finish their searches well within the 0.2 s a move they are given, so
the games are the same from run to run. Each replay is built `--repeat` times (default 3)
in this one process and the least CPU time (`time.process_time`) counts, as a shared
machine's speed wanders. Goal: every replay of a whole game built in under 0.3 s of CPU.

The fit: over every position before the end, the mean log loss of the judged shares
against the game's result (the winners share 1; lower is better) at scales around the
chosen one (*), and how many moves a game `worst` marks.
"""

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final
from unittest import mock

from perft import cpu_model

from parlour.bots import choose_move, judges
from parlour.rules import GAMES
from parlour.rules.gamefile import GameFile, game_file
from parlour.server import replays
from parlour.server.replays import Replay, replay_of

LEVELS: Final = {
    "othello": ("easy", "medium"),
    "tribolo": ("easy", "medium"),
    "numlo": ("easy", "medium"),
    "doublolo": ("easy", "medium"),
    "oubliette": ("0", "1", "2"),
    "tripppin": ("1", "2", "3"),
}
THINK: Final = 0.2
OPENING: Final = 4
MAX_PLIES: Final = 600
GOAL: Final = 0.3
FACTORS: Final = (0.5, 0.75, 1.0, 1.5, 2.0)
"""The scales tried in the fit, as multiples of the chosen one."""
SCALES: Final = {"flank": "FLANK_SCALE", "oubliette": "OUBLIETTE_SCALE"}


@dataclass(frozen=True)
class Timing:
    """What building one game's replay took."""

    plies: int
    seconds: float
    size: int
    """The replay's size as JSON, in bytes."""


def play(name: str, seed: int) -> GameFile:
    """A game between quick bots of levels drawn from `seed`."""
    game = GAMES[name]
    options = game.resolve_options(
        {"max_plies": MAX_PLIES} if name in ("oubliette", "tripppin") else {}
    )
    rng = random.Random(seed)
    state = game.new(options, seed)
    levels = [rng.choice(LEVELS[name]) for _ in game.seats]
    moves: list[str] = []
    while not state.is_over:
        if len(moves) < OPENING:
            move = state.format_move(rng.choice(state.legal_moves()))
        else:
            move = choose_move(state, levels[state.to_move], THINK, rng.randrange(1 << 30))
        moves.append(move)
        state = state.play_text(move)
    return game_file(game, options, seed, moves)


def timed(parsed: GameFile, repeat: int) -> Timing:
    """The least CPU time of `repeat` builds of the game's replay."""
    best = math.inf
    replay: Replay | None = None
    for _ in range(repeat):
        began = time.process_time()
        replay = replay_of(parsed)
        best = min(best, time.process_time() - began)
    assert replay is not None
    return Timing(len(parsed.moves), best, len(json.dumps(replay.describe())))


def report_times(games: dict[str, list[GameFile]], repeat: int) -> None:
    """Each game's build times: mean and most, per ply, and the replay's size."""
    print(f"{'game':<10}{'games':>6}{'plies':>7}{'mean s':>9}{'max s':>8}{'ms/ply':>8}", end="")
    print(f"{'JSON kB':>9}  goal")
    for name, played in games.items():
        timings = [timed(parsed, repeat) for parsed in played]
        seconds = [each.seconds for each in timings]
        plies = statistics.mean(each.plies for each in timings)
        per_ply = 1000 * sum(seconds) / sum(each.plies + 1 for each in timings)
        size = statistics.mean(each.size for each in timings) / 1000
        verdict = "PASS" if max(seconds) < GOAL else "FAIL"
        print(
            f"{name:<10}{len(timings):>6}{plies:>7.0f}{statistics.mean(seconds):>9.3f}"
            f"{max(seconds):>8.3f}{per_ply:>8.2f}{size:>9.0f}  {verdict} (< {GOAL} s)"
        )


@contextmanager
def scaled(name: str, factor: float) -> Iterator[None]:
    """The judge of game `name` with its scale multiplied by `factor`."""
    constant = SCALES["oubliette" if name == "oubliette" else "flank"]
    with mock.patch.object(judges, constant, getattr(judges, constant) * factor):
        yield


def log_loss(built: list[Replay]) -> float:
    """The mean log loss of the shares of every position before the end."""
    losses = []
    for replay in built:
        result = replay.frames[-1].evaluation
        assert result is not None
        for frame in replay.frames[:-1]:
            assert frame.evaluation is not None
            losses.append(
                -sum(
                    r * math.log(max(p, 1e-9))
                    for r, p in zip(result, frame.evaluation, strict=True)
                )
            )
    return statistics.mean(losses)


def report_fit(games: dict[str, list[GameFile]]) -> None:
    """Each scaled judge's log loss around its chosen scale, and the moves marked."""
    print(f"\nfit: mean log loss by scale ({', '.join(f'x{f}' for f in FACTORS)}; * chosen)")
    for name, played in games.items():
        if name == "tripppin":
            continue
        cells = []
        for factor in FACTORS:
            with scaled(name, factor):
                loss = log_loss([replay_of(parsed) for parsed in played])
            cells.append(f"{loss:.3f}{'*' if factor == 1.0 else ' '}")
        print(f"  {name:<10}{'  '.join(cells)}  (uniform: {math.log(len(GAMES[name].seats)):.3f})")
    print(
        f"\nworst: moves marked (a loss of at least {replays.WORST_LOSS}) per game, per 100 moves"
    )
    for name, played in games.items():
        built = [replay_of(parsed) for parsed in played]
        marked = sum(len(replay.worst) for replay in built)
        moves = sum(len(replay.frames) - 1 for replay in built)
        print(f"  {name:<10}{marked / len(built):>6.1f}{100 * marked / moves:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games of each game")
    parser.add_argument("--repeat", type=int, default=3, help="builds per replay (least counts)")
    parser.add_argument("--calibrate", action="store_true", help="fit the judges' scales too")
    parser.add_argument("--only", nargs="+", choices=sorted(GAMES), help="only these games")
    args = parser.parse_args()

    print(f"python {platform.python_version()} ({sys.implementation.name}), {platform.machine()}")
    print(f"cpu: {cpu_model()}, {os.cpu_count()} cores; one process, one core used")
    print(
        f"{args.games} games each between quick bots (the first {OPENING} moves random);"
        f" least CPU time of {args.repeat} builds per replay\n"
    )
    names = args.only or list(LEVELS)
    games = {name: [play(name, seed) for seed in range(args.games)] for name in names}
    report_times(games, args.repeat)
    if args.calibrate:
        report_fit(games)


if __name__ == "__main__":
    main()
