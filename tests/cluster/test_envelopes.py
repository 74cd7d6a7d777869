"""What nodes say to each other, as bytes and back, and what a node notes of its
connections' rooms: pure code, no Redis."""

import msgpack
import pytest

from parlour.protocol import messages as m
from parlour.server.answers import Outbox
from parlour.server.cluster import envelopes as env
from parlour.server.cluster.members import Held, Memberships
from parlour.server.cluster.outbound import unavailable, without
from parlour.server.notices import TurnNotice

EVERY_KIND = [
    env.Request(edge=2, seq=7, conn=(2 << 32) | 5, name="Ann", wire={"type": "get_room"}),
    env.Request(2, 8, (2 << 32) | 5, "Ann", {"type": "move"}, "p-ann", "t" * 22, member=True),
    env.Request(2, 9, (2 << 32) | 5, "Ann", {"type": "move"}, "p-ann", None, lag_ms=240),
    env.Attach(edge=3, conn=(3 << 32) | 1, name="Bob", room="r1", token="t" * 22),
    env.Attach(edge=3, conn=(3 << 32) | 2, name="Cy", room="r1", token=None),
    env.Gone(conns=(1, 2, 3)),
    env.Deliver(messages=((9, {"type": "ok", "id": 1}), (10, {"type": "room"})), done=7),
    env.Deliver(messages=(), done=None),
    env.Moved(seq=11),
    env.Owner(room="r1", node=4, fence=12),
    env.Turn(TurnNotice("p-ann", "r1", "CODE-r1", "othello", ("black",), frozenset({1, 9}))),
    env.Turn(TurnNotice("p-bob", "r2", "r2", "tribolo", ("red", "blue"), frozenset(), 61_000)),
    env.Vacation("p-ann", 1_800_000_000_000, 1_800_259_200_000, 3),
]


@pytest.mark.parametrize("envelope", EVERY_KIND, ids=lambda e: type(e).__name__)
def test_every_envelope_comes_back_as_it_was_sent(envelope: env.Envelope) -> None:
    assert env.unpack(env.pack(envelope)) == envelope


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1",
        msgpack.packb(["z", 1]),
        msgpack.packb(["q", 1, 2]),
        msgpack.packb({"q": 1}),
        msgpack.packb(["d", [[1]], None]),
    ],
)
def test_bytes_that_are_no_envelope_are_refused_with_a_typed_error(data: bytes) -> None:
    with pytest.raises(env.EnvelopeError):
        env.unpack(data)


def test_envelopes_of_the_version_before_read_with_what_they_lacked_left_out() -> None:
    request = msgpack.packb(["q", 2, 7, 5, "Ann", {"type": "get_room"}, ""])
    assert env.unpack(request) == env.Request(2, 7, 5, "Ann", {"type": "get_room"})
    held = msgpack.packb(["q", 2, 7, 5, "Ann", {"type": "move"}, "p-ann", "t" * 22, True])
    was = env.Request(2, 7, 5, "Ann", {"type": "move"}, "p-ann", "t" * 22, True, lag_ms=0)
    assert env.unpack(held) == was
    assert env.unpack(msgpack.packb(["w", "r1", 4])) == env.Owner("r1", 4)


def test_memberships_follow_joins_seat_changes_and_departures() -> None:
    members = Memberships()
    joined = {"type": "joined", "room": {"room": "r1"}, "token": "seat-token"}
    members.note(1, "joined", joined, at=2)
    members.note(1, "watching", {"type": "watching", "room": {"room": "r2"}}, at=3)
    members.note(1, "watching", {"type": "watching", "room": {"room": "r1"}}, at=2)
    assert members.held(1, "r1") == Held("seat-token", 2), "watching keeps the seat"
    assert members.held(1, "r2") == Held(None, 3)
    members.note(1, "seat_changed", {"type": "seat_changed", "room": "r1"}, at=2)
    assert members.held(1, "r1") == Held(None, 2), "the seat went to another connection"
    members.asked_node(1, 2)
    members.asked_node(1, 3)
    assert [conn for conn, _ in members.in_room("r2")] == [1]
    members.left(1, "r2")
    assert list(members.in_room("r2")) == []
    assert members.forget(1) == {2, 3}
    assert members.held(1, "r1") is None


def test_a_change_not_kept_tells_nothing_of_its_room_and_answers_unavailable() -> None:
    update = m.Update(room="r1", version=3, seat="blue", move="a1", passed=[], state={})
    other = m.Update(room="r2", version=9, seat="red", move="b2", passed=[], state={})
    view = m.RoomView(room={"room": "r1"})
    outbox: Outbox = [(1, m.Ok(id=5)), (1, update), (2, update), (2, view), (3, other)]
    kept = without(outbox, {"r1"}, "gone")
    assert kept == [(1, unavailable(5, "gone")), (3, other)]
    assert without(outbox, set(), "gone") == outbox
