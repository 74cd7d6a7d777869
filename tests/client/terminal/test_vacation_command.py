"""`parlour vacation`: a player's vacation told, taken and ended from the command line, in
words, with what was typed wrongly refused before anything is asked of the server."""

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.client.connection import Connection
from parlour.protocol import messages as m
from parlour.protocol.players import new_key


@pytest.fixture
async def player(url: str) -> AsyncIterator[Connection]:
    """A connection that says hello with a player key."""
    opened = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    yield opened
    await opened.close()


async def vacation(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = await asyncio.to_thread(main, ["vacation", *argv])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


async def test_a_vacation_is_told_taken_and_ended_in_words(
    url: str,
    player: Connection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["key", "import", str(player.key), "--yes"]) == 0
    server = ["--server", url.removeprefix("ws://").removesuffix("/ws"), "--name", "ann"]
    capsys.readouterr()

    status, said = await vacation(capsys, *server)
    assert status == 0
    assert said.strip() == (
        "You are not on vacation: your clocks of days a move run. 30 vacation days left this year."
    )
    status, said = await vacation(capsys, "end", *server)
    assert (status, said.startswith("You are not on vacation")) == (0, True), "nothing to end"

    status, said = await vacation(capsys, "3", *server)
    kept = await player.request(m.GetVacation())
    assert isinstance(kept, m.VacationReply) and kept.until is not None
    until = time.strftime("%a %d %b %Y, %H:%M", time.localtime(kept.until))
    assert status == 0 and said.startswith(f"Vacation taken until {until} (this machine's")
    assert "27 vacation days left this year." in said

    status, said = await vacation(capsys, *server)
    assert status == 0 and said.startswith(f"You are on vacation until {until}")

    status, said = await vacation(capsys, "end", *server)
    assert status == 0
    assert said.strip() == (
        "Your vacation is over: your clocks of days a move run. 29 vacation days left this"
        " year (a day begun counts)."
    )
    ended = await player.request(m.GetVacation())
    assert isinstance(ended, m.VacationReply) and ended.until is None


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("seven", "DAYS must be a whole number of days from 1 to 30, or 'end', not 'seven'"),
        ("31", "DAYS must be from 1 to 30 days (or 'end'), not 31"),
        ("-2", "DAYS must be from 1 to 30 days (or 'end'), not -2"),
        ("3 days", "DAYS must be a whole number of days from 1 to 30, or 'end', not '3 days'"),
    ],
)
def test_days_typed_wrongly_are_refused_in_words(
    capsys: pytest.CaptureFixture[str], typed: str, said: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["vacation", typed, "--server", "127.0.0.1:1"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"parlour vacation: error: {said}"
