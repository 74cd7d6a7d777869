"""The New room form as a newcomer meets it: the game, who plays and Create first, the board's
options folded away, how a start of one's own is written said on the page; and, live as the
choices change and before Create, whether the game will be rated and if not why, as the
server then finds it (protocol.md 2.10)."""

from typing import Any

from playwright.sync_api import Page

from .test_page import Player, create_room, more_options, open_player

__all__ = ["open_player"]


def outlook(page: Page) -> tuple[bool, str]:
    """Whether the form says the game will be rated, and its words."""
    box = page.locator("#rated-outlook")
    return box.get_attribute("data-rated") == "true", box.inner_text()


def test_the_form_says_before_creation_why_a_game_would_be_friendly(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "tribolo")
    rated, words = outlook(page)
    assert rated and words.startswith("Rated: the game will count"), words
    assert page.locator("#option-rows").is_hidden()

    # Two seats at this screen: the second person plays as a guest.
    page.select_option("#seat-red", "you")
    page.fill("#name-red", "Bea")
    rated, words = outlook(page)
    assert not rated
    assert "Bea (Red) plays at this screen as a guest" in words
    assert "a game shared at one screen is a friendly game" in words
    page.select_option("#seat-red", "bot:easy")
    assert outlook(page)[0]

    page.uncheck("#rated")
    rated, words = outlook(page)
    assert not rated and "The Rated box is not ticked." in words
    page.check("#rated")
    page.select_option("#seat-blue", "bot:easy")
    rated, words = outlook(page)
    assert not rated and "No person plays" in words
    page.select_option("#seat-blue", "open")
    rated, words = outlook(page)
    assert rated and "The open seat counts if whoever takes it comes with a player key" in words
    page.select_option("#seat-blue", "you")

    # A start of one's own: how it is written is on the page, and this board's start to edit.
    more_options(page)
    help_text = page.locator("#position-help").inner_text()
    assert "README" not in page.locator(".new-room").inner_text()
    assert "joined by “/”" in help_text and "initial of the seat that moves first" in help_text
    page.click("#start-position")
    page.wait_for_function("() => document.querySelector('#position').value !== ''")
    rated, words = outlook(page)
    assert not rated and "It starts from a position of your own" in words
    page.fill("#position", "")
    assert outlook(page)[0]


def test_the_room_made_is_rated_as_the_form_said(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "othello")
    page.select_option("#seat-white", "you")
    page.fill("#name-white", "Bea")
    rated, words = outlook(page)
    assert not rated and "Bea (White) plays at this screen as a guest" in words
    create_room(ann, "othello", {})
    ann.wait("room.view.status === 'playing'")
    view = ann.view
    assert view["rated"] is False
    assert view["unrated"] == "Bea plays at Ann's screen (hot-seat games are friendly)"
    page.click("text=Back to the lobby")
    page.wait_for_selector(".lobby")
    page.select_option("#game", "othello")
    assert outlook(page)[0]
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    assert ann.view["rated"] is True
