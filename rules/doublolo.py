"""Doublolo: Othello on a wide 14 x 23 board with dark blocked squares.

Two starting groups (Othello's 2 x 2 cross) are dealt at random places, one in each half
of the board, so the game is played on "two boards at the same time" until they meet.
The text does not count the blocked squares; 32 (about one square in ten) by default.
A coin toss decides who starts: called by the person playing, or else drawn from the board
number.
"""

from .flank import FlankGame
from .flank_deals import deal_two_groups, first_option, size_options
from .options import IntOption

SEATS = ("red", "white")

DOUBLOLO = FlankGame(
    "doublolo",
    "Doublolo",
    SEATS,
    (
        *size_options(14, 23, min_cols=8),
        IntOption("blocked", 32, 0, 600, "dark squares nobody may play on"),
        first_option(SEATS),
    ),
    deal_two_groups,
    first_by_coin=True,
)
