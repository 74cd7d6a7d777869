"""The page at a desktop's 1280 by 800 and a phone's 390 by 844, from the lobby to a game's
end: what a player needs is on the first screen without scrolling (on a desktop the chat
beside the board, on a phone the board, the seats with their scores and whose turn it is;
at the end the rating changes, with nothing over the final position). Screenshots of every
step are saved for a person to look at."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page

from .test_page import Player, create_room, more_options, open_player, remember_key

__all__ = ["open_player"]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
NEAR_THE_END = {"tiles": "40", "blocked": "40"}
"""Tribolo's own 11 by 16 board, dealt so full (120 tiles, 40 grey squares) that a game
lasts some 15 moves, Blue's first: the screens of a whole game, soon over, and rated."""


@pytest.fixture(params=sorted(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser, site: str) -> Iterator[Player]:
    """A player's page at one of the sizes, in the lobby, scrolled to the top."""
    label: str = request.param
    width, height = SIZES[label]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=label == "phone"
    )
    name = f"Zoe{label[0].upper()}"
    remember_key(context, name)
    player = Player(context.new_page())
    player.page.goto(f"{site}/")
    player.page.fill("#name", name)
    player.page.click("text=Continue")
    player.page.wait_for_selector(".lobby")
    player.page.evaluate("(label) => { document.body.dataset.size = label; }", label)
    yield player
    assert player.errors == []
    context.close()


def size_of(page: Page) -> str:
    label: str = page.evaluate("() => document.body.dataset.size")
    return label


def on_first_screen(page: Page, locator: Locator) -> bool:
    """Whether the element is wholly in the viewport with the page scrolled to the top."""
    page.evaluate("() => window.scrollTo(0, 0)")
    box = locator.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and box["y"] + box["height"] <= viewport["height"] + 0.5
    )


def shoot(page: Page, output_dir: Path, step: str) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(output_dir / f"screens-{size_of(page)}-{step}.png"))


def overlaps(first: Locator, second: Locator) -> bool:
    a, b = first.bounding_box(), second.bounding_box()
    assert a is not None and b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_page_from_the_lobby_to_a_games_end_fits_each_screen(
    sized: Player, output_dir: Path
) -> None:
    player = sized
    page = player.page
    phone = size_of(page) == "phone"
    shoot(page, output_dir, "1-lobby")
    if not phone:
        # Who plays and Create come first: no scrolling to make a room.
        assert on_first_screen(page, page.locator("#create-room"))
        assert page.locator("#option-rows").is_hidden()
    page.select_option("#game", "tribolo")
    page.select_option("#seat-red", "open")
    page.locator(".new-room").scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / f"screens-{size_of(page)}-2-new-room.png"))
    more_options(page)
    for name, value in NEAR_THE_END.items():
        page.fill(f"#option-{name}", value)
    page.select_option("#option-first", "blue")
    create_room(player, "tribolo", {"blue": "you", "red": "open", "green": "easy"})
    player.wait("room.waitingBoard && room.waitingBoard.seen")
    shoot(page, output_dir, "3-waiting")
    for shown in ["#turn", "#board canvas", "#seats li[data-colour=green]"]:
        assert on_first_screen(page, page.locator(shown)), shown
    page.click("[data-action=fill]")
    player.wait("room.view.seats.every((seat) => seat.holder.kind !== 'open')")
    page.click("[data-action=start]")
    player.my_turn()
    shoot(page, output_dir, "4-playing")
    first_screen = [
        "#turn",
        "#board canvas",
        *(f"#seats li[data-colour={c}] .score" for c in ("blue", "red", "green")),
    ]
    if not phone:
        first_screen += ["#chat", "[data-action=possible]", "[data-action=save]"]
        board = page.locator("#board canvas").bounding_box()
        chat = page.locator("#chat").bounding_box()
        assert board is not None and chat is not None and chat["x"] > board["x"] + board["width"]
    for shown in first_screen:
        assert on_first_screen(page, page.locator(shown)), shown
    player.play_out()
    player.wait("room.view.rating_changes")
    page.wait_for_timeout(300)
    shoot(page, output_dir, "5-over")
    assert page.locator("dialog[open]").count() == 0
    initials = page.locator("#initials-form")
    if initials.count():
        assert not overlaps(initials, page.locator("#board canvas"))
    first_screen = ["#turn", "#board canvas", "[data-action=rematch]"]
    first_screen += [
        f"#seats li[data-colour={c}] .rating-change" for c in ("blue", "red", "green")
    ]
    if not phone:
        first_screen.append("#chat")
    for shown in first_screen:
        assert on_first_screen(page, page.locator(shown)), shown
    turn = page.locator("#turn").inner_text()
    assert " won" in turn or " tied" in turn, turn


def test_the_pages_words_count_one_thing_as_one(open_player: Any) -> None:
    """ "1 game", never "1 games": the page's words for counts, and its result sentences."""
    player: Player = open_player("Ann")
    words: dict[str, Any] = player.page.evaluate(
        """async () => {
            const main = document.querySelector("script[type=module]").src;
            const w = await import(main.replace("main.js", "words.js"));
            const seats = [
                { colour: "black", holder: { kind: "human", name: "Ann" } },
                { colour: "white", holder: { kind: "human", name: "Bob" } },
            ];
            const three = [
                { colour: "blue", holder: { kind: "human", name: "Ann" } },
                { colour: "red", holder: { kind: "bot", level: "easy" } },
                { colour: "green", holder: { kind: "bot", level: "easy" } },
            ];
            return {
                counts: [[1, "game"], [2, "game"], [0, "move"], [1, "day"]].map(
                    ([n, noun]) => w.count(n, noun)),
                two: w.resultText({ winners: ["black"], scores: { black: 34, white: 30 } },
                    seats),
                tie: w.resultText({ winners: ["black", "white"],
                    scores: { black: 32, white: 32 } }, seats),
                three: w.resultText({ winners: ["red"],
                    scores: { blue: 20, red: 40, green: 12 } }, three),
                ago: [w.agoText(-85400, 1e6), w.agoText(1000 - 3 * 86400, 1e6)],
            };
        }"""
    )
    assert words["counts"] == ["1 game", "2 games", "0 moves", "1 day"]
    assert words["two"] == "Ann won, 34 to 30."
    assert words["tie"] == "Ann and Bob tied, 32 to 32."
    assert words["three"] == (
        "The computer (easy) (Red) won with 40; Ann 20, the computer (easy) (Green) 12."
    )
    assert words["ago"] == ["24 h ago", "3 days ago"]
