"""Every game's rules page: in the terminal (R) and on the server at /rules/GAME, from one
Markdown text, with an example diagram."""

import asyncio
import http.client
import re

import pytest
from textual.widgets import Markdown

from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.rules_page import RulesScreen
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


def playing_here(text: str) -> str:
    """A rules page's "Playing here" section, its lines joined."""
    assert "\n## Playing here\n" in text
    return " ".join(text.split("\n## Playing here\n", 1)[1].split("\n## ", 1)[0].split())


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rules_page_says_how_to_enter_a_move_in_both_clients(game: str) -> None:
    """How to play a move, for the browser (a click) and the terminal (the arrow keys and
    Enter, or the mouse), naming no command key: those are the key bar's to list."""
    section = playing_here(rules_text(game))
    assert "In the browser" in section and "click" in section
    assert "In the terminal" in section
    assert "arrow keys" in section and "Enter" in section and "mouse" in section
    assert "The key bar at the bottom of the terminal lists the commands" in section
    command_key = r"\b(?:press(?:es)?|key|keys)\s+`?(?:[A-Z]|F\d{1,2}|Ctrl\S*)`?(?:\b|$)"
    assert not re.search(command_key, rules_text(game)), game
    assert not re.search(r"\bF(?:[1-9]|1[0-2])\b", rules_text(game)), game


def test_oubliettes_page_walks_through_picking_a_line() -> None:
    section = playing_here(rules_text("oubliette"))
    assert "Click your pieces one by one" in section
    assert "the piece you picked **last** moves to" in section
    assert "just beyond either end" in section
    assert "light up" in section and "says why" in section


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
