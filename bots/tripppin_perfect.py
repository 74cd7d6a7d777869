"""Perfect play on a solved Tripppin board, with the ply limit and the loop rule.

The solution says what every move leads to; the best result decides: the fastest win, a
draw, the slowest loss. Among moves equally good, a draw needs care, as the loop rule
(`looping_moves`) may forbid the one move that keeps it. So the move preferred is the one
the `DrawKeeper` finds keeping the draw longest against an opponent cycling to force us
out, then the one least deep in traps (`tripppin_traps`), then the one to the position
seen least often lately (to wander rather than cycle), then the one leaving the opponent
most replies that go wrong, then the searches' judgement of the position, then chance.
Against level 9 from 90 drawn starts (boards 30-59), the loop rule cost 63 draws with
neither, 53 with the keeper alone, 33 with the traps alone and 12 with both; a keeper
looking 25 plies ahead instead of 5 saved one more, at 18 times the time.
"""

import random
from typing import Final

from parlour.rules.tripppin import GOAL, MAX_LOOP, ROUTES, TripppinState

from .thinking import WIN, Deadline, OutOfTime, Thought
from .tripppin_search import UNLIMITED, allowed_moves, judge, plies_left
from .tripppin_solver import Solution, board_steps, position_index
from .tripppin_traps import trap_rank

LINE_LIMIT: Final = 100
"""The longest line a thought shows when the result is forced."""
DRAW_LINE: Final = 12
"""The longest line a thought shows for a draw."""
KEEP_DEPTH: Final = 5
"""The plies the draw keeper looks ahead after our move."""
CLOCK_EVERY: Final = 255
"""Draw keeper nodes between looks at the clock, less one (a mask)."""

Pieces = tuple[int, int]
"""Something of each seat, in seat order: squares or progress."""


def position_score(solution: Solution, index: int, left: int) -> int:
    """The solved score of position `index` for its mover, `left` plies before the limit:
    a forced result beyond the limit is a draw."""
    plies = solution.plies(index)
    if plies is None or plies > left:
        return 0
    return WIN - plies if solution.wins(index) else plies - WIN


def after_step(seat: int, pieces: Pieces, progress: Pieces, move: int) -> tuple[Pieces, Pieces]:
    """Both pieces' squares and progress after `seat` steps to `move`."""
    reached = progress[seat] + (move == ROUTES[seat][progress[seat]])
    if seat == 0:
        return (move, pieces[1]), (reached, progress[1])
    return (pieces[0], move), (progress[0], reached)


def step_score(  # noqa: PLR0917 (the keeper's hot path: positional arguments are the fastest)
    solution: Solution, seat: int, pieces: Pieces, progress: Pieces, move: int, left: int
) -> int:
    """The solved score for `seat`, to move, of stepping to `move`, `left` plies before
    the limit."""
    moved, reached = after_step(seat, pieces, progress, move)
    if reached[seat] == GOAL:
        return WIN - 1
    reply = position_score(solution, position_index(1 - seat, moved, reached), left - 1)
    if reply > 0:
        return 1 - reply
    if reply < 0:
        return -1 - reply
    return 0


def move_score(state: TripppinState, solution: Solution, move: int) -> int:
    """The solved score of `move` for the mover in `state`, with the ply limit."""
    seat, pieces, progress = state.to_move, state.pieces, state.progress
    return step_score(solution, seat, pieces, progress, move, plies_left(state))


def looping_starts(history: tuple[int, ...]) -> set[int]:
    """The moves that would start a third run of a sequence just played twice, as
    `TripppinState.looping_moves` finds them, for a history of moves alone."""
    size = len(history)
    return {
        history[-length]
        for length in range(2, min(MAX_LOOP, size // 2) + 1, 2)
        if history[-1] == history[-1 - length]
        and history[-length:] == history[-2 * length : -length]
    }


class DrawKeeper:
    """Whether each drawing move surely keeps the draw for the next few plies under the
    loop rule, against an opponent free of it (as a person is) who cycles to force us
    out; looking deeper found no more in tests, and costs more than it gains."""

    def __init__(self, solution: Solution, deadline: Deadline) -> None:
        self.solution = solution
        self.steps = board_steps(solution.tiles)
        self.deadline = deadline
        self.nodes = 0

    def holding(self, state: TripppinState, moves: list[int]) -> dict[int, int]:
        """For each of `moves` (drawing moves of `state`), the plies up to `KEEP_DEPTH`
        it surely keeps the draw for: 0, 1, 3, ... (or `UNLIMITED` to the limit), as far
        as the deadline lets the keeper look."""
        left = plies_left(state)
        held = dict.fromkeys(moves, 0)
        standing = list(moves)
        for depth in range(1, KEEP_DEPTH + 1, 2):
            try:
                kept = [move for move in standing if self._keeps_after(state, move, depth)]
            except OutOfTime:
                break
            for move in kept:
                held[move] = UNLIMITED if depth >= left else depth
            if len(kept) <= 1 or depth >= left:
                break
            standing = kept
        return held

    def _keeps_after(self, state: TripppinState, move: int, depth: int) -> bool:
        """Whether stepping to `move` keeps the draw for `depth` plies whatever the reply."""
        seat = state.to_move
        pieces, progress = after_step(seat, state.pieces, state.progress, move)
        history = (*state.recent, move)[-2 * MAX_LOOP :]
        left = plies_left(state) - 1
        return self._keeps(1 - seat, pieces, progress, left, history, depth, ours=False)

    def _keeps(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self,
        seat: int,
        pieces: Pieces,
        progress: Pieces,
        left: int,
        history: tuple[int, ...],
        depth: int,
        *,
        ours: bool,
    ) -> bool:
        """Whether the draw holds `depth` more plies with `seat` to move; `ours` when that
        is the keeper's side, bound by the loop rule."""
        self.nodes += 1
        if not self.nodes & CLOCK_EVERY and self.deadline.passed():
            raise OutOfTime
        if left <= 0:
            return True
        drawing = self._drawing(seat, pieces, progress, left)
        if ours:
            looping = looping_starts(history)
            legal = self.steps[pieces[seat] * 64 + pieces[1 - seat]]
            if not looping.issuperset(legal):
                drawing = [move for move in drawing if move not in looping]
            if not drawing:
                return False
        if not depth:
            return True
        outcomes = (
            self._keeps(
                1 - seat,
                *after_step(seat, pieces, progress, move),
                left - 1,
                (*history, move)[-2 * MAX_LOOP :],
                depth - 1,
                ours=not ours,
            )
            for move in drawing
        )
        return any(outcomes) if ours else all(outcomes)

    def _drawing(self, seat: int, pieces: Pieces, progress: Pieces, left: int) -> list[int]:
        """The moves of `seat` that keep the position drawn."""
        solution = self.solution
        return [
            move
            for move in self.steps[pieces[seat] * 64 + pieces[1 - seat]]
            if not step_score(solution, seat, pieces, progress, move, left)
        ]


def perfect_thought(
    state: TripppinState,
    solution: Solution,
    rng: random.Random,
    *,
    traps: list[bytes] | None = None,
    keeper: DrawKeeper | None = None,
    considered: tuple[int, int] = (0, 0),
) -> Thought[int]:
    """The best allowed move by the solution (see the module's docstring for ties).

    `traps` (`trap_rounds` for the mover) and the draw keeper are used if given;
    `considered`: the depth and nodes of thoughts so far, which this one adds to."""
    seat, pieces, progress = state.to_move, state.pieces, state.progress
    scores = {move: move_score(state, solution, move) for move in allowed_moves(state)}
    best = max(scores.values())
    moves = [move for move, score in scores.items() if score == best]
    held = keeper.holding(state, moves) if keeper and best == 0 and len(moves) > 1 else {}
    visits = _recent_positions(state)
    ranked = {}
    for move in moves:
        after, reached = after_step(seat, pieces, progress, move)
        safety = trap_rank(traps, position_index(1 - seat, after, reached)) if traps else 0
        ranked[move] = (
            held.get(move, 0),
            safety,
            -visits.count(after),
            _opponent_slips(state, solution, move, best),
            _judged_after(state, move),
            rng.random(),
        )
    move = max(moves, key=ranked.__getitem__)
    depth, nodes = considered
    nodes += len(scores) + (keeper.nodes if keeper else 0)
    line = best_line(state, solution, move)
    return Thought(move, line, best, max(depth, solution.horizon), nodes)


def _recent_positions(state: TripppinState) -> list[Pieces]:
    """Both pieces' squares, in seat order, after each recent move that had a move before
    it: rebuilt from `recent`, where each move is the square its piece went to."""
    recent = state.recent
    seen: list[Pieces] = []
    for at in range(1, len(recent)):
        mover = (state.to_move + len(recent) - at) % 2
        pair = (recent[at], recent[at - 1])
        seen.append(pair if mover == 0 else (pair[1], pair[0]))
    return seen


def _opponent_slips(state: TripppinState, solution: Solution, move: int, score: int) -> int:
    """How many of the opponent's replies to `move` would turn a loss of the mover into a
    draw or a win, or a draw into a win (none are looked for once `score` wins)."""
    if score > 0:
        return 0
    after = state.play(move)
    if after.is_over:
        return 0
    floor = 1 if score < 0 else 0
    return sum(move_score(after, solution, reply) < floor for reply in after.legal_moves())


def _judged_after(state: TripppinState, move: int) -> int:
    """How the mover stands after `move` by the searches' judgement (`judge`)."""
    seat = state.to_move
    pieces, progress = after_step(seat, state.pieces, state.progress, move)
    if progress[seat] == GOAL:
        return WIN
    other = 1 - seat
    return -judge(other, pieces[other], move, progress[other], progress[seat])


def best_line(state: TripppinState, solution: Solution, move: int) -> tuple[int, ...]:
    """`move` and then best play by both sides to the end, or a few plies of a draw."""
    line = [move]
    position = state.play(move)
    limit = LINE_LIMIT if move_score(state, solution, move) else DRAW_LINE
    while not position.is_over and len(line) < limit:
        here = position
        reply = max(here.legal_moves(), key=lambda step: (move_score(here, solution, step), step))
        line.append(reply)
        position = here.play(reply)
    return tuple(line)
