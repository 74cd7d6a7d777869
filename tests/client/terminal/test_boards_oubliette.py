"""Oubliette's board drawing on real observations: where cells are drawn, what they show,
how clicks become the server's move texts, hints and the cursor."""

import random
from itertools import pairwise
from typing import Any

import pytest
from rich.style import Style
from rich.text import Text

from parlour.client.terminal.boards.base import CURSOR_SIDES, MOVED_SIDES, Marks, Pick
from parlour.client.terminal.boards.oubliette import (
    GONE,
    HINT,
    HOW_TO_MOVE,
    LIT,
    PICKED,
    OublietteBoard,
    centre,
    parse_move,
)
from parlour.rules import GAMES, hexgrid
from parlour.rules.hexgrid import CELL_NAMES, DIRECTIONS
from parlour.rules.oubliette import OublietteState

from ...rules.test_oubliette import position

Observation = dict[str, Any]
NO_MARKS = Marks()


def start(board: str = "oubliette") -> OublietteState:
    state = GAMES["oubliette"].new({"board": board}, seed=3)
    assert isinstance(state, OublietteState)
    return state


def lines(text: Text) -> list[Text]:
    return list(text.split("\n", allow_blank=True))


def drawn(board: OublietteBoard, name: str, marks: Marks = NO_MARKS) -> tuple[str, Style]:
    """The character in the middle of cell `name` and the style of that column."""
    cell = next(cell for cell in board.cells if cell.name == name)
    line = lines(board.render(marks))[cell.y]
    x = cell.x + 1
    spans = [span.style for span in line.spans if span.start <= x < span.end]
    return line.plain[x], Style.combine(
        s if isinstance(s, Style) else Style.parse(s) for s in spans
    )


def sides(board: OublietteBoard, name: str, marks: Marks = NO_MARKS) -> str:
    """The characters either side of cell `name`'s middle."""
    cell = next(cell for cell in board.cells if cell.name == name)
    line = lines(board.render(marks))[cell.y].plain
    return line[cell.x] + line[cell.x + 2]


def has(style: Style, part: Style) -> bool:
    """Whether `style` carries everything `part` sets."""
    return style + part == style


def clicks_for(state: OublietteState, text: str) -> list[str]:
    """The clicks of a move as a player makes them: the line's pieces, the lead last for an
    in-line move, then the cell the last one moves to."""
    move = state.parse_move(text)
    names = [CELL_NAMES[cell] for cell in move.cells]
    if DIRECTIONS[move.direction] < 0:
        names.reverse()
    after = hexgrid.step(CELL_NAMES.index(names[-1]), move.direction)
    assert after is not None
    return [*names, CELL_NAMES[after]]


def click(board: OublietteBoard, squares: list[str]) -> Pick:
    """Every click in turn, each after the picks the one before left."""
    result = Pick(())
    for square in squares:
        result = board.pick(result.picked, square)
    return result


def test_all_61_cells_are_drawn_where_cell_at_finds_them() -> None:
    board = OublietteBoard(start().observation())
    assert sorted(cell.name for cell in board.cells) == sorted(CELL_NAMES)
    assert [cell.name for cell in board.cells][:6] == ["i5", "i6", "i7", "i8", "i9", "h4"]
    for cell in board.cells:
        for x in range(cell.x, cell.x + cell.width):
            assert board.cell_at(x, cell.y) == cell.name
        assert board.cell_at(cell.x - 1, cell.y) is None
        assert board.cell_at(cell.x + cell.width, cell.y) is None


def test_rows_interleave_half_a_cell_apart() -> None:
    cells = {cell.name: cell for cell in OublietteBoard(start().observation()).cells}
    assert cells["e5"].y - cells["f5"].y == 1
    assert cells["e5"].x - cells["f5"].x == 2
    assert cells["f6"].x - cells["e5"].x == 2
    assert cells["e6"].x - cells["e5"].x == 4
    assert cells["i5"].y == 0
    assert cells["a1"].y == 8


def test_start_position_shows_pieces_and_the_hole() -> None:
    state = start()
    board = OublietteBoard(state.observation())
    for name in ("a1", "b6", "c4"):
        char, style = drawn(board, name)
        assert char == "●"
        assert style.color is not None and "green" in style.color.name
    for name in ("i9", "h4", "g6"):
        char, style = drawn(board, name)
        assert char == "●"
        assert style.color is not None and "red" in style.color.name
    assert drawn(board, "e5")[0] == "◌"
    assert drawn(board, "d4")[0] == "·"
    assert drawn(board, "c1")[0] == "·"


def test_blocks_and_holes_are_drawn_distinctly() -> None:
    board = OublietteBoard(position("a1", "i9", holes="c3 e5", blocks="f4 d7").observation())
    chars = {name: drawn(board, name)[0] for name in ("c3", "e5", "f4", "d7", "a1", "e1")}
    assert chars == {"c3": "◌", "e5": "◌", "f4": "■", "d7": "■", "a1": "●", "e1": "·"}


def test_row_letters_and_diagonal_numbers_label_the_edges() -> None:
    board = OublietteBoard(start().observation())
    picture = lines(board.render(Marks()))
    cells = {cell.name: cell for cell in board.cells}
    for letter in "abcdefghi":
        first = cells[next(n for n in CELL_NAMES if n[0] == letter)]
        assert picture[first.y].plain[first.x - 3] == letter
    lowest_cells = ["a1", "a2", "a3", "a4", "a5", "b6", "c7", "d8", "e9"]
    for number, lowest in zip("123456789", lowest_cells, strict=True):
        cell = cells[lowest]
        assert picture[cell.y + 1].plain[cell.x + 3] == number


def test_ejections_are_counted_below_the_board() -> None:
    state = position("e2 e3 a1", "e1 i9", ejected="1:0")
    after = state.play_text("e2-e3 w")
    observation: Observation = after.observation()
    assert observation["ejected"] == {"green": 2, "red": 0}
    plain = OublietteBoard(observation).render(Marks()).plain
    assert "green ejected 2 of 6" in plain
    assert "red ejected 0 of 6" in plain
    assert "last e2-e3 w, pushed 1, ejected one" in plain


def test_the_last_move_points_at_what_it_moved_pushed_and_left() -> None:
    state = position("e2 e3 e4 a1", "e5 e6 i9", limit=3)
    board = OublietteBoard(state.play_text("e2-e4 e").observation())
    pointed = "".join(MOVED_SIDES)
    assert board.moved == {"e3", "e4", "e5"} and board.pushed == {"e6", "e7"}
    assert board.left == {"e2"} and board.gone is None
    for name in ("e2", "e3", "e4", "e5", "e6", "e7"):
        assert sides(board, name) == pointed, name
    for name in ("e6", "e7"):
        assert drawn(board, name)[0] == "●"
    assert drawn(board, "e2")[0] == "·"
    for name in ("e1", "e8", "a1", "i9"):
        assert sides(board, name) == "  ", name
    assert GONE not in board.render(Marks()).plain
    assert "ply 1 · lines up to 3" in board.render(Marks()).plain


def test_a_broadside_points_at_both_rows() -> None:
    board = OublietteBoard(position("c3 c4 c5", "i9").play_text("c3-c5 ne").observation())
    assert board.moved == {"d4", "d5", "d6"} and board.left == {"c3", "c4", "c5"}
    for name in ("c3", "c4", "c5", "d4", "d5", "d6"):
        assert sides(board, name) == "".join(MOVED_SIDES), name


def test_a_piece_pushed_off_the_board_is_crossed_out_where_it_went() -> None:
    board = OublietteBoard(position("e7 e8", "e9 a1").play_text("e7-e8 e").observation())
    assert board.gone == (4, 10)
    x, y = centre(*board.gone)
    picture = lines(board.render(Marks()))
    assert picture[y].plain[x] == GONE
    style = Style.combine(span.style for span in picture[y].spans if span.start <= x < span.end)  # type: ignore[misc]
    assert style.color is not None and "red" in style.color.name


def test_a_piece_pushed_into_a_hole_is_crossed_out_there() -> None:
    after = position("e2 e3", "e4 i9", holes="e5").play_text("e2-e3 e")
    board = OublietteBoard(after.observation())
    assert board.gone == (4, 5)
    assert drawn(board, "e5")[0] == GONE
    assert drawn(board, "e4")[0] == "●" and sides(board, "e4") == "".join(MOVED_SIDES)
    assert drawn(OublietteBoard(after.play_text("i9 w").observation()), "e5")[0] == "◌"


def test_marks_show_hints_picks_and_the_cursor() -> None:
    board = OublietteBoard(start().observation())
    marks = Marks(hints=frozenset({"c3", "d4"}), picked=("b2", "b3"), cursor="e5")
    assert has(drawn(board, "c3", marks)[1], HINT)
    assert drawn(board, "d4", marks) == (LIT, drawn(board, "d4", marks)[1])
    assert has(drawn(board, "d4", marks)[1], HINT)
    assert drawn(board, "b2", marks)[0] == "◉"
    assert has(drawn(board, "b3", marks)[1], PICKED)
    assert not has(drawn(board, "b4", marks)[1], PICKED)
    assert sides(board, "e5", marks) == "".join(CURSOR_SIDES)
    assert drawn(board, "e5", marks)[0] == "◌"
    assert sides(board, "e4", marks) == "  "


@pytest.mark.parametrize("layout", ["oubliette", "abalone", "belgian-daisy"])
def test_every_legal_start_move_has_clicks_that_give_its_text(layout: str) -> None:
    state = start(layout)
    observation: Observation = state.observation()
    board = OublietteBoard(observation)
    for text in observation["legal_moves"]:
        assert click(board, clicks_for(state, text)) == Pick((), text), text


def test_every_legal_move_of_a_game_with_pushes_has_clicks() -> None:
    state = start("abalone")
    chooser = random.Random(5)
    pushes = 0
    while state.ply < 40 and not state.is_over:
        observation: Observation = state.observation()
        board = OublietteBoard(observation)
        for text in observation["legal_moves"]:
            assert click(board, clicks_for(state, text)) == Pick((), text), text
        best = state.best_moves()
        state = state.play(chooser.choice(best))
        pushes += state.last_pushed > 0
    assert pushes > 0


def test_inline_and_broadside_moves_by_hand() -> None:
    board = OublietteBoard(start().observation())
    assert click(board, ["c3", "c4", "c5", "c6"]) == Pick((), "c3-c5 e")
    assert click(board, ["c5", "c4", "c3", "c2"]) == Pick((), "c3-c5 w")
    assert click(board, ["c5", "c4", "c3", "d3"]) == Pick((), "c3-c5 nw")
    assert click(board, ["c4", "c3", "c5", "d6"]) == Pick((), "c3-c5 ne")
    assert click(board, ["a1", "b2", "c3", "d4"]) == Pick((), "a1-c3 ne")
    assert click(board, ["b5", "c6"]) == Pick((), "b5 ne")


def test_a_push_is_picked_by_clicking_the_opponent_ahead() -> None:
    board = OublietteBoard(position("e1 e2 e3", "e4 e5 i9").observation())
    assert click(board, ["e1", "e2", "e3", "e4"]) == Pick((), "e1-e3 e")


def test_legal_moves_naming_the_ends_the_other_way_round_are_sent_as_they_are() -> None:
    observation: Observation = start().observation()
    observation["legal_moves"] = ["c5-c3 ne", "c4 ne"]
    board = OublietteBoard(observation)
    assert click(board, ["c3", "c4", "c5", "d6"]) == Pick((), "c5-c3 ne")


def test_an_illegal_target_keeps_the_pick_and_says_why_as_the_rules_do() -> None:
    observation: Observation = position("e2 e3 a1", "e4 e5 i9").observation()
    board = OublietteBoard(observation)
    assert "e2-e3 e" not in observation["legal_moves"]
    assert click(board, ["e3", "e2", "e3"]) == Pick(("e2",))
    refused = click(board, ["e2", "e3", "e4"])
    assert refused.picked == ("e2", "e3") and refused.move is None
    assert refused.problem == (
        "That line cannot move there: a push needs more of your pieces than theirs (2 against 2)."
    )


@pytest.mark.parametrize(
    ("state", "clicks", "why"),
    [
        (position("e1 e2 e4", "e3"), "e1 e2 e3", "your own piece on e4 stops the push"),
        (position("e1 e2", "e3", blocks="e4"), "e1 e2 e3", "a block on e4 stops the push"),
        (position("e2 e3", "i9", holes="e4"), "e2 e3 e4", "your own pieces never go into a hole"),
        (position("e1", "e2"), "e1 e2", "a single piece cannot push"),
        (position("c3 c4 c5", "d5 i9"), "c3 c4 c5 d6", "d5 holds an opponent's piece"),
        (position("c3 c4 c5", "i9", blocks="d4"), "c5 c4 c3 d4", "d4 is a block"),
        (position("c3 c4", "d4 i9"), "c3 c4 d5", "d4 holds an opponent's piece"),
    ],
)
def test_each_refusal_names_the_rule(state: OublietteState, clicks: str, why: str) -> None:
    board = OublietteBoard(state.observation())
    *picks, target = clicks.split()
    assert click(board, picks) == Pick(tuple(picks))
    refused = board.pick(tuple(picks), target)
    assert refused.picked == tuple(picks) and refused.move is None
    assert refused.problem is not None and why in refused.problem, refused


def test_a_click_away_from_the_line_keeps_the_pick_and_says_where_to_click() -> None:
    board = OublietteBoard(start().observation())
    refused = board.pick(("c3", "c4"), "e1")
    assert refused.picked == ("c3", "c4")
    assert refused.problem is not None and "next to c4" in refused.problem
    assert board.pick((), "e1") == Pick((), problem=HOW_TO_MOVE)


def test_a_line_moves_along_itself_by_a_click_beyond_either_end() -> None:
    board = OublietteBoard(start().observation())
    assert click(board, ["c3", "c4", "c5", "c2"]) == Pick((), "c3-c5 w")
    assert click(board, ["c5", "c4", "c3", "c6"]) == Pick((), "c3-c5 e")
    assert click(board, ["c4", "c3", "c5", "c6"]) == Pick((), "c3-c5 e")


def test_the_targets_of_the_picked_line_are_lit_without_any_hint() -> None:
    state = start()
    board = OublietteBoard(state.observation())
    assert board.targets(()) == frozenset()
    assert board.targets(("c3", "c4", "c5")) == {"c2", "c6", "d5", "d6"}
    assert board.targets(("c5", "c4", "c3")) == {"c2", "c6", "d3", "d4"}
    assert board.targets(("b6",)) == {"c6", "c7"}
    for target in board.targets(("c3", "c4", "c5")):
        assert click(board, ["c3", "c4", "c5", target]).move is not None, target
    marks = Marks(picked=("c3", "c4", "c5"))
    for name in ("c2", "c6", "d5"):
        assert drawn(board, name, marks)[0] == LIT
        assert has(drawn(board, name, marks)[1], HINT)
    assert not has(drawn(board, "e1", marks)[1], HINT)
    for name in CELL_NAMES:
        lit = has(drawn(board, name, marks)[1], HINT) and name not in marks.picked
        assert lit == (name in board.targets(marks.picked)), name


def test_picking_grows_a_straight_line_only() -> None:
    board = OublietteBoard(start().observation())
    assert board.pick((), "c3") == Pick(("c3",))
    assert board.pick(("c3",), "c4") == Pick(("c3", "c4"))
    assert board.pick(("c3", "c4"), "b4") == Pick(("b4",))
    assert board.pick(("c3", "c4"), "a1") == Pick(("a1",))
    assert board.pick(("a1",), "a3") == Pick(("a3",))
    assert board.pick((), "h5") == Pick((), problem=HOW_TO_MOVE)
    assert board.pick(("c3",), "h5").picked == ("c3",)
    assert board.pick(("c3", "c4"), "e1").picked == ("c3", "c4")


def test_the_limit_bounds_the_line() -> None:
    board = OublietteBoard(start("abalone").observation())
    assert click(board, ["a1", "a2", "a3"]) == Pick(("a1", "a2", "a3"))
    assert board.pick(("a1", "a2", "a3"), "a4") == Pick(("a4",))


def test_unpicking_keeps_what_still_lines_up_with_the_first_pick() -> None:
    board = OublietteBoard(start().observation())
    assert board.pick(("c3", "c4", "c5"), "c5") == Pick(("c3", "c4"))
    assert board.pick(("c3", "c4", "c5"), "c3") == Pick(("c4", "c5"))
    assert board.pick(("c3", "c4", "c5"), "c4") == Pick(("c3",))
    assert board.pick(("c4", "c5", "c3"), "c4") == Pick(("c5",))
    assert board.pick(("c3",), "c3") == Pick(())


def test_only_the_seat_to_move_picks_pieces() -> None:
    board = OublietteBoard(start().play_text("c5 e").observation())
    assert board.pick((), "c6") == Pick((), problem=HOW_TO_MOVE)
    assert board.pick((), "g5") == Pick(("g5",))
    assert click(board, ["g5", "g6", "g7", "f7"]) == Pick((), "g5-g7 se")


def test_nothing_is_picked_once_the_game_is_over() -> None:
    observation: Observation = (
        position("e2 e3 a1", "e1", ejected="5:0").play_text("e2-e3 w").observation()
    )
    assert observation["over"]
    board = OublietteBoard(observation)
    assert board.pick((), "e4") == Pick(())
    assert board.pick((), "e2") == Pick(())
    assert "green ejected 6 of 6" in board.render(Marks()).plain


def test_hints_light_the_line_and_where_it_goes() -> None:
    board = OublietteBoard(start().observation())
    assert board.hint_squares(["c3-c5 e"]) == {"c3", "c4", "c5", "c6"}
    assert board.hint_squares(["c5-c3 w"]) == {"c2", "c3", "c4", "c5"}
    assert board.hint_squares(["c3-c5 ne"]) == {"c3", "c4", "c5", "d4", "d5", "d6"}
    assert board.hint_squares(["b5 ne", "not a move", "z9 e"]) == {"b5", "c6"}
    assert board.hint_squares([]) == frozenset()


def test_arrows_stay_on_the_board_and_down_undoes_up() -> None:
    board = OublietteBoard(start().observation())
    names = set(CELL_NAMES)
    assert board.step(None, "up") == "i5"
    assert board.step("e5", "left") == "e4"
    assert board.step("e5", "right") == "e6"
    assert board.step("e1", "left") == "e1"
    assert board.step("i9", "right") == "i9"
    assert board.step("i7", "up") == "i7"
    assert board.step("a3", "down") == "a3"
    cells = {cell.name: cell for cell in board.cells}
    for name in CELL_NAMES:
        for key in ("up", "down", "left", "right"):
            moved = board.step(name, key)
            assert moved in names
            if moved != name and key in ("up", "down"):
                assert abs(cells[moved].y - cells[name].y) == 1
                assert abs(cells[moved].x - cells[name].x) == 2
    column = ["a3"]
    while (above := board.step(column[-1], "up")) not in (None, column[-1]):
        column.append(str(above))
    assert column == ["a3", "b3", "c4", "d4", "e5", "f5", "g6", "h6", "i7"]
    assert {cells[name].x for name in column} == {cells["a3"].x, cells["b3"].x}
    for lower, upper in pairwise(column):
        assert board.step(upper, "down") == lower


@pytest.mark.parametrize("text", ["a1-a9 e", "a1-j1 e", "z9 e", "a1 up", "a1-a3"])
def test_a_move_text_off_the_board_or_misshapen_is_not_a_move(text: str) -> None:
    assert parse_move(text) is None
