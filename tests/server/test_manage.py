"""Undo, new game and chat in the lobby: alone at once, with other people by consent."""

from typing import Any

import pytest

from parlour.bots import levels_for
from parlour.protocol import messages as m
from parlour.rules import get_game
from parlour.server.answers import Outbox
from parlour.server.lobby import Lobby
from parlour.server.manage import MAX_UNDONE
from parlour.server.room import Room, Status

from .test_lobby import Table, answer, error_code, to


def play(table: Table, conn: int, room: str) -> Outbox:
    """`conn` plays its seat's first legal move."""
    held = table.lobby.rooms[room]
    assert held.state is not None
    move = held.state.format_move(held.state.legal_moves()[0])
    outbox = table.lobby.handle(conn, m.Move(room=room, version=held.version, move=move))
    assert isinstance(answer(outbox, conn), m.Ok), answer(outbox, conn)
    return outbox


def bot_moves(lobby: Lobby) -> None:
    """Every bot whose turn it is plays its first legal move, until a person is to move."""
    while turns := lobby.bot_turns():
        for turn in turns:
            lobby.play_bot(turn, turn.state.format_move(turn.state.legal_moves()[0]))


def against_bots(table: Table, game: str = "othello") -> str:
    """A started room of `game` with Ann in the first seat and bots in the others."""
    seat = get_game(game).seats[0]
    room = str(table.create(game=game, seat=seat).room["room"])
    table.lobby.handle(1, m.FillBots(room=room, level=levels_for(game)[0]))
    assert isinstance(answer(table.lobby.handle(1, m.Start(room=room)), 1), m.Ok)
    bot_moves(table.lobby)
    return room


def two_people(table: Table) -> str:
    """Othello with Ann black and Bob white, started."""
    room = str(table.create(game="othello", seat="black").room["room"])
    table.join(2, room, seat="white")
    table.lobby.handle(1, m.Start(room=room))
    return room


def moves_of(table: Table, room: str) -> list[str]:
    return list(table.lobby.rooms[room].moves)


def test_alone_against_bots_an_undo_takes_back_the_bots_replies_too() -> None:
    table = Table()
    room = against_bots(table, "tribolo")
    play(table, 1, room)
    bot_moves(table.lobby)
    first_round = moves_of(table, room)
    play(table, 1, room)
    bot_moves(table.lobby)
    version = table.lobby.rooms[room].version
    outbox = table.lobby.handle(1, m.Undo(room=room))
    assert isinstance(answer(outbox, 1), m.Ok)
    assert moves_of(table, room) == first_round
    held = table.lobby.rooms[room]
    assert held.version == version + 1
    assert held.state == replayed(held)
    view = to(outbox, 1)[1]
    assert isinstance(view, m.RoomView) and view.room["moves"] == first_round


def replayed(room: Room) -> Any:
    state = room.initial
    for move in room.moves:
        state = state.play_text(move)
    return state


def test_undo_again_goes_further_back_and_stops_where_nothing_is_left() -> None:
    table = Table()
    room = against_bots(table)
    for _ in range(2):
        play(table, 1, room)
        bot_moves(table.lobby)
    table.lobby.handle(1, m.Undo(room=room))
    table.lobby.handle(1, m.Undo(room=room))
    assert moves_of(table, room) == []
    assert error_code(table.lobby.handle(1, m.Undo(room=room)), 1) == "nothing_to_undo"


def test_at_most_forty_moves_are_taken_back_in_a_row() -> None:
    table = Table()
    room = against_bots(table, "othello")
    while len(moves_of(table, room)) < MAX_UNDONE + 4:
        play(table, 1, room)
        bot_moves(table.lobby)
    taken = 0
    while isinstance(answer(table.lobby.handle(1, m.Undo(room=room)), 1), m.Ok):
        taken = table.lobby.rooms[room].undone
    assert MAX_UNDONE - 2 < taken <= MAX_UNDONE  # one more undo would take back two
    assert len(moves_of(table, room)) >= 4
    play(table, 1, room)
    assert table.lobby.rooms[room].undone == 0


def test_with_another_person_an_undo_waits_for_their_consent() -> None:
    table = Table()
    room = two_people(table)
    play(table, 1, room)
    play(table, 2, room)
    play(table, 1, room)
    before = moves_of(table, room)
    outbox = table.lobby.handle(1, m.Undo(room=room))
    assert isinstance(answer(outbox, 1), m.Ok)
    asked = to(outbox, 2)[0]
    assert isinstance(asked, m.Proposal)
    assert (asked.kind, asked.by, asked.asked, asked.expires_in) == (
        "undo",
        "black",
        ["white"],
        30,
    )
    assert moves_of(table, room) == before
    assert error_code(table.lobby.handle(2, m.Move(room=room, version=3, move="a1")), 2) == "busy"
    assert table.lobby.handle(1, m.Undo(room=room)) == [(1, m.Ok())], "sent again: asks nobody"
    assert error_code(table.lobby.handle(2, m.Undo(room=room)), 2) == "busy"
    outbox = table.lobby.handle(2, m.Answer(room=room, proposal=asked.proposal, accept=True))
    ended = to(outbox, 1)[0]
    assert isinstance(ended, m.ProposalEnded) and ended.outcome == "accepted"
    assert moves_of(table, room) == before[:2]
    assert table.lobby.rooms[room].state.to_move == 0  # type: ignore[union-attr]


def test_an_undo_declined_or_unanswered_changes_nothing() -> None:
    table = Table()
    room = two_people(table)
    play(table, 1, room)
    play(table, 2, room)
    before = (moves_of(table, room), table.lobby.rooms[room].version)
    asked = to(table.lobby.handle(2, m.Undo(room=room)), 1)[0]
    assert isinstance(asked, m.Proposal)
    outbox = table.lobby.handle(1, m.Answer(room=room, proposal=asked.proposal, accept=False))
    ended = to(outbox, 2)[0]
    assert isinstance(ended, m.ProposalEnded)
    assert (ended.outcome, ended.by) == ("declined", "black")
    assert (moves_of(table, room), table.lobby.rooms[room].version) == before
    asked = to(table.lobby.handle(2, m.Undo(room=room)), 1)[0]
    assert isinstance(asked, m.Proposal)
    table.clock.now += 29
    assert table.lobby.tick() == []
    table.clock.now += 1
    expired = to(table.lobby.tick(), 2)
    assert [(e.outcome, e.proposal) for e in expired if isinstance(e, m.ProposalEnded)] == [
        ("expired", asked.proposal)
    ]
    assert (moves_of(table, room), table.lobby.rooms[room].version) == before
    play(table, 1, room)


def test_answers_from_the_wrong_seat_or_to_no_proposal_are_refused() -> None:
    table = Table()
    room = two_people(table)
    play(table, 1, room)
    asked = to(table.lobby.handle(1, m.Undo(room=room)), 2)[0]
    assert isinstance(asked, m.Proposal)
    wrong = m.Answer(room=room, proposal=asked.proposal, accept=True)
    assert error_code(table.lobby.handle(1, wrong), 1) == "no_such_proposal"
    other = m.Answer(room=room, proposal="nothing", accept=True)
    assert error_code(table.lobby.handle(2, other), 2) == "no_such_proposal"
    table.lobby.handle(3, m.Spectate(room=room))
    assert error_code(table.lobby.handle(3, wrong), 3) == "no_such_proposal"
    assert error_code(table.lobby.handle(3, m.Undo(room=room)), 3) == "not_seated"


def test_bots_wait_while_a_proposal_is_open() -> None:
    table = Table()
    room = str(table.create(game="tribolo", seat="blue", options={"first": "blue"}).room["room"])
    table.join(2, room, seat="red")
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    table.lobby.bot_turns()
    play(table, 1, room)
    play(table, 2, room)
    assert table.lobby.bot_turns()
    asked = to(table.lobby.handle(1, m.Undo(room=room)), 2)[0]
    assert isinstance(asked, m.Proposal)
    assert table.lobby.bot_turns() == []
    table.lobby.handle(2, m.Answer(room=room, proposal=asked.proposal, accept=False))
    assert [turn.colour for turn in table.lobby.bot_turns()] == ["green"]


@pytest.mark.parametrize(
    ("game", "firsts"),
    [("tripppin", [0, 1, 0]), ("tribolo", None), ("othello", [0, 0, 0])],
)
def test_a_new_game_keeps_the_seats_and_deals_again(game: str, firsts: list[int] | None) -> None:
    table = Table()
    room = against_bots(table, game)
    held = table.lobby.rooms[room]
    seen = [held.initial.to_move]
    boards = {held.board}
    holders = [seat.holder.value for seat in held.seats]
    for _ in range(2):
        outbox = table.lobby.handle(1, m.NewGame(room=room))
        assert isinstance(answer(outbox, 1), m.Ok)
        assert (held.moves, held.status) == ([], Status.PLAYING)
        assert [seat.holder.value for seat in held.seats] == holders
        seen.append(held.initial.to_move)
        boards.add(held.board)
    if firsts is not None:
        assert seen == firsts
    assert len(boards) == 3
    outbox = table.lobby.handle(1, m.NewGame(room=room, board=77))
    assert held.board == 77
    assert held.initial == get_game(game).new(held.options, seed=77)


def test_a_new_game_mid_game_with_another_person_needs_consent() -> None:
    table = Table()
    room = two_people(table)
    play(table, 1, room)
    asked = to(table.lobby.handle(2, m.NewGame(room=room, board=5)), 1)[0]
    assert isinstance(asked, m.Proposal) and asked.kind == "new_game"
    assert len(moves_of(table, room)) == 1
    table.lobby.handle(1, m.Answer(room=room, proposal=asked.proposal, accept=True))
    assert moves_of(table, room) == []
    assert table.lobby.rooms[room].board == 5


def test_chat_reaches_everyone_in_the_room_and_only_them() -> None:
    table = Table()
    room = two_people(table)
    table.lobby.handle(3, m.Spectate(room=room))
    outbox = table.lobby.handle(3, m.Chat(room=room, text="nice corner"))
    assert isinstance(answer(outbox, 3), m.Ok)
    lines = [(target, msg) for target, msg in outbox if isinstance(msg, m.ChatLine)]
    assert sorted(target for target, _ in lines) == [1, 2, 3]
    assert {(msg.name, msg.seat, msg.text) for _, msg in lines} == {("Cy", None, "nice corner")}
    assert error_code(table.lobby.handle(4, m.Chat(room=room, text="hi")), 4) == "not_in_room"


def stood_in_for_bob(table: Table) -> str:
    """Othello where Ann (black) and Bob (white) have each moved, then Bob dropped out and a
    bot stands in for him."""
    room = two_people(table)
    play(table, 1, room)
    play(table, 2, room)
    table.lobby.disconnect(2)
    table.clock.now += 61
    table.lobby.tick()
    assert table.lobby.rooms[room].seats[1].holder.value == "standin"
    return room


def test_a_stand_in_does_not_let_anyone_take_back_the_absent_persons_moves() -> None:
    table = Table()
    room = stood_in_for_bob(table)
    before = moves_of(table, room)
    asked = to(table.lobby.handle(1, m.Undo(room=room)), 1)
    assert isinstance(asked[0], m.Ok)
    assert isinstance(asked[1], m.Proposal) and asked[1].asked == ["white"]
    assert moves_of(table, room) == before
    table.clock.now += 30
    table.lobby.tick()
    assert moves_of(table, room) == before


def test_a_finished_game_is_not_undone_and_a_mid_game_restart_is_not_recorded() -> None:
    table = Table()
    room = against_bots(table, "othello")
    play_rounds(table, room, 2)
    table.lobby.handle(1, m.NewGame(room=room))
    assert table.lobby.take_unsaved().results == []
    held = table.lobby.rooms[room]
    while held.state is not None and not held.state.is_over:
        if held.state.to_move == 0:
            play(table, 1, room)
        bot_moves(table.lobby)
    assert len(table.lobby.take_unsaved().results) == 1
    assert error_code(table.lobby.handle(1, m.Undo(room=room)), 1) == "game_over"


def play_rounds(table: Table, room: str, rounds: int) -> None:
    for _ in range(rounds):
        play(table, 1, room)
        bot_moves(table.lobby)


def test_a_game_from_a_position_starts_from_it_again() -> None:
    table = Table()
    start = get_game("othello").new().play_text("d3")
    joined = table.create(
        game="othello", seat="white", board=None, position=start.format_position()
    )
    room = str(joined.room["room"])
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    bot_moves(table.lobby)
    table.lobby.handle(1, m.NewGame(room=room))
    held = table.lobby.rooms[room]
    assert (held.initial, held.moves, held.position) == (start, [], start.format_position())
    table.lobby.handle(1, m.NewGame(room=room, board=4))
    assert (held.position, held.board) == (None, 4)
