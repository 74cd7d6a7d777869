"""Doublolo's coin: "you will be asked to call heads or tails. This will decide who will go
first." A person calls, the coin lands, and the caller moves first only if the call was
right; the board dealt is the same either way."""

from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.server.manage import game_file_of
from parlour.server.records import restore_room, room_record
from parlour.server.room import Status

from .test_lobby import Table, answer, error_code
from .test_manage import bot_moves


def doublolo_against_the_computer(table: Table, **fields: Any) -> str:
    room = str(table.create(game="doublolo", seat="red", board=11, **fields).room["room"])
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    return room


@pytest.mark.parametrize(
    ("call", "landed", "first"),
    [("heads", "heads", "red"), ("heads", "tails", "white"), ("tails", "tails", "red")],
)
def test_the_caller_moves_first_only_if_the_call_was_right(
    call: str, landed: str, first: str
) -> None:
    table = Table()
    table.lobby.services.coin = lambda: landed
    room = doublolo_against_the_computer(table)
    board = table.lobby.rooms[room].initial.observation()["board"]
    assert isinstance(answer(table.lobby.handle(1, m.Start(room=room, call=call)), 1), m.Ok)
    held = table.lobby.rooms[room]
    assert held.state is not None and held.game.seats[held.state.to_move] == first
    assert held.state.observation()["board"] == board
    view = held.view(1)
    assert view["coin"] == {"by": "red", "call": call, "landed": landed, "first": first}
    assert view["options"]["first"] == first
    assert (table.lobby.bot_turns() != []) == (first == "white")
    # The game file replays from its options: the first player as the coin said.
    assert f"first={first}" in game_file_of(held).text()


def test_a_coin_is_refused_where_none_is_tossed_and_changes_nothing() -> None:
    table = Table()
    tribolo = str(table.create().room["room"])
    table.lobby.handle(1, m.FillBots(room=tribolo))
    assert error_code(table.lobby.handle(1, m.Start(room=tribolo, call="heads")), 1) == (
        "bad_options"
    )
    named = doublolo_against_the_computer(table, options={"first": "white"})
    assert error_code(table.lobby.handle(1, m.Start(room=named, call="tails")), 1) == (
        "bad_options"
    )
    watched = str(table.create(conn=2, game="doublolo", seat=None).room["room"])
    table.lobby.handle(2, m.FillBots(room=watched))
    assert error_code(table.lobby.handle(2, m.Start(room=watched, call="heads")), 2) == (
        "not_seated"
    )
    for room in (tribolo, named, watched):
        assert table.lobby.rooms[room].status is Status.WAITING


def test_each_new_game_may_be_called_again_and_is_kept_over_a_restart() -> None:
    table = Table()
    table.lobby.services.coin = lambda: "tails"
    room = doublolo_against_the_computer(table)
    table.lobby.handle(1, m.Start(room=room, call="tails"))
    held = table.lobby.rooms[room]
    restored = restore_room(room_record(held), now=1.0)
    assert restored.first_by_coin and restored.coin == held.coin
    assert restored.tosses_for_first
    # Played out (the person's seat handed to the computer), then called again.
    table.lobby.handle(1, m.SetSeat(room=room, seat="red", holder="bot", level="easy"))
    bot_moves(table.lobby)
    assert held.status is Status.FINISHED
    table.lobby.handle(1, m.SetSeat(room=room, seat="red", holder="human"))
    table.lobby.handle(1, m.NewGame(room=room, call="heads"))
    assert held.coin is not None and held.coin.first == "white"
    assert held.state is not None and held.state.to_move == 1
    # Without a call the board number draws, as before.
    table.lobby.handle(1, m.SetSeat(room=room, seat="red", holder="bot", level="easy"))
    bot_moves(table.lobby)
    table.lobby.handle(1, m.SetSeat(room=room, seat="red", holder="human"))
    table.lobby.handle(1, m.NewGame(room=room))
    assert held.coin is None and held.options["first"] == "random"


def test_the_games_say_which_toss_a_coin() -> None:
    table = Table()
    welcome = answer(table.lobby.handle(9, m.Hello(version=1, name="Zed")), 9)
    tossing = [game["name"] for game in welcome.games if game["first_by_coin"]]
    assert tossing == ["doublolo"]
