"""Oubliette's computer players: levels 0 to 6, as the original offered.

Level 0 judges each move by the position it leaves; level n searches up to n + 1 plies
(level 6 up to 12) with iterative deepening, so every level plays the deepest result its
time allows. The lower levels add a small random preference to each move, for variety
and to play a little weaker.
"""

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from time import monotonic
from typing import Any, Final

from parlour.rules import RulesError, State
from parlour.rules.oubliette import OublietteMove, OublietteState

from .oubliette_eval import evaluate, tables
from .oubliette_search import Child, Search, move_of_key
from .thinking import DECIDED, WIN, Level, OutOfTime, Thought

UNLIMITED: Final = 1 << 30
"""Plies left in a game without a ply limit."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a level searches: how deep at most, and how much it favours moves at random."""

    depth: int
    noise: int
    """Each root move's estimate moves by up to this much either way, drawn per search."""


def sides(state: OublietteState) -> tuple[int, int, tuple[int, int]]:
    """The mover's pieces, the other side's, and their ejections (the mover's first)."""
    mover = state.to_move
    ejected = (state.ejected[mover], state.ejected[1 - mover])
    return state.pieces[mover], state.pieces[1 - mover], ejected


def judge(state: OublietteState) -> int:
    """The evaluation of a position from the side to move's view, without a search."""
    own, opp, (own_ejected, opp_ejected) = sides(state)
    layout = state.layout
    return evaluate(
        own, opp, own_ejected, opp_ejected, tables(layout.holes, layout.limit, layout.win)
    )


def stop_time(budget: float) -> float:
    """When a search given `budget` seconds stops, leaving time to unwind and answer."""
    return monotonic() + budget - 0.02 - 0.04 * budget


def thought(line: tuple[int, ...], score: int, depth: int, nodes: int) -> Thought[OublietteMove]:
    """A thought from a line of move keys."""
    moves = tuple(move_of_key(key) for key in line)
    return Thought(moves[0], moves, score, depth, nodes)


def think(
    style: Style, state: State[Any], budget: float, rng: random.Random
) -> Iterator[Thought[OublietteMove]]:
    """Search `state` deeper and deeper, telling each better or deeper result."""
    if not isinstance(state, OublietteState):
        raise TypeError(f"an Oubliette bot cannot play {state.game.title}")
    if state.is_over:
        raise RulesError("the game is over: there is no move to think about")
    stop_at = stop_time(budget)
    own, opp, ejected = sides(state)
    layout = state.layout
    plies_left = layout.max_plies - state.ply if layout.max_plies else UNLIMITED
    search = Search(layout, ejected, plies_left, stop_at)
    roots = search.children(own, opp)
    rng.shuffle(roots)
    roots = search.ordered(roots, 0, 0)
    noise = {kid[0]: rng.randint(-style.noise, style.noise) for kid in roots}
    yield thought((roots[0][0],), first_glance(search, roots[0]), 0, 1)
    if len(roots) == 1:
        return
    yield from deepen(search, roots, (own, opp), style, noise)


def first_glance(search: Search, kid: Child) -> int:
    """A move's score without a search: the evaluation of the position it leaves."""
    _, own, opp, _, ejects = kid
    own_ejected, opp_ejected = search.root_ejected
    if own_ejected + ejects >= search.win:
        return WIN - 1
    return -search.leaf(opp, own, opp_ejected, own_ejected + ejects)


def deepen(
    search: Search,
    roots: list[Child],
    pieces: tuple[int, int],
    style: Style,
    noise: dict[int, int],
) -> Iterator[Thought[OublietteMove]]:
    """Iterative deepening: a thought when the best move changes and after each depth,
    until the time is up, the result is forced, or the search reaches the ply limit."""
    told = roots[0][0]
    for depth in range(1, style.depth + 1):
        best = None
        try:
            for best in search.iterate(*pieces, roots, depth, noise):
                if best.line[0] != told:
                    told = best.line[0]
                    yield thought(best.line, best.score, depth, search.nodes)
        except OutOfTime:
            return
        if best is None:
            return
        told = best.line[0]
        yield thought(best.line, best.score, depth, search.nodes)
        if abs(best.score) >= DECIDED or depth >= search.plies_left:
            return


STYLES = (
    Style(1, 60),
    Style(2, 25),
    Style(3, 10),
    Style(4, 0),
    Style(5, 0),
    Style(6, 0),
    Style(12, 0),
)
SUMMARIES = (
    "Looks only at the position each move leaves, with a dash of chance",
    "Looks two plies ahead: sees the reply to each move",
    "Looks three plies ahead",
    "Looks four plies ahead",
    "Looks five plies ahead",
    "Looks six plies ahead, time allowing",
    "Looks as deep as its time allows",
)
QUICK_DEPTH: Final = 3
"""Levels that look no deeper than this answer within milliseconds."""
LEVELS: tuple[Level, ...] = tuple(
    Level(str(number), summary, partial(think, style), quick=style.depth <= QUICK_DEPTH)
    for number, (style, summary) in enumerate(zip(STYLES, SUMMARIES, strict=True))
)
"""Oubliette's bot levels, weakest first."""
