"""The lobby's New room dialog: the game, this player's seat, the clock (none, live with
the common presets, or days per move), listed or not, rated or not. What is typed is
checked here first: a number field holding words is refused, saying which field and what
it takes, and nothing is sent. The room made is entered as its host, to fill and start."""

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from parlour.protocol import messages as m
from parlour.protocol.timecontrol import DAYS, LIVE, NONE

from ..connection import Connection, ConnectionLostError, RefusedError
from .clocks import LIVE_PRESETS, TimeControlError, typed_time_control
from .room import title

WATCH = ""
"""The seat choice of a host who only watches."""
CLOCKS = (
    ("No clock", NONE),
    ("Live: minutes each, seconds added a move", LIVE),
    ("Days per move, with a bank", DAYS),
)


def game_choices(games: Sequence[Any]) -> list[tuple[str, str]]:
    """The games the server offers, as (title, name)."""
    return [
        (str(game.get("title") or game["name"]), str(game["name"]))
        for game in games
        if isinstance(game, dict) and isinstance(game.get("name"), str)
    ]


def seat_choices(games: Sequence[Any], name: str) -> list[tuple[str, str]]:
    """The seats of the game called `name`, then only watching, as (words, value)."""
    game = next((g for g in games if isinstance(g, dict) and g.get("name") == name), {})
    seats = [(f"I play {title(str(seat))}", str(seat)) for seat in game.get("seats", [])]
    return [*seats, ("I only watch (and host)", WATCH)]


def create_request(
    game: str, seat: str, clock: str, typed: Mapping[str, str], *, public: bool, rated: bool
) -> m.CreateRoom:
    """The `create_room` these choices ask for; TimeControlError where a clock's numbers are
    not numbers in range."""
    return m.CreateRoom(
        game=game,
        seat=seat or None,
        public=public,
        rated=rated,
        time_control=typed_time_control(clock, typed),
    )


class NewRoomScreen(ModalScreen[m.Joined | None]):
    """A new room on the server: answers the `joined` of its host, or None (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    NewRoomScreen { align: center middle; }
    NewRoomScreen #new-room { width: 76; max-width: 100%; height: auto; padding: 1 2;
        border: thick $accent; background: $panel; }
    NewRoomScreen Horizontal { height: auto; }
    NewRoomScreen .name { width: 12; padding: 1 1 0 0; }
    NewRoomScreen .unit { width: auto; padding: 1 1 0 1; }
    NewRoomScreen Select { width: 1fr; }
    NewRoomScreen #preset { width: 16; }
    NewRoomScreen Input { width: 10; }
    NewRoomScreen #refusal { color: $text-error; height: auto; margin-top: 1; }
    NewRoomScreen Button { margin-right: 1; }
    """

    def __init__(self, connection: Connection) -> None:
        super().__init__()
        self.connection = connection
        welcome = connection.welcome
        self.games: list[Any] = list(welcome.games) if welcome is not None else []
        self.sending = False

    def compose(self) -> ComposeResult:
        games = game_choices(self.games)
        first = games[0][1] if games else ""
        with Vertical(id="new-room"):
            yield Label("New room", classes="heading")
            with Horizontal():
                yield Label("Game", classes="name")
                yield Select(games, value=first, allow_blank=False, id="game")
            with Horizontal():
                yield Label("Your seat", classes="name")
                seats = seat_choices(self.games, first)
                yield Select(seats, value=seats[0][1], allow_blank=False, id="seat")
            with Horizontal():
                yield Label("Clock", classes="name")
                yield Select(CLOCKS, value=NONE, allow_blank=False, id="clock")
            with Horizontal(id="live"):
                presets = [(f"{mins}+{secs}", f"{mins}+{secs}") for mins, secs in LIVE_PRESETS]
                yield Select(presets, prompt="preset", id="preset")
                yield Input("5", id="minutes", tooltip="each seat's minutes")
                yield Label("minutes +", classes="unit")
                yield Input("3", id="increment", tooltip="seconds added after each move")
                yield Label("s a move", classes="unit")
            with Horizontal(id="days"):
                yield Input("3", id="days-a-move", tooltip="days for each move (1 to 14)")
                yield Label("days a move, bank", classes="unit")
                yield Input("0", id="bank", tooltip="unused days kept, at most (0 to 28)")
                yield Label("days", classes="unit")
            with Horizontal():
                yield Checkbox("Listed in the lobby", value=True, id="public")
                yield Checkbox("Rated", value=True, id="rated")
            yield Static("", id="refusal")
            with Horizontal():
                yield Button("Create (Enter)", id="create", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        self._show_clock_fields()
        self.query_one("#game", Select).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game" and isinstance(event.value, str):
            seats = seat_choices(self.games, event.value)
            seat = self.query_one("#seat", Select)
            seat.set_options(seats)
            seat.value = seats[0][1]
        elif event.select.id == "clock":
            self._show_clock_fields()
        elif event.select.id == "preset" and isinstance(event.value, str):
            minutes, increment = event.value.split("+")
            self.query_one("#minutes", Input).value = minutes
            self.query_one("#increment", Input).value = increment

    def _show_clock_fields(self) -> None:
        clock = self.query_one("#clock", Select).value
        self.query_one("#live").display = clock == LIVE
        self.query_one("#days").display = clock == DAYS

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.create()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.create()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        """Back to the lobby, making nothing; not while the server is making the room,
        which is entered once it is made."""
        if not self.sending:
            self.dismiss(None)

    def typed(self) -> dict[str, str]:
        """What is in the clock's number fields."""
        fields = {"minutes": "#minutes", "increment": "#increment"}
        fields |= {"days": "#days-a-move", "bank": "#bank"}
        return {name: self.query_one(at, Input).value for name, at in fields.items()}

    def refuse(self, words: str) -> None:
        self.query_one("#refusal", Static).update(words)
        self.app.bell()

    def create(self) -> None:
        """Ask the server for the room, once what was typed makes sense; the refusal (ours
        or the server's) is shown, and the dialog stays for it to be put right."""
        if self.sending:
            return
        game, seat = self.query_one("#game", Select).value, self.query_one("#seat", Select).value
        clock = self.query_one("#clock", Select).value
        if not isinstance(game, str) or not isinstance(seat, str) or not isinstance(clock, str):
            self.refuse("Choose a game, your seat and the clock.")
            return
        try:
            request = create_request(
                game,
                seat,
                clock,
                self.typed(),
                public=self.query_one("#public", Checkbox).value,
                rated=self.query_one("#rated", Checkbox).value,
            )
        except TimeControlError as error:
            self.refuse(str(error))
            return
        self.sending = True
        self.query_one("#refusal", Static).update("Asking the server for the room...")
        self.run_worker(self._send(request), group="new-room", exclusive=True)

    async def _send(self, request: m.CreateRoom) -> None:
        try:
            answer = await self.connection.request(request)
        except (RefusedError, ConnectionLostError) as error:
            self.sending = False
            self.refuse(f"The server did not make the room: {error}")
            return
        self.sending = False
        if isinstance(answer, m.Joined):
            self.dismiss(answer)
