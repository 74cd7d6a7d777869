"""The page's reading of a room's history (client/web/history.js) says what the terminal's
(client/terminal/history.py) says, line for line, for a real room's entries and every kind."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, Route

from parlour.client.terminal.history import history_lines
from parlour.protocol import messages as m

from ..client.terminal.test_history import entry
from ..server.test_clocks import clocked_lobby, move, started
from ..server.test_history import timed_table
from ..server.test_rematch import finish

WEB = Path(__file__).resolve().parents[2] / "client" / "web"
ORIGIN = "http://parlour.test"
HARNESS = """<!doctype html><title>history</title><script type="module">
import { historyLines } from "/history.js";
window.historyLines = historyLines;
</script>"""


def serve(route: Route, request: Request) -> None:
    """The harness, and the page's scripts from client/web."""
    path = request.url.removeprefix(ORIGIN).split("?", 1)[0]
    if path == "/harness.html":
        route.fulfill(status=200, body=HARNESS, content_type="text/html")
        return
    file = (WEB / path.lstrip("/")).resolve()
    if not file.is_relative_to(WEB.resolve()) or not file.is_file():
        route.fulfill(status=404, body=f"no {path}")
        return
    route.fulfill(status=200, body=file.read_bytes(), content_type="text/javascript")


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.route(f"{ORIGIN}/**", serve)
    opened.goto(f"{ORIGIN}/harness.html")
    opened.wait_for_function("typeof window.historyLines === 'function'")
    yield opened
    context.close()
    assert problems == []


def read(page: Page, entries: list[dict[str, Any]], since: int = 0) -> list[str]:
    lines: list[str] = page.evaluate(
        "([entries, since]) => historyLines(entries, { since })", [entries, since]
    )
    return lines


def test_a_played_rooms_history_reads_the_same_on_the_page(page: Page) -> None:
    table = timed_table()
    made = table.create(game="othello", seat="black", options={}, standin_after=5)
    room = str(made.room["room"])
    bob = table.join(2, room, seat="white")
    table.lobby.handle(1, m.Start(room=room))
    table.lobby.handle(2, m.Chat(room=room, text="Sorry, my cat walked on the keys"))
    table.lobby.disconnect(2)
    table.clock.now += 5
    table.lobby.tick()
    table.lobby.handle(6, m.Hello(version=1, name="Bob"))
    table.join(6, room, token=bob.token)
    finish(table, room)
    table.lobby.handle(1, m.NewGame(room=room, rotate=True))
    entries = table.lobby.rooms[room].history.window()
    lines = history_lines(entries)
    assert len(lines) == len(entries) > 60
    assert read(page, entries) == lines
    assert read(page, entries, since=60) == history_lines(entries, since=60)


def test_every_kind_reads_the_same_on_the_page(page: Page) -> None:
    coin = {"by": "red", "call": "heads", "landed": "tails", "first": "white"}
    names = {"blue": "Ann", "red": "Bob", "green": None}
    entries = [
        entry(
            "move", 1, seat="blue", move="d3", version=1, passed=["red"], name="Ann", level=None
        ),
        entry("move", 2, seat="green", move="e4", version=2, passed=[], name="Bob", level="hard"),
        entry("started", 3, first="white", coin=coin),
        entry(
            "over",
            4,
            winners=["red", "green"],
            scores={"blue": 2, "red": 9, "green": 9},
            names=names,
        ),
        entry("over", 5, winners=[], scores={"black": 32, "white": 32}, names={}),
        entry("new_game", 6, first="red", board=3, rotated=False, coin=coin),
        entry("undo", 7, moves=3, version=10),
        entry("loaded", 8, moves=12, over=False),
        entry("proposal", 9, proposal="undo", outcome="declined", by="red"),
        entry("seat", 10, seat="red", holder={"kind": "open"}, by="Ann", after=4),
        entry("chat", 11, name="Cy", seat=None, text="bye"),
        entry("fireworks", 12, colour="gold"),
        entry("move", 13, seat="red"),
        entry("flagged", 14, seat="red", name="Bob", ends=False),
        entry("flagged", 15, seat="white", name=None, ends=True),
        entry("clock_paused", 16, seat="red", given_ms=62_400),
        entry("clock_paused", 17, seat="blue", given_ms=5 * 3_600_000 + 12 * 60_000 + 999),
        entry("clock_paused", 18, seat="green", given_ms=3 * 86_400_000 + 3_600_000),
        entry("clock_paused", 19, seat="red", given_ms="a minute"),
        entry("flagged", 20, seat="red"),
        entry("proposal", 21, proposal="hand_over", outcome="declined", by="blue", seat="green"),
    ]
    lines = history_lines(entries)
    assert len(lines) == 19
    assert lines[-1] == "Blue declined to let the computer play Green while its player is away."
    assert lines[-6:-1] == [
        "Bob (Red) ran out of time; the computer plays on.",
        "White ran out of time.",
        "The server was away: Red was given back 1:02.",
        "The server was away: Blue was given back 5h 12m.",
        "The server was away: Green was given back 3d 01h.",
    ]
    assert read(page, entries) == lines


def test_a_flag_in_a_real_room_reads_the_same_on_the_page(page: Page) -> None:
    lobby, wall = clocked_lobby(("Ann", None), ("Bob", None), ("Cy", None))
    control = {"kind": "live", "base_s": 60, "increment_s": 5}
    room = started(lobby, "tribolo", ["blue", "red", "green"], time_control=control)
    for _ in range(3):
        move(lobby, room)  # each moves once: a seat out of time no longer aborts the game
    wall.now += 67.0
    assert lobby.timekeeper.next_deadline() is not None
    lobby.timekeeper.flags_due()
    entries = lobby.rooms[room].history.window()
    lines = history_lines(entries)
    assert any("ran out of time; the computer plays on." in line for line in lines)
    assert read(page, entries) == lines


def test_resignations_aborts_and_draw_offers_read_as_the_live_log_says_them(page: Page) -> None:
    entries = [
        entry("resigned", 1, seat="red", name="Bob", ends=False),
        entry("resigned", 2, seat="white", name=None, ends=True),
        entry("aborted", 3, seat="black", name="Ann"),
        entry("aborted", 4, seat="blue", name="Cy", late=True),
        entry("proposal", 5, proposal="draw", outcome="declined", by="white"),
        entry("proposal", 6, proposal="draw", outcome="expired", by=None),
    ]
    assert read(page, entries) == [
        "Bob (Red) resigned; the computer plays on.",
        "White resigned.",
        "Ann (Black) aborted the game: it counts for nobody.",
        "Cy (Blue) made no first move in time: the game is aborted and counts for nobody.",
        "White declined the draw.",
        "No answer in time: no draw.",
    ]
