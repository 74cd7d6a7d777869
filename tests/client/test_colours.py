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
from textual.geometry import Region

from parlour.client.boards import board_for, flank, oubliette, tripppin
from parlour.client.boards.base import Board, Marks
from parlour.client.boards.tripppin import FULL
from parlour.client.colours import SEAT_RGB
from parlour.client.widgets import BoardView
from parlour.rules import GAMES

Depth = Literal["truecolor", "256", "standard"]
DEPTHS: tuple[Depth, ...] = ("truecolor", "256", "standard")

PIECE_BACKGROUND: dict[str, dict[Depth, str]] = {
    "blue": {"truecolor": "48;2;0;81;180", "256": "48;5;25", "standard": "44"},
    "red": {"truecolor": "48;2;204;35;46", "256": "48;5;160", "standard": "41"},
    "green": {"truecolor": "48;2;34;157;79", "256": "48;5;35", "standard": "42"},
    "black": {"truecolor": "48;2;28;28;31", "256": "48;5;234", "standard": "40"},
    "white": {"truecolor": "48;2;245;244;239", "256": "48;5;231", "standard": "107"},
    "grey": {"truecolor": "48;2;141;147;156", "256": "48;5;246", "standard": "47"},
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
    "grey": BLACK_LETTER,
}
"""The SGR code of the letter on each seat's piece."""
INK: dict[str, dict[Depth, str]] = {
    "green": {"truecolor": "38;2;34;157;79", "256": "38;5;35", "standard": "32"},
    "red": {"truecolor": "38;2;204;35;46", "256": "38;5;160", "standard": "31"},
}
"""The SGR code of Oubliette's discs, drawn in the seat's colour on the board."""

ROOT = Path(__file__).resolve().parents[2]
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
            with console.capture() as capture:
                console.print(board.render(Marks()), crop=False)
            written.setdefault(game, []).append(capture.get())
    print(json.dumps(written))


@cache
def written_boards(depth: Depth) -> dict[str, list[str]]:
    """What `write_boards` writes at this depth, from a process of its own."""
    command = f"from tests.client.test_colours import write_boards; write_boards({depth!r})"
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


def pieces(board: Board) -> Iterator[Piece]:
    """Where each seat's pieces are drawn: the letter's column and row."""
    observation = board.observation
    cells = {cell.name: cell for cell in board.cells}
    game = observation["game"]
    if game == "tripppin":
        for seat, square in observation["pieces"].items():
            cell = cells[square]
            yield Piece(seat, cell.x + FULL.centre[0], cell.y, seat[0].upper())
    elif game == "oubliette":
        for seat, squares in observation["pieces"].items():
            for square in squares:
                yield Piece(seat, cells[square].x + 1, cells[square].y, None)
    else:
        seat_of = {letter: seat for seat, letter in observation["letters"].items()}
        for cell in board.cells:
            row, col = int(cell.name[1:]) - 1, ord(cell.name[0]) - ord("a")
            letter = observation["board"][row][col]
            if letter in seat_of:
                yield Piece(seat_of[letter], cell.x + 1, cell.y, letter)


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
