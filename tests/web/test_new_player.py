"""The page as a new player finds it: hints marked on the board that go with their position,
Oubliette's movable pieces and where a picked one goes, a move list that says who played
each move and who passed, the board of a room that has not started, every key of the
terminal client (and none while typing), spectators not offered the players' keys, and the
lobby saying who is in a room and when it last moved."""

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from parlour.rules import GAMES, get_game, hexgrid
from parlour.rules.oubliette import OublietteState

from .test_page import Player, create_room, near, open_player

__all__ = ["open_player"]

HINT = [0xFF, 0xD2, 0x1F]
"""The yellow of a hint's mark (COLOURS.hint in boards/palette.js)."""
SMALL = {"rows": "6", "cols": "6", "blocked": "0", "tiles": "2"}
BOARD = 0
"""A 6 by 6 Tribolo board where the first legal move every time soon makes passes."""
NAMES = {"blue": "Ann", "red": "Bea", "green": "Cy"}
PLAYERS_ONLY = ["possible", "best", "suggest", "undo", "new-game", "load", "import"]


def thinking(player: Player) -> str:
    text: str = player.page.locator("#thinking").inner_text()
    return text


def hinted(player: Player) -> set[str]:
    return set(player.hook("room.board.hinted"))


def say(player: Player) -> str:
    text: str = player.page.locator("#error").inner_text()
    return text


def wait_thinking(player: Player, start: str) -> None:
    player.page.wait_for_function(
        "(start) => document.querySelector('#thinking').textContent.startsWith(start)", arg=start
    )


def no_dialog(page: Page) -> bool:
    return page.locator("dialog[open]").count() == 0


def empty_squares(state: dict[str, Any]) -> set[str]:
    return {
        f"{chr(ord('a') + col)}{row + 1}"
        for row, line in enumerate(state["board"])
        for col, char in enumerate(line)
        if char == "."
    }


def test_hints_are_marked_on_the_board_and_go_when_the_position_changes(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    legal = ann.view["state"]["legal_moves"]
    ann.page.keyboard.press("p")
    wait_thinking(ann, "Possible")
    assert thinking(ann) == f"Possible: {', '.join(legal)}"
    assert hinted(ann) == set(legal)
    for square in legal:
        assert near(ann.colour_at(square), HINT), square
    ann.page.locator("#board").screenshot(path=str(output_dir / "new-player-possible.png"))
    ann.page.keyboard.press("B")
    ann.page.click("#unrate-dialog button[value=unrate]")
    wait_thinking(ann, "Best")
    best = thinking(ann).removeprefix("Best: ").split(", ")
    assert best and set(best) <= set(legal)
    assert hinted(ann) == set(best)
    for square in set(legal) - set(best):
        assert not near(ann.colour_at(square), HINT), square
    ann.page.keyboard.press("p")
    wait_thinking(ann, "Possible")
    move = legal[0]
    ann.click_square(move)
    ann.wait("room.view.version >= 1")
    assert thinking(ann) == ""
    assert hinted(ann) == set()
    ann.my_turn()
    still_empty = (set(legal) - {move}) & empty_squares(ann.view["state"])
    assert still_empty
    for square in still_empty:
        assert not near(ann.colour_at(square), HINT), square
    ann.page.keyboard.press("p")
    wait_thinking(ann, "Possible")
    assert hinted(ann)
    version = ann.view["version"]
    ann.page.keyboard.press("u")
    ann.wait("room.view.version > arg && room.view.moves.length === 0", version)
    assert thinking(ann) == ""
    assert hinted(ann) == set()


def oubliette_lines(position: str, moves: list[str]) -> list[tuple[list[str], str]]:
    """Each move's line of cells and direction, as the rules read them."""
    state = GAMES["oubliette"].parse_position(position)
    assert isinstance(state, OublietteState)
    found = []
    for text in moves:
        move = state.parse_move(text)
        found.append(([hexgrid.CELL_NAMES[cell] for cell in move.cells], move.direction))
    return found


def neighbour(cell: str, direction: str) -> str | None:
    after = hexgrid.step(hexgrid.CELL_NAMES.index(cell), direction)
    return None if after is None else hexgrid.CELL_NAMES[after]


def test_oubliette_possible_marks_the_pieces_that_can_move_then_where_one_goes(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "oubliette", {"green": "you", "red": "0"})
    ann.my_turn()
    state = ann.view["state"]
    lines = oubliette_lines(state["position"], state["legal_moves"])
    movable = {cell for line, _ in lines for cell in line}
    assert movable <= set(state["pieces"][state["to_move"]])
    ann.page.keyboard.press("p")
    wait_thinking(ann, "Possible")
    words = thinking(ann)
    assert f"{len(lines)} moves" in words and "pick one" in words
    assert re.search(r"\b[a-i][1-9]\b", words) is None
    assert hinted(ann) == movable
    for cell in movable:
        assert near(ann.colour_at(cell), HINT), cell
    ann.page.locator("#board").screenshot(path=str(output_dir / "new-player-oubliette-pieces.png"))
    piece = next(line[0] for line, _ in lines if len(line) == 1)
    ann.click_square(piece)
    assert ann.hook("room.board.picked") == [piece]
    goes = {
        after
        for line, direction in lines
        if line == [piece] and (after := neighbour(piece, direction)) is not None
    }
    lengthens = {
        cell
        for line, _ in lines
        if piece in line and len(line) > 1
        for cell in line
        if cell != piece and any(neighbour(piece, d) == cell for d in hexgrid.DIRECTIONS)
    }
    assert goes
    assert hinted(ann) == goes | lengthens
    for cell in goes:
        assert near(ann.colour_at(cell), HINT), cell
    ann.page.locator("#board").screenshot(path=str(output_dir / "new-player-oubliette-goes.png"))
    target = sorted(goes)[0]
    ann.click_square(target)
    ann.wait("room.view.version >= 1")
    assert ann.view["moves"][0].startswith(piece)
    assert hinted(ann) == set()
    assert thinking(ann) == ""


def expected_list(moves: int) -> list[str]:
    """The move list of the small Tribolo game for its first `moves` moves, each move as
    "Blue (Ann) d5" and each pass as "Green (Cy) passed"."""
    game = get_game("tribolo")
    options = game.resolve_options({name: int(value) for name, value in SMALL.items()})
    state = game.new(options | {"first": "blue"}, seed=BOARD)
    seats = game.seats
    lines = []
    for _ in range(moves):
        mover = seats[state.to_move]
        move = state.legal_moves()[0]
        text = state.format_move(move)
        state = state.play(move)
        lines.append(f"{mover.capitalize()} ({NAMES[mover]}) {text}")
        lines += [f"{seats[s].capitalize()} ({NAMES[seats[s]]}) passed" for s in state.passed]
    return lines


def move_list(player: Player) -> list[str]:
    texts: list[str] = player.page.locator(".moves li").evaluate_all(
        "items => items.map(item => item.textContent)"
    )
    return texts


def test_the_move_list_says_who_played_each_move_and_who_passed(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "tribolo")
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
    while page.locator(".moves li.pass").count() < 3:
        version = ann.view["version"]
        ann.click_square(ann.view["state"]["legal_moves"][0])
        ann.wait("room.view.version > arg", version)
    made = len(ann.view["moves"])
    wanted = expected_list(made)
    assert move_list(ann) == wanted
    assert any(line.endswith("passed") for line in wanted)
    for seat in ("blue", "red", "green"):
        swatch = page.locator(f".moves li.move[data-seat={seat}] .swatch").first
        background = swatch.evaluate("node => getComputedStyle(node).backgroundColor")
        red, green, blue = (int(part) for part in background[4:-1].split(","))
        assert near([red, green, blue], ann.seat_colour(seat), 2), seat
    page.locator(".side").screenshot(path=str(output_dir / "new-player-move-list.png"))
    page.reload()
    ann.wait("room.view !== null && room.playing().length === 3")
    page.wait_for_function(
        "(count) => document.querySelectorAll('.moves li.move[data-seat]').length === count",
        arg=made,
    )
    assert move_list(ann) == wanted


def test_a_waiting_room_shows_the_board_it_will_play(open_player: Any, output_dir: Path) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.select_option("#game", "tribolo")
    page.select_option("#option-first", "blue")
    link = create_room(ann, "tribolo", {"blue": "you", "red": "open", "green": "easy"})
    assert ann.view["status"] == "waiting" and ann.view["state"] is None
    ann.wait("room.waitingBoard && room.waitingBoard.seen")
    seen = ann.hook("room.waitingBoard.seen")
    asked = {"type": "see", "game": "tribolo", "options": ann.view["options"]}
    again = page.evaluate(
        "(asked) => window.parlour.connection.request(asked)",
        asked | {"board": ann.view["board"]},
    )
    assert seen["board"] == ann.view["board"]
    assert seen["state"]["board"] == again["state"]["board"]
    state = seen["state"]
    seat_of = {letter: seat for seat, letter in state["letters"].items()}
    placed = 0
    for row, line in enumerate(state["board"]):
        for col, char in enumerate(line):
            if char in seat_of:
                square = f"{chr(ord('a') + col)}{row + 1}"
                assert near(ann.colour_at(square), ann.seat_colour(seat_of[char])), square
                placed += 1
    assert placed == sum(line.count(letter) for line in state["board"] for letter in seat_of)
    assert placed >= 3
    caption = page.locator("#board-caption").inner_text()
    assert f"board {ann.view['board']}" in caption and "Blue moves first" in caption
    page.screenshot(path=str(output_dir / "new-player-waiting-room.png"), full_page=True)
    ann.click_square(next(iter(empty_squares(state))))
    assert "not started" in say(ann)
    bob: Player = open_player("Bob")
    bob.page.goto(link)
    bob.wait("room.view !== null && room.waitingBoard && room.waitingBoard.seen")
    assert bob.hook("room.waitingBoard.seen.state.board") == state["board"]
    bob.page.click("button.take[data-colour=red]")
    bob.wait("room.seat === 'red'")
    page.click("[data-action=start]")
    ann.wait("room.view.status === 'playing' && room.view.state !== null")
    started = ann.view
    assert started["state"]["board"] == state["board"]
    assert page.locator("#board-caption").is_hidden()


def test_every_key_of_the_terminal_does_its_job_and_none_while_typing(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "you", "white": "easy"})
    page = ann.page
    ann.my_turn()
    page.click("#chat")
    page.keyboard.type("Play nice: U, N, Q? jump")
    assert page.input_value("#chat") == "Play nice: U, N, Q? jump"
    page.wait_for_timeout(300)
    assert no_dialog(page) and thinking(ann) == "" and ann.view["version"] == 0
    page.press("#chat", "Enter")
    page.wait_for_selector(".talk .chat")
    page.press("#chat", "Escape")

    page.keyboard.press("?")
    keys = page.locator("#keys-dialog")
    keys.wait_for()
    listed = keys.locator("table").first.locator("kbd").all_inner_texts()
    assert listed == list("PBSTUNVLEICARMJQ?")
    assert "Enter" in keys.inner_text() and "←" in keys.inner_text()
    keys.screenshot(path=str(output_dir / "new-player-keys.png"))
    page.keyboard.press("?")
    keys.wait_for(state="detached")
    page.keyboard.press("?")
    keys.wait_for()
    page.keyboard.press("Escape")
    keys.wait_for(state="detached")

    page.keyboard.press("c")
    page.wait_for_selector("dialog >> text=Score card: Othello")
    page.keyboard.press("Escape")
    page.keyboard.press("e")
    assert page.locator("dialog textarea").input_value().startswith('[Game "othello"]')
    page.keyboard.press("Escape")
    page.keyboard.press("v")
    page.wait_for_selector("#save-name")
    page.keyboard.press("Escape")
    page.keyboard.press("i")
    page.wait_for_selector("#import-text")
    page.keyboard.press("Escape")
    page.keyboard.press("l")
    page.wait_for_function(
        "() => document.querySelector('#load-name')"
        " || document.querySelector('#error').textContent.includes('No saved games')"
    )
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    page.keyboard.press("j")
    invite = page.locator("#invite-dialog")
    invite.wait_for()
    assert page.input_value("#invite-link") == link
    assert page.locator("#invite-command").inner_text().startswith("parlour join ")
    invite.screenshot(path=str(output_dir / "new-player-invite.png"))
    page.keyboard.press("Escape")
    sound = page.get_attribute("[data-action=sound]", "aria-pressed")
    page.keyboard.press("m")
    assert page.get_attribute("[data-action=sound]", "aria-pressed") != sound
    page.keyboard.press("t")
    page.wait_for_selector("[data-action=thinking][aria-pressed=true]")
    page.keyboard.press("t")
    page.wait_for_selector("[data-action=thinking][aria-pressed=false]")
    with page.context.expect_page() as opened:
        page.keyboard.press("r")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/othello")
    rules.close()

    rated = ann.view["rated"]
    page.keyboard.press("s")
    if rated:
        page.click("#unrate-dialog button[value=unrate]")
    wait_thinking(ann, "Suggested")
    assert ann.hook("room.board.hinted.length") == 1
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.moves.length >= 2 && room.myTurn()")
    version = ann.view["version"]
    page.keyboard.press("N")
    page.wait_for_selector("dialog >> text=The same seats play again")
    page.keyboard.press("Enter")
    ann.wait("room.view.version > arg && room.view.moves.length === 0", version)
    assert page.locator(".moves li").count() == 0
    ann.my_turn()
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.moves.length >= 2 && room.myTurn()")
    rated = ann.view["rated"]
    page.keyboard.press("U")
    if rated:  # a new game counts again, so taking back a move asks again
        page.click("#unrate-dialog button[value=unrate]")
    ann.wait("room.view.moves.length === 0 && room.myTurn()")

    page.keyboard.press("q")
    leave = page.locator("#leave-dialog")
    leave.wait_for()
    assert leave.locator("button").all_inner_texts() == ["Leave", "Give up my seat", "Stay"]
    leave.locator("button[value=stay]").click()
    leave.wait_for(state="detached")
    assert "/r/" in page.url
    page.keyboard.press("Q")
    leave.locator("button[value=leave]").click()
    page.wait_for_selector(".lobby")
    ref = link.rsplit("/", 1)[1]
    page.wait_for_selector(f"#my-rooms a[data-ref='{ref}']")


def test_arrows_with_nothing_focused_move_the_board_cursor(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    ann.page.evaluate("() => document.activeElement.blur()")
    ann.page.keyboard.press("ArrowRight")
    assert ann.hook("room.board.cursor") == "a1"
    ann.page.keyboard.press("ArrowDown")
    assert ann.hook("room.board.cursor") == "a2"


def test_keys_off_just_now_say_why(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "open", "white": "easy"})
    ann.page.click("button.take[data-colour=black]")
    ann.wait("room.seat === 'black'")
    ann.page.keyboard.press("p")
    assert say(ann) == "The game has not started yet."
    ann.page.keyboard.press("u")
    assert say(ann) == "The game has not started yet."


def test_spectators_are_not_offered_the_players_keys(open_player: Any, output_dir: Path) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    for action in PLAYERS_ONLY:
        assert ann.page.locator(f"[data-action={action}]").is_visible(), action
    cy: Player = open_player("Cy")
    cy.page.goto(link)
    cy.wait("room.view !== null && room.view.state !== null")
    page = cy.page
    for action in PLAYERS_ONLY:
        assert page.locator(f"[data-action={action}]").is_hidden(), action
    for action in ("thinking", "save", "export", "score-card", "sound", "keys"):
        assert page.locator(f"[data-action={action}]").is_visible(), action
    page.keyboard.press("p")
    assert say(cy) == "Only players can ask for hints."
    page.keyboard.press("U")
    assert say(cy) == "Only players can take back their moves."
    page.keyboard.press("n")
    assert say(cy) == "Only players can start a new game."
    page.keyboard.press("l")
    assert say(cy) == "Only players and the host can load a game."
    assert no_dialog(page) and thinking(cy) == ""
    page.keyboard.press("?")
    keys = page.locator("#keys-dialog")
    keys.wait_for()
    listed = keys.locator("table").first.locator("kbd").all_inner_texts()
    assert listed == list("TVECARMJQ?")
    assert "Enter" not in keys.inner_text()
    keys.screenshot(path=str(output_dir / "new-player-spectator-keys.png"))
    page.keyboard.press("Escape")
    page.keyboard.press("c")
    page.wait_for_selector("dialog >> text=Score card: Othello")
    page.keyboard.press("Escape")
    page.keyboard.press("q")
    leave = page.locator("#leave-dialog")
    leave.wait_for()
    assert leave.locator("button").all_inner_texts() == ["Leave", "Stay"]
    page.keyboard.press("Escape")


def test_the_lobby_says_who_is_in_a_room_and_when_it_last_moved(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    page.wait_for_function("() => window.parlour.view.roomsBody")
    rows = page.evaluate(
        """(now) => {
            const seats = [{ colour: "black", holder: { kind: "open" } },
                           { colour: "white", holder: { kind: "bot", level: "easy" } }];
            const base = { game: "othello", host: "Zed", status: "playing", seats };
            const rooms = [
                { ...base, room: "with", people: 3, moved_at: now - 200 },
                { ...base, room: "one", people: 1, moved_at: now - 5 },
                { ...base, room: "without" },
                { ...base, room: "odd", people: null, moved_at: null },
            ];
            const view = window.parlour.view;
            const rows = view.roomRows(rooms);
            view.roomsBody.replaceChildren(...rows);
            return rows.map(row => row.textContent);
        }""",
        time.time(),
    )
    assert "3 people · moved 3 min ago" in rows[0]
    assert "1 person · moved just now" in rows[1]
    for row in rows[2:]:
        assert "people" not in row and "person" not in row and "moved" not in row
        assert "null" not in row and "undefined" not in row and "NaN" not in row
    page.locator(".rooms").screenshot(path=str(output_dir / "new-player-lobby.png"))
    page.evaluate(
        """(then) => {
            document.querySelector("tr[data-room=with] .moved").dataset.at = String(then);
            window.parlour.view.tellTimes();
        }""",
        time.time() - 2 * 3600 - 30,
    )
    assert "moved 2 h ago" in page.locator("tr[data-room=with]").inner_text()
