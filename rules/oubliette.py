"""Oubliette: an Abalone-like game of pushing on a hexagonal board with holes and blocks.

A move takes a straight, gap-free line of one's own pieces one cell in one direction:
in-line (along the line, the only way to push) or broadside (sideways, every piece into
an empty cell; a single piece moves in-line). An in-line move pushes a strictly shorter
line of opponent pieces ahead of it into an empty cell, a hole or off the board; a piece
pushed into a hole or off the board is ejected. One's own piece or a block behind theirs
stops the push, and one's own pieces never move off the board or into a hole.
Green moves first. Ejecting six (an option) wins; a player left with no move loses.

The default board is Abalone's with a hole in the centre cell and no limit on how many
pieces move at once, as the original text has it; `abalone` and `belgian-daisy` are
Abalone's own layouts with its limit of three.

Moves are written as the moved line's end cells and a direction: `c3-c5 ne` moves the line
c3, c4, c5 north-east; `a1 ne` moves one piece. Directions: e, ne, nw, w, sw, se.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple, Self, TypeGuard

from . import hexgrid
from .dealing import check_board_number
from .errors import MalformedMoveError, MalformedPositionError
from .game import Game, State
from .hexgrid import AXES, BOARD, CELL_BITS, CELL_NAMES, DIRECTIONS, OFF_BOARD, shift
from .jsonvalue import JsonValue
from .numbers import MAX_PLY, whole_number
from .options import ChoiceOption, IntOption, Options

SEATS = ("green", "red")
LETTERS = "GR"
EMPTY, HOLE, BLOCK = ".", "*", "#"
NO_LIMIT = 2 * hexgrid.SIDE - 1
"""A limit as long as the longest line on the board is no limit at all."""
MAX_WIN = 30
"""The most ejections a position may ask for to win (boards made by hand may hold more)."""
MAX_PLIES = 100_000


class OublietteMove(NamedTuple):
    """A line of cells (indices, ascending) and the direction it moves in."""

    cells: tuple[int, ...]
    direction: str


SIDEWAYS = {axis: tuple(d for d in DIRECTIONS.values() if d not in (axis, -axis)) for axis in AXES}
"""For each axis, the four directions a line along it moves broadside."""

MoveSet = tuple[int, int, int, int, int]
"""Moves of one shape found together: (tails, length, axis, direction, pushed). `tails` has
a bit for each line that can move (its cell lowest along `axis`); `pushed` counts the
opponent pieces pushed (0 for none)."""


def _move_sets(own: int, opp: int, holes: int, blocks: int, limit: int) -> list[MoveSet]:
    """Every legal move of the side with `own` pieces, grouped by shape as bitboards.

    Along each axis the lines grow a cell at a time, and with them the runs of cells whose
    neighbour on each side is empty, which broadside moves need.
    """
    empty = BOARD & ~(own | opp | holes | blocks)
    sink = empty | holes | OFF_BOARD
    found: list[MoveSet] = []
    add = found.append
    for axis in AXES:
        a, b, c, d = SIDEWAYS[axis]
        clear_a, clear_b = shift(empty, -a), shift(empty, -b)
        clear_c, clear_d = shift(empty, -c), shift(empty, -d)
        run_a, run_b, run_c, run_d = clear_a, clear_b, clear_c, clear_d
        behind = empty << axis
        tails = own
        length = 1
        while tails and length <= limit:
            step = length * axis
            moving = tails & (empty >> step)
            if moving:
                add((moving, length, axis, axis, 0))
            moving = tails & behind
            if moving:
                add((moving, length, axis, -axis, 0))
            if length > 1:
                for direction, ahead in ((axis, step), (-axis, -axis)):
                    pushing = tails & shift(opp, -ahead)
                    pushed = 1
                    while pushing and pushed < length:
                        beyond = ahead + pushed * direction
                        moving = pushing & shift(sink, -beyond)
                        if moving:
                            add((moving, length, axis, direction, pushed))
                        pushing &= shift(opp, -beyond)
                        pushed += 1
                for direction, runs in ((a, run_a), (b, run_b), (c, run_c), (d, run_d)):
                    moving = tails & runs
                    if moving:
                        add((moving, length, axis, direction, 0))
            tails &= own >> step
            run_a &= clear_a >> step
            run_b &= clear_b >> step
            run_c &= clear_c >> step
            run_d &= clear_d >> step
            length += 1
    return found


def _count(own: int, opp: int, holes: int, blocks: int, limit: int) -> int:
    """How many legal moves the side with `own` pieces has, without listing them."""
    return sum(found[0].bit_count() for found in _move_sets(own, opp, holes, blocks, limit))


_LINE_SPANS = {
    (length, axis): sum(1 << (k * axis) for k in range(length))
    for axis in AXES
    for length in range(1, NO_LIMIT + 1)
}
"""Each (length, axis): the line from bit 0; the line from any cell is that cell's bit times it."""


class _Outcome(NamedTuple):
    """One legal move and the pieces it leaves."""

    line: int
    direction: int
    own: int
    opp: int
    pushed: int
    ejects: bool


def _outcomes(own: int, opp: int, holes: int, blocks: int, limit: int) -> Iterator[_Outcome]:
    """Every legal move of the side with `own` pieces, with the pieces it leaves."""
    empty = BOARD & ~(own | opp | holes | blocks)
    for moving, length, axis, direction, pushed in _move_sets(own, opp, holes, blocks, limit):
        tails = moving
        span = _LINE_SPANS[length, axis]
        if direction not in (axis, -axis):
            while tails:
                tail = tails & -tails
                tails ^= tail
                line = tail * span
                yield _Outcome(line, direction, own ^ line ^ shift(line, direction), opp, 0, False)
            continue
        ahead = length * axis if direction > 0 else -axis
        rear = 0 if direction > 0 else (length - 1) * axis
        while tails:
            tail = tails & -tails
            tails ^= tail
            line = tail * span
            front = shift(tail, ahead)
            moved = own ^ shift(tail, rear) ^ front
            if not pushed:
                yield _Outcome(line, direction, moved, opp, 0, False)
                continue
            landing = shift(tail, ahead + pushed * direction) & empty
            yield _Outcome(line, direction, moved, opp ^ front ^ landing, pushed, not landing)


DIRECTION_NAMES = {distance: name for name, distance in DIRECTIONS.items()}
_MOVE_TEXT = re.compile(r"([a-z][0-9]+)(?:\s*-\s*([a-z][0-9]+))?\s*([a-z]+)")


def _line_between(first: int, last: int) -> tuple[int, ...]:
    """The cells from `first` to `last` if they lie on one straight line, else ()."""
    low, high = sorted((first, last))
    if low == high:
        return (low,)
    for axis in AXES:
        name = DIRECTION_NAMES[axis]
        cells = [low]
        while cells[-1] != high:
            following = hexgrid.step(cells[-1], name)
            if following is None:
                break
            cells.append(following)
        if cells[-1] == high:
            return tuple(cells)
    return ()


@dataclass(frozen=True, slots=True)
class Layout:
    """What stays fixed through a game: holes, blocks and the rule settings."""

    holes: int = 0
    blocks: int = 0
    limit: int = NO_LIMIT
    """The most of one's own pieces a move may move."""
    win: int = 6
    """Ejections that win."""
    max_plies: int = 0
    """Plies after which the game is drawn; 0 for no limit."""


@dataclass(frozen=True, slots=True)
class OublietteState(State[OublietteMove]):
    """A position of Oubliette: green's and red's pieces, who is to move, the ejections."""

    game: "OublietteGame"
    layout: Layout
    pieces: tuple[int, int]
    to_move: int
    ejected: tuple[int, int] = (0, 0)
    """How many opponent pieces each seat has ejected."""
    ply: int = 0
    last_move: OublietteMove | None = field(default=None, compare=False)
    last_pushed: int = field(default=0, compare=False)
    """How many opponent pieces the last move pushed."""
    last_ejected: bool = field(default=False, compare=False)
    passed: tuple[int, ...] = field(default=(), init=False, compare=False)
    move_count: int = field(init=False, compare=False, repr=False)
    """How many legal moves the seat to move has."""
    _table: dict[OublietteMove, _Outcome] | None = field(
        default=None, init=False, compare=False, repr=False
    )
    """The legal moves and where each leads, worked out when first asked for."""

    def __post_init__(self) -> None:
        own, opp = self._own_opp()
        layout = self.layout
        count = _count(own, opp, layout.holes, layout.blocks, layout.limit)
        object.__setattr__(self, "move_count", count)

    def _decided(self) -> bool:
        """Whether the game ended on ejections or the ply limit (before looking at moves)."""
        limit = self.layout.max_plies
        return max(self.ejected) >= self.layout.win or bool(limit and self.ply >= limit)

    @property
    def is_over(self) -> bool:
        return self._decided() or not self.move_count

    def winners(self) -> tuple[int, ...]:
        """The seat that ejected enough; both at the ply limit; else the one not stuck."""
        for seat in (0, 1):
            if self.ejected[seat] >= self.layout.win:
                return (seat,)
        if self._decided():
            return (0, 1)
        return (1 - self.to_move,) if not self.move_count else ()

    def _own_opp(self) -> tuple[int, int]:
        """The pieces of the seat to move, then the other seat's."""
        return self.pieces[self.to_move], self.pieces[1 - self.to_move]

    def _outcomes(self) -> dict[OublietteMove, _Outcome]:
        """The legal moves and where each leads."""
        if self._table is not None:
            return self._table
        table: dict[OublietteMove, _Outcome] = {}
        if not self._decided():
            own, opp = self._own_opp()
            layout = self.layout
            for found in _outcomes(own, opp, layout.holes, layout.blocks, layout.limit):
                cells = tuple(hexgrid.cells_of(found.line))
                table[OublietteMove(cells, DIRECTION_NAMES[found.direction])] = found
        object.__setattr__(self, "_table", table)
        return table

    def legal_moves(self) -> tuple[OublietteMove, ...]:
        return tuple(self._outcomes())

    def play(self, move: OublietteMove) -> Self:
        table = self._outcomes()
        try:
            found = table.get(move)
        except TypeError:
            found = None
        if found is None:
            error = self._refuse(self._describe(move))
            reason = self._reason(move) if self._well_formed(move) else None
            raise type(error)(f"{error}: {reason}") if reason and not self.is_over else error
        mover = self.to_move
        pieces = (found.own, found.opp) if mover == 0 else (found.opp, found.own)
        ejected = list(self.ejected)
        ejected[mover] += found.ejects
        return type(self)(
            self.game,
            self.layout,
            pieces,
            1 - mover,
            (ejected[0], ejected[1]),
            self.ply + 1,
            move,
            found.pushed,
            found.ejects,
        )

    def pushed_off(self, move: OublietteMove) -> str | None:
        """The cell of the opponent's piece `move` pushes into a hole or off the board, if
        it pushes one off: the last of their pieces in the row ahead of the moving line."""
        found = self._outcomes().get(move)
        if found is None or not found.ejects:
            return None
        line = set(move.cells)
        lead = next(cell for cell in move.cells if hexgrid.step(cell, move.direction) not in line)
        victims = self.pieces[1 - self.to_move]
        last, cell = lead, hexgrid.step(lead, move.direction)
        while cell is not None and victims & CELL_BITS[cell]:
            last, cell = cell, hexgrid.step(cell, move.direction)
        return CELL_NAMES[last]

    def _describe(self, move: object) -> str:
        """A move in notation if it is shaped like one, else as Python shows it."""
        return self.format_move(move) if self._well_formed(move) else repr(move)

    @staticmethod
    def _well_formed(move: object) -> TypeGuard[OublietteMove]:
        """Whether `move` is shaped like a move: cells on the board and a direction."""
        return (
            isinstance(move, OublietteMove)
            and bool(move.cells)
            and all(isinstance(c, int) and 0 <= c < hexgrid.CELL_COUNT for c in move.cells)
            and isinstance(move.direction, str)
            and move.direction in DIRECTIONS
        )

    def refusal(self, move: OublietteMove) -> str | None:
        """Why `move` (a straight line of cells and a direction, as `parse_move` reads it)
        cannot be played here, in a sentence for a player new to the game; None if it can."""
        reason = self._reason(move)
        if reason is None or self.is_over:
            return reason
        what = "That piece" if len(move.cells) == 1 else "That line"
        return f"{what} cannot move there: {reason}."

    def _reason(self, move: OublietteMove) -> str | None:
        """Why `move` cannot be played here, as the rules have it; None if it can: one's own
        pieces only, at most the limit of them; never off the board or into a hole; a block
        or one's own piece in the way; a push only by more pieces than it pushes, into a free
        cell, a hole or off the board; sideways, every piece into an empty cell."""
        if move in self._outcomes():
            return None
        if self.is_over:
            return "The game is over."
        own, opp = self._own_opp()
        cells, direction = move.cells, move.direction
        if not all(own & CELL_BITS[cell] for cell in cells):
            return f"only {SEATS[self.to_move]}'s own pieces move now"
        if len(cells) > self.layout.limit:
            return f"a move moves at most {self.layout.limit} pieces"
        inline = len(cells) == 1 or hexgrid.step(cells[0], direction) in cells
        if inline or hexgrid.step(cells[-1], direction) in cells:
            return self._inline_refusal(cells, direction, own, opp)
        return self._sideways_refusal(cells, direction)

    def _blocker(self, cell: int, own: int, opp: int) -> str | None:
        """What is on `cell`, in words, if anything is."""
        bit = CELL_BITS[cell]
        for bits, words in (
            (self.layout.holes, "a hole"),
            (self.layout.blocks, "a block"),
            (own, "your own piece"),
            (opp, "an opponent's piece"),
        ):
            if bits & bit:
                return words
        return None

    def _inline_refusal(self, cells: tuple[int, ...], direction: str, own: int, opp: int) -> str:
        """Why a line cannot move along itself (or a single piece at all) this way."""
        front = next(cell for cell in cells if hexgrid.step(cell, direction) not in cells)
        ahead = hexgrid.step(front, direction)
        if ahead is None:
            return "your own pieces never leave the board"
        there = self._blocker(ahead, own, opp)
        name = CELL_NAMES[ahead]
        if there == "a hole":
            return "your own pieces never go into a hole"
        if there in ("a block", "your own piece"):
            return f"{there} on {name} is in the way"
        if there is None:
            return "that is not a legal move"
        if len(cells) == 1:
            return "a single piece cannot push"
        pushed: int | None = ahead
        count = 0
        while pushed is not None and opp & CELL_BITS[pushed]:
            count += 1
            pushed = hexgrid.step(pushed, direction)
        if count >= len(cells):
            return f"a push needs more of your pieces than theirs ({len(cells)} against {count})"
        behind = None if pushed is None else self._blocker(pushed, own, opp)
        if pushed is not None and behind in ("a block", "your own piece"):
            return f"{behind} on {CELL_NAMES[pushed]} stops the push"
        return "that is not a legal move"

    def _sideways_refusal(self, cells: tuple[int, ...], direction: str) -> str:
        """Why a line cannot move sideways this way: the first cell it cannot move into."""
        own, opp = self._own_opp()
        for cell in cells:
            to = hexgrid.step(cell, direction)
            if to is None:
                return f"moving sideways, the piece on {CELL_NAMES[cell]} would leave the board"
            there = self._blocker(to, own, opp)
            if there is not None:
                verb = "is" if there in ("a hole", "a block") else "holds"
                return (
                    f"moving sideways, every piece needs an empty cell, and {CELL_NAMES[to]}"
                    f" {verb} {there}"
                )
        return "that is not a legal move"

    def scores(self) -> tuple[int, ...]:
        return self.ejected

    def best_moves(self) -> tuple[OublietteMove, ...]:
        """The moves that eject a piece; failing that, those that push; else every move."""
        outcomes = self._outcomes()
        gains = {move: 2 * found.ejects + bool(found.pushed) for move, found in outcomes.items()}
        best = max(gains.values(), default=0)
        return tuple(move for move, gain in gains.items() if gain == best)

    def _count_leaves(self, depth: int) -> int:
        own, opp = self._own_opp()
        mover = self.to_move
        plies_left = self.layout.max_plies - self.ply if self.layout.max_plies else -1
        ejected = (self.ejected[mover], self.ejected[1 - mover])
        return _perft(self.layout, own, opp, ejected, plies_left=plies_left, depth=depth)

    def parse_move(self, text: str) -> OublietteMove:
        match = _MOVE_TEXT.fullmatch(text.strip().lower())
        if match is None or match[3] not in DIRECTIONS:
            raise MalformedMoveError(
                f"{text!r} is not a move: write the line's end cells and a direction,"
                " like 'c3-c5 ne' or 'a1 e' (directions: e, ne, nw, w, sw, se)"
            )
        first = hexgrid.parse_cell(match[1])
        last = hexgrid.parse_cell(match[2]) if match[2] else first
        cells = _line_between(first, last)
        if not cells:
            raise MalformedMoveError(
                f"{CELL_NAMES[first]} and {CELL_NAMES[last]} are not on one straight line"
            )
        return OublietteMove(cells, match[3])

    def format_move(self, move: OublietteMove) -> str:
        first, last = CELL_NAMES[move.cells[0]], CELL_NAMES[move.cells[-1]]
        line = first if first == last else f"{first}-{last}"
        return f"{line} {move.direction}"

    def rows(self) -> list[str]:
        """The board row by row from the top (row i), each by number: `.`, `*`, `#`, G or R."""
        green, red = self.pieces
        symbols = (
            (green, "G"),
            (red, "R"),
            (self.layout.holes, HOLE),
            (self.layout.blocks, BLOCK),
        )
        return [
            "".join(
                next((mark for bits, mark in symbols if bits & CELL_BITS[cell]), EMPTY)
                for cell in row
            )
            for row in hexgrid.ROWS_FROM_TOP
        ]

    def format_position(self) -> str:
        """Rows from the top joined by `/`, the seat to move, ejections, limit, win, plies.

        The default start: `RRRRR/RRRRRR/..RRR../......../....*..../......../..GGG../GGGGGG/GGGGG
        G 0:0 9 6 0 0` (on one line): green has ejected 0 and red 0, a move may move up to 9
        pieces (no limit), 6 ejections win, no ply has been played, and no ply limit is set.
        """
        layout = self.layout
        return (
            f"{'/'.join(self.rows())} {LETTERS[self.to_move]} {self.ejected[0]}:{self.ejected[1]}"
            f" {layout.limit} {layout.win} {self.ply} {layout.max_plies}"
        )

    def observation(self, seat: int | None = None) -> dict[str, JsonValue]:
        """Everything is in view of both seats, so `seat` changes nothing."""
        over = self.is_over
        green, red = self.pieces

        def names(bits: int) -> list[JsonValue]:
            return [CELL_NAMES[cell] for cell in hexgrid.cells_of(bits)]

        return {
            "game": self.game.name,
            "seats": list(SEATS),
            "rows": list[JsonValue](self.rows()),
            "row_cells": [[CELL_NAMES[cell] for cell in row] for row in hexgrid.ROWS_FROM_TOP],
            "pieces": {"green": names(green), "red": names(red)},
            "holes": names(self.layout.holes),
            "blocks": names(self.layout.blocks),
            "to_move": None if over else SEATS[self.to_move],
            "legal_moves": [self.format_move(move) for move in self.legal_moves()],
            "last_move": None if self.last_move is None else self.format_move(self.last_move),
            "last_pushed": self.last_pushed,
            "last_ejected": self.last_ejected,
            "ejected": dict(zip(SEATS, self.ejected, strict=True)),
            "scores": dict(zip(SEATS, self.scores(), strict=True)),
            "limit": self.layout.limit,
            "win": self.layout.win,
            "ply": self.ply,
            "over": over,
            "winners": [SEATS[s] for s in self.winners()],
            "position": self.format_position(),
        }


def _perft(
    layout: Layout, own: int, opp: int, ejected: tuple[int, int], *, plies_left: int, depth: int
) -> int:
    """Perft with `own` to move in a game not decided yet; `ejected` is (mover's, other's)."""
    holes, blocks, limit = layout.holes, layout.blocks, layout.limit
    if depth == 1:
        return _count(own, opp, holes, blocks, limit) or 1
    total = 0
    own_ejected, opp_ejected = ejected
    for found in _outcomes(own, opp, holes, blocks, limit):
        now_ejected = own_ejected + found.ejects
        if now_ejected >= layout.win or plies_left == 1:
            total += 1
        else:
            after = (opp_ejected, now_ejected)
            total += _perft(
                layout, found.opp, found.own, after, plies_left=plies_left - 1, depth=depth - 1
            )
    return total or 1


def _cells(names: str) -> int:
    """The bitboard of the cells named, space separated."""
    return hexgrid.mask([hexgrid.parse_cell(name) for name in names.split()])


STANDARD = (
    _cells("a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5"),
    _cells("i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7"),
)
BELGIAN_DAISY = (
    _cells("a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9"),
    _cells("a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6"),
)
PIECES = STANDARD[0].bit_count()
"""Pieces a side on every board Oubliette deals, so the most ejections a game can need."""
PRESETS: dict[str, tuple[tuple[int, int], Layout]] = {
    "oubliette": (STANDARD, Layout(holes=_cells("e5"))),
    "abalone": (STANDARD, Layout(limit=3)),
    "belgian-daisy": (BELGIAN_DAISY, Layout(limit=3)),
}
"""Each board: green's and red's pieces, and its holes, blocks and limit."""


class OublietteGame(Game[OublietteMove]):
    """Oubliette and its boards."""

    name = "oubliette"
    title = "Oubliette"
    seats = SEATS
    highest_score_wins = False
    option_specs = (
        ChoiceOption("board", "oubliette", tuple(PRESETS), "the starting board"),
        IntOption("limit", 0, 0, NO_LIMIT, "most pieces a move may move; 0: the board's own"),
        IntOption("eject", 6, 1, PIECES, "ejections that win"),
        IntOption("max_plies", 0, 0, MAX_PLIES, "plies after which the game is drawn; 0: never"),
    )

    def new(self, options: Options | None = None, seed: int = 0) -> OublietteState:
        """The chosen board; nothing is random, so the board number changes nothing."""
        check_board_number(seed)
        chosen = self.resolve_options(options)
        pieces, preset = PRESETS[str(chosen["board"])]
        limit = int(chosen["limit"]) or preset.limit
        layout = Layout(
            preset.holes, preset.blocks, limit, int(chosen["eject"]), int(chosen["max_plies"])
        )
        return OublietteState(self, layout, pieces, 0)

    def parse_position(self, text: str) -> OublietteState:
        """Read `format_position`'s text; the ply and the ply limit may be left off (0 0)."""
        fields = text.split()
        if len(fields) not in (5, 7):
            raise MalformedPositionError(
                "a position is the rows from the top joined by '/', the seat to move (G or R),"
                " the ejections as green:red, the limit, the ejections that win, and"
                " optionally the ply and the ply limit"
            )
        board, letter, ejections, limit, win = fields[:5]
        ply, max_plies = fields[5:] or ("0", "0")
        rows = board.split("/")
        lengths = [len(row) for row in hexgrid.ROWS_FROM_TOP]
        if [len(row) for row in rows] != lengths:
            raise MalformedPositionError(
                f"the board has rows of {', '.join(map(str, lengths))} cells, from row i to row a"
            )
        cells = [cell for row in hexgrid.ROWS_FROM_TOP for cell in row]
        marks = "".join(rows)
        stray = sorted(set(marks) - set(LETTERS + EMPTY + HOLE + BLOCK))
        if stray:
            raise MalformedPositionError(
                f"{stray[0]!r} is not a cell: use {EMPTY} (empty), {HOLE} (hole), {BLOCK} (block),"
                " G or R"
            )

        def where(mark: str) -> int:
            """The bitboard of the cells marked `mark`."""
            return hexgrid.mask(
                cell for cell, char in zip(cells, marks, strict=True) if char == mark
            )

        if letter not in ("G", "R"):
            raise MalformedPositionError(f"{letter!r} is not a seat: the seat to move is G or R")
        green_ejected, colon, red_ejected = ejections.partition(":")
        if not colon:
            raise MalformedPositionError(f"{ejections!r} is not green:red ejections, like 0:2")
        ejected = (
            whole_number(green_ejected, 0, hexgrid.CELL_COUNT, "green's ejections"),
            whole_number(red_ejected, 0, hexgrid.CELL_COUNT, "red's ejections"),
        )
        layout = Layout(
            where(HOLE),
            where(BLOCK),
            whole_number(limit, 1, NO_LIMIT, "the limit"),
            whole_number(win, 1, MAX_WIN, "the ejections that win"),
            whole_number(max_plies, 0, MAX_PLIES, "the ply limit"),
        )
        if min(ejected) >= layout.win:
            raise MalformedPositionError("both sides cannot have ejected enough to win")
        pieces = (where("G"), where("R"))
        played = whole_number(ply, 0, MAX_PLY, "the ply")
        return OublietteState(self, layout, pieces, LETTERS.index(letter), ejected, played)


OUBLIETTE = OublietteGame()
