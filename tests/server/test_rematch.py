"""A rematch (`new_game` after a game), by the consent of every other person seated: never
with someone away; with the seats rotated (`rotate`) every holder moves to the next seat in
turn order, so the first move changes hands; rotating is refused mid-game."""

from typing import Any

from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id
from parlour.server.answers import Outbox
from parlour.server.room import Holder, Room, Status

from .test_lobby import Table, answer, error_code

ANN_KEY = new_key()


def finish(table: Table, room: str) -> Room:
    """Everyone, people and bots, plays their first legal move until the game is over."""
    held = table.lobby.rooms[room]
    while held.status is Status.PLAYING:
        assert held.state is not None
        text = held.state.format_move(held.state.legal_moves()[0])
        turns = [turn for turn in table.lobby.bot_turns() if turn.room == room]
        if turns:
            table.lobby.play_bot(turns[0], text)
            continue
        seat = held.seats[held.state.to_move]
        if seat.plays_as_bot:
            continue
        assert seat.conn is not None
        answered = answer(
            table.lobby.handle(seat.conn, m.Move(room=room, version=held.version, move=text)),
            seat.conn,
        )
        assert isinstance(answered, m.Ok), answered
    return held


def agreed(table: Table, conn: int, room: str, **fields: Any) -> Outbox:
    """`new_game` from `conn`, accepted by every other person it asks: all that was sent."""
    outbox = table.lobby.handle(conn, m.NewGame(room=room, **fields))
    assert isinstance(answer(outbox, conn), m.Ok)
    asked = next((sent for _, sent in outbox if isinstance(sent, m.Proposal)), None)
    if asked is None:
        return outbox
    for seat in table.lobby.rooms[room].seats:
        if seat.colour in asked.asked and seat.conn is not None:
            accept = m.Answer(room=room, proposal=asked.proposal, accept=True)
            outbox += table.lobby.handle(seat.conn, accept)
    return outbox


def holders(held: Room) -> list[tuple[str, str | None, str | None]]:
    return [(seat.colour, seat.name, seat.level) for seat in held.seats]


def test_two_people_swap_colours_and_the_first_move_changes_hands() -> None:
    table = Table()
    table.lobby.handle(1, m.Hello(version=1, name="Ann", key=ANN_KEY))
    made = table.create(game="othello", seat="black", options={})
    room = str(made.room["room"])
    bob = table.join(2, room, seat="white")
    table.lobby.handle(1, m.Start(room=room))
    held = finish(table, room)
    version = held.version
    outbox = table.lobby.handle(2, m.NewGame(room=room, rotate=True))
    assert isinstance(answer(outbox, 2), m.Ok)
    assert held.status is Status.FINISHED, "Ann is asked first"
    (asked,) = [sent for conn, sent in outbox if conn == 1 and isinstance(sent, m.Proposal)]
    assert (asked.kind, asked.asked, asked.rotate) == ("new_game", ["black"], True)
    outbox = table.lobby.handle(1, m.Answer(room=room, proposal=asked.proposal, accept=True))
    assert holders(held) == [("black", "Bob", None), ("white", "Ann", None)]
    assert held.status.value == "playing" and held.version == version + 1 and held.moves == []
    assert held.seats[1].player == player_id(ANN_KEY), "her player id went with her"
    assert held.state is not None and held.seats[held.state.to_move].name == "Bob"
    views = {conn: message.room for conn, message in outbox if isinstance(message, m.RoomView)}
    assert (views[1]["you"], views[1]["yours"]) == ("white", ["white"])
    assert views[2]["you"] == "black"
    assert not [message for _, message in outbox if isinstance(message, m.SeatSet)]
    table.lobby.disconnect(1)
    table.lobby.handle(6, m.Hello(version=1, name="Ann", key=ANN_KEY))
    back = table.join(6, room, token=made.token)
    assert back.seat == "white" and back.host, "her token brings her back to her new seat"
    assert bob.token == held.seats[0].token


def test_three_seats_each_move_on_one_computers_too_and_the_colour_first_stays_first() -> None:
    table = Table()
    made = table.create(board=7, seat="blue")
    room = str(made.room["room"])
    table.join(2, room, seat="red")
    table.lobby.handle(1, m.SetSeat(room=room, seat="green", holder="bot", level="easy"))
    table.lobby.handle(1, m.Start(room=room))
    held = table.lobby.rooms[room]
    assert held.state is not None
    first = held.seats[held.state.to_move].colour
    assert held.options["first"] == "random"
    finish(table, room)
    agreed(table, 1, room, rotate=True, board=11)
    assert holders(held) == [("blue", None, "easy"), ("red", "Ann", None), ("green", "Bob", None)]
    assert held.seats[0].holder is Holder.BOT and held.seats[0].token is None
    assert held.state is not None and held.seats[held.state.to_move].colour == first
    assert held.options["first"] == first and held.board == 11
    assert held.seat_log == [] and held.changed_hands == set(), "a new game's record begins"
    finish(table, room)
    agreed(table, 1, room)
    assert held.options["first"] == "random", "the deal draws the first player again after"
    assert holders(held)[1] == ("red", "Ann", None), "a plain new game keeps the seats"


def test_tripppins_first_seat_stays_when_the_seats_rotate() -> None:
    table = Table()
    room = str(table.create(game="tripppin", seat="blue", options={}).room["room"])
    table.lobby.handle(1, m.FillBots(room=room, level="1"))
    table.lobby.handle(1, m.Start(room=room))
    held = finish(table, room)
    table.lobby.handle(1, m.NewGame(room=room, rotate=True))
    assert held.options["first"] == "blue" and held.seats[0].holder is Holder.BOT
    assert held.seats[1].name == "Ann"


def test_rotating_mid_game_is_refused_and_changes_nothing() -> None:
    table = Table()
    room = table.full_room()
    before = table.snapshot(room)
    assert error_code(table.lobby.handle(2, m.NewGame(room=room, rotate=True)), 2) == (
        "not_finished"
    )
    assert table.snapshot(room) == before
    waiting = str(table.create(4, board=8).room["room"])
    assert error_code(table.lobby.handle(4, m.NewGame(room=waiting, rotate=True)), 4) == (
        "not_started"
    )


def test_a_rematch_waits_for_a_person_away_and_lapses_without_them() -> None:
    table = Table()
    made = table.create(game="othello", seat="black", options={})
    room = str(made.room["room"])
    table.join(2, room, seat="white")
    table.lobby.handle(1, m.Start(room=room))
    held = finish(table, room)
    version = held.version
    table.lobby.disconnect(2)  # Bob leaves after the game; his seat stays his
    outbox = table.lobby.handle(1, m.NewGame(room=room))
    assert isinstance(answer(outbox, 1), m.Ok)
    assert held.status is Status.FINISHED and held.version == version, "no game without Bob"
    assert held.proposal is not None and held.proposal.waiting == {"white"}
    table.clock.now = held.proposal.expires_at
    ended = [sent for _, sent in table.lobby.tick() if isinstance(sent, m.ProposalEnded)]
    assert [(sent.kind, sent.outcome) for sent in ended] == [("new_game", "expired")]
    assert held.status is Status.FINISHED and held.version == version and held.clock is None
