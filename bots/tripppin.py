"""Tripppin's computer players: levels 1 to 9 as in the original, and "perfect".

Level n looks n plies ahead (negamax with alpha-beta, deepening a ply at a time) and
judges the positions it reaches by the race: king steps left on each piece's route, with
half a step against a piece for each board edge it stands on (see `tripppin_search`).
"perfect" solves the board (every position, by retrograde analysis, see
`tripppin_solver`) and plays the fastest win, the slowest loss, or a move that keeps the
draw when neither side can force a win (see `tripppin_perfect`).

The ply limit: a game unfinished at `max_plies` is drawn, so perfect play counts a forced
win as a win only if it ends within the plies left, and a forced loss as a loss only if
it comes within them; anything longer is a draw. That is exact, not an approximation: the
fastest forced win is the best the winner can do, and the slowest loss the best the loser
can do, so a result the limit cuts off cannot be forced any sooner. Searches stop at the
limit too and score it as a draw. A player stuck on the last ply still loses, as the
rules say.

Loops: when the game prevents loops (the default), no level starts a move sequence played
twice in a row a third time (`looping_moves`) unless it has no other move. For "perfect"
that rule can cost a draw: where the only drawing move is looping it must leave the
draw, for another drawing move if there is one, else for the slowest loss. An opponent
free of the rule (a person) can force that on purpose, and another computer player can
stumble into it. To make it rarer, among drawing moves "perfect" prefers one after which
no reply can take its last drawing move away within a few plies (`DrawKeeper`), then one
not leading into a trap where the opponent can keep it down to one drawing move a turn
(`tripppin_traps`), then the position seen least often lately. Wins are unaffected in
practice: a winning line gets nearer its end every ply, and another winning move is
taken if the fastest one is looping.

Timing, measured on a shared 2-core machine in pure CPython 3.11: a full solve takes
about 0.05 s (mean 49 ms, at most 80 ms over boards 0-9), and the last few boards'
solutions are kept, so only a game's first move solves. If the budget is too short,
"perfect" plays level 9's search move and the solve carries on at its next move. The
traps take four rounds of about 0.15-0.2 s each, once per board and seat, worked on in
whatever time a move leaves; until they are done "perfect" plays without them.
"""

import random
from collections.abc import Iterator
from typing import Any, Final

from parlour.rules import State
from parlour.rules.tripppin import TripppinState

from .thinking import Deadline, Level, OutOfTime, Think, Thought
from .tripppin_perfect import DrawKeeper, perfect_thought
from .tripppin_search import search_thoughts
from .tripppin_solver import SolutionCache
from .tripppin_traps import trap_rounds

SEARCH_LEVELS: Final = 9
SAFETY: Final = 0.02
"""Seconds kept back from a budget, at most, for handing over the last thought."""
SEARCH_SHARE: Final = 0.25
"""The share of its budget "perfect" gives the search before it solves a new board."""
KEEP_SHARE: Final = 0.1
"""The share of its budget "perfect" gives the draw keeper, kept back from finding traps."""
CACHE: Final = SolutionCache(8)
"""The solves of the last few boards in this process."""


def _tripppin(state: State[Any]) -> TripppinState:
    """`state` as the Tripppin state it must be."""
    if not isinstance(state, TripppinState):
        raise TypeError(f"a Tripppin bot cannot play {state.game.title}")
    return state


def _deadline(budget: float) -> Deadline:
    """The deadline for thinking within `budget`, a little kept back."""
    return Deadline(max(0.0, budget - min(SAFETY, budget / 10)))


def _searching(depth: int) -> Think:
    """The think of level `depth`: a search that many plies deep."""

    def think(state: State[Any], budget: float, rng: random.Random) -> Iterator[Thought[Any]]:
        yield from search_thoughts(_tripppin(state), depth, _deadline(budget), rng)

    return think


def _perfect_think(state: State[Any], budget: float, rng: random.Random) -> Iterator[Thought[Any]]:
    """The solved board's best move; a search's while the board's solve is unfinished."""
    position = _tripppin(state)
    deadline = _deadline(budget)
    seed = rng.getrandbits(64)
    solution = CACHE.get(position.tiles)
    considered = (0, 0)
    if solution is None:
        searching = _deadline(budget * SEARCH_SHARE)
        for thought in search_thoughts(position, SEARCH_LEVELS, searching, rng):
            considered = (thought.depth, thought.nodes)
            yield thought
        try:
            solution = CACHE.solve(position.tiles, deadline)
        except OutOfTime:
            return
    first = perfect_thought(position, solution, random.Random(seed), considered=considered)
    yield first
    if first.score == 0 and position.prevent_loops:
        keeping = Deadline(deadline.left() - budget * KEEP_SHARE)
        traps = trap_rounds(solution, position.to_move, keeping)
        keeper = DrawKeeper(solution, Deadline(min(deadline.left(), budget * KEEP_SHARE)))
        wary = perfect_thought(
            position,
            solution,
            random.Random(seed),
            traps=traps,
            keeper=keeper,
            considered=considered,
        )
        if wary.move != first.move:
            yield wary


LEVELS: Final[tuple[Level, ...]] = (
    *(
        Level(
            str(depth),
            f"looks {depth} {'ply' if depth == 1 else 'plies'} ahead"
            " and heads for the nearer finish",
            _searching(depth),
            quick=True,
        )
        for depth in range(1, SEARCH_LEVELS + 1)
    ),
    Level("perfect", "has solved the board: never misses a forced win", _perfect_think),
)
"""Tripppin's bot levels, weakest first."""
