"""Tribolo: three-way Othello on an 11 x 16 board with grey blocked squares.

12 grey squares and 12 tiles of each colour are dealt at random from the board number,
and the first player is drawn too. The text gives no board size; 11 x 16 follows a
faithful remake.
"""

from .flank import FlankGame
from .flank_deals import deal_scattered, first_option, size_options
from .options import IntOption

SEATS = ("blue", "red", "green")

TRIBOLO = FlankGame(
    "tribolo",
    "Tribolo",
    SEATS,
    (
        *size_options(11, 16),
        IntOption("blocked", 12, 0, 200, "grey squares nobody may play on"),
        IntOption("tiles", 12, 1, 100, "starting tiles of each colour"),
        first_option(SEATS),
    ),
    deal_scattered,
)
