"""Oubliette in the browser room, as a newcomer plays it against the computer: the cells a
picked line can go to are lit with no hint asked for, a click that makes no move keeps the
pick and says why under the board, and the computer's move is the one the board marks
(screenshots saved for a person to look at)."""

from pathlib import Path
from typing import Any

from .test_page import Player, create_room, open_player

__all__ = ["open_player"]


def test_a_newcomer_picks_a_line_sees_where_it_goes_and_why_not(
    open_player: Any, output_dir: Path
) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "oubliette", {"green": "you", "red": "0"})
    ann.my_turn()
    for cell in ("c3", "c4", "c5"):
        ann.click_square(cell)
    assert ann.hook("room.board.picked") == ["c3", "c4", "c5"]
    assert sorted(ann.hook("room.board.targets")) == ["c2", "c6", "d5", "d6"]
    assert ann.hook("room.board.note") == ""
    ann.click_square("e1")
    assert ann.hook("room.board.picked") == ["c3", "c4", "c5"]
    note = ann.page.locator(".board-note")
    assert note.is_visible()
    assert "next to c5 (picked last)" in note.inner_text()
    ann.page.locator("#board").screenshot(path=str(output_dir / "page-oubliette-picked.png"))
    version = ann.view["version"]
    ann.click_square("d6")
    ann.wait("room.view.version >= arg + 2 && room.myTurn()", version)
    assert ann.view["moves"][-2] == "c3-c5 ne"
    assert not note.is_visible()
    assert ann.hook("room.board.picked") == []
    ann.page.wait_for_timeout(600)
    shown = ann.hook("room.board.observation.last_move")
    assert shown == ann.view["state"]["last_move"] == ann.view["moves"][-1]
    ann.page.locator("#board").screenshot(path=str(output_dir / "page-oubliette-last-move.png"))
