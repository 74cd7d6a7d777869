"""Seats kept across a quit: the tokens file (private, never half-written, a damaged one
left alone), `parlour join CODE` coming back into the seats held, `parlour rooms`, and
quitting that asks first and says how to come back."""

import argparse
import asyncio
import json
import stat
from pathlib import Path

import pytest
from textual.widgets import Static

from parlour.cli import main
from parlour.client.connection import Connection, join_command
from parlour.client.invocation import parlour_command
from parlour.client.seatbook import MAX_KEPT, SeatBook, SeatBookError
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.dialogs import QuitScreen
from parlour.client.terminal.room import RoomModel
from parlour.protocol import messages as m
from parlour.server import ParlourServer
from parlour.terminal import enter_room

from .terminal.test_app import SCREEN, screen_of, until

SERVER = "ws://example.org:8000/ws"


def test_kept_seats_are_found_forgotten_and_private(tmp_path: Path) -> None:
    book = SeatBook(tmp_path / "data" / "seats.json")
    assert book.held() == [] and book.find(SERVER, "r1") is None
    book.keep(SERVER, "r1", "t" * 22, "tribolo", ["blue", "red"], host=True)
    book.keep(SERVER, "r2", "u" * 22, "numlo", ["green"], host=False)
    found = book.find(SERVER, "r1")
    assert found is not None and (found.token, found.seats, found.host) == (
        "t" * 22,
        ("blue", "red"),
        True,
    )
    assert found.come_back() == f"{parlour_command()} join r1 --server example.org:8000"
    assert [seat.room for seat in book.held()] == ["r2", "r1"]
    assert stat.S_IMODE(book.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(book.path.parent.stat().st_mode) == 0o700
    book.forget(SERVER, "r1")
    assert book.find(SERVER, "r1") is None and book.find(SERVER, "r2") is not None
    assert [path.name for path in book.path.parent.iterdir()] == ["seats.json"]


def test_only_the_newest_rooms_are_kept(tmp_path: Path) -> None:
    book = SeatBook(tmp_path / "seats.json")
    for number in range(MAX_KEPT + 5):
        book.keep(SERVER, f"r{number}", "t" * 22, "othello", ["black"], host=False)
    held = book.held()
    assert len(held) == MAX_KEPT and held[0].room == f"r{MAX_KEPT + 4}"
    assert book.find(SERVER, "r0") is None


@pytest.mark.parametrize(
    "text", ["{not json", '[{"server": 1}]', '[{"server": "s", "room": "r"}]', '"a string"']
)
def test_a_damaged_file_is_an_error_and_is_left_as_it_was(tmp_path: Path, text: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(text)
    book = SeatBook(path)
    with pytest.raises(SeatBookError, match="damaged"):
        book.held()
    with pytest.raises(SeatBookError):
        book.keep(SERVER, "r1", "t" * 22, "othello", ["black"], host=False)
    assert path.read_text() == text


def join_args(code: str, seat: str | None = None) -> argparse.Namespace:
    return argparse.Namespace(code=code, seat=seat, watch=False)


async def test_join_comes_back_into_the_seats_held_and_a_dead_token_takes_a_free_one(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = SeatBook(tmp_path / "seats.json")
    first = await Connection.open(url, "ann")
    joined = await first.request(m.CreateRoom(game="tribolo", seat="blue", public=False))
    assert isinstance(joined, m.Joined) and joined.code is not None
    await first.request(m.Join(room=joined.code, seat="red", name="Bea"))
    book.keep(first.url, joined.code, joined.token, "tribolo", ["blue", "red"], host=True)
    await first.close()
    again = await Connection.open(url, "ann")
    try:
        room = await enter_room(again, join_args(joined.code), book)
        assert room.host and room.yours == ["blue", "red"] and room.token == joined.token
        # A token the room no longer knows: forgotten, and a free seat taken instead.
        book.keep(again.url, joined.code, "x" * 22, "tribolo", ["blue"], host=False)
        other = await Connection.open(url, "cy")
        try:
            seated = await enter_room(other, join_args(joined.code), book)
        finally:
            await other.close()
        assert seated.yours == ["green"]
        assert "yours no longer; taking a free one" in capsys.readouterr().out
        assert book.find(again.url, joined.code) is None
    finally:
        await again.close()


async def test_rooms_lists_the_rooms_held_with_how_to_come_back(
    server: ParlourServer,
    url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    book = SeatBook()
    assert book.path.is_relative_to(tmp_path)
    connection = await Connection.open(url, "ann")
    try:
        joined = await connection.request(m.CreateRoom(game="othello", seat="black", public=False))
        assert isinstance(joined, m.Joined) and joined.code is not None
        await connection.request(m.FillBots(room=joined.code, level="easy"))
        await connection.request(m.Start(room=joined.code))
        book.keep(connection.url, joined.code, joined.token, "othello", ["black"], host=True)
        book.keep(connection.url, "gone-room", "y" * 22, "numlo", ["red"], host=False)
        status = await asyncio.to_thread(main, ["rooms", "--server", url])
    finally:
        await connection.close()
    out = capsys.readouterr().out
    assert status == 0
    assert (
        f"Othello Black  playing: Your move\n    {join_command(connection.url, joined.code)}"
        in out
    )
    assert "Numlo Red  (closed: forgotten)" in out
    assert [seat.room for seat in book.held()] == [joined.code]
    entries = json.loads(book.path.read_text())
    assert entries[0]["token"] == joined.token


async def test_quitting_asks_first_and_giving_up_hands_the_seat_to_the_computer(
    url: str, tmp_path: Path
) -> None:
    connection = await Connection.open(url, "ann")
    try:
        joined = await connection.request(m.CreateRoom(game="othello", seat="black"))
        assert isinstance(joined, m.Joined)
        room = RoomModel.joined(joined)
        await connection.request(m.FillBots(room=room.ref, level="easy"))
        await connection.request(m.Start(room=room.ref))
        book = SeatBook(tmp_path / "seats.json")
        app = ParlourApp(connection, room, book=book)
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: book.find(connection.url, room.ref) is not None, "kept")
            await pilot.press("f10")
            await until(pilot, lambda: isinstance(app.screen, QuitScreen), "asked")
            words = str(app.screen.query_one("#words", Static).render())
            port = connection.url.split(":")[2].split("/")[0]
            come_back = f"{parlour_command()} join {room.ref} --server 127.0.0.1:{port}"
            assert f"come back with\n{come_back}" in words
            await pilot.press("escape")
            await until(pilot, lambda: screen_of(app) is not None, "stayed")
            await pilot.press("f10")
            await until(pilot, lambda: isinstance(app.screen, QuitScreen), "asked again")
            await pilot.click("#give_up")
            await until(pilot, lambda: not app.is_running, "quit")
        assert book.find(connection.url, room.ref) is None
        view = await connection.request(m.GetRoom(room=room.ref))
        assert isinstance(view, m.RoomView)
        assert view.room["seats"][0]["holder"] == {"kind": "bot", "level": "easy"}
    finally:
        await connection.close()
