"""What every game's board drawing offers the client: a picture, where each square is, and
how clicks on squares become a move.

A board is built from one observation (protocol.md 2.6) and is immutable; the client makes
a new one for every observation it receives. It never decides what is legal: the server
does. It only draws, locates squares, and turns picked squares into move text.
"""

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.text import Text

CURSOR_SIDES = ("[", "]")
"""The keyboard cursor: brackets either side of a square's middle, which keeps its colours."""
MOVED_SIDES = ("\u203a", "\u2039")
"""The last move's squares (in a replay, every cell the move changed): single angle quotes
pointing in from either side."""

Step = Literal["up", "down", "left", "right"]
"""A cursor key."""

Observation = Mapping[str, Any]
"""A game's observation as the server sent it."""


@dataclass(frozen=True, slots=True)
class Cell:
    """Where a square is drawn: its name, top-left column and row, and width in columns."""

    name: str
    x: int
    y: int
    width: int


@dataclass(frozen=True, slots=True)
class Marks:
    """What to show on top of the position."""

    hints: frozenset[str] = frozenset()
    """Squares to highlight: those of hinted moves (P, B) or of a suggestion."""
    cursor: str | None = None
    """The square under the keyboard cursor."""
    picked: tuple[str, ...] = ()
    """Squares clicked so far towards a move that takes several (Oubliette's line)."""
    blink: bool = True
    """The phase of anything that blinks (Tripppin's next targets): drawn when True."""
    seat: str | None = None
    """The viewer's seat, if any, for what is shown only to the player to move."""
    changed: frozenset[str] = frozenset()
    """Cells a move changed, lit in a replay: placed, flipped, slid, pushed or pushed off."""


def sides(name: str, marks: Marks, *, moved: bool = False) -> tuple[str, str] | None:
    """The characters either side of square `name`'s middle: the cursor's brackets, else the
    pointers of a square the last move (`moved`) or a replayed one changed, else none."""
    if name == marks.cursor:
        return CURSOR_SIDES
    if moved or name in marks.changed:
        return MOVED_SIDES
    return None


@dataclass(frozen=True, slots=True)
class Pick:
    """What a click or Enter on a square came to: the squares picked so far and, once they
    make a move, its text (sent to the server as it is)."""

    picked: tuple[str, ...]
    move: str | None = None
    problem: str | None = None
    """Why the click made no move, in a sentence for the player; the pick stays as it was."""


class Board(ABC):
    """One game's board, drawn from one observation."""

    def __init__(self, observation: Observation) -> None:
        self.observation = observation

    @property
    @abstractmethod
    def cells(self) -> Sequence[Cell]:
        """Every square that can be clicked, in reading order."""

    @abstractmethod
    def render(self, marks: Marks) -> Text:
        """The board as lines of styled text, cells where `cells` says, plus any legend
        (Numlo's values are on the squares; Oubliette's ejected counts below the board)."""

    @abstractmethod
    def pick(self, picked: tuple[str, ...], square: str) -> Pick:
        """The square `square` clicked after `picked`: a move, or more picked squares."""

    @abstractmethod
    def hint_squares(self, moves: Sequence[str]) -> frozenset[str]:
        """The squares to light up for these move texts."""

    def targets(self, picked: tuple[str, ...]) -> frozenset[str]:
        """The squares a click on would finish a legal move after `picked`: none for a game
        whose move is one click."""
        return frozenset()

    def size(self) -> tuple[int, int]:
        """Columns and rows the picture takes."""
        lines = self.render(Marks()).split()
        return max((line.cell_len for line in lines), default=0), len(lines)

    def cell_at(self, x: int, y: int) -> str | None:
        """The square drawn at column `x`, row `y` of the picture, if any."""
        for cell in self.cells:
            if cell.y == y and cell.x <= x < cell.x + cell.width:
                return cell.name
        return None

    def step(self, square: str | None, direction: Step) -> str | None:
        """Where the cursor goes from `square` on an arrow key: the nearest cell that way,
        or the first cell when there is no cursor yet."""
        cells = self.cells
        if not cells:
            return None
        here = next((cell for cell in cells if cell.name == square), None)
        if here is None:
            return cells[0].name
        hx, hy = here.x + here.width / 2, here.y
        dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[direction]

        def ahead(cell: Cell) -> float | None:
            cx, cy = cell.x + cell.width / 2 - hx, cell.y - hy
            along = cx * dx + cy * dy * 2
            if along <= 0:
                return None
            across = abs(cx * dy) + abs(cy * dx) * 2
            return along + 2 * across

        scored = [(score, cell.name) for cell in cells if (score := ahead(cell)) is not None]
        return min(scored)[1] if scored else square
