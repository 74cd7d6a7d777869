"""Ending a game on purpose in the browser (protocol.md 2.7): Resign and Abort ask first with
Keep playing in focus, a draw offer is a question whose Decline Enter gives, as is a rematch
asked after the end; both pages then say how the game ended, in the result line, on the
game-over card and in the live region."""

from typing import Any

from .test_page import Player, create_room, open_player
from .test_typing import Sent, rated_game

__all__ = ["open_player"]


def listen(player: Player) -> None:
    """Keep every line the page says in its live region from now on."""
    player.page.evaluate(
        """() => {
            window.announced = [];
            new MutationObserver((changes) => changes.forEach((change) =>
                change.addedNodes.forEach((node) => window.announced.push(node.textContent))
            )).observe(document.getElementById("announcer"), { childList: true });
        }"""
    )


def announced(player: Player, line: str) -> None:
    """Wait until the page has said `line` in its live region."""
    player.page.wait_for_function("(line) => window.announced.includes(line)", arg=line)


def logged(player: Player, line: str) -> None:
    """Wait until `line` is in the page's log."""
    player.page.locator(".talk li.note", has_text=line).wait_for()


def move(player: Player) -> None:
    """Play the first legal move on this page's turn."""
    player.my_turn()
    version = player.view["version"]
    player.click_square(player.view["state"]["legal_moves"][0])
    player.wait("room.view.version > arg", version)


def shown(player: Player) -> dict[str, bool]:
    """Which of the game's ending commands the page shows."""
    return {
        action: player.page.locator(f"[data-action={action}]").is_visible()
        for action in ("offer-draw", "resign", "abort")
    }


def focused(player: Player) -> str:
    """The value of the dialog button in focus."""
    value: str = player.page.evaluate("() => document.activeElement.value ?? ''")
    return value


def ended(player: Player, ending: str, line: str) -> None:
    """Wait until the page shows the game over as `ending`, saying `line` in its result line
    and on its game-over card."""
    player.wait("room.view.status === 'finished' && room.view.ended === arg", ending)
    page = player.page
    assert page.locator("#turn").inner_text() == line
    assert page.locator("#game-over #ending").inner_text() == line
    assert page.locator("[data-action=resign]").is_hidden()


def test_resigning_asks_first_and_both_pages_say_who_won(open_player: Any) -> None:
    ann, bob, _link = rated_game(open_player)
    move(ann)
    move(bob)
    for player in (ann, bob):
        player.wait("!room.abortable()")
        assert shown(player) == {"offer-draw": True, "resign": True, "abort": False}
        listen(player)
    sent = Sent(ann.page)
    version = ann.view["version"]
    page = ann.page
    page.click("[data-action=resign]")
    question = page.locator("#resign-dialog")
    assert question.locator("h2").inner_text() == "Resign this game?"
    assert question.locator("p").inner_text() == (
        "White (Bob) wins, and the game counts for both ratings."
    )
    assert focused(ann) == "keep"
    page.keyboard.press("Enter")
    question.wait_for(state="detached")
    assert sent.types() == set()
    assert ann.view["status"] == "playing"
    page.click("[data-action=resign]")
    page.click("#resign-dialog button[value=resign]")
    line = "Black (Ann) resigned: White (Bob) wins."
    for player in (ann, bob):
        ended(player, "resigned", line)
        assert player.view["resigned"] == ["black"]
        logged(player, "Ann (Black) resigned.")
        announced(player, line)
    assert [message for message in sent.messages if message["type"] == "resign"] == [
        {"type": "resign", "room": ann.hook("room.ref"), "version": version, "seat": "black"}
    ]


def test_a_game_nobody_has_moved_in_is_aborted_for_nobody(open_player: Any) -> None:
    ann, bob, _link = rated_game(open_player)
    for player in (ann, bob):
        player.wait("room.abortable()")
        assert shown(player) == {"offer-draw": True, "resign": False, "abort": True}
        draw = player.page.locator("[data-action=offer-draw]")
        assert draw.get_attribute("aria-disabled") == "true", "nothing played to agree on"
        listen(player)
    sent = Sent(bob.page)
    page = bob.page
    page.click("[data-action=abort]")
    question = page.locator("#abort-dialog")
    assert question.locator("p").inner_text() == "The game ends now and counts for nobody."
    assert focused(bob) == "keep"
    page.keyboard.press("Enter")
    question.wait_for(state="detached")
    assert sent.types() == set()
    page.click("[data-action=abort]")
    page.click("#abort-dialog button[value=abort]")
    line = "Aborted: the game counts for nobody."
    for player in (ann, bob):
        ended(player, "aborted", line)
        announced(player, line)
        assert player.page.locator("#game-over").inner_text().count("rating") == 0
        assert player.page.locator("#rated").inner_text() == "Aborted: not rated"
    assert sent.messages == [{"type": "abort", "room": bob.hook("room.ref"), "version": 0}]


def test_a_draw_declined_by_enter_then_agreed_and_a_rematch_declined_by_enter(
    open_player: Any,
) -> None:
    ann, bob, _link = rated_game(open_player)
    move(ann)
    move(bob)
    for player in (ann, bob):
        player.wait("!room.abortable()")
        listen(player)
    ann.page.click("[data-action=offer-draw]")
    logged(ann, "You offered a draw; waiting for an answer.")
    question = bob.page.locator("#proposal-dialog")
    question.wait_for()
    assert question.locator("p").first.inner_text() == "Black offers a draw. Agree?"
    announced(bob, "Black offers a draw. Agree?")
    assert focused(bob) == "no"
    bob.page.keyboard.press("Enter")
    question.wait_for(state="detached")
    for player in (ann, bob):
        logged(player, "White declined the draw.")
        announced(player, "White declined the draw.")
        assert player.view["status"] == "playing"
    ann.page.click("[data-action=offer-draw]")
    question.wait_for()
    question.locator("button[value=yes]").click()
    for player in (ann, bob):
        ended(player, "agreed", "Drawn by agreement.")
        logged(player, "A draw was agreed.")
        announced(player, "Drawn by agreement.")
        assert sorted(player.view["winners"]) == ["black", "white"]
    # A rematch asked after the end is a question too, declined by Enter.
    ann.page.click("[data-action=rematch]")
    question.wait_for()
    asked = "Black asks to play again, everyone one seat on. Agree?"
    assert question.locator("p").first.inner_text() == asked
    assert focused(bob) == "no"
    bob.page.keyboard.press("Enter")
    for player, seat in ((ann, "black"), (bob, "white")):
        logged(player, "White declined to play a rematch.")
        assert player.view["status"] == "finished"
        assert player.hook("room.playing()") == [seat]


def test_a_draw_is_off_with_nobody_else_seated(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    button = ann.page.locator("[data-action=offer-draw]")
    assert button.get_attribute("aria-disabled") == "true"
    reason = "Nobody else is seated to agree a draw: the computer accepts none."
    assert ann.page.locator("#why-offer-draw").text_content() == reason
    assert reason in ann.page.locator("#why-game").inner_text()
    sent = Sent(ann.page)
    button.click(force=True)  # off, not disabled: pressed, it says why
    assert ann.page.locator("#error").inner_text() == reason
    assert sent.types() == set()


THREE = [
    {"colour": "blue", "holder": {"kind": "human", "name": "Ann"}},
    {"colour": "red", "holder": {"kind": "human", "name": "Bob"}},
    {"colour": "green", "holder": {"kind": "bot", "level": "easy"}},
]


def test_three_seats_are_worded_as_three(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    said = ann.page.evaluate(
        """async (seats) => {
            const main = document.querySelector("script[type=module]").src;
            const words = await import(main.replace("main.js", "words.js"));
            const draw = { kind: "draw", by: "blue" };
            const rematch = { kind: "new_game", by: "red", rotate: true };
            const over = { over: true, winners: ["red"], scores: { blue: 20, red: 30, green: 9 } };
            const ended = (how, more = {}) =>
                words.endingText({ status: "finished", ended: how, seats, state: over, ...more });
            return [
                words.resignText({ seats, rated: true, resigned: [], flagged: [] }, "blue"),
                words.resignText({ seats, rated: false, resigned: ["green"] }, "blue"),
                words.proposalQuestion(draw, { seats: 3 }),
                words.proposalQuestion(rematch, { seats: 3 }),
                ended("played", { absent: ["blue"] }),
                ended("agreed"),
            ];
        }""",
        THREE,
    )
    assert said == [
        "You finish last; the computer plays your seat on and the game still counts for the"
        " others.",
        "Red (Bob) wins, and the game is not rated.",
        "Blue asks to end the game now, ranked by the scores as they stand. Agree?",
        "Red asks to play again, everyone one seat on. Agree?",
        "Bob won with 30; Ann 20, the computer (easy) 9. Blue (Ann) was away at the end and"
        " finishes last.",
        "Ended by agreement: Bob won with 30; Ann 20, the computer (easy) 9.",
    ]
