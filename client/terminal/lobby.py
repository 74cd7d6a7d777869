"""The lobby: the public rooms, their games, free seats and players' ratings; join one or
watch; from here the leaderboards and this player's own games."""

import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from parlour.protocol import messages as m

from ..connection import Connection, ConnectionLostError, RefusedError
from ..invocation import parlour_command
from .account import AccountScreen
from .clocks import control_label
from .conduct import refused_words
from .leaderboard import LeaderboardScreen
from .mygames import GoBack, MyGamesScreen, ReplayRecord
from .newroom import NewRoomScreen
from .ratings import rating_text, seat_rating
from .replay import ReplayScreen, ask_replay
from .room import RoomModel, moved_ago

LOBBY_REFRESH_SECONDS = 3.0


class LobbyScreen(Screen[None]):
    """The public rooms: join a free seat or watch."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "Join"),
        Binding("w,W", "watch", "Watch"),
        Binding("n,N", "new_room", "New room"),
        Binding("r,R", "refresh", "Refresh"),
        Binding("l,L", "leaderboard", "Leaderboard"),
        Binding("m,M", "my_games", "My games"),
        Binding("a,A", "account", "Account"),
        Binding("q,Q", "app.quit", "Quit"),
    ]

    def __init__(
        self,
        connection: Connection,
        enter: Callable[[RoomModel], Screen[None]],
        *,
        notice: str = "",
    ) -> None:
        super().__init__()
        self.connection = connection
        self.enter = enter
        """Makes the screen of a room once it is entered."""
        self.rooms: list[dict[str, Any]] = []
        self.notice = notice
        """What the player is told on coming here (sent out of a room), or why a room could
        not be entered: kept above the list's own words till another room is tried."""

    def compose(self) -> ComposeResult:
        yield Label("Parlour: public rooms", classes="heading")
        yield DataTable(id="rooms", cursor_type="row")
        yield Static("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(
            "game", "clock", "status", "seats", "host", "people", "last move", "made", "room"
        )
        self.action_refresh()
        self.set_interval(LOBBY_REFRESH_SECONDS, self.action_refresh)
        table.focus()

    def action_refresh(self) -> None:
        self.run_worker(self._load(), group="lobby", exclusive=True)

    async def _load(self) -> None:
        answer: m.ServerMessage | RefusedError | ConnectionLostError
        try:
            answer = await self.connection.request(m.ListRooms())
        except (RefusedError, ConnectionLostError) as error:
            answer = error
        try:
            table, status = self.query_one(DataTable), self.query_one("#status", Static)
        except NoMatches:
            return  # the screen was taken down while the list was on its way
        if isinstance(answer, Exception):
            status.update(self._told(f"Cannot list the rooms: {answer}"))
            return
        if not isinstance(answer, m.Rooms):
            return
        chosen = self._chosen()
        self.rooms = [room for room in answer.rooms if _is_summary(room)]
        table.clear()
        for room in self.rooms:
            seats = ", ".join(seat_summary(seat) for seat in room["seats"])
            people = room.get("people")
            in_room = str(people) if isinstance(people, int) else ""
            now = time.time()
            moved, made = (room.get(when) for when in ("moved_at", "created_at"))
            ago = moved_ago(moved, now) if isinstance(moved, int | float) else ""
            made_ago = moved_ago(made, now) if isinstance(made, int | float) else ""
            row = (
                room["game"],
                control_label(room.get("time_control")),
                room["status"],
                seats,
                room["host"],
                in_room,
                ago,
                made_ago,
                room["room"],
            )
            table.add_row(*row)
        ids = [room["room"] for room in self.rooms]
        if chosen is not None and chosen["room"] in ids:
            table.move_cursor(row=ids.index(chosen["room"]))
        count = len(self.rooms)
        status.update(
            self._told(
                f"{count} public room{'s' if count != 1 else ''}. Enter joins a free seat,"
                " W watches; N: a new room, L: leaderboards, M: your games, A: your account."
                if count
                else "No public rooms yet: N makes one"
                f" (or `{parlour_command()} host GAME --public`)."
                " L: leaderboards, M: your games, A: your account."
            )
        )

    def _told(self, words: str) -> str:
        """The lobby's words under what the player was last told, if anything."""
        return f"{self.notice}\n{words}" if self.notice else words

    def action_leaderboard(self) -> None:
        """The leaderboard of the chosen room's game and kind of clock, else of the first
        game's untimed games."""
        room = self._chosen()
        game = str(room["game"]) if room is not None else None
        control = room.get("time_control") if room is not None else None
        speed = control.get("kind") if isinstance(control, dict) else None
        board = LeaderboardScreen(self.connection, game, str(speed or "none"))
        self.app.push_screen(board)

    def action_account(self) -> None:
        """This player's email and vacation."""
        self.app.push_screen(AccountScreen(self.connection))

    def action_my_games(self) -> None:
        """This player's rooms in play, to go back to, and finished games, to replay."""
        self.app.push_screen(MyGamesScreen(self.connection), self._went)

    def action_new_room(self) -> None:
        """A room of this player's choosing (the game, their seat, the clock), entered as
        its host."""
        self.app.push_screen(NewRoomScreen(self.connection), self._made)

    def _made(self, joined: m.Joined | None) -> None:
        if joined is not None:
            self.app.call_later(self.app.switch_screen, self.enter(RoomModel.joined(joined)))

    def _went(self, chosen: GoBack | ReplayRecord | None) -> None:
        if isinstance(chosen, GoBack):
            join = m.Join(room=chosen.ref, seat=chosen.seat)
            self.run_worker(self._enter(join), group="requests")
        elif isinstance(chosen, ReplayRecord):
            self.run_worker(self._replay(chosen.record), group="requests")

    async def _replay(self, record: str) -> None:
        try:
            replay = await ask_replay(self.connection, m.Replay(record=record))
        except (RefusedError, ConnectionLostError, ValueError) as error:
            self.query_one("#status", Static).update(f"Cannot replay that game: {error}")
            self.app.bell()
            return
        self.app.push_screen(ReplayScreen(replay))

    def _chosen(self) -> dict[str, Any] | None:
        row = self.query_one(DataTable).cursor_row
        return self.rooms[row] if 0 <= row < len(self.rooms) else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_join()

    def action_join(self) -> None:
        room = self._chosen()
        if room is not None:
            self.run_worker(self._enter(m.Join(room=room["room"])), group="requests")

    def action_watch(self) -> None:
        room = self._chosen()
        if room is not None:
            self.run_worker(self._enter(m.Spectate(room=room["room"])), group="requests")

    async def _enter(self, request: m.Join | m.Spectate) -> None:
        self.notice = ""
        try:
            answer = await self.connection.request(request)
        except (RefusedError, ConnectionLostError) as error:
            plain = None
            if isinstance(error, RefusedError):
                plain = refused_words(error.code, error.error.message)
            self.notice = plain or f"Cannot enter the room: {error}"
            self.query_one("#status", Static).update(self.notice)
            self.app.bell()
            return
        if isinstance(answer, m.Joined):
            room = RoomModel.joined(answer, request.room)
        elif isinstance(answer, m.Watching):
            room = RoomModel.watching(answer, request.room)
        else:
            return
        self.app.call_later(self.app.switch_screen, self.enter(room))


def seat_summary(seat: dict[str, Any]) -> str:
    """A seat as the room list shows it: `blue free`, `red Ann 1532?`, `green computer 1610`."""
    holder = seat["holder"]
    kind = holder["kind"]
    if kind == "open":
        return f"{seat['colour']} free"
    who = "computer" if kind == "bot" and not holder.get("name") else holder.get("name")
    rating = rating_text(seat_rating(seat))
    return " ".join(str(part) for part in (seat["colour"], who or "taken", rating) if part)


def _is_summary(room: Any) -> bool:
    """Whether a lobby entry has what the lobby shows (protocol.md 2.2)."""
    try:
        return all(isinstance(seat["holder"]["kind"], str) for seat in room["seats"]) and all(
            isinstance(room[key], str) for key in ("room", "game", "status", "host")
        )
    except (KeyError, TypeError):
        return False
