"""Ending a game on purpose (protocol.md 2.7): a resignation of two seats and of three, an
abort before each person has moved, every end shown as over, and each request refused
where it must be, or answered `ok` again when it is sent again; on clocks the test turns."""

from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.protocol.timecontrol import DAY_MS
from parlour.server.clocks import GRACE_MS
from parlour.server.lobby import Lobby
from parlour.server.room import Holder

from .test_clocks import UNIX, Wall, clocked_lobby, move, started
from .test_lobby import answer, error_code, to

LIVE = {"kind": "live", "base_s": 300}


def rated_lobby(count: int) -> Lobby:
    """Players with keys, so that their games are rated."""
    names = [("Ann", new_key()), ("Bob", new_key()), ("Cy", new_key())][:count]
    lobby, _ = clocked_lobby(*names)
    return lobby


def view_of(lobby: Lobby, room: str, conn: int = 1) -> dict[str, Any]:
    shown = answer(lobby.handle(conn, m.GetRoom(room=room)), conn)
    assert isinstance(shown, m.RoomView)
    return shown.room


def both_moved(lobby: Lobby, room: str, plies: int = 2) -> None:
    for _ in range(plies):
        move(lobby, room)


def test_a_resignation_of_two_seats_ends_the_game_for_the_other_rated() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"], time_control=LIVE)
    both_moved(lobby, room)
    version = lobby.rooms[room].version
    told = lobby.handle(1, m.Resign(room=room, version=version))
    assert isinstance(answer(told, 1), m.Ok)
    shown = [message for message in to(told, 2) if isinstance(message, m.RoomView)]
    assert shown, "the other person is shown the end"
    view = shown[-1].room
    assert (view["status"], view["ended"], view["resigned"], view["winners"]) == (
        "finished",
        "resigned",
        ["black"],
        ["white"],
    )
    assert view["flagged"] == [] and view["clock"]["running"] is None
    state = view["state"]
    assert (state["over"], state["winners"], state["to_move"], state["legal_moves"]) == (
        True,
        ["white"],
        None,
        [],
    )
    result = lobby.take_unsaved().results[0]
    assert result.rated and [seat.outcome for seat in result.seats] == ["loss", "win"]
    assert not any(seat.own_play for seat in result.seats), "no best score from a resignation"
    initials = lobby.handle(2, m.SetInitials(room=room, seat="white", initials="BOB"))
    assert error_code(initials, 2) == "not_best"
    assert "black resigned" in result.record
    changes = lobby.rooms[room].rating_changes
    assert changes is not None and changes["white"]["after"] > changes["white"]["before"]
    kinds = [entry["kind"] for entry in lobby.rooms[room].history.window()]
    assert kinds[-2:] == ["resigned", "over"]


def test_a_resignation_sent_again_is_answered_ok_and_changes_nothing() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    both_moved(lobby, room)
    resign = m.Resign(room=room, version=lobby.rooms[room].version, seat="white")
    assert isinstance(answer(lobby.handle(2, resign), 2), m.Ok)
    before = view_of(lobby, room)
    lobby.take_unsaved()
    again = lobby.handle(2, resign)
    assert again == [(2, m.Ok())], "nobody is told anything again"
    assert view_of(lobby, room) == before
    assert lobby.take_unsaved().results == []


def test_a_resignation_of_three_seats_puts_the_seat_last_and_the_computer_plays_it_on() -> None:
    lobby = rated_lobby(3)
    room = started(lobby, "tribolo", ["blue", "red", "green"], time_control=LIVE)
    both_moved(lobby, room, plies=3)
    held = lobby.rooms[room]
    told = lobby.handle(2, m.Resign(room=room, version=held.version))
    assert isinstance(answer(told, 2), m.Ok)
    red = held.seat_named("red")
    assert red is not None and red.holder is Holder.BOT and red.level is not None
    view = view_of(lobby, room, 3)
    assert (view["status"], view["resigned"], view["rated"]) == ("playing", ["red"], True)
    assert view["clock"]["running"] != "red"
    changed = [message for message in to(told, 3) if isinstance(message, m.SeatSet)]
    assert [message.seat for message in changed] == ["red"]
    # Sent again, the resignation changes nothing.
    assert lobby.handle(2, m.Resign(room=room, version=held.version)) == [(2, m.Ok())]
    # Blue resigns too: green is left, and wins; red, out first, is last of all.
    told = lobby.handle(1, m.Resign(room=room, version=held.version))
    assert isinstance(answer(told, 1), m.Ok)
    view = view_of(lobby, room)
    assert (view["status"], view["ended"], view["winners"]) == ("finished", "resigned", ["green"])
    assert view["resigned"] == ["red", "blue"]
    result = lobby.take_unsaved().results[0]
    assert result.rated and result.ranks == [2, 3, 1]


def test_a_resigned_seat_may_not_move_and_a_watcher_may_not_resign() -> None:
    lobby = rated_lobby(3)
    room = started(lobby, "tribolo", ["blue", "red", "green"])
    both_moved(lobby, room, plies=3)
    held = lobby.rooms[room]
    assert held.state is not None and held.seats[held.state.to_move].colour == "blue"
    assert isinstance(answer(lobby.handle(1, m.Resign(room=room, version=held.version)), 1), m.Ok)
    assert held.state is not None and held.seats[held.state.to_move].colour == "blue"
    text = held.state.format_move(held.state.legal_moves()[0])
    late = m.Move(room=room, version=held.version, move=text)
    assert error_code(lobby.handle(1, late), 1) == "resigned"
    watcher = 9
    lobby.handle(watcher, m.Hello(version=1, name="Dee"))
    lobby.handle(watcher, m.Spectate(room=room))
    version = held.version
    assert error_code(lobby.handle(watcher, m.Resign(room=room, version=version)), 9) == (
        "not_seated"
    )
    assert error_code(lobby.handle(3, m.Resign(room=room, version=version, seat="red")), 3) == (
        "not_seated"
    )
    assert held.resigned == {"blue"}


def test_a_resignation_before_each_person_moved_is_an_abort_rated_for_nobody() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"], time_control=LIVE)
    move(lobby, room)  # black moved; white has not
    held = lobby.rooms[room]
    told = lobby.handle(1, m.Resign(room=room, version=held.version))
    assert isinstance(answer(told, 1), m.Ok)
    view = view_of(lobby, room, 2)
    assert (view["status"], view["ended"], view["winners"], view["resigned"]) == (
        "finished",
        "aborted",
        [],
        [],
    )
    assert view["state"]["over"] and view["state"]["winners"] == []
    assert view["rating_changes"] is None
    assert lobby.take_unsaved().results == [], "no score card, no rating, nobody's games"
    assert held.history.window()[-1]["kind"] == "aborted"
    again = m.Resign(room=room, version=held.version)
    assert lobby.handle(1, again) == [(1, m.Ok())], "sent again, it is answered ok"


def test_an_abort_is_refused_once_each_person_has_moved_and_sent_again_is_ok() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    held = lobby.rooms[room]
    abort = m.Abort(room=room, version=held.version)
    assert isinstance(answer(lobby.handle(2, abort), 2), m.Ok)
    assert held.ended == "aborted"
    assert lobby.handle(2, abort) == [(2, m.Ok())]
    assert lobby.handle(1, abort) == [(1, m.Ok())]
    # A new game, Bob agreeing: a late abort of the old one is another game's version.
    told = lobby.handle(1, m.NewGame(room=room))
    (asked,) = [message for message in to(told, 2) if isinstance(message, m.Proposal)]
    lobby.handle(2, m.Answer(room=room, proposal=asked.proposal, accept=True))
    assert held.status.value == "playing"
    assert error_code(lobby.handle(1, abort), 1) == "stale_version"
    both_moved(lobby, room)
    now = m.Abort(room=room, version=held.version)
    assert error_code(lobby.handle(1, now), 1) == "not_abortable"
    assert held.status.value == "playing"


def late_lobby(count: int) -> tuple[Lobby, Wall]:
    names = [("Ann", new_key()), ("Bob", new_key()), ("Cy", new_key())][:count]
    return clocked_lobby(*names)


def test_a_person_late_with_a_first_move_aborts_a_live_game_for_nobody() -> None:
    lobby, wall = late_lobby(2)
    room = started(lobby, "othello", ["black", "white"], time_control=LIVE)
    held = lobby.rooms[room]
    assert view_of(lobby, room)["abortable"] is True
    move(lobby, room)  # black moves at once: white's 30 s begin
    assert lobby.timekeeper.next_deadline() == UNIX + 30
    wall.now = UNIX + 29.999
    assert lobby.timekeeper.flags_due() == [] and held.status.value == "playing"
    wall.now = UNIX + 30
    told = lobby.timekeeper.flags_due()
    view = [message for message in to(told, 1) if isinstance(message, m.RoomView)][-1].room
    assert (view["status"], view["ended"], view["winners"], view["abortable"]) == (
        "finished",
        "aborted",
        [],
        False,
    )
    assert view["state"]["over"] and view["rating_changes"] is None
    assert (view["rated"], view["unrated"]) == (
        False,
        "the game was aborted before everyone had moved",
    )
    assert lobby.take_unsaved().results == [], "rated for nobody"
    last = held.history.window()[-1]
    assert last == last | {"kind": "aborted", "seat": "white", "name": "Bob", "late": True}


def test_once_each_person_has_moved_the_clock_alone_decides() -> None:
    lobby, wall = late_lobby(2)
    room = started(lobby, "othello", ["black", "white"], time_control=LIVE)
    both_moved(lobby, room)
    assert view_of(lobby, room)["abortable"] is False
    assert lobby.timekeeper.next_deadline() == UNIX + 300 + GRACE_MS / 1000
    wall.now = UNIX + 120  # far past 30 s: black thinks on
    assert lobby.timekeeper.flags_due() == [] and lobby.rooms[room].status.value == "playing"


def test_a_game_of_days_waits_a_day_for_a_first_move_and_a_short_clock_its_own_time() -> None:
    lobby, wall = late_lobby(2)
    days = started(lobby, "othello", ["black", "white"], time_control={"kind": "days", "days": 3})
    assert lobby.timekeeper.next_deadline() == UNIX + DAY_MS / 1000
    lobby.handle(1, m.Leave(room=days))
    short = started(
        lobby, "othello", ["black", "white"], time_control={"kind": "live", "base_s": 15}
    )
    move(lobby, short)
    assert lobby.timekeeper.next_deadline() == UNIX + 16
    wall.now = UNIX + 16  # white's 15 s and the grace: out of time before its first move
    lobby.timekeeper.flags_due()
    held = lobby.rooms[short]
    assert held.ended == "aborted" and held.out == {}, "no flag, no rating: an abort"
    assert lobby.take_unsaved().results == []


def test_only_people_are_waited_for_a_first_move() -> None:
    lobby, wall = late_lobby(1)
    joined = answer(
        lobby.handle(1, m.CreateRoom(game="tribolo", board=1, seat="red", time_control=LIVE)), 1
    )
    room = str(joined.room["room"])
    for request in (m.FillBots(room=room), m.Start(room=room)):
        assert isinstance(answer(lobby.handle(1, request), 1), m.Ok)
    held = lobby.rooms[room]
    assert held.state is not None and held.seats[held.state.to_move].colour == "blue"
    assert held.yet_to_move() == [1], "red's person, not the computers"
    assert lobby.timekeeper.next_deadline() == UNIX + 300 + GRACE_MS / 1000
    (turn,) = lobby.bot_turns()
    lobby.play_bot(turn, held.state.format_move(held.state.legal_moves()[0]))
    assert lobby.timekeeper.next_deadline() == UNIX + 30, "red's person has 30 s"
    move(lobby, room)
    assert view_of(lobby, room)["abortable"] is False
    wall.now = UNIX + 200
    assert lobby.timekeeper.flags_due() == [] and held.status.value == "playing"


@pytest.mark.parametrize("request_kind", ["resign", "abort"])
def test_ending_a_game_not_running_is_refused(request_kind: str) -> None:
    lobby = rated_lobby(2)
    made = answer(lobby.handle(1, m.CreateRoom(game="othello", seat="black")), 1)
    room = str(made.room["room"])
    kind = m.Resign if request_kind == "resign" else m.Abort
    asked = kind(room=room, version=0)
    assert error_code(lobby.handle(1, asked), 1) == "not_started"
    assert error_code(lobby.handle(2, asked), 2) in ("not_seated", "no_such_room")


def test_a_draw_offered_and_accepted_ties_a_game_of_two_rated() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"], time_control=LIVE)
    both_moved(lobby, room)
    told = lobby.handle(2, m.OfferDraw(room=room))
    assert isinstance(answer(told, 2), m.Ok)
    (asked,) = [message for message in to(told, 1) if isinstance(message, m.Proposal)]
    assert (asked.kind, asked.by, asked.asked) == ("draw", "white", ["black"])
    assert lobby.rooms[room].status.value == "playing", "nothing ends before the answer"
    told = lobby.handle(1, m.Answer(room=room, proposal=asked.proposal, accept=True))
    assert isinstance(answer(told, 1), m.Ok)
    view = view_of(lobby, room, 2)
    assert (view["status"], view["ended"], view["winners"]) == (
        "finished",
        "agreed",
        ["black", "white"],
    )
    assert view["state"]["over"] and view["state"]["winners"] == ["black", "white"]
    result = lobby.take_unsaved().results[0]
    assert result.rated and result.ranks == [1, 1]
    assert [seat.outcome for seat in result.seats] == ["tie", "tie"]


def test_no_draw_is_offered_before_each_person_has_moved() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    move(lobby, room)
    assert error_code(lobby.handle(1, m.OfferDraw(room=room)), 1) == "too_early"
    assert lobby.rooms[room].proposal is None


def test_a_draw_declined_or_against_the_computer_changes_nothing() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    both_moved(lobby, room)
    told = lobby.handle(1, m.OfferDraw(room=room))
    (asked,) = [message for message in to(told, 2) if isinstance(message, m.Proposal)]
    lobby.handle(2, m.Answer(room=room, proposal=asked.proposal, accept=False))
    assert lobby.rooms[room].status.value == "playing" and lobby.rooms[room].ended is None
    alone = rated_lobby(1)
    made = answer(alone.handle(1, m.CreateRoom(game="othello", seat="black", board=1)), 1)
    ref = str(made.room["room"])
    alone.handle(1, m.FillBots(room=ref, level="easy"))
    assert isinstance(answer(alone.handle(1, m.Start(room=ref)), 1), m.Ok)
    assert error_code(alone.handle(1, m.OfferDraw(room=ref)), 1) == "nobody_to_ask"


def test_a_draw_offer_ends_when_a_seat_resigns_and_a_late_accept_changes_nothing() -> None:
    lobby = rated_lobby(3)
    room = started(lobby, "tribolo", ["blue", "red", "green"])
    both_moved(lobby, room, plies=3)
    held = lobby.rooms[room]
    told = lobby.handle(1, m.OfferDraw(room=room))
    (asked,) = [message for message in to(told, 2) if isinstance(message, m.Proposal)]
    told = lobby.handle(2, m.Resign(room=room, version=held.version))
    ended = [message for message in to(told, 1) if isinstance(message, m.ProposalEnded)]
    assert [(message.kind, message.outcome) for message in ended] == [("draw", "expired")]
    assert held.proposal is None and held.status.value == "playing"
    told = lobby.handle(3, m.Resign(room=room, version=held.version))
    assert isinstance(answer(told, 3), m.Ok)
    assert held.winners == ["blue"] and held.ended == "resigned"
    lobby.take_unsaved()
    late = m.Answer(room=room, proposal=asked.proposal, accept=True)
    assert error_code(lobby.handle(3, late), 3) == "no_such_proposal"
    assert held.winners == ["blue"] and held.ended == "resigned"
    assert lobby.take_unsaved().results == []


def test_a_new_game_asked_for_during_a_game_stands_when_the_game_is_aborted() -> None:
    lobby = rated_lobby(2)
    room = started(lobby, "othello", ["black", "white"])
    held = lobby.rooms[room]
    told = lobby.handle(1, m.NewGame(room=room))
    (asked,) = [message for message in to(told, 2) if isinstance(message, m.Proposal)]
    told = lobby.handle(2, m.Abort(room=room, version=held.version))
    assert not [message for message in to(told, 1) if isinstance(message, m.ProposalEnded)]
    assert held.ended == "aborted" and held.proposal is not None
    lobby.handle(2, m.Answer(room=room, proposal=asked.proposal, accept=True))
    assert held.status.value == "playing" and held.moves == []
