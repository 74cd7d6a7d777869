"""A game's rules page over the room, in Parlour's own words: the same Markdown the
browser's rules page is made from."""

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Markdown

from ..texts import rules_text


class RulesScreen(ModalScreen[None]):
    """The rules of one game; Escape, R or Q closes it, the arrows and PgUp/PgDn scroll."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("r,R", "dismiss", "Close", show=False),
        Binding("q,Q", "dismiss", "Close", show=False),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Markdown(rules_text(self.game))
            yield Label("Escape closes", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#rules", VerticalScroll).focus()
