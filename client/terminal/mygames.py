"""A player's own games (protocol.md 2.10 `my_games`): rooms in play to go back to, those
waiting on the player's move first, and finished games with their result and rating
change, each to replay; and the words that tell a player a room waits on them (`your_turn`).

The screen only chooses: it answers the lobby with `GoBack` (join the room's seat again:
with a key, no token is needed) or `ReplayRecord`, and the lobby does it.
"""

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from parlour.protocol import messages as m

from ..connection import Connection, ConnectionLostError, RefusedError
from ..invocation import parlour_command
from .clocks import span_text
from .leaderboard import you
from .ratings import BETWEEN, change_text
from .room import moved_ago, title

PLAYING_COLUMNS = ("game", "your seats", "status", "mover's time", "last move", "room")
FINISHED_COLUMNS = ("game", "when", "result", "rating", "moves", "against")
OUTCOMES = {"win": "won", "loss": "lost", "tie": "tied"}
YOUR_TURN = "your turn"


@dataclass(frozen=True, slots=True)
class GoBack:
    """Back into a room in play: `join` with its `ref` and a seat of this player's."""

    ref: str
    seat: str | None


@dataclass(frozen=True, slots=True)
class ReplayRecord:
    """Step through a finished game: `replay` with its `record`."""

    record: str


def waiting_first(playing: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rooms in play, those waiting on this player's move first, each part in the
    server's order (the last moved first)."""
    return sorted(playing, key=lambda room: room.get("turn") is not True)


def time_left(ms: object) -> str:
    """The time the seat to move has left (`time_left_ms`), empty where no clock runs. Whose
    clock, live or days, is not said, so as the longer clocks show it: `4:59`, `5h 12m`."""
    return span_text(ms) if isinstance(ms, int) and not isinstance(ms, bool) else ""


def playing_row(room: Mapping[str, Any], now: float) -> tuple[str, ...]:
    """A room in play as a row: its game, this player's seats, how it stands ("your turn"
    when it waits on this player), the time the seat to move has left where a clock runs,
    when it last moved, its ref."""
    seats = ", ".join(title(str(colour)) for colour in room.get("seats", []))
    moved = room.get("moved_at")
    ago = moved_ago(moved, now) if isinstance(moved, int | float) else ""
    game = str(room["game"]).capitalize()
    status = YOUR_TURN if room.get("turn") is True else str(room.get("status", ""))
    return (game, seats, status, time_left(room.get("time_left_ms")), ago, str(room["ref"]))


def your_turn_words(told: m.YourTurn, where: str) -> str:
    """What a running client says when a room waits on this player: the game, the seats and
    the room, the time left where a clock runs, and `where` to go there from."""
    seats = ", ".join(title(colour) for colour in told.seats)
    left = time_left(told.time_left_ms)
    clock = f", {left} left" if left else ""
    return f"Your turn in {told.game.capitalize()} ({seats}), room {told.ref}{clock}: {where}."


def my_seat(seats: Sequence[Mapping[str, Any]], me: str | None) -> Mapping[str, Any] | None:
    """This player's seat of a finished game: the one carrying their id."""
    return next((seat for seat in seats if me is not None and seat.get("player") == me), None)


def holder_words(seat: Mapping[str, Any]) -> str:
    """Who held a seat of a finished game: a name, or `computer (hard)`."""
    if seat.get("kind") == "bot":
        return f"computer ({seat.get('level')})"
    return str(seat.get("name") or "someone")


def finished_row(game: Mapping[str, Any], me: str | None, now: float) -> tuple[str, ...]:
    """A finished game as a row: when, this player's result with the scores, the rating
    change (or unrated), who else played and how long it was."""
    seats = list(game.get("seats", []))
    mine = my_seat(seats, me)
    scores = BETWEEN.join(str(seat.get("score", "")) for seat in seats)
    outcome = OUTCOMES.get(str(mine.get("outcome")), "") if mine is not None else ""
    result = f"{outcome} {scores}".strip()
    if not game.get("rated"):
        rating = "unrated"
    else:
        rating = change_text(mine.get("rating")) if mine is not None else ""
    others = ", ".join(holder_words(seat) for seat in seats if seat is not mine)
    finished = game.get("finished_at")
    when = moved_ago(finished, now) if isinstance(finished, int | float) else ""
    name = str(game["game"]).capitalize()
    return (name, when, result, rating, str(game.get("moves", "")), others)


def my_games_text(reply: m.MyGamesReply, me: str | None, now: float, server: str = "") -> str:
    """This player's games as plain lines, for `parlour mine`; `server` is the `--server`
    (and `--ca`) the commands it prints need to reach the same server."""
    lines = []
    there = f" {server}" if server else ""
    if reply.playing:
        waiting = sum(room.get("turn") is True for room in reply.playing)
        on_you = f"{waiting} waiting on your move; " if waiting else ""
        join = f"{parlour_command()} join REF{there}"
        lines.append(f"In play ({on_you}{join} goes back to your seat):")
        for room in waiting_first(reply.playing):
            game, seats, status, left, ago, ref = playing_row(room, now)
            clock = f", {left} left to move" if left else ""
            lines.append(f"  {game} {seats}  {status}{clock}, last move {ago}  join: {ref}")
    else:
        lines.append("No games in play.")
    if reply.finished:
        replay = f"{parlour_command()} replay --record RECORD{there}"
        lines.append(f"Finished ({replay} steps through one):")
        for game in reply.finished:
            name, when, result, rating, moves, others = finished_row(game, me, now)
            against = f" against {others}" if others else ""
            length = f"{moves} move{'s' * (moves != '1')}"
            lines.append(f"  {name}, {when}: {result}{against}; {rating}; {length}")
            lines.append(f"    record {game['record']}")
    else:
        lines.append("No finished games yet.")
    return "\n".join(lines)


class MyGamesScreen(Screen[GoBack | ReplayRecord | None]):
    """Rooms in play (Enter goes back) and finished games (Enter replays); Tab moves
    between them, Escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,R", "refresh", "Refresh"),
        Binding("escape,q,Q", "dismiss(None)", "Back"),
    ]
    DEFAULT_CSS = """
    MyGamesScreen Label { padding: 0 1; }
    MyGamesScreen #playing { height: auto; max-height: 7; }
    MyGamesScreen #finished { height: 1fr; }
    MyGamesScreen #games-status { height: auto; padding: 0 1; background: $panel; }
    """

    def __init__(self, connection: Connection) -> None:
        super().__init__()
        self.connection = connection
        self.reply: m.MyGamesReply | None = None
        self.playing: list[Mapping[str, Any]] = []
        """The rooms in play as the table lists them: those waiting on this player first."""

    def compose(self) -> ComposeResult:
        yield Label("Your games", classes="heading")
        yield Label("In play: Enter goes back to your seat")
        yield DataTable(id="playing", cursor_type="row")
        yield Label("Finished: Enter replays the game with charts")
        yield DataTable(id="finished", cursor_type="row", zebra_stripes=True)
        yield Static("", id="games-status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#playing", DataTable).add_columns(*PLAYING_COLUMNS)
        self.query_one("#finished", DataTable).add_columns(*FINISHED_COLUMNS)
        self.action_refresh()

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="my-games", exclusive=True)

    async def _load(self) -> None:
        status = self.query_one("#games-status", Static)
        try:
            answer = await self.connection.request(m.MyGames())
        except RefusedError as error:
            if error.code == "no_key":
                status.update(
                    "You play as a guest here, so no games are kept as yours: start without"
                    " --guest to play with your player key."
                )
            else:
                status.update(f"Cannot list your games: {error}")
            return
        except ConnectionLostError as error:
            status.update(f"Cannot list your games: {error}")
            return
        if isinstance(answer, m.MyGamesReply):
            self.show(answer)

    def show(self, reply: m.MyGamesReply) -> None:
        """Fill both tables with the server's answer."""
        self.reply = reply
        self.playing = waiting_first(reply.playing)
        now, me = time.time(), you(self.connection.welcome)
        playing = self.query_one("#playing", DataTable)
        finished = self.query_one("#finished", DataTable)
        playing.clear()
        finished.clear()
        try:
            playing.add_rows([playing_row(room, now) for room in self.playing])
            finished.add_rows([finished_row(game, me, now) for game in reply.finished])
        except (KeyError, TypeError, AttributeError) as error:
            self.query_one("#games-status", Static).update(f"Your games are unreadable: {error}")
            return
        (playing if reply.playing else finished).focus()
        rooms, games = len(reply.playing), len(reply.finished)
        waiting = sum(room.get("turn") is True for room in self.playing)
        on_you = f" ({waiting} waiting on your move)" if waiting else ""
        self.query_one("#games-status", Static).update(
            f"{rooms} room{'s' * (rooms != 1)} in play{on_you}, {games} finished"
            f" game{'s' * (games != 1)}. Tab moves between the lists."
        )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        reply = self.reply
        if reply is None:
            return
        row = event.cursor_row
        if event.data_table.id == "playing" and 0 <= row < len(self.playing):
            room = self.playing[row]
            seats = room.get("seats") or [None]
            self.dismiss(GoBack(str(room["ref"]), seats[0]))
        elif event.data_table.id == "finished" and 0 <= row < len(reply.finished):
            self.dismiss(ReplayRecord(str(reply.finished[row]["record"])))
