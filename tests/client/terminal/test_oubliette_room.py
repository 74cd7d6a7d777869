"""Oubliette in the terminal room, as a newcomer plays it: the cells a picked line can go to
are lit with no hint asked for, a click that makes no move keeps the pick and says why in
the rules' words, and the computer's last move is pointed at."""

from collections.abc import AsyncIterator

import pytest
from textual.pilot import Pilot

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.boards.base import MOVED_SIDES
from parlour.client.terminal.boards.oubliette import LIT, OublietteBoard
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import BoardView
from parlour.protocol import messages as m

from ...rules.test_oubliette import position
from .test_app import SCREEN, click_square, screen_of, status_text, until

START = position("e1 e2 a1 a2", "e3 e4 i9 i8 h7")
"""Green's e1-e2 faces red's e3-e4, which two cannot push; a1-a2 can move."""


@pytest.fixture
async def connection(url: str) -> AsyncIterator[Connection]:
    opened = await Connection.open(url, "ann", retry_delays=(0.05,))
    yield opened
    await opened.close()


async def oubliette_room(connection: Connection) -> RoomModel:
    """A started room of the position above, this connection green against the weakest bot."""
    create = m.CreateRoom(
        game="oubliette", seat="green", position=START.format_position(), bot_think_ms=200
    )
    joined = await connection.request(create)
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    await connection.request(m.FillBots(room=room.ref, level="0"))
    await connection.request(m.Start(room=room.ref))
    view = await connection.request(m.GetRoom(room=room.ref))
    assert isinstance(view, m.RoomView)
    room.apply(view)
    return room


def drawn_at(view: BoardView, square: str) -> str:
    """The three characters drawn for a cell."""
    assert view.board is not None
    cell = next(cell for cell in view.board.cells if cell.name == square)
    return view.render().plain.split("\n")[cell.y][cell.x : cell.x + cell.width]


async def test_a_newcomer_sees_targets_a_reason_and_the_computers_move(
    connection: Connection,
) -> None:
    room = await oubliette_room(connection)
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        view = screen.query_one(BoardView)
        await until(pilot, lambda: screen.room.my_turn, "it was green's turn")
        before = screen.room.version
        assert not view.marks.hints
        for square in ("e1", "e2"):
            await click_square(pilot, app, square)
        await pilot.pause()
        assert view.marks.picked == ("e1", "e2")
        board = view.board
        assert isinstance(board, OublietteBoard)
        targets = board.targets(view.marks.picked)
        assert targets and "e3" not in targets
        for target in targets:
            assert drawn_at(view, target) == f" {LIT} ", target
        await click(pilot, app, "e3")
        why = "a push needs more of your pieces than theirs (2 against 2)"
        await until(pilot, lambda: why in status_text(app), "the reason showed")
        assert view.marks.picked == ("e1", "e2")
        assert screen.room.version == before
        await click(pilot, app, "g5")
        await until(pilot, lambda: "next to e2" in status_text(app), "where to click showed")
        assert view.marks.picked == ("e1", "e2")
        await click(pilot, app, "e2")
        await click(pilot, app, "e1")
        await click(pilot, app, "a1")
        assert list(view.marks.picked) == ["a1"]
        await click(pilot, app, "b1")
        await until(pilot, lambda: screen.room.version >= before + 2, "both moved")
        await pilot.pause()
        last = screen.room.observation["last_move"]  # type: ignore[index]
        board = view.board
        assert isinstance(board, OublietteBoard) and board.moved
        for cell in board.moved | board.left:
            shown = drawn_at(view, cell)
            assert shown[0] + shown[2] == "".join(MOVED_SIDES), (last, cell, shown)


async def click(pilot: Pilot[None], app: ParlourApp, square: str) -> None:
    await click_square(pilot, app, square)
    await pilot.pause()
