"""Tribolo: three-way Othello on an 11 x 16 board with grey blocked squares.

12 grey squares and 12 tiles of each colour are dealt at random from the board number,
and the first player is drawn too. The text gives no board size; 11 x 16 follows a
faithful remake. The `board` option plays one of the named set-ups instead
(`tribolo_boards`), each with its own score card, as the registered version's were.
"""

from .flank import FlankGame
from .flank_deals import deal_scattered, first_option, size_options
from .options import ChoiceOption, IntOption
from .tribolo_boards import RANDOM, board_choices, deal_named_or

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
        ChoiceOption(
            "board",
            RANDOM,
            board_choices(),
            "random: dealt from the board number; else a named set-up (size, grey squares and"
            " tiles fixed)",
        ),
    ),
    deal_named_or(deal_scattered),
)
