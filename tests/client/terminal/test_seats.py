"""Seats changing hands in the terminal client: taking a seat back from the computer
mid-game, and people sharing one screen playing a whole game."""

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import ListItem, RichLog, Static

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.dialogs import CoinScreen, InitialsScreen, SeatScreen
from parlour.client.terminal.room import RoomModel
from parlour.protocol import messages as m
from parlour.server import ParlourServer

from .test_app import SCREEN, click_square, connection, screen_of, status_text, until

__all__ = ["connection"]

SMALL: dict[str, int | str] = {"rows": 5, "cols": 4, "blocked": 0, "tiles": 2, "first": "blue"}
"""Tribolo on 20 squares, board 0: over in 13 moves, each seat moving."""


async def open_seat_menu(pilot: Pilot[None], app: ParlourApp, colour: str) -> None:
    def item() -> ListItem:
        return next(item for item in screen_of(app).query(ListItem) if item.name == colour)

    await until(pilot, lambda: item().region.area > 0, f"{colour}'s line was drawn")
    await pilot.click(item())
    await until(pilot, lambda: isinstance(app.screen, SeatScreen), f"{colour}'s menu opened")


def moved_from(room: RoomModel, version: int) -> Callable[[], bool]:
    return lambda: room.version > version


def log_text(app: ParlourApp) -> str:
    return "\n".join(line.text for line in screen_of(app).query_one("#log", RichLog).lines)


async def test_the_host_takes_a_seat_back_from_the_computer_mid_game_and_returns_it(
    connection: Connection,
) -> None:
    joined = await connection.request(
        m.CreateRoom(
            game="tribolo", seat="blue", options={"first": "blue"}, board=1, bot_think_ms=100
        )
    )
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    await connection.request(m.FillBots(room=room.ref, level="easy"))
    await connection.request(m.Start(room=room.ref))
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.room.my_turn, "blue's turn")
        await open_seat_menu(pilot, app, "red")
        await pilot.press("h")
        await until(pilot, lambda: screen.room.playing == ["blue", "red"], "red was taken")
        assert "ann took Red." in log_text(app)
        legal = screen.room.observation["legal_moves"]  # type: ignore[index]
        await click_square(pilot, app, legal[0])
        await until(pilot, lambda: screen.room.to_move == "red", "red's turn")
        assert "Red (ann) to move: pass the keyboard" in status_text(app)
        await open_seat_menu(pilot, app, "red")
        await pilot.press("c")
        await until(pilot, lambda: screen.room.playing == ["blue"], "red went back")
        await until(pilot, lambda: screen.room.version >= 2, "red's computer moved")
        holder = screen.room.holder("red")
        assert holder["kind"] == "bot" and holder["name"] == "ann"


async def test_three_people_at_one_terminal_play_tribolo_to_the_end(
    connection: Connection,
) -> None:
    joined = await connection.request(
        m.CreateRoom(game="tribolo", seat="blue", options=SMALL, board=0)
    )
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    for colour, name in (("red", "Bea"), ("green", "Cy")):
        seated = await connection.request(m.Join(room=room.ref, seat=colour, name=name))
        assert isinstance(seated, m.Joined) and seated.token == joined.token
    await connection.request(m.Start(room=room.ref))
    view = await connection.request(m.GetRoom(room=room.ref))
    assert isinstance(view, m.RoomView)
    room.apply(view)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        assert screen.sub_title == "Tribolo, playing Blue and Red and Green"
        names = {"blue": "ann", "red": "Bea", "green": "Cy"}
        while screen.room.status == "playing":
            mover = screen.room.to_move
            assert mover is not None
            assert f"{mover.capitalize()} ({names[mover]}) to move: pass the keyboard" in (
                status_text(app)
            )
            legal = screen.room.observation["legal_moves"]  # type: ignore[index]
            moved = moved_from(screen.room, screen.room.version)
            await click_square(pilot, app, legal[0])
            await until(pilot, moved, f"{mover} moved")
        assert screen.room.observation is not None and screen.room.observation["over"]
        assert len(screen.room.view["moves"]) == 13
        # The winner's score is the first best on this board: their initials are asked.
        await until(pilot, lambda: isinstance(app.screen, InitialsScreen), "initials asked")
        winner = screen.room.observation["winners"][0]
        assert f"{names[winner]}: " in str(app.screen.query_one("#words", Static).render())
        await pilot.press("escape")
        assert "Game over" in status_text(app) and "you win" not in status_text(app)


async def test_a_doublolo_game_starts_with_the_person_calling_the_coin(
    server: ParlourServer, connection: Connection
) -> None:
    server.lobby.services.coin = lambda: "tails"
    joined = await connection.request(m.CreateRoom(game="doublolo", seat="red", board=4))
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    await connection.request(m.FillBots(room=room.ref, level="easy"))
    app = ParlourApp(connection, room, start=True)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.screen, CoinScreen), "the coin was asked")
        await pilot.press("h")
        screen = screen_of(app)
        await until(pilot, lambda: screen.room.status == "playing", "the game started")
        assert screen.room.view["coin"] == {
            "by": "red",
            "call": "heads",
            "landed": "tails",
            "first": "white",
        }
        await until(
            pilot,
            lambda: "Red called heads; it landed tails: White moves first." in log_text(app),
            "the toss was told",
        )
