"""A finished game as frames to step through, with charts, as lichess's analysis board.

Each frame is the board after a move exactly as a spectator's room view carries it
(`state`), who moved and what, the cells the move changed, each seat's score, and a quick
computer judgement of the position: each seat's share of the win, from 0 to 1, summing to
1 (a finished game's shares are its result: the winners split 1, the others get 0). The
moves where a seat's own move cost it most are marked as its worst.

The judges of the positions are `parlour.bots.judges`.

A seat's worst moves, as lichess marks mistakes by the win chance they cost: a move's
loss is its mover's share before it less the mover's share after it. Moves that lost at
least `WORST_LOSS` are marked, at most `WORST_PER_SEAT` a seat (its largest losses, the
earlier on a tie), listed in move order. A move that was the only legal one is never
marked: the judges' one look ahead may see its cost, but no other move could avoid it.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from parlour.bots.judges import Shares, judge
from parlour.rules import JsonValue, State
from parlour.rules.flank import FlankState
from parlour.rules.gamefile import GameFile, SeatChange
from parlour.rules.grid import Grid
from parlour.rules.hexgrid import CELL_NAMES, ROWS_FROM_TOP
from parlour.rules.oubliette import OublietteState
from parlour.rules.tripppin import GRID, TripppinState
from parlour.rules.tripppin import LETTERS as TRIPPPIN_LETTERS

WORST_LOSS: Final = 0.1
"""The smallest loss of its mover's share that marks a move, lichess's inaccuracy: in
games between the quick bots, about one to three moves a game (benchmarks/replays.py)."""
WORST_PER_SEAT: Final = 3
PER: Final = 1000
"""Shares go on the wire in thousandths."""


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
            "evaluation": thousandths(self.evaluation),
        }


@dataclass(frozen=True, slots=True)
class Slip:
    """A move that cost its mover at least `WORST_LOSS` of its share of the win."""

    ply: int
    """The frame the move led to: the move numbered `ply` in the game file."""
    colour: str
    loss: float

    def describe(self) -> dict[str, JsonValue]:
        return {"ply": self.ply, "colour": self.colour, "loss": round(self.loss * PER)}


@dataclass(frozen=True, slots=True)
class Replay:
    """A game to step through: every frame, who judged the positions, the worst moves."""

    game: str
    seats: tuple[str, ...]
    names: tuple[str, ...]
    """Who held each seat at the start, in a game file's words."""
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
        """The replay as protocol.md 2.10's `replay` carries it: plain values only, shares
        and losses in whole thousandths (the protocol carries no floats)."""
        return {
            "game": self.game,
            "seats": list(self.seats),
            "names": list(self.names),
            "frames": [frame.describe() for frame in self.frames],
            "evaluator": self.evaluator,
            "worst": [slip.describe() for slip in self.worst],
            "result": {
                "over": self.over,
                "winners": list(self.winners),
                "scores": list(self.scores),
            },
            "seat_changes": [
                {"after": change.after, "seat": change.colour, "holder": change.holder}
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
        names=tuple(holders_at_start(parsed.tags.get("Seats", ""), game.seats)),
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
    """Oubliette: the cell of the piece the move from `before` to `after` pushed into a
    hole or off the board, as the rules tell it."""
    if not isinstance(before, OublietteState) or not isinstance(after, OublietteState):
        return ()
    move = after.last_move
    cell = None if move is None else before.pushed_off(move)
    return () if cell is None else (cell,)


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


def thousandths(shares: Sequence[float] | None) -> list[JsonValue] | None:
    """Shares of the win as whole thousandths that still add up to a thousand."""
    if shares is None:
        return None
    made = [round(share * PER) for share in shares]
    if made:
        made[made.index(max(made))] += PER - sum(made)
    wire: list[JsonValue] = list(made)
    return wire


def holders_at_start(tag: str, seats: Sequence[str]) -> list[str]:
    """Who held each seat at the start, from a game file's `Seats` tag (`blue: Ann; red:
    computer (hard)`); `?` for a seat it does not name."""
    named = {}
    for part in tag.split(";"):
        colour, _, holder = part.partition(":")
        if holder.strip():
            named[colour.strip()] = holder.strip()
    return [named.get(colour, "?") for colour in seats]
