"""The browser client's canvas boards (client/web/boards) in Chromium, on observations from
the real rules: what each square shows, how clicks and keys become moves, high-DPI and phone
sizes, hints and animations. Each game's board is also saved as a picture for a person to
look at, under the tests' output folder (conftest.py)."""

import json
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Request,
    Route,
)

from parlour.client.terminal.boards import board_for
from parlour.client.terminal.boards.base import Pick, Step
from parlour.client.terminal.boards.oubliette import OublietteBoard
from parlour.rules import GAMES, hexgrid
from parlour.rules.game import State
from parlour.rules.oubliette import OublietteState

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "client" / "web"
HARNESS = Path(__file__).with_name("board_harness.html")
ORIGIN = "http://boards.test"
CONTENT_TYPES = {
    ".js": "text/javascript",
    ".html": "text/html",
    ".css": "text/css",
    ".json": "application/json",
}
FLANK_GAMES = ("tribolo", "numlo", "doublolo", "othello")
GAMES_DRAWN = (*FLANK_GAMES, "tripppin", "oubliette")

RAW_PIXEL = """n => {
    const canvas = document.querySelector("canvas");
    const rect = canvas.getBoundingClientRect();
    const { x, y } = harness.view.cellCentre(n);
    const px = Math.floor((x - rect.left) * canvas.width / rect.width);
    const py = Math.floor((y - rect.top) * canvas.height / rect.height);
    const probe = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    probe.canvas.width = 1;
    probe.canvas.height = 1;
    probe.drawImage(canvas, px, py, 1, 1, 0, 0, 1, 1);
    return [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3);
}"""
"""The pixel at a square's centre as the canvas holds it now, mid-animation too."""

Observation = dict[str, Any]
Colour = tuple[int, int, int]
OpenPage = Callable[..., "Board"]


def serve(route: Route, request: Request) -> None:
    """Answer the page's requests from client/web, and the harness page from tests/web."""
    path = request.url.removeprefix(ORIGIN).split("?", 1)[0]
    file = HARNESS if path == "/harness.html" else (WEB / path.lstrip("/")).resolve()
    if file != HARNESS and not file.is_relative_to(WEB.resolve()):
        route.fulfill(status=403, body="outside client/web")
    elif not file.is_file():
        route.fulfill(status=404, body=f"no {path}")
    else:
        kind = CONTENT_TYPES.get(file.suffix, "application/octet-stream")
        route.fulfill(status=200, body=file.read_bytes(), content_type=kind)


def hex_colour(css: str) -> Colour:
    """The (r, g, b) of a "#rrggbb" colour."""
    value = int(css.removeprefix("#"), 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


def close(found: Sequence[int], wanted: Sequence[int], tolerance: int = 20) -> bool:
    """Whether two colours differ by at most `tolerance` in every channel."""
    return all(abs(a - b) <= tolerance for a, b in zip(found, wanted, strict=True))


def is_grey(colour: Sequence[int]) -> bool:
    """A mid grey: the channels nearly equal, neither near black nor near white."""
    return max(colour) - min(colour) <= 12 and 80 <= colour[0] <= 180


def played(game: str, plies: int, seed: int = 3, **options: Any) -> State[Any]:
    """A game of `game` after `plies` moves chosen at random (the same ones every run)."""
    rules = GAMES[game]
    state: State[Any] = rules.new(rules.resolve_options(options), seed)
    chooser = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(chooser.choice(state.legal_moves()))
    return state


def played_oubliette(plies: int, seed: int = 3, **options: Any) -> OublietteState:
    """An Oubliette game after `plies` moves chosen at random."""
    state = played("oubliette", plies, seed, **options)
    assert isinstance(state, OublietteState)
    return state


def observation(state: State[Any]) -> Observation:
    """The state's observation as the server sends it: through JSON."""
    found: Observation = json.loads(json.dumps(state.observation()))
    return found


def oubliette(
    green: str, red: str, holes: str = "", blocks: str = "", *, to_move: str = "G", limit: int = 9
) -> OublietteState:
    """An Oubliette position with pieces, holes and blocks on the cells named."""
    marks = {name: "G" for name in green.split()}
    marks |= {name: "R" for name in red.split()}
    marks |= {name: "*" for name in holes.split()}
    marks |= {name: "#" for name in blocks.split()}
    rows = [
        "".join(marks.get(hexgrid.CELL_NAMES[cell], ".") for cell in row)
        for row in hexgrid.ROWS_FROM_TOP
    ]
    state = GAMES["oubliette"].parse_position(f"{'/'.join(rows)} {to_move} 0:0 {limit} 6 0 0")
    assert isinstance(state, OublietteState)
    return state


def clicks_for(state: OublietteState, text: str) -> list[str]:
    """A move's clicks as a player makes them: the line's pieces, the lead last for an
    in-line move, then the cell the last one moves to."""
    move = state.parse_move(text)
    names = [hexgrid.CELL_NAMES[cell] for cell in move.cells]
    if hexgrid.DIRECTIONS[move.direction] < 0:
        names.reverse()
    after = hexgrid.step(hexgrid.CELL_NAMES.index(names[-1]), move.direction)
    assert after is not None
    return [*names, hexgrid.CELL_NAMES[after]]


def is_broadside(state: OublietteState, text: str) -> bool:
    """Whether a move of two or more pieces goes sideways to its line."""
    move = state.parse_move(text)
    ahead = {hexgrid.step(cell, move.direction) for cell in move.cells}
    return len(move.cells) > 1 and not ahead & set(move.cells)


def oubliette_hint_cells(state: OublietteState, text: str) -> set[str]:
    """The cells the board lights for a move: its line and where its pieces go."""
    move = state.parse_move(text)
    cells = {hexgrid.CELL_NAMES[cell] for cell in move.cells}
    for cell in move.cells:
        after = hexgrid.step(cell, move.direction)
        if after is not None:
            cells.add(hexgrid.CELL_NAMES[after])
    return cells


def flank_squares(found: Observation) -> dict[str, str]:
    """Each square's character in a flank observation: `.`, `#` or a seat letter."""
    return {
        f"{chr(ord('a') + col)}{row + 1}": char
        for row, line in enumerate(found["board"])
        for col, char in enumerate(line)
    }


class Board:
    """The harness page and the BoardView in it, driven as a player would."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def show(self, found: Observation, *, animate: bool = False) -> None:
        self.page.evaluate("([o, a]) => harness.view.show(o, { animate: a })", [found, animate])

    def show_and_read(self, found: Observation, names: Sequence[str]) -> dict[str, Colour]:
        """Show `found` animated and read these squares' pixels at once, before a frame."""
        read: dict[str, list[int]] = self.page.evaluate(
            f"""([o, names]) => {{
                harness.view.show(o, {{ animate: true }});
                return Object.fromEntries(names.map(n => [n, ({RAW_PIXEL})(n)]));
            }}""",
            [found, list(names)],
        )
        return {name: (rgb[0], rgb[1], rgb[2]) for name, rgb in read.items()}

    def colour(self, name: str) -> Colour:
        r, g, b = self.page.evaluate("n => harness.view.colourAt(n)", name)
        return int(r), int(g), int(b)

    def colours(self, names: Sequence[str]) -> dict[str, Colour]:
        found: dict[str, list[int]] = self.page.evaluate(
            "ns => Object.fromEntries(ns.map(n => [n, harness.view.colourAt(n)]))", list(names)
        )
        return {name: (rgb[0], rgb[1], rgb[2]) for name, rgb in found.items()}

    def raw_colour(self, name: str) -> Colour:
        """The pixel at a square's centre as it is on the canvas now, mid-animation too."""
        r, g, b = self.page.evaluate(RAW_PIXEL, name)
        return int(r), int(g), int(b)

    def centre(self, name: str) -> tuple[float, float]:
        point: dict[str, float] = self.page.evaluate("n => harness.view.cellCentre(n)", name)
        return point["x"], point["y"]

    def click(self, *names: str) -> None:
        for name in names:
            self.page.mouse.click(*self.centre(name))

    def set_hints(self, moves: Sequence[str]) -> None:
        self.page.evaluate("m => harness.view.setHints(m)", list(moves))

    @property
    def moves(self) -> list[str]:
        found: list[str] = self.page.evaluate("harness.moves.slice()")
        return found

    @property
    def picked(self) -> list[str]:
        found: list[str] = self.page.evaluate("harness.view.picked")
        return found

    @property
    def targets(self) -> list[str]:
        found: list[str] = self.page.evaluate("harness.view.targets")
        return found

    @property
    def note(self) -> str:
        found: str = self.page.evaluate("harness.view.note")
        return found

    @property
    def cursor(self) -> str | None:
        found: str | None = self.page.evaluate("harness.view.cursor")
        return found

    @property
    def seat_colours(self) -> dict[str, Colour]:
        found: dict[str, str] = self.page.evaluate("harness.SEAT_COLOURS")
        return {seat: hex_colour(css) for seat, css in found.items()}

    def palette(self) -> dict[str, Colour]:
        found: dict[str, str] = self.page.evaluate(
            "import('/boards/palette.js').then(m => ({ ...m.COLOURS }))"
        )
        return {name: hex_colour(css) for name, css in found.items()}

    def canvas_box(self) -> dict[str, float]:
        box: dict[str, float] = self.page.evaluate(
            """(() => {
                const canvas = document.querySelector("canvas");
                const rect = canvas.getBoundingClientRect();
                return { left: rect.left, top: rect.top, right: rect.right,
                         bottom: rect.bottom, width: rect.width, height: rect.height,
                         pixelsWide: canvas.width, pixelsHigh: canvas.height };
            })()"""
        )
        return box

    def picture(self) -> str:
        found: str = self.page.evaluate("document.querySelector('canvas').toDataURL()")
        return found

    def legend(self) -> list[str]:
        text: str = self.page.evaluate("document.querySelector('.board-legend').innerText")
        return [line for line in text.split("\n") if line]

    def label(self) -> str:
        found: str = self.page.evaluate(
            "document.querySelector('canvas').getAttribute('aria-label')"
        )
        return found


def open_harness(
    browser: Browser,
    problems: list[str],
    *,
    width: int = 1000,
    height: int = 800,
    scale: float = 1,
    reduced_motion: bool = False,
    touch: bool = False,
) -> tuple[BrowserContext, Board]:
    """The harness in a fresh browser context of its own, its page's errors and console
    errors put in `problems`."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=scale,
        reduced_motion="reduce" if reduced_motion else "no-preference",
        has_touch=touch,
        is_mobile=touch,
    )
    page = context.new_page()

    def console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            problems.append(f"console {message.type}: {message.text}")

    def page_error(error: Error) -> None:
        problems.append(f"page error: {error}")

    page.on("console", console)
    page.on("pageerror", page_error)
    page.route(f"{ORIGIN}/**", serve)
    page.goto(f"{ORIGIN}/harness.html")
    page.wait_for_function("window.harness !== undefined")
    return context, Board(page)


@pytest.fixture
def open_page(browser: Browser) -> Iterator[OpenPage]:
    """Open the harness in a fresh browser context; any page error or console error fails."""
    contexts = []
    problems: list[str] = []

    def opened(**sizes: Any) -> Board:
        context, board = open_harness(browser, problems, **sizes)
        contexts.append(context)
        return board

    yield opened
    for context in contexts:
        context.close()
    assert problems == []


@pytest.fixture(scope="module")
def shared(browser: Browser) -> Iterator[tuple[Board, list[str]]]:
    """One harness page at the default size for the module's `board`s, and its problems:
    opening a page takes longer than most tests here."""
    problems: list[str] = []
    context, board = open_harness(browser, problems)
    yield board, problems
    context.close()


@pytest.fixture
def board(shared: tuple[Board, list[str]]) -> Iterator[Board]:
    """The shared harness page with a new board view in it, as if just opened (the mouse
    away from it, no moves sent); any page error or console error fails."""
    board, problems = shared
    problems.clear()
    board.page.mouse.move(0, 0)
    board.page.evaluate("harness.reset()")
    yield board
    assert problems == []


@pytest.fixture(scope="module")
def output(output_dir: Path) -> Path:
    """Where the pictures of the boards go."""
    folder = output_dir / "boards"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# What each square shows


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_flank_pieces_blocked_and_empty_squares_have_their_colours(
    board: Board, game: str
) -> None:
    found = observation(played(game, 6))
    board.show(found)
    squares = flank_squares(found)
    colours = board.colours(list(squares))
    seats = board.seat_colours
    letters = {letter: seat for seat, letter in found["letters"].items()}
    values = {
        f"{chr(ord('a') + col)}{row + 1}": value
        for row, line in enumerate(found["values"])
        for col, value in enumerate(line)
    }
    palette = board.palette()
    felt = palette["felt"] if game in ("othello", "doublolo") else palette["sand"]
    for name, char in squares.items():
        if char in letters:
            assert close(colours[name], seats[letters[char]]), (name, char, colours[name])
        elif char == "#":
            assert is_grey(colours[name]), (name, colours[name])
        elif values.get(name, ".") == ".":
            assert close(colours[name], felt, 6), (name, colours[name])
    assert ("#" in squares.values()) == (game in ("tribolo", "doublolo"))


def test_tripppin_pieces_tiles_and_blank_squares(board: Board) -> None:
    found = observation(played("tripppin", 5))
    board.show(found)
    seats = board.seat_colours
    palette = board.palette()
    for seat, square in found["pieces"].items():
        assert close(board.colour(square), seats[seat]), (seat, square)
    specials = set(found["circles"]) | set(found["starts"].values())
    marked = set(found["pieces"].values()) | set(found["legal_moves"])
    blank = [
        f"{chr(ord('a') + col)}{row + 1}"
        for row, line in enumerate(found["tiles"])
        for col, arrows in enumerate(line)
        if not arrows
    ]
    blank = [name for name in blank if name not in specials]
    assert len(blank) == 2
    for name in blank:
        assert close(board.colour(name), palette["tray"], 6), name
    tiles = (palette["tileLight"], palette["tileDark"])
    for row, line in enumerate(found["tiles"]):
        for col, arrows in enumerate(line):
            name = f"{chr(ord('a') + col)}{row + 1}"
            if arrows and name not in marked:
                assert any(close(board.colour(name), tile, 6) for tile in tiles), name
    for name in found["legal_moves"]:
        if name not in found["pieces"].values():
            assert close(board.colour(name), palette["legal"], 30), name


def test_oubliette_pieces_holes_blocks_and_empty_cells(board: Board) -> None:
    state = oubliette("a1 a2 e3", "i9 e4", holes="e5 c4", blocks="b2 g7")
    board.show(observation(state))
    seats = board.seat_colours
    palette = board.palette()
    for name in ("a1", "a2", "e3"):
        assert close(board.colour(name), seats["green"]), name
    for name in ("i9", "e4"):
        assert close(board.colour(name), seats["red"]), name
    for name in ("e5", "c4"):
        assert max(board.colour(name)) < 40, name
    for name in ("b2", "g7"):
        assert is_grey(board.colour(name)), name
        assert close(board.colour(name), palette["block"], 6), name
    for name in ("a3", "e1", "i5", "e6"):
        assert close(board.colour(name), palette["well"], 6), name


def test_oubliette_start_draws_every_piece_in_its_seats_colour(board: Board) -> None:
    found = observation(played_oubliette(0))
    board.show(found)
    seats = board.seat_colours
    colours = board.colours([cell for cells in found["pieces"].values() for cell in cells])
    for seat, cells in found["pieces"].items():
        for cell in cells:
            assert close(colours[cell], seats[seat]), (seat, cell)
    assert max(board.colour(found["holes"][0])) < 40


# Clicks and taps


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_clicking_a_flank_square_sends_its_name(board: Board, game: str) -> None:
    found = observation(played(game, 4))
    board.show(found)
    names = [*found["legal_moves"][:3], "a1", f"b{found['rows']}"]
    board.click(*names)
    assert board.moves == names
    assert board.picked == []


def test_a_tap_is_a_click(open_page: OpenPage) -> None:
    board = open_page(width=360, height=640, scale=2, touch=True)
    state = played_oubliette(0)
    board.show(observation(state))
    for name in clicks_for(state, "a1-c3 ne"):
        board.page.touchscreen.tap(*board.centre(name))
    found = observation(played("tripppin", 2))
    board.show(found)
    board.page.touchscreen.tap(*board.centre(found["legal_moves"][0]))
    assert board.moves == ["a1-c3 ne", found["legal_moves"][0]]


def test_clicking_outside_the_squares_sends_nothing(board: Board) -> None:
    board.show(observation(played("othello", 2)))
    box = board.canvas_box()
    board.page.mouse.click(box["left"] + 2, box["top"] + 2)
    assert board.moves == []


def test_clicking_a_tripppin_destination_sends_it(board: Board) -> None:
    found = observation(played("tripppin", 3))
    board.show(found)
    assert found["legal_moves"]
    board.click(*found["legal_moves"])
    assert board.moves == found["legal_moves"]


def test_oubliette_clicks_give_the_legal_move_texts(board: Board) -> None:
    state = played_oubliette(0)
    found = observation(state)
    board.show(found)
    moves = ["c3-c5 e", "c3-c5 w", "c3-c5 nw", "c3-c5 ne", "a1-c3 ne", "b5 ne", "b1-b2 nw"]
    moves += ["b5-c5 ne", "a3-c3 nw"]
    for text in moves:
        assert text in found["legal_moves"]
        board.click(*clicks_for(state, text))
        assert board.moves[-1] == text, clicks_for(state, text)
        assert board.picked == []
    assert board.moves == moves


def test_oubliette_pushes_and_broadsides_from_a_real_game(board: Board) -> None:
    state = oubliette("e1 e2 e3 c2 c3 c4 g5 h5", "e4 e5 c5 f5 d7 d8", holes="e7")
    found = observation(state)
    pushes = [m for m in found["legal_moves"] if state.play_text(m).last_pushed > 0]
    broadsides = [m for m in found["legal_moves"] if is_broadside(state, m)]
    assert len(pushes) >= 3 and len(broadsides) >= 3
    chosen = [*pushes[:3], *broadsides[:3]]
    board.show(found)
    for text in chosen:
        board.click(*clicks_for(state, text))
        assert board.moves[-1] == text
    assert board.moves == chosen


def test_oubliette_every_legal_move_is_reachable_by_clicks(board: Board) -> None:
    state = played_oubliette(12, seed=5, board="abalone")
    found = observation(state)
    board.show(found)
    for text in found["legal_moves"]:
        board.click(*clicks_for(state, text))
    assert board.moves == found["legal_moves"]


def test_oubliette_picking_grows_a_line_and_a_second_click_unpicks(board: Board) -> None:
    found = observation(played_oubliette(0))
    board.show(found)
    before = board.picture()
    board.click("c3", "c4", "c5")
    assert board.picked == ["c3", "c4", "c5"]
    assert board.picture() != before
    assert close(board.colour("c4"), board.seat_colours["green"])
    board.click("c4")
    assert board.picked == ["c3"]
    board.click("c3")
    assert board.picked == []
    board.click("c4", "c5", "c3")
    assert board.picked == ["c4", "c5", "c3"]
    board.click("c4")
    assert board.picked == ["c5"]
    board.click("c4", "c3")
    assert board.picked == ["c5", "c4", "c3"]
    board.click("c5")
    assert board.picked == ["c4", "c3"]
    board.click("b4")
    assert board.picked == ["b4"]
    board.click("b4")
    assert board.picked == []
    assert board.picture() == before
    board.click("h5")
    assert board.picked == []
    assert board.moves == []


def test_oubliette_the_cells_a_pick_can_go_to_are_lit_with_no_hint(board: Board) -> None:
    state = played_oubliette(0)
    found = observation(state)
    board.show(found)
    names = hexgrid.CELL_NAMES
    before = board.colours(names)
    board.click("c3", "c4", "c5")
    targets = board_for(found).targets(("c3", "c4", "c5"))
    assert set(board.targets) == targets == {"c2", "c6", "d5", "d6"}
    after = board.colours(names)
    palette = board.palette()
    for name in targets:
        assert close(after[name], palette["hint"], 30), name
    unpicked = set(names) - targets - {"c3", "c4", "c5"}
    assert {name for name in unpicked if after[name] != before[name]} == set()
    board.click("c2")
    assert board.moves == ["c3-c5 w"]
    assert board.targets == []


def test_oubliette_a_refused_target_keeps_the_pick_and_says_why(board: Board) -> None:
    state = oubliette("e1 e2 a1", "e3 e4 i9")
    board.show(observation(state))
    board.click("e1", "e2", "e3")
    assert board.picked == ["e1", "e2"]
    assert board.moves == []
    assert board.note == state.refusal(state.parse_move("e1-e2 e"))
    assert "a push needs more of your pieces than theirs (2 against 2)" in board.note
    assert board.page.get_by_role("status").inner_text() == board.note
    board.click("g5")
    assert board.picked == ["e1", "e2"]
    assert "next to e2" in board.note
    board.click("d2")
    assert board.moves == ["e1-e2 se"]
    assert board.note == ""
    board.click("h5")
    assert board.note.startswith("To move, click your pieces")


def test_oubliette_the_last_move_is_marked(board: Board) -> None:
    state = oubliette("e6 e7 e8 a1", "e9 i9").play_text("e6-e8 e")
    found = observation(state)
    terminal = board_for(found)
    marked = in_the_page(board, found, "b => [b.moved, b.pushed, b.left, b.gone]", None)
    moved, pushed, left, gone = marked
    assert isinstance(terminal, OublietteBoard)
    assert (set(moved), set(pushed), set(left)) == (terminal.moved, terminal.pushed, terminal.left)
    assert tuple(gone) == terminal.gone == (4, 10)
    board.show(found)
    pitch = board.centre("e8")[0] - board.centre("e7")[0]
    unmarked = dict(found, last_move=None, last_pushed=0, last_ejected=False)

    def beside(name: str, share: float) -> Colour:
        x, y = board.centre(name)
        r, g, b = board.page.evaluate(
            """([x, y]) => {
                const canvas = document.querySelector("canvas");
                const rect = canvas.getBoundingClientRect();
                const px = Math.floor((x - rect.left) * canvas.width / rect.width);
                const py = Math.floor((y - rect.top) * canvas.height / rect.height);
                const probe = document.createElement("canvas").getContext("2d");
                probe.canvas.width = 1;
                probe.canvas.height = 1;
                probe.drawImage(canvas, px, py, 1, 1, 0, 0, 1, 1);
                return [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3);
            }""",
            [x + share * pitch, y],
        )
        return int(r), int(g), int(b)

    marks = {name: beside(name, 0.31) for name in ("e7", "e8", "e9")}
    gap = beside("e6", 0.16)
    picture = board.picture()
    board.show(unmarked)
    assert board.picture() != picture
    for name, colour in marks.items():
        assert not close(colour, beside(name, 0.31)), name
        assert close(colour, (255, 255, 255), 40), name
    assert not close(gap, beside("e6", 0.16))
    ejected_only = dict(found, last_ejected=False)
    board.show(ejected_only)
    assert board.picture() != picture


def test_oubliette_pick_stays_within_the_limit(board: Board) -> None:
    board.show(observation(played_oubliette(0, board="abalone")))
    board.click("a1", "a2", "a3")
    assert board.picked == ["a1", "a2", "a3"]
    board.click("a4")
    assert board.picked == ["a4"]


def test_show_clears_the_pick(board: Board) -> None:
    found = observation(played_oubliette(0))
    board.show(found)
    board.click("c3", "c4")
    board.show(found)
    assert board.picked == []


# The keyboard


def test_arrows_move_the_cursor_and_enter_plays_it(board: Board) -> None:
    found = observation(played("tribolo", 3))
    board.show(found)
    page = board.page
    page.evaluate("harness.view.focus()")
    assert board.cursor is None
    before = board.picture()
    page.keyboard.press("ArrowRight")
    assert board.cursor == "a1"
    assert board.picture() != before
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowLeft"):
        page.keyboard.press(key)
    assert board.cursor == "b3"
    page.keyboard.press("Enter")
    assert board.moves == ["b3"]
    page.keyboard.press("ArrowUp")
    page.keyboard.press(" ")
    assert board.moves == ["b3", "b2"]
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    assert board.cursor == f"{chr(ord('a') + found['cols'] - 1)}2"


def test_the_label_names_the_board_and_the_cursor_square(board: Board) -> None:
    found = observation(played("tribolo", 3))
    board.show(found)
    assert board.label().startswith("Tribolo board.")
    board.page.evaluate("harness.view.focus()")
    board.page.keyboard.press("ArrowDown")
    squares = flank_squares(found)
    seats = {letter: seat for seat, letter in found["letters"].items()}
    words = {".": "empty", "#": "blocked"} | seats
    assert board.label().startswith(f"Tribolo board. a1: {words[squares['a1']]}")
    for name in (found["last_move"], next(n for n, c in squares.items() if c == "#")):
        board.click(name)
        assert board.label().startswith(f"Tribolo board. {name}: {words[squares[name]]}")


def test_oubliette_arrows_keep_to_a_column_and_escape_clears_the_pick(board: Board) -> None:
    board.show(observation(played_oubliette(0)))
    page = board.page
    page.evaluate("harness.view.focus()")
    page.keyboard.press("ArrowUp")
    assert board.cursor == "i5"
    column = []
    for _ in range(9):
        page.keyboard.press("ArrowDown")
        column.append(board.cursor)
    assert column == ["h4", "g4", "f3", "e3", "d2", "c2", "b1", "a1", "a1"]
    for _ in range(8):
        page.keyboard.press("ArrowUp")
    assert board.cursor == "i5"
    page.keyboard.press("ArrowLeft")
    assert board.cursor == "i5"
    for key in ("ArrowDown",) * 6 + ("ArrowRight",):
        page.keyboard.press(key)
    assert board.cursor == "c3"
    page.keyboard.press("Enter")
    assert board.picked == ["c3"]
    page.keyboard.press("Escape")
    assert board.picked == []


def test_oubliette_keyboard_makes_a_move(board: Board) -> None:
    board.show(observation(played_oubliette(0)))
    board.click("c3")
    page = board.page
    page.keyboard.press("ArrowRight")
    assert board.cursor == "c4"
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert board.picked == ["c3", "c4", "c5"]
    assert board.moves == []
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert board.moves == ["c3-c5 e"]
    assert board.picked == []


# The same behaviour as the terminal client's boards

FAMILY_MODULES = {"tripppin": "tripppin.js", "oubliette": "oubliette.js"}
FAMILY_CLASSES = {"tripppin": "TripppinBoard", "oubliette": "OublietteBoard"}
KEYS: tuple[Step, ...] = ("up", "down", "left", "right")


def in_the_page(board: Board, found: Observation, script: str, argument: Any) -> Any:
    """Run `script` (a function of the game's board object and `argument`) in the page, on a
    board built straight from the family module, laid out on 800 x 600 pixels."""
    game = found["game"]
    module = FAMILY_MODULES.get(game, "flank.js")
    name = FAMILY_CLASSES.get(game, "FlankBoard")
    return board.page.evaluate(
        f"""async ([o, argument]) => {{
            const family = await import("/boards/{module}");
            const board = new family.{name}(o);
            board.layout(800, 600);
            return ({script})(board, argument);
        }}""",
        [found, argument],
    )


@pytest.mark.parametrize("game", GAMES_DRAWN)
def test_the_cursor_steps_as_in_the_terminal(board: Board, game: str) -> None:
    found = observation(played(game, 3))
    terminal = board_for(found)
    names = [cell.name for cell in terminal.cells]
    steps = in_the_page(
        board,
        found,
        "(b, keys) => [null, ...b.cells].map(n => keys.map(k => b.step(n, k)))",
        list(KEYS),
    )
    wanted = [[terminal.step(name, key) for key in KEYS] for name in [None, *names]]
    assert steps == wanted


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_oubliette_picks_and_hints_as_in_the_terminal(board: Board, seed: int) -> None:
    state = played_oubliette(8 * seed, seed=seed, board=("oubliette", "abalone")[seed % 2])
    found = observation(state)
    terminal = board_for(found)
    chooser = random.Random(seed)
    own = found["pieces"][found["to_move"]]
    clicks = [chooser.choice([*own, *own, *hexgrid.CELL_NAMES]) for _ in range(300)]
    picks = in_the_page(
        board,
        found,
        """(b, clicks) => {
            let picked = [];
            return clicks.map(square => {
                const result = b.pick(picked, square);
                const targets = [...b.targets(result.picked)].sort();
                picked = result.picked;
                return [result.picked, result.move, result.problem, targets];
            });
        }""",
        clicks,
    )
    result = Pick(())
    problems = set()
    for square, (picked, move, problem, targets) in zip(clicks, picks, strict=True):
        result = terminal.pick(result.picked, square)
        assert (tuple(picked), move, problem) == (result.picked, result.move, result.problem)
        assert targets == sorted(terminal.targets(result.picked)), square
        problems.add(problem)
    assert any(move for move, *_ in [pick[1:] for pick in picks])
    assert len(problems) > 2, problems
    moves = [*found["legal_moves"], "e5 w", "a1-a5 e", "e1-e9 e", "not a move", "i9-e5 sw"]
    hints = in_the_page(board, found, "(b, ms) => ms.map(m => [...b.hintSquares([m])])", moves)
    for move, squares in zip(moves, hints, strict=True):
        assert set(squares) == terminal.hint_squares([move]), move
    off_board = in_the_page(board, found, "(b, ms) => [...b.hintSquares(ms)]", ["a1-a9 e"])
    assert off_board == []


# Sizes


@pytest.mark.parametrize("game", GAMES_DRAWN)
def test_high_dpi_and_a_phone_screen(open_page: OpenPage, game: str) -> None:
    board = open_page(width=1200, height=900, scale=2)
    state = played(game, 4)
    found = observation(state)
    board.show(found)
    box = board.canvas_box()
    assert box["pixelsWide"] == 2 * box["width"]
    assert box["pixelsHigh"] == 2 * box["height"]
    assert box["height"] <= 0.75 * 900 + 1
    board.page.set_viewport_size({"width": 360, "height": 640})
    board.page.wait_for_function(
        "document.querySelector('canvas').getBoundingClientRect().right <= 360"
    )
    box = board.canvas_box()
    assert box["left"] >= 0 and box["right"] <= 360
    assert box["top"] >= 0 and box["bottom"] <= 640
    assert box["pixelsWide"] == 2 * box["width"]
    if game == "oubliette":
        corners = ["i5", "i9", "e1", "e9", "a1", "a5"]
    else:
        corners = ["a1", f"{chr(ord('a') + found['cols'] - 1)}{found['rows']}"]
    for name in corners:
        x, y = board.centre(name)
        assert box["left"] < x < box["right"] and box["top"] < y < box["bottom"]
    if isinstance(state, OublietteState):
        wanted = found["legal_moves"][:3]
        for text in wanted:
            board.click(*clicks_for(state, text))
    else:
        wanted = [*found["legal_moves"][:3], *corners]
        board.click(*wanted)
    assert board.moves == wanted


def test_resizing_keeps_hints_pick_and_cursor(open_page: OpenPage) -> None:
    board = open_page(width=1000, height=800)
    found = observation(played_oubliette(0))
    board.show(found)
    board.set_hints(["a1-c3 ne"])
    board.click("c3", "c4")
    board.page.keyboard.press("ArrowUp")
    hinted = board.colour("d4")
    before = board.canvas_box()
    board.page.set_viewport_size({"width": 500, "height": 800})
    board.page.wait_for_function("document.querySelector('canvas').width < 500")
    assert board.canvas_box()["width"] < before["width"]
    assert board.picked == ["c3", "c4"]
    assert board.cursor == "d4"
    assert board.colour("d4") == hinted
    assert board.colour("d4") != board.colour("d3")


# Hints


@pytest.mark.parametrize("game", GAMES_DRAWN)
def test_hints_light_the_hinted_squares_and_nothing_else(board: Board, game: str) -> None:
    state = played(game, 4)
    found = observation(state)
    board.show(found)
    hints = found["legal_moves"][:2]
    if game == "oubliette":
        assert isinstance(state, OublietteState)
        lit: set[str] = set()
        for text in hints:
            lit |= oubliette_hint_cells(state, text)
        names = hexgrid.CELL_NAMES
    else:
        lit = set(hints)
        names = tuple(
            f"{chr(ord('a') + col)}{row + 1}"
            for row in range(found["rows"])
            for col in range(found["cols"])
        )
    before = board.colours(names)
    board.set_hints(hints)
    after = board.colours(names)
    changed = {name for name in names if before[name] != after[name]}
    assert changed == lit
    palette = board.palette()
    for name in lit:
        assert close(after[name], palette["hint"], 30), name
    board.set_hints([])
    assert board.colours(names) == before


# Animations


def test_a_flip_turns_over_from_the_old_colour(board: Board) -> None:
    state = played("othello", 3)
    first = observation(state)
    move = first["legal_moves"][0]
    second = observation(state.play_text(move))
    flipped = second["flipped"][0]
    seats = board.seat_colours
    letters = {letter: seat for seat, letter in first["letters"].items()}
    old = seats[letters[flank_squares(first)[flipped]]]
    new = seats[letters[flank_squares(second)[flipped]]]
    board.show(first)
    assert close(board.show_and_read(second, [flipped])[flipped], old)
    board.page.wait_for_timeout(800)
    assert close(board.raw_colour(flipped), new)
    assert close(board.raw_colour(move), new)


def test_colour_at_shows_the_end_of_an_animation(board: Board) -> None:
    state = played("othello", 3)
    first = observation(state)
    second = observation(state.play_text(first["legal_moves"][0]))
    board.show(first)
    board.show(second, animate=True)
    seats = board.seat_colours
    flipped = second["flipped"][0]
    letters = {letter: seat for seat, letter in second["letters"].items()}
    assert close(board.colour(flipped), seats[letters[flank_squares(second)[flipped]]])


def test_no_animation_on_the_first_show_or_with_reduced_motion(open_page: OpenPage) -> None:
    state = played("othello", 3)
    first = observation(state)
    second = observation(state.play_text(first["legal_moves"][0]))
    flipped = second["flipped"][0]
    board = open_page()
    settled = board.show_and_read(second, [flipped])[flipped]
    letters = {letter: seat for seat, letter in second["letters"].items()}
    assert close(settled, board.seat_colours[letters[flank_squares(second)[flipped]]])
    calm = open_page(reduced_motion=True)
    calm.show(first)
    assert calm.show_and_read(second, [flipped])[flipped] == settled


def test_a_tripppin_piece_slides_from_its_square(board: Board) -> None:
    state = played("tripppin", 2)
    first = observation(state)
    mover = first["to_move"]
    second = observation(state.play_text(first["legal_moves"][0]))
    colour = board.seat_colours[mover]
    board.show(first)
    start, end = first["pieces"][mover], second["pieces"][mover]
    read = board.show_and_read(second, [start, end])
    assert close(read[start], colour)
    assert not close(read[end], colour)
    board.page.wait_for_timeout(800)
    assert close(board.raw_colour(end), colour)
    assert not close(board.raw_colour(start), colour)


def test_oubliette_pushed_pieces_slide_and_the_ejected_one_fades(board: Board) -> None:
    state = oubliette("e1 e2 e3", "e4 e5 i9", limit=9)
    first = observation(state)
    second = observation(state.play_text("e1-e3 e"))
    assert second["last_pushed"] == 2
    seats = board.seat_colours
    board.show(first)
    read = board.show_and_read(second, ["e1", "e5", "e6"])
    assert close(read["e1"], seats["green"])
    assert close(read["e5"], seats["red"])
    assert not close(read["e6"], seats["red"])
    board.page.wait_for_timeout(800)
    assert not close(board.raw_colour("e1"), seats["green"])
    assert close(board.raw_colour("e4"), seats["green"])
    assert close(board.raw_colour("e6"), seats["red"])
    state = oubliette("e6 e7 e8", "e9 i9")
    ejected = observation(state.play_text("e6-e8 e"))
    assert ejected["last_ejected"]
    board.show(observation(state))
    assert close(board.show_and_read(ejected, ["e9"])["e9"], seats["red"])
    board.page.wait_for_timeout(800)
    assert close(board.raw_colour("e9"), seats["green"])


# Legends


def test_tripppin_legend_says_where_the_mover_may_go(board: Board) -> None:
    found = observation(played("tripppin", 3))
    board.show(found)
    arrows = {"n": "↑", "ne": "↗", "e": "→", "se": "↘", "s": "↓", "sw": "↙", "w": "←", "nw": "↖"}
    mover = found["to_move"]
    other = next(seat for seat in found["seats"] if seat != mover)
    ways = " ".join(arrows[d] for d in found["directions"]) or "nowhere"
    assert board.legend() == [
        f"{mover.capitalize()} may go {ways} (the arrows under {other.capitalize()})"
    ]


def test_oubliette_legend_counts_ejections_and_tells_the_last_move(board: Board) -> None:
    board.show(observation(played_oubliette(0, board="abalone")))
    assert board.legend() == ["Green ejected 0 of 6 · Red ejected 0 of 6", "ply 0 · lines up to 3"]
    state = oubliette("e1 e2 e3 a1", "e4 e5 i9", holes="e6").play_text("e1-e3 e")
    board.show(observation(state))
    assert board.legend() == [
        "Green ejected 1 of 6 · Red ejected 0 of 6",
        "ply 1 · lines of any length",
        "last move e1-e3 e, pushed 2, ejected one",
    ]


def test_flank_boards_have_no_legend(board: Board) -> None:
    board.show(observation(played("numlo", 2)))
    assert board.legend() == []


# Lifecycle and pictures


def test_destroy_empties_the_container(board: Board) -> None:
    board.show(observation(played("othello", 1)))
    x, y = board.centre("c4")
    board.page.evaluate("harness.view.destroy()")
    assert board.page.evaluate("document.getElementById('board').children.length") == 0
    board.page.mouse.click(x, y)
    assert board.moves == []


def test_an_unknown_game_is_refused(board: Board) -> None:
    with pytest.raises(Error, match="no board for the game chess"):
        board.show({"game": "chess"})


@pytest.mark.parametrize("game", GAMES_DRAWN)
def test_pictures_of_the_boards(open_page: OpenPage, output: Path, game: str) -> None:
    board = open_page(width=760, height=900, scale=2)
    plies = {"oubliette": 9, "tripppin": 7}.get(game, 10)
    state = played(game, plies, seed=11)
    found = observation(state)
    board.show(found)
    board.set_hints(found["legal_moves"][:2])
    if game == "oubliette":
        seat = found["to_move"]
        board.click(found["pieces"][seat][0])
    picture = output / f"{game}.png"
    board.page.locator("#board").screenshot(path=str(picture))
    assert picture.stat().st_size > 10_000
