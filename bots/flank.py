"""The computer players of the flank games: Tribolo, Numlo, Doublolo and Othello.

The same four levels serve every flank game; the seat count picks the search. Two seats
search with principal variation search (`flank_duel`), three with paranoid search
(`flank_melee`), both deepening iteratively under the time budget.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from random import Random
from typing import Any, Final

from parlour.rules import State
from parlour.rules.flank import FlankState

from .flank_duel import Duel
from .flank_eval import EXPERT_DUEL, EXPERT_MELEE, SIMPLE, STRONG
from .flank_melee import Melee
from .flank_search import Config, Result, Search
from .flank_shape import Shape, bits_of, shape_of
from .thinking import Deadline, Level, Think, Thought

NEAR_BEST_CHANCE = 0.15
"""How often the easy level plays a move one point short of the best, when there is one."""
SAFETY = 0.03
"""Seconds kept back from the budget for handing the move over."""

MEDIUM = Config(SIMPLE, max_depth=2, transpositions=False, solve_at=0, reply_order_depth=0)
CONTEMPT = 3000
"""Thirty points: a draw is worth avoiding unless every other line looks that much worse."""
HARD = Config(
    STRONG,
    max_depth=200,
    transpositions=True,
    solve_at=0,
    reply_order_depth=0,
    contempt=CONTEMPT,
)
EXPERT_TWO = Config(
    EXPERT_DUEL,
    max_depth=200,
    transpositions=True,
    solve_at=10,
    reply_order_depth=3,
    contempt=CONTEMPT,
)
EXPERT_THREE = Config(
    EXPERT_MELEE,
    max_depth=200,
    transpositions=True,
    solve_at=8,
    reply_order_depth=0,
    contempt=CONTEMPT,
)

MEDIUM_ROUND = Config(SIMPLE, max_depth=3, transpositions=False, solve_at=0, reply_order_depth=0)
"""Three seats: medium looks one round ahead, a move of each seat."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A searching level's configurations for two and for three seats."""

    duel: Config
    melee: Config


def _easy(state: State[Any], budget: float, rng: Random) -> Iterator[Thought[Any]]:
    """The "Best" button: the move that flips (or in Numlo gains) the most, ties at random;
    now and then one a point short of it."""
    flank = _flank(state)
    shape = shape_of(flank.board)
    gains = _gains(flank, shape)
    best = max(gains.values())
    near = [move for move, gain in gains.items() if gain == best - 1]
    pool = near if near and rng.random() < NEAR_BEST_CHANCE else [
        move for move, gain in gains.items() if gain == best
    ]  # fmt: skip
    move = rng.choice(pool)
    yield Thought(move, (move,), gains[move], 0, len(gains))


def _gains(state: FlankState, shape: Shape) -> dict[int, int]:
    """What each legal move gains at once: the points of the square and of what it flips."""
    own = state.pieces[state.to_move]
    others = [piece for seat, piece in enumerate(state.pieces) if seat != state.to_move]
    gains = {}
    for bit in bits_of(state.moves_mask):
        flipped = state.board.flips(bit, own, others)
        gains[shape.square(bit)] = shape.points(flipped | bit)
    return gains


def _flank(state: State[Any]) -> FlankState:
    """The state as a flank state; these levels serve no other game."""
    if not isinstance(state, FlankState):
        raise TypeError(f"the flank bots cannot play {state.game.title}")
    return state


def searcher(plan: Plan) -> Think:
    """A level's think function, searching as `plan` says."""

    def think(state: State[Any], budget: float, rng: Random) -> Iterator[Thought[Any]]:
        flank = _flank(state)
        deadline = Deadline(max(0.0, budget - min(SAFETY, budget / 10)))
        shape = shape_of(flank.board)
        search = _search_for(flank, shape, plan, deadline)
        empty = shape.free & ~_occupied(flank)
        for result in search.think(flank.moves_mask, empty.bit_count(), rng):
            yield _thought(flank, shape, result)

    return think


def _occupied(state: FlankState) -> int:
    """Every square holding a piece."""
    occupied = 0
    for piece in state.pieces:
        occupied |= piece
    return occupied


def _search_for(state: FlankState, shape: Shape, plan: Plan, deadline: Deadline) -> Search:
    """The search for this many seats, from the side of the seat to move."""
    seat = state.to_move
    pieces = state.pieces
    if len(pieces) == 2:
        return Duel(shape, plan.duel, deadline, pieces[seat], pieces[1 - seat])
    if len(pieces) == 3:
        root_first = (pieces[seat], pieces[(seat + 1) % 3], pieces[(seat + 2) % 3])
        return Melee(shape, plan.melee, deadline, root_first)
    raise ValueError(f"the flank bots play two or three seats, not {len(pieces)}")


def _thought(state: FlankState, shape: Shape, result: Result) -> Thought[int]:
    """A search result as a Thought: squares, and the line cut where it leaves the rules."""
    line = [shape.square(bit) for bit in result.line]
    seats = result.seats or (None,) * len(line)
    playable = []
    position = state
    for move, seat in zip(line, seats, strict=True):
        if position.is_over or not position.moves_mask & shape.bit(move):
            break
        if seat is not None and position.to_move != (state.to_move + seat) % len(state.pieces):
            break
        playable.append(move)
        position = position.play(move)
    return Thought(line[0], tuple(playable), result.score, result.depth, result.nodes)


LEVELS: Final[tuple[Level, ...]] = (
    Level(
        "easy", "takes the move that flips the most, as the Best button does", _easy, quick=True
    ),
    Level(
        "medium",
        "looks a move ahead for each player, minding corners and edges",
        searcher(Plan(MEDIUM, MEDIUM_ROUND)),
        quick=True,
    ),
    Level(
        "hard",
        "searches as deep as its time allows, minding mobility and safe squares",
        searcher(Plan(HARD, HARD)),
    ),
    Level(
        "expert",
        "searches deeper still with a sharper eye, and plays endgames out perfectly",
        searcher(Plan(EXPERT_TWO, EXPERT_THREE)),
    ),
)
"""The flank games' bot levels, weakest first."""
