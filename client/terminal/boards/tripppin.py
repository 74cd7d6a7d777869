"""Tripppin's board: every tile a block five columns wide and three rows high, its arrows at
their compass positions round the centre, which holds a piece, a circle or a start mark.
Where rows are short (an 80 x 24 terminal) a tile is two rows: its arrows above the centre.

On the tile of the player to move, the directions that player may take (the observation's
`directions`, which the opponent's tile allows) are drawn bright at their positions, and
listed below the board. Each piece's next target is framed in the seat's colour while
`Marks.blink` is on.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from rich.style import Style
from rich.text import Text

from ..colours import LETTER_RGB, TILES, rgb_colour
from .base import Board, Cell, Marks, Observation, Pick, sides
from .flank import LABEL, column_header, hint_style, seat_style, square_name

TILE_WIDTH = 5


@dataclass(frozen=True)
class TileShape:
    """Where things go in a tile: its rows, the centre row, each arrow's slot, the piece's
    span, and the frames that mark a target (one seat's, or each half for two)."""

    height: int
    slots: dict[str, tuple[int, int]]
    frames: tuple[list[tuple[int, int]], list[tuple[int, int]]]

    @property
    def middle(self) -> int:
        return self.height - 1 if self.height == 2 else self.height // 2

    @property
    def centre(self) -> tuple[int, int]:
        return (TILE_WIDTH // 2, self.middle)

    @property
    def piece_span(self) -> list[tuple[int, int]]:
        return [(x, self.middle) for x in range(1, TILE_WIDTH - 1)]

    @property
    def whole(self) -> list[tuple[int, int]]:
        return [(x, y) for y in range(self.height) for x in range(TILE_WIDTH)]


FULL = TileShape(
    3,
    {
        "nw": (0, 0),
        "n": (2, 0),
        "ne": (4, 0),
        "w": (0, 1),
        "e": (4, 1),
        "sw": (0, 2),
        "s": (2, 2),
        "se": (4, 2),
    },
    (
        [(x, 0) for x in range(TILE_WIDTH)] + [(0, 1)],
        [(x, 2) for x in range(TILE_WIDTH)] + [(TILE_WIDTH - 1, 1)],
    ),
)
"""Three rows: the arrows at their compass positions round the centre."""
COMPACT = TileShape(
    2,
    {},
    ([(0, 0), (0, 1)], [(TILE_WIDTH - 1, 0), (TILE_WIDTH - 1, 1)]),
)
"""Two rows: a tile's (three) arrows side by side above its centre."""
COMPASS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")

ARROWS = {"n": "↑", "ne": "↗", "e": "→", "se": "↘", "s": "↓", "sw": "↙", "w": "←", "nw": "↖"}

CIRCLE = "○"
START = "□"
DESTINATION = "•"

TILE_BACKGROUNDS = tuple(
    Style(color=rgb_colour(TILES.ink), bgcolor=rgb_colour(colour)) for colour in TILES.squares
)
"""A light checkerboard, as the browser's, so that both seats' pieces stand out on it and
neighbouring tiles' arrows stay apart."""
ARROW = Style(color=rgb_colour("#5d5446"))
OPEN_DIRECTION = Style(color=rgb_colour("#c45200"), bold=True)
LEGAL = Style(color=rgb_colour(TILES.hint), bold=True)
CIRCLE_STYLE = Style(color=rgb_colour(TILES.ink), bold=True)
CURSOR = Style(reverse=True)
"""The tile under the cursor, inverted but for its piece, which keeps its seat's colours."""
UNREVERSED = Style(reverse=False)
MARK = Style(bold=True)


@dataclass(slots=True)
class _Block:
    """A tile's characters and their styles, drawn in layers."""

    chars: list[list[str]]
    styles: list[list[Style]]

    @classmethod
    def filled(cls, style: Style, height: int) -> "_Block":
        """A tile of spaces in `style`."""
        return cls(
            [[" "] * TILE_WIDTH for _ in range(height)],
            [[style] * TILE_WIDTH for _ in range(height)],
        )

    def put(self, where: tuple[int, int], char: str, style: Style) -> None:
        """Write `char` at `where`, with `style` over what is there."""
        x, y = where
        self.chars[y][x] = char
        self.styles[y][x] += style

    def paint(self, where: Iterable[tuple[int, int]], style: Style) -> None:
        """Add `style` over the characters at `where`."""
        for x, y in where:
            self.styles[y][x] += style

    def line(self, y: int) -> Iterable[tuple[str, Style]]:
        """Row `y` as runs of characters that share a style."""
        for style, run in groupby(zip(self.chars[y], self.styles[y], strict=True), lambda c: c[1]):
            yield "".join(char for char, _ in run), style


class TripppinBoard(Board):
    """Tripppin's 8 x 8 board of arrow tiles, drawn from the observation."""

    def __init__(self, observation: Observation, *, compact: bool = False) -> None:
        super().__init__(observation)
        self.shape = COMPACT if compact else FULL
        self._rows: int = observation["rows"]
        self._cols: int = observation["cols"]
        self._margin = len(str(self._rows)) + 1
        self._cells = tuple(
            Cell(
                square_name(row, col),
                self._margin + col * TILE_WIDTH,
                1 + row * self.shape.height + self.shape.middle,
                TILE_WIDTH,
            )
            for row in range(self._rows)
            for col in range(self._cols)
        )
        to_move = observation["to_move"]
        self._mover_square: str | None = observation["pieces"][to_move] if to_move else None
        self._piece_on = {square: seat for seat, square in observation["pieces"].items()}
        self._start_of = {square: seat for seat, square in observation["starts"].items()}

    @property
    def cells(self) -> Sequence[Cell]:
        return self._cells

    def cell_at(self, x: int, y: int) -> str | None:
        """Any row of a tile, not only the middle one its cell is on, is that tile."""
        top = self.shape.middle
        for cell in self._cells:
            within = 0 <= y - (cell.y - top) < self.shape.height
            if within and cell.x <= x < cell.x + cell.width:
                return cell.name
        return None

    def render(self, marks: Marks) -> Text:
        text = Text()
        text.append(column_header(self._margin, self._cols, TILE_WIDTH), LABEL)
        for row in range(self._rows):
            blocks = [self._block(row, col, marks) for col in range(self._cols)]
            for y in range(self.shape.height):
                label = str(row + 1) if y == self.shape.middle else ""
                text.append(f"\n{label:>{self._margin - 1}} ", LABEL)
                for block in blocks:
                    for run, style in block.line(y):
                        text.append(run, style)
        text.append(self._legend())
        return text

    def _legend(self) -> Text:
        """Below the board: which ways the player to move may go, and whose tile says so."""
        mover = self.observation["to_move"]
        if mover is None:
            return Text()
        other = next(seat for seat in self.observation["pieces"] if seat != mover)
        arrows = " ".join(ARROWS[direction] for direction in self.observation["directions"])
        legend = Text(f"\n{mover.capitalize()} may go ")
        legend.append(arrows or "nowhere", OPEN_DIRECTION)
        legend.append(f"  (the arrows under {other.capitalize()})", LABEL)
        return legend

    def _block(self, row: int, col: int, marks: Marks) -> _Block:
        """One tile with everything on it, highlights last."""
        name = square_name(row, col)
        arrows: list[str] = self.observation["tiles"][row][col]
        shape = self.shape
        block = _Block.filled(self._background(name, row, col, arrows), shape.height)
        slots = shape.slots or {
            direction: (1 + place, 0)
            for place, direction in enumerate(d for d in COMPASS if d in arrows)
        }
        for direction in arrows:
            block.put(slots[direction], ARROWS[direction], ARROW)
        if name == self._mover_square:
            for direction in self.observation["directions"]:
                if direction in slots:
                    block.put(slots[direction], ARROWS[direction], OPEN_DIRECTION)
        self._draw_centre(block, name)
        if marks.blink:
            self._draw_targets(block, name)
        if name in marks.hints:
            block.paint(shape.whole, hint_style(TILES))
        if name == marks.cursor:
            block.paint(shape.whole, CURSOR)
            if name in self._piece_on:
                block.paint(shape.piece_span, UNREVERSED)
        self._draw_sides(block, name, marks)
        return block

    def _draw_sides(self, block: _Block, name: str, marks: Marks) -> None:
        """The last move's pointers (in a replay, those of each cell the move changed)
        either side of the tile's centre, in its piece's letter colour; the cursor shows as
        the inverted tile instead."""
        framing = sides(name, marks, moved=name == self.observation["last_move"])
        if framing is None or name == marks.cursor:
            return
        seat = self._piece_on.get(name)
        ink = Style(color=rgb_colour(LETTER_RGB.get(seat or "", TILES.ink))) + MARK
        (left, y), (right, _) = self.shape.piece_span[0], self.shape.piece_span[-1]
        block.put((left, y), framing[0], ink)
        block.put((right, y), framing[1], ink)

    def _background(self, name: str, row: int, col: int, arrows: list[str]) -> Style:
        """The checkerboard for tiles; nothing for blank squares, which have no tile."""
        special = name in self.observation["circles"] or name in self._start_of
        if not (arrows or special):
            return Style()
        return TILE_BACKGROUNDS[(row + col) % len(TILE_BACKGROUNDS)]

    def _draw_centre(self, block: _Block, name: str) -> None:
        """A piece, else a circle or a start mark; a legal destination's centre is lit."""
        centre = self.shape.centre
        seat = self._piece_on.get(name)
        if seat is not None:
            block.paint(self.shape.piece_span, seat_style(seat))
            block.put(centre, seat[0].upper(), Style())
            return
        start = self._start_of.get(name)
        if name in self.observation["circles"]:
            block.put(centre, CIRCLE, CIRCLE_STYLE)
        elif start is not None:
            block.put(centre, START, Style(color=seat_style(start).bgcolor, bold=True))
        if name in self.observation["legal_moves"]:
            x, y = centre
            if block.chars[y][x] == " ":
                block.put(centre, DESTINATION, LEGAL)
            else:
                block.paint([centre], LEGAL)

    def _draw_targets(self, block: _Block, name: str) -> None:
        """Frame the tile in the colour of each seat whose next target it is: the whole frame
        for one seat, the top and bottom halves when both aim at it."""
        seats = [seat for seat, target in self.observation["targets"].items() if target == name]
        first, second = self.shape.frames
        halves = [first + second] if len(seats) == 1 else [first, second]
        for seat, half in zip(seats, halves, strict=False):
            block.paint(half, seat_style(seat) + Style(bold=False))

    def pick(self, picked: tuple[str, ...], square: str) -> Pick:
        """One square, the destination, is a whole move."""
        return Pick((), square)

    def hint_squares(self, moves: Sequence[str]) -> frozenset[str]:
        """A move's text is the name of its destination."""
        names = {cell.name for cell in self._cells}
        return frozenset(move for move in moves if move in names)
