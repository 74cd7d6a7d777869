"""The score card (Tribolo's "sCores"): wins, losses and ties by colour and by player,
and the best score ever, shown over the room."""

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from parlour.protocol import messages as m

from .room import title

COLUMNS = ("", "won", "lost", "tied", "games", "win %")


def rows(lines: Sequence[Mapping[str, Any]], key: str) -> list[tuple[str, ...]]:
    """A card's lines as table rows: who, then the counts."""
    return [
        (
            title(str(line[key])) if key == "colour" else str(line[key]),
            *(str(line[count]) for count in ("wins", "losses", "ties", "games")),
            f"{line['win_percent']}%",
        )
        for line in lines
    ]


def headline(card: m.ScoreCardReply) -> str:
    """The games counted, and the best score with its initials."""
    where = f" on {card.preset}" if card.preset else ""
    played = f"{card.games} finished game{'s' if card.games != 1 else ''}{where}"
    if card.stood_in:
        played += f" ({card.stood_in} with a computer standing in for someone)"
    best = card.best
    if best is None:
        return f"{played}. No best score yet."
    return f"{played}. Best score: {best['score']} by {best['initials']} ({best['name']})."


class ScoreCardScreen(ModalScreen[bool]):
    """The score card over the room; any of Escape, C or Q closes it, and A (on one board's
    card) answers True, for the card of every board."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss(False)", "Close"),
        Binding("c,C", "dismiss(False)", "Close", show=False),
        Binding("q,Q", "dismiss(False)", "Close", show=False),
        Binding("a,A", "every_board", "Every board"),
    ]

    def __init__(self, card: m.ScoreCardReply) -> None:
        super().__init__()
        self.card = card

    def compose(self) -> ComposeResult:
        with Vertical(id="card"):
            yield Label(f"Score card: {self.card.game.capitalize()}", classes="heading")
            yield Static(headline(self.card), id="headline")
            yield Label("By colour", classes="heading")
            yield DataTable(id="by-colour", show_cursor=False)
            yield Label("By player", classes="heading")
            yield DataTable(id="by-player", show_cursor=False)
            every = "; A: every board together" if self.card.preset else ""
            yield Label(f"Escape closes{every}", classes="hint")

    def action_every_board(self) -> None:
        if self.card.preset:
            self.dismiss(True)

    def on_mount(self) -> None:
        for table_id, lines, key in (
            ("#by-colour", self.card.colours, "colour"),
            ("#by-player", self.card.players, "name"),
        ):
            table = self.query_one(table_id, DataTable)
            table.add_columns(*COLUMNS)
            table.add_rows(rows(lines, key))
