"""Every game's rules page: in the terminal (R) and on the server at /rules/GAME, from one
Markdown text, with an example diagram."""

import asyncio
import http.client

import pytest
from textual.widgets import Markdown

from parlour.client.app import ParlourApp
from parlour.client.connection import Connection
from parlour.client.rules_page import RulesScreen
from parlour.client.texts import rules_text
from parlour.rules import GAMES
from parlour.server import ParlourServer

from .test_app import SCREEN, connection, screen_of, seated, until

__all__ = ["connection"]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_has_a_rules_page_with_a_diagram(game: str) -> None:
    text = rules_text(game)
    assert text.startswith(f"# {GAMES[game].title}\n")
    assert text.count("```") >= 2
    assert len(text.split()) > 120


def fetch(port: int, path: str) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


@pytest.mark.parametrize("game", list(GAMES))
async def test_the_server_serves_each_rules_page_as_html(server: ParlourServer, game: str) -> None:
    status, headers, body = await asyncio.to_thread(fetch, server.port, f"/rules/{game}")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert f"<h1>{GAMES[game].title}</h1>" in body and "<pre><code>" in body
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    missing, _, _ = await asyncio.to_thread(fetch, server.port, "/rules/chess")
    assert missing == 404


async def test_r_shows_the_rooms_rules_and_escape_closes_them(connection: Connection) -> None:
    room = await seated(connection, "tripppin", "blue", bots="1")
    app = ParlourApp(connection, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen_of(app)
        await pilot.press("f12")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules showed")
        shown = app.screen.query_one(Markdown)
        assert "try to reach" in str(shown.source)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, RulesScreen), "the rules closed")
