"""A room's history (protocol.md 2.11): what happened in it lately, kept with the room and
sent to a connection that joins, watches or comes back."""

import json
from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.server.history import HISTORY_LIMIT
from parlour.server.records import RecordError, record_text, restore_room, room_record
from parlour.server.room import Status

from .test_lobby import Table, answer
from .test_rematch import finish

UNIX = 1_700_000_000.0


def timed_table() -> Table:
    table = Table()
    table.lobby.services.wall = lambda: UNIX + table.clock.now
    return table


def kinds(history: list[dict[str, Any]]) -> list[str]:
    return [entry["kind"] for entry in history]


def facts(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry without its number and time."""
    return {key: value for key, value in entry.items() if key not in ("n", "at")}


def test_whoever_comes_in_gets_the_moves_seat_changes_and_chat_so_far() -> None:
    table = timed_table()
    made = table.create(board=7, seat="blue")
    room = str(made.room["room"])
    bob = table.join(2, room, seat="red")
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    table.clock.now += 5
    table.lobby.handle(2, m.Move(room=room, version=0, move="e3"))
    table.clock.now += 2
    assert isinstance(answer(table.lobby.handle(1, m.Chat(room=room, text="so close!")), 1), m.Ok)
    (turn,) = table.lobby.bot_turns()
    table.lobby.play_bot(turn, turn.state.format_move(turn.state.legal_moves()[0]))
    watching = answer(table.lobby.handle(3, m.Spectate(room=room)), 3)
    assert isinstance(watching, m.Watching)
    history = watching.history
    assert history is not None
    assert kinds(history) == ["seat", "seat", "seat", "started", "move", "chat", "move"]
    assert [entry["n"] for entry in history] == [1, 2, 3, 4, 5, 6, 7]
    assert facts(history[0]) == {
        "kind": "seat",
        "seat": "blue",
        "holder": {"kind": "human", "name": "Ann", "connected": True},
        "by": "Ann",
        "after": None,
    }
    assert facts(history[2]) == {
        "kind": "seat",
        "seat": "green",
        "holder": {"kind": "bot", "level": "easy"},
        "by": "Ann",
        "after": None,
    }
    assert facts(history[3]) == {"kind": "started", "first": "red", "coin": None}
    assert history[4] == {
        "kind": "move",
        "n": 5,
        "at": int(UNIX + 1005),
        "seat": "red",
        "move": "e3",
        "version": 1,
        "passed": [],
        "name": "Bob",
        "level": None,
    }
    assert history[5] == {
        "kind": "chat",
        "n": 6,
        "at": int(UNIX + 1007),
        "name": "Ann",
        "seat": "blue",
        "text": "so close!",
    }
    assert (history[6]["seat"], history[6]["name"], history[6]["level"]) == ("green", None, "easy")
    table.lobby.disconnect(2)
    table.lobby.handle(6, m.Hello(version=1, name="Bob"))
    back = table.join(6, room, token=bob.token)
    assert back.history == history, "coming back with a token brings the window too"
    view = answer(table.lobby.handle(6, m.GetRoom(room=room)), 6)
    assert "history" not in view.room, "the room view never carries it"


def test_stand_ins_undos_refusals_the_end_new_games_and_loads_are_noted() -> None:
    table = timed_table()
    room = str(
        table.create(game="othello", seat="black", options={}, standin_after=5).room["room"]
    )
    bob = table.join(2, room, seat="white")
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    for conn in (1, 2):
        assert held.state is not None
        move = held.state.format_move(held.state.legal_moves()[0])
        table.lobby.handle(conn, m.Move(room=room, version=held.version, move=move))
    for accept in (False, True):
        table.lobby.handle(1, m.Undo(room=room))
        assert held.proposal is not None
        table.lobby.handle(2, m.Answer(room=room, proposal=held.proposal.id, accept=accept))
    assert held.moves == []
    table.lobby.disconnect(2)
    table.clock.now += 5
    table.lobby.tick()
    table.lobby.handle(6, m.Hello(version=1, name="Bob"))
    table.join(6, room, token=bob.token)
    finish(table, room)
    exported = answer(table.lobby.handle(1, m.ExportGame(room=room)), 1)
    table.lobby.handle(1, m.NewGame(room=room, rotate=True, board=9))
    assert held.proposal is not None
    table.lobby.handle(6, m.Answer(room=room, proposal=held.proposal.id, accept=True))
    table.lobby.handle(1, m.ImportGame(room=room, text=exported.text))
    assert held.status is Status.FINISHED
    history = held.history.window()
    told = [
        facts(entry)
        for entry in history
        if entry["kind"] in ("proposal", "undo", "over", "new_game", "loaded")
        or (entry["kind"] == "seat" and entry["by"] is None)
    ]
    scores = held.state.scores() if held.state else ()
    assert told == [
        {"kind": "proposal", "proposal": "undo", "outcome": "declined", "by": "white"},
        {"kind": "undo", "moves": 2, "version": 3},
        {
            "kind": "seat",
            "seat": "white",
            "holder": {"kind": "standin", "name": "Bob", "level": "medium"},
            "by": None,
            "after": 0,
        },
        {
            "kind": "seat",
            "seat": "white",
            "holder": {"kind": "human", "name": "Bob", "connected": True},
            "by": None,
            "after": 0,
        },
        {
            "kind": "over",
            "winners": told[4]["winners"],
            "scores": dict(zip(("black", "white"), scores, strict=True)),
            "names": {"black": "Ann", "white": "Bob"},
        },
        {"kind": "new_game", "first": "black", "board": 9, "rotated": True, "coin": None},
        {"kind": "loaded", "moves": len(held.moves), "over": True},
    ]
    assert told[4]["winners"] in (["black"], ["white"], ["black", "white"])
    over = next(entry for entry in history if entry["kind"] == "over")
    last_move = history[history.index(over) - 1]
    assert last_move["kind"] == "move" and last_move["version"] == held.version - 2


def test_the_window_keeps_the_last_entries_and_goes_with_the_room_record() -> None:
    table = timed_table()
    made = table.create()
    room = str(made.room["room"])
    for number in range(HISTORY_LIMIT + 50):
        table.lobby.handle(1, m.Chat(room=room, text=f"line {number}"))
    held = table.lobby.rooms[room]
    window = held.history.window()
    assert len(window) == HISTORY_LIMIT
    assert window[0]["n"] == 52 and window[0]["text"] == "line 50", "the host's seat went first"
    assert window[-1]["text"] == f"line {HISTORY_LIMIT + 49}"
    unsaved = table.lobby.take_unsaved()
    assert [each.id for each in unsaved.rooms] == [room], "chat is stored before it is told"
    assert json.loads(record_text(held).text) == room_record(held), "the JSON a store keeps"
    again = restore_room(json.loads(record_text(held).text), table.clock.now)
    assert again.history.window() == window
    table.lobby.release(room)
    table.lobby.restore([again])
    back = table.join(1, room, token=made.token)
    assert back.history == window
    table.lobby.handle(1, m.Chat(room=room, text="after"))
    assert again.history.window()[-1]["n"] == HISTORY_LIMIT + 52, "numbering goes on"
    assert len(again.history.window()) == HISTORY_LIMIT


@pytest.mark.parametrize("history", ["oops", [{"kind": "chat"}], [["not", "a", "map"]]])
def test_a_damaged_history_makes_a_damaged_record(history: Any) -> None:
    table = Table()
    room = str(table.create().room["room"])
    record = room_record(table.lobby.rooms[room]) | {"history": history}
    with pytest.raises(RecordError, match="history"):
        restore_room(record, 0.0)
    older = room_record(table.lobby.rooms[room])
    del older["history"]
    assert restore_room(older, 0.0).history.window() == [], "a record from before it was kept"
