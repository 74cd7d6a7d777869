"""The terminal client as a new player meets it: text typed anywhere reaches the chat and
never a command, the board has the keys on this seat's turn, and watchers are offered
only what they may do."""

from collections.abc import AsyncIterator

import pytest
from textual import events
from textual.keys import _character_to_key
from textual.widgets import Footer, Input, Label, RichLog, Static
from textual.widgets._footer import FooterKey

from parlour.bots import levels_for
from parlour.client.connection import Connection, join_command
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.cards import ScoreCardScreen
from parlour.client.terminal.dialogs import CommandsScreen, ConfirmScreen, QuitScreen
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import BoardView
from parlour.protocol import messages as m
from parlour.rules import GAMES

from .test_app import (
    SCREEN,
    command,
    play_a_move,
    screen_of,
    seated,
    status_text,
    type_line,
    until,
)


@pytest.fixture
async def connection(url: str) -> AsyncIterator[Connection]:
    opened = await Connection.open(url, "ann", retry_delays=(0.05,))
    yield opened
    await opened.close()


def log_text(app: ParlourApp) -> str:
    return "\n".join(line.text for line in screen_of(app).query_one("#log", RichLog).lines)


async def test_text_typed_on_the_board_goes_to_the_chat_and_opens_nothing(
    connection: Connection,
) -> None:
    room = await seated(connection, "tribolo", "blue", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: isinstance(app.focused, BoardView), "the board had the keys")
        version = screen.room.version
        said = "hi all, Nice move! Is this On? Quite good"
        await type_line(pilot, said)
        await until(pilot, lambda: said in log_text(app), "it was said")
        assert app.screen is screen, "a dialog opened"
        assert screen.room.version == version and screen.room.status == "playing"
        assert screen.query_one("#chat", Input).value == ""


async def test_text_typed_faster_than_the_screen_moves_the_keys_still_goes_to_the_chat(
    connection: Connection,
) -> None:
    """Keys that come before the chat line has taken the keys (a fast typist, a terminal
    sending a burst) are text too, command letters and ? included."""
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        board = screen.query_one(BoardView)
        await until(pilot, lambda: app.focused is board, "the board had the keys")
        said = "ok? Nice, Undo Quits"
        for character in said:
            board.post_message(events.Key(_character_to_key(character), character))
        await until(pilot, lambda: screen.query_one("#chat", Input).value == said, "typed")
        assert app.screen is screen, "a dialog opened"


async def test_one_tab_reaches_the_chat_and_escape_comes_back(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.focused, BoardView), "the board had the keys")
        await pilot.press("tab")
        assert app.focused is screen_of(app).query_one("#chat", Input)
        await pilot.press("escape")
        assert isinstance(app.focused, BoardView)


async def test_quitting_asks_first_by_q_and_by_ctrl_q(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        for key in ("f10", "ctrl+q"):
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, QuitScreen), f"{key} asked")
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, QuitScreen), "stayed")
        assert app.is_running


async def test_a_new_game_in_play_asks_before_the_game_ends(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the question went")
        assert screen.room.status == "playing"
        await play_a_move(pilot, app)
        moves = list(screen.room.view["moves"])
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked again")
        await pilot.press("enter")  # No is in focus: Enter keeps the game
        await until(pilot, lambda: app.screen is screen, "the question went")
        assert moves and screen.room.view["moves"][: len(moves)] == moves, "the same game"


async def test_the_board_takes_the_keys_when_the_game_starts(connection: Connection) -> None:
    room = await seated(connection, "othello", "black")
    await connection.request(m.FillBots(room=room.ref, level="easy"))
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await pilot.press("tab")
        assert app.focused is screen.query_one("#chat", Input)
        await connection.request(m.Start(room=room.ref))
        await until(pilot, lambda: screen.room.my_turn, "it was black's turn")
        await until(pilot, lambda: isinstance(app.focused, BoardView), "the board took the keys")
        await pilot.press("right", "enter")
        assert screen.query_one(BoardView).marks.cursor is not None


async def test_the_join_command_and_link_show_while_the_room_waits_and_on_j(
    connection: Connection,
) -> None:
    room = await seated(connection, "othello", "black", public=False)
    await connection.request(m.FillBots(room=room.ref, level="easy"))
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        invite = screen.query_one("#invite", Static)
        words = str(invite.render())
        port = connection.url.split(":")[2].split("/")[0]
        assert f"parlour join {room.ref} --server 127.0.0.1:{port}" in words
        assert f"/r/{room.ref}" in words and invite.display
        await connection.request(m.Start(room=room.ref))
        await until(pilot, lambda: not invite.display, "it made way once the game began")
        await command(pilot, "Join info")
        assert invite.display


async def test_the_join_command_is_one_line_of_the_screen_at_100_columns(
    connection: Connection,
) -> None:
    room = await seated(connection, "othello", "black", public=False)
    app = ParlourApp(connection, room)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        port = connection.url.split(":")[2].split("/")[0]
        command = join_command(f"ws://127.0.0.1:{port}/ws", room.ref)
        invite = screen_of(app).query_one("#invite", Static)
        assert command in str(invite.render()).splitlines()
        assert invite.styles.text_wrap == "nowrap"
        assert invite.content_region.width >= len(command), "the whole width, unwrapped"


async def test_watchers_are_offered_only_what_they_may_do(url: str) -> None:
    host = await Connection.open(url, "ann")
    watcher = await Connection.open(url, "cy")
    try:
        room = await seated(host, "othello", "black", bots="easy")
        watching = await watcher.request(m.Spectate(room=room.ref))
        assert isinstance(watching, m.Watching)
        app = ParlourApp(watcher, RoomModel.watching(watching, room.ref))
        async with app.run_test(size=SCREEN) as pilot:
            await pilot.pause()
            bindings = screen_of(app).active_bindings.values()
            offered = {active.binding.action for active in bindings if active.enabled}
            assert {"score_card", "rules", "leave", "commands"} <= offered
            seated_only = {"hint('possible')", "hint('best')", "suggest", "undo", "new_game"}
            assert not offered & seated_only
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(app.screen, CommandsScreen), "they showed")
            listed = app.screen
            assert isinstance(listed, CommandsScreen)
            keys = {command.name: command.key for command in listed.commands}
            assert {"Card": "F7", "Rules": "F12", "Quit": "F10", "Export": ""}.items() <= (
                keys.items()
            )
            assert not {"Possible", "Best", "Suggest", "Undo", "New", "Load"} & set(keys)
    finally:
        await watcher.close()
        await host.close()


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_an_80_by_24_terminal_shows_every_game_whole(
    connection: Connection, game: str
) -> None:
    """The board whole and unclipped, the chat line and the seats on screen, and the key bar
    ending with ? inside the width."""
    first_seat = GAMES[game].seats[0]
    room = await seated(connection, game, first_seat, bots=levels_for(game)[0])
    app = ParlourApp(connection, room)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        view = screen.query_one(BoardView)
        await until(pilot, lambda: view.board is not None, "the board was drawn")
        await pilot.pause()
        assert view.board is not None
        width, height = view.board.size()
        region = view.region
        assert (region.width, region.height) == (width, height), f"{game} is cut"
        assert region.right <= 80 and region.bottom <= 22, f"{game} runs off: {region}"
        for part in ("#chat", "#seat-list"):
            shown = screen.query_one(part).region
            assert shown.height > 0 and shown.bottom <= 22 and shown.right <= 80, part
        footer = screen.query_one(Footer)

        def keys_shown() -> list[FooterKey]:
            return [key for key in footer.query(FooterKey) if key.region.width > 0]

        await until(pilot, lambda: bool(keys_shown()), "the key bar was drawn")
        keys = keys_shown()
        assert keys[0].key == "f1", "F1, which lists every command, comes first"
        on_screen = {key.key for key in keys if key.region.right <= 80}
        assert {"f1", "f2", "f4", "f5", "f10"} <= on_screen, on_screen


async def test_the_waiting_room_shows_the_board_it_will_deal(connection: Connection) -> None:
    room = await seated(connection, "tribolo", "blue", board=7)
    seen = await connection.request(m.See(game="tribolo", board=7))
    assert isinstance(seen, m.Seen)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        view = screen.query_one(BoardView)
        await until(pilot, lambda: view.board is not None, "the board was drawn")
        assert view.board is not None and view.board.observation == seen.state
        first = str(seen.state["to_move"]).capitalize()
        said = f"The board you will play: board 7; {first} moves first."
        await until(pilot, lambda: said in status_text(app), "it said which board")
        await connection.request(m.FillBots(room=room.ref, level="easy"))
        await connection.request(m.Start(room=room.ref))
        await until(pilot, lambda: screen.room.status == "playing", "the game began")
        await until(
            pilot,
            lambda: view.board is not None and view.shown[0] is screen.room.observation,
            "the game's board",
        )
        assert view.board.observation["board"] == seen.state["board"]


async def test_the_score_card_fits_an_80_by_24_terminal(connection: Connection) -> None:
    room = await seated(connection, "tribolo", "blue", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f7")
        await until(pilot, lambda: isinstance(app.screen, ScoreCardScreen), "the card showed")
        await pilot.pause()
        card = app.screen.query_one("#card")
        assert card.region.right <= 80 and card.region.bottom <= 24
        last = app.screen.query_one(".hint", Label)
        assert last.region.bottom <= card.region.bottom or card.max_scroll_y > 0
        card.scroll_end(animate=False)
        await pilot.pause()
        assert card.region.contains_region(last.region)
