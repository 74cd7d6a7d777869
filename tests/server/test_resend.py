"""Every request that changes a room is safe to send again as it was (protocol.md 2.4, 6):
sent twice, it leaves the room as the first left it and is answered as the first was;
proposals and their answers are known again from the room's state, kept in its record, so
that a restart does not forget them. On clocks the test turns."""

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.server import ServerConfig
from parlour.server.answers import Outbox
from parlour.server.app import ParlourServer
from parlour.server.lobby import Lobby
from parlour.server.records import restore_room, room_record
from parlour.server.room import Holder, Proposal, Room, Seat, Status
from parlour.server.services import PROPOSAL_SECONDS
from parlour.server.store import MEMORY, Store

from .test_clocks import UNIX, Wall
from .test_lobby import Clock, answer, error_code, to

PEOPLE = ("Ann", "Bob", "Cy")


class Scene:
    """A lobby on clocks the test turns, Ann (1), Bob (2) and Cy (3) said hello, and one
    room of theirs."""

    def __init__(self, game: str = "tribolo", seats: tuple[str, ...] = ("blue",)) -> None:
        self.clock, self.wall = Clock(), Wall(UNIX)
        self.lobby = Lobby(clock=self.clock, archive=Store(MEMORY), wall=self.wall)
        self.keys = {name: new_key() for name in PEOPLE}
        for conn, name in enumerate(PEOPLE, start=1):
            self.lobby.handle(conn, m.Hello(version=1, name=name, key=self.keys[name]))
        made = answer(self.lobby.handle(1, m.CreateRoom(game=game, board=1, seat=seats[0])), 1)
        assert isinstance(made, m.Joined), made
        self.ref = str(made.room["room"])
        for conn, colour in enumerate(seats[1:], start=2):
            assert isinstance(self.ask(conn, m.Join(room=self.ref, seat=colour)), m.Joined)

    @property
    def held(self) -> Room:
        return self.lobby.rooms[self.ref]

    def seat(self, colour: str) -> Seat:
        found = self.held.seat_named(colour)
        assert found is not None
        return found

    def open(self) -> Proposal:
        """The proposal open."""
        assert self.held.proposal is not None
        return self.held.proposal

    def last(self) -> Proposal:
        """The last proposal that ended."""
        assert self.held.last_proposal is not None
        return self.held.last_proposal

    def status(self) -> Status:
        """The room's status, read again after each change."""
        return self.held.status

    def ask(self, conn: int, message: m.ClientMessage) -> Any:
        """The answer to `conn`'s request."""
        return answer(self.lobby.handle(conn, message), conn)

    def seen(self) -> tuple[Any, ...]:
        """The room as everyone is shown it, its history, and what it keeps of proposals."""
        held = self.held
        views = [held.view(conn) for conn in range(1, len(PEOPLE) + 1)]
        proposals = [None if p is None else dataclasses.asdict(p) for p in self.proposals()]
        return views, held.history.window(), proposals

    def proposals(self) -> tuple[Proposal | None, Proposal | None]:
        """The proposal open and the last one ended."""
        return self.held.proposal, self.held.last_proposal

    def again(self, conn: int, message: m.ClientMessage, first: Outbox) -> Outbox:
        """`message` sent again under a new id: answered as the first time, to `conn`
        alone, and the room as the first left it."""
        before = self.seen()
        sent = dataclasses.replace(message, id="again")
        outbox = self.lobby.handle(conn, sent)
        assert [target for target, _ in outbox] == [conn], outbox
        assert self.seen() == before
        assert same_answer(answer(outbox, conn), answer(first, conn))
        return outbox

    def twice(self, conn: int, message: m.ClientMessage) -> Outbox:
        """`message` sent, then sent again; what the first sending told."""
        first = self.lobby.handle(conn, message)
        self.again(conn, message, first)
        return first

    def started(self) -> None:
        assert isinstance(self.ask(1, m.Start(room=self.ref)), m.Ok)

    def moves(self, count: int) -> None:
        """The seats to move play their first legal moves."""
        for _ in range(count):
            held, state = self.held, self.held.state
            assert state is not None
            text = state.format_move(state.legal_moves()[0])
            mover = held.seats[state.to_move].conn
            assert mover is not None
            move = m.Move(room=self.ref, version=held.version, move=text)
            assert isinstance(self.ask(mover, move), m.Ok)


def same_answer(again: m.ServerMessage, first: m.ServerMessage) -> bool:
    """Whether an answer is the first one again: a `joined` shows the room as it is now,
    its history holding the join itself."""
    if isinstance(again, m.Joined) and isinstance(first, m.Joined):
        return dataclasses.replace(again, id=None, history=None) == dataclasses.replace(
            first, id=None, history=None
        )
    return dataclasses.replace(again, id=None) == dataclasses.replace(first, id=None)


def proposals(outbox: Outbox, conn: int) -> list[m.Proposal]:
    return [message for message in to(outbox, conn) if isinstance(message, m.Proposal)]


# Seats and the start.


def test_a_join_sent_again_is_joined_again_and_changes_nothing() -> None:
    room = Scene()
    joined = room.twice(2, m.Join(room=room.ref, seat="red"))
    assert isinstance(answer(joined, 2), m.Joined) and answer(joined, 2).seat == "red"
    room.twice(2, m.Join(room=room.ref))  # no seat named: the one held
    room.twice(1, m.Join(room=room.ref, seat="blue"))  # the host's own seat
    # One screen, two people: a second name takes a second seat, and is known again too.
    green = room.twice(2, m.Join(room=room.ref, seat="green", name="Dot"))
    assert answer(green, 2).token == answer(joined, 2).token
    assert room.seat("green").name == "Dot"
    assert error_code(room.lobby.handle(3, m.Join(room=room.ref, seat="red")), 3) == "seat_taken"


def test_a_join_by_the_same_player_from_a_new_connection_takes_the_seat_back() -> None:
    room = Scene()
    key = new_key()
    room.lobby.handle(4, m.Hello(version=1, name="Dee", key=key))
    first = room.ask(4, m.Join(room=room.ref, seat="red"))
    room.lobby.handle(5, m.Hello(version=1, name="Dee", key=key))
    again = room.ask(5, m.Join(room=room.ref, seat="red"))
    assert isinstance(again, m.Joined) and (again.seat, again.token) == ("red", first.token)
    assert room.seat("red").conn == 5


def test_seat_changes_and_fill_bots_sent_again_are_ok_and_change_nothing() -> None:
    room = Scene()
    room.twice(1, m.SetSeat(room=room.ref, seat="red", holder="bot", level="easy"))
    assert room.seat("red").holder is Holder.BOT
    room.twice(1, m.SetSeat(room=room.ref, seat="red", holder="open"))
    room.twice(2, m.SetSeat(room=room.ref, seat="red", holder="human"))
    assert room.seat("red").conn == 2
    room.twice(2, m.SetSeat(room=room.ref, seat="red", holder="bot"))  # Bob's own seat
    assert room.seat("red").holder is Holder.BOT
    room.twice(2, m.SetSeat(room=room.ref, seat="red", holder="human"))
    room.twice(1, m.FillBots(room=room.ref, level="easy"))
    assert room.seat("green").holder is Holder.BOT


def test_a_start_sent_again_is_ok_while_playing_and_once_finished() -> None:
    room = Scene("othello", ("black", "white"))
    first = room.twice(1, m.Start(room=room.ref))
    assert isinstance(answer(first, 1), m.Ok) and room.status() is Status.PLAYING
    started = [e for e in room.held.history.window() if e["kind"] == "started"]
    assert len(started) == 1
    room.moves(2)
    room.again(1, m.Start(room=room.ref), first)
    assert isinstance(room.ask(1, m.Resign(room=room.ref, version=room.held.version)), m.Ok)
    assert room.status() is Status.FINISHED
    room.again(1, m.Start(room=room.ref), first)
    assert error_code(room.lobby.handle(2, m.Start(room=room.ref)), 2) == "not_host"


# Proposals.


Proposing = m.Undo | m.NewGame | m.OfferDraw | m.HandOver


def three(kind: str) -> tuple[Scene, Proposing]:
    """A Tribolo game of Ann, Bob and Cy, each of whom has moved, and Ann's request of
    `kind` at the room's version (for a hand-over, Cy has gone)."""
    room = Scene("tribolo", ("blue", "red", "green"))
    room.started()
    room.moves(3)
    version, ref = room.held.version, room.ref
    if kind == "hand_over":
        room.lobby.disconnect(3)
    requests: dict[str, Proposing] = {
        "undo": m.Undo(room=ref, version=version),
        "new_game": m.NewGame(room=ref, board=5, version=version),
        "draw": m.OfferDraw(room=ref, version=version),
        "hand_over": m.HandOver(room=ref, seat="green", version=version),
    }
    return room, requests[kind]


KINDS = ("undo", "new_game", "draw", "hand_over")


@pytest.mark.parametrize("kind", KINDS)
def test_a_proposal_sent_again_while_open_is_ok_and_asks_nobody(kind: str) -> None:
    room, request = three(kind)
    first = room.twice(1, request)
    (asked,) = proposals(first, 2)
    assert asked.kind == kind and room.open().id == asked.proposal
    without = dataclasses.replace(request, version=None)
    room.again(1, without, first)
    if kind == "undo":  # as it was: another kind is still refused while one is open
        busy = room.lobby.handle(1, m.OfferDraw(room=room.ref, version=room.held.version))
        assert error_code(busy, 1) == "busy"


@pytest.mark.parametrize("kind", KINDS)
def test_a_proposal_carried_out_then_its_answer_and_itself_sent_again_are_ok(kind: str) -> None:
    room, request = three(kind)
    (asked,) = proposals(room.lobby.handle(1, request), 2)
    accept = m.Answer(room=room.ref, proposal=asked.proposal, accept=True)
    room.twice(2, accept)  # still open: Bob's yes is known
    if kind != "hand_over":
        assert room.held.proposal is not None
        done = room.lobby.handle(3, accept)
        assert isinstance(answer(done, 3), m.Ok)
    assert room.held.proposal is None
    assert room.last().outcome == "accepted"
    carried = room.seen()
    room.again(2, accept, room.lobby.handle(2, accept))
    if kind != "hand_over":
        room.again(3, accept, done)
    room.again(1, request, [(1, m.Ok())])
    assert room.seen() == carried
    # The other answer, or an answer from the seat that asked, is for no proposal now.
    decline = dataclasses.replace(accept, accept=False)
    assert error_code(room.lobby.handle(2, decline), 2) == "no_such_proposal"
    assert error_code(room.lobby.handle(1, accept), 1) == "no_such_proposal"


def test_what_each_proposal_did_it_did_once() -> None:
    """Sent twice and answered twice, each proposal changed the room once."""
    room, undo = three("undo")
    moves = list(room.held.moves)
    (asked,) = proposals(room.twice(1, undo), 2)
    for conn in (2, 3):
        room.twice(conn, m.Answer(room=room.ref, proposal=asked.proposal, accept=True))
    room.again(1, undo, [(1, m.Ok())])
    assert room.held.moves == moves[:-3], "Ann's move and the two after it, once"
    room.moves(3)
    version = room.held.version
    draw = m.OfferDraw(room=room.ref, version=version)
    (asked,) = proposals(room.twice(1, draw), 2)
    for conn in (2, 3):
        room.twice(conn, m.Answer(room=room.ref, proposal=asked.proposal, accept=True))
    room.again(1, draw, [(1, m.Ok())])
    assert room.status() is Status.FINISHED and room.held.ended == "agreed"
    over = [e for e in room.held.history.window() if e["kind"] == "over"]
    assert len(over) == 1


def test_a_new_request_after_seeing_the_result_asks_again() -> None:
    room, undo = three("undo")
    (asked,) = proposals(room.lobby.handle(1, undo), 2)
    for conn in (2, 3):
        room.ask(conn, m.Answer(room=room.ref, proposal=asked.proposal, accept=True))
    room.moves(1)  # Ann plays again, and wants that back too
    newer = m.Undo(room=room.ref, version=room.held.version)
    (again,) = proposals(room.lobby.handle(1, newer), 2)
    assert again.proposal != asked.proposal and room.open().id == again.proposal


def test_a_declined_proposal_is_known_again_where_its_ok_was_lost_and_asked_anew_where_not() -> (
    None
):
    room, draw = three("draw")
    (asked,) = proposals(room.lobby.handle(1, draw), 2)
    decline = m.Answer(room=room.ref, proposal=asked.proposal, accept=False)
    ended = room.twice(2, decline)
    assert [e.outcome for e in to(ended, 1) if isinstance(e, m.ProposalEnded)] == ["declined"]
    accept = dataclasses.replace(decline, accept=True)
    assert error_code(room.lobby.handle(2, accept), 2) == "no_such_proposal"
    assert error_code(room.lobby.handle(3, accept), 3) == "no_such_proposal", "never answered"
    # Ann's connection dropped before her `ok` came: from her new one, it is the offer
    # sent again, while its time lasts.
    room.lobby.disconnect(1)
    room.lobby.handle(4, m.Hello(version=1, name="Ann", key=room.keys["Ann"]))
    assert isinstance(room.ask(4, m.Join(room=room.ref, seat="blue")), m.Joined)
    room.again(4, draw, [(4, m.Ok())])
    room.clock.now += PROPOSAL_SECONDS
    (later,) = proposals(room.lobby.handle(4, draw), 2)
    assert later.proposal != asked.proposal
    # Her answer came, and the refusal: the same offer again is a new one (she may ask again).
    room.ask(2, m.Answer(room=room.ref, proposal=later.proposal, accept=False))
    (anew,) = proposals(room.lobby.handle(4, draw), 2)
    assert anew.proposal not in (asked.proposal, later.proposal)


def test_an_expired_proposal_or_one_asked_without_a_version_is_asked_again() -> None:
    room, draw = three("draw")
    (asked,) = proposals(room.lobby.handle(1, draw), 2)
    room.clock.now += PROPOSAL_SECONDS
    ended = [e for _, e in room.lobby.tick() if isinstance(e, m.ProposalEnded)]
    assert {e.outcome for e in ended} == {"expired"}
    (anew,) = proposals(room.lobby.handle(1, draw), 2)
    decline = m.Answer(room=room.ref, proposal=anew.proposal, accept=False)
    room.ask(2, decline)
    (third,) = proposals(room.lobby.handle(1, m.OfferDraw(room=room.ref)), 2)
    assert len({asked.proposal, anew.proposal, third.proposal}) == 3


def test_a_request_sent_again_while_another_seats_proposal_is_open_is_ok() -> None:
    room, undo = three("undo")
    (asked,) = proposals(room.lobby.handle(1, undo), 2)
    for conn in (2, 3):
        room.ask(conn, m.Answer(room=room.ref, proposal=asked.proposal, accept=True))
    bob = m.NewGame(room=room.ref, version=room.held.version)
    assert proposals(room.lobby.handle(2, bob), 1)
    room.again(1, undo, [(1, m.Ok())])


def test_a_rematch_rotated_is_known_again_from_the_seats_its_people_moved_to() -> None:
    room = Scene("othello", ("black", "white"))
    room.started()
    assert isinstance(room.ask(1, m.Resign(room=room.ref, version=0)), m.Ok)  # an abort
    rematch = m.NewGame(room=room.ref, rotate=True, version=room.held.version)
    (asked,) = proposals(room.lobby.handle(1, rematch), 2)
    accept = m.Answer(room=room.ref, proposal=asked.proposal, accept=True)
    first = room.lobby.handle(2, accept)
    assert room.seat("white").conn == 1, "Ann moved on to white"
    room.again(2, accept, first)
    room.again(1, rematch, [(1, m.Ok())])
    assert room.held.moves == [] and room.status() is Status.PLAYING


def test_alone_against_the_computer_an_undo_sent_again_takes_back_nothing_more() -> None:
    room = Scene("othello", ("black",))
    room.ask(1, m.FillBots(room=room.ref, level="easy"))
    room.started()
    held = room.held
    state = held.state
    assert state is not None
    text = state.format_move(state.legal_moves()[0])
    assert isinstance(room.ask(1, m.Move(room=room.ref, version=0, move=text)), m.Ok)
    (turn,) = room.lobby.bot_turns()
    state = held.state
    assert state is not None
    room.lobby.play_bot(turn, state.format_move(state.legal_moves()[0]))
    undo = m.Undo(room=room.ref, version=held.version)
    first = room.twice(1, undo)
    assert held.moves == [] and not proposals(first, 1)


def test_who_comes_into_the_room_is_shown_the_proposal_open_as_it_stands() -> None:
    room, draw = three("draw")
    (asked,) = proposals(room.lobby.handle(1, draw), 2)
    room.ask(2, m.Answer(room=room.ref, proposal=asked.proposal, accept=True))
    room.clock.now += 10
    room.lobby.handle(4, m.Hello(version=1, name="Dee"))
    (shown,) = proposals(room.lobby.handle(4, m.Spectate(room=room.ref)), 4)
    assert (shown.proposal, shown.by, shown.asked) == (asked.proposal, "blue", ["green"])
    assert shown.expires_in == PROPOSAL_SECONDS - 10
    room.lobby.disconnect(3)
    room.lobby.handle(5, m.Hello(version=1, name="Cy", key=room.keys["Cy"]))
    (again,) = proposals(room.lobby.handle(5, m.Join(room=room.ref, seat="green")), 5)
    assert again == shown
    room.ask(5, m.Answer(room=room.ref, proposal=asked.proposal, accept=False))
    assert proposals(room.lobby.handle(4, m.Spectate(room=room.ref)), 4) == []


# Records.


def test_an_open_proposal_and_the_last_one_are_kept_in_the_record_their_expiry_in_wall_time() -> (
    None
):
    room, draw = three("draw")
    (asked,) = proposals(room.lobby.handle(1, m.Undo(room=room.ref, version=0)), 2)
    room.ask(2, m.Answer(room=room.ref, proposal=asked.proposal, accept=False))
    room.clock.now += 4
    room.wall.now += 4
    (open_,) = proposals(room.lobby.handle(1, draw), 2)
    room.ask(2, m.Answer(room=room.ref, proposal=open_.proposal, accept=True))
    record = room_record(room.held)
    assert record["proposal"]["expires"] == UNIX + 4 + PROPOSAL_SECONDS
    # Restored 10 s later on a server whose clock reads 500: 20 s are left.
    back = restore_room(record, 500.0, UNIX + 14)
    assert back.proposal is not None and back.last_proposal is not None
    assert back.proposal.expires_at == pytest.approx(500.0 + PROPOSAL_SECONDS - 10)
    assert (back.proposal.id, back.proposal.waiting, back.proposal.answers) == (
        open_.proposal,
        {"green"},
        {"red": True},
    )
    assert dataclasses.replace(back.proposal, expires_at=0) == dataclasses.replace(
        room.open(), expires_at=0, asked_on=None
    )
    assert dataclasses.replace(back.last_proposal, expires_at=0) == dataclasses.replace(
        room.last(), expires_at=0, asked_on=None
    )


async def test_a_proposal_open_when_the_server_stops_is_open_when_it_starts_again(
    tmp_path: Path,
) -> None:
    wall = Wall(UNIX)
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path, bot_workers=0)
    server = ParlourServer(config)
    server.lobby.services.wall = wall
    await server.start()
    try:
        lobby = server.lobby
        for conn, name in ((1, "Ann"), (2, "Bob")):
            lobby.handle(conn, m.Hello(version=1, name=name))
        made = answer(lobby.handle(1, m.CreateRoom(game="othello", board=1, seat="black")), 1)
        ref = str(made.room["room"])
        bob = answer(lobby.handle(2, m.Join(room=ref, seat="white")), 2)
        assert isinstance(answer(lobby.handle(1, m.Start(room=ref)), 1), m.Ok)
        for conn, version in ((1, 0), (2, 1)):
            state = lobby.rooms[ref].state
            assert state is not None
            text = state.format_move(state.legal_moves()[0])
            move = m.Move(room=ref, version=version, move=text)
            assert isinstance(answer(lobby.handle(conn, move), conn), m.Ok)
        draw = m.OfferDraw(room=ref, version=2)
        (asked,) = proposals(lobby.handle(1, draw), 2)
        wall.now += 5.0
        server.keeper.send([])  # stored, as after any request
    finally:
        server.close()
        await server.wait_closed()
    wall.now += 10.0  # down 10 s of the 30 the proposal has
    again = ParlourServer(config)
    again.lobby.services.wall = wall
    await again.start()
    try:
        lobby = again.lobby
        held = lobby.rooms[ref]
        assert held.proposal is not None and held.proposal.id == asked.proposal
        left = held.proposal.expires_at - lobby.clock()
        assert PROPOSAL_SECONDS - 16 < left <= PROPOSAL_SECONDS - 15
        for conn, name in ((11, "Ann"), (12, "Bob")):
            lobby.handle(conn, m.Hello(version=1, name=name))
        ann = answer(lobby.handle(11, m.Join(room=ref, token=made.token)), 11)
        assert isinstance(ann, m.Joined) and ann.seat == "black"
        told = lobby.handle(12, m.Join(room=ref, token=bob.token))
        back = answer(told, 12)
        assert isinstance(back, m.Joined) and back.seat == "white"
        (shown,) = proposals(told, 12)
        assert (shown.proposal, shown.asked, shown.expires_in) == (asked.proposal, ["white"], 15)
        assert isinstance(answer(lobby.handle(11, draw), 11), m.Ok), "Ann's offer, sent again"
        assert held.proposal.id == asked.proposal
        accept = m.Answer(room=ref, proposal=asked.proposal, accept=True)
        told = lobby.handle(12, accept)
        assert isinstance(answer(told, 12), m.Ok)
        assert (held.status, held.ended) == (Status.FINISHED, "agreed")
        assert isinstance(answer(lobby.handle(12, accept), 12), m.Ok)
    finally:
        again.close()
        await again.wait_closed()
