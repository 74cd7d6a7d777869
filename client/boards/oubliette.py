"""Oubliette's board: the hexagon as offset rows, each cell three columns wide and four apart
so that neighbouring rows interleave, row letters at the left and each diagonal's number
below its lower end, as Abalone diagrams have them.

A move is picked as the original game took it with the mouse: the pieces of the line one
by one, then the cell the last of them moves to. The geometry comes from the rules' hex
grid; whether a move is legal is left to the server.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from rich.style import Style
from rich.text import Text

from parlour.rules import hexgrid

from ..colours import BLACK_LETTER, HINT_YELLOW, ink_style
from .base import CHANGED, Board, Cell, Marks, Observation, Pick, Step
from .flank import LABEL

PITCH = 4
"""Columns from one cell to the next in a row; the row above starts half of it aside."""
CELL_WIDTH = 3
BOTTOM = 2 * hexgrid.SIDE - 2
"""The picture row of the board's bottom row (a); row i is at the top, picture row 0."""
LEFT = 2 * PITCH
"""Added to every column so that the middle row's letter lands in column 0."""

PIECE = "●"
PICKED_PIECE = "◉"
"""A picked piece, with the small circle the original drew in its centre."""
EMPTY = "·"
HOLE = "◌"
BLOCK = "■"

EMPTY_STYLE = Style(color="grey50")
HOLE_STYLE = Style(color="grey50", bold=True)
BLOCK_STYLE = Style(color="grey70")
LAST_MOVED = Style(bgcolor="grey19")
LAST_PUSHED = Style(underline=True)
HINT = Style(bgcolor=HINT_YELLOW)
HINT_ON_EMPTY = Style(color=BLACK_LETTER)
PICKED = Style(bgcolor="grey37", bold=True)
CURSOR = Style(reverse=True)

AXES = ("e", "ne", "nw")
"""The positive direction along each of the three lines through a cell."""
DIRECTIONS = tuple(hexgrid.DIRECTIONS)

_INDEX = {name: i for i, name in enumerate(hexgrid.CELL_NAMES)}
_MOVE = re.compile(r"\s*([a-i][1-9])(?:\s*-\s*([a-i][1-9]))?\s+([a-z]+)\s*")

Line = tuple[str, ...]
"""Cells in a straight, gap-free row, in the rules' order (a1 first, i9 last)."""


def coordinates(name: str) -> tuple[int, int]:
    """A cell's row (0 for a) and number."""
    return hexgrid.ROW_LETTERS.index(name[0]), int(name[1:])


def centre(row: int, number: int) -> tuple[int, int]:
    """The picture column and row of the middle of the cell (or label) at `row`, `number`.

    Stepping north-east moves half a pitch right and up a row, north-west half a pitch left.
    """
    return PITCH * number - PITCH // 2 * row + LEFT, BOTTOM - row


def neighbour(name: str, direction: str) -> str | None:
    """The cell one step from `name` in `direction`, or None off the board."""
    index = _INDEX.get(name)
    found = None if index is None else hexgrid.step(index, direction)
    return None if found is None else hexgrid.CELL_NAMES[found]


def direction_to(origin: str, target: str) -> str | None:
    """The direction from `origin` to `target` if they are neighbours."""
    return next((d for d in DIRECTIONS if neighbour(origin, d) == target), None)


def in_order(cells: Iterable[str]) -> Line:
    """The cells sorted as the rules number them."""
    return tuple(sorted(cells, key=_INDEX.__getitem__))


def line_between(first: str, last: str) -> Line:
    """The cells from one end to the other if both lie on one straight line, else ()."""
    low, high = in_order((first, last))
    for axis in AXES:
        cells = [low]
        while _INDEX[cells[-1]] < _INDEX[high]:
            following = neighbour(cells[-1], axis)
            if following is None:
                break
            cells.append(following)
        if cells[-1] == high:
            return tuple(cells)
    return ()


def as_line(cells: Iterable[str]) -> Line:
    """The cells as a line if they make a straight, gap-free one, else ()."""
    unique = set(cells)
    if not unique or not unique <= _INDEX.keys():
        return ()
    ordered = in_order(unique)
    line = line_between(ordered[0], ordered[-1])
    return line if set(line) == unique else ()


def parse_move(text: str) -> tuple[Line, str] | None:
    """A move text's line and direction, or None if it is not shaped like a move."""
    match = _MOVE.fullmatch(text.lower())
    if match is None or match[3] not in DIRECTIONS:
        return None
    if match[1] not in _INDEX or (match[2] is not None and match[2] not in _INDEX):
        return None
    line = line_between(match[1], match[2] or match[1])
    return (line, match[3]) if line else None


def move_text(line: Line, direction: str) -> str:
    """How the rules write a line's move: its end cells and the direction."""
    first, last = line[0], line[-1]
    return f"{first if first == last else f'{first}-{last}'} {direction}"


def destinations(line: Iterable[str], direction: str) -> set[str]:
    """The cells a line's pieces move to (those on the board)."""
    return {to for cell in line if (to := neighbour(cell, direction)) is not None}


def keep_connected(picked: Sequence[str]) -> tuple[str, ...]:
    """The picked pieces still in one line with the earliest of them, in picking order."""
    if not picked:
        return ()
    kept = {picked[0]}
    grown = True
    while grown:
        grown = False
        for cell in picked:
            if cell not in kept and as_line((*kept, cell)):
                kept.add(cell)
                grown = True
    return tuple(cell for cell in picked if cell in kept)


@dataclass(slots=True)
class _Canvas:
    """Characters and their styles by picture row and column, turned into Text at the end."""

    rows: dict[int, dict[int, tuple[str, Style]]] = field(default_factory=dict)

    def put(self, x: int, y: int, text: str, style: Style) -> None:
        """Write `text` from column `x` of row `y`."""
        row = self.rows.setdefault(y, {})
        for offset, char in enumerate(text):
            row[x + offset] = (char, style)

    def text(self) -> Text:
        """Every row down to the last one written, blank columns as plain spaces."""
        text = Text()
        blank = (" ", Style())
        for y in range(max(self.rows, default=-1) + 1):
            if y:
                text.append("\n")
            row = self.rows.get(y, {})
            columns = [row.get(x, blank) for x in range(max(row, default=-1) + 1)]
            for style, run in groupby(columns, key=lambda column: column[1]):
                text.append("".join(char for char, _ in run), style)
        return text


class OublietteBoard(Board):
    """Oubliette's hexagon drawn from the observation's `row_cells`, pieces, holes and blocks."""

    def __init__(self, observation: Observation) -> None:
        super().__init__(observation)
        self._seat_of = {
            cell: seat for seat, cells in observation["pieces"].items() for cell in cells
        }
        self._holes = frozenset[str](observation["holes"])
        self._blocks = frozenset[str](observation["blocks"])
        self._cells = tuple(
            Cell(name, x - CELL_WIDTH // 2, y, CELL_WIDTH)
            for row in observation["row_cells"]
            for name in row
            for x, y in [centre(*coordinates(name))]
        )
        self._legal = self._legal_moves(observation["legal_moves"])
        self._moved, self._pushed = self._last_move()

    @property
    def cells(self) -> Sequence[Cell]:
        return self._cells

    @staticmethod
    def _legal_moves(texts: Iterable[str]) -> dict[tuple[frozenset[str], str], str]:
        """Each legal move's text by its cells and direction, whichever end it names first."""
        found = {}
        for text in texts:
            parsed = parse_move(text)
            if parsed is not None:
                found[frozenset(parsed[0]), parsed[1]] = text
        return found

    def _last_move(self) -> tuple[set[str], set[str]]:
        """Where the last move's line went, and where the pieces it pushed went (a hole too)."""
        last = self.observation.get("last_move")
        parsed = None if last is None else parse_move(last)
        if parsed is None:
            return set(), set()
        line, direction = parsed
        moved = destinations(line, direction)
        ahead = moved - set(line)
        pushed: set[str] = set()
        lead = ahead.pop() if len(ahead) == 1 else None
        for _ in range(self.observation.get("last_pushed", 0)):
            lead = None if lead is None else neighbour(lead, direction)
            if lead is not None:
                pushed.add(lead)
        return moved, pushed

    def render(self, marks: Marks) -> Text:
        canvas = _Canvas()
        self._draw_labels(canvas)
        for cell in self._cells:
            char, style = self._content(cell.name, marks)
            canvas.put(cell.x, cell.y, f" {char} ", style + self._overlay(cell.name, marks))
        text = canvas.text()
        for line in self._legend():
            text.append("\n")
            text.append_text(line)
        return text

    def _draw_labels(self, canvas: _Canvas) -> None:
        """Each row's letter left of its first cell; each diagonal's number below its end."""
        lowest: dict[int, int] = {}
        for names in self.observation["row_cells"]:
            row, first = coordinates(names[0])
            canvas.put(*centre(row, first - 1), names[0][0], LABEL)
            for name in names:
                number = coordinates(name)[1]
                lowest[number] = min(row, lowest.get(number, row))
        for number, row in lowest.items():
            canvas.put(*centre(row - 1, number), str(number), LABEL)

    def _content(self, name: str, marks: Marks) -> tuple[str, Style]:
        """A cell's character and own style: a piece, a hole, a block or an empty dot."""
        seat = self._seat_of.get(name)
        if seat is not None:
            char = PICKED_PIECE if name in marks.picked else PIECE
            return char, ink_style(seat)
        if name in self._holes:
            return HOLE, HOLE_STYLE
        if name in self._blocks:
            return BLOCK, BLOCK_STYLE
        return EMPTY, EMPTY_STYLE

    def _overlay(self, name: str, marks: Marks) -> Style:
        """The marks on a cell, weakest first: the last move, hints, the pick, the cursor."""
        style = Style()
        if name in self._moved:
            style += LAST_MOVED
        if name in self._pushed:
            style += LAST_PUSHED
        if name in marks.changed:
            style += CHANGED
        if name in marks.hints:
            style += HINT if name in self._seat_of else HINT + HINT_ON_EMPTY
        if name in marks.picked:
            style += PICKED
        if name == marks.cursor:
            style += CURSOR
        return style

    def _legend(self) -> list[Text]:
        """Each seat's ejections against the number that wins, the ply, the last move."""
        observation = self.observation
        seats = Text()
        for seat in observation["seats"]:
            seats.append(f"{PIECE} ", ink_style(seat))
            ejected = observation["ejected"].get(seat, 0)
            seats.append(f"{seat} ejected {ejected} of {observation['win']}   ")
        seats.rstrip()
        limit = observation["limit"]
        size = "lines of any length" if limit >= 2 * hexgrid.SIDE - 1 else f"lines up to {limit}"
        lines = [seats, Text(f"ply {observation['ply']} · {size}", LABEL)]
        last = observation.get("last_move")
        if last is not None:
            pushed = observation.get("last_pushed", 0)
            told = f"last {last}" + (f", pushed {pushed}" if pushed else "")
            lines.append(Text(told + (", ejected one" if observation.get("last_ejected") else "")))
        return lines

    def pick(self, picked: tuple[str, ...], square: str) -> Pick:
        """Pieces of the mover's own are picked one by one into a line; then a cell next to
        the last one picked is where that piece goes, which gives the direction and the move.

        Clicking a picked piece again unpicks it, keeping the rest that still form a line
        with the earliest picked. An own piece that does not extend the line (or would make
        it longer than the limit) starts a new pick. Any other click clears the pick.
        """
        if square in picked:
            return Pick(keep_connected([cell for cell in picked if cell != square]))
        if square in self._seat_of and self._seat_of[square] == self.observation.get("to_move"):
            extended = (*picked, square)
            fits = as_line(extended) and len(extended) <= self.observation["limit"]
            return Pick(extended if fits else (square,))
        direction = direction_to(picked[-1], square) if picked else None
        line = as_line(picked)
        if direction is None or not line:
            return Pick(())
        composed = self._legal.get((frozenset(line), direction), move_text(line, direction))
        return Pick((), composed)

    def hint_squares(self, moves: Sequence[str]) -> frozenset[str]:
        """The cells of each move's line and the cells its pieces move to: for an in-line
        move the line and the cell ahead of it, for a broadside both rows."""
        squares: set[str] = set()
        for text in moves:
            parsed = parse_move(text)
            if parsed is not None:
                squares |= set(parsed[0]) | destinations(*parsed)
        return frozenset(squares)

    def step(self, square: str | None, direction: Step) -> str | None:
        """Left and right go along the row and stop at its ends. Up and down go to a cell
        in the next row, north-west or north-east by turns so that the cursor keeps to one
        column on screen and down undoes up; at the board's edge to the other one."""
        if square is None or square not in _INDEX:
            return self._cells[0].name if self._cells else None
        row, _ = coordinates(square)
        tries = {
            "left": ("w",),
            "right": ("e",),
            "up": ("nw", "ne") if row % 2 == 0 else ("ne", "nw"),
            "down": ("se", "sw") if (row - 1) % 2 == 0 else ("sw", "se"),
        }[direction]
        names = {cell.name for cell in self._cells}
        found = (neighbour(square, d) for d in tries)
        return next((cell for cell in found if cell in names), square)
