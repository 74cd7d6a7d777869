"""Oubliette's board: the hexagon as offset rows, each cell three columns wide and four apart
so that neighbouring rows interleave, row letters at the left and each diagonal's number
below its lower end, as Abalone diagrams have them. The cells are light, so that both
seats' discs stand out on them whatever the terminal's background.

A move is picked as the original game took it with the mouse: the pieces of the line one
by one, then the cell the last of them moves to (or, to move along the line, the cell just
beyond either end). The cells a click would finish a legal move on are lit as soon as
pieces are picked; a click anywhere else keeps the pick and says why it makes no move, in
the rules' words (`OublietteState.refusal`). The last move is marked: the pieces it moved
and pushed and the cells it left, pointed at from either side, and a piece it pushed off
crossed out where it went.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from rich.style import Style
from rich.text import Text

from parlour.rules import RulesError, hexgrid
from parlour.rules.oubliette import OUBLIETTE, OublietteMove

from ..colours import HINT_YELLOW, PAPER, ink_style, rgb_colour, seat_colour
from .base import Board, Cell, Marks, Observation, Pick, Step, sides
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
LIT = "•"
"""An empty cell a hint or the pick lights up."""
GONE = "✕"
"""Where a piece the last move pushed off went: a hole, or just off the board."""

WELL = Style(bgcolor=rgb_colour(PAPER.squares[0]))
"""A cell: light, like the browser's wells, so that both seats' discs read on it."""
EMPTY_STYLE = Style(color=rgb_colour(PAPER.dot))
HOLE_STYLE = Style(color=rgb_colour(PAPER.ink), bold=True)
BLOCK_STYLE = Style(color=rgb_colour("#5f6166"))
MARK = Style(color=rgb_colour(PAPER.ink), bold=True)
"""The cursor's brackets and the last move's pointers, on a light cell."""
LIT_BACKGROUND = "#000000"
HINT = Style(bgcolor=rgb_colour(LIT_BACKGROUND))
"""A cell a hint or the pick lights up: dark on the light board, so that a disc on it
still reads and an empty one shows a yellow dot."""
LIT_MARK = Style(color=rgb_colour(HINT_YELLOW), bold=True)
PICKED = Style(bgcolor=rgb_colour(LIT_BACKGROUND), bold=True)

DELTAS = {"e": (0, 1), "ne": (1, 1), "nw": (1, 0), "w": (0, -1), "sw": (-1, -1), "se": (-1, 0)}
"""Each direction's step in (row, number), on the board or off it."""
HOW_TO_MOVE = (
    "To move, click your pieces in a straight line one by one, then the cell the last one"
    " moves to."
)

AXES = ("e", "ne", "nw")
"""The positive direction along each of the three lines through a cell."""
DIRECTIONS = tuple(hexgrid.DIRECTIONS)
OPPOSITE = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}

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


def cell_name(where: tuple[int, int]) -> str | None:
    """The name of the cell at a row and number, or None off the board."""
    row, number = where
    name = f"{hexgrid.ROW_LETTERS[row]}{number}" if 0 <= row < len(hexgrid.ROW_LETTERS) else ""
    return name if name in _INDEX else None


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
        self.moved, self.pushed, self.left, self.gone = self._last_move()

    @property
    def cells(self) -> Sequence[Cell]:
        return self._cells

    def _cell(self, name: str) -> Cell:
        return next(cell for cell in self._cells if cell.name == name)

    @staticmethod
    def _legal_moves(texts: Iterable[str]) -> dict[tuple[frozenset[str], str], str]:
        """Each legal move's text by its cells and direction, whichever end it names first."""
        found = {}
        for text in texts:
            parsed = parse_move(text)
            if parsed is not None:
                found[frozenset(parsed[0]), parsed[1]] = text
        return found

    def _last_move(self) -> tuple[set[str], set[str], set[str], tuple[int, int] | None]:
        """What the last move did: where its line went, where the pieces it pushed went (a
        hole too), the cells the line left, and the row and number (perhaps off the board)
        where a piece it pushed off went."""
        last = self.observation.get("last_move")
        parsed = None if last is None else parse_move(last)
        if parsed is None:
            return set(), set(), set(), None
        line, direction = parsed
        moved = destinations(line, direction)
        ahead = moved - set(line)
        pushed: set[str] = set()
        lead = coordinates(ahead.pop()) if len(ahead) == 1 else None
        gone = None
        for _ in range(self.observation.get("last_pushed", 0)):
            if lead is None:
                break
            lead = (lead[0] + DELTAS[direction][0], lead[1] + DELTAS[direction][1])
            name = cell_name(lead)
            if name is None:
                gone = lead
            else:
                pushed.add(name)
                gone = lead if name in self._holes else None
        if not self.observation.get("last_ejected"):
            gone = None
        return moved, pushed, set(line) - moved, gone

    def render(self, marks: Marks) -> Text:
        canvas = _Canvas()
        for row in self.observation["row_cells"]:
            first, last = (self._cell(row[0]), self._cell(row[-1]))
            canvas.put(first.x - 1, first.y, " " * (last.x + last.width - first.x + 2), WELL)
        self._draw_labels(canvas)
        lit = marks.hints | self.targets(marks.picked)
        recent = self.moved | self.pushed | self.left
        for cell in self._cells:
            name = cell.name
            char, style = self._content(name, marks)
            if name in marks.picked:
                style += PICKED
            elif name in lit:
                style += HINT
                char, style = (LIT, style + LIT_MARK) if char == EMPTY else (char, style)
            framing = sides(name, marks, moved=name in recent)
            canvas.put(cell.x, cell.y, " " * cell.width, WELL + style.background_style)
            canvas.put(cell.x + 1, cell.y, char, WELL + style)
            if framing is not None:
                mark = WELL + (LIT_MARK if name in lit or name in marks.picked else MARK)
                canvas.put(cell.x, cell.y, framing[0], mark + style.background_style)
                canvas.put(cell.x + 2, cell.y, framing[1], mark + style.background_style)
        if self.gone is not None:
            x, y = centre(*self.gone)
            canvas.put(x, y, GONE, self._gone_style(self.gone))
        text = canvas.text()
        for line in self._legend():
            text.append("\n")
            text.append_text(line)
        return text

    def _gone_style(self, where: tuple[int, int]) -> Style:
        """The cross where a pushed-off piece went: in its seat's colour, on a hole's cell."""
        movers = {self._seat_of.get(cell) for cell in self.moved}
        victims = [seat for seat in self.observation["seats"] if seat not in movers]
        style = Style(color=seat_colour(victims[0]), bold=True) if victims else MARK
        return WELL + style if cell_name(where) in self._holes else style

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

    def _legend(self) -> list[Text]:
        """Each seat's ejections against the number that wins, the ply, the last move."""
        observation = self.observation
        seats = Text()
        for seat in observation["seats"]:
            seats.append(f"{PIECE} ", WELL + ink_style(seat))
            ejected = observation["ejected"].get(seat, 0)
            seats.append(f" {seat} ejected {ejected} of {observation['win']}   ")
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
        the last one picked is where that piece goes, which gives the direction and the move
        (a cell just beyond either end of the line moves it along itself that way).

        Clicking a picked piece again unpicks it, keeping the rest that still form a line
        with the earliest picked. An own piece that does not extend the line (or would make
        it longer than the limit) starts a new pick. A click that makes no legal move keeps
        the pick and says why.
        """
        mover = self.observation.get("to_move")
        if square in picked:
            return Pick(keep_connected([cell for cell in picked if cell != square]))
        if mover is not None and self._seat_of.get(square) == mover:
            extended = (*picked, square)
            fits = as_line(extended) and len(extended) <= self.observation["limit"]
            return Pick(extended if fits else (square,))
        line = as_line(picked)
        if mover is None or not line:
            return Pick((), problem=None if mover is None else HOW_TO_MOVE)
        direction = self._direction(picked, line, square)
        if direction is None:
            where = (
                f"next to {line[0]}"
                if len(line) == 1
                else f"next to {picked[-1]} (picked last) or just beyond either end of the line"
            )
            problem = f"Click a cell {where}; click a picked piece to let it go."
            return Pick(picked, problem=problem)
        legal = self._legal.get((frozenset(line), direction))
        if legal is not None:
            return Pick((), legal)
        return Pick(picked, problem=self._refusal(line, direction))

    def _direction(self, picked: tuple[str, ...], line: Line, square: str) -> str | None:
        """The way a click on `square` moves the line: towards it from the piece picked
        last, or along the line when it is just beyond one of its ends."""
        direction = direction_to(picked[-1], square)
        if direction is not None or len(line) < 2:
            return direction
        for end, inner in ((line[0], line[1]), (line[-1], line[-2])):
            outward = direction_to(inner, end)
            if outward is not None and neighbour(end, outward) == square:
                return outward
        return None

    def _refusal(self, line: Line, direction: str) -> str:
        """Why the line cannot move that way, as the rules tell it."""
        try:
            state = OUBLIETTE.parse_position(str(self.observation.get("position")))
        except RulesError:
            return "That is not a legal move here."
        move = OublietteMove(tuple(_INDEX[cell] for cell in line), direction)
        return state.refusal(move) or "That is not a legal move here."

    def targets(self, picked: tuple[str, ...]) -> frozenset[str]:
        """The cells a click on finishes a legal move of the picked line: next to the piece
        picked last, or (along the line) just beyond its front."""
        line = as_line(picked)
        found = set()
        for cells, direction in self._legal:
            if not line or cells != frozenset(line):
                continue
            along = len(line) > 1 and direction_to(line[0], line[1]) in (
                direction,
                OPPOSITE[direction],
            )
            if along:
                front = next(cell for cell in line if neighbour(cell, direction) not in line)
                target = neighbour(front, direction)
            else:
                target = neighbour(picked[-1], direction)
            if target is not None:
                found.add(target)
        return frozenset(found)

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
