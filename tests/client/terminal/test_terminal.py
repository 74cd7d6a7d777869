"""The terminal client in a real terminal: tmux runs `parlour play` and `parlour host`, and
reads their screens back; over `wss://` too, the printed commands pasted back."""

import asyncio
import os
import re
import shutil
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.server import ParlourServer
from parlour.server.room import Room
from tests.tlsfiles import TlsFiles

WAIT = 60.0
"""Seconds for the server, its bot workers and the client to come up on a busy machine."""
POLL = 0.1
"""Seconds between looks at the screen."""

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Tmux:
    """A private tmux server with one window of a given size."""

    def __init__(self) -> None:
        self.socket = f"parlour-test-{uuid.uuid4().hex[:8]}"
        # pytest-xdist's workers set COLUMNS and LINES, which would hold the client to 80x24.
        kept = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        self.env = {**kept, "TERM": "xterm-256color"}

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            env=self.env,
            check=True,
            timeout=10,
        )
        return done.stdout

    def screen(self, target: str = "play", *, joined: bool = False) -> str:
        """What `target` shows; `joined` puts a line the terminal wrapped back together, as
        a shell's long printed command is when copied."""
        return self.run("capture-pane", "-p", *(["-J"] if joined else []), "-t", target)

    def wait_for(self, pattern: str) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            shown = self.screen()
            if re.search(pattern, shown):
                return shown
            time.sleep(POLL)
        raise AssertionError(f"{pattern!r} never showed; the screen:\n{self.screen()}")


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    terminal = Tmux()
    try:
        yield terminal
    finally:
        subprocess.run(
            ["tmux", "-L", terminal.socket, "kill-server"], capture_output=True, check=False
        )


def test_parlour_play_tribolo_draws_a_board_in_a_terminal(tmux: Tmux) -> None:
    command = f"{sys.executable} -m parlour play tribolo --name ann --bot-pause 0"
    tmux.run("new-session", "-d", "-s", "play", "-x", "150", "-y", "45", command)
    shown = tmux.wait_for(r"Your move")
    lines = shown.splitlines()
    top = next(i for i, line in enumerate(lines) if re.match(r"\s+a  b  c  d  e  f  g", line))
    first = lines[top].index("a") - 1
    squares = [
        [line[first + 3 * col : first + 3 * col + 3] for col in range(16)]
        for line in lines[top + 1 : top + 12]
    ]
    numbers = [line[:first].strip() for line in lines[top + 1 : top + 12]]
    assert numbers == [str(row) for row in range(1, 12)], shown
    drawn = [square.strip() for row in squares for square in row]
    last_move = [square for square in drawn if square.startswith("\u203a")]
    assert len(last_move) <= 1, shown  # none while nobody has moved yet
    assert set(drawn) - set(last_move) <= {"·", "░░░", "B", "R", "G"}, shown
    for letter in "BRG":
        assert letter in drawn
    assert "Blue: ann (you)" in shown
    assert re.search(r"Blue \d+\s+Red \d+\s+Green \d+", shown)
    for sentence in ("Sorry, my cat walked on the keys", "Quit it, you"):
        tmux.run("send-keys", "-t", "play", "-l", sentence)
        tmux.run("send-keys", "-t", "play", "Enter")
        tmux.wait_for(re.escape(f"ann (Blue): {sentence}"))
    assert "Quit?" not in tmux.screen() and "Suggested" not in tmux.screen()
    tmux.run("send-keys", "-t", "play", "F10")
    tmux.wait_for(r"Quit\? The game ends with this window")
    tmux.run("send-keys", "-t", "play", "y", "Enter")
    time.sleep(0.5)
    assert "Blue: ann (you)" in tmux.screen(), "a letter and Enter stay in the room"
    tmux.run("send-keys", "-t", "play", "F10")
    tmux.wait_for(r"Quit\? The game ends with this window")
    tmux.run("send-keys", "-t", "play", "Tab", "Enter")
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            tmux.screen()
        except subprocess.CalledProcessError:
            return
        time.sleep(POLL)
    raise AssertionError("F10, Tab and Enter did not quit")


async def test_quitting_and_coming_back_with_the_same_command(
    server: ParlourServer, tmp_path: Path
) -> None:
    """`parlour host` in a terminal: F10 asks, says how to come back, and that command brings
    the host back to its seat and to hosting; the token waits in a file only they can read."""
    terminal = Tmux()
    terminal.env["XDG_DATA_HOME"] = str(tmp_path)
    terminal.env["PS1"] = "$ "
    try:
        terminal.run("new-session", "-d", "-s", "play", "-x", "150", "-y", "45", "sh")
        host = f"{sys.executable} -m parlour host othello --server 127.0.0.1:{server.port}"
        terminal.run("send-keys", "-t", "play", f"{host} --name ann", "Enter")
        shown = await wait_for(terminal, r"parlour join (\S+) --server")
        code = re.search(r"parlour join (\S+) --server", shown).group(1)  # type: ignore[union-attr]
        terminal.run("send-keys", "-t", "play", "F10")
        await wait_for(terminal, r"Your seats stay yours: come back with")
        terminal.run("send-keys", "-t", "play", "Tab", "Enter")
        printed = r"Come back with:  (\S+ -m parlour join \S+ --server \S+)"
        back = await wait_for(terminal, printed, joined=True)
        command = re.search(printed, back)
        assert command is not None and code in command.group(1)
        room = next(iter(server.lobby.rooms.values()))
        await until_left(room)
        assert room.seats[0].conn is None and room.host_conn is None
        seats_file = tmp_path / "parlour" / "seats.json"
        assert stat.S_IMODE(seats_file.stat().st_mode) == 0o600
        # Pasted as printed, it runs the very program that printed it; the name comes back.
        terminal.run("send-keys", "-t", "play", command.group(1), "Enter")
        await wait_for(terminal, r"Black: ann \(you\)")
        await wait_for(terminal, r"Fill")
        assert room.seats[0].conn is not None and room.host_conn == room.seats[0].conn
    finally:
        subprocess.run(
            ["tmux", "-L", terminal.socket, "kill-server"], capture_output=True, check=False
        )


async def wait_for(
    terminal: Tmux, pattern: str, target: str = "play", *, joined: bool = False
) -> str:
    """The screen once `pattern` shows on it, letting the server in this process run."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        shown = terminal.screen(target, joined=joined)
        if re.search(pattern, shown):
            return shown
        await asyncio.sleep(POLL)
    raise AssertionError(f"{pattern!r} never showed; the screen:\n{terminal.screen(target)}")


async def until_left(room: Room) -> None:
    """Let the server in this process notice a quit client's connection close (the client
    prints its come-back command as it closes, not once the server has seen it)."""
    deadline = time.monotonic() + WAIT
    while room.seats[0].conn is not None and time.monotonic() < deadline:
        await asyncio.sleep(POLL)


async def test_over_wss_the_printed_commands_come_back_over_wss(
    tls_server: ParlourServer, tls_files: TlsFiles, tmp_path: Path
) -> None:
    """`parlour host --server wss://... --ca FILE`: the invitation, pasted by a friend who
    saved the CA's certificate as it says, seats them over TLS; the come-back command
    printed at quitting brings the host back over TLS, trusting the same CA."""
    friend = tmp_path / "bea"
    friend.mkdir()
    shutil.copy(tls_files.ca, friend / "ca.pem")
    terminal = Tmux()
    terminal.env["PS1"] = "$ "
    try:
        for session, folder in (("play", tmp_path), ("friend", friend)):
            size = ("-x", "220", "-y", "45")
            terminal.run("new-session", "-d", "-s", session, "-c", str(folder), *size, "sh")
        server = f"wss://127.0.0.1:{tls_server.port}"
        host = f"{sys.executable} -m parlour host othello --server {server} --ca {tls_files.ca}"
        terminal.run("send-keys", "-t", "play", f"XDG_DATA_HOME={tmp_path / 'ann'} {host}")
        terminal.run("send-keys", "-t", "play", " --name ann", "Enter")
        invited = r"(\S+ -m parlour join (\S+) --server wss://127\.0\.0\.1:\d+ --ca ca\.pem)\s"
        shown = await wait_for(terminal, invited)
        found = re.search(invited, shown)
        assert found is not None
        assert "Send them " + str(tls_files.ca) in shown
        pasted = f"XDG_DATA_HOME={friend / 'data'} {found.group(1)} --name bea"
        terminal.run("send-keys", "-t", "friend", pasted, "Enter")
        await wait_for(terminal, r"White: bea \(you\)", "friend")
        await wait_for(terminal, r"White: bea")
        terminal.run("send-keys", "-t", "play", "F10")
        await wait_for(terminal, r"Your seats stay yours: come back with")
        terminal.run("send-keys", "-t", "play", "Tab", "Enter")
        printed = r"Come back with:  (\S+ -m parlour join \S+ --server (\S+) --ca (\S+))"
        back = re.search(printed, await wait_for(terminal, printed, joined=True))
        assert back is not None and found.group(2) in back.group(1)
        assert (back.group(2), back.group(3)) == (server, str(tls_files.ca))
        room = next(iter(tls_server.lobby.rooms.values()))
        await until_left(room)
        assert room.host_conn is None
        command = f"XDG_DATA_HOME={tmp_path / 'ann'} {back.group(1)}"
        terminal.run("send-keys", "-t", "play", command, "Enter")
        await wait_for(terminal, r"Black: ann \(you\)")
        await wait_for(terminal, r"Fill")
        assert room.host_conn is not None and room.host_conn == room.seats[0].conn
    finally:
        subprocess.run(
            ["tmux", "-L", terminal.socket, "kill-server"], capture_output=True, check=False
        )
