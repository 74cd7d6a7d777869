"""Numlo: three-way Othello on 12 x 12, where some squares are worth 1 to 6 extra points.

The text leaves the counts open: 8 starting tiles of each colour and 24 valued squares by
default, all dealt from the board number. A square owned at the end scores 1 plus its value.
"""

from .flank import FlankGame
from .flank_deals import deal_scattered, first_option, size_options
from .options import IntOption

SEATS = ("blue", "red", "green")

NUMLO = FlankGame(
    "numlo",
    "Numlo",
    SEATS,
    (
        *size_options(12, 12),
        IntOption("tiles", 8, 1, 100, "starting tiles of each colour"),
        IntOption("valued", 24, 0, 676, "squares worth 1 to 6 extra points"),
        first_option(SEATS),
    ),
    deal_scattered,
)
