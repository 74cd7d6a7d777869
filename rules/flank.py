"""The flank rule, shared by Tribolo, Numlo, Doublolo and Othello.

A move places a piece on an empty square so that, in at least one of the eight
directions, a run of pieces all of one opponent's colour is closed off by a piece of the
mover's colour; every such run flips. A run that mixes colours flips nothing, and empty
and blocked squares end a run. A player with no such move is passed over; the game ends
when nobody can move. Any number of players, any rectangular board up to 26 x 26.

Pieces are integer bitboards, one per seat, laid out as `grid.Grid` describes.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Self

from .dealing import Dealer
from .errors import MalformedPositionError, OptionError
from .game import Game, State
from .grid import MAX_COLS, MAX_ROWS, Grid
from .jsonvalue import JsonValue
from .options import Options, OptionSpec, OptionValue

EMPTY = "."
BLOCKED = "#"
NO_VALUE = "."
MAX_VALUE = 9


@dataclass(frozen=True, slots=True)
class FlankBoard:
    """The fixed parts of a board: its shape, blocked squares and square values.

    It also holds the move generator for that shape, since that is all it depends on.
    """

    grid: Grid
    blocked: int = 0
    values: tuple[int, ...] = ()
    """`values[v - 1]` is the bitboard of squares worth `v` extra points (no empty tail)."""
    free: int = field(init=False, compare=False, repr=False)
    _shifts: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """Bit distances to the next square east, south-west, south and south-east."""

    def __post_init__(self) -> None:
        values = list(self.values)
        while values and not values[-1]:
            values.pop()
        object.__setattr__(self, "values", tuple(values))
        object.__setattr__(self, "free", self.grid.full & ~self.blocked)
        width = self.grid.width
        object.__setattr__(self, "_shifts", (1, width - 1, width, width + 1))

    def value(self, square: int) -> int:
        """The extra points `square` is worth."""
        bit = self.grid.bit(square)
        return next((v for v, mask in enumerate(self.values, 1) if mask & bit), 0)

    def moves(self, pieces: Sequence[int], mover: int) -> int:
        """The bitboard of legal moves for seat `mover`."""
        occupied = 0
        for piece in pieces:
            occupied |= piece
        return self._moves(pieces[mover], opponents(pieces, mover), self.free & ~occupied)

    def _moves(self, own: int, opponents: Sequence[int], empty: int) -> int:
        """Empty squares where `own` closes off a run of one opponent, in any direction.

        Each direction grows the runs of an opponent that touch `own` a square a step and
        stops when they end: runs are short on most boards, so this beats fixed doubling.
        """
        moves = 0
        for s in self._shifts:
            east = own << s
            west = own >> s
            for opp in opponents:
                x = opp & east
                if x:
                    run = x
                    while x:
                        x = opp & (x << s)
                        run |= x
                    moves |= run << s
                x = opp & west
                if x:
                    run = x
                    while x:
                        x = opp & (x >> s)
                        run |= x
                    moves |= run >> s
        return moves & empty

    def flips(self, bit: int, own: int, opponents: Sequence[int]) -> int:
        """The pieces a move on `bit` flips: the single-colour runs it closes off."""
        flipped = 0
        for s in self._shifts:
            x = bit << s
            for opp in opponents:
                if x & opp:
                    run = 0
                    while x & opp:
                        run |= x
                        x <<= s
                    if x & own:
                        flipped |= run
                    break
            x = bit >> s
            for opp in opponents:
                if x & opp:
                    run = 0
                    while x & opp:
                        run |= x
                        x >>= s
                    if x & own:
                        flipped |= run
                    break
        return flipped

    def perft(self, pieces: Sequence[int], mover: int, depth: int) -> int:
        """Leaf count `depth` (at least 1) plies deep; a pass is a ply, an end one leaf."""
        in_turn = tuple(pieces[mover:]) + tuple(pieces[:mover])
        return self._perft(in_turn, depth, 0)

    def _perft(self, in_turn: tuple[int, ...], depth: int, passes: int) -> int:
        """Perft on pieces listed from the seat to move onwards, after `passes` passes."""
        own = in_turn[0]
        opponents = in_turn[1:]
        occupied = own
        for opp in opponents:
            occupied |= opp
        moves = self._moves(own, opponents, self.free & ~occupied)
        if not moves:
            if depth == 1 or passes == len(opponents):
                return 1
            return self._perft((*opponents, own), depth - 1, passes + 1)
        if depth == 1:
            return moves.bit_count()
        flips = self.flips
        walk = self._perft
        depth -= 1
        total = 0
        while moves:
            bit = moves & -moves
            moves ^= bit
            flipped = flips(bit, own, opponents)
            keep = ~flipped
            total += walk((*[opp & keep for opp in opponents], own | flipped | bit), depth, 0)
        return total


def opponents(pieces: Sequence[int], seat: int) -> list[int]:
    """The pieces of every seat but `seat`."""
    return [piece for other, piece in enumerate(pieces) if other != seat]


def _piece_letters(seats: Sequence[str]) -> str:
    """One letter a seat in positions: the colour's initial, upper case."""
    letters = "".join(seat[0].upper() for seat in seats)
    if len(set(letters)) != len(letters) or set(letters) & {EMPTY, BLOCKED}:
        raise ValueError(f"seat colours need distinct initials: {seats}")
    return letters


@dataclass(frozen=True, slots=True)
class FlankState(State[int]):
    """A position of a flank game. Moves are square numbers (see `grid.Grid`).

    `to_move` is given as the seat whose turn comes next; a seat that cannot move is passed
    over on construction, so `to_move` always has a move unless the game is over.
    """

    game: "FlankGame"
    board: FlankBoard
    pieces: tuple[int, ...]
    """One bitboard a seat, in seat order."""
    to_move: int
    last_move: int | None = field(default=None, compare=False)
    flipped: int = field(default=0, compare=False)
    """The bitboard of the pieces the last move flipped."""
    passed: tuple[int, ...] = field(init=False, compare=False)
    moves_mask: int = field(init=False, compare=False, repr=False)
    """The bitboard of the legal moves of `to_move` (0 once the game is over)."""

    def __post_init__(self) -> None:
        seats = len(self.pieces)
        for step in range(seats):
            seat = (self.to_move + step) % seats
            moves = self.board.moves(self.pieces, seat)
            if moves:
                skipped = tuple((self.to_move + k) % seats for k in range(step))
                object.__setattr__(self, "to_move", seat)
                object.__setattr__(self, "passed", skipped)
                object.__setattr__(self, "moves_mask", moves)
                return
        object.__setattr__(self, "passed", ())
        object.__setattr__(self, "moves_mask", 0)

    @property
    def is_over(self) -> bool:
        return not self.moves_mask

    def legal_moves(self) -> tuple[int, ...]:
        return tuple(self.board.grid.squares(self.moves_mask))

    def play(self, move: int) -> Self:
        grid = self.board.grid
        valid = isinstance(move, int) and not isinstance(move, bool) and 0 <= move < grid.size
        bit = grid.bit(move) if valid else 0
        if not bit & self.moves_mask:
            raise self._refuse(grid.format_square(move) if valid else repr(move))
        mover = self.to_move
        flipped = self.board.flips(bit, self.pieces[mover], opponents(self.pieces, mover))
        pieces = tuple(
            piece | flipped | bit if seat == mover else piece & ~flipped
            for seat, piece in enumerate(self.pieces)
        )
        following = (mover + 1) % len(pieces)
        return type(self)(self.game, self.board, pieces, following, move, flipped)

    def _points(self, mask: int) -> int:
        """What the squares of `mask` are worth: one each, plus their values."""
        points = mask.bit_count()
        for value, squares in enumerate(self.board.values, 1):
            points += value * (mask & squares).bit_count()
        return points

    def scores(self) -> tuple[int, ...]:
        return tuple(self._points(piece) for piece in self.pieces)

    def best_moves(self) -> tuple[int, ...]:
        """The moves that flip the most pieces, or where squares have values, gain the most."""
        grid = self.board.grid
        own = self.pieces[self.to_move]
        others = opponents(self.pieces, self.to_move)
        gains = {
            move: self._points(self.board.flips(grid.bit(move), own, others) | grid.bit(move))
            for move in self.legal_moves()
        }
        if not gains:
            return ()
        best = max(gains.values())
        return tuple(move for move, gain in gains.items() if gain == best)

    def _count_leaves(self, depth: int) -> int:
        return self.board.perft(self.pieces, self.to_move, depth)

    def parse_move(self, text: str) -> int:
        return self.board.grid.parse_square(text)

    def format_move(self, move: int) -> str:
        return self.board.grid.format_square(move)

    def cells(self) -> list[str]:
        """The board row by row, a character a square: `.`, `#` (blocked) or a seat's letter."""
        layers = [(BLOCKED, self.board.blocked), *zip(self.game.letters, self.pieces, strict=True)]
        return self.board.grid.picture(EMPTY, layers)

    def value_rows(self) -> list[str]:
        """The square values row by row, `.` for none; empty if no square has a value."""
        if not any(self.board.values):
            return []
        grid = self.board.grid
        values = [self.board.value(square) for square in range(grid.size)]
        return [
            "".join(str(v) if v else NO_VALUE for v in values[r * grid.cols : (r + 1) * grid.cols])
            for r in range(grid.rows)
        ]

    def format_position(self) -> str:
        """Rows joined by `/`, the letter of the seat to move, then the values if any.

        Othello's start:
        `......../......../......../...WB.../...BW.../......../......../........ B`
        """
        return self._position(self.cells())

    def _position(self, cells: list[str]) -> str:
        fields = ["/".join(cells), self.game.letters[self.to_move]]
        values = self.value_rows()
        if values:
            fields.append("/".join(values))
        return " ".join(fields)

    def observation(self, seat: int | None = None) -> dict[str, JsonValue]:
        """Everything is in view of every seat in these games, so `seat` changes nothing."""
        grid = self.board.grid
        seats = self.game.seats
        over = self.is_over
        cells = self.cells()
        return {
            "game": self.game.name,
            "rows": grid.rows,
            "cols": grid.cols,
            "seats": list(seats),
            "letters": dict(zip(seats, self.game.letters, strict=True)),
            "board": list[JsonValue](cells),
            "values": list[JsonValue](self.value_rows()),
            "to_move": None if over else seats[self.to_move],
            "passed": [seats[s] for s in self.passed],
            "last_move": None if self.last_move is None else grid.format_square(self.last_move),
            "flipped": [grid.format_square(sq) for sq in grid.squares(self.flipped)],
            "legal_moves": [grid.format_square(sq) for sq in self.legal_moves()],
            "scores": dict(zip(seats, self.scores(), strict=True)),
            "over": over,
            "winners": [seats[s] for s in self.winners()],
            "position": self._position(cells),
        }


Deal = Callable[[dict[str, OptionValue], Dealer, int], tuple[FlankBoard, tuple[int, ...]]]
"""Deals a board and each seat's pieces from the options, a Dealer and the seat count."""

MAX_DEALS = 1000
"""How many deals are tried before the options are judged to give no playable board."""


class FlankGame(Game[int]):
    """A flank game: its seats, options, and how its boards are dealt."""

    def __init__(
        self,
        name: str,
        title: str,
        seats: tuple[str, ...],
        option_specs: tuple[OptionSpec, ...],
        deal: Deal,
        *,
        first_by_coin: bool = False,
    ) -> None:
        self.name = name
        self.first_by_coin = first_by_coin
        self.title = title
        self.seats = seats
        self.option_specs = option_specs
        self.letters = _piece_letters(seats)
        self._deal = deal

    def new(self, options: Options | None = None, seed: int = 0) -> FlankState:
        """Deal from board number `seed`; a board where the first player is stuck is never dealt.

        With a `first` option of `random`, the first player is drawn from the board number too.
        """
        chosen = self.resolve_options(options)
        dealer = Dealer(seed)
        for _ in range(MAX_DEALS):
            board, pieces = self._deal(chosen, dealer, len(self.seats))
            first_choice = chosen.get("first", self.seats[0])
            if first_choice == "random":
                first = dealer.below(len(self.seats))
            else:
                first = self.seats.index(str(first_choice))
            if board.moves(pieces, first):
                return FlankState(self, board, pieces, first)
        raise OptionError(f"no board could be dealt with these options: {chosen}")

    def parse_position(self, text: str) -> FlankState:
        fields = text.split()
        if len(fields) not in (2, 3):
            raise MalformedPositionError(
                "a position is the board's rows joined by '/', the letter of the seat to move,"
                " and optionally the square values' rows"
            )
        rows = fields[0].split("/")
        cols = len(rows[0])
        if not (1 <= len(rows) <= MAX_ROWS and 1 <= cols <= MAX_COLS):
            raise MalformedPositionError(
                f"a board has 1 to {MAX_ROWS} rows and 1 to {MAX_COLS} columns"
            )
        if any(len(row) != cols for row in rows):
            raise MalformedPositionError("every row of the board must have the same length")
        grid = Grid(len(rows), cols)
        cells = "".join(rows)
        allowed = set(self.letters) | {EMPTY, BLOCKED}
        stray = sorted(set(cells) - allowed)
        if stray:
            raise MalformedPositionError(
                f"{stray[0]!r} is not a square of {self.title}: use {EMPTY} (empty),"
                f" {BLOCKED} (blocked) or {', '.join(self.letters)}"
            )
        if len(fields[1]) != 1 or fields[1] not in self.letters:
            raise MalformedPositionError(
                f"{fields[1]!r} is not a seat: the seat to move is one of"
                f" {', '.join(self.letters)}"
            )
        pieces = tuple(
            grid.mask(sq for sq, char in enumerate(cells) if char == letter)
            for letter in self.letters
        )
        blocked = grid.mask(sq for sq, char in enumerate(cells) if char == BLOCKED)
        values = _parse_values(fields[2], grid, blocked) if len(fields) == 3 else ()
        board = FlankBoard(grid, blocked, values)
        return FlankState(self, board, pieces, self.letters.index(fields[1]))


def _parse_values(text: str, grid: Grid, blocked: int) -> tuple[int, ...]:
    """Value bitboards from rows of digits 1-9 (`.` for no value) shaped like the board."""
    rows = text.split("/")
    if len(rows) != grid.rows or any(len(row) != grid.cols for row in rows):
        raise MalformedPositionError("the square values must have the board's rows and columns")
    digits = "".join(rows)
    allowed = {NO_VALUE} | {str(v) for v in range(1, MAX_VALUE + 1)}
    stray = sorted(set(digits) - allowed)
    if stray:
        raise MalformedPositionError(
            f"{stray[0]!r} is not a square value: use 1 to 9, or {NO_VALUE}"
        )
    if any(char != NO_VALUE and grid.bit(sq) & blocked for sq, char in enumerate(digits)):
        raise MalformedPositionError("a blocked square cannot have a value")
    highest = max((int(c) for c in digits if c != NO_VALUE), default=0)
    return tuple(
        grid.mask(sq for sq, char in enumerate(digits) if char == str(v))
        for v in range(1, highest + 1)
    )
