"""`parlour play`, `host` and `join` given bad input: one clear line and status 2, before
any screen is drawn and with nothing left behind on the server."""

import argparse
import asyncio

import pytest

from parlour.cli import build_parser, main
from parlour.client.connection import Connection
from parlour.server import ParlourServer
from parlour.terminal import create_room, typed_room


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["join", "abc", "--server", "ftp://example.org"], "is not a server address"),
        (["play", "othello", "--think-ms", "50"], "from 100 to 10000 ms"),
        (["host", "othello", "--server", "h:1", "--standin-after", "-1"], "from 0 to 3600"),
        (["play", "othello", "--board", "3", "--position", "x"], "not allowed with argument"),
        (["perft", "othello", "--depth", "abc"], "--depth must be a whole number from 0 to"),
        (["serve", "--port", "http"], "--port must be a whole number from 0 to 65535, not 'http'"),
        (["serve", "--bot-pause", "soon"], "--bot-pause must be a number from 0 to 10 seconds"),
        (["play", "othello", "--think-ms", "1s"], "--think-ms must be a whole number from 100"),
    ],
)
def test_bad_arguments_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert said in err
    assert "invalid" not in err and "error: argument" not in err


def test_a_code_is_read_as_typed_aloud() -> None:
    for typed in (["7kqm", "x3rd", "2hvp"], ["7KQMX3RD2HVP"], ["7kqm-x3rd-2hvO"]):
        code = typed_room(build_parser().parse_args(["join", *typed]).code)
        assert code == ("7KQM-X3RD-2HV0" if typed[-1].endswith("O") else "7KQM-X3RD-2HVP")
    assert typed_room(build_parser().parse_args(["join"]).code) is None
    assert typed_room(["a-room-id_22-characters"]) == "a-room-id_22-characters"


def test_host_and_join_default_to_the_server_on_this_machine() -> None:
    for argv in (["host", "othello"], ["join", "CODE"]):
        assert build_parser().parse_args(argv).server == "ws://127.0.0.1:8765/ws"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["play", "tribolo", "--seat", "purple"], "Tribolo has no seat 'purple': blue, red"),
        (["play", "numlo", "--bots", "genius"], "Numlo has no level 'genius': easy, medium"),
        (["play", "othello", "--option", "rows=99"], "rows"),
        (["host", "othello", "--server", "127.0.0.1:1"], "ws://127.0.0.1:1/ws: no server is"),
        (["join", "--server", "127.0.0.1:1", "--watch"], "--seat and --watch need the room's"),
        (["play", "othello", "--edit"], "the board editor is Oubliette's"),
        (["play", "othello", "--board", "walls"], "Othello has no named boards"),
        (["play", "tribolo", "--board", "maze"], "'board' must be one of random, centre"),
        (["play", "othello", "--board", "-3"], "must be from 0 to 9007199254740991"),
        (["play", "tribolo", "--seats", "blue,blue"], "--seats names a seat twice: blue,blue"),
        (["play", "tribolo", "--seats", "blue,pink"], "Tribolo has no seat 'pink'"),
        (["play", "tribolo", "--seats", "red", "--names", "a,b"], "more names than --seats"),
    ],
)
def test_bad_requests_say_what_is_wrong(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    status, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith(f"parlour {argv[0]}: error: ")
    assert said in err
    assert err.count("\n") == 1


async def test_joining_a_room_that_is_not_there_says_so(
    server: ParlourServer, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["join", "no-such-room-here", "--server", url, "--name", "bob"]
    status = await asyncio.to_thread(main, argv)
    err = capsys.readouterr().err
    assert status == 2
    assert "no room" in err.lower()
    assert not server.lobby.rooms


async def test_a_hosted_room_is_made_as_the_command_line_says(url: str) -> None:
    args = argparse.Namespace(
        game="numlo",
        seat="green",
        seats=None,
        watch=False,
        option=["valued=30"],
        board="42",
        think_ms=300,
        standin_after=5,
        left_seats="open",
    )
    connection = await Connection.open(url, "ann")
    try:
        room = await create_room(connection, args, public=False)
    finally:
        await connection.close()
    assert (room.seat, room.host) == ("green", True)
    assert room.code is not None and room.ref == room.code
    view = room.view
    assert (view["board"], view["bot_think_ms"], view["public"]) == (42, 300, False)
    assert view["options"]["valued"] == 30
    assert view["left_seats"] == "open"


async def test_a_named_board_is_the_rooms_board_option(url: str) -> None:
    args = argparse.Namespace(
        game="tribolo",
        seat=None,
        seats=["blue", "red"],
        names=["Ann", "Bea"],
        watch=False,
        option=[],
        board="walls",
        think_ms=1000,
        standin_after=60,
        left_seats="bot",
    )
    connection = await Connection.open(url, "ann")
    try:
        room = await create_room(connection, args, public=False)
    finally:
        await connection.close()
    assert room.view["options"]["board"] == "walls"
    assert room.yours == ["blue", "red"]
