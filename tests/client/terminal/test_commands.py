"""`parlour play`, `host` and `join` given bad input: one clear line and status 2, before
any screen is drawn and with nothing left behind on the server."""

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
    argv = ["host", "numlo", "--server", url, "--seat", "green", "--option", "valued=30"]
    argv += ["--board", "42", "--think-ms", "300", "--standin-after", "5"]
    argv += ["--left-seats", "open", "--clock", "1.5+2"]
    args = build_parser().parse_args(argv)
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
    assert view["time_control"] == {"kind": "live", "base_s": 90, "increment_s": 2}


@pytest.mark.parametrize(
    ("written", "control"),
    [
        ("5+3", {"kind": "live", "base_s": 300, "increment_s": 3}),
        ("0.5+0", {"kind": "live", "base_s": 30, "increment_s": 0}),
        ("90s + 2", {"kind": "live", "base_s": 90, "increment_s": 2}),
        ("180+180", {"kind": "live", "base_s": 10_800, "increment_s": 180}),
        ("3d", {"kind": "days", "days": 3, "bank_days": 0}),
        ("1 day", {"kind": "days", "days": 1, "bank_days": 0}),
        ("14d+28", {"kind": "days", "days": 14, "bank_days": 28}),
        ("none", {"kind": "none"}),
    ],
)
def test_a_clock_is_written_as_players_say_it(written: str, control: dict[str, object]) -> None:
    args = build_parser().parse_args(["play", "othello", "--clock", written])
    assert args.clock.describe() == control
    assert build_parser().parse_args(["play", "othello"]).clock.describe() == {"kind": "none"}


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("five minutes", "'five minutes' is no time control: write M+S for a live clock"),
        ("5", "'5' is no time control"),
        ("10s+0", "whole seconds from 15 s to 3 hours, not '10s+0'"),
        ("181+0", "whole seconds from 15 s to 3 hours"),
        ("0.01+0", "whole seconds from 15 s"),
        ("5+181", "the increment must be 0 to 180 seconds a move"),
        ("15d", "a move may take 1 to 14 days, not 15"),
        ("0d", "a move may take 1 to 14 days, not 0"),
        ("3d+29", "at most 28 days may be banked, not 29"),
    ],
)
def test_a_clock_written_wrongly_is_refused_in_words(
    capsys: pytest.CaptureFixture[str], written: str, said: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["host", "othello", "--clock", written])
    assert exited.value.code == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith("parlour host: error: --clock ") and said in err


async def test_a_named_board_is_the_rooms_board_option(url: str) -> None:
    argv = ["host", "tribolo", "--seats", "blue,red", "--names", "Ann,Bea", "--board", "walls"]
    args = build_parser().parse_args(argv)
    connection = await Connection.open(url, "ann")
    try:
        room = await create_room(connection, args, public=False)
    finally:
        await connection.close()
    assert room.view["options"]["board"] == "walls"
    assert room.yours == ["blue", "red"]
