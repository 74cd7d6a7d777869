"""The page as a new player finds it: hints marked on the board that go with their position,
Oubliette's movable pieces and where a picked one goes, a move list that says who played
each move and who passed, the board of a room that has not started, every command a button
in its group (a button off just now saying why, spectators not shown the players'), and
the lobby saying who is in a room and when it was made and last moved."""

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from parlour.rules import GAMES, get_game, hexgrid
from parlour.rules.oubliette import OublietteState

from .test_page import Player, create_room, more_options, near, open_player

__all__ = ["open_player"]

HINT = [0xFF, 0xD2, 0x1F]
"""The yellow of a hint's mark (COLOURS.hint in boards/palette.js)."""
SMALL = {"rows": "6", "cols": "6", "blocked": "0", "tiles": "2"}
BOARD = 0
"""A 6 by 6 Tribolo board where the first legal move every time soon makes passes."""
NAMES = {"blue": "Ann", "red": "Rae", "green": "Gus"}
"""Names no other test of this module's server uses: a name someone has played under is
theirs, and is not given to a person at another's screen."""
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
    ann.page.click("[data-action=possible]")
    wait_thinking(ann, "Possible")
    assert thinking(ann) == f"Possible: {', '.join(legal)}"
    assert hinted(ann) == set(legal)
    for square in legal:
        assert near(ann.colour_at(square), HINT), square
    ann.page.locator("#board").screenshot(path=str(output_dir / "new-player-possible.png"))
    ann.page.click("[data-action=best]")
    ann.page.click("#unrate-dialog button[value=unrate]")
    wait_thinking(ann, "Best")
    best = thinking(ann).removeprefix("Best: ").split(", ")
    assert best and set(best) <= set(legal)
    assert hinted(ann) == set(best)
    for square in set(legal) - set(best):
        assert not near(ann.colour_at(square), HINT), square
    ann.page.click("[data-action=possible]")
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
    ann.page.click("[data-action=possible]")
    wait_thinking(ann, "Possible")
    assert hinted(ann)
    version = ann.view["version"]
    ann.page.click("[data-action=undo]")
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
    ann.page.click("[data-action=possible]")
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
    more_options(page)
    for name, value in SMALL.items():
        page.fill(f"#option-{name}", value)
    page.select_option("#option-first", "blue")
    page.fill("#board", str(BOARD))
    page.select_option("#seat-red", "you")
    page.select_option("#seat-green", "you")
    page.fill("#name-red", NAMES["red"])
    page.fill("#name-green", NAMES["green"])
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
    page.click("#moves-tab")
    page.locator(".talk-box").screenshot(path=str(output_dir / "new-player-move-list.png"))
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
    more_options(page)
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


def test_every_command_is_a_button_in_its_group_and_does_its_job(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "you", "white": "easy"})
    page = ann.page
    ann.my_turn()
    groups = {
        name: page.locator(f".control-group.{name} [data-action]:visible").evaluate_all(
            "nodes => nodes.map(node => node.dataset.action)"
        )
        for name in ("hints", "game", "files")
    }
    assert groups == {
        "hints": ["possible", "best", "suggest", "thinking"],
        "game": ["undo", "offer-draw", "abort", "new-game", "score-card", "replay"],
        "files": ["save", "load", "export", "import"],
    }
    page.locator(".side").screenshot(path=str(output_dir / "new-player-controls.png"))

    page.click("[data-action=score-card]")
    page.wait_for_selector("dialog >> text=Score card: Othello")
    page.keyboard.press("Escape")
    page.click("[data-action=export]")
    assert page.locator("dialog textarea").input_value().startswith('[Game "othello"]')
    page.keyboard.press("Escape")
    page.click("[data-action=save]")
    page.wait_for_selector("#save-name")
    page.keyboard.press("Escape")
    page.click("[data-action=import]")
    page.wait_for_selector("#import-text")
    page.keyboard.press("Escape")
    page.click("[data-action=load]")
    page.wait_for_function(
        "() => document.querySelector('#load-name')"
        " || document.querySelector('#error').textContent.includes('No saved games')"
    )
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    page.click("[data-action=invite]")
    invite = page.locator("#invite-dialog")
    invite.wait_for()
    assert page.input_value("#invite-link") == link
    assert page.locator("#invite-command").inner_text().startswith("parlour join ")
    invite.screenshot(path=str(output_dir / "new-player-invite.png"))
    page.keyboard.press("Escape")
    sound = page.get_attribute("[data-action=sound]", "aria-pressed")
    page.click("[data-action=sound]")
    assert page.get_attribute("[data-action=sound]", "aria-pressed") != sound
    page.click("[data-action=thinking]")
    page.wait_for_selector("[data-action=thinking][aria-pressed=true]")
    page.click("[data-action=thinking]")
    page.wait_for_selector("[data-action=thinking][aria-pressed=false]")
    with page.context.expect_page() as opened:
        page.click("#rules-link")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/othello")
    rules.close()

    page.click("[data-action=suggest]")
    page.click("#unrate-dialog button[value=unrate]")
    wait_thinking(ann, "Suggested")
    assert ann.hook("room.board.hinted.length") == 1
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.moves.length >= 2 && room.myTurn()")
    version = ann.view["version"]
    page.click("[data-action=new-game]")
    page.wait_for_selector("dialog >> text=The same seats play again")
    page.keyboard.press("Enter")
    ann.wait("room.view.version > arg && room.view.moves.length === 0", version)
    assert page.locator(".moves li").count() == 0
    ann.my_turn()
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.moves.length >= 2 && room.myTurn()")
    rated = ann.view["rated"]
    page.click("[data-action=undo]")
    if rated:  # a new game counts again, so taking back a move asks again
        page.click("#unrate-dialog button[value=unrate]")
    ann.wait("room.view.moves.length === 0 && room.myTurn()")
    page.click("text=Back to the lobby")
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


def reason(page: Page, action: str) -> str:
    """Why a command's button is off, as its tooltip says it, after checking that screen
    readers are told the same; "" for a button that works."""
    button = page.locator(f"[data-action={action}]")
    if button.get_attribute("aria-disabled") != "true":
        assert button.get_attribute("aria-describedby") is None
        return ""
    title = button.get_attribute("title") or ""
    described = button.get_attribute("aria-describedby") or ""
    assert page.locator(f"#{described}").text_content() == title
    return title


def test_buttons_off_just_now_say_why(open_player: Any, output_dir: Path) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "open", "white": "easy"})
    page = ann.page
    # The host of a room with a seat open: Start says what is missing, Fill works.
    assert "1 seat still open" in reason(page, "start")
    assert reason(page, "fill") == ""
    assert "1 seat still open" in page.locator("#why-setup").inner_text()
    page.click("button.take[data-colour=black]")
    ann.wait("room.seat === 'black'")
    assert reason(page, "start") == ""
    assert reason(page, "fill") == "Every seat is taken."
    for action in ("possible", "best", "suggest"):
        assert reason(page, action) == "The game has not started yet."
    assert page.locator("#why-hints").inner_text() == "The game has not started yet."
    # Commands for a game under way are not shown before it starts.
    for action in ("undo", "replay", "save", "export", "load", "import"):
        assert page.locator(f"[data-action={action}]").is_hidden(), action
    page.screenshot(path=str(output_dir / "new-player-waiting-commands.png"))
    # Pressed anyway (Playwright would wait for it to work): it says why, and does nothing.
    page.click("[data-action=possible]", force=True)
    assert say(ann) == "The game has not started yet."
    assert no_dialog(page) and thinking(ann) == ""
    page.click("[data-action=start]")
    ann.wait("room.view.status === 'playing'")
    ann.wait("room.view.state.to_move === 'black'")
    assert reason(page, "possible") == ""
    assert reason(page, "undo") == "No move to take back yet."
    ann.click_square(ann.view["state"]["legal_moves"][0])
    ann.wait("room.view.moves.length >= 1")
    # Whose turn it is and what the button says, read together: the bot may move between.
    to_move, title = page.evaluate(
        "() => [window.parlour.view.view.state.to_move,"
        " document.querySelector('[data-action=best]').getAttribute('title')]"
    )
    if to_move == "white":
        assert title == "Hints are for your own turn."
    ann.my_turn()
    assert reason(page, "undo") == ""


def test_spectators_are_not_shown_the_players_commands(open_player: Any, output_dir: Path) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    for action in PLAYERS_ONLY:
        assert ann.page.locator(f"[data-action={action}]").is_visible(), action
    cy: Player = open_player("Cy")
    cy.page.goto(link)
    cy.wait("room.view !== null && room.view.state !== null")
    page = cy.page
    for action in [*PLAYERS_ONLY, "give-up", "start", "fill"]:
        assert page.locator(f"[data-action={action}]").is_hidden(), action
    for action in ("thinking", "save", "export", "score-card", "replay", "sound", "invite"):
        assert page.locator(f"[data-action={action}]").is_visible(), action
    assert page.locator("#change-seats").is_hidden()
    page.locator(".side").screenshot(path=str(output_dir / "new-player-spectator.png"))
    page.click("[data-action=score-card]")
    page.wait_for_selector("dialog >> text=Score card: Othello")
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
                { ...base, room: "odd", people: null, moved_at: null, created_at: null },
                { ...base, room: "made", people: 2, created_at: now - 7200, moved_at: now - 7200 },
                { ...base, room: "both", people: 2, created_at: now - 600, moved_at: now - 65 },
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
    for row in rows[2:4]:
        assert "people" not in row and "person" not in row and "moved" not in row
        assert "made" not in row
    for row in rows:
        assert "null" not in row and "undefined" not in row and "NaN" not in row
        assert "computer, level easy" in row and "open" in row
    # A room nobody has moved in yet says only when it was made.
    assert "2 people · made 2 h ago" in rows[4] and "moved" not in rows[4]
    assert "2 people · made 10 min ago · moved 1 min ago" in rows[5]
    page.locator(".rooms").screenshot(path=str(output_dir / "new-player-lobby.png"))
    page.evaluate(
        """(then) => {
            document.querySelector("tr[data-room=with] .moved").dataset.at = String(then);
            window.parlour.view.tellTimes();
        }""",
        time.time() - 2 * 3600 - 30,
    )
    assert "moved 2 h ago" in page.locator("tr[data-room=with]").inner_text()


def test_two_rooms_of_one_game_are_told_apart_in_the_lobby(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    first = create_room(ann, "tribolo", {"blue": "you", "red": "open", "green": "easy"})
    ann.page.click("text=Back to the lobby")
    ann.page.wait_for_selector(".lobby")
    second = create_room(ann, "tribolo", {"blue": "you", "red": "medium", "green": "open"})
    refs = [link.rsplit("/", 1)[1] for link in (first, second)]
    bea: Player = open_player("Bea")
    listed = bea.page.evaluate("() => window.parlour.connection.request({type: 'list_rooms'})")
    # When a room was made, where the server says (protocol.md 2.2), else when it moved.
    made = all("created_at" in room for room in listed["rooms"])
    when = "made just now" if made else "moved just now"
    others = [("open", "computer, level easy"), ("computer, level medium", "open")]
    for ref, holders in zip(refs, others, strict=True):
        row = bea.page.locator(f"tr[data-room='{ref}']")
        row.wait_for()
        who = row.locator("td.who").inner_text()
        assert who.startswith("Ann") and all(other in who for other in holders), who
        assert when in row.inner_text()
    ann.page.click("text=Back to the lobby")
    mine = ann.page.locator("#my-rooms")
    for ref in refs:
        mine.locator(f"a[data-ref='{ref}']").wait_for()
    ann.page.wait_for_function(
        "() => [...document.querySelectorAll('#my-rooms li')]"
        ".every(li => li.textContent.includes(' with '))"
    )
    items = {
        ref: mine.locator("li", has=ann.page.locator(f"a[data-ref='{ref}']")).inner_text()
        for ref in refs
    }
    assert "you play Blue with" in items[refs[0]]
    assert "computer, level easy" in items[refs[0]] and "medium" not in items[refs[0]]
    assert "computer, level medium" in items[refs[1]] and "easy" not in items[refs[1]]
    for item in items.values():
        assert "waiting for 1 player" in item and when in item
    assert items[refs[0]] != items[refs[1]]
    ann.page.locator("#my-games").screenshot(path=str(output_dir / "new-player-my-rooms.png"))
