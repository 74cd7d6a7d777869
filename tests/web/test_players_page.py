"""The page for a regular player (protocol.md 2.10): the player key made once, kept, sent in
every hello, shown and copied, and one brought from another browser used instead; a name
another player holds asked again on the same connection; ratings beside the seats, whether
a game is rated and why not, the changes at the end, the leaderboard; My games (rooms to go
back to, by key alone, and finished games with their results); and replays of a finished
Tribolo game and of an Oubliette game file, checked at every ply against the rules, stepped
by keys and buttons and jumped to by a click on the chart. Screenshots of the replay, the
leaderboard and My games are saved for a person to look at."""

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from parlour.protocol.players import new_key, player_id, read_key
from parlour.rules import get_game
from parlour.rules.gamefile import game_file, parse_game_file

from .conftest import serving
from .test_page import KEYS, Player, near, open_player

__all__ = ["open_player"]

KEY = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){7}$")
SMALL = {"rows": 5, "cols": 5, "blocked": 0, "tiles": 3}
"""A Tribolo board small enough to play out in a few seconds against two computers."""
SMALL_BOARD = 2
"""A deal of it that lasts 11 to 16 moves, however the computers play, when blue plays its
first legal move each turn: plies enough to step through, and soon done."""
THINK_MS = 100
REPLAY = "const replay = room.replayView;"


class Talk:
    """What a page said to the server and heard back, frame by frame, on every socket."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.heard: list[dict[str, Any]] = []
        self.sockets = 0
        page.on("websocket", self._opened)

    def _opened(self, socket: Any) -> None:
        self.sockets += 1
        socket.on("framesent", lambda frame: self.sent.append(json.loads(frame)))
        socket.on("framereceived", lambda frame: self.heard.append(json.loads(frame)))

    def hellos(self) -> list[dict[str, Any]]:
        return [message for message in self.sent if message.get("type") == "hello"]

    def welcomes(self) -> list[dict[str, Any]]:
        return [message for message in self.heard if message.get("type") == "welcome"]


@pytest.fixture
def fresh(browser: Browser, site: str) -> Iterator[Any]:
    """A browser never seen before (no key kept), with what its page says on the wire."""
    contexts: list[BrowserContext] = []

    def open_fresh(width: int = 1200) -> tuple[Player, Talk]:
        context = browser.new_context(viewport={"width": width, "height": 900})
        contexts.append(context)
        player = Player(context.new_page())
        talk = Talk(player.page)
        player.page.goto(f"{site}/")
        return player, talk

    yield open_fresh
    for context in contexts:
        context.close()


def stored_key(page: Page) -> str:
    text: str = page.evaluate("() => JSON.parse(localStorage.getItem('parlour.key'))")
    return text


def open_key_dialog(page: Page) -> None:
    """Your account, from the page's top line, then its Your key."""
    page.click("#account")
    page.click("#your-key")
    page.wait_for_selector("#key-dialog")


def connected(page: Page) -> None:
    page.wait_for_function("() => document.querySelector('#connection').dataset.state === 'open'")


def module(player: Player, name: str, script: str, arg: Any = None) -> Any:
    """The value of `script` (a function of the page's module `name` and `arg`)."""
    return player.page.evaluate(
        f"""async ([arg]) => {{
            const main = document.querySelector("script[type=module]").src;
            const mod = await import(main.replace("main.js", "{name}"));
            return ({script});
        }}""",
        [arg],
    )


def request(player: Player, message: dict[str, Any]) -> Any:
    return player.page.evaluate("(asked) => window.parlour.connection.request(asked)", message)


def make_room(
    player: Player,
    game: str,
    options: dict[str, Any],
    seats: dict[str, str],
    board: int | None = None,
) -> str:
    """Host a public room from the page's connection, the host at its `you` seat, the rest
    computers at the levels given, computers thinking `THINK_MS`; keep the seat's token as
    the lobby would, open the room page, and return the room's ref. Not started."""
    mine = next(colour for colour, holder in seats.items() if holder == "you")
    joined = request(
        player,
        {
            "type": "create_room",
            "game": game,
            "options": options,
            "seat": mine,
            "bot_think_ms": THINK_MS,
        }
        | ({} if board is None else {"board": board}),
    )
    ref: str = joined.get("code") or joined["room"]["room"]
    module(
        player, "storage.js", "mod.storeSeat(arg[0], { token: arg[1] })", [ref, joined["token"]]
    )
    for colour, holder in seats.items():
        if holder != "you":
            request(
                player,
                {
                    "type": "set_seat",
                    "room": ref,
                    "seat": colour,
                    "holder": "bot",
                    "level": holder,
                },
            )
    player.page.evaluate("(ref) => window.parlour.view.navigate(`/r/${ref}`)", ref)
    player.wait("room.view !== null && room.playing().length > 0")
    return ref


def positions_of(text: str) -> list[dict[str, Any]]:
    """Every position of a game file by the rules themselves: the start, then after each
    move, as a spectator sees it."""
    parsed = parse_game_file(text)
    state = parsed.start()
    seen = [state.observation(None)]
    for move in parsed.moves:
        state = state.play_text(move)
        seen.append(state.observation(None))
    return seen


def replay_hook(player: Player, script: str) -> Any:
    return player.hook(f"(() => {{ {REPLAY} return ({script}); }})()")


SHOWN = """{
    position: replay.board.observation.position,
    attribute: document.querySelector('#replay').dataset.position,
    changed: replay.board.changed,
    ejected: replay.board.ejected,
    caption: document.querySelector('#replay-caption').innerText,
    colours: Object.fromEntries(arg.map((cell) => [cell, replay.board.colourAt(cell)])),
}"""
"""What the replay shows at a ply, read in one go: its position (drawn and in the page's
data), the cells ringed, the caption and the colour at each of the cells in `arg`."""


def check_every_ply(player: Player, positions: list[dict[str, Any]]) -> None:
    """Step from the start to the end with the Right key: at every ply the page draws the
    frame's state, which is the rules' position, the move's cells ringed, and the pieces the
    move left are in their seat's colour."""
    page = player.page
    frames = replay_hook(player, "replay.replay.frames")
    assert len(frames) == len(positions)
    page.keyboard.press("Home")
    colours = {seat: player.seat_colour(seat) for seat in positions[0]["seats"]}
    for ply, expected in enumerate(positions):
        if ply:
            page.keyboard.press("ArrowRight")
        player.wait(f"document.querySelector('#replay').dataset.ply === '{ply}'")
        frame = frames[ply]
        shown = player.hook(f"(() => {{ {REPLAY} return ({SHOWN}); }})()", frame["changed"])
        assert frame["state"]["position"] == expected["position"], ply
        assert shown["position"] == expected["position"], ply
        assert shown["attribute"] == expected["position"], ply
        assert sorted(shown["changed"]) == sorted(frame["changed"])
        assert shown["ejected"] == frame.get("ejected", [])
        assert (ply == 0) == (frame["changed"] == [])
        if ply:
            assert shown["caption"].startswith(f"Move {ply} of {len(positions) - 1}: ")
            assert f"played {frame['move']}" in shown["caption"]
        for cell, colour in shown["colours"].items():
            owner = owner_of(expected, cell)
            if owner is not None:
                assert near(colour, colours[owner]), (ply, cell, owner, colour)
            else:
                assert not any(near(colour, each, 30) for each in colours.values()), (ply, cell)


def owner_of(observation: dict[str, Any], cell: str) -> str | None:
    """Whose piece is on `cell` in an observation (flank games and Oubliette), or None."""
    if "pieces" in observation and isinstance(observation["pieces"], dict):
        for seat, cells in observation["pieces"].items():
            if isinstance(cells, list) and cell in cells:
                return str(seat)
        return None
    col = ord(cell[0]) - ord("a")
    row = int(cell[1:]) - 1
    char = observation["board"][row][col]
    for seat, letter in observation["letters"].items():
        if letter == char:
            return str(seat)
    return None


def click_chart_at(player: Player, chart: int, ply: int) -> None:
    """Click chart `chart` (0 who was winning, 1 the scores) where it draws `ply`."""
    player.hook(f"room.replayView.charts[{chart}].canvas.scrollIntoView({{ block: 'center' }})")
    point = player.hook(f"room.replayView.charts[{chart}].pointAt(arg)", ply)
    player.page.mouse.click(point["x"], point["y"])
    player.wait(f"document.querySelector('#replay').dataset.ply === '{ply}'")


# The key.


def test_a_key_is_made_once_kept_across_reloads_and_sent_in_every_hello(fresh: Any) -> None:
    kim, talk = fresh()
    page = kim.page
    assert page.evaluate("() => localStorage.getItem('parlour.key')") is None
    page.fill("#name", "Kim")
    page.click("text=Continue")
    page.wait_for_selector(".lobby")
    key = stored_key(page)
    assert KEY.match(key) and read_key(key) == key
    assert [hello["key"] for hello in talk.hellos()] == [key]
    welcome = talk.welcomes()[-1]
    assert welcome["player"]["id"] == player_id(key) and welcome["player"]["name"] == "Kim"
    assert kim.hook("window.parlour.connection.player.id") == player_id(key)
    assert "made you a player key" in page.locator("#new-player").inner_text()
    page.reload()
    page.wait_for_selector(".lobby")
    page.reload()
    page.wait_for_selector(".lobby")
    assert stored_key(page) == key
    assert [hello["key"] for hello in talk.hellos()] == [key, key, key]
    assert talk.welcomes()[-1]["player"] == {"id": player_id(key), "name": "Kim", "new": False}
    assert page.locator("#new-player").count() == 0
    # A dropped connection says hello again with the same key.
    page.evaluate("() => window.parlour.connection.socket.close()")
    connected(page)
    assert [hello["key"] for hello in talk.hellos()][-1] == key
    open_key_dialog(page)
    page.wait_for_selector("#key-dialog")
    assert page.input_value("#key-text") == key
    assert page.locator("#player-id").inner_text() == player_id(key)
    kim.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#copy-key")
    page.wait_for_selector("#key-copied:has-text('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == key
    assert kim.errors == []


def test_a_key_brought_from_another_browser_is_used_and_nonsense_is_refused(
    fresh: Any, output_dir: Path
) -> None:
    lou, talk = fresh()
    page = lou.page
    page.fill("#name", "Lou")
    page.click("text=Continue")
    page.wait_for_selector(".lobby")
    made = stored_key(page)
    brought = new_key()
    open_key_dialog(page)
    for nonsense, says in [
        ("", "Paste or type a key first."),
        ("my key: 42!", "only digits and the letters"),
        (brought[:-5], "32 letters and digits"),
        (brought.replace(brought[0], "U", 1), "found “U”"),
    ]:
        page.fill("#import-key", nonsense)
        page.click("#use-key")
        page.wait_for_function(
            "(says) => document.querySelector('#key-problem').textContent.includes(says)", arg=says
        )
        assert page.input_value("#key-text") == made
        assert stored_key(page) == made
    page.locator("#key-dialog").screenshot(path=str(output_dir / "players-key-dialog.png"))
    # Any case, spaces for dashes, O for 0: the same key.
    typed = brought.lower().replace("-", " ").replace("0", "o")
    page.fill("#import-key", typed)
    # Lou's name is the old key's player's: the key brought goes by another.
    assert page.input_value("#import-name") == "Lou"
    page.fill("#import-name", "Louis")
    with page.expect_navigation():
        page.press("#import-key", "Enter")
    # The page starts again where it was, on Your account, now of the key brought.
    page.wait_for_selector("#account-page")
    connected(page)
    assert stored_key(page) == brought
    assert talk.hellos()[-1]["key"] == brought
    assert lou.hook("window.parlour.connection.player.id") == player_id(brought)
    assert talk.welcomes()[-1]["player"]["name"] == "Louis"
    assert page.inner_text("#account-player-id") == player_id(brought)
    open_key_dialog(page)
    assert page.input_value("#key-text") == brought
    assert page.locator("#previous-key").inner_text() == made
    assert lou.errors == []


def test_a_key_given_on_the_first_page_is_the_one_used(fresh: Any) -> None:
    max_, talk = fresh()
    page = max_.page
    brought = new_key()
    page.fill("#name", "Max")
    page.click(".bring-key summary")
    page.fill("#first-key", "not a key at all")
    page.click("text=Continue")
    page.wait_for_selector(".name-form .error:has-text('not a player key')")
    assert talk.hellos() == []
    page.fill("#first-key", brought.lower())
    page.click("text=Continue")
    page.wait_for_selector(".lobby")
    assert [hello["key"] for hello in talk.hellos()] == [brought]
    assert talk.welcomes()[-1]["player"]["id"] == player_id(brought)


def test_a_name_another_player_holds_is_asked_again_on_the_same_connection(
    fresh: Any, open_player: Any
) -> None:
    open_player("Nell")
    other, talk = fresh()
    page = other.page
    page.fill("#name", "nell")
    page.click("text=Continue")
    page.wait_for_selector(".name-form h1:has-text('Choose another name')")
    assert "another player" in page.locator(".name-form .error").inner_text()
    page.fill("#name", "Nella")
    page.click("text=Continue")
    page.wait_for_selector(".lobby")
    connected(page)
    assert page.locator("#connection").inner_text() == "Connected as Nella"
    assert [hello["name"] for hello in talk.hellos()] == ["nell", "Nella"]
    assert talk.sockets == 1
    assert talk.welcomes()[-1]["player"]["name"] == "Nella"
    page.reload()
    page.wait_for_selector(".lobby")
    assert talk.hellos()[-1]["name"] == "Nella"
    assert other.errors == []


# Ratings, My games, the leaderboard, replays.


def small_rated_room(player: Player) -> str:
    """A small Tribolo room, `player` blue against two easy computers, not started."""
    seats = {"blue": "you", "red": "easy", "green": "easy"}
    return make_room(player, "tribolo", SMALL, seats, SMALL_BOARD)


class TestTheFirstGameOnItsServer:
    """A game whose score must be its board's first: on a server of its own, since this
    module's other tests play the same board, in any order."""

    @pytest.fixture
    def site(self, tmp_path: Path) -> Iterator[str]:
        yield from serving("--data-dir", str(tmp_path / "data"))

    def test_a_rated_game_shows_ratings_their_changes_the_score_card_and_its_replay(
        self, open_player: Any, output_dir: Path
    ) -> None:
        ann: Player = open_player("Ann")
        page = ann.page
        ref = small_rated_room(ann)
        # Before the start: every seat's rating (new: provisional), and the room says it counts.
        ann.wait("room.view.seats.every((seat) => seat.rating)")
        seats = page.locator("#seats")
        for colour in ("blue", "red", "green"):
            rating = ann.view["seats"][["blue", "red", "green"].index(colour)]["rating"]
            shown = f"{rating['value']}{'?' if rating['provisional'] else ''}"
            assert shown in seats.locator(f"li[data-colour={colour}] .rating").inner_text()
        assert page.locator("#rated").inner_text().startswith("Rated")
        # The lobby lists the room with its players' ratings (Bob opens it now: it reads the
        # list again only every few seconds).
        bob: Player = open_player("Bob")
        bob.page.wait_for_selector(f"tr[data-room='{ann.view['room']}']")
        listed = bob.page.locator(f"tr[data-room='{ann.view['room']}']").inner_text()
        blue = ann.view["seats"][0]["rating"]
        assert f"Ann ({blue['value']}{'?' if blue['provisional'] else ''})" in listed
        page.click("[data-action=start]")
        ann.play_out()
        # Ann is the only person to have played this board: her score is its best yet, and the
        # page asks her initials beside the board, not over it.
        page.wait_for_selector("#game-over #initials-form")
        assert page.locator("dialog[open]").count() == 0
        page.click("#initials-skip")
        page.wait_for_selector("#initials-form", state="detached")
        ann.wait("room.view.rating_changes")
        changes = ann.view["rating_changes"]
        assert set(changes) == {"blue", "red", "green"}
        for colour, change in changes.items():
            delta = change["after"] - change["before"]
            sign = "+" if delta > 0 else "\u2212" if delta < 0 else "\u00b1"
            words = f"{change['before']} \u2192 {change['after']} ({sign}{abs(delta)})"
            line = seats.locator(f"li[data-colour={colour}]")
            line.locator(".rating-change", has_text=words).wait_for()
            assert line.is_visible() and line.bounding_box()["y"] < 900  # type: ignore[index]
        # The result in the players' names, with their scores.
        scores = ann.view["state"]["scores"]
        turn = page.locator("#turn").inner_text()
        assert ("won" in turn or "tied" in turn) and "Ann" in turn and "Blue" not in turn, turn
        assert all(str(score) in turn for score in scores.values()), turn
        # Skipped, the question does not come back (not after a new view of the room either).
        ann.hook("room.refetch()")
        page.wait_for_timeout(300)
        assert page.locator("#initials-form").count() == 0
        winners = ann.view["state"]["winners"]
        page.screenshot(path=str(output_dir / "players-rated-game-over.png"), full_page=True)
        # The score card gives each player's rating, Ann's line marked as hers.
        page.click("[data-action=score-card]")
        page.wait_for_selector("#card-players")
        card = request(ann, {"type": "score_card", "game": "tribolo", "preset": "standard"})
        for line in card["players"]:
            rating = line["rating"]
            text = f"{rating['value']}{'?' if rating['provisional'] else ''}"
            who = f"{line['name']} (you)" if line["name"] == "Ann" else line["name"]
            row = page.locator("#card-players tbody tr", has_text=who)
            assert row.locator("td").last.inner_text() == text
        ann_line = next(line for line in card["players"] if line["name"] == "Ann")
        assert ann_line["rating"]["value"] == changes["blue"]["after"]
        page.click("dialog button[value=close]")

        # The replay of the room's game, from the game's end.
        text = request(ann, {"type": "export_game", "room": ref})["text"]
        positions = positions_of(text)
        assert len(positions) > 10
        page.click("#replay-game")
        page.wait_for_url(re.compile(r"#replay$"))
        ann.wait("room.replayView && document.querySelector('#replay').dataset.ply")
        assert page.locator("section.room").is_hidden()
        assert int(page.get_attribute("#replay", "data-ply") or -1) == len(positions) - 1
        check_every_ply(ann, positions)
        page.keyboard.press("Home")
        ann.wait("document.querySelector('#replay').dataset.ply === '0'")
        page.keyboard.press("End")
        ann.wait(f"document.querySelector('#replay').dataset.ply === '{len(positions) - 1}'")
        page.keyboard.press("ArrowLeft")
        ann.wait(f"document.querySelector('#replay').dataset.ply === '{len(positions) - 2}'")
        page.click("[data-step=start]")
        ann.wait("document.querySelector('#replay').dataset.ply === '0'")
        page.click("[data-step=forward]")
        ann.wait("document.querySelector('#replay').dataset.ply === '1'")
        # A click on either chart goes to the ply under the mouse.
        for chart, ply in [(0, len(positions) // 2), (1, 3), (0, len(positions) - 1)]:
            click_chart_at(ann, chart, ply)
        page.click("#replay-moves button[data-ply='2']")
        ann.wait("document.querySelector('#replay').dataset.ply === '2'")
        evaluation = replay_hook(ann, "replay.replay.frames.map((frame) => frame.evaluation)")
        assert all(sum(shares) == 1000 and min(shares) >= 0 for shares in evaluation)
        final = evaluation[-1]
        assert all(
            (share > 0) == (colour in winners)
            for share, colour in zip(final, ["blue", "red", "green"], strict=True)
        )
        click_chart_at(ann, 0, len(positions) // 2)
        page.screenshot(path=str(output_dir / "players-replay-tribolo.png"), full_page=True)
        page.click("#replay-back")
        page.wait_for_url(re.compile(r"/r/[^#]+$"))
        ann.wait("!room.replayView && !document.querySelector('section.room').hidden")


def test_my_games_and_the_leaderboard_show_a_finished_rated_game(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    page = ann.page
    ref = small_rated_room(ann)
    page.click("[data-action=start]")
    ann.play_out()
    ann.wait("room.view.rating_changes")
    positions = positions_of(request(ann, {"type": "export_game", "room": ref})["text"])

    # My games: the finished game with its result, rating change and replay.
    page.click("text=Back to the lobby")
    page.wait_for_selector("#my-finished tbody tr[data-record]")
    mine = request(ann, {"type": "my_games"})
    entry = mine["finished"][0]
    row = page.locator(f"#my-finished tr[data-record='{entry['record']}']")
    seat = next(each for each in entry["seats"] if each["colour"] == "blue")
    assert {"win": "Won", "loss": "Lost", "tie": "Tied"}[seat["outcome"]] in row.inner_text()
    delta = seat["rating"]["after"] - seat["rating"]["before"]
    assert (
        f"+{delta}" if delta > 0 else f"\u2212{-delta}" if delta < 0 else "\u00b10"
    ) in row.inner_text()
    assert entry["moves"] == len(positions) - 1
    page.screenshot(path=str(output_dir / "players-my-games.png"), full_page=True)
    row.locator("a.replay-link").click()
    page.wait_for_url(re.compile(r"/#replay/"))
    ann.wait("room.replayView && document.querySelector('#replay').dataset.ply")
    assert replay_hook(ann, "replay.replay.frames.map((frame) => frame.state.position)") == [
        each["position"] for each in positions
    ]
    assert "\u2192" in page.locator("#replay-players li[data-colour=blue]").inner_text()
    page.reload()
    ann.wait("room.replayView && document.querySelector('#replay').dataset.ply")
    assert len(replay_hook(ann, "replay.replay.frames")) == len(positions)

    # The leaderboard: what the server sends, computers marked, Ann's line picked out.
    page.evaluate("() => window.parlour.view.navigate('/')")
    page.click("#leaderboards a[data-game=tribolo]")
    page.wait_for_selector("#leaderboard-table tbody tr")
    board = request(ann, {"type": "leaderboard", "game": "tribolo"})
    rows = page.locator("#leaderboard-table tbody tr")
    assert rows.count() == len(board["players"]) >= 2
    for index, line in enumerate(board["players"]):
        cells = rows.nth(index).locator("td")
        assert cells.nth(0).inner_text() == str(line["rank"])
        assert cells.nth(1).inner_text().startswith(line["name"])
        assert cells.nth(2).inner_text() == f"{line['rating']}{'?' if line['provisional'] else ''}"
        assert cells.nth(3).inner_text() == str(line["games"])
        assert ("computer" in (rows.nth(index).get_attribute("class") or "")) == line["computer"]
    assert page.locator("#leaderboard-table tr.me").inner_text().startswith("1") or (
        page.locator("#leaderboard-table tr.me .name").inner_text() == "Ann"
    )
    assert page.locator("#leaderboard-table tr.computer .badge").count() >= 1
    page.screenshot(path=str(output_dir / "players-leaderboard.png"), full_page=True)
    page.click(".game-tabs a[data-game=othello]")
    page.wait_for_selector("#leaderboard[data-game=othello]")


def test_the_best_move_hint_makes_the_game_unrated_and_says_why(open_player: Any) -> None:
    cy: Player = open_player("Cyd")
    make_room(cy, "othello", {}, {"black": "you", "white": "easy"})
    cy.page.click("[data-action=start]")
    cy.my_turn()
    assert cy.page.locator("#rated").inner_text().startswith("Rated")
    # Every legal move is no help; the original game's best move is.
    cy.page.click("[data-action=possible]")
    cy.page.wait_for_selector("#thinking:has-text('Possible')")
    assert cy.page.locator("#rated").get_attribute("data-rated") == "true"
    cy.page.click("[data-action=best]")
    assert "unrated for its player (Cyd)" in cy.page.locator("#unrate-dialog").inner_text()
    cy.page.click("#unrate-dialog button[value=unrate]")
    cy.page.wait_for_function("() => document.querySelector('#rated').dataset.rated === 'false'")
    words = cy.page.locator("#rated").inner_text()
    assert words == f"Friendly (not rated): {cy.view['unrated']}"
    assert "best move" in words
    # Replay steps through the game so far, and back to the room.
    version = cy.view["version"]
    cy.page.click("[data-action=replay]")
    cy.page.wait_for_url(re.compile(r"#replay$"))
    cy.wait("room.replayView && document.querySelector('#replay').dataset.ply")
    assert len(cy.hook("room.replayView.replay.frames")) == version + 1
    cy.page.go_back()
    cy.wait("!room.replayView && !document.querySelector('section.room').hidden")


def test_my_games_takes_a_player_back_to_a_room_by_key_alone(
    open_player: Any, browser: Browser, site: str
) -> None:
    dee: Player = open_player("Dee")
    ref = make_room(dee, "othello", {}, {"black": "you", "white": "easy"})
    dee.page.click("[data-action=start]")
    dee.my_turn()
    room = dee.view["room"]
    # Another browser with Dee's key and none of her seat tokens.
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    key = KEYS["Dee"]
    context.add_init_script(
        f"try {{ localStorage.setItem('parlour.key', {json.dumps(json.dumps(key))}); "
        "localStorage.setItem('parlour.name', '\"Dee\"'); } catch {}"
    )
    elsewhere = Player(context.new_page())
    elsewhere.page.goto(f"{site}/")
    elsewhere.page.wait_for_selector(f"#my-rooms li[data-room='{room}'] a[data-ref='{ref}']")
    item = elsewhere.page.locator(f"#my-rooms li[data-room='{room}']").inner_text()
    assert "Othello" in item and "you play Black" in item
    assert elsewhere.page.evaluate("() => localStorage.getItem('parlour.seats')") is None
    elsewhere.page.click(f"#my-rooms a[data-ref='{ref}']")
    elsewhere.wait("room.view !== null && room.playing().includes('black')")
    dee.wait("room.playing().length === 0")
    elsewhere.my_turn()
    version = elsewhere.view["version"]
    elsewhere.click_square(elsewhere.view["state"]["legal_moves"][0])
    elsewhere.wait("room.view.version > arg", version)
    assert elsewhere.errors == []
    context.close()


def test_an_oubliette_game_file_replays_ply_by_ply_on_the_page(
    open_player: Any, output_dir: Path
) -> None:
    text, moves = oubliette_text(2)
    eve: Player = open_player("Eve")
    page = eve.page
    page.click("#replay-file")
    page.fill("#replay-text", text)
    page.click("#replay-file-dialog button[value=go]")
    page.wait_for_url(re.compile(r"/#replay/file$"))
    eve.wait("room.replayView && document.querySelector('#replay').dataset.ply")
    positions = positions_of(text)
    assert len(positions) == moves + 1
    check_every_ply(eve, positions)
    frames = replay_hook(eve, "replay.replay.frames")
    pushed = next(frame for frame in frames if frame["ejected"])
    page.keyboard.type(str(pushed["ply"]))
    eve.wait(f"document.querySelector('#replay').dataset.ply === '{pushed['ply']}'")
    caption = page.locator("#replay-caption").inner_text()
    assert f"pushing one off from {pushed['ejected'][0]}" in caption
    page.locator("#replay-board").screenshot(path=str(output_dir / "players-replay-push.png"))
    names = page.locator("#replay-players").inner_text()
    assert "Player 1" in names and "Player 2" in names
    worst = replay_hook(eve, "replay.replay.worst")
    assert page.locator("#replay-moves li.slip").count() == len(worst)
    if worst:
        page.click(f"#replay-worst button[data-ply='{worst[0]['ply']}']")
        eve.wait(f"document.querySelector('#replay').dataset.ply === '{worst[0]['ply']}'")
    page.keyboard.press("Home")
    page.keyboard.type("12")
    eve.wait("document.querySelector('#replay').dataset.ply === '12'")
    if worst:
        page.keyboard.press("w")
        after = min((slip["ply"] for slip in worst if slip["ply"] > 12), default=worst[0]["ply"])
        eve.wait(f"document.querySelector('#replay').dataset.ply === '{after}'")
    click_chart_at(eve, 1, moves // 3)
    click_chart_at(eve, 0, moves // 2)
    assert eve.hook("room.replayView.board.observation.ply") == moves // 2
    page.screenshot(path=str(output_dir / "players-replay-oubliette.png"), full_page=True)
    page.reload()
    eve.wait("room.replayView && document.querySelector('#replay').dataset.ply")
    assert page.get_attribute("#replay", "data-position") == positions[-1]["position"]


def oubliette_text(seed: int) -> tuple[str, int]:
    """A finished Oubliette game as a game file: each side pushes a piece off whenever it
    can, else plays a move at random, and the second piece off wins, for a game of a few
    dozen moves; and how many moves it has."""
    game = get_game("oubliette")
    options = {"eject": 2}
    state = game.new(options, seed=seed)
    chance = random.Random(seed)
    moves: list[str] = []
    while not state.is_over:
        legal = list(state.legal_moves())
        pushing = [move for move in legal if state.play(move).scores() != state.scores()]
        move = pushing[0] if pushing else chance.choice(legal)
        moves.append(state.format_move(move))
        state = state.play(move)
    seats = "; ".join(f"{colour}: Player {i + 1}" for i, colour in enumerate(game.seats))
    return game_file(game, options, seed, moves, {"Seats": seats}).text(), len(moves)


def test_the_replay_fits_a_phone_and_is_crisp(
    browser: Browser, site: str, output_dir: Path
) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=3, has_touch=True
    )
    phone = Player(context.new_page())
    phone.page.goto(f"{site}/")
    phone.page.fill("#name", "Fay")
    phone.page.click("text=Continue")
    phone.page.wait_for_selector(".lobby")
    text, moves = oubliette_text(2)
    module(phone, "storage.js", "mod.storeReplayFile(arg)", text)
    phone.page.evaluate("() => window.parlour.view.navigate('/#replay/file')")
    phone.wait("room.replayView && document.querySelector('#replay').dataset.ply")
    page = phone.page
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    for selector in ["#replay-board canvas", "#eval-chart canvas", "#score-chart canvas"]:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, selector
        pixels = page.evaluate(f"() => document.querySelector('{selector}').width")
        assert pixels >= 3 * box["width"] - 3, selector
    phone.hook("room.replayView.charts[0].canvas.scrollIntoView({ block: 'center' })")
    point = phone.hook("room.replayView.charts[0].pointAt(arg)", moves // 4)
    page.touchscreen.tap(point["x"], point["y"])
    phone.wait(f"document.querySelector('#replay').dataset.ply === '{moves // 4}'")
    page.screenshot(path=str(output_dir / "players-replay-phone.png"), full_page=True)
    assert phone.errors == []
    context.close()
