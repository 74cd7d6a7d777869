"""Seats that change hands during a game, in the lobby: who may change which seat, when,
what everyone is told, what the record and score cards keep, and several seats held from
one screen."""

from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.rules.gamefile import parse_game_file
from parlour.server.lobby import Lobby
from parlour.server.manage import game_file_of
from parlour.server.records import restore_room, room_record
from parlour.server.room import Holder, Status
from parlour.server.scores import result_of
from parlour.server.thinking import BotTurn

from .test_lobby import Table, answer, error_code, to
from .test_manage import bot_moves, play


def set_seat(table: Table, conn: int, room: str, seat: str, holder: str, **fields: Any) -> Any:
    outbox = table.lobby.handle(conn, m.SetSeat(room=room, seat=seat, holder=holder, **fields))
    return answer(outbox, conn)


def ann_against_bots(table: Table, level: str = "hard") -> str:
    """Tribolo on board 7: Ann blue, bots red and green, started; red moves first."""
    room = str(table.create().room["room"])
    table.lobby.handle(1, m.FillBots(room=room, level=level))
    table.lobby.handle(1, m.Start(room=room))
    return room


def first_move(table: Table, room: str) -> str:
    state = table.lobby.rooms[room].state
    assert state is not None
    return state.format_move(state.legal_moves()[0])


def bot_plays(lobby: Lobby, turn: BotTurn) -> Any:
    return lobby.play_bot(turn, turn.state.format_move(turn.state.legal_moves()[0]))


def test_the_host_hands_a_computer_seat_to_a_person_and_back_mid_game() -> None:
    table = Table()
    room = ann_against_bots(table)
    (turn,) = table.lobby.bot_turns()
    assert turn.colour == "red"
    bot_plays(table.lobby, turn)
    (turn,) = table.lobby.bot_turns()
    assert turn.colour == "green"
    outbox = table.lobby.handle(1, m.SetSeat(room=room, seat="green", holder="human"))
    assert isinstance(answer(outbox, 1), m.Ok)
    notice = to(outbox, 1)[1]
    ann = {"kind": "human", "name": "Ann", "connected": True}
    assert notice == m.SeatSet(room=room, seat="green", holder=ann, by="Ann", after=1)
    held = table.lobby.rooms[room]
    assert [seat.colour for seat in held.seats_of(1)] == ["blue", "green"]
    assert table.lobby.journal.take_reseated() == {(room, "green")}
    # The search begun for green's computer is stale: its move is refused, none is asked.
    with pytest.raises(Exception, match="changed hands"):
        bot_plays(table.lobby, turn)
    assert table.lobby.bot_turns() == []
    # Ann plays green from the same connection, then gives it back at another level.
    play(table, 1, room)
    assert held.moves[-1] and len(held.moves) == 2
    answer_ = set_seat(table, 1, room, "green", "bot", level="expert")
    assert isinstance(answer_, m.Ok)
    green = held.seats[2]
    # Taken by Ann's screen, it is hers until given up: the computer plays it for her.
    assert (green.holder, green.level, green.name, green.conn) == (Holder.BOT, "expert", "Ann", 1)
    # The host's own seat taken by the computer is the host's still: it says whose.
    set_seat(table, 1, room, "blue", "bot", level="easy")
    assert held.seats[0].describe()["holder"] == {
        "kind": "bot",
        "level": "easy",
        "name": "Ann",
        "connected": True,
    }
    assert [change.holder for change in held.seat_log] == [
        "Ann",
        "computer (expert) for Ann",
        "computer (easy) for Ann",
    ]
    assert [change.after for change in held.seat_log] == [1, 2, 2]


def test_a_person_may_change_only_their_own_seats_and_the_host_not_anothers_held_one() -> None:
    table = Table()
    room = table.full_room()
    before = table.snapshot(room)
    assert error_code(
        table.lobby.handle(2, m.SetSeat(room=room, seat="green", holder="bot")), 2
    ) == ("not_host")
    assert error_code(
        table.lobby.handle(1, m.SetSeat(room=room, seat="red", holder="bot")), 1
    ) == ("seat_taken")
    outsider = table.lobby.handle(4, m.SetSeat(room=room, seat="red", holder="open"))
    assert error_code(outsider, 4) == "not_host"
    assert table.snapshot(room) == before
    # Bob hands his own seat to the computer, then takes it back.
    assert isinstance(set_seat(table, 2, room, "red", "bot", level="medium"), m.Ok)
    red = table.lobby.rooms[room].seats[1]
    assert (red.holder, red.level, red.name, red.conn) == (Holder.BOT, "medium", "Bob", 2)
    # It is still Bob's: the host may not take it while he is here.
    assert error_code(
        table.lobby.handle(1, m.SetSeat(room=room, seat="red", holder="human")), 1
    ) == ("seat_taken")
    assert isinstance(set_seat(table, 2, room, "red", "human"), m.Ok)
    assert (red.holder, red.level, red.conn) == (Holder.HUMAN, None, 2)


def test_a_stranger_may_not_change_a_seat_and_a_bad_level_changes_nothing() -> None:
    table = Table()
    room = ann_against_bots(table)
    table.lobby.handle(4, m.Spectate(room=room))
    before = table.snapshot(room)
    code = error_code(table.lobby.handle(4, m.SetSeat(room=room, seat="red", holder="bot")), 4)
    assert code == "not_host"
    bad = m.SetSeat(room=room, seat="red", holder="bot", level="grandmaster")
    assert error_code(table.lobby.handle(1, bad), 1) == "no_such_level"
    assert error_code(
        table.lobby.handle(1, m.SetSeat(room=room, seat="pink", holder="bot")), 1
    ) == ("no_such_seat")
    assert table.snapshot(room) == before
    assert table.lobby.journal.take_reseated() == set()


def test_the_host_hands_a_dropped_persons_seat_to_a_stand_in_and_they_come_back() -> None:
    table = Table()
    room = table.full_room()
    bob = table.lobby.rooms[room].seats[1]
    token = bob.token
    table.lobby.disconnect(2)
    assert isinstance(set_seat(table, 1, room, "red", "bot", level="easy"), m.Ok)
    assert (bob.holder, bob.level, bob.name) == (Holder.STANDIN, "easy", "Bob")
    (turn,) = table.lobby.bot_turns()
    assert (turn.colour, turn.level) == ("red", "easy")
    table.lobby.handle(2, m.Hello(version=1, name="Bob"))
    outbox = table.lobby.handle(2, m.Join(room=room, token=token))
    assert isinstance(answer(outbox, 2), m.Joined)
    assert bob.holder is Holder.HUMAN and bob.conn == 2
    back = [message for message in to(outbox, 1) if isinstance(message, m.SeatSet)]
    assert back == [
        m.SeatSet(
            room=room,
            seat="red",
            holder={"kind": "human", "name": "Bob", "connected": True},
            by=None,
            after=0,
        )
    ]
    with pytest.raises(Exception, match="changed hands"):
        bot_plays(table.lobby, turn)
    held = table.lobby.rooms[room]
    assert [(c.colour, c.holder) for c in held.seat_log] == [
        ("red", "computer (easy) for Bob"),
        ("red", "Bob"),
    ]


def test_the_host_opens_a_seat_mid_game_and_a_newcomer_takes_it() -> None:
    table = Table()
    room = ann_against_bots(table)
    bot_moves_until_ann(table, room)
    assert isinstance(set_seat(table, 1, room, "green", "open"), m.Ok)
    play(table, 1, room)
    bot_moves(table.lobby)  # red plays; then the game waits for green
    held = table.lobby.rooms[room]
    assert held.state is not None and held.seats[held.state.to_move].colour == "green"
    assert table.lobby.bot_turns() == []
    joined = table.join(4, room)
    assert joined.seat == "green"
    play(table, 4, room)
    assert [change.holder for change in held.seat_log] == ["open", "Dee"]


def bot_moves_until_ann(table: Table, room: str) -> None:
    bot_moves(table.lobby)
    held = table.lobby.rooms[room]
    assert held.state is not None and held.state.to_move == 0


def test_a_seat_change_waits_while_a_proposal_is_open() -> None:
    table = Table()
    room = table.full_room()
    play(table, 2, room)  # red first on board 7
    assert isinstance(answer(table.lobby.handle(2, m.Undo(room=room)), 2), m.Ok)
    before = table.snapshot(room)
    assert error_code(
        table.lobby.handle(2, m.SetSeat(room=room, seat="red", holder="bot")), 2
    ) == ("busy")
    assert table.snapshot(room) == before


def test_seats_change_before_the_start_and_after_the_end_without_entering_the_record() -> None:
    table = Table()
    room = str(table.create(game="othello", seat="black").room["room"])
    set_seat(table, 1, room, "white", "bot", level="easy")
    set_seat(table, 1, room, "white", "bot", level="expert")
    held = table.lobby.rooms[room]
    assert held.seat_log == [] and held.seats[1].changes == 2
    table.lobby.handle(1, m.Start(room=room))
    set_seat(table, 1, room, "black", "bot", level="easy")
    bot_moves(table.lobby)
    assert held.status is Status.FINISHED
    assert [change.holder for change in held.seat_log] == ["computer (easy) for Ann"]
    set_seat(table, 1, room, "black", "human")
    assert len(held.seat_log) == 1
    table.lobby.handle(1, m.NewGame(room=room))
    assert held.seat_log == [] and held.changed_hands == set()
    assert held.seats_at_start == "black: Ann; white: computer (expert)"


def test_a_change_racing_a_move_plays_the_move_once_or_refuses_it() -> None:
    table = Table()
    room = table.full_room()
    held = table.lobby.rooms[room]
    move = first_move(table, room)
    # The seat went to the computer first: the person's move, now late, is refused.
    set_seat(table, 2, room, "red", "bot", level="easy")
    late = table.lobby.handle(2, m.Move(room=room, version=0, move=move))
    assert error_code(late, 2) == "not_seated"
    (turn,) = table.lobby.bot_turns()
    bot_plays(table.lobby, turn)
    assert len(held.moves) == 1
    # Two changes racing: the second acts on what the first left.
    set_seat(table, 2, room, "red", "human")
    assert isinstance(set_seat(table, 2, room, "red", "human"), m.Ok)
    assert held.seats[1].holder is Holder.HUMAN
    assert len([change for change in held.seat_log if change.colour == "red"]) == 2


def test_the_record_keeps_every_change_and_a_game_file_replays_with_them() -> None:
    table = Table()
    room = ann_against_bots(table)
    bot_moves_until_ann(table, room)
    set_seat(table, 1, room, "green", "bot", level="expert")
    play(table, 1, room)
    set_seat(table, 1, room, "red", "human")
    held = table.lobby.rooms[room]
    text = game_file_of(held).text()
    assert '[Seats "blue: Ann; red: computer (hard); green: computer (hard)"]' in text
    lines = text.splitlines()
    at = lines.index("{green: computer (expert)}")
    assert lines[at - 1].startswith("2. green ") and lines[at + 1].startswith("3. blue ")
    assert lines[-1] == "{red: Ann}"
    parsed = parse_game_file(text)
    assert [(c.after, c.colour, c.holder) for c in parsed.seat_changes] == [
        (2, "green", "computer (expert)"),
        (3, "red", "Ann"),
    ]
    assert parse_game_file(parsed.text()) == parsed
    exported = answer(table.lobby.handle(1, m.ExportGame(room=room)), 1)
    assert exported.text == text


def test_a_seat_that_changed_hands_counts_for_no_player() -> None:
    table = Table()
    room = table.create(game="othello", seat="black").room["room"]
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    set_seat(table, 1, room, "black", "bot", level="easy")
    bot_moves(table.lobby)
    assert held.status is Status.FINISHED
    result = result_of(held)
    black, white = result.seats
    assert (black.kind, black.name, black.player) == ("changed", None, None)
    assert (white.kind, white.player) == ("bot", "computer, level easy")
    assert result.changed_hands and not result.stood_in


def test_several_seats_from_one_screen_play_agree_and_come_back_together() -> None:
    table = Table()
    created = table.create(game="tribolo", seat="blue")
    room = str(created.room["room"])
    red = table.join(1, room, seat="red", name="Bea")
    assert red.token == created.token and red.room["yours"] == ["blue", "red"]
    table.join(3, room, seat="green")
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    assert held.seats[1].name == "Bea"
    play(table, 1, room)  # red, from Ann's screen
    play(table, 3, room)  # green
    play(table, 1, room)  # blue, from Ann's screen
    assert len(held.moves) == 3
    # Cy asks to undo: both seats at Ann's screen are asked, and one answer agrees for both.
    table.lobby.handle(3, m.Undo(room=room))
    proposal = held.proposal
    assert proposal is not None and proposal.waiting == {"blue", "red"}
    table.lobby.handle(1, m.Answer(room=room, proposal=proposal.id, accept=True))
    assert held.proposal is None and len(held.moves) == 1
    # Ann's screen asks: only Cy is asked.
    play(table, 3, room)
    table.lobby.handle(1, m.Undo(room=room))
    assert held.proposal is not None and held.proposal.waiting == {"green"}
    table.lobby.handle(3, m.Answer(room=room, proposal=held.proposal.id, accept=True))
    # The screen drops, and its one token brings back both seats and hosting.
    table.lobby.disconnect(1)
    table.lobby.handle(6, m.Hello(version=1, name="Ann"))
    back = table.join(6, room, token=created.token)
    assert back.host and back.room["yours"] == ["blue", "red"]
    assert [seat.name for seat in held.seats_of(6)] == ["Ann", "Bea"]


def test_leaving_for_good_opens_the_seat_or_hands_it_to_the_computer_as_the_room_says() -> None:
    table = Table()
    room = table.full_room()
    outbox = table.lobby.handle(2, m.Leave(room=room, give_up=True))
    assert isinstance(answer(outbox, 2), m.Ok)
    red = table.lobby.rooms[room].seats[1]
    assert (red.holder, red.level, red.token) == (Holder.BOT, "medium", None)
    assert any(isinstance(message, m.SeatSet) for message in to(outbox, 1))
    other = Table()
    room = str(other.create(left_seats="open").room["room"])
    other.join(2, room, seat="red")
    other.join(3, room, seat="green")
    other.lobby.handle(1, m.Start(room=room))
    other.lobby.handle(2, m.Leave(room=room, give_up=True))
    assert other.lobby.rooms[room].seats[1].holder is Holder.OPEN
    # A plain leave keeps the seat for its token.
    other.lobby.handle(3, m.Leave(room=room))
    green = other.lobby.rooms[room].seats[2]
    assert green.holder is Holder.HUMAN and green.conn is None


def test_computers_play_each_other_while_the_host_only_watches() -> None:
    table = Table()
    room = str(table.create(game="othello", seat=None).room["room"])
    table.lobby.handle(1, m.FillBots(room=room, level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    bot_moves(table.lobby)
    held = table.lobby.rooms[room]
    assert held.status is Status.FINISHED and len(held.moves) >= 55


def test_each_game_offers_its_originals_default_level() -> None:
    table = Table()
    room = str(table.create(game="tripppin", seat="blue").room["room"])
    table.lobby.handle(1, m.FillBots(room=room))
    assert table.lobby.rooms[room].seats[1].level == "3"
    welcome = answer(table.lobby.handle(9, m.Hello(version=1, name="Zed")), 9)
    defaults = {game["name"]: game["default_level"] for game in welcome.games}
    assert defaults["tripppin"] == "3" and defaults["tribolo"] == "medium"


def test_a_restart_keeps_the_seat_changes_and_whose_seats_were_whose() -> None:
    table = Table()
    room = ann_against_bots(table)
    bot_moves_until_ann(table, room)
    set_seat(table, 1, room, "blue", "bot", level="easy")
    held = table.lobby.rooms[room]
    restored = restore_room(room_record(held), now=5.0)
    assert restored.seat_log == held.seat_log
    assert restored.changed_hands == {"blue"}
    assert restored.seats_at_start == held.seats_at_start
    blue = restored.seats[0]
    assert (blue.holder, blue.name, blue.token, blue.conn) == (
        Holder.BOT,
        "Ann",
        held.seats[0].token,
        None,
    )


def test_stand_ins_and_seats_given_up_play_at_the_rooms_level() -> None:
    table = Table()
    room = str(table.create(standin_after=10).room["room"])
    table.join(2, room, seat="red")
    assert isinstance(set_seat(table, 1, room, "green", "bot", level="easy"), m.Ok)
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    assert held.bot_level == "easy", "green's computer was set to easy"
    table.lobby.disconnect(2)
    table.clock.now += 10
    table.lobby.tick()
    assert (held.seats[1].holder, held.seats[1].level) == (Holder.STANDIN, "easy")
    table.lobby.handle(1, m.Leave(room=room, give_up=True))
    assert (held.seats[0].holder, held.seats[0].level) == (Holder.BOT, "easy")
    again = restore_room(room_record(held), table.clock.now)
    assert again.bot_level == "easy", "kept across a restart"

    other = Table()
    room = str(other.create(standin_after=10).room["room"])
    other.lobby.handle(1, m.FillBots(room=room, level="hard"))
    other.lobby.handle(1, m.Start(room=room))
    other.lobby.handle(1, m.SetSeat(room=room, seat="blue", holder="bot"))
    mine = other.lobby.rooms[room].seats[0]
    assert (mine.holder, mine.level, mine.name) == (Holder.BOT, "hard", "Ann"), (
        "a seat handed to the computer with no level named: the room's level"
    )
    other.lobby.handle(1, m.SetSeat(room=room, seat="blue", holder="bot", level="expert"))
    assert mine.level == "expert"
    assert other.lobby.rooms[room].bot_level == "hard", "a person's seat sets no room level"

    people = Table()
    room = people.full_room()
    people.lobby.disconnect(3)
    people.clock.now += 60
    people.lobby.tick()
    green = people.lobby.rooms[room].seats[2]
    assert (green.holder, green.level) == (Holder.STANDIN, "medium"), (
        "no computer seat was ever set: the game's default level"
    )
