"""The flank games' board drawing, checked against real observations of all four games."""

from collections.abc import Iterator
from dataclasses import dataclass
from string import ascii_lowercase
from typing import Any

import pytest
from rich.style import Style
from rich.text import Text

from parlour.client.terminal.boards.base import CURSOR_SIDES, MOVED_SIDES, Marks, Pick, Step
from parlour.client.terminal.boards.flank import FlankBoard
from parlour.client.terminal.colours import BOARDS
from parlour.rules import GAMES

FLANK_GAMES = ("tribolo", "numlo", "doublolo", "othello")
SEEDS = (1, 3, 8)
STEPS: dict[Step, tuple[int, int]] = {
    "up": (0, -1),
    "down": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
}


def observe(game: str, seed: int = 3) -> dict[str, Any]:
    """The observation at the start of a game dealt from `seed`."""
    observation: dict[str, Any] = GAMES[game].new(seed=seed).observation()
    return observation


def observations(game: str, seed: int, plies: int = 12) -> Iterator[dict[str, Any]]:
    """The observations of a game dealt from `seed`, at the start and after each of the first
    `plies` moves (always the middle legal move, for some variety)."""
    state = GAMES[game].new(seed=seed)
    for _ in range(plies):
        observation: dict[str, Any] = state.observation()
        yield observation
        moves: list[str] = observation["legal_moves"]
        if not moves:
            return
        state = state.play_text(moves[len(moves) // 2])
    yield state.observation()


def all_observations() -> Iterator[dict[str, Any]]:
    for game in FLANK_GAMES:
        for seed in SEEDS:
            yield from observations(game, seed)


@dataclass(frozen=True)
class Picture:
    """A rendered board read back: its plain lines and the style of every character."""

    plain: list[str]
    styles: list[list[Style]]

    def style(self, x: int, y: int) -> Style:
        return self.styles[y][x]

    def at(self, x: int, y: int, width: int = 1) -> str:
        return self.plain[y][x : x + width]


def picture(text: Text) -> Picture:
    """Split `text` into lines and combine the spans over each character, in order."""
    plain, styles = [], []
    for line in text.split("\n", allow_blank=True):
        row = [Style()] * len(line.plain)
        for span in line.spans:
            style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
            for x in range(span.start, span.end):
                row[x] += style
        plain.append(line.plain)
        styles.append(row)
    return Picture(plain, styles)


def squares(observation: dict[str, Any]) -> dict[str, str]:
    """Every square's character in the observation's `board`, by square name."""
    return {
        f"{ascii_lowercase[col]}{row + 1}": char
        for row, line in enumerate(observation["board"])
        for col, char in enumerate(line)
    }


def values(observation: dict[str, Any]) -> dict[str, str]:
    """Numlo's square values by square name ('.' for none); empty for other games."""
    return {
        f"{ascii_lowercase[col]}{row + 1}": char
        for row, line in enumerate(observation["values"])
        for col, char in enumerate(line)
    }


def neighbour(name: str, dx: int, dy: int, rows: int, cols: int) -> str:
    """The square one step away, or `name` itself if that is off the board."""
    col, row = ascii_lowercase.index(name[0]) + dx, int(name[1:]) - 1 + dy
    return f"{ascii_lowercase[col]}{row + 1}" if 0 <= col < cols and 0 <= row < rows else name


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_one_cell_a_square_in_reading_order(game: str) -> None:
    observation = observe(game)
    board = FlankBoard(observation)
    assert [cell.name for cell in board.cells] == list(squares(observation))
    assert all(cell.width == 3 for cell in board.cells)


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_labels_match_the_square_names(game: str) -> None:
    board = FlankBoard(observe(game))
    drawn = picture(board.render(Marks()))
    margin = board.cells[0].x
    for cell in board.cells:
        assert drawn.at(cell.x + 1, 0) == cell.name[0]
        assert drawn.at(0, cell.y, margin).strip() == cell.name[1:]


def test_every_piece_is_drawn_in_its_seats_colour_on_its_square() -> None:
    for observation in all_observations():
        board = FlankBoard(observation)
        drawn = picture(board.render(Marks()))
        seat_of = {letter: seat for seat, letter in observation["letters"].items()}
        backgrounds: dict[str, set[object]] = {}
        board_squares = squares(observation)
        for cell in board.cells:
            char = board_squares[cell.name]
            background = drawn.style(cell.x + 1, cell.y).bgcolor
            if char in seat_of:
                assert drawn.at(cell.x + 1, cell.y) == char
                backgrounds.setdefault(seat_of[char], set()).add(background)
            else:
                assert not set(drawn.at(cell.x, cell.y, 3)) & set(seat_of)
                assert background is not None
                assert background.name in board.colours.squares
        assert all(len(colours) == 1 for colours in backgrounds.values())
        colours = [colour for seat_colours in backgrounds.values() for colour in seat_colours]
        assert len(set(colours)) == len(backgrounds)


@pytest.mark.parametrize("game", ["tribolo", "doublolo"])
def test_blocked_squares_are_grey_blocks(game: str) -> None:
    observation = observe(game)
    board = FlankBoard(observation)
    drawn = picture(board.render(Marks()))
    blocked = {name for name, char in squares(observation).items() if char == "#"}
    assert blocked
    for cell in board.cells:
        assert (drawn.at(cell.x, cell.y, 3) == "░░░") == (cell.name in blocked)
        if cell.name in blocked:
            colour = drawn.style(cell.x, cell.y).color
            assert colour is not None
            assert colour.name.startswith("grey")


@pytest.mark.parametrize("game", ["othello", "tribolo", "doublolo"])
def test_empty_squares_are_dots_on_the_games_board(game: str) -> None:
    observation = observe(game)
    board = FlankBoard(observation)
    assert board.colours == BOARDS[game]
    drawn = picture(board.render(Marks()))
    for cell in board.cells:
        if squares(observation)[cell.name] == ".":
            assert drawn.at(cell.x, cell.y, 3) == " · "
            style = drawn.style(cell.x + 1, cell.y)
            assert style.color is not None and style.color.name == board.colours.dot
            assert style.bgcolor is not None and style.bgcolor.name in board.colours.squares


@pytest.mark.parametrize("seed", SEEDS)
def test_numlo_values_show_on_empty_and_occupied_squares(seed: int) -> None:
    for observation in observations("numlo", seed):
        board = FlankBoard(observation)
        drawn = picture(board.render(Marks()))
        square_values = values(observation)
        assert any(value != "." for value in square_values.values())
        for cell in board.cells:
            char, value = squares(observation)[cell.name], square_values[cell.name]
            shown = drawn.at(cell.x, cell.y, 3)
            if value == ".":
                assert not any(c.isdigit() for c in shown)
            elif char == ".":
                assert shown == f" {value} "
                assert drawn.style(cell.x + 1, cell.y).bold
            else:
                assert shown[1:] == f"{char}{value}"
                assert drawn.style(cell.x + 2, cell.y) == drawn.style(cell.x + 1, cell.y)


def test_other_games_show_no_values() -> None:
    for game in ("tribolo", "doublolo", "othello"):
        board = FlankBoard(observe(game))
        margin = board.cells[0].x
        squares_drawn = "".join(line[margin:] for line in picture(board.render(Marks())).plain)
        assert not any(c.isdigit() for c in squares_drawn)


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_cell_at_finds_every_square_and_nothing_else(game: str) -> None:
    board = FlankBoard(observe(game))
    width, height = board.size()
    covered = set()
    for cell in board.cells:
        for x in range(cell.x, cell.x + cell.width):
            assert board.cell_at(x, cell.y) == cell.name
            covered.add((x, cell.y))
    for y in range(-1, height + 1):
        for x in range(-1, width + 2):
            if (x, y) not in covered:
                assert board.cell_at(x, y) is None, (x, y)


def test_doublolo_is_compact() -> None:
    observation = observe("doublolo")
    board = FlankBoard(observation)
    assert observation["cols"] == 23
    assert board.size() == (3 + 3 * 23, 1 + observation["rows"])


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_every_line_is_as_wide_as_the_board(game: str) -> None:
    board = FlankBoard(observe(game))
    width, _ = board.size()
    lines = board.render(Marks()).split("\n")
    assert {line.cell_len for line in lines[1:]} == {width}


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_step_goes_to_the_neighbour_and_stops_at_edges(game: str) -> None:
    observation = observe(game)
    board = FlankBoard(observation)
    rows, cols = observation["rows"], observation["cols"]
    for cell in board.cells:
        for direction, (dx, dy) in STEPS.items():
            expected = neighbour(cell.name, dx, dy, rows, cols)
            assert board.step(cell.name, direction) == expected, (cell.name, direction)
    assert board.step(None, "down") == "a1"


def test_hints_light_exactly_the_hinted_squares() -> None:
    for observation in all_observations():
        board = FlankBoard(observation)
        hinted = board.hint_squares(observation["legal_moves"])
        assert hinted == set(observation["legal_moves"])
        drawn = picture(board.render(Marks(hints=hinted)))
        for cell in board.cells:
            for x in range(cell.x, cell.x + 3):
                lit = drawn.style(x, cell.y).bgcolor
                assert (lit is not None and lit.name == board.colours.hint) == (
                    cell.name in hinted
                )
            if cell.name in hinted and squares(observation)[cell.name] == ".":
                assert drawn.at(cell.x + 1, cell.y) in "•0123456789"


def test_hint_squares_ignores_what_is_not_a_square() -> None:
    board = FlankBoard(observe("othello"))
    assert board.hint_squares(["d3", "z9", "pass"]) == {"d3"}


@pytest.mark.parametrize("game", FLANK_GAMES)
def test_the_cursor_brackets_its_square_which_keeps_its_colours(game: str) -> None:
    for observation in observations(game, 3, plies=4):
        board = FlankBoard(observation)
        plain = picture(board.render(Marks()))
        for square in ("c2", observation["last_move"] or "a1", *observation["flipped"][:1]):
            drawn = picture(board.render(Marks(cursor=square)))
            for cell in board.cells:
                left, middle, right = (drawn.at(cell.x + x, cell.y) for x in range(3))
                if cell.name != square:
                    assert left not in CURSOR_SIDES and right not in CURSOR_SIDES
                    continue
                assert left == "[" and right in "]0123456789"
                assert middle == plain.at(cell.x + 1, cell.y)
                assert drawn.style(cell.x + 1, cell.y) == plain.style(cell.x + 1, cell.y)
                assert not any(drawn.style(cell.x + x, cell.y).reverse for x in range(3))


def test_last_move_is_pointed_at_and_flipped_pieces_are_in_italics() -> None:
    for observation in all_observations():
        if observation["last_move"] is None:
            continue
        assert observation["flipped"]
        board = FlankBoard(observation)
        drawn = picture(board.render(Marks()))
        for cell in board.cells:
            style = drawn.style(cell.x + 1, cell.y)
            last = cell.name == observation["last_move"]
            assert (drawn.at(cell.x, cell.y) == MOVED_SIDES[0]) == last
            right = drawn.at(cell.x + 2, cell.y)
            assert (right == MOVED_SIDES[1]) == (last and not right.isdigit())
            assert bool(style.italic) == (cell.name in observation["flipped"])


def test_a_replay_points_at_every_square_the_move_changed() -> None:
    observation = list(observations("othello", 3, plies=3))[-1]
    changed = frozenset({observation["last_move"], *observation["flipped"]})
    drawn = picture(FlankBoard(observation).render(Marks(changed=changed)))
    board = FlankBoard(observation)
    for cell in board.cells:
        marked = drawn.at(cell.x, cell.y) + drawn.at(cell.x + 2, cell.y) == "".join(MOVED_SIDES)
        assert marked == (cell.name in changed)


def test_a_click_is_a_whole_move() -> None:
    board = FlankBoard(observe("tribolo"))
    assert board.pick((), "d5") == Pick((), "d5")
    assert board.pick(("a1",), "l11") == Pick((), "l11")
