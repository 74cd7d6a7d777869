"""Tripppin: two pieces race round four circles on a board of arrow tiles.

The board is 8 x 8. Four circles sit one square in from each corner, and the two pieces
start side by side in the middle of the bottom edge: blue (the right piece) on e8, grey
(the left piece) on d8. The other 58 squares are dealt from the board number: each of
the 56 choices of three of the eight directions once, and two blank squares.

A move is one step to a neighbouring square, only in a direction shown on the square the
opponent stands on (any direction if that square has no arrows), never off the board and
never onto the opponent. Blue goes round g7, g2, b2, b7 and then grey's start d8; grey
goes round b7, b2, g2, g7 and then blue's start e8. Only the current target counts, and
whoever reaches the last one wins at once. A player to move with no legal move loses.

Moves are square numbers (`square = y * 8 + x`, see `grid.Grid`), written as square names
(`e7`) or, when read, also as a direction from the mover's square (`n`, `ne`, ... `nw`).
"""

import re
from dataclasses import dataclass, field, replace
from typing import Self

from .dealing import Dealer
from .errors import MalformedMoveError, MalformedPositionError
from .game import Game, State
from .grid import Grid
from .jsonvalue import JsonValue
from .numbers import MAX_PLY, whole_number
from .options import ChoiceOption, IntOption, Options

SEATS = ("blue", "grey")
LETTERS = "BG"
GRID = Grid(8, 8)
SIZE = 8

DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The step (dx, dy) of each direction bit: bit 0 is north, then clockwise."""
DIRECTION_NAMES = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
ALL_DIRECTIONS = 0xFF

CIRCLES = (1 * SIZE + 1, 1 * SIZE + 6, 6 * SIZE + 1, 6 * SIZE + 6)
"""b2, g2, b7, g7."""
STARTS = (7 * SIZE + 4, 7 * SIZE + 3)
"""Each seat's start square: blue on e8 (the right), grey on d8 (the left)."""
FIXED = frozenset(CIRCLES + STARTS)
DEALT = tuple(square for square in range(GRID.size) if square not in FIXED)
"""The 58 squares whose tiles are dealt, in ascending order."""
ARROW_MASKS = tuple(mask for mask in range(256) if mask.bit_count() == 3)
"""Every choice of three of the eight directions: 56 tiles."""
BLANK_TILES = 2

ROUTES = (
    (6 * SIZE + 6, 1 * SIZE + 6, 1 * SIZE + 1, 6 * SIZE + 1, STARTS[1]),
    (6 * SIZE + 1, 1 * SIZE + 1, 1 * SIZE + 6, 6 * SIZE + 6, STARTS[0]),
)
"""Each seat's targets in order: the circles round the board, then the other's start."""
GOAL = len(ROUTES[0])

MAX_PLIES = 100_000
"""The largest ply limit the option and positions accept."""
MAX_LOOP = 40
"""The longest repeated move sequence `looping_moves` notices, in plies."""

_SQUARE_TEXT = re.compile(r"[a-z][0-9]+")


def _neighbour(square: int, direction: int) -> int | None:
    """The square one step from `square` in `direction`, or None off the board."""
    y, x = divmod(square, SIZE)
    dx, dy = DIRECTIONS[direction]
    x, y = x + dx, y + dy
    return y * SIZE + x if 0 <= x < SIZE and 0 <= y < SIZE else None


NEIGHBOURS = tuple(
    tuple(_neighbour(square, d) for d in range(len(DIRECTIONS))) for square in range(GRID.size)
)
"""`NEIGHBOURS[square][direction]`: the next square that way, or None off the board."""


REACH = tuple(
    tuple(
        tuple(to for d, to in enumerate(NEIGHBOURS[square]) if arrows >> d & 1 and to is not None)
        for arrows in range(ALL_DIRECTIONS + 1)
    )
    for square in range(GRID.size)
)
"""`REACH[square][arrows]`: the squares one step from `square` in the directions of `arrows`."""


def _steps(tiles: tuple[int, ...], here: int, there: int) -> list[int]:
    """Where the piece on `here` may step: as the arrows under `there` allow, not onto it."""
    return [square for square in REACH[here][tiles[there] or ALL_DIRECTIONS] if square != there]


def deal_tiles(seed: int) -> tuple[int, ...]:
    """Every square's arrow mask for board number `seed`; fixed squares get none."""
    masks = [*ARROW_MASKS, *[0] * BLANK_TILES]
    Dealer(seed).shuffle(masks)
    dealt = dict(zip(DEALT, masks, strict=True))
    return tuple(dealt.get(square, 0) for square in range(GRID.size))


def _distance(a: int, b: int) -> int:
    """King-move (Chebyshev) distance between two squares."""
    ay, ax = divmod(a, SIZE)
    by, bx = divmod(b, SIZE)
    return max(abs(ax - bx), abs(ay - by))


def _direction_names(mask: int) -> list[JsonValue]:
    """The names of the directions set in `mask`, in compass order from north."""
    return [name for bit, name in enumerate(DIRECTION_NAMES) if mask >> bit & 1]


@dataclass(frozen=True, slots=True)
class TripppinState(State[int]):
    """A position of Tripppin, with the last moves that led to it for loop detection."""

    game: "TripppinGame"
    tiles: tuple[int, ...]
    """The arrow mask of every square (0: no arrows)."""
    pieces: tuple[int, int]
    """Each seat's square."""
    progress: tuple[int, int]
    """How many targets each seat has reached (GOAL: finished)."""
    to_move: int
    ply: int = 0
    """Plies played since the start."""
    last_move: int | None = field(default=None, compare=False)
    max_plies: int = 0
    """The ply at which an unfinished game is drawn; 0 for no limit."""
    recent: tuple[int, ...] = field(default=(), compare=False, repr=False)
    """The last moves played, oldest first: the 2 x MAX_LOOP that loop detection reads."""
    prevent_loops: bool = field(default=True, compare=False)
    """Whether computer players keep out of `looping_moves` (the rules allow them)."""
    passed: tuple[int, ...] = field(default=(), init=False)
    steps: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """Where the seat to move could step, whether or not the game is over."""
    result: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """The winners once the game is over (both seats for a draw); empty while playing."""

    def __post_init__(self) -> None:
        here, there = self.pieces[self.to_move], self.pieces[1 - self.to_move]
        steps = tuple(sorted(_steps(self.tiles, here, there)))
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "result", self._result(steps))

    def _open_directions(self) -> list[int]:
        """The directions of the squares the seat to move may step to."""
        neighbours = NEIGHBOURS[self.pieces[self.to_move]]
        return [d for d, square in enumerate(neighbours) if square in self.steps]

    def _result(self, steps: tuple[int, ...]) -> tuple[int, ...]:
        """Who has won: a finished route first, then a stuck mover loses, then the ply limit."""
        finished = tuple(seat for seat in range(len(SEATS)) if self.progress[seat] >= GOAL)
        if finished:
            return finished
        if not steps:
            return (1 - self.to_move,)
        if self.max_plies and self.ply >= self.max_plies:
            return tuple(range(len(SEATS)))
        return ()

    @property
    def is_over(self) -> bool:
        return bool(self.result)

    def legal_moves(self) -> tuple[int, ...]:
        return () if self.is_over else self.steps

    def play(self, move: int) -> Self:
        valid = isinstance(move, int) and not isinstance(move, bool)
        if not valid or move not in self.legal_moves():
            on_board = valid and 0 <= move < GRID.size
            raise self._refuse(GRID.format_square(move) if on_board else repr(move))
        mover = self.to_move
        pieces = [*self.pieces]
        progress = [*self.progress]
        pieces[mover] = move
        if self.target(mover) == move:
            progress[mover] += 1
        return type(self)(
            self.game,
            self.tiles,
            (pieces[0], pieces[1]),
            (progress[0], progress[1]),
            1 - mover,
            self.ply + 1,
            move,
            self.max_plies,
            (*self.recent, move)[-2 * MAX_LOOP :],
            self.prevent_loops,
        )

    def target(self, seat: int) -> int | None:
        """The square `seat` must reach next; None once its route is done."""
        count = self.progress[seat]
        return ROUTES[seat][count] if count < GOAL else None

    def scores(self) -> tuple[int, ...]:
        """The targets each seat has reached (the race decides the game, not these)."""
        return self.progress

    def winners(self) -> tuple[int, ...]:
        return self.result

    def best_moves(self) -> tuple[int, ...]:
        """The moves that bring the mover nearest its current target (king-move distance)."""
        target = self.target(self.to_move)
        moves = self.legal_moves()
        if not moves or target is None:
            return ()
        distances = {move: _distance(move, target) for move in moves}
        nearest = min(distances.values())
        return tuple(move for move in moves if distances[move] == nearest)

    def looping_moves(self) -> tuple[int, ...]:
        """The legal moves that would start a third run of a sequence just played twice.

        For computer players that "prevent loops"; `play` itself allows them.
        """
        recent = self.recent
        looping = {
            recent[-length]
            for length in range(2, MAX_LOOP + 1, 2)
            if len(recent) >= 2 * length and recent[-length:] == recent[-2 * length : -length]
        }
        return tuple(move for move in self.legal_moves() if move in looping)

    def _count_leaves(self, depth: int) -> int:
        plies_left = self.max_plies - self.ply if self.max_plies else -1
        return _perft(
            self.tiles,
            self.pieces,
            self.progress,
            self.to_move,
            plies_left=plies_left,
            depth=depth,
        )

    def parse_move(self, text: str) -> int:
        """A square name (`e7`) or a direction from the mover's square (`ne`)."""
        cleaned = text.strip().lower()
        if cleaned in DIRECTION_NAMES:
            here = self.pieces[self.to_move]
            square = NEIGHBOURS[here][DIRECTION_NAMES.index(cleaned)]
            if square is None:
                raise MalformedMoveError(
                    f"{text!r} from {GRID.format_square(here)} is off the board"
                )
            return square
        if _SQUARE_TEXT.fullmatch(cleaned):
            return GRID.parse_square(cleaned)
        raise MalformedMoveError(
            f"{text!r} is not a move: write a square like e7 or a direction like ne"
        )

    def format_move(self, move: int) -> str:
        return GRID.format_square(move)

    def format_position(self) -> str:
        """Tile rows of hex masks joined by `/`, each piece as `square:progress`, the seat to
        move, the ply and the ply limit (0: none).

        The blank board's start: `0000000000000000/.../0000000000000000 e8:0 d8:0 B 0 0`
        """
        rows = (
            "".join(f"{mask:02x}" for mask in self.tiles[row * SIZE : (row + 1) * SIZE])
            for row in range(SIZE)
        )
        pieces = (
            f"{GRID.format_square(square)}:{count}"
            for square, count in zip(self.pieces, self.progress, strict=True)
        )
        fields = ["/".join(rows), *pieces, LETTERS[self.to_move], str(self.ply)]
        return " ".join([*fields, str(self.max_plies)])

    def observation(self, seat: int | None = None) -> dict[str, JsonValue]:
        """Everything is in view of both seats, so `seat` changes nothing."""
        seats = SEATS
        over = self.is_over
        name = GRID.format_square
        tiles: list[JsonValue] = [
            [_direction_names(self.tiles[row * SIZE + col]) for col in range(SIZE)]
            for row in range(SIZE)
        ]
        targets: dict[str, JsonValue] = {}
        for s, colour in enumerate(seats):
            target = self.target(s)
            targets[colour] = None if target is None else name(target)
        directions = 0 if over else sum(1 << d for d in self._open_directions())
        return {
            "game": self.game.name,
            "rows": SIZE,
            "cols": SIZE,
            "seats": list(seats),
            "tiles": tiles,
            "circles": [name(square) for square in CIRCLES],
            "starts": {colour: name(square) for colour, square in zip(seats, STARTS, strict=True)},
            "pieces": {colour: name(sq) for colour, sq in zip(seats, self.pieces, strict=True)},
            "progress": dict(zip(seats, self.progress, strict=True)),
            "routes": {
                colour: [name(square) for square in route]
                for colour, route in zip(seats, ROUTES, strict=True)
            },
            "targets": targets,
            "to_move": None if over else seats[self.to_move],
            "directions": _direction_names(directions),
            "legal_moves": [name(square) for square in self.legal_moves()],
            "scores": dict(zip(seats, self.scores(), strict=True)),
            "over": over,
            "winners": [seats[s] for s in self.winners()],
            "last_move": None if self.last_move is None else name(self.last_move),
            "ply": self.ply,
            "position": self.format_position(),
        }


def _perft(
    tiles: tuple[int, ...],
    pieces: tuple[int, int],
    progress: tuple[int, int],
    mover: int,
    *,
    plies_left: int,
    depth: int,
) -> int:
    """Perft of a game still going with `mover` to move; `plies_left` is negative for no limit."""
    here, there = pieces[mover], pieces[1 - mover]
    steps = _steps(tiles, here, there)
    if depth == 1 or not steps:
        return len(steps) or 1
    target = ROUTES[mover][progress[mover]]
    total = 0
    for square in steps:
        reached = progress[mover] + (square == target)
        if reached == GOAL or plies_left == 1:
            total += 1
            continue
        moved = (square, there) if mover == 0 else (there, square)
        counts = (reached, progress[1]) if mover == 0 else (progress[0], reached)
        total += _perft(
            tiles, moved, counts, 1 - mover, plies_left=plies_left - 1, depth=depth - 1
        )
    return total


class TripppinGame(Game[int]):
    """Tripppin: the board dealt from the board number, blue (the right piece) first."""

    name = "tripppin"
    title = "Tripppin"
    seats = SEATS
    option_specs = (
        ChoiceOption(
            "first",
            "blue",
            SEATS,
            "who moves first: blue (the right piece) or grey (the left piece)",
        ),
        IntOption(
            "max_plies",
            0,
            0,
            MAX_PLIES,
            "plies after which an unfinished game is drawn (0 for no limit)",
        ),
        ChoiceOption(
            "prevent_loops",
            "yes",
            ("yes", "no"),
            "computer players never start a run of moves played twice in a row a third time"
            " unless they must (people are never stopped)",
        ),
    )
    highest_score_wins = False

    def new(self, options: Options | None = None, seed: int = 0) -> TripppinState:
        """Deal the tiles from board number `seed`; both pieces on their starts."""
        chosen = self.resolve_options(options)
        return TripppinState(
            self,
            deal_tiles(seed),
            STARTS,
            (0, 0),
            SEATS.index(str(chosen["first"])),
            max_plies=int(chosen["max_plies"]),
            prevent_loops=chosen["prevent_loops"] == "yes",
        )

    def start_from(self, text: str, options: Options | None = None) -> TripppinState:
        """The position, with the room's choice of whether computers may repeat a loop."""
        chosen = self.resolve_options(options)
        state = self.parse_position(text)
        return replace(state, prevent_loops=chosen["prevent_loops"] == "yes")

    def parse_position(self, text: str) -> TripppinState:
        """Read `format_position`'s text (the ply limit may be left off); no history."""
        fields = text.split()
        if len(fields) not in (5, 6):
            raise MalformedPositionError(
                "a position is the tile rows joined by '/', blue's and grey's square:progress,"
                " the letter of the seat to move (B or G), the ply and optionally the ply limit"
            )
        tiles = _parse_tiles(fields[0])
        blue = _parse_piece(fields[1], SEATS[0])
        grey = _parse_piece(fields[2], SEATS[1])
        if blue[0] == grey[0]:
            raise MalformedPositionError(
                f"both pieces cannot stand on {GRID.format_square(blue[0])}"
            )
        if blue[1] == GOAL and grey[1] == GOAL:
            raise MalformedPositionError("both pieces cannot have finished their routes")
        if len(fields[3]) != 1 or fields[3] not in LETTERS:
            raise MalformedPositionError(
                f"{fields[3]!r} is not a seat: the seat to move is B (blue) or G (grey)"
            )
        ply = whole_number(fields[4], 0, MAX_PLY, "the ply")
        limit = fields[5] if len(fields) == 6 else "0"
        max_plies = whole_number(limit, 0, MAX_PLIES, "the ply limit")
        return TripppinState(
            self,
            tiles,
            (blue[0], grey[0]),
            (blue[1], grey[1]),
            LETTERS.index(fields[3]),
            ply,
            max_plies=max_plies,
        )


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _parse_tiles(text: str) -> tuple[int, ...]:
    """Every square's arrow mask from 8 rows of 8 two-digit hex masks joined by `/`."""
    rows = text.split("/")
    if len(rows) != SIZE:
        raise MalformedPositionError(f"the tiles are {SIZE} rows joined by '/', not {len(rows)}")
    tiles: list[int] = []
    for row in rows:
        if len(row) != 2 * SIZE:
            raise MalformedPositionError(
                f"a row of tiles is {SIZE} two-digit hex masks ({2 * SIZE} characters),"
                f" not {row!r}"
            )
        for col in range(SIZE):
            token = row[2 * col : 2 * col + 2]
            if not set(token) <= _HEX_DIGITS:
                raise MalformedPositionError(f"{token!r} is not a two-digit hex arrow mask")
            tiles.append(int(token, 16))
    for square in sorted(FIXED):
        if tiles[square]:
            kind = "circle" if square in CIRCLES else "start square"
            raise MalformedPositionError(
                f"{GRID.format_square(square)} is a {kind} and carries no arrows (00)"
            )
    return tuple(tiles)


def _parse_piece(text: str, seat: str) -> tuple[int, int]:
    """A piece's square and progress from `square:progress`, e.g. `e8:0`."""
    square_text, colon, count = text.partition(":")
    if not colon:
        raise MalformedPositionError(f"{seat}'s piece is written square:progress, not {text!r}")
    try:
        square = GRID.parse_square(square_text)
    except MalformedMoveError as error:
        raise MalformedPositionError(f"{seat}'s piece: {error}") from None
    if count not in {str(n) for n in range(GOAL + 1)}:
        raise MalformedPositionError(f"{seat}'s progress must be 0 to {GOAL}, not {count!r}")
    return square, int(count)


TRIPPPIN = TripppinGame()
