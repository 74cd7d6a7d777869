"""Known players across the nodes of a cluster: a name held on one node is held on every
node, a rated game's ratings and record are the same wherever they are asked for, and a
player finds their room from any node by their key."""

import asyncio
import dataclasses

from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id

from ..server.wsclient import Client
from .conftest import StartNode, start_nodes
from .test_sharing import play_to_the_end, room_of

ANN_KEY, BOB_KEY = new_key(), new_key()


async def test_players_ratings_and_records_are_the_clusters(start: StartNode) -> None:
    first, second = await start_nodes(start, 2)
    ann = await Client.open(first.port, "Ann", key=ANN_KEY)
    bob = await Client.open(second.port, "Bob", key=BOB_KEY)
    made = await ann.request(m.CreateRoom(game="othello", board=1, seat="black", public=False))
    assert isinstance(made, m.Joined) and made.code is not None
    joined = await bob.request(m.Join(room=made.code, seat="white"))
    assert isinstance(joined, m.Joined), joined
    assert isinstance(await ann.request(m.Start(room=made.code)), m.Ok)

    # The name Ann is hers on the other node too, for a guest and for another key.
    for key in (None, new_key()):
        thief = await Client.open(second.port, "Ann", greet=False)
        taken = await thief.request(m.Hello(version=1, name="Ann", key=key))
        assert isinstance(taken, m.Error) and taken.code == "name_taken", taken
        await thief.close()

    # Nor may a second person at a screen on the other node take it.
    shared = await Client.open(second.port, "Cy")
    room = await shared.request(m.CreateRoom(game="tribolo", seat="blue"))
    assert isinstance(room, m.Joined)
    second_person = m.Join(room=room.room["room"], seat="red", name="ANN")
    refused = await shared.request(second_person)
    assert isinstance(refused, m.Error) and refused.code == "name_taken", refused
    bea = await shared.request(dataclasses.replace(second_person, name="Bea"))
    assert isinstance(bea, m.Joined) and bea.seat == "red", bea
    await shared.close()

    # Ann, back through the other node with her key alone, finds her room and seat.
    again = await Client.open(second.port, "Ann", key=ANN_KEY)
    mine = await again.request(m.MyGames())
    assert isinstance(mine, m.MyGamesReply), mine
    assert [(entry["ref"], entry["seats"]) for entry in mine.playing] == [(made.code, ["black"])]
    back = await again.request(m.Join(room=made.code, seat="black"))
    assert isinstance(back, m.Joined) and back.seat == "black", back
    final = await play_to_the_end({"black": again, "white": bob}, made.code)
    assert final["state"]["over"]

    async with asyncio.timeout(10):
        while (await room_of(bob, made.code))["rating_changes"] is None:
            await asyncio.sleep(0.05)
    changes = (await room_of(bob, made.code))["rating_changes"]
    assert {change["before"] for change in changes.values()} == {1500}
    assert sorted(change["after"] for change in changes.values())[0] < 1500
    for client in (ann, bob):
        board = await client.request(m.Leaderboard(game="othello"))
        assert isinstance(board, m.LeaderboardReply)
        assert {line["player"] for line in board.players} == {
            player_id(ANN_KEY),
            player_id(BOB_KEY),
        }
    finished = await ann.request(m.MyGames())
    assert isinstance(finished, m.MyGamesReply) and finished.playing == []
    (game,) = finished.finished
    assert {seat["colour"]: seat["rating"] for seat in game["seats"]} == changes
    replay = await bob.request(m.Replay(record=game["record"]))
    assert isinstance(replay, m.ReplayReply), replay
    assert [frame["move"] for frame in replay.frames[1:]] == final["moves"]
    for client in (ann, bob, again):
        await client.close()


async def test_your_turn_reaches_the_players_connection_on_another_node(start: StartNode) -> None:
    first, second = await start_nodes(start, 2)
    ann = await Client.open(first.port, "Ann", key=ANN_KEY)
    bob = await Client.open(second.port, "Bob", key=BOB_KEY)
    ann_elsewhere = await Client.open(second.port, "Ann", key=ANN_KEY)
    bob_elsewhere = await Client.open(second.port, "Bob", key=BOB_KEY)
    made = await ann.request(m.CreateRoom(game="othello", seat="black", public=False))
    assert isinstance(made, m.Joined) and made.code is not None
    room_id = str(made.room["room"])
    assert isinstance(await bob.request(m.Join(room=made.code, seat="white")), m.Joined)
    assert isinstance(await ann.request(m.Start(room=made.code)), m.Ok)

    # The room is the first node's; Ann's connection in the lobby of the second is told.
    told = await ann_elsewhere.expect(lambda message: isinstance(message, m.YourTurn))
    assert told == m.YourTurn(room=room_id, ref=made.code, game="othello", seats=["black"])
    room = await room_of(ann, made.code)
    black = room["state"]["legal_moves"][0]
    moved = await ann.request(m.Move(room=made.code, version=room["version"], move=black))
    assert isinstance(moved, m.Ok), moved
    told = await bob_elsewhere.expect(lambda message: isinstance(message, m.YourTurn))
    assert told == m.YourTurn(room=room_id, ref=made.code, game="othello", seats=["white"])
    mine = await bob_elsewhere.request(m.MyGames())
    assert isinstance(mine, m.MyGamesReply), mine
    assert [(entry["ref"], entry["turn"]) for entry in mine.playing] == [(made.code, True)]

    # Bob's connection in the room, on the same node, sees the turn there: no notice.
    await bob.update(1)
    assert (await room_of(bob, made.code))["state"]["to_move"] == "white"
    assert not any(isinstance(message, m.YourTurn) for message in bob.inbox)
    assert not any(isinstance(message, m.YourTurn) for message in ann_elsewhere.inbox)
    for client in (ann, bob, ann_elsewhere, bob_elsewhere):
        await client.close()
