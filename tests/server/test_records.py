"""Rooms as stored records: what a restart rebuilds, and damaged records refused."""

from typing import Any

import pytest

from parlour.rules import GAMES
from parlour.server.records import RecordError, restore_room, room_record
from parlour.server.room import Room, Seat, Status
from parlour.server.scores import preset_of


def playing_room(game_name: str, plies: int, board: int = 3) -> Room:
    """A started room of `game_name` with a human, a bot and `plies` moves played."""
    game = GAMES[game_name]
    options = game.resolve_options({})
    initial = game.new(options, seed=board)
    seats = [Seat(colour) for colour in game.seats]
    seats[0].seat_human("ann", "a" * 22, 7)
    for seat in seats[1:]:
        seat.seat_bot("easy" if seat.colour == "red" else "medium")
    state, moves = initial, []
    for _ in range(plies):
        if state.is_over:
            break
        move = state.legal_moves()[0]
        moves.append(state.format_move(move))
        state = state.play(move)
    return Room(
        id="room1",
        code="c" * 22,
        game=game,
        options=options,
        board=board,
        public=False,
        host_name="ann",
        host_token="h" * 22,
        host_conn=7,
        standin_after=60,
        bot_think_ms=500,
        initial=initial,
        seats=seats,
        status=Status.FINISHED if state.is_over else Status.PLAYING,
        state=state,
        moves=moves,
        version=len(moves),
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_room_comes_back_as_it_was_with_everyone_away(game: str) -> None:
    room = playing_room(game, 9)
    back = restore_room(room_record(room), now=100.0)
    assert back.state == room.state
    assert (back.moves, back.version, back.status) == (room.moves, room.version, room.status)
    assert (back.code, back.host_token, back.board, back.options) == (
        room.code,
        room.host_token,
        room.board,
        room.options,
    )
    assert [(s.colour, s.holder, s.name, s.token, s.level) for s in back.seats] == [
        (s.colour, s.holder, s.name, s.token, s.level) for s in room.seats
    ]
    assert back.host_conn is None
    assert all(seat.conn is None for seat in back.seats)
    assert back.seats[0].dropped_at == 100.0
    assert back.empty_since == 100.0


def test_a_finished_game_stays_finished() -> None:
    room = playing_room("othello", 200)
    assert room.status is Status.FINISHED
    assert restore_room(room_record(room), 0.0).status is Status.FINISHED


@pytest.mark.parametrize("ended", ["flag", "resigned"])
def test_a_game_ended_before_its_rules_ended_it_comes_back_finished(ended: str) -> None:
    room = playing_room("othello", 6)
    room.status, room.ended, room.winners = Status.FINISHED, ended, ["black"]
    room.out = {"white": None}
    room.resigned = {"white"} if ended == "resigned" else set()
    back = restore_room(room_record(room), 0.0)
    assert (back.status, back.ended, back.out, back.resigned) == (
        Status.FINISHED,
        ended,
        {"white": None},
        room.resigned,
    )
    view = back.view(None)
    assert view["state"]["over"] and view["state"]["winners"] == ["black"]
    assert (view["flagged"], view["resigned"]) == (
        ([], ["white"]) if ended == "resigned" else (["white"], [])
    )


def test_a_record_kept_before_rooms_said_how_a_game_ended_is_read_so() -> None:
    flagged = playing_room("othello", 6)
    flagged.status, flagged.out, flagged.winners = Status.FINISHED, {"white": None}, ["black"]
    record = room_record(flagged)
    del record["ended"], record["resigned"]
    assert restore_room(record, 0.0).ended == "flag"
    played = room_record(playing_room("othello", 200))
    del played["ended"]
    assert restore_room(played, 0.0).ended == "played"


def damaged(change: dict[str, Any]) -> dict[str, Any]:
    return room_record(playing_room("tribolo", 6)) | change


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"moves": ["a1", "zz"]}, "IllegalMoveError|MalformedMoveError"),
        ({"game": "chess"}, "KeyError"),
        ({"seats": []}, "seats are not Tribolo's"),
        ({"status": "finished"}, "do not end as recorded"),
        ({"status": "resting"}, "ValueError"),
        ({"record": 99}, "unknown record version"),
        ({"board": "three"}, "ValueError"),
        ({"options": {"rows": 999}}, "OptionError"),
    ],
)
def test_a_damaged_record_is_refused_with_a_reason(change: dict[str, Any], said: str) -> None:
    with pytest.raises(RecordError, match=said):
        restore_room(damaged(change), 0.0)


def test_a_waiting_room_with_moves_is_refused() -> None:
    record = damaged({"status": "waiting"})
    with pytest.raises(RecordError, match="not started"):
        restore_room(record, 0.0)


def test_a_room_from_a_position_with_moves_taken_back_comes_back_so() -> None:
    game = GAMES["oubliette"]
    start = game.new(game.resolve_options({"board": "abalone"})).play_text("a1-c3 ne")
    room = playing_room("oubliette", 0)
    room.position, room.initial, room.state = start.format_position(), start, start
    room.undone = 3
    back = restore_room(room_record(room), 0.0)
    assert (back.position, back.initial, back.undone) == (room.position, start, 3)
    assert result_preset(back) == "custom"


def result_preset(room: Room) -> str:
    return preset_of(room.options, room.position)
