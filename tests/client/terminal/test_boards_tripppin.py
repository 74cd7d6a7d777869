"""Tripppin's board drawing, checked against real observations."""

from collections.abc import Iterator
from typing import Any

import pytest
from rich.color import Color
from rich.style import Style

from parlour.client.terminal.boards.base import MOVED_SIDES, Cell, Marks, Pick
from parlour.client.terminal.boards.tripppin import TripppinBoard
from parlour.client.terminal.colours import TILES
from parlour.rules import GAMES

from .test_boards_flank import STEPS, Picture, neighbour, picture

SEEDS = (1, 3, 8)
ARROWS = {
    "n": ((2, 0), "↑"),
    "ne": ((4, 0), "↗"),
    "e": ((4, 1), "→"),
    "se": ((4, 2), "↘"),
    "s": ((2, 2), "↓"),
    "sw": ((0, 2), "↙"),
    "w": ((0, 1), "←"),
    "nw": ((0, 0), "↖"),
}
"""Each direction's arrow and its (column, row) in a tile five wide and three high."""
CENTRE = (2, 1)
CORNERS = ((0, 0), (4, 0), (0, 2), (4, 2))
LETTERS = {"blue": "B", "grey": "G"}


def observe(seed: int = 3) -> dict[str, Any]:
    """The observation at the start of the game dealt from `seed`."""
    observation: dict[str, Any] = GAMES["tripppin"].new(seed=seed).observation()
    return observation


def observations(seed: int, plies: int = 24) -> Iterator[dict[str, Any]]:
    """The observations of the game dealt from `seed`, at the start and after each of the
    first `plies` moves (a different legal move each ply, for variety)."""
    state = GAMES["tripppin"].new(seed=seed)
    for ply in range(plies):
        observation: dict[str, Any] = state.observation()
        yield observation
        moves: list[str] = observation["legal_moves"]
        if not moves:
            return
        state = state.play_text(moves[ply % len(moves)])
    yield state.observation()


def all_observations() -> Iterator[dict[str, Any]]:
    for seed in SEEDS:
        yield from observations(seed)


def tile_char(drawn: Picture, cell: Cell, where: tuple[int, int]) -> str:
    """The character at (column, row) of the tile drawn for `cell`."""
    x, y = where
    return drawn.at(cell.x + x, cell.y - 1 + y)


def tile_style(drawn: Picture, cell: Cell, where: tuple[int, int]) -> Style:
    """The style at (column, row) of the tile drawn for `cell`."""
    x, y = where
    return drawn.style(cell.x + x, cell.y - 1 + y)


def tile_area(cell: Cell) -> list[tuple[int, int]]:
    """Every column and row of the picture that the tile of `cell` covers."""
    return [(cell.x + x, cell.y + y) for y in (-1, 0, 1) for x in range(5)]


def arrows_of(observation: dict[str, Any], name: str) -> list[str]:
    """The direction names on square `name`'s tile."""
    col, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
    arrows: list[str] = observation["tiles"][row][col]
    return arrows


def piece_background(drawn: Picture, board: TripppinBoard, seat: str) -> Color | None:
    """The colour a seat's piece is drawn on."""
    cell = cells_of(board)[board.observation["pieces"][seat]]
    return tile_style(drawn, cell, CENTRE).bgcolor


def cells_of(board: TripppinBoard) -> dict[str, Cell]:
    return {cell.name: cell for cell in board.cells}


def test_one_cell_a_square_on_its_tiles_middle_row() -> None:
    board = TripppinBoard(observe())
    names = [f"{col}{row}" for row in range(1, 9) for col in "abcdefgh"]
    assert [cell.name for cell in board.cells] == names
    for index, cell in enumerate(board.cells):
        assert (cell.x, cell.y, cell.width) == (2 + 5 * (index % 8), 2 + 3 * (index // 8), 5)


def test_labels_match_the_square_names() -> None:
    board = TripppinBoard(observe())
    drawn = picture(board.render(Marks()))
    for cell in board.cells:
        assert drawn.at(cell.x + 2, 0) == cell.name[0]
        assert drawn.at(0, cell.y, 2).strip() == cell.name[1:]
        assert drawn.at(0, cell.y - 1, 2).strip() == drawn.at(0, cell.y + 1, 2).strip() == ""


def test_every_tile_shows_exactly_its_arrows_in_place() -> None:
    for observation in all_observations():
        board = TripppinBoard(observation)
        drawn = picture(board.render(Marks()))
        mover = observation["pieces"].get(observation["to_move"])
        for cell in board.cells:
            arrows = arrows_of(observation, cell.name)
            assert len(arrows) in (0, 3)
            if cell.name == mover:
                arrows = arrows + observation["directions"]
            for direction, (where, arrow) in ARROWS.items():
                expected = arrow if direction in arrows else " "
                assert tile_char(drawn, cell, where) == expected, (cell.name, direction)


def test_the_movers_open_directions_are_lit_on_its_tile() -> None:
    for observation in all_observations():
        if observation["to_move"] is None:
            continue
        board = TripppinBoard(observation)
        drawn = picture(board.render(Marks()))
        mover = cells_of(board)[observation["pieces"][observation["to_move"]]]
        assert observation["directions"]
        plain_arrows = {
            tile_style(drawn, cell, ARROWS[direction][0]).color
            for cell in board.cells
            if cell != mover
            for direction in arrows_of(observation, cell.name)
        }
        for direction in observation["directions"]:
            style = tile_style(drawn, mover, ARROWS[direction][0])
            assert style.bold
            assert style.color not in plain_arrows
        for direction in set(ARROWS) - set(observation["directions"]):
            assert not tile_style(drawn, mover, ARROWS[direction][0]).bold


def test_pieces_stand_at_their_squares_in_their_colours() -> None:
    for observation in all_observations():
        board = TripppinBoard(observation)
        drawn = picture(board.render(Marks()))
        cells = cells_of(board)
        for seat, square in observation["pieces"].items():
            cell = cells[square]
            assert tile_char(drawn, cell, CENTRE) == LETTERS[seat]
            background = tile_style(drawn, cell, CENTRE).bgcolor
            assert tile_style(drawn, cell, (1, 1)).bgcolor == background
            assert tile_style(drawn, cell, (3, 1)).bgcolor == background
        body = "".join(line[2:] for line in drawn.plain[1 : 1 + 3 * 8])
        assert body.count("B") == body.count("G") == 1
        colours = {piece_background(drawn, board, seat) for seat in observation["seats"]}
        assert len(colours) == 2
        assert None not in colours


def test_circles_and_starts_are_marked() -> None:
    observation = observe()
    board = TripppinBoard(observation)
    drawn = picture(board.render(Marks()))
    cells = cells_of(board)
    for circle in observation["circles"]:
        assert tile_char(drawn, cells[circle], CENTRE) == "○"
    state = GAMES["tripppin"].new(seed=3)
    while set(observation["pieces"].values()) & set(observation["starts"].values()):
        state = state.play_text(observation["legal_moves"][0])
        observation = state.observation()
    board = TripppinBoard(observation)
    drawn = picture(board.render(Marks()))
    for seat, start in observation["starts"].items():
        mark = tile_style(drawn, cells[start], CENTRE)
        assert tile_char(drawn, cells[start], CENTRE) == "□"
        assert mark.color == piece_background(drawn, board, seat)


def test_blank_squares_are_dark_and_empty() -> None:
    for seed in SEEDS:
        observation = observe(seed)
        board = TripppinBoard(observation)
        drawn = picture(board.render(Marks(blink=False)))
        special = set(observation["circles"]) | set(observation["starts"].values())
        blank = [
            cell
            for cell in board.cells
            if not arrows_of(observation, cell.name) and cell.name not in special
        ]
        assert len(blank) == 2
        for cell in blank:
            assert all(drawn.style(x, y).bgcolor is None for x, y in tile_area(cell))
            if cell.name not in observation["legal_moves"]:
                assert all(drawn.at(x, y) == " " for x, y in tile_area(cell))


def test_next_targets_blink_in_their_seats_colours() -> None:
    for observation in all_observations():
        board = TripppinBoard(observation)
        shown = picture(board.render(Marks(blink=True)))
        hidden = picture(board.render(Marks(blink=False)))
        colours = {seat: piece_background(shown, board, seat) for seat in observation["seats"]}
        targets = {target for target in observation["targets"].values() if target}
        for cell in board.cells:
            for corner in CORNERS:
                off = tile_style(hidden, cell, corner).bgcolor
                assert off not in colours.values()
                on = tile_style(shown, cell, corner).bgcolor
                assert (on == off) == (cell.name not in targets)
        for seat, target in observation["targets"].items():
            if target is not None and list(observation["targets"].values()).count(target) == 1:
                cell = cells_of(board)[target]
                for corner in CORNERS:
                    assert tile_style(shown, cell, corner).bgcolor == colours[seat]


def test_a_target_both_seats_aim_at_is_framed_in_both_colours() -> None:
    tiles = observe()["position"].split()[0]
    state = GAMES["tripppin"].parse_position(f"{tiles} g2:2 b7:1 B 10")
    observation = state.observation()
    assert observation["targets"] == {"blue": "b2", "grey": "b2"}
    board = TripppinBoard(observation)
    drawn = picture(board.render(Marks()))
    cell = cells_of(board)["b2"]
    blue, grey = (piece_background(drawn, board, seat) for seat in ("blue", "grey"))
    assert [tile_style(drawn, cell, (x, 0)).bgcolor for x in range(5)] == [blue] * 5
    assert [tile_style(drawn, cell, (x, 2)).bgcolor for x in range(5)] == [grey] * 5


def test_legal_destinations_are_lit() -> None:
    for observation in all_observations():
        board = TripppinBoard(observation)
        drawn = picture(board.render(Marks(blink=False)))
        for cell in board.cells:
            centre = tile_style(drawn, cell, CENTRE)
            lit = centre.color is not None and centre.color.name == TILES.hint
            assert lit == (cell.name in observation["legal_moves"])
            if cell.name in observation["legal_moves"]:
                assert tile_char(drawn, cell, CENTRE) in "•○□"


def test_last_move_is_pointed_at_either_side_of_the_piece() -> None:
    for observation in all_observations():
        board = TripppinBoard(observation)
        drawn = picture(board.render(Marks()))
        for cell in board.cells:
            sides = tile_char(drawn, cell, (1, 1)) + tile_char(drawn, cell, (3, 1))
            assert (sides == "".join(MOVED_SIDES)) == (cell.name == observation["last_move"])


def test_cell_at_finds_a_tile_on_any_of_its_rows_and_nothing_else() -> None:
    board = TripppinBoard(observe())
    width, height = board.size()
    assert height == 1 + 3 * 8 + 1
    assert width >= 2 + 5 * 8
    covered = set()
    for cell in board.cells:
        for x, y in tile_area(cell):
            assert board.cell_at(x, y) == cell.name
            covered.add((x, y))
    for y in range(-1, height + 1):
        for x in range(-1, width + 2):
            if (x, y) not in covered:
                assert board.cell_at(x, y) is None, (x, y)


def test_every_line_is_as_wide_as_the_board() -> None:
    board = TripppinBoard(observe())
    width, _ = board.size()
    lines = board.render(Marks()).split("\n")
    assert {line.cell_len for line in lines[1:-1]} == {2 + 5 * 8}
    assert max(line.cell_len for line in lines) == width


def test_the_ways_the_mover_may_go_are_listed_below_the_board() -> None:
    observation = observe()
    arrows = " ".join(ARROWS[direction][1] for direction in observation["directions"])
    last = TripppinBoard(observation).render(Marks()).plain.splitlines()[-1]
    mover = observation["to_move"].capitalize()
    assert last.startswith(f"{mover} may go {arrows}  (the arrows under")


def test_step_goes_to_the_neighbour_and_stops_at_edges() -> None:
    board = TripppinBoard(observe())
    for cell in board.cells:
        for direction, (dx, dy) in STEPS.items():
            expected = neighbour(cell.name, dx, dy, 8, 8)
            assert board.step(cell.name, direction) == expected, (cell.name, direction)
    assert board.step(None, "up") == "a1"


@pytest.mark.parametrize("seed", SEEDS)
def test_hints_light_exactly_the_hinted_tiles(seed: int) -> None:
    observation = observe(seed)
    board = TripppinBoard(observation)
    hinted = board.hint_squares(observation["legal_moves"])
    assert hinted == set(observation["legal_moves"])
    drawn = picture(board.render(Marks(hints=hinted)))
    for cell in board.cells:
        for x, y in tile_area(cell):
            lit = drawn.style(x, y).bgcolor
            assert (lit is not None and lit.name == TILES.hint) == (cell.name in hinted)


def test_the_cursor_reverses_its_tile_but_not_the_piece_on_it() -> None:
    observation = observe()
    board = TripppinBoard(observation)
    plain = picture(board.render(Marks()))
    for square in ("c3", *observation["pieces"].values()):
        drawn = picture(board.render(Marks(cursor=square)))
        for cell in board.cells:
            piece = cell.name in observation["pieces"].values()
            for x, y in tile_area(cell):
                on_piece = piece and y == cell.y and cell.x + 1 <= x <= cell.x + 3
                reversed_here = bool(drawn.style(x, y).reverse)
                assert reversed_here == (cell.name == square and not on_piece)
                if on_piece:
                    shown, unmarked = drawn.style(x, y), plain.style(x, y)
                    assert (shown.color, shown.bgcolor) == (unmarked.color, unmarked.bgcolor)


def test_a_click_is_a_whole_move() -> None:
    board = TripppinBoard(observe())
    assert board.pick((), "e7") == Pick((), "e7")
    assert board.hint_squares(["e7", "ne"]) == {"e7"}
