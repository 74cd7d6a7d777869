"""Typing in a room is talking, never a command: sentences typed on the board, on a button
just pressed, on a seat's menu or after a dialog closed all arrive as chat for the other
player, while the rated game stays rated, no dialog opens, nobody leaves and the page sends
the server nothing but chat."""

from typing import Any

from playwright.sync_api import Page

from .test_page import Player, create_room, open_player, take_seat

__all__ = ["open_player"]

SENTENCES = ["Sorry, my cat walked on the keys", "so close! gg", "Quit it, you", "yes"]


class Sent:
    """The requests a page makes of the server from now on."""

    def __init__(self, page: Page) -> None:
        self.page = page
        page.evaluate(
            """() => {
                const connection = window.parlour.connection;
                const request = connection.request.bind(connection);
                window.sent = [];
                connection.request = (message) => {
                    window.sent.push(message);
                    return request(message);
                };
            }"""
        )

    @property
    def messages(self) -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = self.page.evaluate("() => window.sent")
        return sent

    def types(self) -> set[str]:
        return {message["type"] for message in self.messages}


def rated_game(open_player: Any) -> tuple[Player, Player, str]:
    """Ann (Black) and Bob (White), each with a player key, in a rated Othello game begun."""
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "you", "white": "open"})
    bob: Player = open_player("Bob")
    take_seat(bob, link, "white")
    ann.page.click("[data-action=start]")
    ann.my_turn()
    assert ann.view["rated"] is True
    return ann, bob, link


def said(player: Player, line: str) -> None:
    """Wait until `line` is in the player's chat."""
    player.page.locator(".talk li.chat", has_text=line).wait_for()


def still_playing(player: Player, link: str) -> None:
    """The rated game goes on: rated, no dialog open, the player in the room at their seat."""
    page = player.page
    assert page.locator("dialog[open]").count() == 0
    assert page.url == link and player.hook("room.playing().length") == 1
    view = player.view
    assert view["rated"] is True and view["status"] == "playing"
    assert player.page.locator("#thinking").inner_text() == ""


def test_sentences_typed_anywhere_in_a_rated_game_are_chat(open_player: Any) -> None:
    ann, bob, link = rated_game(open_player)
    page = ann.page
    sent = Sent(page)
    page.locator("#board canvas").focus()
    # On the board: the first letter takes the focus to the chat box, with the letter.
    page.keyboard.type(SENTENCES[0])
    assert page.input_value("#chat") == SENTENCES[0]
    assert page.evaluate("() => document.activeElement.id") == "chat"
    page.keyboard.press("Enter")
    said(bob, f"Ann (Black): {SENTENCES[0]}")
    # Enter sent it and gave the board its focus back, for the arrows and Enter.
    assert page.input_value("#chat") == ""
    assert page.evaluate("() => document.activeElement.tagName") == "CANVAS"
    page.keyboard.type(SENTENCES[1])
    page.keyboard.press("Enter")
    said(bob, f"Ann (Black): {SENTENCES[1]}")
    still_playing(ann, link)

    # On a button just pressed: the sentence is chat, and the button is not pressed again.
    page.click("[data-action=thinking]")
    page.wait_for_selector("[data-action=thinking][aria-pressed=true]")
    page.keyboard.type(SENTENCES[2])
    page.keyboard.press("Enter")
    said(bob, f"Ann (Black): {SENTENCES[2]}")
    assert page.get_attribute("[data-action=thinking]", "aria-pressed") == "true"

    # After a dialog closed, the focus back on the button that opened it.
    page.click("[data-action=score-card]")
    page.wait_for_selector("dialog >> text=Score card: Othello")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog", state="detached")
    page.keyboard.type(SENTENCES[3])
    page.keyboard.press("Enter")
    said(bob, f"Ann (Black): {SENTENCES[3]}")

    # On a seat's menu: letters pick no holder (a computer would unrate the game).
    page.click("#change-seats")
    page.locator("#seats select[data-colour=black]").focus()
    page.keyboard.type("computer, please")
    assert page.input_value("#chat") == "computer, please"
    page.keyboard.press("Escape")
    assert ann.view["seats"][0]["holder"]["kind"] == "human"

    # Shift, Alt (Option types letters on a Mac) and a space: all text, none a command;
    # typed with the move list shown, the chat comes back to show it.
    page.click("#moves-tab")
    assert page.locator("#chat").is_hidden()
    page.locator("#board canvas").focus()
    for key in ["Alt+b", "Shift+S", "Shift+Q", " ", "Shift+U"]:
        page.keyboard.press(key)
    assert page.input_value("#chat") == "computer, pleasebSQ U"
    assert page.locator("#chat").is_visible()
    assert page.get_attribute("#chat-tab", "aria-selected") == "true"
    page.keyboard.press("Enter")
    said(bob, "Ann (Black): computer, pleasebSQ U")
    still_playing(ann, link)
    assert sent.types() <= {"chat", "show_thinking", "score_card"}, sent.types()
    assert [m["text"] for m in sent.messages if m["type"] == "chat"] == [
        *SENTENCES[:3],
        SENTENCES[3],
        "computer, pleasebSQ U",
    ]
    # The board still plays by the keyboard: arrows move its cursor, Enter plays.
    page.locator("#board canvas").focus()
    page.keyboard.press("ArrowRight")
    cursor = ann.hook("room.board.cursor")
    assert cursor is not None
    assert ann.hook("room.view.version") == 0
    still_playing(bob, bob.page.url)


def test_what_is_typed_while_a_question_is_open_waits_in_the_chat_box(
    open_player: Any,
) -> None:
    ann, bob, link = rated_game(open_player)
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.moves.length === 1")
    bob.page.locator("#board canvas").focus()
    bob.page.keyboard.type("one")
    # Ann asks for a new game: Bob's page asks him, over the room.
    ann.page.click("[data-action=new-game]")
    ann.page.click("dialog button[value=start]")
    bob.page.wait_for_selector("dialog >> text=asks to start a new game")
    bob.page.keyboard.type(" moment")
    assert bob.page.locator("dialog[open]").count() == 1
    bob.page.click("dialog button[value=no]")
    bob.page.wait_for_selector("dialog", state="detached")
    assert bob.page.input_value("#chat") == "one moment"
    bob.page.keyboard.press("Enter")
    said(ann, "Bob (White): one moment")
    still_playing(ann, link)


def test_a_reload_keeps_what_was_said_and_done(open_player: Any) -> None:
    ann, bob, _link = rated_game(open_player)
    page = ann.page
    page.fill("#chat", "good luck")
    page.keyboard.press("Enter")
    said(bob, "Ann (Black): good luck")
    bob.page.fill("#chat", "so close! gg")
    bob.page.keyboard.press("Enter")
    said(ann, "Bob (White): so close! gg")
    page.reload()
    ann.my_turn()
    lines = page.locator(".talk li").all_inner_texts()
    wanted = ["Ann (Black): good luck", "Bob (White): so close! gg"]
    assert [line for line in lines if line in wanted] == wanted, lines
    assert any("moves first" in line for line in lines), lines
