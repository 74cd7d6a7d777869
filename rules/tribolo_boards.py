"""Tribolo's named boards: fixed set-ups to play besides the boards dealt at random.

The registered Tribolo offered "other game boards with various set-ups. Each has its own
score card"; their layouts are not in the text, so these are Parlour's own. Each is drawn
row by row from the top: `.` empty, `#` a grey square nobody may play on, B, R and G the
starting tiles. A named board fixes the size and the pieces; only who moves first is left
to the `first` option (or the board number).
"""

from typing import Final

from .dealing import Dealer
from .flank import BLOCKED, Deal, FlankBoard
from .grid import Grid
from .options import OptionValue

RANDOM: Final = "random"
"""The board dealt at random from the board number: the original's "standard board"."""

NAMED_BOARDS: Final[dict[str, tuple[str, ...]]] = {
    "centre": (
        "#..............#",
        "................",
        "................",
        "................",
        "......BRG.......",
        "......GBR.......",
        "......RGB.......",
        "................",
        "................",
        "................",
        "#..............#",
    ),
    "islands": (
        "..........#.....",
        ".....#..........",
        "..........#.....",
        ".....#..........",
        ".BRG..RGB...GBR.",
        ".GBR..BRG...RGB.",
        "..........#.....",
        ".....#..........",
        "..........#.....",
        ".....#..........",
        "..........#.....",
    ),
    "walls": (
        "................",
        "................",
        "...#........#...",
        "...#........#...",
        "...#..BRG...#...",
        "...#..GBR...#...",
        "...#..RGB...#...",
        "...#........#...",
        "...#........#...",
        "................",
        "................",
    ),
    "diamond": (
        ".......B........",
        ".......##.......",
        ".....#....#.....",
        "...#........#...",
        "......BRG.......",
        "R.....GBR......G",
        "......RGB.......",
        "...#........#...",
        ".....#....#.....",
        ".......##.......",
        "................",
    ),
}
"""Each named board, row by row: a 3 x 3 knot of every colour in the middle (three small
ones side by side on `islands`), with grey squares in the corners, in broken lines, in two
walls, or in a diamond round the middle with a tile of each colour outside it."""

LETTERS: Final = "BRG"


def named_board(name: str) -> tuple[FlankBoard, tuple[int, ...]]:
    """The board and each seat's pieces of a named board."""
    rows = NAMED_BOARDS[name]
    grid = Grid(len(rows), len(rows[0]))
    cells = "".join(rows)
    blocked = grid.mask(square for square, cell in enumerate(cells) if cell == BLOCKED)
    pieces = tuple(
        grid.mask(square for square, cell in enumerate(cells) if cell == letter)
        for letter in LETTERS
    )
    return FlankBoard(grid, blocked, ()), pieces


def board_choices() -> tuple[str, ...]:
    return (RANDOM, *NAMED_BOARDS)


def deal_named_or(deal: Deal) -> Deal:
    """A deal that lays out the named board the `board` option asks for, and otherwise
    deals as `deal` does."""

    def dealt(
        options: dict[str, OptionValue], dealer: Dealer, seats: int
    ) -> tuple[FlankBoard, tuple[int, ...]]:
        name = str(options.get("board", RANDOM))
        return deal(options, dealer, seats) if name == RANDOM else named_board(name)

    return dealt
