"""Each seat's colour in the terminal: its own RGB in truecolor, and the palette entry of its
own colour in 256 and in 16 colours, in the boards' drawings as Rich writes them and in what
Textual writes for the real BoardView, whatever the terminal says it can show."""

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from io import StringIO
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import pytest
import textual.constants
from rich._palettes import EIGHT_BIT_PALETTE, STANDARD_PALETTE
from rich.color import ColorType
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.color import Color as TextualColor
from textual.geometry import Region
from textual.widgets import Label, ListItem

from parlour.client.terminal.boards import board_for, flank, oubliette, tripppin
from parlour.client.terminal.boards.base import Board, Marks
from parlour.client.terminal.boards.tripppin import FULL
from parlour.client.terminal.charts import ChartData, PlyChart
from parlour.client.terminal.colours import SEAT_RGB, label_style
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import BoardView, SeatsPanel
from parlour.rules import GAMES

from .test_room import view_of

Depth = Literal["truecolor", "256", "standard"]
DEPTHS: tuple[Depth, ...] = ("truecolor", "256", "standard")

PIECE_BACKGROUND: dict[str, dict[Depth, str]] = {
    "blue": {"truecolor": "48;2;0;81;180", "256": "48;5;25", "standard": "44"},
    "red": {"truecolor": "48;2;212;42;42", "256": "48;5;160", "standard": "41"},
    "green": {"truecolor": "48;2;23;138;69", "256": "48;5;29", "standard": "42"},
    "black": {"truecolor": "48;2;28;28;31", "256": "48;5;234", "standard": "40"},
    "white": {"truecolor": "48;2;245;244;239", "256": "48;5;231", "standard": "107"},
    "grey": {"truecolor": "48;2;110;116;124", "256": "48;5;242", "standard": "100"},
}
"""The SGR code of each seat's piece: blue on blue (44, not bright blue's violet 104), red on
red (160 #d70000, not 167's pink), green on green, and so on."""
WHITE_LETTER: dict[Depth, str] = {
    "truecolor": "38;2;255;255;255",
    "256": "38;5;231",
    "standard": "97",
}
BLACK_LETTER: dict[Depth, str] = {"truecolor": "38;2;0;0;0", "256": "38;5;16", "standard": "30"}
LETTER = {
    "blue": WHITE_LETTER,
    "red": WHITE_LETTER,
    "green": BLACK_LETTER,
    "black": WHITE_LETTER,
    "white": BLACK_LETTER,
    "grey": WHITE_LETTER,
}
"""The SGR code of the letter on each seat's piece."""
INK: dict[str, dict[Depth, str]] = {
    "green": {"truecolor": "38;2;23;138;69", "256": "38;5;29", "standard": "32"},
    "red": {"truecolor": "38;2;212;42;42", "256": "38;5;160", "standard": "31"},
}
"""The SGR code of Oubliette's discs, drawn in the seat's colour on the board."""

Seen = Literal["truecolor", "256", "standard", "grey"]
SEEN: tuple[Seen, ...] = (*DEPTHS, "grey")
"""Every way a board is seen: the three depths, and truecolor turned grey by Textual's
monochrome filter (what NO_COLOR gives)."""
LEAST_CONTRAST: dict[Seen, float] = {"truecolor": 3.0, "256": 3.0, "standard": 2.5, "grey": 2.5}
"""The least contrast ratio (WCAG) between a piece and the board it stands on, and between a
mark and what it is drawn on: WCAG's 3 for graphics where the colours are ours to pick,
less where the palette leaves few (VGA's red on black is 2.7, and red turned grey is dark)."""
LEAST_HINT_CONTRAST = 2.0
"""A hinted square against the board's own squares (under a black dot that reads on it)."""

ROOT = Path(__file__).resolve().parents[3]
SGR = re.compile(r"\x1b\[([0-9;]*)m")


@dataclass(frozen=True)
class Drawn:
    """One character as the terminal is told to draw it: its colours as SGR codes."""

    char: str
    fg: str | None
    bg: str | None


def apply(params: str, fg: str | None, bg: str | None) -> tuple[str | None, str | None]:
    """The foreground and background codes after an SGR sequence with these parameters."""
    codes = [int(code) for code in params.split(";") if code] or [0]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code in (38, 48):
            length = 3 if codes[i + 1] == 5 else 5
            found = ";".join(str(part) for part in codes[i : i + length])
            fg, bg = (found, bg) if code == 38 else (fg, found)
            i += length
            continue
        if 30 <= code <= 37 or 90 <= code <= 97:
            fg = str(code)
        elif 40 <= code <= 47 or 100 <= code <= 107:
            bg = str(code)
        elif code in (0, 39, 49):
            fg = None if code in (0, 39) else fg
            bg = None if code in (0, 49) else bg
        i += 1
    return fg, bg


def read_back(output: str) -> list[list[Drawn]]:
    """Terminal output read back as rows of characters with the colours they were given."""
    rows: list[list[Drawn]] = [[]]
    fg: str | None = None
    bg: str | None = None
    position = 0
    for match in [*SGR.finditer(output), None]:
        end = len(output) if match is None else match.start()
        for char in output[position:end]:
            if char == "\n":
                rows.append([])
            elif char != "\r":
                rows[-1].append(Drawn(char, fg, bg))
        if match is not None:
            fg, bg = apply(match[1], fg, bg)
            position = match.end()
    return rows


def write_boards(depth: Depth) -> None:
    """Print, as JSON, every game's boards (those of `boards`) as a Rich console of this
    depth writes them. Run in a process of its own for each depth, as a terminal would: Rich
    keeps a style's escape codes on the style, for the depth it was first written in."""
    console = Console(
        color_system=depth, force_terminal=True, width=300, file=StringIO(), legacy_windows=False
    )
    written: dict[str, list[str]] = {}
    for game in GAMES:
        for board in boards(game):
            for key, marks in ((game, Marks(blink=False)), (f"{game} marked", marked(board))):
                with console.capture() as capture:
                    console.print(board.render(marks), crop=False)
                written.setdefault(key, []).append(capture.get())
    print(json.dumps(written))


def marked(board: Board) -> Marks:
    """Marks over a board: the cursor on a piece, a few moves hinted, and (Oubliette) a piece
    picked, its targets lit."""
    squares = [piece.square for piece in pieces(board)]
    moves: list[str] = board.observation["legal_moves"]
    mover = board.observation["to_move"]
    picked = tuple(
        piece.square for piece in pieces(board) if piece.seat == mover and piece.letter is None
    )[-1:]
    return Marks(
        cursor=squares[0],
        hints=board.hint_squares(moves[:4]),
        picked=picked,
        blink=False,
    )


@cache
def written_boards(depth: Depth) -> dict[str, list[str]]:
    """What `write_boards` writes at this depth, from a process of its own."""
    command = (
        f"from tests.client.terminal.test_colours import write_boards; write_boards({depth!r})"
    )
    done = subprocess.run(
        [sys.executable, "-c", command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    written: dict[str, list[str]] = json.loads(done.stdout)
    return written


@dataclass(frozen=True)
class Piece:
    seat: str
    x: int
    y: int
    letter: str | None
    """The letter on the piece, or None for Oubliette's discs, which have none."""
    square: str


def pieces(board: Board) -> Iterator[Piece]:
    """Where each seat's pieces are drawn: the letter's column and row."""
    observation = board.observation
    cells = {cell.name: cell for cell in board.cells}
    game = observation["game"]
    if game == "tripppin":
        for seat, square in observation["pieces"].items():
            cell = cells[square]
            yield Piece(seat, cell.x + FULL.centre[0], cell.y, seat[0].upper(), square)
    elif game == "oubliette":
        for seat, squares in observation["pieces"].items():
            for square in squares:
                yield Piece(seat, cells[square].x + 1, cells[square].y, None, square)
    else:
        seat_of = {letter: seat for seat, letter in observation["letters"].items()}
        for cell in board.cells:
            row, col = int(cell.name[1:]) - 1, ord(cell.name[0]) - ord("a")
            letter = observation["board"][row][col]
            if letter in seat_of:
                yield Piece(seat_of[letter], cell.x + 1, cell.y, letter, cell.name)


def boards(game: str) -> Iterator[Board]:
    """The board at the start of the game and after a few moves."""
    state = GAMES[game].new(seed=3)
    for _ in range(6):
        observation: dict[str, Any] = state.observation()
        yield board_for(observation)
        moves: list[str] = observation["legal_moves"]
        if not moves:
            return
        state = state.play_text(moves[len(moves) // 2])


def check_pieces(board: Board, rows: list[list[Drawn]], depth: Depth) -> dict[str, set[str]]:
    """Every piece in its seat's colour with its letter in the letter's colour; the colours
    each seat's pieces were drawn in."""
    seen: dict[str, set[str]] = {}
    for piece in pieces(board):
        drawn = rows[piece.y][piece.x]
        if piece.letter is None:
            assert drawn.char in "●◉", piece
            assert drawn.fg == INK[piece.seat][depth], (piece, drawn)
            seen.setdefault(piece.seat, set()).add(drawn.fg)
            continue
        assert drawn.char == piece.letter, (piece, drawn)
        assert drawn.bg == PIECE_BACKGROUND[piece.seat][depth], (piece, drawn)
        assert drawn.fg == LETTER[piece.seat][depth], (piece, drawn)
        if board.observation["game"] == "tripppin":
            for x, _ in FULL.piece_span:
                beside = rows[piece.y][piece.x - FULL.centre[0] + x]
                assert beside.bg == drawn.bg, (piece, beside)
        seen.setdefault(piece.seat, set()).add(drawn.bg)
    return seen


def test_every_games_seats_have_a_colour() -> None:
    for game in GAMES.values():
        assert set(game.seats) <= set(SEAT_RGB), game.seats
    assert set(SEAT_RGB) == set(PIECE_BACKGROUND)


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("game", list(GAMES))
def test_each_seat_is_drawn_in_its_own_colour(game: str, depth: Depth) -> None:
    written = written_boards(depth)[game]
    assert len(written) > 1
    for board, output in zip(boards(game), written, strict=True):
        seen = check_pieces(board, read_back(output), depth)
        assert set(seen) == set(board.observation["seats"])
        assert all(len(colours) == 1 for colours in seen.values()), seen
        assert len({colour for colours in seen.values() for colour in colours}) == len(seen)


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("game", list(GAMES))
def test_no_two_seats_of_a_game_share_a_colour(game: str, depth: Depth) -> None:
    seats = GAMES[game].seats
    codes = PIECE_BACKGROUND if game != "oubliette" else INK
    assert len({codes[seat][depth] for seat in seats}) == len(seats)


def rgb_of(code: str) -> tuple[int, int, int]:
    """The colour an SGR colour code stands for: its own RGB, the 256-colour palette's entry,
    or the 16-colour entry as Rich takes it (the VGA palette)."""
    parts = [int(part) for part in code.split(";")]
    if parts[1:2] == [2]:
        red, green, blue = parts[2:5]
        return red, green, blue
    if parts[1:2] == [5]:
        return EIGHT_BIT_PALETTE[parts[2]]
    number = parts[0] % 10 + (8 if parts[0] >= 90 else 0)
    return STANDARD_PALETTE[number]


def contrast(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours."""

    def channel(value: int) -> float:
        share = value / 255
        return share / 12.92 if share <= 0.04045 else ((share + 0.055) / 1.055) ** 2.4

    def luminance(rgb: tuple[int, int, int]) -> float:
        red, green, blue = (channel(value) for value in rgb)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("seat", list(PIECE_BACKGROUND))
def test_the_letter_reads_on_its_piece(seat: str, depth: Depth) -> None:
    piece, letter = rgb_of(PIECE_BACKGROUND[seat][depth]), rgb_of(LETTER[seat][depth])
    assert contrast(piece, letter) >= 4.5, (seat, depth, piece, letter)


def seen_as(code: str, seen: Seen) -> tuple[int, int, int]:
    """The colour a code written at `seen`'s depth shows; for grey, the truecolor code as
    Textual's monochrome filter turns it."""
    red, green, blue = rgb_of(code)
    if seen != "grey":
        return red, green, blue
    grey = TextualColor(red, green, blue).monochrome
    return grey.r, grey.g, grey.b


def written_as(seen: Seen) -> dict[str, list[str]]:
    """The boards as written for this way of seeing them (grey from truecolor)."""
    return written_boards("truecolor" if seen == "grey" else seen)


def board_under(board: Board, piece: Piece, rows: list[list[Drawn]]) -> set[str]:
    """The codes of the board a piece stands on: the empty squares of a flank game, the
    piece's tile beside it in Tripppin, Oubliette's cell under the disc."""
    game = board.observation["game"]
    if game == "oubliette":
        under = rows[piece.y][piece.x].bg
        return set() if under is None else {under}
    if game == "tripppin":
        beside = rows[piece.y][piece.x - FULL.centre[0]].bg
        return set() if beside is None else {beside}
    return {
        drawn.bg
        for cell in board.cells
        for drawn in [rows[cell.y][cell.x + 1]]
        if drawn.char == "·" and drawn.bg is not None
    }


def piece_code(piece: Piece, drawn: Drawn) -> str | None:
    """The code of a piece's own colour: its background, or a disc's ink."""
    return drawn.fg if piece.letter is None else drawn.bg


@pytest.mark.parametrize("seen", SEEN)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_piece_stands_out_from_its_board(game: str, seen: Seen) -> None:
    """Black discs were all but the colour of the terminal behind them (1.1 : 1); now each
    game's board is its own colour, and every seat's pieces stand out from it."""
    least = LEAST_CONTRAST[seen]
    for board, output in zip(boards(game), written_as(seen)[game], strict=True):
        rows = read_back(output)
        for piece in pieces(board):
            code = piece_code(piece, rows[piece.y][piece.x])
            assert code is not None, piece
            under = board_under(board, piece, rows)
            assert under, piece
            for square in under:
                ratio = contrast(seen_as(code, seen), seen_as(square, seen))
                assert ratio >= least, (piece, seen, code, square, round(ratio, 2))


@pytest.mark.parametrize("seen", SEEN)
@pytest.mark.parametrize("game", list(GAMES))
def test_marks_leave_each_piece_its_colour_and_read_on_the_board(game: str, seen: Seen) -> None:
    """The cursor on a piece frames it without changing its colours; hinted squares stand
    apart from the board, their dots and the discs on them read; the cursor's brackets and
    the last move's pointers read on what they are drawn on."""
    least = LEAST_CONTRAST[seen]
    written = written_as(seen)
    for board, plain, output in zip(
        boards(game), written[game], written[f"{game} marked"], strict=True
    ):
        before, rows = read_back(plain), read_back(output)
        marks = marked(board)
        cursor = next(piece for piece in pieces(board) if piece.square == marks.cursor)
        drawn = rows[cursor.y][cursor.x]
        if marks.cursor not in marks.picked:
            assert (drawn.char, drawn.fg, drawn.bg) == astuple_of(before[cursor.y][cursor.x])
        squares = board_under(board, next(iter(pieces(board))), before)
        lit = marks.hints | board.targets(marks.picked)
        for cell in board.cells:
            for x in range(cell.x, cell.x + cell.width):
                mark = rows[cell.y][x]
                if mark.bg is None or mark.fg is None or mark.char == " ":
                    continue
                if mark.char in "[]•\u203a\u2039●◉":
                    ratio = contrast(seen_as(mark.fg, seen), seen_as(mark.bg, seen))
                    assert ratio >= least, (cell.name, mark, seen, round(ratio, 2))
            middle = rows[cell.y][cell.x + cell.width // 2]
            if cell.name in lit and middle.bg is not None and game != "oubliette":
                for square in squares:
                    ratio = contrast(seen_as(middle.bg, seen), seen_as(square, seen))
                    assert ratio >= LEAST_HINT_CONTRAST, (cell.name, seen, round(ratio, 2))


def astuple_of(drawn: Drawn) -> tuple[str, str | None, str | None]:
    return drawn.char, drawn.fg, drawn.bg


class BoardApp(App[None]):
    """Just the board, as the room screen shows it."""

    CSS = "#board { margin: 1 2; width: auto; height: auto; }"

    def __init__(self, observation: dict[str, Any], *, ansi_color: bool) -> None:
        super().__init__(ansi_color=ansi_color)
        self.observation = observation

    def compose(self) -> ComposeResult:
        yield BoardView(id="board")

    def on_mount(self) -> None:
        view = self.query_one(BoardView)
        view.show(self.observation, None)
        view.focus()


async def drawn_by_textual(
    observation: dict[str, Any], *, ansi_color: bool = False
) -> tuple[str | None, Board, list[list[Drawn]]]:
    """The colour system Textual picked, the board, and what Textual writes for it to the
    terminal (the same strips and console that the app's driver writes with)."""
    app = BoardApp(observation, ansi_color=ansi_color)
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause()
        view = app.query_one(BoardView)
        assert view.board is not None
        strips = view.render_lines(Region(0, 0, view.size.width, view.size.height))
        output = "\n".join(strip.render(app.console) for strip in strips)
        return app.console.color_system, view.board, read_back(output)


@pytest.mark.parametrize("ansi_color", [False, True])
@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("game", ["tribolo", "othello", "doublolo", "tripppin", "oubliette"])
async def test_textual_draws_the_seats_colours_at_every_depth(
    monkeypatch: pytest.MonkeyPatch, game: str, depth: Depth, ansi_color: bool
) -> None:
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", depth)
    observation: dict[str, Any] = GAMES[game].new(seed=3).observation()
    system, board, rows = await drawn_by_textual(observation, ansi_color=ansi_color)
    assert system == depth
    seen = check_pieces(board, rows, depth)
    assert set(seen) == set(observation["seats"])


TERMINALS = [
    ({"COLORTERM": "truecolor", "TERM": "xterm-256color"}, "truecolor"),
    ({"TERM": "tmux-256color"}, "256"),
    ({"TERM": "xterm-256color"}, "256"),
    ({"TERM": "screen"}, "standard"),
    ({"TERM": "xterm"}, "standard"),
]


@pytest.mark.parametrize(("environment", "depth"), TERMINALS)
async def test_textual_picks_the_depth_from_the_terminal_and_keeps_the_colours(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], depth: Depth
) -> None:
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "auto")
    for name in ("COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    observation: dict[str, Any] = GAMES["tribolo"].new(seed=3).observation()
    system, board, rows = await drawn_by_textual(observation)
    assert system == depth
    assert set(check_pieces(board, rows, depth)) == {"blue", "red", "green"}


def test_read_back_follows_the_escape_codes() -> None:
    console = Console(color_system="standard", force_terminal=True, file=StringIO(), width=20)
    with console.capture() as capture:
        console.print(Text.assemble(("ab", "bold white on blue"), "c"), end="")
    assert read_back(capture.get()) == [
        [Drawn("a", "37", "44"), Drawn("b", "37", "44"), Drawn("c", None, None)]
    ]


@pytest.mark.parametrize("module", [flank, oubliette, tripppin])
def test_no_board_colour_is_a_theme_palette_slot(module: ModuleType) -> None:
    """The 16 ANSI colours are repainted by Textual's theme (yellow comes out mustard, cyan
    teal): every colour a board draws in is RGB or a fixed 256-colour grey."""
    for name, value in vars(module).items():
        styles = value if isinstance(value, tuple) else (value,)
        for style in styles:
            if isinstance(style, Style):
                for colour in (style.color, style.bgcolor):
                    assert colour is None or colour.type is not ColorType.STANDARD, name


class ChartApp(App[None]):
    """One chart of a game's seats, as the replay shows it."""

    def __init__(self, seats: tuple[str, ...], shown: tuple[str, ...]) -> None:
        super().__init__()
        self.seats, self.shown = seats, shown

    def compose(self) -> ComposeResult:
        yield PlyChart(id="chart")

    def on_mount(self) -> None:
        series = {
            seat: [float((ply * (index + 2)) % 9) for ply in range(12)]
            for index, seat in enumerate(self.seats)
            if seat in self.shown
        }
        data = ChartData(series=series, last=11, cursor=11, low=0.0, high=9.0, caption="Score")
        self.query_one(PlyChart).show(data)


async def chart_drawn(seats: tuple[str, ...], shown: tuple[str, ...]) -> list[list[Drawn]]:
    """What Textual writes for a chart of `seats` with the lines of `shown` drawn."""
    app = ChartApp(seats, shown)
    async with app.run_test(size=(60, 16)) as pilot:
        await pilot.pause()
        chart = app.query_one(PlyChart)
        strips = chart.render_lines(Region(0, 0, chart.size.width, chart.size.height))
        return read_back("\n".join(strip.render(app.console) for strip in strips))


def line_codes(rows: list[list[Drawn]]) -> set[tuple[str, str]]:
    """The (ink, background) codes of the chart's braille dots."""
    return {
        (drawn.fg, drawn.bg)
        for row in rows
        for drawn in row
        if "\u2801" <= drawn.char <= "\u28ff" and drawn.fg is not None and drawn.bg is not None
    }


@pytest.mark.parametrize("seen", SEEN)
@pytest.mark.parametrize("game", ["othello", "tribolo", "doublolo", "tripppin"])
async def test_every_seats_chart_line_reads_on_the_chart(
    monkeypatch: pytest.MonkeyPatch, game: str, seen: Seen
) -> None:
    """Black's line was colour 234 on 233; each seat's line now reads on the chart's own
    background, and no two seats of a game share a colour."""
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "truecolor" if seen == "grey" else seen)
    seats = GAMES[game].seats
    inks = []
    for seat in seats:
        codes = line_codes(await chart_drawn(seats, (seat,)))
        assert len({ink for ink, _ in codes}) == 1, (seat, codes)
        for ink, background in codes:
            ratio = contrast(seen_as(ink, seen), seen_as(background, seen))
            assert ratio >= LEAST_CONTRAST[seen], (game, seat, seen, ink, background, ratio)
            inks.append(seen_as(ink, seen))
    assert len(set(inks)) == len(seats), inks


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("seat", list(SEAT_RGB))
def test_a_seats_label_reads_on_any_background(seat: str, depth: Depth) -> None:
    """A seat's name in the replay is its letter colour on its own colour, as a piece is:
    it reads on a dark theme and a light one, unlike a seat's colour on the screen's."""
    console = Console(color_system=depth, force_terminal=True, file=StringIO(), width=40)
    with console.capture() as capture:
        console.print(Text(" Black ", label_style(seat)), end="")
    drawn = read_back(capture.get())[0][2]
    assert drawn.fg is not None and drawn.bg is not None
    assert contrast(rgb_of(drawn.fg), rgb_of(drawn.bg)) >= 4.5


LOW_CLOCK = {
    "control": {"kind": "live", "base_s": 300, "increment_s": 3},
    "left_ms": {"black": 9_300, "white": 300_000},
    "running": "black",
    "at": 0,
}


class SeatsApp(App[None]):
    """The seats with their clocks, as the room screen shows them: black low on time."""

    def compose(self) -> ComposeResult:
        yield SeatsPanel(["easy"], "easy", id="seats")

    def on_mount(self) -> None:
        view = view_of("othello", []) | {"clock": LOW_CLOCK, "time_control": LOW_CLOCK["control"]}
        self.query_one(SeatsPanel).show(RoomModel(view, "r1", now=lambda: 0.0), 0.0)


async def clocks_drawn() -> dict[str, list[Drawn]]:
    """What Textual writes for each seat's line: the characters of its clock and name."""
    app = SeatsApp()
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        lines = {}
        for item in app.query(ListItem):
            label = item.query_one(Label)
            strips = label.render_lines(Region(0, 0, label.size.width, 1))
            assert item.name is not None
            lines[item.name] = read_back(strips[0].render(app.console))[0]
        return lines


@pytest.mark.parametrize("seen", SEEN)
async def test_a_clock_low_on_time_reads_on_any_background(
    monkeypatch: pytest.MonkeyPatch, seen: Seen
) -> None:
    """A clock under ten seconds is white on the low-time red, as Textual draws the seats at
    every depth and in grey: it reads whatever the theme, and the other clock is plain."""
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "truecolor" if seen == "grey" else seen)
    lines = await clocks_drawn()
    black = "".join(drawn.char for drawn in lines["black"])
    assert black.startswith("▶  0:09.3  Black: ann (you)"), black
    at = black.index("0:09.3")
    figure = lines["black"][at : at + len("0:09.3")]
    for drawn in figure:
        assert drawn.fg is not None and drawn.bg is not None, drawn
        ratio = contrast(seen_as(drawn.fg, seen), seen_as(drawn.bg, seen))
        assert ratio >= 4.5, (seen, drawn, round(ratio, 2))
    if seen == "standard":
        assert {drawn.bg for drawn in figure} == {"41"}, "red, not 16-colour bright red"
    white = "".join(drawn.char for drawn in lines["white"])
    assert white.startswith("     5:00  White: computer"), "right-aligned, the names in line"
    plain = lines["white"][white.index("5:00") :][:4]
    assert {drawn.bg for drawn in plain} != {drawn.bg for drawn in figure}
