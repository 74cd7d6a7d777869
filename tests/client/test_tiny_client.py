"""The smallest client in protocol.md ("Writing a client"), run as a stranger would run it:
its code taken from the document, in a Python process of its own, against a real server,
plays a game of Othello against the computer to the end."""

import asyncio
import re
import sys
from pathlib import Path

from parlour.server import ParlourServer

PROTOCOL_MD = Path(__file__).parents[2] / "protocol.md"
GAME_SECONDS = 120


def tiny_client() -> str:
    """The Python code of protocol.md's "Writing a client"."""
    text = PROTOCOL_MD.read_text()
    section = text[text.index("### Writing a client") :]
    found = re.search(r"^```python\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    assert found is not None, "protocol.md's Writing a client has no Python block"
    return found.group(1)


async def test_the_smallest_client_in_protocol_md_plays_a_game_to_the_end(
    server: ParlourServer, url: str, tmp_path: Path
) -> None:
    code = tiny_client()
    assert len(code.splitlines()) <= 60, "a few dozen lines"
    script = tmp_path / "tiny.py"
    script.write_text(code)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(script),
        url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(GAME_SECONDS):
        out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    said = out.decode()
    assert said.startswith("over: {'black': "), said
    (room,) = server.lobby.rooms.values()
    assert room.state is not None and room.state.is_over
    assert said.strip().endswith(f"won by {[room.seats[i].colour for i in room.state.winners()]}")
    assert len(room.moves) >= 9, "a whole game, not a few moves"
