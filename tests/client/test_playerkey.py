"""The player key (protocol.md 2.10): made once, private, reused; a damaged file left
alone; `parlour key` and `parlour key import`; sent in every hello (not a guest's); and a
name another player holds asked again, at the terminal or in the app's dialog."""

import argparse
import io
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input

from parlour.cli import main
from parlour.client.connection import Connection, NameTakenError
from parlour.client.playerkey import DamagedKeyError, KeyFile, PlayerKeyError
from parlour.client.privatefile import write_private
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.dialogs import NameScreen
from parlour.client.terminal.lobby import LobbyScreen
from parlour.protocol.players import new_key, player_id, read_key
from parlour.terminal import SetupError, connected, player_key

from .terminal.test_app import SCREEN, until

KEY = "Y5DP-J2CK-CKJ7-4007-9860-PWHM-31NJ-ZJ15"
OTHER = "7KQM-X3RD-2HVP-0000-1111-2222-3333-4444"


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The user's data directory, in a folder of the test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    yield tmp_path / "parlour"


def test_the_key_is_made_once_readable_by_its_user_alone_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "data" / "player-key.txt"
    made = KeyFile(path).load_or_make()
    assert read_key(made.key) == made.key and made.player == player_id(made.key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert path.read_text() == f"{made.key}\n"
    assert KeyFile(path).load_or_make() == made
    assert KeyFile(path).read() == made
    assert [entry.name for entry in path.parent.iterdir()] == ["player-key.txt"]


def test_a_key_made_by_a_run_starting_at_the_same_moment_is_the_one_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "player-key.txt"
    assert write_private(path, f"{KEY}\n", replace=False)
    assert not write_private(path, f"{OTHER}\n", replace=False)
    assert KeyFile(path).load_or_make().key == KEY
    assert [entry.name for entry in tmp_path.iterdir()] == ["player-key.txt"]


@pytest.mark.parametrize("text", ["", "not a key\n", KEY[:-1], "{}", KEY + KEY])
def test_a_damaged_key_file_is_an_error_and_is_never_overwritten(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "player-key.txt"
    path.write_text(text)
    key_file = KeyFile(path)
    with pytest.raises(DamagedKeyError, match="does not hold a player key"):
        key_file.read()
    with pytest.raises(DamagedKeyError):
        key_file.load_or_make()
    with pytest.raises(DamagedKeyError):
        key_file.replace(OTHER)
    assert path.read_text() == text


def test_a_key_is_read_in_any_case_with_spaces_or_dashes(tmp_path: Path) -> None:
    key_file = KeyFile(tmp_path / "player-key.txt")
    new, old = key_file.replace(KEY.lower().replace("-", " "))
    assert (new.key, old) == (KEY, None)
    with pytest.raises(PlayerKeyError, match="not a player key"):
        key_file.replace("Y5DP-J2CK")
    assert key_file.read() == new


def test_parlour_key_shows_the_key_its_id_and_how_to_move_it(
    data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["key"]) == 0
    out = capsys.readouterr().out
    kept = KeyFile().read()
    assert kept is not None and kept.key in out and kept.player in out
    assert f"parlour key import {kept.key}" in out
    assert str(data_home / "player-key.txt") in out
    assert main(["key"]) == 0
    assert KeyFile().read() == kept, "a second run made another key"


def test_importing_a_key_asks_first_and_prints_the_old_one(
    data_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    old = KeyFile().load_or_make()
    # Nobody at a terminal to say yes: refused, and nothing changes.
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["key", "import", OTHER]) == 2
    captured = capsys.readouterr()
    assert "needs a yes" in captured.err and old.key in captured.out
    assert KeyFile().read() == old
    # At a terminal, "n" keeps the key and "y" replaces it.
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda _: "n")
    assert main(["key", "import", OTHER]) == 1
    assert KeyFile().read() == old
    monkeypatch.setattr("builtins.input", lambda _: "y")
    assert main(["key", "import", *OTHER.lower().split("-")]) == 0
    out = capsys.readouterr().out
    assert KeyFile().read() is not None and KeyFile().load_or_make().key == OTHER
    assert f"The old key was {old.key}" in out and player_id(OTHER) in out


def test_a_key_piped_in_replaces_the_key_with_yes(
    data_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    old = KeyFile().load_or_make()
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{OTHER}\n"))
    assert main(["key", "import", "--yes"]) == 0
    assert KeyFile().load_or_make().key == OTHER
    assert old.key in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense"))
    assert main(["key", "import", "--yes"]) == 2
    assert "not a player key" in capsys.readouterr().err
    assert KeyFile().load_or_make().key == OTHER


async def test_the_key_imported_is_the_one_the_next_hello_sends(url: str, data_home: Path) -> None:
    assert main(["key", "import", OTHER, "--yes"]) == 0
    args = argparse.Namespace(guest=False)
    async with connected(url, "ann", player_key(args)) as connection:
        assert connection.key == OTHER
        assert connection.welcome is not None and connection.welcome.player is not None
        assert connection.welcome.player["id"] == player_id(OTHER)
        assert connection.welcome.player["name"] == "ann"


async def test_a_guest_sends_no_key_and_makes_none(url: str, data_home: Path) -> None:
    key = player_key(argparse.Namespace(guest=True))
    assert key is None and not (data_home / "player-key.txt").exists()
    async with connected(url, "gus", key) as connection:
        assert connection.welcome is not None and connection.welcome.player is None


async def test_a_damaged_key_file_stops_the_client_with_a_way_out(data_home: Path) -> None:
    data_home.mkdir(parents=True)
    (data_home / "player-key.txt").write_text("mangled")
    with pytest.raises(SetupError, match="--guest"):
        player_key(argparse.Namespace(guest=False))
    assert (data_home / "player-key.txt").read_text() == "mangled"


async def test_a_name_another_player_holds_is_asked_again(url: str) -> None:
    holder = await Connection.open(url, "Ann", key=new_key())
    asked: list[str] = []

    async def another(taken: str) -> str | None:
        asked.append(taken)
        return "Bea" if len(asked) == 1 else None

    try:
        with pytest.raises(NameTakenError, match="the name ANN belongs to another player"):
            await Connection.open(url, "ANN", key=new_key())
        second = await Connection.open(url, "ann", key=new_key(), ask_name=another)
        try:
            assert asked == ["ann"] and second.name == "Bea"
            assert second.welcome is not None and second.welcome.player is not None
            assert second.welcome.player["name"] == "Bea"
        finally:
            await second.close()
    finally:
        await holder.close()


async def test_without_anyone_to_ask_a_taken_name_says_to_choose_another_with_name(
    url: str,
) -> None:
    holder = await Connection.open(url, "Ann", key=new_key())
    try:
        with pytest.raises(SetupError) as refused:
            async with connected(url, "Ann", new_key()):
                pass
        assert "the name Ann belongs to another player on this server" in str(refused.value)
        assert "--name" in str(refused.value)
    finally:
        await holder.close()


async def test_the_app_asks_another_name_when_its_own_was_taken_while_it_was_away(
    url: str,
) -> None:
    """A guest's name is free for a player to take; coming back after a drop, the guest is
    asked for another in a dialog, and says hello again with it."""
    guest = await Connection.open(url, "Zed", retry_delays=(0.05,))
    app = ParlourApp(guest)
    try:
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
            taker = await Connection.open(url, "Zed", key=new_key())
            websocket = guest._websocket
            assert websocket is not None
            websocket.transport.abort()
            await until(pilot, lambda: isinstance(app.screen, NameScreen), "it asked")
            assert isinstance(app.screen, NameScreen) and app.screen.taken == "Zed"
            app.screen.query_one(Input).value = "Zoe"
            await pilot.press("enter")
            await until(pilot, lambda: guest.connected and guest.name == "Zoe", "back as Zoe")
            assert isinstance(app.screen, LobbyScreen)
            await taker.close()
    finally:
        await guest.close()
