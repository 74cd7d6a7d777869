"""Typing in the terminal room runs no command (issue: a sentence that asked for a suggestion
and unrated the game): whatever is typed, wherever the focus, in any case, is chat; and a
question nobody here asked waits until the line being typed is sent."""

import asyncio
from typing import Any

from textual.screen import ModalScreen
from textual.widgets import Input, RichLog

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.dialogs import ProposalScreen
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import BoardView, SeatsPanel
from parlour.protocol import messages as m

from .test_app import SCREEN, click_square, screen_of, type_line, until

SENTENCES = (
    "Sorry, my cat walked on the keys",
    "so close! gg",
    "Quit it, you",
    "yes",
    "SUGGEST BEST UNDO NEW?",
)
"""Sentences a player types, with every former command letter among them."""


async def rated_game(ann: Connection, bob: Connection) -> RoomModel:
    """An Othello game between Ann (black) and Bob (white), started and rated."""
    joined = await ann.request(m.CreateRoom(game="othello", seat="black", board=1))
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    await bob.request(m.Join(room=room.ref, seat="white"))
    await ann.request(m.Start(room=room.ref))
    view = await ann.request(m.GetRoom(room=room.ref))
    room.apply(view)
    assert room.view["rated"], room.view.get("unrated")
    return room


async def view_of(connection: Connection, room: RoomModel) -> dict[str, Any]:
    answer = await connection.request(m.GetRoom(room=room.ref))
    assert isinstance(answer, m.RoomView)
    return answer.room


async def chat_heard(bob: Connection, count: int) -> list[str]:
    """The texts of the next `count` chat lines Bob hears."""
    heard: list[str] = []
    while len(heard) < count:
        event = await asyncio.wait_for(bob.events.get(), 10)
        if isinstance(event, m.ChatLine):
            heard.append(event.text)
    return heard


def no_dialog(app: ParlourApp) -> bool:
    return not isinstance(app.screen, ModalScreen)


async def test_sentences_typed_on_the_board_are_chat_and_nothing_else(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await rated_game(ann, bob)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: isinstance(app.focused, BoardView), "the board had the keys")
        for sentence in SENTENCES:
            screen.query_one(BoardView).focus()
            await type_line(pilot, sentence)
            assert no_dialog(app), f"{sentence!r} opened {app.screen}"
        assert await chat_heard(bob, len(SENTENCES)) == list(SENTENCES)
        assert app.screen is screen and app.is_running, "still in the room"
        view = await view_of(ann, room)
        assert view["rated"] and view["status"] == "playing" and view["version"] == 0
        assert screen.room.view["rated"]


async def test_text_typed_on_a_seat_or_a_button_goes_to_the_chat_too(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await rated_game(ann, bob)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        seats = screen.query_one(SeatsPanel).query_one("#seat-list")
        seats.focus()
        await type_line(pilot, "Hold on, my turn next")
        assert no_dialog(app)
        assert await chat_heard(bob, 1) == ["Hold on, my turn next"]
        assert (await view_of(ann, room))["rated"]


async def test_the_commands_are_on_keys_that_type_nothing(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await rated_game(ann, bob)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await pilot.pause()
        keys = {active.binding.key for active in screen.active_bindings.values()}
        typed = {key for key in keys if len(key.removeprefix("shift+")) == 1}
        assert not typed, f"keys that type text run commands: {typed}"
        await pilot.press("f2")
        view = screen.query_one(BoardView)
        await until(pilot, lambda: bool(view.marks.hints), "F2 showed the possible moves")
        assert view.marks.hints == set(screen.room.observation["legal_moves"])  # type: ignore[index]


async def test_a_proposal_waits_while_a_line_is_typed_and_enter_never_agrees(
    people: tuple[Connection, Connection],
) -> None:
    ann, bob = people
    room = await rated_game(ann, bob)
    app = ParlourApp(ann, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.room.my_turn, "it was black's turn")
        legal = screen.room.observation["legal_moves"]  # type: ignore[index]
        await click_square(pilot, app, legal[0])
        await until(pilot, lambda: screen.room.version == 1, "black moved")
        await pilot.press(*"yes y")
        assert screen.query_one("#chat", Input).value == "yes y"
        await bob.request(m.NewGame(room=room.ref))
        await until(pilot, lambda: bool(screen.held), "the proposal came and waited")
        assert no_dialog(app), "a question does not take the keys from a line being typed"
        await pilot.press("e", "s", "enter")
        assert await chat_heard(bob, 1) == ["yes yes"]
        await until(pilot, lambda: isinstance(app.screen, ProposalScreen), "then it asked")
        await pilot.press("y", "enter")
        await until(pilot, lambda: screen.room.proposal is None, "the proposal ended")
        view = await view_of(ann, room)
        assert view["version"] == 1 and len(view["moves"]) == 1, "the game went on"


async def test_coming_back_shows_what_was_said_and_played_meanwhile(
    people: tuple[Connection, Connection], url: str
) -> None:
    ann, bob = people
    room = await rated_game(ann, bob)
    first = room.observation["legal_moves"][0]  # type: ignore[index]
    await ann.request(m.Chat(room=room.ref, text="good luck"))
    await ann.request(m.Move(room=room.ref, version=0, move=first))
    await bob.request(m.Chat(room=room.ref, text="so close! gg"))
    again = await Connection.open(url, "ann", key=ann.key, retry_delays=(0.05,))
    try:
        back = await again.request(m.Join(room=room.ref, token=room.token))
        assert isinstance(back, m.Joined)
        app = ParlourApp(again, RoomModel.joined(back, room.ref))
        async with app.run_test(size=SCREEN) as pilot:
            screen = screen_of(app)
            await pilot.pause()
            log = [line.text for line in screen.query_one(RichLog).lines]
            said = [
                "ann (Black): good luck",
                f"ann (Black) played {first}.",
                "bob (White): so close! gg",
            ]
            assert [line for line in log if line in said] == said, log
    finally:
        await again.close()
