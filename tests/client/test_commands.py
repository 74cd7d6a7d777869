"""`parlour play`, `host` and `join` given bad input: one clear line and status 2, before
any screen is drawn and with nothing left behind on the server."""

import asyncio

import pytest

from parlour.cli import main
from parlour.server import ParlourServer


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().err


def test_a_bad_server_address_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["join", "abc", "--server", "ftp://example.org"])
    assert exited.value.code == 2
    assert "is not a server address" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["play", "tribolo", "--seat", "purple"], "Tribolo has no seat 'purple': blue, red"),
        (["play", "numlo", "--bots", "genius"], "Numlo has no level 'genius': easy, medium"),
        (["play", "othello", "--option", "rows=99"], "rows"),
        (["host", "othello", "--server", "127.0.0.1:1"], "cannot connect to ws://127.0.0.1:1/ws"),
        (["join", "--server", "127.0.0.1:1", "--watch"], "--seat and --watch need the room's"),
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
