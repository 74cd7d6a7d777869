"""Seats changing hands in the browser page: taking a seat back from the computer mid-game,
and three people at one page playing Tribolo to the end."""

import re
from typing import Any

from parlour.rules import get_game

from .test_page import Player, create_room, more_options, open_player

__all__ = ["open_player"]

SMALL = {"rows": "6", "cols": "6", "blocked": "0", "tiles": "2"}
BOARD = 0
"""A 6 by 6 board where the first legal move every time makes a game of 30 moves and 15
passes."""


def passes_in_small_game() -> int:
    """The passes in the game played by always taking the first legal move."""
    game = get_game("tribolo")
    options = game.resolve_options({name: int(value) for name, value in SMALL.items()})
    state = game.new(options | {"first": "blue"}, seed=BOARD)
    passes = 0
    while not state.is_over:
        state = state.play(state.legal_moves()[0])
        passes += len(state.passed)
    return passes


def test_a_seat_is_taken_back_from_the_computer_mid_game_and_handed_back(
    open_player: Any,
) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "tribolo", {"blue": "you", "red": "easy", "green": "easy"})
    ann.my_turn()
    before = ann.view["version"]
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.version > arg", before)
    ann.page.click("#change-seats")
    ann.page.select_option("#seats select[data-colour=red]", "human")
    assert (
        "Red changing hands makes this game unrated"
        in ann.page.locator("#unrate-dialog").inner_text()
    )
    ann.page.click("#unrate-dialog button[value=unrate]")
    assert ann.page.input_value("#person-name") == "Ann"
    ann.page.click("text=Sit down")
    ann.wait("room.playing().includes('red')")
    ann.page.wait_for_selector("text=Ann took Red.")
    assert "Red: Ann" in ann.page.locator(".moves .seat-change").last.inner_text()
    ann.wait("room.view.state.to_move === 'red' || room.view.state.to_move === 'blue'")
    if ann.view["state"]["to_move"] == "blue":
        ann.click_square(ann.view["state"]["legal_moves"][0])
        ann.wait("room.view.state.to_move === 'red'")
    assert ann.page.locator("#turn").inner_text() == "Red (Ann) to move: pass the keyboard."
    version = ann.view["version"]
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.version > arg", version)
    assert ann.view["moves"][version] and ann.hook("room.view.seats[1].holder.kind") == "human"
    ann.page.select_option("#seats select[data-colour=red]", "medium")
    ann.wait("room.view.seats[1].holder.kind === 'bot'")
    holder = dict(ann.view["seats"][1]["holder"])
    # The seat carries Ann's player id (protocol.md 2.10): hers, as the welcome said.
    assert holder.pop("player") == ann.hook("window.parlour.connection.player.id")
    assert holder == {
        "kind": "bot",
        "level": "medium",
        "name": "Ann",
        "connected": True,
    }
    ann.page.wait_for_selector("text=Ann handed Red to the computer, level medium.")


def test_three_people_at_one_page_play_tribolo_to_the_end(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "tribolo")
    more_options(page)
    for name, value in SMALL.items():
        page.fill(f"#option-{name}", value)
    page.select_option("#option-first", "blue")
    page.fill("#board", str(BOARD))
    page.select_option("#seat-red", "you")
    page.select_option("#seat-green", "you")
    page.fill("#name-red", "Bea")
    page.fill("#name-green", "Cy")
    create_room(ann, "tribolo", {})
    ann.wait("room.view.status === 'playing' && room.playing().length === 3")
    assert [seat["holder"]["name"] for seat in ann.view["seats"]] == ["Ann", "Bea", "Cy"]
    names = {"blue": "Ann", "red": "Bea", "green": "Cy"}
    while ann.view["status"] == "playing":
        state = ann.view["state"]
        mover = state["to_move"]
        turn = page.locator("#turn").inner_text()
        assert turn == f"{mover.capitalize()} ({names[mover]}) to move: pass the keyboard."
        version = ann.view["version"]
        ann.click_square(state["legal_moves"][0])
        ann.wait("room.view.version > arg", version)
    assert ann.view["state"]["over"] and len(ann.view["moves"]) == 30
    assert page.locator("#error").inner_text() == ""
    passes = page.locator(".talk li", has_text="cannot move and passes.")
    assert passes.count() == passes_in_small_game() == 15
    page.screenshot(path="/tmp/hot-seat-over.png")


def test_a_doublolo_room_made_in_the_lobby_starts_with_a_coin_call(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "doublolo")
    page.select_option("#seat-white", "bot:easy")
    page.click("text=Create room")
    page.wait_for_selector("dialog >> text=Call the coin")
    page.click("dialog button[value=heads]")
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    ann.wait("room.view !== null && room.view.coin !== null && room.view.status === 'playing'")
    coin = ann.view["coin"]
    assert coin["by"] == "red" and coin["call"] == "heads"
    assert coin["first"] == ("red" if coin["landed"] == "heads" else "white")
    assert ann.view["options"]["first"] == coin["first"]
    words = (
        f"Red called heads; it landed {coin['landed']}: {coin['first'].capitalize()} moves first."
    )
    page.wait_for_selector(f".talk li:has-text('{words}')")
    assert page.locator(".talk li", has_text=words).count() == 1


def test_tripppin_tells_the_target_and_the_targets_reached(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "tripppin", {"blue": "you", "grey": "1"})
    ann.wait("room.myTurn()")
    state = ann.view["state"]
    target = state["targets"]["blue"]
    reached = state["progress"]
    turn = ann.page.locator("#turn").inner_text()
    assert turn == f"Your move. Try to reach the flashing frame ({target})."
    scores = ann.page.locator("#seats .score").all_inner_texts()
    assert scores == [f"{reached['blue']} of 5", f"{reached['grey']} of 5"]
    ann.page.screenshot(path="/tmp/tripppin-turn.png")


def test_see_shows_a_named_tribolo_board_before_the_room_is_made(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "tribolo")
    more_options(page)
    page.select_option("#option-board", "walls")
    page.click("#see-board")
    page.wait_for_selector("dialog >> text=The walls board: ")
    page.wait_for_function("() => document.querySelector('#preview canvas').width > 0")
    page.screenshot(path="/tmp/see-walls.png")
    page.click("dialog button[value=close]")
    drawn = page.input_value("#board")
    assert drawn.isdigit()
    create_room(ann, "tribolo", {"blue": "you", "red": "easy", "green": "easy"})
    assert ann.view["board"] == int(drawn) and ann.view["options"]["board"] == "walls"


def test_the_room_links_to_its_games_rules(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "oubliette", {"green": "you", "red": "0"})
    link = ann.page.locator("#rules-link")
    assert link.inner_text() == "How to play Oubliette"
    with ann.page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/oubliette")
    assert rules.locator("h1").inner_text() == "Oubliette"
    assert rules.locator("pre").count() >= 1
    rules.screenshot(path="/tmp/rules-oubliette.png", full_page=True)


def test_the_lobby_lists_your_rooms_and_giving_up_a_seat_leaves_for_good(
    open_player: Any,
) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.uncheck("#public")
    more_options(page)
    page.select_option("#left-seats", "open")
    link = create_room(ann, "othello", {"black": "you", "white": "easy"})
    assert ann.view["left_seats"] == "open"
    ref = link.rsplit("/", 1)[1]
    page.click("text=Back to the lobby")
    page.wait_for_selector(f"#my-rooms a[data-ref='{ref}']")
    assert "Othello" in page.locator("#my-rooms").inner_text()
    assert "private" in page.locator("#my-rooms").inner_text()
    page.click(f"#my-rooms a[data-ref='{ref}']")
    ann.wait("room.view !== null && room.playing().includes('black')")
    page.click("[data-action=give-up]")
    page.keyboard.press("Enter")  # Stay is in focus: Enter keeps the seat
    page.wait_for_selector("dialog[open]", state="detached")
    assert ann.view is not None and "black" in ann.hook("room.playing()")
    page.click("[data-action=give-up]")
    page.click("dialog button[value=yes]")
    page.wait_for_selector(".lobby")
    page.wait_for_timeout(300)
    assert page.locator(f"#my-rooms a[data-ref='{ref}']").count() == 0
    assert page.evaluate("() => localStorage.getItem('parlour.seats')").find(ref) == -1


def test_an_oubliette_board_set_up_in_the_editor_is_played(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "oubliette")
    more_options(page)
    page.click("#edit-board")
    page.wait_for_selector("dialog[data-ready=yes]")

    shown = "() => Number(document.querySelector('#editor-board').dataset.shown)"

    def click_cell(cell: str) -> None:
        """Click `cell` on the editor's board and wait until the server has read it back."""
        before = page.evaluate(shown)
        centre = page.evaluate(
            "(cell) => document.querySelector('dialog').board.cellCentre(cell)", cell
        )
        page.mouse.click(centre["x"], centre["y"])
        page.wait_for_function(f"() => ({shown})() > {before}")

    click_cell("e5")  # the hole becomes a block
    click_cell("a1")  # a green piece becomes red
    page.click("#editor-mover")
    page.wait_for_selector("#editor-mover >> text=Red moves first")
    page.screenshot(path="/tmp/editor.png")
    page.click("dialog button[value=use]")
    # The dialog closes in a task of its own: the position comes after the click.
    page.wait_for_function("() => document.querySelector('#position').value !== ''")
    position = page.input_value("#position")
    rows = position.split(" ")[0].split("/")
    assert rows[4] == "....#...." and rows[8] == "RGGGG"
    assert position.split(" ")[1] == "R"
    create_room(ann, "oubliette", {"green": "you", "red": "0"})
    assert ann.view["position"] == position
    assert ann.view["state"]["blocks"] == ["e5"] and ann.view["state"]["holes"] == []


NEAR_THE_END = "B.WWW.WB/WBWWWWBB/WWBBWBWB/WWBWBWBB/WWBWWWWB/.WWWWW../WWBBWWW./..BWWWWW B"
"""An Othello position a few moves from the end, Black to move: a game of its own (the
`custom` board), whose card no other test's games reach."""


def test_a_new_best_score_asks_for_initials_in_the_browser(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "othello")
    more_options(page)
    page.fill("#position", NEAR_THE_END)
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.play_out()
    page.wait_for_selector("#game-over #initials-form")
    page.fill("#initials", "aj")
    page.click("#initials-keep")
    page.wait_for_selector("#initials-form", state="detached")
    page.wait_for_selector(".talk li:has-text('Kept on the score card: AJ.')")
    page.click("[data-action=score-card]")
    assert "by Ann (AJ)" in page.locator("dialog").inner_text()


def test_computers_play_each_other_while_the_page_watches(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "easy", "white": "easy"})
    assert ann.hook("room.playing()") == [] and ann.view["yours"] == []
    ann.wait("room.view.status === 'finished'")
    assert len(ann.view["moves"]) >= 20
    turn = ann.page.locator("#turn").inner_text()
    assert turn.startswith("The computer (easy) (Black) ") or turn.startswith(
        "The computer (easy) (White) "
    ), turn
    assert " won, " in turn or " tied, " in turn, turn
