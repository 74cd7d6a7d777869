"""Othello: two players on 8 x 8 from the standard cross, black first.

The flank engine's test bed against published perft figures, and a fine game to host.
"""

from .dealing import Dealer
from .flank import FlankBoard, FlankGame
from .grid import Grid
from .options import OptionValue

SEATS = ("black", "white")
GRID = Grid(8, 8)


def deal_standard(
    options: dict[str, OptionValue], dealer: Dealer, seats: int
) -> tuple[FlankBoard, tuple[int, ...]]:
    """The standard start: white on d4 and e5, black on e4 and d5."""
    black = GRID.mask(GRID.parse_square(name) for name in ("e4", "d5"))
    white = GRID.mask(GRID.parse_square(name) for name in ("d4", "e5"))
    return FlankBoard(GRID), (black, white)


OTHELLO = FlankGame("othello", "Othello", SEATS, (), deal_standard)
