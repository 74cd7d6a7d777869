"""The terminal client driven by Textual's pilot against a real server on port 0."""

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.keys import _character_to_key, key_to_character
from textual.pilot import Pilot
from textual.widgets import (
    DataTable,
    Input,
    Label,
    ListItem,
    OptionList,
    RichLog,
    Select,
    Static,
)

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp, RoomScreen
from parlour.client.terminal.boards.base import Board
from parlour.client.terminal.cards import ScoreCardScreen
from parlour.client.terminal.dialogs import (
    CommandsScreen,
    ConfirmScreen,
    InitialsScreen,
    ProposalScreen,
    SeatScreen,
)
from parlour.client.terminal.files import ImportScreen, LoadScreen, SaveScreen
from parlour.client.terminal.lobby import LobbyScreen
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import BoardView, SeatsPanel
from parlour.protocol import messages as m
from parlour.rules.gamefile import parse_game_file

SCREEN = (140, 45)
WAIT = 15.0


@pytest.fixture
async def connection(url: str) -> AsyncIterator[Connection]:
    opened = await Connection.open(url, "ann", retry_delays=(0.05,))
    yield opened
    await opened.close()


async def until(pilot: Pilot[None], done: Callable[[], bool], what: str) -> None:
    """Let the app run until `done` and the screen it shows is mounted (its widgets there to
    query: a pushed screen is shown before it is composed), or fail saying `what` never
    happened."""
    for _ in range(int(WAIT / 0.05)):
        if done() and pilot.app.screen.is_mounted:
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting until {what}")


async def type_fast(pilot: Pilot[None], *keys: str) -> None:
    """Press `keys` (characters, or Pilot's names of keys) as a fast typist does: one after
    another, without Pilot's wait for the app to go idle after each (some 85 ms a key), then
    let the app take them all. Each goes where the focus is when the app takes it, so the
    focus must be where the keys belong before the first. A key a binding takes (Enter,
    Ctrl+U) acts only once it has bubbled up to the app, after the text typed behind it has
    gone in: keys of both kinds are sent apart."""
    for key in keys:
        if len(key) == 1:
            key_event = events.Key(_character_to_key(key), key)
        else:
            key_event = events.Key(key, key_to_character(key))
        pilot.app.post_message(key_event)
    await pilot.pause()


async def seated(
    connection: Connection,
    game: str,
    seat: str,
    *,
    board: int = 1,
    bots: str | None = None,
    public: bool = True,
    think_ms: int = 1000,
    position: str | None = None,
) -> RoomModel:
    """A room of `game` with this connection in `seat`, dealt `board` or set up at
    `position`; with `bots`, started against them."""
    create = m.CreateRoom(
        game=game,
        seat=seat,
        board=None if position else board,
        position=position,
        public=public,
        bot_think_ms=think_ms,
    )
    joined = await connection.request(create)
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    if bots is not None:
        await connection.request(m.FillBots(room=room.ref, level=bots))
        await connection.request(m.Start(room=room.ref))
        view = await connection.request(m.GetRoom(room=room.ref))
        assert isinstance(view, m.RoomView)
        room.apply(view)
    return room


async def command(pilot: Pilot[None], name: str) -> None:
    """Run the room's command called `name` from the F1 list, as a person would: F1, the
    arrow keys down to it, Enter."""
    await pilot.press("f1")
    await until(pilot, lambda: isinstance(pilot.app.screen, CommandsScreen), "F1 listed them")
    listed = pilot.app.screen
    assert isinstance(listed, CommandsScreen)
    names = [each.name for each in listed.commands]
    assert name in names, names
    options = listed.query_one(OptionList)
    await until(pilot, lambda: options.has_focus, "the list had the keys")
    await type_fast(pilot, *["down"] * names.index(name))
    await until(pilot, lambda: options.highlighted == names.index(name), f"{name} was chosen")
    await pilot.press("enter")
    await until(pilot, lambda: pilot.app.screen is not listed, f"{name} ran")


async def type_line(pilot: Pilot[None], text: str) -> None:
    """Type `text` in the room key by key, and press Enter: the first key as a person does,
    which takes the keys to the chat line, and the rest as a fast typist does."""
    chat = pilot.app.screen.query_one("#chat", Input)
    await pilot.press(text[0])
    await type_fast(pilot, *text[1:])
    await until(pilot, lambda: chat.value == text, f"{text!r} was on the chat line")
    await pilot.press("enter")


def screen_of(app: ParlourApp) -> RoomScreen:
    screen = app.screen
    assert isinstance(screen, RoomScreen)
    return screen


def board_of(app: ParlourApp) -> Board:
    board = screen_of(app).query_one(BoardView).board
    assert board is not None
    return board


async def click_square(pilot: Pilot[None], app: ParlourApp, square: str) -> None:
    cell = next(cell for cell in board_of(app).cells if cell.name == square)
    view = screen_of(app).query_one(BoardView)
    assert await pilot.click(view, offset=(cell.x + cell.width // 2, cell.y))


def status_text(app: ParlourApp) -> str:
    return str(screen_of(app).query_one("#status", Static).render())


async def room_view(connection: Connection, room: RoomModel) -> dict[str, Any]:
    view = await connection.request(m.GetRoom(room=room.ref))
    assert isinstance(view, m.RoomView)
    return view.room


async def test_a_click_on_a_legal_square_plays_it(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    legal = room.observation["legal_moves"] if room.observation else []
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await click_square(pilot, app, legal[0])
        await until(pilot, lambda: screen_of(app).room.version >= 1, "the move came back")
        assert screen_of(app).room.view["moves"][0] == legal[0]
    assert (await room_view(connection, room))["moves"][0] == legal[0]


async def test_an_illegal_click_shows_the_servers_error_and_changes_nothing(
    connection: Connection,
) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await click_square(pilot, app, "a1")
        refused = "a1 is not a legal move for black"
        await until(pilot, lambda: refused in status_text(app), "the error showed")
        assert screen_of(app).room.version == 0
    assert (await room_view(connection, room))["moves"] == []


async def test_p_highlights_exactly_the_legal_moves(connection: Connection) -> None:
    room = await seated(connection, "tribolo", "blue", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: screen_of(app).room.my_turn, "it was our turn")
        legal = set(screen_of(app).room.observation["legal_moves"])  # type: ignore[index]
        await pilot.press("f2")
        view = screen_of(app).query_one(BoardView)
        await until(pilot, lambda: bool(view.marks.hints), "the hints showed")
        assert view.marks.hints == legal


@pytest.mark.parametrize(
    ("game", "seat"),
    [
        ("tribolo", "blue"),
        ("numlo", "red"),
        ("doublolo", "red"),
        ("othello", "white"),
        ("tripppin", "grey"),
        ("oubliette", "green"),
    ],
)
async def test_every_games_board_is_drawn_with_its_pieces(
    connection: Connection, game: str, seat: str
) -> None:
    room = await seated(connection, game, seat, bots=None)
    await connection.request(m.FillBots(room=room.ref))
    await connection.request(m.Start(room=room.ref))
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: screen_of(app).room.observation is not None, "it started")
        await pilot.pause(0.1)
        observation = screen_of(app).room.observation
        assert observation is not None
        board = board_of(app)
        assert type(board).__name__ == BOARD_KINDS[game]
        picture = screen_of(app).query_one(BoardView).render().plain.splitlines()
        for colour, squares in pieces_of(observation).items():
            assert squares
            for square in squares:
                cell = next(cell for cell in board.cells if cell.name == square)
                drawn = picture[cell.y][cell.x : cell.x + cell.width]
                assert piece_mark(observation, colour) in drawn, (colour, square, drawn)


BOARD_KINDS = {
    "tribolo": "FlankBoard",
    "numlo": "FlankBoard",
    "doublolo": "FlankBoard",
    "othello": "FlankBoard",
    "tripppin": "TripppinBoard",
    "oubliette": "OublietteBoard",
}


def piece_mark(observation: dict[str, Any], colour: str) -> str:
    """What stands for a piece of `colour` on the board: its letter, or a disc in Oubliette."""
    if observation["game"] == "oubliette":
        return "●"
    letters = observation.get("letters")
    return letters[colour] if letters else colour[0].upper()


def pieces_of(observation: dict[str, Any]) -> dict[str, list[str]]:
    """Each seat's squares, read from the observation the way protocol.md describes it."""
    pieces = observation.get("pieces")
    if isinstance(pieces, dict):
        return {colour: [s] if isinstance(s, str) else list(s) for colour, s in pieces.items()}
    letters = observation["letters"]
    found: dict[str, list[str]] = {colour: [] for colour in letters}
    for row, line in enumerate(observation["board"]):
        for col, mark in enumerate(line):
            for colour, letter in letters.items():
                if mark == letter:
                    found[colour].append(f"{chr(ord('a') + col)}{row + 1}")
    return found


@pytest.mark.parametrize("public", [True, False])
async def test_a_dropped_connection_reconnects_to_the_same_seat(
    connection: Connection, public: bool
) -> None:
    room = await seated(connection, "tribolo", "red", bots="easy", public=public)
    assert (room.ref == room.room_id) == public
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        websocket = connection._websocket
        assert websocket is not None
        websocket.transport.abort()
        await until(pilot, lambda: "Reconnected" in status_text(app), "it reconnected")
        assert "Red" in status_text(app)
        assert screen_of(app).room.seat == "red"
        assert screen_of(app).room.token == room.token
    view = await room_view(connection, room)
    red = next(seat for seat in view["seats"] if seat["colour"] == "red")
    assert red["holder"] == {"kind": "human", "name": "ann", "connected": True}


async def test_the_host_fills_open_seats_with_computers_and_starts(
    connection: Connection,
) -> None:
    room = await seated(connection, "othello", "black")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        assert "Waiting to start" in status_text(app)
        await pilot.click("#fill")
        await until(
            pilot,
            lambda: screen_of(app).room.holder("white")["kind"] == "bot",
            "the open seat took a computer player",
        )
        await pilot.click("#start")
        await until(pilot, lambda: screen_of(app).room.status == "playing", "the game began")
        assert "Your move" in status_text(app)


async def test_the_host_fills_and_starts_from_the_keyboard_and_the_log_says_so(
    connection: Connection,
) -> None:
    room = await seated(connection, "othello", "black")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: "F11 fills them" in status_text(app), "the keys are named")
        await pilot.press("f11")
        await until(
            pilot,
            lambda: screen_of(app).room.holder("white")["kind"] == "bot",
            "the open seat took a computer player",
        )
        assert "F9 starts the game" in status_text(app)
        await pilot.press("f9")
        await until(pilot, lambda: screen_of(app).room.status == "playing", "the game began")
        status = status_text(app)
        assert "The game has started: Black moves first." in status
        assert "The board you will play" not in status
        log = [line.text for line in screen_of(app).query_one("#log", RichLog).lines]
        assert "The game has started: Black moves first." in log


async def test_the_lobby_lists_public_rooms_and_joins_one(
    connection: Connection, url: str
) -> None:
    other = await Connection.open(url, "bob")
    try:
        hosted = await other.request(m.CreateRoom(game="tribolo", seat="blue", public=True))
        assert isinstance(hosted, m.Joined)
        app = ParlourApp(connection)
        async with app.run_test(size=SCREEN) as pilot:
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await until(pilot, lambda: bool(lobby.rooms), "the rooms were listed")
            assert [room["room"] for room in lobby.rooms] == [hosted.room["room"]]
            row = lobby.query_one(DataTable).get_row_at(0)
            assert row[:3] == ["tribolo", "no clock", "waiting"]
            assert row[5:8] == ["1", "just now", "just now"]
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, RoomScreen), "it joined")
            assert screen_of(app).room.seat == "red"
    finally:
        await other.close()


async def test_watching_the_computer_think(connection: Connection) -> None:
    # Ten seconds a move: the bot is still deepening, and so still telling its thoughts,
    # when T is pressed, however slowly the app starts.
    room = await seated(connection, "othello", "white", bots="hard", think_ms=10_000)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await command(pilot, "Thinking")
        await until(pilot, lambda: screen_of(app).show_thinking, "thinking was shown")
        await until(pilot, lambda: screen_of(app).room.thinking is not None, "a thought arrived")
        assert screen_of(app).room.thinking_of == "Black"


async def test_s_suggests_a_legal_move_and_shows_the_search(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    legal = set(room.observation["legal_moves"])  # type: ignore[index]
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await pilot.press("f4")
        await until(pilot, lambda: "Suggested:" in status_text(app), "the suggestion came")
        suggested = status_text(app).split("Suggested: ")[1].split()[0]
        assert suggested in legal
        assert screen_of(app).query_one(BoardView).marks.hints == {suggested}
        thoughts = str(screen_of(app).query_one("#thoughts", Static).render())
        assert thoughts.startswith(f"suggestion: {suggested}")
        judged = r"(about \d+\.\d squares? (ahead|behind)|about even|(wins|loses) in \d+ turns?)"
        assert re.search(judged + r"; \d+ turns deep", thoughts)


async def test_b_lights_the_best_moves_the_server_gives(connection: Connection) -> None:
    room = await seated(connection, "tribolo", "blue", bots="easy")
    answer = await connection.request(m.Hint(room=room.ref, kind="best"))
    assert isinstance(answer, m.HintReply)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await pilot.press("f3")
        view = screen_of(app).query_one(BoardView)
        await until(pilot, lambda: bool(view.marks.hints), "the hint showed")
        assert view.marks.hints == set(answer.moves)


async def test_the_host_sets_one_open_seat_to_a_computer_player(
    connection: Connection,
) -> None:
    room = await seated(connection, "tribolo", "blue")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: len(screen.query(ListItem)) == 3, "the seats showed")
        screen.query_one("#level", Select).value = "expert"
        await until(pilot, lambda: screen.query_one(SeatsPanel).level == "expert", "chosen")
        await pilot.click("#seat-list ListItem:last-of-type")
        await until(pilot, lambda: isinstance(app.screen, SeatScreen), "the seat menu opened")
        await pilot.press("c")
        await until(
            pilot, lambda: screen.room.holder("green")["kind"] == "bot", "green took a bot"
        )
        assert screen.room.holder("green") == {"kind": "bot", "level": "expert"}
        assert screen.room.holder("red") == {"kind": "open"}


async def test_what_the_client_cannot_read_is_said_and_the_game_goes_on(
    connection: Connection,
) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        strange = m.Update(
            room=room.room_id,
            version=1,
            seat="black",
            move="d3",
            passed=[],
            state={"game": "chess", "to_move": "white"},
        )
        screen.take(strange)
        await pilot.pause()
        assert "cannot be drawn" in str(screen.query_one(BoardView).render())
        screen.take(m.RoomView(room={"room": room.room_id, "version": "two"}))
        await pilot.pause()
        assert "cannot read" in status_text(app)
        legal = set((await room_view(connection, room))["state"]["legal_moves"])
        await pilot.press("f2")
        await until(pilot, lambda: "Possible moves" in status_text(app), "the app answered")
        assert set(status_text(app).split(": ")[1].splitlines()[0].split(", ")) == legal


async def test_escape_drops_the_pieces_picked_for_an_oubliette_move(
    connection: Connection,
) -> None:
    room = await seated(connection, "oubliette", "green", bots="0")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        view = screen_of(app).query_one(BoardView)
        await click_square(pilot, app, "c3")
        await until(pilot, lambda: view.marks.picked == ("c3",), "c3 was picked")
        await pilot.press("escape")
        assert view.marks.picked == ()
        await click_square(pilot, app, "c4")
        await click_square(pilot, app, "d4")
        await until(pilot, lambda: screen_of(app).room.version >= 1, "the move was played")
        assert screen_of(app).room.view["moves"][0] == "c4 nw"


async def test_u_takes_back_my_move_and_the_computers_reply(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    legal = room.observation["legal_moves"]  # type: ignore[index]
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await click_square(pilot, app, legal[0])
        await until(pilot, lambda: len(screen_of(app).room.view["moves"]) == 2, "white replied")
        await pilot.press("f5")
        await until(pilot, lambda: screen_of(app).room.view["moves"] == [], "both went back")
        assert screen_of(app).room.my_turn
        await until(pilot, lambda: "2 moves taken back." in status_text(app), "it was said")
        status = status_text(app)
        assert "played" not in status and "Your move" in status
        log = [line.text for line in screen_of(app).query_one("#log", RichLog).lines]
        assert log[-1] == "2 moves taken back."
        assert len(log) == len(set(log)), f"the log repeats itself: {log}"
    assert (await room_view(connection, room))["moves"] == []


async def test_chat_typed_in_the_room_reaches_its_log(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        await pilot.click("#chat")
        await pilot.press(*"good luck", "enter")
        log = screen_of(app).query_one("#log", RichLog)
        await until(
            pilot,
            lambda: any("ann (Black): good luck" in line.text for line in log.lines),
            "the line came back",
        )
        assert screen_of(app).room.view["moves"] == []


async def test_another_persons_undo_is_agreed_to_in_a_dialog(
    connection: Connection, url: str
) -> None:
    room = await seated(connection, "othello", "black")
    bob = await Connection.open(url, "bob")
    try:
        await bob.request(m.Join(room=room.ref, seat="white"))
        await connection.request(m.Start(room=room.ref))
        app = ParlourApp(connection, room)
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: screen_of(app).room.my_turn, "it was black's turn")
            legal = screen_of(app).room.observation["legal_moves"]  # type: ignore[index]
            await click_square(pilot, app, legal[0])
            await until(pilot, lambda: screen_of(app).room.version == 1, "black moved")
            white = (await room_view(bob, room))["state"]["legal_moves"][0]
            await bob.request(m.Move(room=room.ref, version=1, move=white))
            await until(pilot, lambda: screen_of(app).room.version == 2, "white moved")
            await bob.request(m.Undo(room=room.ref))
            await until(pilot, lambda: isinstance(app.screen, ProposalScreen), "it asked ann")
            await pilot.press("y", "tab", "enter")
            await until(
                pilot, lambda: screen_of(app).room.view["moves"] == [legal[0]], "it went back"
            )
            await until(pilot, lambda: "1 move taken back." in status_text(app), "it was said")
            log = [line.text for line in screen_of(app).query_one("#log", RichLog).lines]
            assert log[-2:] == ["Everyone agreed to take back a move.", "1 move taken back."]
    finally:
        await bob.close()


NEAR_THE_END = "BW.BBBB./BBBBBBBW/BBBBWWWW/BBWWWBWB/BBWWBWBB/BBWWWWWB/BB.WBWWB/.BBBBBWB B"
"""Othello with five squares left and Black to move: a game over in a few moves."""


async def test_c_shows_the_score_card_after_a_finished_game(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy", position=NEAR_THE_END)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        async with asyncio.timeout(60):
            while screen.room.status != "finished":
                if screen.room.my_turn:
                    legal = screen.room.observation["legal_moves"]  # type: ignore[index]
                    await click_square(pilot, app, legal[0])
                await pilot.pause(0.05)
        winners = screen.room.observation["winners"]  # type: ignore[index]
        await until(pilot, lambda: isinstance(app.screen, InitialsScreen), "initials asked")
        await pilot.press(*"aj", "enter")
        await until(pilot, lambda: isinstance(app.screen, RoomScreen), "the dialog closed")
        await pilot.press("f7")
        await until(pilot, lambda: isinstance(app.screen, ScoreCardScreen), "the card showed")
        card = app.screen
        assert isinstance(card, ScoreCardScreen)
        assert card.card.games == 1
        black = next(line for line in card.card.colours if line["colour"] == "black")
        won = winners == ["black"]
        assert (black["wins"], black["games"]) == (int(won), 1)
        rows = card.query_one("#by-player", DataTable)
        assert rows.row_count == 2
        assert card.card.preset == "custom", "the card of the room's board, a position"
        best = card.card.best
        assert best is not None, "a first game's score is the best yet"
        assert (best["initials"], best["typed"], best["name"]) == ("AJ", True, "ann")
        await pilot.press("a")
        await until(
            pilot,
            lambda: isinstance(app.screen, ScoreCardScreen) and app.screen.card.preset is None,
            "every board's card showed",
        )
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, RoomScreen), "the card closed")


async def play_a_move(pilot: Pilot[None], app: ParlourApp) -> None:
    """Our first legal move, once it is our turn, and the replies after it."""
    screen = screen_of(app)
    await until(pilot, lambda: screen.room.my_turn, "it was our turn")
    version = screen.room.version
    await click_square(pilot, app, screen.room.observation["legal_moves"][0])  # type: ignore[index]
    await until(pilot, lambda: screen.room.version > version and screen.room.my_turn, "replies")


async def typed_in(pilot: Pilot[None], field: str, text: str) -> None:
    """Type `text` into the dialog's `field` once it has the keys."""
    box = pilot.app.screen.query_one(field, Input)
    await until(pilot, lambda: box.has_focus, f"{field} had the keys")
    await type_fast(pilot, *text)
    await until(pilot, lambda: box.value == text, f"{text!r} was typed")


async def test_v_saves_and_l_loads_the_game_back(connection: Connection) -> None:
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await play_a_move(pilot, app)
        saved = (list(screen.room.view["moves"]), screen.room.observation)
        await command(pilot, "Save")
        await until(pilot, lambda: isinstance(app.screen, SaveScreen), "the save dialog")
        await typed_in(pilot, "#save-name", "my game")
        await pilot.press("enter")
        await until(pilot, lambda: "Saved as 'my game'" in status_text(app), "it saved")
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "asked to be sure")
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.view["moves"] == [], "a new game began")
        await command(pilot, "Load")
        await until(pilot, lambda: isinstance(app.screen, LoadScreen), "the load dialog")
        await pilot.press("enter")
        await until(pilot, lambda: screen.room.view["moves"] == saved[0], "it loaded")
        assert screen.room.observation == saved[1]


async def test_e_exports_to_a_file_and_i_imports_it(
    connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    room = await seated(connection, "othello", "black", bots="easy")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await play_a_move(pilot, app)
        moves = list(screen.room.view["moves"])
        await command(pilot, "Export")
        await until(pilot, lambda: "written to" in status_text(app), "it exported")
        (written,) = tmp_path.glob("parlour-othello-*.txt")
        assert parse_game_file(written.read_text()).moves == tuple(moves)
        await pilot.press("f6")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "asked to be sure")
        await pilot.press("tab", "enter")
        await until(pilot, lambda: screen.room.view["moves"] == [], "a new game began")
        await command(pilot, "Import")
        await until(pilot, lambda: isinstance(app.screen, ImportScreen), "the import dialog")
        await typed_in(pilot, "#import-path", "nowhere.txt")
        await pilot.press("enter")
        problem = app.screen.query_one("#import-problem", Label)
        await until(pilot, lambda: "cannot read" in str(problem.render()), "the problem")
        app.screen.query_one("#import-path", Input).value = str(written)
        await pilot.press("enter")
        await until(pilot, lambda: screen.room.view["moves"] == moves, "it imported")
