"""The terminal client and rooms waiting on the player (protocol.md 2.10): a running client
rings and says which room waits and how to get there; My games and `parlour mine` list
those rooms first, marked "your turn"."""

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.widgets import DataTable

from parlour.client.connection import Connection, join_command
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.lobby import LobbyScreen
from parlour.client.terminal.mygames import MyGamesScreen, my_games_text
from parlour.protocol import messages as m
from parlour.protocol.players import new_key

from .test_app import SCREEN, until


@pytest.fixture
async def bob(url: str) -> AsyncIterator[Connection]:
    opened = await Connection.open(url, "bob", key=new_key(), retry_delays=(0.05,))
    yield opened
    await opened.close()


@pytest.fixture
async def ann(url: str) -> AsyncIterator[Connection]:
    """Ann's connection that plays, beside the one the client under test runs on."""
    opened = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    yield opened
    await opened.close()


async def othello(host: Connection, guest: Connection, seat: str) -> str:
    """A private Othello room: `host` in `seat`, `guest` in the other, started; its code."""
    made = await host.request(m.CreateRoom(game="othello", seat=seat, public=False))
    assert isinstance(made, m.Joined) and made.code is not None
    other = "white" if seat == "black" else "black"
    assert isinstance(await guest.request(m.Join(room=made.code, seat=other)), m.Joined)
    assert isinstance(await host.request(m.Start(room=made.code)), m.Ok)
    return made.code


def shown_notices(app: ParlourApp) -> list[str]:
    """The text of the notifications on the screen now."""
    return [str(toast.render()) for toast in app.screen.query("Toast")]


def rows(screen: MyGamesScreen) -> list[tuple[str, ...]]:
    table: DataTable[Any] = screen.query_one("#playing", DataTable)
    return [tuple(str(cell) for cell in table.get_row_at(row)) for row in range(table.row_count)]


async def test_a_running_client_rings_and_says_which_room_waits_and_how_to_go_there(
    url: str, ann: Connection, bob: Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = await Connection.open(url, "ann", key=ann.key, retry_delays=(0.05,))
    app = ParlourApp(client)
    rings: list[float] = []
    monkeypatch.setattr(app, "bell", lambda: rings.append(time.monotonic()))
    try:
        async with app.run_test(size=SCREEN, notifications=True) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
            first = await othello(ann, bob, "black")
            await until(pilot, lambda: len(rings) == 1, "the bell rang")
            expected = (
                f"Your turn in Othello (Black), room {first}: in the lobby, M opens My games,"
                " where Enter goes back to it."
            )
            await until(pilot, lambda: expected in "\n".join(shown_notices(app)), "it said so")

            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, MyGamesScreen), "it opened")
            mine = app.screen
            assert isinstance(mine, MyGamesScreen)
            await until(pilot, lambda: len(rows(mine)) == 1, "the room showed")
            assert rows(mine)[0][2:4] + rows(mine)[0][5:] == ("your turn", "", first)

            # A second room waits on her while My games shows: it says so, and lists it.
            second = await othello(ann, bob, "black")
            await until(pilot, lambda: len(rings) == 2, "the bell rang again")
            said = f"room {second}: it is first in the list, Enter goes back to it."
            await until(pilot, lambda: said in "\n".join(shown_notices(app)), "it said so")
            await until(pilot, lambda: len(rows(mine)) == 2, "the list was read again")

            # She moves in the first: it moved last, but the one waiting on her comes first.
            view = await ann.request(m.GetRoom(room=first))
            assert isinstance(view, m.RoomView)
            black = view.room["state"]["legal_moves"][0]
            moved = await ann.request(m.Move(room=first, version=view.room["version"], move=black))
            assert isinstance(moved, m.Ok)
            await pilot.press("r")
            await until(pilot, lambda: rows(mine)[0][5] == second, "the list was read again")
            assert [(row[2], row[5]) for row in rows(mine)] == [
                ("your turn", second),
                ("playing", first),
            ]
            assert "2 rooms in play (1 waiting on your move)" in str(
                mine.query_one("#games-status").render()
            )
            # Enter on the first row goes back to the room waiting on her.
            mine.query_one("#playing", DataTable).focus()
            await pilot.press("enter")
            await until(pilot, lambda: app.room_screen is not None, "back in the room")
            assert app.room_screen is not None and app.room_screen.room.ref == second

            # In a room, the way to the other one is the command that joins it.
            view = await bob.request(m.GetRoom(room=first))
            assert isinstance(view, m.RoomView)
            white = view.room["state"]["legal_moves"][0]
            moved = await bob.request(m.Move(room=first, version=view.room["version"], move=white))
            assert isinstance(moved, m.Ok)
            command = join_command(url, first)
            said = f"room {first}: {command} goes back to it."
            await until(pilot, lambda: said in "\n".join(shown_notices(app)), "it said so")
    finally:
        await client.close()


def test_parlour_mine_lists_the_rooms_waiting_on_you_first_marked() -> None:
    newer = {"room": "r2", "ref": "r2", "game": "othello", "seats": ["white"]}
    older = {"room": "r1", "ref": "CODE", "game": "tribolo", "seats": ["blue"]}
    reply = m.MyGamesReply(
        playing=[
            newer | {"status": "playing", "moved_at": 2000, "turn": False, "time_left_ms": None},
            older | {"status": "playing", "moved_at": 1000, "turn": True, "time_left_ms": None},
        ],
        finished=[],
    )
    lines = my_games_text(reply, None, 2060.0).splitlines()
    assert "1 waiting on your move" in lines[0]
    assert lines[1] == "  Tribolo Blue  your turn, last move 17 min ago  join: CODE"
    assert lines[2].startswith("  Othello White  playing, last move 1 min ago  join: r2")
