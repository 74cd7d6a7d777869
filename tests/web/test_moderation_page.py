"""Keeping a table civil in the browser (protocol.md 2.14) and claiming a game (2.7), against a
real server whose data directory the tests read: a watcher told they watch, their lines
kept from a player until the player shows them; a mute that hides a person's later lines; a
block, a report, sending a watcher out and opening a seat, each asked first with Enter
changing nothing; a player the operators barred told so; and the one who stayed claiming
the game once the computer stands in for the other."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from parlour.cli import main
from parlour.protocol.players import player_id
from parlour.server import operators

from .conftest import serving
from .test_endings_page import focused, move
from .test_page import KEYS, Player, create_room, more_options, remember_key, take_seat
from .test_typing import Sent

WAIT_MS = 8_000


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's records, which the operators' commands read and write."""
    return tmp_path_factory.mktemp("moderation")


@pytest.fixture(scope="module")
def site(data_dir: Path) -> Iterator[str]:
    """A `parlour serve` of this module's own, over `data_dir`."""
    yield from serving("--data-dir", str(data_dir))


@pytest.fixture
def open_player(browser: Browser, site: str) -> Iterator[Any]:
    """Open the lobby as a person with a player key of their own (a browser of their own)."""
    contexts = []
    players: list[Player] = []

    def open_as(name: str, width: int = 1280, height: int = 800) -> Player:
        context = browser.new_context(viewport={"width": width, "height": height})
        remember_key(context, name)
        contexts.append(context)
        player = Player(context.new_page())
        player.page.set_default_timeout(WAIT_MS)
        players.append(player)
        player.page.goto(f"{site}/")
        player.page.fill("#name", name)
        player.page.click("text=Continue")
        player.page.wait_for_selector(".lobby")
        return player

    yield open_as
    for player in players:
        assert player.errors == []
    for context in contexts:
        context.close()


def watch(player: Player, link: str) -> None:
    """Open a room's link and watch it."""
    player.page.goto(link)
    player.wait("room.view !== null")


def say(player: Player, text: str) -> None:
    """Type `text` anywhere on the page and send it with Enter."""
    player.page.evaluate("() => document.activeElement?.blur()")
    player.page.keyboard.type(text)
    player.page.keyboard.press("Enter")
    player.page.locator("li.chat", has_text=text).first.wait_for()


def players_chat(player: Player) -> str:
    return player.page.locator(".talk").inner_text()


def asked_about(player: Player, where: str, name: str) -> None:
    """Click `name` where it is shown and wait for the question about them."""
    player.page.click(f"{where} button.person[data-person='{name}']")
    player.page.locator("#person-dialog").wait_for()


def enter_changes_nothing(player: Player, dialog: str, safe: str, sent: Sent) -> None:
    """The question `dialog` has `safe` in focus: Enter closes it and sends nothing."""
    player.page.locator(dialog).wait_for()
    assert focused(player) == safe
    player.page.keyboard.press("Enter")
    player.page.locator(dialog).wait_for(state="detached")
    assert sent.messages == []


def a_room_with_a_watcher(
    open_player: Any, host: str, seated: str, watcher: str
) -> tuple[Player, Player, Player, str]:
    """`host` at Black and `seated` at White of an Othello room not begun, `watcher` watching."""
    ann: Player = open_player(host)
    link = create_room(ann, "othello", {"black": "you", "white": "open"})
    bob: Player = open_player(seated)
    take_seat(bob, link, "white")
    zed: Player = open_player(watcher)
    watch(zed, link)
    ann.wait("(room.view.watchers ?? []).some((w) => w.name === arg)", watcher)
    return ann, bob, zed, link


def test_a_watcher_is_told_and_their_lines_reach_a_player_who_shows_them(open_player: Any) -> None:
    ann, bob, zed, _link = a_room_with_a_watcher(open_player, "Ann", "Bob", "Zed")
    assert (
        zed.page.locator("#watching-note").inner_text()
        == "You are watching this game, not playing."
    )
    assert ann.page.locator("#watching-note").is_hidden()
    assert ann.page.locator("#watchers").inner_text() == "Watching: Zed"
    assert zed.page.locator("#watchers").inner_text() == "Watching: you"
    say(zed, "go bob go")
    watched = zed.page.locator("#watchers-chat li.chat")
    assert watched.inner_text() == "Zed: go bob go"
    assert "go bob go" not in players_chat(zed)
    toggle = bob.page.locator("#show-watchers")
    bob.page.wait_for_function(
        "() => document.querySelector('#show-watchers').textContent.endsWith('(1)')"
    )
    assert toggle.get_attribute("aria-pressed") == "false"
    assert bob.page.locator("#watchers-chat").is_hidden()
    assert "go bob go" not in players_chat(bob)
    toggle.click()
    assert bob.page.locator("#watchers-chat li.chat").inner_text() == "Zed: go bob go"
    assert "go bob go" not in players_chat(bob)
    say(bob, "thanks")
    zed.page.locator(".talk li.chat", has_text="Bob (White): thanks").wait_for()
    bob.page.reload()
    bob.wait("room.view !== null")
    bob.page.locator("#watchers-chat li.chat", has_text="go bob go").wait_for()
    assert bob.page.locator("#show-watchers").get_attribute("aria-pressed") == "true"
    assert ann.page.locator("#watchers-chat").is_hidden(), "Ann did not choose to see them"


def test_a_mute_hides_a_persons_lines_and_marks_them(open_player: Any) -> None:
    ann, bob, _zed, _link = a_room_with_a_watcher(open_player, "Ada", "Bea", "Yan")
    say(bob, "before the mute")
    ann.page.locator(".talk li.chat", has_text="before the mute").wait_for()
    sent = Sent(ann.page)
    asked_about(ann, "#seats", "Bea")
    assert ann.page.locator("#person-dialog p").first.inner_text() == "Bea plays White."
    enter_changes_nothing(ann, "#person-dialog", "close", sent)
    asked_about(ann, "#seats", "Bea")
    ann.page.click("#person-dialog button[value=mute]")
    ann.page.locator("#seats", has_text="Bea (muted)").wait_for()
    assert sent.messages == [
        {"type": "mute", "name": "Bea", "player": player_id(KEYS["Bea"]), "on": True}
    ]
    assert ann.page.locator(".talk li.chat", has_text="before the mute").is_hidden()
    say(bob, "after the mute")
    say(ann, "anyone there")
    assert "after the mute" not in players_chat(ann)
    asked_about(ann, "#seats", "Bea")
    assert "You mute them" in ann.page.locator("#person-dialog").inner_text()
    ann.page.click("#person-dialog button[value=unmute]")
    ann.page.locator(".talk li.chat", has_text="before the mute").wait_for()
    say(bob, "heard again")
    ann.page.locator(".talk li.chat", has_text="heard again").wait_for()
    assert "(muted)" not in ann.page.locator("#seats").inner_text()


def test_a_block_is_asked_first_and_keeps_the_person_from_the_seats(open_player: Any) -> None:
    cy: Player = open_player("Cy")
    link = create_room(cy, "othello", {"black": "you", "white": "open"})
    xia: Player = open_player("Xia")
    watch(xia, link)
    cy.wait("(room.view.watchers ?? []).length === 1")
    sent = Sent(cy.page)
    asked_about(cy, "#watchers", "Xia")
    cy.page.click("#person-dialog button[value=block]")
    question = cy.page.locator("#block-dialog")
    assert question.locator("p").first.inner_text() == (
        "They cannot sit at your tables, and you will not see their chat."
    )
    enter_changes_nothing(cy, "#block-dialog", "keep", sent)
    asked_about(cy, "#watchers", "Xia")
    cy.page.click("#person-dialog button[value=block]")
    cy.page.click("#block-dialog button[value=block]")
    cy.page.locator("#watchers", has_text="Xia (blocked)").wait_for()
    assert sent.messages[-1] == {
        "type": "block",
        "name": "Xia",
        "player": player_id(KEYS["Xia"]),
        "on": True,
    }
    xia.page.click("button.take[data-colour=white]")
    xia.page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert xia.page.locator("#error").inner_text() == (
        "A person in this room has blocked you: you cannot sit here, though you may watch."
    )
    assert xia.view["you"] is None
    cy.page.goto(cy.page.url.split("/r/")[0] + "/#account")
    listed = cy.page.locator("#standing-list li[data-person=Xia]")
    assert listed.inner_text() == "Xia blocked Unblock"
    listed.locator("button[data-lift=block]").click()
    cy.page.locator("#standing-none").wait_for()
    assert cy.hook("window.parlour.connection.blocked") == []
    xia.page.click("button.take[data-colour=white]")
    xia.wait("room.seat === 'white'")


def test_a_report_is_sent_with_the_reason_typed(open_player: Any, data_dir: Path) -> None:
    dee: Player = open_player("Dee")
    link = create_room(dee, "othello", {"black": "you", "white": "easy"})
    wes: Player = open_player("Wes")
    watch(wes, link)
    say(wes, "you all stink")
    dee.page.locator("#watchers-chat li.chat", has_text="you all stink").wait_for(state="attached")
    dee.page.click("#show-watchers")
    sent = Sent(dee.page)
    asked_about(dee, "#watchers-chat", "Wes")
    dee.page.click("#person-dialog button[value=report]")
    dialog = dee.page.locator("#report-dialog")
    dialog.wait_for()
    send = dialog.locator("button[value=send]")
    assert dee.page.evaluate("() => document.activeElement.id") == "report-reason"
    assert send.is_disabled()
    dee.page.keyboard.type("insults the players")
    dee.page.keyboard.press("Enter")
    dee.page.keyboard.type("from the watchers")
    assert dialog.is_visible() and sent.messages == [], "Enter in the reason sends nothing"
    send.click()
    dee.page.locator(
        ".talk li.note", has_text="Your report of Wes went to the server's operators."
    ).wait_for()
    assert sent.messages == [
        {
            "type": "report",
            "room": dee.hook("room.ref"),
            "name": "Wes",
            "player": player_id(KEYS["Wes"]),
            "reason": "insults the players from the watchers",
        }
    ]
    report = operators.reports(data_dir, None, 10)[0]
    assert (report["by_name"], report["reason"]) == (
        "Dee",
        "insults the players from the watchers",
    )
    assert [line["text"] for line in report["chat"]] == ["you all stink"]


def test_the_host_sends_a_watcher_out_and_opens_a_seat_before_the_start(open_player: Any) -> None:
    eve, fay, vic, link = a_room_with_a_watcher(open_player, "Eve", "Fay", "Vic")
    sent = Sent(eve.page)
    asked_about(eve, "#watchers", "Vic")
    eve.page.click("#person-dialog button[value=send-out]")
    assert eve.page.locator("#send-out-dialog p").inner_text() == (
        "Vic stops watching this room, and may not watch it or sit in it again while it lasts."
    )
    enter_changes_nothing(eve, "#send-out-dialog", "keep", sent)
    asked_about(eve, "#watchers", "Vic")
    eve.page.click("#person-dialog button[value=send-out]")
    eve.page.click("#send-out-dialog button[value=send]")
    vic.page.locator("#told").wait_for()
    assert vic.page.locator("#told").inner_text() == "The host sent you out of this room."
    assert vic.page.locator(".lobby").is_visible()
    eve.page.locator("#watchers").wait_for(state="hidden")
    assert sent.messages == [
        {"type": "remove_watcher", "room": eve.hook("room.ref"), "name": "Vic"}
    ]
    vic.page.goto(link)
    vic.page.locator("#shut-out").wait_for()
    assert vic.page.locator("#shut-out").inner_text() == (
        "The host sent you out of this room. You cannot watch it or sit in it again."
    )
    sent = Sent(eve.page)
    asked_about(eve, "#seats", "Fay")
    eve.page.click("#person-dialog button[value=open-seat]")
    enter_changes_nothing(eve, "#open-seat-dialog", "keep", sent)
    asked_about(eve, "#seats", "Fay")
    eve.page.click("#person-dialog button[value=open-seat]")
    eve.page.click("#open-seat-dialog button[value=open]")
    fay.wait("room.view.seats[1].holder.kind === 'open' && room.yours().length === 0")
    fay.page.locator("#error", has_text="The host opened your seat, White").wait_for()
    assert fay.page.locator("#watching-note").inner_text() == (
        "You are watching this game, not playing. Take a free colour to play."
    )
    fay.page.locator("button.take[data-colour=white]").wait_for()


def test_a_player_the_operators_barred_is_told_why(
    open_player: Any, browser: Browser, site: str, data_dir: Path
) -> None:
    uma: Player = open_player("Uma")
    uma.page.context.close()
    assert (
        main(["bar", player_id(KEYS["Uma"]), "--data-dir", str(data_dir), "--reason", "cheating"])
        == 0
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        remember_key(context, "Uma")
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"{site}/")
        page.fill("#name", "Uma")
        page.click("text=Continue")
        page.locator("#barred").wait_for()
        assert page.locator("#barred").inner_text() == (
            "This server's operators have barred you from it: cheating."
        )
        assert page.locator("#name").count() == 0, "the name was not the trouble"
    finally:
        context.close()


def test_the_one_who_stayed_claims_the_game_once_the_computer_stands_in(open_player: Any) -> None:
    gus: Player = open_player("Gus")
    page = gus.page
    more_options(page)
    page.fill("#standin", "1")
    link = create_room(gus, "othello", {"black": "you", "white": "open"})
    hal: Player = open_player("Hal")
    take_seat(hal, link, "white")
    page.click("[data-action=start]")
    move(gus)
    move(hal)
    assert page.locator("[data-action=claim]").is_hidden()
    hal.page.close()
    gus.wait("room.view.seats[1].holder.kind === 'standin'")
    page.locator("[data-action=claim]").wait_for()
    page.locator(".talk li.note", has_text="Hal is away, the computer playing for them").wait_for()
    sent = Sent(page)
    page.click("[data-action=claim]")
    assert (
        page.locator("#claim-dialog p").inner_text() == "Hal is away; you win and the game counts."
    )
    enter_changes_nothing(gus, "#claim-dialog", "keep", sent)
    version = gus.view["version"]
    page.click("[data-action=claim]")
    page.click("#claim-dialog button[value=claim]")
    gus.wait("room.view.ended === 'claimed'")
    line = "Black (Gus) claimed the game: White (Hal) was away and finishes last."
    assert page.locator("#turn").inner_text() == line
    assert page.locator("#game-over #ending").inner_text() == line
    assert sent.messages == [{"type": "claim", "room": gus.hook("room.ref"), "version": version}]
    page.reload()
    gus.wait("room.view !== null")
    page.locator(
        ".talk li.note", has_text="Gus (Black) claimed the game while everyone else was away."
    ).wait_for()
