"""The seats' colours in the terminal: explicit RGB, so that each seat is drawn in its own
colour whatever the terminal's depth and theme.

A named ANSI colour ("on blue", "bright_green") is only a palette slot: Textual fills the
slots from its theme, where blue comes out violet, red pink and green lime. An RGB colour is
drawn as it is in truecolor; in 256 or 16 colours Rich (and Textual, which writes through
Rich) draws the palette entry nearest to it. Each RGB below is near the browser page's
(client/web/boards/palette.js, SEAT_COLOURS) and chosen so that the nearest entries are the
seat's own colour:

======  =======  =============  ====================  ======
seat    RGB      256 colours    16 colours (SGR bg)   letter
======  =======  =============  ====================  ======
blue    #0051b4  25 #005faf     4 blue (44)           white
red     #cc232e  160 #d70000    1 red (41)            white
green   #229d4f  35 #00af5f     2 green (42)          black
black   #1c1c1f  234 #1c1c1c    0 black (40)          white
white   #f5f4ef  231 #ffffff    15 bright white (107) black
grey    #8d939c  246 #949494    7 white (47)          black
======  =======  =============  ====================  ======

The browser's blue (#2f6fdb) would fall on 16-colour bright blue, which many terminals show
violet, so the terminal's is darker; its red (#d8383a) would fall on 256-colour 167, a
salmon pink, and on 16-colour bright red, so the terminal's has less green and blue in it;
its green (#2ea052) is nudged a little so that 16-colour green wins clearly over dark grey
(Rich picks the entry by a weighted distance to the VGA palette, rich.palette.Palette.match).
A piece's letter is white (#ffffff: 231, or 15 bright white) or black (#000000: 16, or 0),
whichever reads better on the seat's colour at every depth; the letter is what tells the
seats apart for a player who does not see the colours.
"""

from rich.color import Color, ColorType
from rich.color_triplet import ColorTriplet
from rich.style import Style

SEAT_RGB = {
    "blue": "#0051b4",
    "red": "#cc232e",
    "green": "#229d4f",
    "black": "#1c1c1f",
    "white": "#f5f4ef",
    "grey": "#8d939c",
}
"""Each seat's colour, as #rrggbb."""

HINT_YELLOW = "#e8c22a"
"""Squares a hint or a legal move lights up."""
BRIGHT_YELLOW = "#ffe14d"
"""Tripppin's open directions."""
VALUE_CYAN = "#2bb3c0"
"""Numlo's square values."""

WHITE_LETTER = "#ffffff"
BLACK_LETTER = "#000000"
LETTER_RGB = {
    "blue": WHITE_LETTER,
    "red": WHITE_LETTER,
    "green": BLACK_LETTER,
    "black": WHITE_LETTER,
    "white": BLACK_LETTER,
    "grey": BLACK_LETTER,
}
"""The colour of the letter on a seat's piece."""


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
    """Something drawn in a seat's colour on the board's background (Oubliette's pieces, a
    legend's swatch): bold, in the terminal's own text colour for an unknown seat."""
    return Style(color=seat_colour(seat), bold=True)
