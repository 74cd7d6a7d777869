"""The score card (Tribolo's "sCores"): wins, losses and ties by colour and by player
(with each player's rating, where the server rates them), and the best score ever, shown
over the room."""

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from parlour.protocol import messages as m

from .ratings import rating_text
from .room import title

COLUMNS = ("", "won", "lost", "tied", "games", "win %")


def rated(lines: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a card's lines carry ratings (a server that rates players says them)."""
    return any(rating_text(line.get("rating")) for line in lines)


def who(line: Mapping[str, Any], key: str, me: str | None) -> str:
    """Whose line it is: a colour, or a player's name, marked where it is this player's
    own (by id: a guest may have gone by the same name)."""
    if key == "colour":
        return title(str(line[key]))
    mine = me is not None and line.get("player") == me
    return f"{line[key]} (you)" if mine else str(line[key])


def rows(
    lines: Sequence[Mapping[str, Any]],
    key: str,
    *,
    ratings: bool = False,
    me: str | None = None,
) -> list[tuple[str, ...]]:
    """A card's lines as table rows: who, then the counts, and with `ratings` the rating
    (`?` while provisional) of each line that has one."""
    return [
        (
            who(line, key, me),
            *(str(line[count]) for count in ("wins", "losses", "ties", "games")),
            f"{line['win_percent']}%",
            *((rating_text(line.get("rating")),) if ratings else ()),
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

    def __init__(self, card: m.ScoreCardReply, me: str | None = None) -> None:
        super().__init__()
        self.card = card
        self.me = me
        """This player's id, to mark their own line."""

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
            ratings = rated(lines)
            table.add_columns(*COLUMNS, *(("rating",) if ratings else ()))
            table.add_rows(rows(lines, key, ratings=ratings, me=self.me))
