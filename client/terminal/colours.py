"""The terminal's colours: each seat's, and each board's own, in explicit RGB, so that a
board reads the same whatever the terminal's depth and theme.

A named ANSI colour ("on blue", "bright_green") is only a palette slot: Textual fills the
slots from its theme, where blue comes out violet, red pink and green lime. An RGB colour is
drawn as it is in truecolor; in 256 or 16 colours Rich (and Textual, which writes through
Rich) draws the palette entry nearest to it, and with NO_COLOR Textual draws it as the grey
of its luminance. Each seat's RGB below is near the browser page's
(client/web/boards/palette.js, SEAT_COLOURS) and chosen so that the nearest entries are the
seat's own colour:

======  =======  =============  ======================  ======
seat    RGB      256 colours    16 colours (SGR bg)     letter
======  =======  =============  ======================  ======
blue    #0051b4  25 #005faf     4 blue (44)             white
red     #d42a2a  160 #d70000    1 red (41)              white
green   #178a45  29 #00875f     2 green (42)            black
black   #1c1c1f  234 #1c1c1c    0 black (40)            white
white   #f5f4ef  231 #ffffff    15 bright white (107)   black
grey    #6e747c  242 #6c6c6c    8 bright black (100)    white
======  =======  =============  ======================  ======

The browser's blue (#2f6fdb) would fall on 16-colour bright blue, which many terminals show
violet, so the terminal's is darker; its red (#d8383a) would fall on 256-colour 167, a
salmon pink, and on 16-colour bright red, so the terminal's has less green and blue in it.
The green and the grey are darker than the browser's, so that they stand out on the light
boards (Rich picks the entry by a weighted distance to the VGA palette,
rich.palette.Palette.match). A piece's letter is white (#ffffff: 231, or 15 bright white) or
black (#000000: 16, or 0), whichever reads better on the seat's colour at every depth; the
letter is what tells the seats apart for a player who does not see the colours.

No single board colour sets off every seat (blue, red and green are mid-tones; black and
white are the ends), so each game's board has its own (`BOARDS`): green felt for Othello's
black and white, a black one for Doublolo's red and white, light paper for the rest. Every
piece differs from its board by a contrast ratio of at least 3 in truecolor and 256 colours,
and 2.5 in 16 colours and grey (where VGA's red on black is 2.7 at best), as
tests/client/terminal/test_colours.py checks from the escape codes.
"""

from dataclasses import dataclass

from rich.color import Color, ColorType
from rich.color_triplet import ColorTriplet
from rich.style import Style

SEAT_RGB = {
    "blue": "#0051b4",
    "red": "#d42a2a",
    "green": "#178a45",
    "black": "#1c1c1f",
    "white": "#f5f4ef",
    "grey": "#6e747c",
}
"""Each seat's colour, as #rrggbb."""

HINT_YELLOW = "#ffd21f"
"""Squares a hint or a legal move lights up, on a dark board."""
HINT_AMBER = "#c27400"
"""The same on a light board, where yellow would hardly show."""
CURSOR_YELLOW = "#e8c22a"
"""The replay charts' cursor."""

WHITE_LETTER = "#ffffff"
BLACK_LETTER = "#000000"
LETTER_RGB = {
    "blue": WHITE_LETTER,
    "red": WHITE_LETTER,
    "green": BLACK_LETTER,
    "black": WHITE_LETTER,
    "white": BLACK_LETTER,
    "grey": WHITE_LETTER,
}
"""The colour of the letter on a seat's piece."""


@dataclass(frozen=True, slots=True)
class BoardColours:
    """A board's own colours, drawn under every square so that its pieces and marks read
    alike on a dark terminal and a light one."""

    squares: tuple[str, ...]
    """The squares' colour; where there are two, they take turns as on a checkerboard."""
    dot: str
    """An empty square's dot: quiet, but there."""
    ink: str
    """What is drawn plainly on an empty square: the cursor's brackets, a move's marks."""
    hint: str
    """A square a hint lights up, under a black dot."""

    def square(self, row: int, col: int) -> str:
        """The colour of the square at `row`, `col`."""
        return self.squares[(row + col) % len(self.squares)]


FELT = BoardColours(("#208a3c",), dot="#7cc596", ink=WHITE_LETTER, hint=HINT_YELLOW)
EBONY = BoardColours(("#000000",), dot="#6c6c6c", ink="#e0e0e0", hint=HINT_YELLOW)
PAPER = BoardColours(("#f4efe2",), dot="#a89c83", ink="#3b3428", hint=HINT_AMBER)
TILES = BoardColours(("#efe6d1", "#e2d5b9"), dot="#8a7f6a", ink="#3b3428", hint=HINT_AMBER)
BOARDS = {
    "othello": FELT,
    "doublolo": EBONY,
    "tribolo": PAPER,
    "numlo": PAPER,
    "tripppin": TILES,
    "oubliette": PAPER,
}
"""Each game's board."""

LOW_TIME_RGB = "#b71c1c"
"""A clock low on time, or out of it: white on this red. Near the theme's error colour
(#ba3c5b), which would fall on 16-colour bright red where white hardly reads on it; this one
falls on red (1) and on 256-colour 124, and white reads on it at every depth."""

CHART_BACKGROUND = "#15171c"
"""The replay charts' own background, dark whatever the theme."""
CHART_INK = {
    "blue": "#4f8dff",
    "red": "#ff5a52",
    "green": "#3fcf72",
    "black": "#9a9da3",
    "white": "#f5f4ef",
    "grey": "#b8bec7",
}
"""Each seat's line on the charts: its colour made light enough to read on the chart's
background (black becomes a mid grey, as charts of a dark theme draw it)."""


def rgb_colour(rgb: str, name: str | None = None) -> Color:
    """The truecolor colour of a "#rrggbb" string, named `name` (else the string itself).

    The name says whose colour it is when a drawing is read back; Rich and Textual draw the
    colour from its RGB alone.
    """
    value = int(rgb.removeprefix("#"), 16)
    triplet = ColorTriplet(value >> 16, (value >> 8) & 0xFF, value & 0xFF)
    return Color(name or rgb, ColorType.TRUECOLOR, triplet=triplet)


def seat_colour(seat: str) -> Color | None:
    """A seat's colour, named after the seat and its RGB ("blue #0051b4"); None for a seat
    this client does not know."""
    rgb = SEAT_RGB.get(seat)
    return None if rgb is None else rgb_colour(rgb, f"{seat} {rgb}")


def piece_style(seat: str) -> Style:
    """A seat's piece: its letter, bold, on the seat's colour (KeyError for a seat that is
    not in SEAT_RGB)."""
    return Style(color=rgb_colour(LETTER_RGB[seat]), bgcolor=seat_colour(seat), bold=True)


def ink_style(seat: str) -> Style:
    """Something drawn in a seat's colour on a board's light squares (Oubliette's pieces):
    bold, in the terminal's own text colour for an unknown seat."""
    return Style(color=seat_colour(seat), bold=True)


def clock_style(*, low: bool, running: bool) -> Style:
    """A seat's clock: white on the low-time red when low (or out of time), else in the
    terminal's own text colour, bold while it runs."""
    if low:
        return Style(color=rgb_colour(WHITE_LETTER), bgcolor=rgb_colour(LOW_TIME_RGB), bold=True)
    return Style(bold=running)


def label_style(seat: str) -> Style:
    """A seat's name shown anywhere on the screen (the replay's titles): in the seat's
    letter colour on the seat's colour, which reads on a dark theme and a light one alike;
    plain bold for a seat this client does not know."""
    return piece_style(seat) if seat in SEAT_RGB else Style(bold=True)
