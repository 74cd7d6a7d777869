"""A game's leaderboard (protocol.md 2.10): the highest rated players, computers marked, and
this player's own line; Left and Right go to the other games, S to the ratings of another
kind of time control (untimed, live, days a move), as each kind has ratings of its own."""

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from parlour.protocol import messages as m

from ..connection import Connection, ConnectionLostError, RefusedError

COLUMNS = ("#", "player", "rating", "games", "")
COMPUTER_MARK = "computer"
"""The last column of a computer level's line: computers are rated, but are not people."""
SPEEDS: dict[str, str] = {
    "none": "untimed games",
    "live": "live games",
    "days": "games of days a move",
}
"""Each kind of time control ratings are kept for (`speed`), in the order S steps through,
and the games it rates, in words."""


def speed_words(speed: str) -> str:
    """The games a leaderboard of `speed` rates: `live games`."""
    return SPEEDS.get(speed, f"{speed} games")


def next_speed(speed: str) -> str:
    """The kind of time control after `speed`, the first after the last."""
    kinds = list(SPEEDS)
    return kinds[(kinds.index(speed) + 1) % len(kinds)] if speed in kinds else kinds[0]


def game_names(welcome: m.Welcome | None) -> list[str]:
    """The games the server offers, in its order."""
    games = welcome.games if welcome is not None else []
    return [str(game["name"]) for game in games if isinstance(game, dict) and "name" in game]


def you(welcome: m.Welcome | None) -> str | None:
    """This connection's player id, where it said hello with a key."""
    player = welcome.player if welcome is not None else None
    return str(player["id"]) if isinstance(player, dict) and "id" in player else None


def leaderboard_rows(
    players: Sequence[Mapping[str, Any]], me: str | None = None
) -> list[tuple[str, ...]]:
    """The leaderboard's lines as table rows: rank, name, rating (`?` while provisional),
    games, and which line is a computer's or this player's."""
    rows: list[tuple[str, ...]] = []
    for line in players:
        rating = f"{line['rating']}{'?' if line.get('provisional') else ''}"
        mark = COMPUTER_MARK if line.get("computer") else "you" if line.get("player") == me else ""
        rows.append((str(line["rank"]), str(line["name"]), rating, str(line["games"]), mark))
    return rows


def leaderboard_text(reply: m.LeaderboardReply, me: str | None = None) -> str:
    """The leaderboard as plain lines, for `parlour leaderboard`."""
    title = f"Leaderboard: {reply.game.capitalize()}, {speed_words(reply.speed)}"
    if not reply.players:
        return f"{title}\n{nobody_words(reply)}"
    rows = [COLUMNS[:-1], *(row[:-1] for row in leaderboard_rows(reply.players, me))]
    marks = ["", *(row[-1] for row in leaderboard_rows(reply.players, me))]
    widths = [max(len(row[column]) for row in rows) for column in range(len(COLUMNS) - 1)]
    lines = [title]
    for row, mark in zip(rows, marks, strict=True):
        cells = [
            cell.rjust(width) if column != 1 else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append(("  ".join(cells) + (f"  ({mark})" if mark else "")).rstrip())
    lines.append("Ratings with ? are provisional: too few games yet to be sure.")
    return "\n".join(lines)


def nobody_words(reply: m.LeaderboardReply) -> str:
    """What an empty leaderboard says."""
    return f"Nobody has played a rated game of {reply.game} here yet ({speed_words(reply.speed)})."


class LeaderboardScreen(Screen[None]):
    """One game's leaderboard at a time; Left and Right the other games, S the ratings of
    another kind of time control, Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "other(-1)", "Previous game", key_display="←", priority=True),
        Binding("right", "other(1)", "Next game", key_display="→", priority=True),
        Binding("s,S", "speed", "Untimed / live / days"),
        Binding("escape,q,Q", "app.pop_screen", "Back"),
    ]
    DEFAULT_CSS = """
    LeaderboardScreen #board-title { padding: 0 1; }
    LeaderboardScreen #leaders { height: 1fr; }
    LeaderboardScreen #board-status { height: auto; padding: 0 1; background: $panel; }
    """

    def __init__(
        self, connection: Connection, game: str | None = None, speed: str = "none"
    ) -> None:
        super().__init__()
        self.connection = connection
        self.games = game_names(connection.welcome) or ([game] if game else [])
        self.game = game if game in self.games else (self.games[0] if self.games else "")
        self.speed = speed if speed in SPEEDS else "none"
        self.reply: m.LeaderboardReply | None = None

    def compose(self) -> ComposeResult:
        yield Label("", id="board-title", classes="heading")
        yield DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
        yield Static("", id="board-status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.query_one(DataTable).focus()
        self._ask()

    def action_other(self, step: int) -> None:
        if len(self.games) > 1:
            self.game = self.games[(self.games.index(self.game) + step) % len(self.games)]
            self._ask()

    def action_speed(self) -> None:
        """The ratings of the next kind of time control: untimed, live, days a move."""
        self.speed = next_speed(self.speed)
        self._ask()

    def _ask(self) -> None:
        self.reply = None
        self.query_one(DataTable).clear()
        self.query_one("#board-title", Label).update(self.title_words())
        self.run_worker(self._load(self.game, self.speed), group="leaderboard", exclusive=True)

    def title_words(self) -> str:
        """Which game, which ratings, and the keys to the others."""
        others = next_speed(self.speed)
        return (
            f"Leaderboard: {self.game.capitalize()}, {speed_words(self.speed)}  ({self._place()};"
            f" S: {speed_words(others)})"
        )

    def _place(self) -> str:
        if not self.games:
            return "no games"
        return f"game {self.games.index(self.game) + 1} of {len(self.games)}; ← → the others"

    async def _load(self, game: str, speed: str) -> None:
        status = self.query_one("#board-status", Static)
        try:
            answer = await self.connection.request(m.Leaderboard(game=game, speed=speed))
        except (RefusedError, ConnectionLostError) as error:
            status.update(f"Cannot show the leaderboard: {error}")
            return
        if not isinstance(answer, m.LeaderboardReply) or (game, speed) != (self.game, self.speed):
            return
        self.show(answer)

    def show(self, reply: m.LeaderboardReply) -> None:
        """Fill the table with the server's answer."""
        self.reply = reply
        table = self.query_one(DataTable)
        table.clear()
        me = you(self.connection.welcome)
        try:
            table.add_rows(leaderboard_rows(reply.players, me))
        except (KeyError, TypeError) as error:
            self.query_one("#board-status", Static).update(
                f"The leaderboard is unreadable: {error}"
            )
            return
        count = len(reply.players)
        self.query_one("#board-status", Static).update(
            f"The {count} highest rated in {speed_words(reply.speed)}, by a rating they very"
            " likely have (few lucky games do not top it); ? marks a provisional rating."
            if count
            else nobody_words(reply)
        )
