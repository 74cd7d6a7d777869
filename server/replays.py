"""A finished game as frames to step through, with charts, as lichess's analysis board.

Each frame is the board after a move exactly as a spectator's room view carries it
(`state`), who moved and what, the cells the move changed, each seat's score, and a quick
computer judgement of the position: each seat's share of the win, from 0 to 1, summing to
1 (a finished game's shares are its result: the winners split 1, the others get 0). The
moves where a seat's own move cost it most are marked as its worst.

The judges, one per kind of game, each well within 0.3 s of CPU for a whole game of
ordinary length (benchmarks/replays.py measures them and fits their scales):

- flank games: the hard bots' static view (`flank_eval.STRONG`) of each seat's strength
  `s`, a seat's share growing as `e^(s / scale)` (a softmax), the scale `FLANK_SCALE` per
  opponent. A position's shares are the mean of its own and those after the mover's best
  move (by the mover's share): the two lean opposite ways on whose turn it is, so the
  mean does not see-saw from move to move.
- Oubliette: the bots' evaluation (`oubliette_eval`) from the mover's side, a score `s`
  giving the mover `1 / (1 + e^(-s / scale))`, the scale `OUBLIETTE_SCALE` per ejection
  needed to win. A position's share is the mean of its own and that after the mover's
  best push, if one is better than standing still (a look one ply ahead at pushes only:
  as good a fit as at every move, at a fifth of the time).
- Tripppin: the board solved, as the "perfect" level solves it: a forced win is 1, a
  forced loss 0, and 0.5 where neither side can force a win (or not before the ply limit).

A seat's worst moves, as lichess marks mistakes by the win chance they cost: a move's
loss is its mover's share before it less the mover's share after it. Moves that lost at
least `WORST_LOSS` are marked, at most `WORST_PER_SEAT` a seat (its largest losses, the
earlier on a tie), listed in move order. A move that was the only legal one is never
marked: the judges' one look ahead may see its cost, but no other move could avoid it.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, TypeVar

from parlour.bots.flank_eval import STRONG, make_strength, make_view
from parlour.bots.flank_shape import bits_of, shape_of
from parlour.bots.oubliette import sides
from parlour.bots.oubliette_eval import evaluate, tables
from parlour.bots.oubliette_search import children
from parlour.bots.thinking import Deadline
from parlour.bots.tripppin_perfect import position_score
from parlour.bots.tripppin_search import plies_left
from parlour.bots.tripppin_solver import Solver, position_index
from parlour.rules import JsonValue, State
from parlour.rules.flank import FlankState
from parlour.rules.gamefile import GameFile, SeatChange
from parlour.rules.grid import Grid
from parlour.rules.hexgrid import CELL_BITS, CELL_NAMES, ROWS_FROM_TOP, step
from parlour.rules.oubliette import OublietteState
from parlour.rules.tripppin import GRID, TripppinState
from parlour.rules.tripppin import LETTERS as TRIPPPIN_LETTERS

StateT = TypeVar("StateT", bound=State[Any])
Shares = tuple[float, ...]
"""Each seat's share of the win, in seat order: from 0 to 1, summing to 1."""

FLANK_SCALE: Final = 2000
"""Flank strengths, in hundredths of a point, per opponent, that make a seat's share e
times another's: 20 points with two seats, 40 with three (see benchmarks/replays.py)."""
OUBLIETTE_SCALE: Final = 250
"""Oubliette scores (an ejection is 1000) per ejection needed to win, that make the
mover's odds e times as good: in the usual race to six, one ejection up is about 67%."""
WORST_LOSS: Final = 0.1
"""The smallest loss of its mover's share that marks a move, lichess's inaccuracy: in
games between the quick bots, about one to three moves a game (benchmarks/replays.py)."""
WORST_PER_SEAT: Final = 3


@dataclass(frozen=True, slots=True)
class Frame:
    """The game after `ply` moves: the start for 0, else the position the move left."""

    ply: int
    move: str | None
    """The move that led here, in the game's notation; None for the start."""
    mover: str | None
    """The colour that made it."""
    state: dict[str, JsonValue]
    """The position as a spectator's room view carries it (`State.observation(None)`)."""
    changed: tuple[str, ...]
    """The cells the move changed, by name in board order; see `changed_cells`."""
    ejected: tuple[str, ...]
    """Oubliette: the cell a piece was pushed out from, if the move ejected one."""
    scores: tuple[int, ...]
    evaluation: Shares | None

    def describe(self) -> dict[str, JsonValue]:
        """The frame for the wire."""
        return {
            "ply": self.ply,
            "move": self.move,
            "mover": self.mover,
            "state": self.state,
            "changed": list(self.changed),
            "ejected": list(self.ejected),
            "scores": list(self.scores),
            "evaluation": None if self.evaluation is None else list(self.evaluation),
        }


@dataclass(frozen=True, slots=True)
class Slip:
    """A move that cost its mover at least `WORST_LOSS` of its share of the win."""

    ply: int
    """The frame the move led to: the move numbered `ply` in the game file."""
    colour: str
    loss: float

    def describe(self) -> dict[str, JsonValue]:
        return {"ply": self.ply, "colour": self.colour, "loss": self.loss}


@dataclass(frozen=True, slots=True)
class Replay:
    """A game to step through: every frame, who judged the positions, the worst moves."""

    game: str
    seats: tuple[str, ...]
    frames: tuple[Frame, ...]
    evaluator: str | None
    """What judged the positions, for the chart's caption; None if nothing did."""
    worst: tuple[Slip, ...]
    over: bool
    """Whether the game was played to its end (a saved game may stop before)."""
    winners: tuple[str, ...]
    scores: tuple[int, ...]
    """The last frame's scores."""
    seat_changes: tuple[SeatChange, ...]

    def describe(self) -> dict[str, JsonValue]:
        """The replay for the wire: str keys and plain values only (msgpack and JSON)."""
        return {
            "game": self.game,
            "seats": list(self.seats),
            "frames": [frame.describe() for frame in self.frames],
            "evaluator": self.evaluator,
            "worst": [slip.describe() for slip in self.worst],
            "result": {
                "over": self.over,
                "winners": list(self.winners),
                "scores": list(self.scores),
            },
            "seat_changes": [
                {"after": change.after, "colour": change.colour, "holder": change.holder}
                for change in self.seat_changes
            ],
        }


def replay_of(parsed: GameFile) -> Replay:
    """Every frame of the game in `parsed`, judged; a RulesError if a move is not legal."""
    game = parsed.game
    states: list[State[Any]] = [parsed.start()]
    for move in parsed.moves:
        states.append(states[-1].play_text(move))
    judged = judge(states)
    shares: Sequence[Shares | None] = [None] * len(states) if judged is None else judged[1]
    drawings = [drawing(state) for state in states]
    frames = [_frame(0, states[0], states[0], move=None, shares=shares[0])]
    for ply, move in enumerate(parsed.moves, start=1):
        before, after = states[ply - 1], states[ply]
        ejected = ejected_from(before, after)
        changed = changed_cells(drawings[ply - 1], drawings[ply], ejected)
        frames.append(
            _frame(
                ply, before, after, move=move, shares=shares[ply], changed=changed, ejected=ejected
            )
        )
    last = states[-1]
    return Replay(
        game=game.name,
        seats=game.seats,
        frames=tuple(frames),
        evaluator=None if judged is None else judged[0],
        worst=() if judged is None else worst_moves(states, judged[1]),
        over=last.is_over,
        winners=tuple(game.seats[seat] for seat in last.winners()),
        scores=last.scores(),
        seat_changes=parsed.seat_changes,
    )


def _frame(
    ply: int,
    before: State[Any],
    after: State[Any],
    *,
    move: str | None,
    shares: Shares | None,
    changed: tuple[str, ...] = (),
    ejected: tuple[str, ...] = (),
) -> Frame:
    """The frame of `after`, reached from `before` by `move` (the start: no move)."""
    return Frame(
        ply=ply,
        move=move,
        mover=None if move is None else after.game.seats[before.to_move],
        state=after.observation(None),
        changed=changed,
        ejected=ejected,
        scores=after.scores(),
        evaluation=shares,
    )


# What a move changed

Drawing = tuple[str, tuple[str, ...]]
"""A board as one character a cell, and the names of those cells in the same order."""

_HEX_NAMES: Final = tuple(CELL_NAMES[cell] for row in ROWS_FROM_TOP for cell in row)
"""Oubliette's cells in the order its observation's `rows` draw them, from the top."""
_TRIPPPIN_NAMES: Final = tuple(GRID.format_square(square) for square in range(GRID.size))


def drawing(state: State[Any]) -> Drawing:
    """The board of `state` as its observation draws it, cells named as it names them:
    a flank game's `board`, Oubliette's `rows`, Tripppin's pieces (its tiles never
    change); nothing for a game of another kind."""
    if isinstance(state, FlankState):
        return "".join(state.cells()), _square_names(state.board.grid)
    if isinstance(state, OublietteState):
        return "".join(state.rows()), _HEX_NAMES
    if isinstance(state, TripppinState):
        marks = ["."] * GRID.size
        for letter, square in zip(TRIPPPIN_LETTERS, state.pieces, strict=True):
            marks[square] = letter
        return "".join(marks), _TRIPPPIN_NAMES
    return "", ()


@lru_cache(maxsize=32)
def _square_names(grid: Grid) -> tuple[str, ...]:
    """A flank board's square names in square order, as `cells` draws them."""
    return tuple(grid.format_square(square) for square in range(grid.size))


def changed_cells(before: Drawing, after: Drawing, ejected: Sequence[str] = ()) -> tuple[str, ...]:
    """The cells whose drawing differs, with those a piece was ejected from (the piece
    behind may take its place, leaving the drawing alike), in the drawing's order.

    Flank games: the square played and the pieces flipped (a seat passed over changes
    nothing); Oubliette: the cells the moved and pushed lines left and entered; Tripppin:
    the square the piece left and the one it stepped to.
    """
    (was, names), (now, _) = before, after
    found = {index for index, (a, b) in enumerate(zip(was, now, strict=True)) if a != b}
    found.update(names.index(name) for name in ejected)
    return tuple(names[index] for index in sorted(found))


def ejected_from(before: State[Any], after: State[Any]) -> tuple[str, ...]:
    """Oubliette: the cell of the piece the move pushed into a hole or off the board.

    It is the last of the opponent's pieces in a row ahead of the moving line.
    """
    if not (isinstance(before, OublietteState) and isinstance(after, OublietteState)):
        return ()
    move = after.last_move
    if move is None or not after.last_ejected:
        return ()
    line = set(move.cells)
    lead = next(cell for cell in move.cells if step(cell, move.direction) not in line)
    victims = before.pieces[1 - before.to_move]
    last = cell = step(lead, move.direction)
    while cell is not None and victims & CELL_BITS[cell]:
        last, cell = cell, step(cell, move.direction)
    return () if last is None else (CELL_NAMES[last],)


# The judges


def judge(states: Sequence[State[Any]]) -> tuple[str, list[Shares]] | None:
    """What judges these positions of one game, and each one's shares; None if no judge
    knows the game."""
    flank = _all_of(states, FlankState)
    if flank:
        return "hard level's view, a move ahead", _judge_flank(flank)
    oubliette = _all_of(states, OublietteState)
    if oubliette:
        return "level 0's view, a push ahead", _judge_oubliette(oubliette)
    tripppin = _all_of(states, TripppinState)
    if tripppin:
        return "perfect: the board solved", _judge_tripppin(tripppin)
    return None


def _all_of(states: Sequence[State[Any]], kind: type[StateT]) -> list[StateT]:
    """The states, if every one is of this kind; else none."""
    found = [state for state in states if isinstance(state, kind)]
    return found if len(found) == len(states) else []


def result_shares(state: State[Any]) -> Shares:
    """A finished game's result as shares: the winners split the win."""
    return _split(state.winners(), len(state.game.seats))


def _split(winners: Sequence[int], seats: int) -> Shares:
    """The win split among `winners` (among every seat if there are none)."""
    winners = winners or range(seats)
    return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(seats))


def _judge_flank(states: Sequence[FlankState]) -> list[Shares]:
    """Each position's shares: the mean of its static view and the view after the mover's
    best move, by the mover's own share."""
    board = states[0].board
    shape = shape_of(board)
    strength = make_strength(shape, STRONG)
    view_of = make_view(shape, STRONG)
    scale = FLANK_SCALE * (len(states[0].pieces) - 1)

    def static(pieces: Sequence[int]) -> Shares:
        """The shares of a position with these pieces, or its result if nobody can move."""
        empty = shape.free
        for piece in pieces:
            empty &= ~piece
        moves = [board.moves(pieces, seat) for seat in range(len(pieces))]
        if not any(moves):
            points = [shape.points(piece) for piece in pieces]
            top = max(points)
            return _split([seat for seat, got in enumerate(points) if got == top], len(points))
        view = view_of(empty)
        return _softmax(
            [strength(piece, own, view) / scale for piece, own in zip(pieces, moves, strict=True)]
        )

    judged: list[Shares] = []
    for state in states:
        if state.is_over:
            judged.append(result_shares(state))
            continue
        mover = state.to_move
        own = state.pieces[mover]
        others = [piece for seat, piece in enumerate(state.pieces) if seat != mover]
        best: Shares | None = None
        for bit in bits_of(state.moves_mask):
            flipped = board.flips(bit, own, others)
            pieces = [
                piece | flipped | bit if seat == mover else piece & ~flipped
                for seat, piece in enumerate(state.pieces)
            ]
            shares = static(pieces)
            if best is None or shares[mover] > best[mover]:
                best = shares
        now = static(state.pieces)
        judged.append(tuple((a + b) / 2 for a, b in zip(now, best or now, strict=True)))
    return judged


def _judge_oubliette(states: Sequence[OublietteState]) -> list[Shares]:
    """Each position's shares: the mean of the bots' evaluation of it from the mover's
    side and of the same after the mover's best push, where one beats standing still."""
    judged: list[Shares] = []
    for state in states:
        if state.is_over:
            judged.append(result_shares(state))
            continue
        layout = state.layout
        found = tables(layout.holes, layout.limit, layout.win)
        own, opp, (own_ejected, opp_ejected) = sides(state)
        now = evaluate(own, opp, own_ejected, opp_ejected, found)
        best: float = now
        for _, moved, pushed_to, pushed, ejects in children(
            own, opp, layout.holes, layout.blocks, layout.limit
        ):
            if own_ejected + ejects >= layout.win:
                best = math.inf
                break
            if pushed:
                after = evaluate(pushed_to, moved, opp_ejected, own_ejected + ejects, found)
                best = max(best, -after)
        scale = OUBLIETTE_SCALE * layout.win
        mover = (_logistic(now / scale) + _logistic(best / scale)) / 2
        if layout.max_plies and state.ply + 1 >= layout.max_plies:
            mover = 1.0 if best == math.inf else 0.5
        judged.append((mover, 1 - mover) if state.to_move == 0 else (1 - mover, mover))
    return judged


def _judge_tripppin(states: Sequence[TripppinState]) -> list[Shares]:
    """Each position's shares by the solved board: 1 for a forced win, 0.5 for neither."""
    solution = Solver(states[0].tiles).solve(Deadline(math.inf))
    judged: list[Shares] = []
    for state in states:
        if state.is_over:
            judged.append(result_shares(state))
            continue
        index = position_index(state.to_move, state.pieces, state.progress)
        score = position_score(solution, index, plies_left(state))
        mover = 1.0 if score > 0 else 0.0 if score < 0 else 0.5
        judged.append((mover, 1 - mover) if state.to_move == 0 else (1 - mover, mover))
    return judged


def _softmax(values: Sequence[float]) -> Shares:
    """Shares proportional to e to each value."""
    top = max(values)
    weights = [math.exp(value - top) for value in values]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


def _logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflow at either end (infinities give 0 and 1)."""
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    small = math.exp(x)
    return small / (1 + small)


# The worst moves


def worst_moves(states: Sequence[State[Any]], shares: Sequence[Shares]) -> tuple[Slip, ...]:
    """The moves that cost their mover at least `WORST_LOSS` of its share, at most
    `WORST_PER_SEAT` a seat (its largest losses), in move order; never a forced move."""
    seats = states[0].game.seats
    losses: dict[int, list[tuple[float, int]]] = {}
    for ply in range(1, len(states)):
        before = states[ply - 1]
        mover = before.to_move
        loss = shares[ply - 1][mover] - shares[ply][mover]
        if loss >= WORST_LOSS and len(before.legal_moves()) > 1:
            losses.setdefault(mover, []).append((loss, ply))
    marked = [
        Slip(ply, seats[seat], loss)
        for seat, found in losses.items()
        for loss, ply in sorted(found, key=lambda each: (-each[0], each[1]))[:WORST_PER_SEAT]
    ]
    return tuple(sorted(marked, key=lambda slip: slip.ply))
