"""The flank games' board (Tribolo, Numlo, Doublolo, Othello): a grid of squares three
columns wide, column letters above and row numbers at the left, `a1` at the top left as the
rules name squares. Every square is a cell, blocked ones too, so the cursor moves evenly;
the server refuses a move on them.
"""

from collections.abc import Sequence
from string import ascii_lowercase

from rich.style import Style
from rich.text import Text

from ..colours import BLACK_LETTER, HINT_YELLOW, SEAT_RGB, VALUE_CYAN, piece_style
from .base import CHANGED, Board, Cell, Marks, Observation, Pick

SQUARE_WIDTH = 3

SEAT_STYLES = {seat: piece_style(seat) for seat in SEAT_RGB}
"""A seat's piece: its letter on the seat's colour, in RGB (see client/colours.py)."""
UNKNOWN_SEAT = Style.parse("bold reverse")

LABEL = Style.parse("dim")
EMPTY = Style.parse("dim")
VALUE = Style(color=VALUE_CYAN, bold=True)
BLOCKED = Style.parse("grey50")
LAST_MOVE = Style(underline=True)
FLIPPED = Style(italic=True)
HINT = Style(color=BLACK_LETTER, bgcolor=HINT_YELLOW)
CURSOR = Style(reverse=True)

EMPTY_CHAR = "."
BLOCKED_CHAR = "#"
NO_VALUE = "."


def seat_style(colour: str) -> Style:
    """How a seat's piece is drawn."""
    return SEAT_STYLES.get(colour, UNKNOWN_SEAT)


def square_name(row: int, col: int) -> str:
    """The rules' name of a square from its 0-based row (from the top) and column."""
    return f"{ascii_lowercase[col]}{row + 1}"


def column_header(margin: int, cols: int, width: int) -> str:
    """The column letters, each centred over its squares, after `margin` blank columns."""
    return " " * margin + "".join(ascii_lowercase[col].center(width) for col in range(cols))


def overlay(name: str, marks: Marks) -> Style:
    """The hint and cursor highlights of square `name`, to add on top of its own style."""
    style = CHANGED if name in marks.changed else Style()
    if name in marks.hints:
        style += HINT
    if name == marks.cursor:
        style += CURSOR
    return style


class FlankBoard(Board):
    """A flank game's board, drawn from its `board` rows (and Numlo's `values`)."""

    def __init__(self, observation: Observation) -> None:
        super().__init__(observation)
        self._rows: int = observation["rows"]
        self._cols: int = observation["cols"]
        self._board: list[str] = observation["board"]
        self._values: list[str] = observation["values"]
        self._margin = len(str(self._rows)) + 1
        self._seat_of = {letter: seat for seat, letter in observation["letters"].items()}
        self._cells = tuple(
            Cell(square_name(row, col), self._margin + col * SQUARE_WIDTH, 1 + row, SQUARE_WIDTH)
            for row in range(self._rows)
            for col in range(self._cols)
        )

    @property
    def cells(self) -> Sequence[Cell]:
        return self._cells

    def render(self, marks: Marks) -> Text:
        text = Text()
        text.append(column_header(self._margin, self._cols, SQUARE_WIDTH), LABEL)
        for row in range(self._rows):
            text.append(f"\n{row + 1:>{self._margin - 1}} ", LABEL)
            for col in range(self._cols):
                name = square_name(row, col)
                content, style = self._square(row, col)
                text.append(content, style + self._recent(name) + overlay(name, marks))
        return text

    def _square(self, row: int, col: int) -> tuple[str, Style]:
        """A square's three characters and style: a piece, a blocked square, a value or a dot.

        A Numlo value shows on an occupied square too, after the letter, as it scores for
        the owner.
        """
        char = self._board[row][col]
        value = self._values[row][col] if self._values else NO_VALUE
        digit = "" if value == NO_VALUE else value
        if char == BLOCKED_CHAR:
            return "░" * SQUARE_WIDTH, BLOCKED
        if char == EMPTY_CHAR:
            return (f" {digit} ", VALUE) if digit else (" · ", EMPTY)
        return f" {char}{digit or ' '}", seat_style(self._seat_of.get(char, ""))

    def _recent(self, name: str) -> Style:
        """The marks of the last move: the square played and the pieces it flipped."""
        if name == self.observation["last_move"]:
            return LAST_MOVE
        if name in self.observation["flipped"]:
            return FLIPPED
        return Style()

    def pick(self, picked: tuple[str, ...], square: str) -> Pick:
        """One square is a whole move."""
        return Pick((), square)

    def hint_squares(self, moves: Sequence[str]) -> frozenset[str]:
        """A move's text is the name of its square."""
        names = {cell.name for cell in self._cells}
        return frozenset(move for move in moves if move in names)
