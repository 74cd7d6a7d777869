"""Chaos: rounds of real faults on a cluster in play, and whether any client was shown what
the cluster did not keep.

Run: `python benchmarks/chaos.py` from the repo root (after `pip install -e .`, with
Debian's redis-server); `--rounds N`, `--rooms 30`, `--nodes 3`, `--lease 3`, `--seed S`;
`--quick` for a smoke run (one round of each fault, 12 rooms, lease 2 s); `--keep` keeps
the record of every message, the report and the nodes' logs (the folder is named).

The harness is tests/cluster/chaos/, the one tests/cluster/test_chaos.py runs: one
redis-server (append-only file, every write synced), `--nodes` nodes each reaching Redis
through a TCP proxy of its own, `--rooms` rooms (a tenth Tribolo rooms of one person and
two easy bots, the rest Othello rooms of two people), each made by a host on one node and
joined through the others. People move a random legal move 0.15 to 0.35 s into their
turn; a finished game is followed by a fresh room. Each round plays 1.5 to 3 s, then
injects one fault, drawn with `--seed` (every kind once in a shuffled order, then again):

- node kill: SIGKILL a node (a new one takes its place before the next round); its people
  come back through other nodes with their seat tokens;
- node pause: SIGSTOP a node for twice the lease, then SIGCONT;
- redis kill: SIGKILL Redis, start it again from its append-only file 1.5 to 3 s later;
- proxy reset: reset every connection between one node and Redis;
- blackhole: nothing passes between one node and Redis for 5 s, then all of it does.

Every message any client receives is recorded. At the end each room's view is read
through a live node, and per fault kind the table gives: rounds; moves acknowledged with
`ok`; moves shown (in an `update` or a room view) and later replaced; acknowledged moves
lost, and doubled (a version acknowledged for two moves, or a move kept twice); failover,
the seconds from the fault (for Redis: from its answering again) until each room playing
then moved again, p50 / p99 / max (rooms whose people are connected through a paused or
cut-off node are left out); `unavailable` errors; `not_seated` told to a person holding a
seat; requests with no answer within lease + 2 s; rooms not moving again within lease +
2 s. "calm" counts what happened between faults.

Goals: 0 moves shown then replaced, 0 acknowledged moves lost, 0 doubled, every room read
at the end, every room of a paused or cut-off node's people moving again once it is back,
no node exiting by itself, and for every fault kind failover p99 <= lease + 2 s.
"""

import argparse
import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

# benchmarks/ scripts run as `python benchmarks/X.py`: the repo root is added (last, so
# that the installed parlour comes first) for the harness in tests/cluster.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from server import cpu_model, verdict
from tests.cluster.chaos import Chaos, Report, Settings, schedule
from tests.cluster.processes import REDIS_SERVER

NAMED = 10
"""Violations of each check printed."""


def settings(args: argparse.Namespace) -> Settings:
    """The harness's settings from the command line: a tenth of the rooms Tribolo."""
    tribolo = max(1, args.rooms // 10)
    return Settings(
        nodes=args.nodes,
        lease=args.lease,
        othello_rooms=args.rooms - tribolo,
        tribolo_rooms=tribolo,
        seed=args.seed,
        final_timeout=args.final_timeout,
        settle=args.settle,
    )


def print_conditions(args: argparse.Namespace, chosen: Settings) -> None:
    """What the figures were measured on."""
    version = subprocess.run(
        [REDIS_SERVER, "--version"], capture_output=True, text=True, check=False
    ).stdout.split()
    print("Conditions")
    print(f"  machine: {cpu_model()}, {len(os.sched_getaffinity(0))} cores")
    print(f"  python {sys.version.split()[0]}, {' '.join(version[:3])}, appendfsync always")
    print(
        f"  {chosen.nodes} nodes, lease {chosen.lease:g} s (bound {chosen.bound:g} s),"
        f" {chosen.bot_workers} bot process a node"
    )
    print(
        f"  {chosen.othello_rooms} Othello rooms of two people, {chosen.tribolo_rooms}"
        f" Tribolo rooms of one person and two bots; {args.rounds} rounds, seed {chosen.seed}"
    )


def print_report(report: Report) -> None:
    """The table by fault kind, the violations, and each goal met or not."""
    print("\nBy fault kind")
    print(report.described(NAMED))
    print("\nTargets")
    for goal, met in report.goals():
        print(f"  {goal}: {verdict(met)}")


async def run(args: argparse.Namespace) -> None:
    """One chaos run, its rounds told as they end, then the report."""
    chosen = settings(args)
    print_conditions(args, chosen)
    kinds = schedule(args.rounds, random.Random(chosen.seed))
    folder = Path(tempfile.mkdtemp(prefix="bench-chaos-"))
    print(f"\nRounds (record and logs in {folder})")
    report = await Chaos(chosen, folder, lambda line: print(f"  {line}", flush=True)).run(kinds)
    print_report(report)
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="faults, one a round")
    parser.add_argument("--rooms", type=int, default=30, help="rooms playing at once")
    parser.add_argument("--nodes", type=int, default=3, help="nodes in the cluster")
    parser.add_argument("--lease", type=float, default=3.0, help="the nodes' --lease")
    parser.add_argument("--seed", type=int, default=1, help="draws the faults and moves")
    parser.add_argument(
        "--settle", type=float, default=10.0, help="seconds past the bound a round waits"
    )
    parser.add_argument(
        "--final-timeout", type=float, default=30.0, help="seconds to read the rooms at the end"
    )
    parser.add_argument("--keep", action="store_true", help="keep the record and the logs")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.rooms, args.lease, args.settle = 5, 12, 2.0, 3.0
        args.final_timeout = 10.0
    if not Path(REDIS_SERVER).exists():
        parser.error(f"{REDIS_SERVER} is missing: install Debian's redis-server package")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
