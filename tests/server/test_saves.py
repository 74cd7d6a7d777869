"""Saving, loading, exporting and importing games, and rooms that start from a position."""

import pytest

from parlour.protocol import messages as m
from parlour.protocol.wire import check_schema
from parlour.rules import get_game
from parlour.rules.gamefile import game_file, parse_game_file
from parlour.server.store import MEMORY, Store

from .test_lobby import Table, answer, error_code, to
from .test_manage import against_bots, bot_moves, play


def archived_table() -> Table:
    table = Table()
    table.lobby.asker.archive = Store(MEMORY)
    return table


def play_rounds(table: Table, room: str, rounds: int) -> None:
    for _ in range(rounds):
        play(table, 1, room)
        bot_moves(table.lobby)


def test_save_then_load_reproduces_the_position_exactly() -> None:
    table = archived_table()
    room = against_bots(table, "tribolo")
    play_rounds(table, room, 4)
    saved = table.lobby.rooms[room]
    position, moves, options = saved.state, list(saved.moves), dict(saved.options)
    assert isinstance(answer(table.lobby.handle(1, m.SaveGame(room=room, name="mine")), 1), m.Ok)
    listed = answer(table.lobby.handle(2, m.ListSaves(game="tribolo")), 2)
    assert isinstance(listed, m.Saves)
    assert [(s["name"], s["moves"], s["saved_by"]) for s in listed.saves] == [
        ("mine", len(moves), "Ann")
    ]
    check_schema(listed.to_wire())
    other = against_bots(table, "tribolo")
    loaded = table.lobby.handle(1, m.LoadGame(room=other, name="mine"))
    assert isinstance(answer(loaded, 1), m.Ok)
    held = table.lobby.rooms[other]
    assert (held.state, held.moves, held.options) == (position, moves, options)
    assert held.board == saved.board


def test_a_name_is_not_saved_over_unless_asked() -> None:
    table = archived_table()
    room = against_bots(table, "othello")
    table.lobby.handle(1, m.SaveGame(room=room, name="g"))
    play_rounds(table, room, 1)
    assert error_code(table.lobby.handle(1, m.SaveGame(room=room, name="g")), 1) == "name_taken"
    assert isinstance(
        answer(table.lobby.handle(1, m.SaveGame(room=room, name="g", replace=True)), 1), m.Ok
    )
    saves = answer(table.lobby.handle(1, m.ListSaves()), 1)
    assert [s["moves"] for s in saves.saves] == [len(table.lobby.rooms[room].moves)]


def test_export_then_import_replays_to_the_same_final_state() -> None:
    table = archived_table()
    room = against_bots(table, "oubliette")
    play_rounds(table, room, 6)
    exported = answer(table.lobby.handle(1, m.ExportGame(room=room)), 1)
    assert isinstance(exported, m.GameFileText)
    assert '[Game "oubliette"]' in exported.text
    assert "Seats" in parse_game_file(exported.text).tags
    final = table.lobby.rooms[room].state
    other = against_bots(table, "oubliette")
    imported = table.lobby.handle(1, m.ImportGame(room=other, text=exported.text))
    assert isinstance(answer(imported, 1), m.Ok)
    assert table.lobby.rooms[other].state == final
    view = to(imported, 1)[1]
    assert isinstance(view, m.RoomView) and view.room["moves"] == table.lobby.rooms[room].moves


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("hello", "line 1"),
        ('[Game "othello"]\n[Board "0"]\n\n1. black a1\n', "a1 is not a legal move"),
        ('[Game "tribolo"]\n[Board "0"]\n', "a game of Tribolo; this room plays Othello"),
    ],
)
def test_a_malformed_import_is_refused_and_changes_nothing(text: str, said: str) -> None:
    table = archived_table()
    room = against_bots(table, "othello")
    before = table.snapshot(room)
    refused = answer(table.lobby.handle(1, m.ImportGame(room=room, text=text)), 1)
    assert isinstance(refused, m.Error) and refused.code == "bad_save"
    assert said in refused.message
    assert table.snapshot(room) == before


def test_a_damaged_save_is_refused_with_its_reason() -> None:
    table = archived_table()
    store = table.lobby.asker.archive
    assert isinstance(store, Store)
    room = against_bots(table, "othello")
    table.lobby.handle(1, m.SaveGame(room=room, name="g"))
    store._db.execute("UPDATE saves SET text = '[Game \"othello\"]' WHERE name = 'g'")
    other = against_bots(table, "othello")
    before = table.snapshot(other)
    refused = answer(table.lobby.handle(1, m.LoadGame(room=other, name="g")), 1)
    assert isinstance(refused, m.Error) and refused.code == "bad_save"
    assert "[Board] or [Position]" in refused.message
    assert table.snapshot(other) == before
    assert error_code(table.lobby.handle(1, m.LoadGame(room=other, name="nope")), 1) == (
        "no_such_save"
    )


def test_a_game_is_loaded_only_at_its_start() -> None:
    table = archived_table()
    room = against_bots(table, "othello")
    table.lobby.handle(1, m.SaveGame(room=room, name="g"))
    play_rounds(table, room, 1)
    assert error_code(table.lobby.handle(1, m.LoadGame(room=room, name="g")), 1) == "not_at_start"
    table.lobby.handle(1, m.NewGame(room=room))
    assert isinstance(answer(table.lobby.handle(1, m.LoadGame(room=room, name="g")), 1), m.Ok)
    table.lobby.handle(3, m.Spectate(room=room))
    assert isinstance(answer(table.lobby.handle(3, m.ExportGame(room=room)), 3), m.GameFileText)
    assert error_code(table.lobby.handle(4, m.ExportGame(room=room)), 4) == "not_in_room"
    assert error_code(table.lobby.handle(3, m.LoadGame(room=room, name="g")), 3) == "not_seated"


def test_a_room_can_start_from_a_position_in_the_games_notation() -> None:
    table = archived_table()
    game = get_game("oubliette")
    start = game.new(game.resolve_options({"board": "belgian-daisy"})).play_text("a1-c3 ne")
    joined = table.create(
        game="oubliette", seat="red", board=None, position=start.format_position()
    )
    room = str(joined.room["room"])
    assert joined.room["position"] == start.format_position()
    table.lobby.handle(1, m.FillBots(room=room))
    table.lobby.handle(1, m.Start(room=room))
    assert table.lobby.rooms[room].state == start
    both = table.lobby.handle(1, m.CreateRoom(game="othello", board=3, position="x"))
    assert error_code(both, 1) == "bad_options"
    bad = table.lobby.handle(1, m.CreateRoom(game="othello", position="nonsense"))
    assert error_code(bad, 1) == "bad_options"


def test_a_stand_in_does_not_open_the_way_to_loading_over_a_persons_moves() -> None:
    table = archived_table()
    room = str(table.create(game="othello", seat="black").room["room"])
    table.join(2, room, seat="white")
    table.lobby.handle(1, m.Start(room=room))
    table.lobby.handle(1, m.SaveGame(room=room, name="empty"))
    play(table, 1, room)
    table.lobby.disconnect(1)
    table.clock.now += 61
    table.lobby.tick()
    refused = table.lobby.handle(2, m.LoadGame(room=room, name="empty"))
    assert error_code(refused, 2) == "not_at_start"


def test_an_odd_board_number_in_a_file_is_a_bad_save() -> None:
    table = archived_table()
    room = against_bots(table, "othello")
    text = '[Game "othello"]\n[Board "\u00b2"]\n'
    assert error_code(table.lobby.handle(1, m.ImportGame(room=room, text=text)), 1) == "bad_save"


def test_an_imported_finished_game_is_not_recorded() -> None:
    table = archived_table()
    room = against_bots(table, "othello")
    finished = play_out_file("othello")
    table.lobby.take_unsaved()
    assert isinstance(
        answer(table.lobby.handle(1, m.ImportGame(room=room, text=finished)), 1), m.Ok
    )
    assert table.lobby.rooms[room].status.value == "finished"
    assert table.lobby.take_unsaved().results == []


def play_out_file(name: str) -> str:
    """A whole game of `name` as a file, each side playing its first legal move."""
    game = get_game(name)
    state, moves = game.new(seed=2), []
    while not state.is_over:
        move = state.legal_moves()[0]
        moves.append(state.format_move(move))
        state = state.play(move)
    return game_file(game, game.resolve_options({}), 2, moves).text()
