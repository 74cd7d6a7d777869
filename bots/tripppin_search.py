"""Tripppin's lookahead: negamax with alpha-beta, deepening one ply at a time.

Positions at the horizon are judged by the race: how many king steps each piece still
needs to walk its route (to its current target, then from target to target to the end),
the opponent's count minus the mover's. A king step is the fewest moves a piece could
need; the arrows under the other piece can only make it more, and which arrows those will
be is the opponent's choice, so no cheap count is more honest. What the arrows do make
likely is the seed text's warning: a piece on the edge, worse in a corner, can be left
with no move. So each edge a piece stands on counts as half a step against it (in tests
of level 9 against itself this won 93 games to 58, the rest drawn, over 50 boards).
Scores are in half steps; wins and losses seen inside the horizon are exact:
`WIN - plies` or `plies - WIN` from the root.
"""

import random
from collections.abc import Iterator
from typing import Final

from parlour.rules.tripppin import GOAL, GRID, ROUTES, SEATS, TripppinState

from .thinking import WIN, Deadline, OutOfTime, Thought
from .tripppin_solver import board_steps

SQUARES: Final = GRID.size
LAST: Final = GOAL - 1
"""The progress of a piece whose next target is its last."""
CLOCK_EVERY: Final = 1023
"""Nodes between looks at the clock, less one (a mask)."""
UNLIMITED: Final = 1 << 30
"""The plies left in a game with no ply limit."""


def _king_distance(a: int, b: int) -> int:
    """The fewest king steps from square `a` to square `b`."""
    ay, ax = divmod(a, 8)
    by, bx = divmod(b, 8)
    return max(abs(ax - bx), abs(ay - by))


def _route_left(seat: int, progress: int, square: int) -> int:
    """King steps from `square` to the end of `seat`'s route, its next target `progress`."""
    route = ROUTES[seat]
    legs = sum(
        _king_distance(a, b) for a, b in zip(route[progress:], route[progress + 1 :], strict=False)
    )
    return _king_distance(square, route[progress]) + legs


ROUTE_LEFT: Final = tuple(
    _route_left(seat, progress, square)
    for seat in range(len(SEATS))
    for progress in range(GOAL)
    for square in range(SQUARES)
)
"""`ROUTE_LEFT[(seat * GOAL + progress) * 64 + square]`, see `_route_left`."""


def _edges(square: int) -> int:
    """How many edges of the board `square` is on: 0, 1, or 2 for a corner."""
    y, x = divmod(square, 8)
    return (x in (0, 7)) + (y in (0, 7))


EDGES: Final = tuple(_edges(square) for square in range(SQUARES))


def judge(seat: int, here: int, there: int, mine: int, theirs: int) -> int:
    """The position from the view of `seat`, to move on `here`, in half steps: twice the
    steps the opponent still needs minus twice its own, less its edges, plus the
    opponent's."""
    other = 1 - seat
    steps = (
        ROUTE_LEFT[(other * GOAL + theirs) * SQUARES + there]
        - ROUTE_LEFT[(seat * GOAL + mine) * SQUARES + here]
    )
    return 2 * steps - EDGES[here] + EDGES[there]


class Search:
    """One position's alpha-beta searches, sharing a node count and a deadline."""

    def __init__(self, tiles: tuple[int, ...], deadline: Deadline, plies_left: int) -> None:
        self.steps = board_steps(tiles)
        self.deadline = deadline
        self.plies_left = plies_left
        """Plies from the root to the ply limit (`UNLIMITED` if none)."""
        self.nodes = 0
        self.lines: list[list[int]] = []
        """`lines[ply]`: the best line found from the node last searched at `ply`."""

    def negamax(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self,
        seat: int,
        here: int,
        there: int,
        mine: int,
        theirs: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        """The score for `seat`, to move on `here` with progress `mine`, the opponent on
        `there` with `theirs`, looking `depth` plies on; `ply` plies below the root."""
        self.nodes += 1
        if not self.nodes & CLOCK_EVERY and self.deadline.passed():
            raise OutOfTime
        lines = self.lines
        while len(lines) <= ply + 1:
            lines.append([])
        steps = self.steps[here * SQUARES + there]
        if not steps:
            lines[ply] = []
            return ply - WIN
        if ply >= self.plies_left:
            lines[ply] = []
            return 0
        target = ROUTES[seat][mine]
        if mine == LAST and target in steps:
            lines[ply] = [target]
            return WIN - ply - 1
        if not depth:
            lines[ply] = []
            return judge(seat, here, there, mine, theirs)
        best = -WIN - 1
        line: list[int] = []
        for step in self.ordered(steps, seat, mine):
            reached = mine + (step == target)
            score = -self.negamax(
                1 - seat, there, step, theirs, reached, depth - 1, -beta, -alpha, ply + 1
            )
            if score > best:
                best = score
                line = [step, *lines[ply + 1]]
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        lines[ply] = line
        return best

    @staticmethod
    def ordered(steps: tuple[int, ...], seat: int, mine: int) -> list[int]:
        """The steps nearest the end of the route first, the likeliest to be best."""
        base = (seat * GOAL + mine) * SQUARES
        return sorted(steps, key=lambda step: ROUTE_LEFT[base + step])


def plies_left(state: TripppinState) -> int:
    """Plies until the ply limit draws the game, or `UNLIMITED`."""
    return state.max_plies - state.ply if state.max_plies else UNLIMITED


def allowed_moves(state: TripppinState) -> tuple[int, ...]:
    """The legal moves a computer player may choose: if the game prevents loops, none that
    repeats a loop a third time, unless every move does."""
    if not state.prevent_loops:
        return state.legal_moves()
    looping = set(state.looping_moves())
    moves = tuple(move for move in state.legal_moves() if move not in looping)
    return moves or state.legal_moves()


def search_thoughts(
    state: TripppinState,
    max_depth: int,
    deadline: Deadline,
    rng: random.Random,
) -> Iterator[Thought[int]]:
    """A thought per depth completed, 1 to `max_depth`, until the deadline; the clock is
    checked often, and a depth cut short is dropped."""
    search = Search(state.tiles, deadline, plies_left(state))
    moves = list(allowed_moves(state))
    rng.shuffle(moves)
    for depth in range(1, max_depth + 1):
        try:
            thought = _search_root(search, state, moves, depth)
        except OutOfTime:
            return
        yield thought
        moves.remove(thought.move)
        moves.insert(0, thought.move)
        if thought.score >= WIN - depth or len(moves) == 1 or deadline.passed():
            return


def _search_root(
    search: Search, state: TripppinState, moves: list[int], depth: int
) -> Thought[int]:
    """The best of `moves` searched `depth` plies deep; the first found wins ties."""
    seat = state.to_move
    there = state.pieces[1 - seat]
    mine, theirs = state.progress[seat], state.progress[1 - seat]
    target = ROUTES[seat][mine]
    best, best_line = -WIN - 1, [moves[0]]
    for move in moves:
        search.nodes += 1
        if mine == LAST and move == target:
            score, line = WIN - 1, [move]
        else:
            reached = mine + (move == target)
            score = -search.negamax(
                1 - seat, there, move, theirs, reached, depth - 1, -WIN - 1, -best, 1
            )
            line = [move, *search.lines[1]]
        if score > best:
            best, best_line = score, line
    return Thought(best_line[0], tuple(best_line), best, depth, search.nodes)
