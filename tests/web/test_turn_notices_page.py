"""The page and rooms waiting on the player (protocol.md 2.10): the count in the title, kept
from `my_games` and `your_turn`; My games listing those rooms first, marked; and, with the
person's leave asked on a click (never on load), a browser notification when the tab is
hidden, which opens the room when clicked."""

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

from parlour.protocol.players import new_key

from .test_page import Player
from .test_players_page import connected, request

FAKE_NOTIFICATIONS = """
(() => {
  window.__notes = [];
  window.__asked = 0;
  window.__permission = %s ?? Notification.permission;
  window.__hidden = false;
  Object.defineProperty(document, "visibilityState", {
    configurable: true,
    get: () => (window.__hidden ? "hidden" : "visible"),
  });
  class Recorded extends EventTarget {
    constructor(title, options = {}) {
      super();
      this.title = title;
      this.options = options;
      this.closed = false;
      window.__notes.push(this);
    }
    static get permission() { return window.__permission; }
    static async requestPermission() {
      window.__asked += 1;
      window.__permission = "granted";
      return "granted";
    }
    close() { this.closed = true; }
  }
  window.Notification = Recorded;
})();
"""
"""Records the notifications the page makes (and its asking for leave, which a person
grants), and lets the test say whether the tab is in sight."""


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def open_page(
    browser: Browser,
    site: str,
    contexts: list[BrowserContext],
    name: str,
    key: str,
    *,
    permission: str | None = None,
    grant: bool = False,
) -> Player:
    """A browser of `name`'s with `key` kept, at the lobby, its notifications recorded."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    contexts.append(context)
    if grant:
        context.grant_permissions(["notifications"])
    context.add_init_script(
        f"try {{ localStorage.setItem('parlour.key', {json.dumps(json.dumps(key))}); "
        f"localStorage.setItem('parlour.name', {json.dumps(json.dumps(name))}); }} catch {{}}"
    )
    context.add_init_script(FAKE_NOTIFICATIONS % json.dumps(permission))
    player = Player(context.new_page())
    player.page.goto(f"{site}/")
    connected(player.page)
    return player


def othello(host: Player, guest: Player, seat: str) -> tuple[str, str]:
    """A private Othello room: `host` in `seat`, `guest` in the other, started; its id and
    code."""
    made = request(host, {"type": "create_room", "game": "othello", "seat": seat, "public": False})
    other = "white" if seat == "black" else "black"
    request(guest, {"type": "join", "room": made["code"], "seat": other})
    request(host, {"type": "start", "room": made["code"]})
    return made["room"]["room"], made["code"]


def move(player: Player, ref: str) -> None:
    room = request(player, {"type": "get_room", "room": ref})["room"]
    legal = room["state"]["legal_moves"][0]
    request(player, {"type": "move", "room": ref, "version": room["version"], "move": legal})


def title_is(player: Player, text: str) -> None:
    player.page.wait_for_function("(text) => document.title === text", arg=text)


def notes(player: Player) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = player.page.evaluate(
        "() => window.__notes.map((note) => ({title: note.title, ...note.options}))"
    )
    return found


def test_the_title_counts_the_rooms_waiting_and_a_hidden_tab_is_notified(
    browser: Browser, site: str, contexts: list[BrowserContext]
) -> None:
    ann_key = new_key()
    watcher = open_page(browser, site, contexts, "Tia", ann_key, grant=True)
    ann = open_page(browser, site, contexts, "Tia", ann_key)
    bob = open_page(browser, site, contexts, "Ugo", new_key())
    page = watcher.page
    page.wait_for_selector("#turn-notices")
    assert "tells you when a game waits on your move" in page.inner_text("#turn-notices")
    assert page.title() == "Parlour"

    # A room starts waiting on her while the tab is in sight: counted, not notified.
    first, first_code = othello(ann, bob, "black")
    title_is(watcher, "(1) Parlour")
    page.wait_for_selector(f"#my-rooms li.your-turn[data-room='{first}']")
    assert "Your turn" in page.inner_text(f"#my-rooms li[data-room='{first}']")
    assert notes(watcher) == []

    # Another, while the tab is hidden: notified, and counted.
    page.evaluate("() => { window.__hidden = true; }")
    second, second_code = othello(ann, bob, "black")
    title_is(watcher, "(2) Parlour")
    page.wait_for_function("() => window.__notes.length === 1")
    (note,) = notes(watcher)
    assert note["title"] == "Your turn: Othello"
    assert second_code in note["body"] and "Black" in note["body"]
    assert note["tag"] == f"parlour-turn-{second}"

    # She moves in the first elsewhere: My games, read again, waits on her for the second
    # alone, listed first and marked; the title follows.
    move(ann, first_code)
    page.evaluate("() => window.parlour.view.showMyGames({ rooms: false })")
    title_is(watcher, "(1) Parlour")
    page.wait_for_function(
        "(room) => document.querySelector('#my-rooms li')?.dataset.room === room", arg=second
    )
    items = page.locator("#my-rooms li")
    assert items.count() == 2
    assert items.nth(0).get_attribute("class") == "your-turn"
    assert items.nth(1).get_attribute("class") is None
    assert "Your turn" not in items.nth(1).inner_text()

    # A click on the notification brings the tab forward and opens the room.
    page.evaluate("() => window.__notes[0].dispatchEvent(new Event('click'))")
    page.wait_for_url(f"**/r/{second_code}")
    watcher.my_turn()
    assert page.evaluate("() => window.__notes[0].closed") is True
    # In the room, her move there stops it waiting: the title counts none.
    title_is(watcher, "(1) Your move · Othello · Parlour")
    version = watcher.view["version"]
    watcher.click_square(watcher.view["state"]["legal_moves"][0])
    watcher.wait("room.view.version > arg", version)
    title_is(watcher, "Othello · Parlour")
    assert watcher.errors == []


def test_the_page_asks_leave_to_notify_only_when_the_person_clicks(
    browser: Browser, site: str, contexts: list[BrowserContext]
) -> None:
    vic = open_page(browser, site, contexts, "Vic", new_key(), permission="default")
    page = vic.page
    page.wait_for_selector("#ask-notices")
    assert page.evaluate("() => window.__asked") == 0
    page.click("#ask-notices")
    page.wait_for_function("() => window.__asked === 1")
    page.wait_for_selector("#turn-notices:has-text('tells you when a game waits on your move')")
    assert page.locator("#ask-notices").count() == 0
    assert vic.errors == []
