"""Oubliette's board editor: cells changed by click and by key, refused changes undone,
and the position it hands back is one the rules read as shown."""

from typing import Any

from parlour.client.terminal.editor import EditorApp, Position
from parlour.client.terminal.widgets import BoardView
from parlour.rules import get_game

GAME = get_game("oubliette")
START = GAME.new().format_position()


def test_a_cell_cycles_through_empty_green_red_hole_and_block() -> None:
    position = Position(START)
    row, column = 3, 0
    seen = []
    for _ in range(5):
        position.cycle(row, column)
        seen.append(position.rows[row][column])
    assert seen == ["G", "R", "*", "#", "."]
    position.toggle_mover()
    assert position.text.split(" ")[1] == "R"
    assert position.check() == ""


def test_a_position_the_rules_refuse_is_reported() -> None:
    position = Position(START)
    position.rows[0][0] = "x"
    assert position.check() != ""


async def test_the_editor_makes_the_position_shown() -> None:
    app = EditorApp(START)
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(BoardView)
        board = view.board
        assert board is not None
        cell = next(cell for cell in board.cells if cell.name == "e1")
        await pilot.click(view, offset=(cell.x + 1, cell.y))
        await pilot.pause()
        assert "e1" in view.board.observation["pieces"]["green"]  # type: ignore[union-attr]
        await pilot.press("right", "h")
        await pilot.pause()
        cursor = view.marks.cursor
        assert cursor is not None
        assert cursor in view.board.observation["holes"]  # type: ignore[union-attr]
        await pilot.press("t", "s")
    text = app.return_value
    assert text is not None
    state = GAME.parse_position(text)
    observation: dict[str, Any] = state.observation()
    assert "e1" in observation["pieces"]["green"]
    assert cursor in observation["holes"]
    assert observation["to_move"] == "red"


async def test_escape_gives_up() -> None:
    app = EditorApp(START)
    async with app.run_test() as pilot:
        await pilot.press("escape")
    assert app.return_value is None
