"""Clocks on the terminal's screens, against a real server on port 0: the room's seats with
their clocks counting down on a clock the test turns and set right by each update, low time
in the warning colour, a seat out of time; the New room dialog that asks for a clock and
refuses words in its number fields; the lobby's labels; My games and `parlour mine`."""

import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, OptionList, RichLog, Select, Static

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp, RoomScreen
from parlour.client.terminal.clocks import live_text
from parlour.client.terminal.colours import LOW_TIME_RGB
from parlour.client.terminal.lobby import LobbyScreen
from parlour.client.terminal.mygames import MyGamesScreen, my_games_text, your_turn_words
from parlour.client.terminal.newroom import NewRoomScreen
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import SeatsPanel
from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.server import ParlourServer

from .test_app import SCREEN, click_square, connection, screen_of, type_fast, until
from .test_clocks import Local

__all__ = ["connection"]

LIVE_5_3: dict[str, Any] = {"kind": "live", "base_s": 300, "increment_s": 3}


class Wall:
    """The server's Unix clock, set forward by the test."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


@pytest.fixture
async def bob(url: str) -> AsyncIterator[Connection]:
    opened = await Connection.open(url, "bob", retry_delays=(0.05,))
    yield opened
    await opened.close()


async def clocked_game(
    ann: Connection,
    bob: Connection,
    local: Callable[[], float],
    control: dict[str, Any] = LIVE_5_3,
) -> RoomModel:
    """Othello on a clock: ann Black, bob White, started; ann's room on `local` (a `Local`
    the test turns, or the real clock)."""
    made = await ann.request(m.CreateRoom(game="othello", seat="black", time_control=control))
    assert isinstance(made, m.Joined)
    room = RoomModel.joined(made, now=local)
    assert isinstance(await bob.request(m.Join(room=room.ref, seat="white")), m.Joined)
    assert isinstance(await ann.request(m.Start(room=room.ref)), m.Ok)
    view = await ann.request(m.GetRoom(room=room.ref))
    assert isinstance(view, m.RoomView)
    room.apply(view)
    return room


async def each_moved(ann: Connection, bob: Connection, room: RoomModel) -> None:
    """Black and White each make a first move at once (before it, a late seat's game is
    aborted rather than lost on time), and ann's room shows them."""
    for mover in (ann, bob):
        view = await mover.request(m.GetRoom(room=room.ref))
        assert isinstance(view, m.RoomView)
        legal = view.room["state"]["legal_moves"][0]
        await mover.request(m.Move(room=room.ref, version=view.room["version"], move=legal))
    view = await ann.request(m.GetRoom(room=room.ref))
    assert isinstance(view, m.RoomView)
    room.apply(view)


def seat_line(app: ParlourApp, colour: str) -> Text:
    line = screen_of(app).query_one(SeatsPanel).line_of(colour)
    assert line is not None
    return line


def shows(app: ParlourApp, colour: str, figure: str) -> Callable[[], bool]:
    """Whether `colour`'s seat line shows its clock at `figure`."""
    return lambda: f" {figure} " in seat_line(app, colour).plain


def clock_style_of(line: Text, figure: str) -> Any:
    """The style the clock's figure is drawn in, on its seat's line."""
    start = line.plain.index(figure)
    styles = [span.style for span in line.spans if span.start <= start < span.end]
    assert len(styles) == 1, line.spans
    return styles[0]


def log_text(app: ParlourApp) -> str:
    return "\n".join(line.text for line in screen_of(app).query_one("#log", RichLog).lines)


async def test_the_clocks_count_down_on_the_clients_clock_and_each_update_sets_them_right(
    connection: Connection, bob: Connection
) -> None:
    local = Local()
    room = await clocked_game(connection, bob, local)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: bool(screen.query_one(SeatsPanel).shown), "seats drawn")
        clocks = screen.room.clocks
        assert clocks is not None and clocks.running == "black"
        black, white = clocks.left_ms["black"], clocks.left_ms["white"]
        assert 290_000 < black <= 300_000 and white == 300_000
        await until(pilot, shows(app, "black", live_text(black)), "black's clock showed")
        assert shows(app, "white", "5:00")()
        heading = str(screen.query_one("#seats-heading").render())
        assert heading == "Seats, clock 5+3"
        local.now += 12.3
        await until(pilot, shows(app, "black", live_text(black - 12_300)), "black's ran")
        assert shows(app, "white", "5:00")(), "the seat not to move stands"
        style = clock_style_of(seat_line(app, "black"), live_text(black - 12_300))
        assert style.bold and style.bgcolor is None, "running, not low"
        # This client's clock runs on far ahead of the server's; the update sets it right.
        local.now += 200.0
        await until(pilot, shows(app, "black", live_text(black - 212_300)), "it ran on")
        legal = screen.room.observation["legal_moves"]  # type: ignore[index]
        await click_square(pilot, app, legal[0])
        await until(pilot, lambda: screen.room.version == 1, "the update came")
        after = screen.room.clocks
        assert after is not None and after.running == "white"
        charged = black - after.left_ms["black"] + 3_000
        assert 0 <= charged < 10_000, "the server charged black its real time, not 212 s"
        await until(pilot, shows(app, "black", live_text(after.left_ms["black"])), "set right")
        assert shows(app, "white", live_text(after.left_ms["white"]))()
        local.now += 1.0
        later = live_text(after.left_ms["white"] - 1_000)
        await until(pilot, shows(app, "white", later), "white's clock ran")


async def test_low_time_is_drawn_in_the_warning_colour_and_a_flag_is_shown_and_told(
    server: ParlourServer, connection: Connection, bob: Connection
) -> None:
    wall = Wall()
    server.lobby.services.wall = wall
    local = Local()
    room = await clocked_game(connection, bob, local)
    await each_moved(connection, bob, room)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.query_one(SeatsPanel).shown != [], "seats drawn")
        # Black has thought for 4 min 56 s of its 5:03: the server says so in a view,
        # asked anew.
        wall.ahead = 296.0
        view = await connection.request(m.GetRoom(room=room.ref))
        assert isinstance(view, m.RoomView)
        screen.take(view)
        clocks = screen.room.clocks
        assert clocks is not None
        left = clocks.left("black", local.now)
        assert 0 < left < 9_000
        await until(pilot, shows(app, "black", live_text(left)), "the time left showed")
        low = clock_style_of(seat_line(app, "black"), live_text(left))
        assert low.bgcolor is not None and low.bgcolor.triplet.hex == LOW_TIME_RGB
        white = live_text(clocks.left("white", local.now))
        assert clock_style_of(seat_line(app, "white"), white).bgcolor is None
        local.now += 0.25
        await until(pilot, shows(app, "black", live_text(left - 250)), "tenths ran down")
        # Past the time and the grace: the next request about the room flags black.
        wall.ahead = 400.0
        assert isinstance(await bob.request(m.Chat(room=room.ref, text="hello?")), m.Ok)
        await until(pilot, lambda: screen.room.status == "finished", "the flag came")
        assert screen.room.flagged == ["black"]
        assert shows(app, "black", "out of time")()
        out = clock_style_of(seat_line(app, "black"), "out of time")
        assert out.bgcolor is not None and out.bgcolor.triplet.hex == LOW_TIME_RGB
        log = log_text(app)
        assert "ann (Black) ran out of time." in log
        assert log.index("ran out of time") < log.index("Game over")
        status = str(screen.query_one("#status", Static).render())
        assert status.startswith(
            "ann (Black) ran out of time.\nGame over: bob (White) wins on time."
        )


# The New room dialog.


async def new_room(pilot: Pilot[None], app: ParlourApp) -> NewRoomScreen:
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, NewRoomScreen), "the dialog opened")
    dialog = app.screen
    assert isinstance(dialog, NewRoomScreen)
    await pilot.pause()
    return dialog


async def choose(pilot: Pilot[None], dialog: NewRoomScreen, select: str, words: str) -> None:
    """Choose the option of a Select as a person does: focus it, Enter, the arrows to the
    option, Enter."""
    widget: Select[Any] = dialog.query_one(select, Select)
    widget.focus()
    await pilot.press("enter")
    overlay = widget.query_one("SelectOverlay", OptionList)
    await until(pilot, lambda: overlay.has_focus, "the options opened")
    prompts = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
    now, target = overlay.highlighted or 0, prompts.index(words)
    key = "down" if target >= now else "up"
    await type_fast(pilot, *[key] * abs(target - now))
    await until(pilot, lambda: overlay.highlighted == target, f"{words} was highlighted")
    await pilot.press("enter")
    await until(pilot, lambda: not overlay.has_focus, f"{words} chosen")


async def typed(pilot: Pilot[None], dialog: NewRoomScreen, field: str, text: str) -> None:
    """Empty a field (Ctrl+U) and type `text` into it key by key, as a fast typist does."""
    box = dialog.query_one(field, Input)
    box.focus()
    await until(pilot, lambda: box.has_focus, f"{field} had the keys")
    await type_fast(pilot, "end", "ctrl+u")
    await until(pilot, lambda: box.value == "", f"{field} was emptied")
    await type_fast(pilot, *text)
    await until(pilot, lambda: box.value == text, f"{text!r} was in {field}")


def refusal(dialog: NewRoomScreen) -> str:
    return str(dialog.query_one("#refusal", Static).render())


async def made_room(
    connection: Connection, pilot: Pilot[None], app: ParlourApp, seat: str = "black"
) -> RoomModel:
    """The room the dialog made, entered by its host in `seat`, as the server shows it."""
    await until(pilot, lambda: isinstance(app.screen, RoomScreen), "the room opened")
    room = screen_of(app).room
    assert room.host and room.playing == [seat] and room.status == "waiting"
    view = await connection.request(m.GetRoom(room=room.ref))
    assert isinstance(view, m.RoomView)
    return RoomModel(view.room, room.ref)


async def test_the_new_room_dialog_asks_the_server_for_a_live_clock_from_a_preset(
    connection: Connection,
) -> None:
    app = ParlourApp(connection)
    async with app.run_test(size=SCREEN) as pilot:
        dialog = await new_room(pilot, app)
        await choose(pilot, dialog, "#game", "Othello")
        await choose(pilot, dialog, "#clock", "Live: minutes each, seconds added a move")
        assert dialog.query_one("#live").display and not dialog.query_one("#days").display
        await choose(pilot, dialog, "#preset", "3+2")
        assert [dialog.query_one(at, Input).value for at in ("#minutes", "#increment")] == [
            "3",
            "2",
        ]
        dialog.query_one("#minutes", Input).focus()
        await pilot.press("enter")
        room = await made_room(connection, pilot, app)
        assert room.view["time_control"] == {"kind": "live", "base_s": 180, "increment_s": 2}
        assert room.view["public"] is True
        assert room.view["unrated"] != "the room is not rated"


async def test_the_new_room_dialog_asks_for_days_a_move_with_a_bank_unlisted_and_unrated(
    connection: Connection,
) -> None:
    app = ParlourApp(connection)
    async with app.run_test(size=SCREEN) as pilot:
        dialog = await new_room(pilot, app)
        await choose(pilot, dialog, "#game", "Othello")
        await choose(pilot, dialog, "#clock", "Days per move, with a bank")
        assert dialog.query_one("#days").display and not dialog.query_one("#live").display
        await typed(pilot, dialog, "#days-a-move", "3")
        await typed(pilot, dialog, "#bank", "7")
        for box in ("#public", "#rated"):
            dialog.query_one(box, Checkbox).focus()
            await pilot.press("space")
        await pilot.click("#create")
        room = await made_room(connection, pilot, app)
        assert room.view["time_control"] == {"kind": "days", "days": 3, "bank_days": 7}
        assert room.view["public"] is False
        assert room.view["unrated"] == "the room is not rated"
        assert screen_of(app).room.time_control == "3 days a move, bank 7"


async def test_words_typed_in_the_number_fields_are_refused_and_nothing_is_sent(
    server: ParlourServer, connection: Connection
) -> None:
    app = ParlourApp(connection)
    async with app.run_test(size=SCREEN) as pilot:
        dialog = await new_room(pilot, app)
        await choose(pilot, dialog, "#clock", "Live: minutes each, seconds added a move")
        # A sentence typed into the minutes: "q" quits nothing, Enter makes nothing.
        await typed(pilot, dialog, "#minutes", "quick game please")
        await pilot.press("enter")
        await until(pilot, lambda: "Minutes each" in refusal(dialog), "it was refused")
        assert refusal(dialog) == (
            "Minutes each must be a number from 0.25 to 180 (5, or 1.5);"
            " “quick game please” is not one."
        )
        await typed(pilot, dialog, "#minutes", "5")
        await typed(pilot, dialog, "#increment", "3s")
        await pilot.click("#create")
        await until(pilot, lambda: "Seconds added" in refusal(dialog), "it was refused")
        assert "“3s” is not one" in refusal(dialog)
        await choose(pilot, dialog, "#clock", "Days per move, with a bank")
        await typed(pilot, dialog, "#days-a-move", "a fortnight")
        await pilot.press("enter")
        await until(pilot, lambda: "Days a move" in refusal(dialog), "it was refused")
        await typed(pilot, dialog, "#days-a-move", "30")
        await pilot.press("enter")
        await until(pilot, lambda: "30 is not" in refusal(dialog), "it was refused")
        assert app.screen is dialog and not server.lobby.rooms, "nothing was sent"
        # Put right, the room is made.
        await typed(pilot, dialog, "#days-a-move", "14")
        await pilot.press("enter")
        room = await made_room(connection, pilot, app, seat="blue")
        assert room.view["time_control"] == {"kind": "days", "days": 14, "bank_days": 0}
        assert len(server.lobby.rooms) == 1


async def test_escape_leaves_the_dialog_and_makes_nothing(
    server: ParlourServer, connection: Connection
) -> None:
    app = ParlourApp(connection)
    async with app.run_test(size=SCREEN) as pilot:
        await new_room(pilot, app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")
        assert not server.lobby.rooms


async def test_the_lobby_labels_each_rooms_clock(connection: Connection, bob: Connection) -> None:
    controls: list[dict[str, Any]] = [
        LIVE_5_3,
        {"kind": "days", "days": 2, "bank_days": 0},
        {"kind": "none"},
    ]
    for control in controls:
        made = await bob.request(m.CreateRoom(game="othello", seat="black", time_control=control))
        assert isinstance(made, m.Joined)
    app = ParlourApp(connection)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count == 3, "the rooms were listed")
        labels = {str(table.get_row_at(row)[1]) for row in range(3)}
        assert labels == {"5+3", "2 days a move", "no clock"}


# My games and `parlour mine`.


async def test_my_games_and_parlour_mine_show_the_time_left_to_move(url: str) -> None:
    ann = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    bob = await Connection.open(url, "bob", key=new_key(), retry_delays=(0.05,))
    try:
        local = Local()
        days = {"kind": "days", "days": 2, "bank_days": 0}
        await clocked_game(ann, bob, local, control=days)
        reply = await ann.request(m.MyGames())
        assert isinstance(reply, m.MyGamesReply)
        (entry,) = reply.playing
        left = entry["time_left_ms"]
        assert 2 * 86_400_000 - 60_000 < left <= 2 * 86_400_000
        lines = my_games_text(reply, None, time.time()).splitlines()
        assert ", 1d 23h left to move, last move just now" in lines[1] or (
            ", 2d 00h left to move, last move just now" in lines[1]
        )
        app = ParlourApp(ann)
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, MyGamesScreen), "it opened")
            mine = app.screen
            assert isinstance(mine, MyGamesScreen)
            table = mine.query_one("#playing", DataTable)
            await until(pilot, lambda: table.row_count == 1, "the room showed")
            row = [str(cell) for cell in table.get_row_at(0)]
            assert row[2] == "your turn" and row[3] in ("1d 23h", "2d 00h")
    finally:
        await ann.close()
        await bob.close()


def test_the_your_turn_notice_says_the_time_left() -> None:
    told = m.YourTurn(room="r", ref="R", game="othello", seats=["white"], time_left_ms=272_000)
    assert your_turn_words(told, "M opens My games") == (
        "Your turn in Othello (White), room R, 4:32 left: M opens My games."
    )
    unclocked = m.YourTurn(room="r", ref="R", game="othello", seats=["white"])
    assert your_turn_words(unclocked, "there") == "Your turn in Othello (White), room R: there."
