"""How flank boards are dealt from a board number, and the options that shape them."""

from .dealing import Dealer
from .errors import OptionError
from .flank import FlankBoard
from .grid import MAX_COLS, MAX_ROWS, Grid
from .options import ChoiceOption, IntOption, OptionValue

DEALT_VALUES = 6
"""Dealt squares are worth 1 to 6 extra points, as in Numlo."""


def size_options(rows: int, cols: int, min_cols: int = 4) -> tuple[IntOption, IntOption]:
    """The board's rows and columns, with these defaults."""
    return (
        IntOption("rows", rows, 4, MAX_ROWS, "rows of the board"),
        IntOption("cols", cols, min_cols, MAX_COLS, "columns of the board"),
    )


def first_option(seats: tuple[str, ...]) -> ChoiceOption:
    """Who moves first: a named seat, or drawn from the board number."""
    return ChoiceOption("first", "random", ("random", *seats), "the seat that moves first")


def _grid(options: dict[str, OptionValue]) -> Grid:
    """The board shape the rows and cols options ask for."""
    return Grid(int(options["rows"]), int(options["cols"]))


def deal_scattered(
    options: dict[str, OptionValue], dealer: Dealer, seats: int
) -> tuple[FlankBoard, tuple[int, ...]]:
    """Blocked squares, `tiles` pieces a seat and `valued` squares, all at random places.

    Reads the options rows, cols, blocked, tiles and valued (absent ones count as 0).
    """
    grid = _grid(options)
    blocked = int(options.get("blocked", 0))
    tiles = int(options["tiles"])
    valued = int(options.get("valued", 0))
    taken = blocked + seats * tiles
    if taken >= grid.size:
        raise OptionError(
            f"{blocked} blocked squares and {tiles} tiles for each of {seats} seats"
            f" leave no empty square on a {grid.rows} x {grid.cols} board"
        )
    if blocked + valued > grid.size:
        raise OptionError(f"{valued} valued squares do not fit beside {blocked} blocked squares")
    order = dealer.sample(range(grid.size), grid.size)
    blocked_squares = order[:blocked]
    pieces = tuple(
        grid.mask(order[blocked + seat * tiles : blocked + (seat + 1) * tiles])
        for seat in range(seats)
    )
    open_squares = order[blocked:]
    value_masks = [0] * DEALT_VALUES
    for square in dealer.sample(open_squares, valued):
        value_masks[dealer.below(DEALT_VALUES)] |= grid.bit(square)
    return FlankBoard(grid, grid.mask(blocked_squares), tuple(value_masks)), pieces


def deal_two_groups(
    options: dict[str, OptionValue], dealer: Dealer, seats: int
) -> tuple[FlankBoard, tuple[int, ...]]:
    """Two Othello-style 2 x 2 crosses, one in each half of the board, and blocked squares.

    The crosses stay off the edges; each is turned either way at random. Two seats only.
    """
    grid = _grid(options)
    blocked = int(options["blocked"])
    if seats != 2:
        raise OptionError("two starting groups need exactly two seats")
    half = grid.cols // 2
    pieces = [0, 0]
    group_squares: list[int] = []
    for first_col, last_col in ((1, half - 3), (half + 1, grid.cols - 3)):
        row = 1 + dealer.below(grid.rows - 3)
        col = first_col + dealer.below(last_col - first_col + 1)
        top_left = row * grid.cols + col
        square = [top_left, top_left + 1, top_left + grid.cols, top_left + grid.cols + 1]
        turn = dealer.below(2)
        pieces[turn] |= grid.mask((square[0], square[3]))
        pieces[1 - turn] |= grid.mask((square[1], square[2]))
        group_squares += square
    others = [sq for sq in range(grid.size) if sq not in group_squares]
    if blocked > len(others) - 1:
        raise OptionError(
            f"{blocked} blocked squares do not fit on a {grid.rows} x {grid.cols} board"
        )
    board = FlankBoard(grid, grid.mask(dealer.sample(others, blocked)))
    return board, (pieces[0], pieces[1])
