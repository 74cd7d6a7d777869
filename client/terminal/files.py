"""Dialogs for keeping games: save under a name, load a saved one, import a game file.

Each dialog only gathers what the player chooses; the room screen sends the request and
the server checks it (a taken name, a file that does not make a game).
"""

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Checkbox, DataTable, Input, Label

from parlour.protocol.messages import MAX_GAME_FILE

SAVE_NAME_LENGTH = 40


class SaveScreen(ModalScreen[tuple[str, bool] | None]):
    """The name to save the game under, and whether to replace a game saved so."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Save this game as (Enter saves, Escape cancels):")
            yield Input(placeholder="a name", max_length=SAVE_NAME_LENGTH, id="save-name")
            yield Checkbox("Replace a game saved under this name", id="replace")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if name:
            self.dismiss((name, self.query_one("#replace", Checkbox).value))


class LoadScreen(ModalScreen[str | None]):
    """The saved games of this room's game, newest first: Enter loads one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, saves: Sequence[dict[str, Any]]) -> None:
        super().__init__()
        self.saves = [save for save in saves if isinstance(save.get("name"), str)]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            if self.saves:
                yield Label("Load which game? (Enter loads, Escape cancels)")
            else:
                yield Label("No games of this kind are saved yet. (Escape closes)")
            yield DataTable(id="saves", cursor_type="row")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("name", "moves", "saved by")
        for save in self.saves:
            table.add_row(save["name"], str(save.get("moves", "")), str(save.get("saved_by", "")))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.dismiss(self.saves[event.cursor_row]["name"])


class ImportScreen(ModalScreen[str | None]):
    """A game file to import, by its path; what it holds, or why it cannot be read."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Import the game file at (Enter imports, Escape cancels):")
            yield Input(placeholder="path/to/game.txt", id="import-path")
            yield Label("", id="import-problem")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            text = read_game_file(Path(event.value.strip()).expanduser())
        except ValueError as error:
            self.query_one("#import-problem", Label).update(str(error))
            return
        self.dismiss(text)


def read_game_file(path: Path) -> str:
    """A game file's text; ValueError saying why it cannot be read."""
    try:
        with path.open(encoding="utf-8") as file:
            text = file.read(MAX_GAME_FILE + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read {path}: {error}") from None
    if len(text) > MAX_GAME_FILE:
        raise ValueError(
            f"{path} is longer than a game file may be ({MAX_GAME_FILE:,} characters)"
        )
    if not text.strip():
        raise ValueError(f"{path} is empty")
    return text


def export_path(folder: Path, game: str, room: str) -> Path:
    """Where to write the room's game: a new file in `folder` named after the game."""
    path = folder / f"parlour-{game}-{room}.txt"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"parlour-{game}-{room}-{number}.txt"
    return path
