"""Questions put to the player over the room."""

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ProposalScreen(ModalScreen[bool]):
    """Another person asks to take back a move or start again: agree or not."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "dismiss(True)", "Agree"),
        Binding("escape", "dismiss(False)", "Decline"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Label(self.question)
            with Horizontal():
                yield Button("Agree (Y)", id="agree", variant="success")
                yield Button("Decline (Esc)", id="decline", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "agree")
