"""The smallest client in protocol.md ("Writing a client"), run as a stranger would run it:
its code taken from the document, in a Python process of its own, against a real server,
plays a game of Othello against the computer to the end."""

import asyncio
import re
import sys
import time
from pathlib import Path

from parlour.server import ParlourServer
from parlour.server.room import Room

PROTOCOL_MD = Path(__file__).parents[2] / "protocol.md"
GAME_SECONDS = 120


def tiny_client() -> str:
    """The Python code of protocol.md's "Writing a client"."""
    text = PROTOCOL_MD.read_text()
    section = text[text.index("### Writing a client") :]
    found = re.search(r"^```python\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    assert found is not None, "protocol.md's Writing a client has no Python block"
    return found.group(1)


async def run_tiny(code: str, url: str, tmp_path: Path) -> asyncio.subprocess.Process:
    script = tmp_path / "tiny.py"
    script.write_text(code)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(script),
        url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def said_by(process: asyncio.subprocess.Process) -> str:
    """What the client printed, once it has exited by itself."""
    async with asyncio.timeout(GAME_SECONDS):
        out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return out.decode()


async def test_the_smallest_client_in_protocol_md_plays_a_game_to_the_end(
    server: ParlourServer, url: str, tmp_path: Path
) -> None:
    code = tiny_client()
    assert len(code.splitlines()) <= 60, "a few dozen lines"
    said = await said_by(await run_tiny(code, url, tmp_path))
    assert said.startswith("over: {'black': "), said
    (room,) = server.lobby.rooms.values()
    assert room.state is not None and room.state.is_over
    assert said.strip().endswith(f"won by {[room.seats[i].colour for i in room.state.winners()]}")
    assert len(room.moves) >= 9, "a whole game, not a few moves"


class Wall:
    """The server's Unix clock, set forward by the test."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


async def test_the_smallest_client_sees_a_game_lost_on_time_end(
    server: ParlourServer, url: str, tmp_path: Path
) -> None:
    """The same client, its room made with a live clock: the time of whoever is to move
    runs out mid-game, and the client stops at the end as at any other."""
    wall = Wall()
    server.lobby.services.wall = wall
    made = "bot_think_ms=100)"
    code = tiny_client()
    assert made in code
    clocked = code.replace(made, 'bot_think_ms=100, time_control={"kind": "live", "base_s": 60})')
    process = await run_tiny(clocked, url, tmp_path)
    async with asyncio.timeout(GAME_SECONDS):
        while not any(computers_turn(room) for room in server.lobby.rooms.values()):
            await asyncio.sleep(0.001)
    wall.ahead = 600.0  # at once, on the computer's turn: the client sends nothing meanwhile
    said = await said_by(process)
    (room,) = server.lobby.rooms.values()
    assert room.ended == "flag" and room.state is not None and not room.state.is_over
    assert room.winners == ["black"], "the computer ran out of time"
    assert said.strip().endswith(f"won by {room.winners}"), said


def computers_turn(room: Room) -> bool:
    """Whether, a few moves in, the computer (white) is to move."""
    return room.state is not None and len(room.moves) >= 4 and room.state.to_move == 1
