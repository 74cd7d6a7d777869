"""The flank games' board (Tribolo, Numlo, Doublolo, Othello): a grid of squares three
columns wide on the game's own board colour, column letters above and row numbers at the
left, `a1` at the top left as the rules name squares. Every square is a cell, blocked ones
too, so the cursor moves evenly; the server refuses a move on them.

A square's middle column holds its piece's letter (or a dot); the columns either side carry
the marks: the cursor's brackets, the last move's pointers. A hinted square turns the hint
colour with a black dot, and a piece the last move flipped has its letter in italics.
"""

from collections.abc import Sequence
from itertools import groupby
from string import ascii_lowercase

from rich.style import Style
from rich.text import Text

from ..colours import (
    BLACK_LETTER,
    BOARDS,
    LETTER_RGB,
    PAPER,
    SEAT_RGB,
    BoardColours,
    piece_style,
    rgb_colour,
)
from .base import Board, Cell, Marks, Observation, Pick, sides

SQUARE_WIDTH = 3

SEAT_STYLES = {seat: piece_style(seat) for seat in SEAT_RGB}
"""A seat's piece: its letter on the seat's colour, in RGB (see client/terminal/colours.py)."""
UNKNOWN_SEAT = Style.parse("bold reverse")

LABEL = Style.parse("dim")
VALUE = Style(color=rgb_colour("#3b2e17"), bold=True)
"""Numlo's square values, dark on the light board."""
BLOCKED = Style.parse("grey50")
FLIPPED = Style(italic=True)
MARK = Style(bold=True)

EMPTY_CHAR = "."
BLOCKED_CHAR = "#"
NO_VALUE = "."
DOT = "·"
HINT_DOT = "•"


def seat_style(colour: str) -> Style:
    """How a seat's piece is drawn."""
    return SEAT_STYLES.get(colour, UNKNOWN_SEAT)


def board_colours(game: object) -> BoardColours:
    """The board a game is drawn on (paper for a game this client does not know)."""
    return BOARDS.get(str(game), PAPER)


def hint_style(colours: BoardColours) -> Style:
    """A hinted square: black on the board's hint colour."""
    return Style(color=rgb_colour(BLACK_LETTER), bgcolor=rgb_colour(colours.hint))


def square_name(row: int, col: int) -> str:
    """The rules' name of a square from its 0-based row (from the top) and column."""
    return f"{ascii_lowercase[col]}{row + 1}"


def column_header(margin: int, cols: int, width: int) -> str:
    """The column letters, each centred over its squares, after `margin` blank columns."""
    return " " * margin + "".join(ascii_lowercase[col].center(width) for col in range(cols))


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
        self.colours = board_colours(observation.get("game"))
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
                for chars, style in self._square(row, col, marks):
                    text.append(chars, style)
        return text

    def _square(self, row: int, col: int, marks: Marks) -> list[tuple[str, Style]]:
        """A square's three characters and their styles, marks included: the cursor's or
        the last move's marks take the columns either side of the middle (but for a Numlo
        value, which keeps its place)."""
        name = square_name(row, col)
        content, style = self._content(row, col)
        hinted = name in marks.hints
        if hinted:
            style += hint_style(self.colours)
            content = content.replace(DOT, HINT_DOT)
        elif name in self.observation["flipped"]:
            style += FLIPPED
        style = Style(bgcolor=rgb_colour(self.colours.square(row, col))) + style
        chars, styles = list(content), [style] * SQUARE_WIDTH
        framing = sides(name, marks, moved=name == self.observation["last_move"])
        if framing is not None:
            ink = (Style() if hinted else self._ink(row, col)) + MARK
            for index, mark in ((0, framing[0]), (2, framing[1])):
                if not chars[index].isdigit():
                    chars[index], styles[index] = mark, style + ink
        return [
            ("".join(char for char, _ in run), run_style)
            for run_style, run in groupby(zip(chars, styles, strict=True), key=lambda c: c[1])
        ]

    def _content(self, row: int, col: int) -> tuple[str, Style]:
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
            if digit:
                return f" {digit} ", VALUE
            return f" {DOT} ", Style(color=rgb_colour(self.colours.dot))
        return f" {char}{digit or ' '}", seat_style(self._seat_of.get(char, ""))

    def _ink(self, row: int, col: int) -> Style:
        """The colour of marks on a square: its piece's letter colour, else the board's ink."""
        seat = self._seat_of.get(self._board[row][col])
        rgb = LETTER_RGB.get(seat or "", self.colours.ink)
        return Style(color=rgb_colour(rgb))

    def pick(self, picked: tuple[str, ...], square: str) -> Pick:
        """One square is a whole move."""
        return Pick((), square)

    def hint_squares(self, moves: Sequence[str]) -> frozenset[str]:
        """A move's text is the name of its square."""
        names = {cell.name for cell in self._cells}
        return frozenset(move for move in moves if move in names)
