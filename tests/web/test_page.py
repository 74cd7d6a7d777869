"""The browser page against a real server: the lobby, a room made and played with clicks, a
friend joining through the room link, a reload keeping the seat, a refused click changing
nothing, and every game's board drawn (screenshots saved for a person to look at)."""

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from parlour.protocol.players import new_key
from parlour.rules import GAMES

LEVELS = {"tribolo": "easy", "numlo": "easy", "doublolo": "easy", "othello": "easy"}
WEAKEST = {**LEVELS, "tripppin": "1", "oubliette": "0"}
WAIT_MS = 20_000
KEYS: dict[str, str] = {}
"""One player key a name, for every test: a name belongs to the player who chose it
(protocol.md 2.10), so the Ann of one test is the Ann of the next, in a browser of her own."""


def remember_key(context: BrowserContext, name: str) -> str:
    """Have the page in `context` find the player key of `name` kept, as if it had made it
    on an earlier visit; the key."""
    key = KEYS.setdefault(name, new_key())
    context.add_init_script(
        "try { if (!localStorage.getItem('parlour.key')) "
        f"localStorage.setItem('parlour.key', {json.dumps(json.dumps(key))}); }} catch {{}}"
    )
    return key


class Player:
    """One person's browser page, with the page's own hooks (`window.parlour`) at hand."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.set_default_timeout(WAIT_MS)

    ROOM = "const room = window.parlour.view;"

    def hook(self, script: str, arg: Any = None) -> Any:
        """The value of `script` (a function of the room view and `arg`) in the page."""
        return self.page.evaluate(f"([arg]) => {{ {self.ROOM} return ({script}); }}", [arg])

    def wait(self, script: str, arg: Any = None) -> None:
        self.page.wait_for_function(
            f"([arg]) => {{ {self.ROOM} return Boolean(room && ({script})); }}",
            arg=[arg],
        )

    @property
    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.hook("room.view")
        return view

    def click_square(self, square: str) -> None:
        centre = self.hook("room.board.cellCentre(arg)", square)
        self.page.mouse.click(centre["x"], centre["y"])

    def play_out(self) -> None:
        """Play the first legal move on every turn of this page's until the game is over."""
        while True:
            self.wait("room.myTurn() || room.view.status === 'finished'")
            if self.view["status"] == "finished":
                return
            version = self.view["version"]
            self.click_square(self.view["state"]["legal_moves"][0])
            self.wait("room.view.version > arg", version)

    def colour_at(self, square: str) -> list[int]:
        colour: list[int] = self.hook("room.board.colourAt(arg)", square)
        return colour

    def seat_colour(self, seat: str) -> list[int]:
        """The seat's colour as the page draws its pieces, as red, green and blue."""
        text: str = self.page.evaluate(
            """async (seat) => {
                const main = document.querySelector("script[type=module]").src;
                const { SEAT_COLOURS } = await import(main.replace("main.js", "boards/view.js"));
                return SEAT_COLOURS[seat];
            }""",
            seat,
        )
        return [int(text[i : i + 2], 16) for i in (1, 3, 5)]

    def my_turn(self) -> None:
        self.wait("room.myTurn() && room.view.state.legal_moves.length > 0")

    def helped(self, action: str) -> None:
        """Press `action`'s button (the computer's help, or an undo), saying yes where the
        page first asks whether to make the rated game unrated."""
        rated = self.view["rated"] and self.view["status"] == "playing"
        self.page.click(f"[data-action={action}]")
        if rated:
            self.page.click("#unrate-dialog button[value=unrate]")


def near(colour: list[int], expected: list[int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


@pytest.fixture
def open_player(browser: Browser, site: str) -> Iterator[Any]:
    """Open the lobby as a new person (a browser of their own) who gives their name."""
    contexts = []
    players: list[Player] = []

    def open_as(name: str) -> Player:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        remember_key(context, name)
        contexts.append(context)
        player = Player(context.new_page())
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


def more_options(page: Page) -> None:
    """Unfold the New room form's board and other options, folded at first."""
    if not page.locator("#more-options").evaluate("details => details.open"):
        page.click("#more-options summary")


def create_room(player: Player, game: str, seats: Mapping[str, str]) -> str:
    """Fill in the lobby's form and create the room: `seats` maps colours to `you`, `open` or
    a bot level. Returns the room's link."""
    page = player.page
    if page.input_value("#game") != game:
        page.select_option("#game", game)
    for colour, choice in seats.items():
        page.select_option(
            f"#seat-{colour}", choice if choice in ("you", "open") else f"bot:{choice}"
        )
    page.click("text=Create room")
    if game == "doublolo" and "you" in seats.values():
        page.click("dialog button[value=heads]")
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    player.wait("room.view !== null")
    return page.url


def take_seat(player: Player, link: str, colour: str) -> None:
    """Open a room's link and take the seat `colour` with one click."""
    player.page.goto(link)
    player.wait("room.view !== null")
    player.page.click(f"button.take[data-colour={colour}]")
    player.wait("room.seat === arg", colour)


def test_a_room_made_in_the_lobby_is_played_by_clicking_its_squares(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "tribolo", {"blue": "you", "red": "easy", "green": "easy"})
    assert ann.view["status"] == "playing" and ann.hook("room.seat") == "blue"
    ann.my_turn()
    before = ann.view
    move = before["state"]["legal_moves"][0]
    ann.page.evaluate(
        """() => {
            window.announced = [];
            new MutationObserver((changes) => changes.forEach((change) =>
                change.addedNodes.forEach((node) => window.announced.push(node.textContent))
            )).observe(document.getElementById("announcer"), { childList: true });
        }"""
    )
    ann.click_square(move)
    ann.wait("room.view.version > arg", before["version"])
    after = ann.view
    assert after["moves"][: before["version"] + 1] == [*before["moves"], move]
    assert ann.page.locator("#error").inner_text() == ""
    ann.my_turn()
    state = ann.view["state"]
    row, col = int(move[1:]) - 1, ord(move[0]) - ord("a")
    holder = {letter: seat for seat, letter in state["letters"].items()}[state["board"][row][col]]
    assert near(ann.colour_at(move), ann.seat_colour(holder))
    announced = ann.page.evaluate("() => window.announced")
    assert any(line.startswith(f"Blue played {move}") for line in announced), announced


def test_an_illegal_click_shows_the_servers_words_and_changes_nothing(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    before = ann.view
    occupied = "d4"
    ann.click_square(occupied)
    ann.page.wait_for_function("() => document.querySelector('#error').textContent !== ''")
    assert "not" in ann.page.locator("#error").inner_text().lower()
    assert ann.view == before
    legal = before["state"]["legal_moves"][0]
    ann.click_square(legal)
    ann.wait("room.view.version > arg", before["version"])
    assert ann.view["moves"][0] == legal


def test_a_friend_joins_by_the_link_both_see_the_moves_and_a_reload_keeps_the_seat(
    open_player: Any,
) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "tribolo", {"blue": "you", "red": "open", "green": "easy"})
    assert ann.view["status"] == "waiting"
    bob: Player = open_player("Bob")
    take_seat(bob, link, "red")
    ann.wait("room.view.seats[1].holder.kind === 'human'")
    assert "Bob" in ann.page.locator("#seats").inner_text()
    ann.page.click("[data-action=start]")
    for _ in range(3):
        for player in (ann, bob):
            player.wait("room.view.status === 'playing'")
        mover = next(
            (
                p
                for p in (ann, bob)
                if p.hook("room.myTurn() && room.view.state.legal_moves.length > 0")
            ),
            None,
        )
        if mover is None:
            ann.wait("room.myTurn() || (room.view.state.to_move === 'red')")
            continue
        version = mover.view["version"]
        mover.click_square(mover.view["state"]["legal_moves"][0])
        mover.wait("room.view.version > arg", version)
    version = ann.view["version"]
    assert version >= 3
    bob.wait("room.view.version >= arg", version)
    ann.wait("room.view.version >= arg", bob.view["version"])
    assert ann.view["moves"][:version] == bob.view["moves"][:version]
    bob.page.reload()
    bob.wait("room.view !== null && room.seat === 'red'")
    assert bob.page.locator("#name").count() == 0
    assert bob.view["moves"][:version] == ann.view["moves"][:version]


START_SEATS = {
    "tribolo": "blue",
    "numlo": "blue",
    "doublolo": "red",
    "othello": "black",
    "tripppin": "blue",
    "oubliette": "green",
}


def pieces(game: str, state: Mapping[str, Any]) -> dict[str, str]:
    """A square holding a piece of each seat, by seat."""
    if game == "tripppin":
        return dict(state["pieces"])
    if game == "oubliette":
        return {seat: cells[0] for seat, cells in state["pieces"].items() if cells}
    found: dict[str, str] = {}
    seat_of = {letter: seat for seat, letter in state["letters"].items()}
    for row, line in enumerate(state["board"]):
        for col, char in enumerate(line):
            if char in seat_of:
                found.setdefault(seat_of[char], f"{chr(ord('a') + col)}{row + 1}")
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_board_draws_its_pieces_in_their_colours(
    open_player: Any, output_dir: Path, game: str
) -> None:
    ann: Player = open_player("Ann")
    seats = {colour: WEAKEST[game] for colour in GAMES[game].seats}
    seats[START_SEATS[game]] = "you"
    create_room(ann, game, seats)
    ann.my_turn()
    ann.page.wait_for_timeout(600)
    state = ann.view["state"]
    found = pieces(game, state)
    assert set(found) == set(GAMES[game].seats)
    for seat, square in found.items():
        assert near(ann.colour_at(square), ann.seat_colour(seat)), (seat, square)
    ann.page.locator("#board").screenshot(path=str(output_dir / f"page-{game}.png"))


def arrow_towards(cursor: str | None, target: str) -> str:
    """The arrow key that brings a grid cursor a step nearer `target`."""
    if cursor is None:
        return "ArrowRight"
    if cursor[0] != target[0]:
        return "ArrowRight" if cursor[0] < target[0] else "ArrowLeft"
    return "ArrowDown" if int(cursor[1:]) < int(target[1:]) else "ArrowUp"


def test_the_hints_undo_and_keyboard_play_in_a_room(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    legal = ann.view["state"]["legal_moves"]
    ann.page.click("[data-action=possible]")
    ann.page.wait_for_function(
        "() => document.querySelector('#thinking').textContent.startsWith('Possible')"
    )
    assert ann.page.locator("#thinking").inner_text() == f"Possible: {', '.join(legal)}"
    assert ann.view["rated"]
    ann.page.click("[data-action=best]")
    words = ann.page.locator("#unrate-dialog p").inner_text()
    assert words.startswith("The best move makes this game unrated for its player (Ann)")
    ann.page.keyboard.press("Enter")  # a sentence's Enter keeps it rated
    ann.page.wait_for_selector("#unrate-dialog", state="detached")
    assert ann.view["rated"] and "Best" not in ann.page.locator("#thinking").inner_text()
    ann.page.click("[data-action=best]")
    ann.page.click("#unrate-dialog button[value=unrate]")
    ann.wait("!room.view.rated")
    ann.page.wait_for_function(
        "() => document.querySelector('#thinking').textContent.startsWith('Best')"
    )
    best = ann.page.locator("#thinking").inner_text().removeprefix("Best: ").split(", ")
    assert best and set(best) <= set(legal)
    ann.page.click("[data-action=suggest]")
    ann.page.wait_for_function(
        "() => document.querySelector('#thinking').textContent.startsWith('Suggested')"
    )
    assert ann.page.locator("#thinking").inner_text().split()[1] in legal
    ann.hook("room.board.focus()")
    target = legal[-1]
    for _ in range(30):
        cursor = ann.hook("room.board.cursor")
        if cursor == target:
            break
        ann.page.keyboard.press(arrow_towards(cursor, target))
    assert ann.hook("room.board.cursor") == target
    ann.page.keyboard.press("Enter")
    ann.wait("room.view.version >= 2")
    assert ann.view["moves"][0] == target
    ann.my_turn()
    ann.page.click("[data-action=undo]")
    ann.wait("room.view.moves.length === 0 && room.myTurn()")
    assert ann.view["moves"] == []


def test_chat_consent_saves_files_and_the_score_card(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "you", "white": "open"})
    bob: Player = open_player("Bob")
    take_seat(bob, link, "white")
    ann.page.click("[data-action=start]")
    ann.my_turn()
    ann.page.fill("#chat", "good luck")
    ann.page.press("#chat", "Enter")
    bob.page.wait_for_selector(".log .chat")
    assert bob.page.locator(".log .chat").inner_text() == "Ann (Black): good luck"
    ann.page.click("[data-action=save]")
    ann.page.fill("#save-name", "opening")
    ann.page.click("dialog button[value=save]")
    ann.page.wait_for_function(
        "() => document.querySelector('#error').textContent.includes('opening')"
    )
    bob.page.click("[data-action=export]")
    text = bob.page.locator("dialog textarea").input_value()
    assert text.startswith('[Game "othello"]')
    bob.page.click("dialog button[value=close]")
    # Saved games are kept per player (protocol.md 2.10): Ann's, not Bob's.
    bob.page.click("[data-action=load]")
    bob.page.wait_for_function(
        "() => document.querySelector('#error').textContent.startsWith('No saved games')"
    )
    ann.page.click("[data-action=load]")
    assert "opening" in ann.page.locator("#load-name").inner_text()
    ann.page.click("dialog button[value=cancel]")
    bob.page.click("[data-action=score-card]")
    assert "Score card: Othello" in bob.page.locator("dialog h2").inner_text()
    assert bob.page.locator("dialog table.card").count() == 2
    assert "finished on the standard board" in bob.page.locator("dialog").inner_text()
    bob.page.click("dialog button[value=every]")
    bob.page.wait_for_selector("dialog >> text=finished on every board")
    bob.page.click("dialog button[value=close]")
    move = ann.view["state"]["legal_moves"][0]
    ann.click_square(move)
    bob.wait("room.view.moves.length === 1")
    ann.helped("undo")
    bob.page.wait_for_selector("dialog")
    assert "Black asks to take back a move" in bob.page.locator("dialog").inner_text()
    bob.page.click("dialog button[value=yes]")
    ann.wait("room.view.moves.length === 0 && room.myTurn()")
    assert "Everyone agreed to take back a move." in ann.page.locator(".talk").inner_text()
    ann.page.click("[data-action=sound]")
    assert ann.page.get_attribute("[data-action=sound]", "aria-pressed") == "false"
    assert ann.page.evaluate("() => localStorage.getItem('parlour.sound')") == "false"


def test_a_phone_sized_screen_shows_the_whole_board_and_takes_taps(
    browser: Browser, site: str, output_dir: Path
) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=3, has_touch=True
    )
    remember_key(context, "Cy")
    player = Player(context.new_page())
    player.page.goto(f"{site}/")
    player.page.fill("#name", "Cy")
    player.page.click("text=Continue")
    player.page.wait_for_selector(".lobby")
    create_room(player, "tribolo", {"blue": "you", "red": "easy", "green": "easy"})
    player.my_turn()
    box = player.page.locator("#board canvas").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert player.hook("document.querySelector('#board canvas').width") >= 3 * box["width"] - 3
    version = player.view["version"]
    move = player.view["state"]["legal_moves"][0]
    centre = player.hook("room.board.cellCentre(arg)", move)
    player.page.touchscreen.tap(centre["x"], centre["y"])
    player.wait("room.view.version > arg", version)
    assert player.view["moves"][version] == move
    player.page.screenshot(path=str(output_dir / "page-phone.png"), full_page=True)
    assert player.errors == []
    context.close()


def test_a_dropped_connection_comes_back_to_the_seat_by_itself(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    ann.page.evaluate("() => window.parlour.connection.socket.close()")
    ann.page.wait_for_function(
        "() => document.querySelector('#connection').dataset.state === 'lost'"
    )
    ann.page.wait_for_function(
        "() => document.querySelector('#connection').dataset.state === 'open'"
    )
    ann.my_turn()
    version = ann.view["version"]
    move = ann.view["state"]["legal_moves"][0]
    ann.click_square(move)
    ann.wait("room.view.version > arg", version)
    assert ann.view["moves"][version] == move


def test_show_thinking_tells_what_the_computer_is_thinking(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "open", "white": "medium"})
    ann.page.click("[data-action=thinking]")
    ann.page.wait_for_selector("[data-action=thinking][aria-pressed=true]")
    bob: Player = open_player("Bob")
    take_seat(bob, link, "black")
    ann.page.click("[data-action=start]")
    bob.my_turn()
    bob.click_square(bob.view["state"]["legal_moves"][0])
    ann.page.wait_for_function(
        "() => document.querySelector('#thinking').textContent.startsWith('White thinks: ')"
    )


def test_a_new_name_keeps_the_seat(open_player: Any) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.page.click("#rename")
    ann.page.fill("#new-name", "Annie")
    ann.page.click("dialog button[value=change]")
    ann.page.wait_for_function(
        "() => document.querySelector('#connection').textContent === 'Connected as Annie'"
    )
    ann.wait("room.seat === 'black'")
    assert "Annie (you)" in ann.page.locator("#seats").inner_text()


def test_the_lobby_lists_public_rooms_with_free_seats_and_never_private_ones(
    open_player: Any,
) -> None:
    ann: Player = open_player("Ann")
    public_link = create_room(ann, "numlo", {"blue": "you", "red": "open", "green": "easy"})
    ann.page.goto(public_link.rsplit("/r/", 1)[0] + "/")
    ann.page.wait_for_selector(".lobby")
    ann.page.uncheck("#public")
    more_options(ann.page)
    ann.page.fill("#board", "42")
    ann.page.fill("#standin", "0")
    ann.page.select_option("#game", "tribolo")
    more_options(ann.page)
    ann.page.fill("#option-rows", "8")
    private_link = create_room(ann, "tribolo", {"blue": "you", "red": "open", "green": "open"})
    made = ann.view
    assert (made["board"], made["options"]["rows"], made["public"]) == (42, 8, False)
    assert "(private room)" in ann.page.locator("h1").inner_text()
    public_id = public_link.rsplit("/", 1)[1]
    private_id = ann.view["room"]
    assert private_link.rsplit("/", 1)[1] != private_id
    bob: Player = open_player("Bob")
    row = bob.page.locator(f"tr[data-room='{public_id}']")
    row.wait_for()
    assert "Numlo" in row.inner_text() and "1 free" in row.inner_text()
    assert "Ann" in row.inner_text()
    assert bob.page.locator("tr[data-room]").count() >= 1
    assert all(
        room != private_id
        for room in bob.page.locator("tr[data-room]").evaluate_all(
            "rows => rows.map(row => row.dataset.room)"
        )
    )
    row.locator("a.join").click()
    bob.page.wait_for_url(public_link)
    bob.wait("room.view !== null")
    bob.page.click("button.take[data-colour=red]")
    bob.wait("room.seat === 'red'")


def test_going_back_in_the_browser_leaves_the_room_and_a_host_keeps_hosting_in_a_seat(
    open_player: Any,
) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "open", "white": "open"})
    ann.page.click("button.take[data-colour=black]")
    ann.wait("room.seat === 'black'")
    ann.page.reload()
    ann.wait("room.view !== null && room.seat === 'black'")
    ann.page.wait_for_selector("[data-action=start]")
    link = ann.page.url
    bob: Player = open_player("Bob")
    take_seat(bob, link, "white")
    ann.wait("room.view.seats[1].holder.kind === 'human'")
    bob.page.go_back()
    bob.page.wait_for_selector(".lobby")
    ann.wait("room.view.seats[1].holder.connected === false")
    assert "Bob, disconnected" in ann.page.locator("#seats").inner_text()


def test_a_proposal_waits_for_a_deliberate_answer_and_the_log_follows_an_undo(
    open_player: Any,
) -> None:
    ann: Player = open_player("Ann")
    link = create_room(ann, "othello", {"black": "you", "white": "open"})
    bob: Player = open_player("Bob")
    take_seat(bob, link, "white")
    ann.page.click("[data-action=start]")
    for player in (ann, bob, ann):
        player.my_turn()
        version = player.view["version"]
        player.click_square(player.view["state"]["legal_moves"][0])
        player.wait("room.view.version > arg", version)
    bob.wait("room.view.moves.length === 3")
    assert bob.page.locator(".moves li.move .move-text").all_inner_texts() == bob.view["moves"]
    bob.page.click("#chat")
    bob.page.keyboard.type("hello")
    ann.helped("undo")
    bob.page.wait_for_selector("dialog")
    bob.page.keyboard.type(" there")
    assert bob.page.locator("dialog").is_visible()
    bob.page.keyboard.press("Escape")
    ann.page.wait_for_function(
        "() => document.querySelector('.talk').textContent.includes('White declined')"
    )
    assert bob.page.input_value("#chat") == "hello there"
    assert len(ann.view["moves"]) == 3
    ann.helped("undo")
    bob.page.wait_for_selector("dialog")
    bob.page.click("dialog button[value=yes]")
    ann.wait("room.view.moves.length === 2")
    for player in (ann, bob):
        player.wait("room.view.moves.length === 2")
        assert (
            player.page.locator(".moves li.move .move-text").all_inner_texts()
            == player.view["moves"]
        )


def test_one_create_makes_one_room_and_a_lobby_opened_while_reconnecting_has_every_game(
    open_player: Any,
) -> None:
    dee: Player = open_player("Dee")
    dee.page.select_option("#game", "tribolo")
    dee.page.select_option("#seat-blue", "open")
    dee.page.dblclick("text=Create room")
    dee.page.wait_for_url(re.compile(r"/r/"))
    dee.wait("room.view !== null")
    eve: Player = open_player("Eve")
    eve.page.wait_for_selector("tr[data-room]")
    eve.page.wait_for_timeout(500)
    hosts = eve.page.locator("tr[data-room] td:nth-child(2)").all_inner_texts()
    assert hosts.count("Dee") == 1
    dee.page.evaluate("() => window.parlour.connection.socket.close()")
    dee.page.click("text=Back to the lobby")
    dee.page.wait_for_function(
        "() => document.querySelector('#connection').dataset.state === 'open'"
    )
    assert dee.page.locator("#game option").count() == len(GAMES)
