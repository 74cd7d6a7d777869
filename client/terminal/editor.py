"""Oubliette's board editor, as the registered version had it: holes, blocks and pieces
anywhere, then play from there.

The position is kept in the game's own notation and read back by the rules after every
change: a change the rules refuse is undone and the reason said, so the board shown is
always one the server will take.
"""

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Label

from parlour.rules import RulesError, get_game

from .widgets import BoardView

CYCLE = ".GR*#"
"""What a click puts on a cell, in turn: empty, green, red, a hole, a block."""
MARKS = {"empty": ".", "green": "G", "red": "R", "hole": "*", "block": "#"}


class Position:
    """An Oubliette position text, edited a cell at a time."""

    def __init__(self, text: str) -> None:
        rows, self.rest = text.split(" ", 1)
        self.rows = [list(row) for row in rows.split("/")]
        self.game = get_game("oubliette")

    @property
    def text(self) -> str:
        return "/".join("".join(row) for row in self.rows) + " " + self.rest

    def check(self) -> str:
        """Why the rules refuse this position, or "" if they take it."""
        try:
            state = self.game.parse_position(self.text)
        except RulesError as error:
            return str(error)
        return "the game would already be over" if state.is_over else ""

    def where(self, cell: str, row_cells: list[list[str]]) -> tuple[int, int]:
        row = next(index for index, cells in enumerate(row_cells) if cell in cells)
        return row, row_cells[row].index(cell)

    def put(self, row: int, column: int, mark: str) -> None:
        self.rows[row][column] = mark

    def cycle(self, row: int, column: int) -> None:
        here = self.rows[row][column]
        following = CYCLE[(CYCLE.index(here) + 1) % len(CYCLE)] if here in CYCLE else "."
        self.rows[row][column] = following

    def toggle_mover(self) -> None:
        side, rest = self.rest.split(" ", 1)
        self.rest = f"{'R' if side == 'G' else 'G'} {rest}"


class EditorApp(App[str | None]):
    """Edit an Oubliette position; returns its text, or None if the player gives up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g,G", "put('green')", "Green"),
        Binding("r,R", "put('red')", "Red"),
        Binding("h,H", "put('hole')", "Hole"),
        Binding("b,B", "put('block')", "Block"),
        Binding("delete,backspace,full_stop", "put('empty')", "Empty"),
        Binding("t,T", "toggle_mover", "Who moves"),
        Binding("s,S", "start", "Start"),
        Binding("escape", "quit_editor", "Cancel"),
    ]
    CSS = "#board { margin: 1 2; width: auto; height: auto; } #said { margin: 0 2; }"

    def __init__(self, start: str) -> None:
        super().__init__()
        self.position = Position(start)
        self.title = "Parlour: Oubliette board editor"

    def compose(self) -> ComposeResult:
        yield Label(
            "Click a cell to change what is on it (empty, green, red, hole, block), or move\n"
            "with the arrow keys and press G, R, H, B or Delete. T: who moves first. S: start.",
            id="help",
        )
        yield BoardView(id="board")
        yield Label("", id="said")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one(BoardView).focus()

    def change(self, edit: Callable[[], None]) -> None:
        """Make an edit; if the rules refuse the result, undo it and say why."""
        before = self.position.text
        edit()
        problem = self.position.check()
        if problem:
            self.position = Position(before)
        self.redraw(problem)

    def redraw(self, problem: str = "") -> None:
        state = self.position.game.parse_position(self.position.text)
        self.query_one(BoardView).show(state.observation(), None)
        mover = "Green" if self.position.rest.startswith("G") else "Red"
        said = Text(f"{mover} moves first. ")
        if problem:
            said.append(f"Not allowed: {problem}", "bold red")
        self.query_one("#said", Label).update(said)

    def _cell(self, square: str) -> tuple[int, int]:
        board = self.query_one(BoardView).board
        assert board is not None
        return self.position.where(square, board.observation["row_cells"])

    def on_board_view_chosen(self, event: BoardView.Chosen) -> None:
        row, column = self._cell(event.square)
        self.change(lambda: self.position.cycle(row, column))

    def action_put(self, what: str) -> None:
        cursor = self.query_one(BoardView).marks.cursor
        if cursor is not None:
            row, column = self._cell(cursor)
            self.change(lambda: self.position.put(row, column, MARKS[what]))

    def action_toggle_mover(self) -> None:
        self.change(self.position.toggle_mover)

    def action_start(self) -> None:
        self.exit(self.position.text)

    def action_quit_editor(self) -> None:
        self.exit(None)
