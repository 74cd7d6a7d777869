"""Trying to win a rating without playing for it, against a real server whose clocks the
test turns (protocol.md 2.7, 2.10): a rematch with a person who left, an abort after one
move, a resignation before each has moved, a person late with a first move, a short drop
covered by a stand-in, a claim against a person gone. Every rating ends as the rules say:
moved only by games both people played, and by each of those once."""

from collections.abc import AsyncIterator
from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.server import ParlourServer, ServerConfig, running_server

from .test_clocks import UNIX, Wall
from .wsclient import Client

ANN, BOB = new_key(), new_key()
LIVE = {"kind": "live", "base_s": 60}
STANDIN_AFTER = 30


@pytest.fixture
async def server() -> AsyncIterator[tuple[ParlourServer, Wall]]:
    """A server whose lobby's clocks (monotonic and wall) are one the test turns."""
    config = ServerConfig(host="127.0.0.1", port=0, tick_interval=0.02, bot_workers=1)
    async with running_server(config) as running:
        turned = Wall(UNIX)
        lobby = running.lobby
        lobby.clock = lobby.services.clock = lobby.services.wall = turned
        yield running, turned


async def ratings(client: Client) -> dict[str, tuple[int, int]]:
    """Each player's Othello rating (as shown: conservative, so both may rise after a first
    game) and games counted, by name and speed, as the leaderboard says."""
    speeds: dict[str, tuple[int, int]] = {}
    for speed in ("none", "live"):
        board = await client.request(m.Leaderboard(game="othello", speed=speed))
        assert isinstance(board, m.LeaderboardReply), board
        for line in board.players:
            speeds[f"{line['name']}/{speed}"] = (line["rating"], line["games"])
    return speeds


async def room_of(ann: Client, bob: Client, **fields: Any) -> tuple[str, int, str]:
    """A started rated Othello room, Ann black and Bob white: its id, version, and Bob's
    seat token."""
    made = await ann.request(m.CreateRoom(game="othello", seat="black", board=1, **fields))
    assert isinstance(made, m.Joined), made
    room = str(made.room["room"])
    joined = await bob.request(m.Join(room=room, seat="white"))
    assert isinstance(joined, m.Joined)
    assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
    view = await ann.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView) and view.room["rated"], view
    return room, int(view.room["version"]), str(joined.token)


async def play(client: Client, room: str, plies: int = 1) -> int:
    """`client` plays the first legal move of the seat to move, `plies` times in a row (its
    own turns and, with one person a side, the other's too is played by the caller)."""
    version = 0
    for _ in range(plies):
        view = await client.request(m.GetRoom(room=room))
        assert isinstance(view, m.RoomView)
        state, version = view.room["state"], int(view.room["version"])
        moved = await client.request(
            m.Move(room=room, version=version, move=state["legal_moves"][0])
        )
        assert isinstance(moved, m.Ok), moved
        version += 1
    return version


async def gone(ann: Client, bob: Client) -> None:
    """Bob's connection closes, and Ann is shown his seat's person away."""
    await bob.close()

    def away(message: m.ServerMessage) -> bool:
        if not isinstance(message, m.RoomView):
            return False
        white = message.room["seats"][1]["holder"]
        return white.get("connected") is False

    await ann.expect(away)


async def play_out(ann: Client, bob: Client, room: str) -> None:
    """Both play their first legal moves till the game ends."""
    while True:
        view = await ann.request(m.GetRoom(room=room))
        assert isinstance(view, m.RoomView)
        state = view.room["state"]
        if state["over"]:
            return
        mover = ann if state["to_move"] == "black" else bob
        move = m.Move(room=room, version=view.room["version"], move=state["legal_moves"][0])
        assert isinstance(await mover.request(move), m.Ok)


async def test_no_route_to_a_rating_but_a_game_played(
    server: tuple[ParlourServer, Wall],
) -> None:
    running, clock = server
    ann = await Client.open(running.port, "Ann", key=ANN)
    bob = await Client.open(running.port, "Bob", key=BOB)
    assert await ratings(ann) == {}

    # A resignation before Bob has moved is an abort: nothing was played.
    room, version, _ = await room_of(ann, bob, time_control=LIVE)
    await play(ann, room)
    assert isinstance(await bob.request(m.Resign(room=room, version=version + 1)), m.Ok)
    # An abort after one move likewise.
    room, version, _ = await room_of(ann, bob)
    await play(ann, room)
    assert isinstance(await ann.request(m.Abort(room=room, version=version + 1)), m.Ok)
    # Bob never makes his first move in a live game: aborted for him, 30 s on.
    room, _, _ = await room_of(ann, bob, time_control=LIVE)
    await play(ann, room)
    clock.now += 30
    ended = await bob.expect(
        lambda msg: isinstance(msg, m.RoomView) and msg.room.get("ended") == "aborted"
    )
    assert isinstance(ended, m.RoomView) and not ended.room["rated"]
    assert await ratings(ann) == {}, "no rating from a game not played"

    # A game both played, Bob resigning after a move each: it counts, once.
    room, version, _ = await room_of(ann, bob, time_control=LIVE)
    version = await play(ann, room)
    version = await play(bob, room)
    assert isinstance(await bob.request(m.Resign(room=room, version=version)), m.Ok)
    assert isinstance(await bob.request(m.Resign(room=room, version=version)), m.Ok), "again"
    rated = await ann.expect(
        lambda msg: isinstance(msg, m.RoomView) and bool(msg.room.get("rating_changes"))
    )
    assert isinstance(rated, m.RoomView)
    after = await ratings(ann)
    assert after["Ann/live"][1] == after["Bob/live"][1] == 1
    assert after["Ann/live"][0] > after["Bob/live"][0], "the winner above the loser"

    # Bob leaves the finished game; Ann's rematch waits for him and lapses: no new game,
    # no clock running for the person away.
    asked = await ann.request(m.NewGame(room=room, rotate=True))
    assert isinstance(asked, m.Ok)
    await bob.close()
    clock.now += 120
    lapsed = await ann.expect(lambda msg: isinstance(msg, m.ProposalEnded))
    assert isinstance(lapsed, m.ProposalEnded) and lapsed.outcome == "expired"
    view = await ann.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView) and view.room["status"] == "finished"
    assert await ratings(ann) == after, "nothing more was rated"
    await ann.close()


async def test_a_short_drop_stays_rated_and_a_claim_counts_against_the_one_gone(
    server: tuple[ParlourServer, Wall],
) -> None:
    running, clock = server
    ann = await Client.open(running.port, "Ann", key=ANN)
    bob = await Client.open(running.port, "Bob", key=BOB)
    room, _, token = await room_of(ann, bob, standin_after=STANDIN_AFTER)
    await play(ann, room)
    await play(bob, room)
    # Bob drops; the computer stands in for him; he comes back and the game plays out.
    await gone(ann, bob)
    clock.now += STANDIN_AFTER
    await ann.expect(lambda msg: isinstance(msg, m.SeatSet) and msg.holder["kind"] == "standin")
    bob = await Client.open(running.port, "Bob", key=BOB)
    assert isinstance(await bob.request(m.Join(room=room, token=token)), m.Joined)
    view = await bob.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView) and view.room["rated"], "a short drop unrates nothing"
    await play_out(ann, bob, room)
    after = await ratings(ann)
    assert after["Ann/none"][1] == after["Bob/none"][1] == 1

    # Another game: Bob goes for good; once the computer stands in, Ann claims it.
    room, version, _ = await room_of(ann, bob, standin_after=STANDIN_AFTER)
    await play(ann, room)
    version = await play(bob, room)
    early = await ann.request(m.Claim(room=room, version=version))
    assert isinstance(early, m.Error) and early.code == "not_claimable", "Bob is here"
    await gone(ann, bob)
    clock.now += STANDIN_AFTER
    await ann.expect(lambda msg: isinstance(msg, m.SeatSet) and msg.holder["kind"] == "standin")
    view = await ann.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView)
    claimed = await ann.request(m.Claim(room=room, version=int(view.room["version"])))
    assert isinstance(claimed, m.Ok), claimed
    ended = await ann.request(m.GetRoom(room=room))
    assert isinstance(ended, m.RoomView)
    assert (ended.room["ended"], ended.room["winners"], ended.room["absent"]) == (
        "claimed",
        ["black"],
        ["white"],
    )
    await ann.expect(
        lambda msg: isinstance(msg, m.RoomView) and bool(msg.room.get("rating_changes"))
    )
    final = await ratings(ann)
    assert final["Ann/none"][1] == final["Bob/none"][1] == 2
    gained = final["Ann/none"][0] - after["Ann/none"][0]
    assert gained > final["Bob/none"][0] - after["Bob/none"][0], "the one who left lost"
    await ann.close()
