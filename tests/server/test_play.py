"""Whole games over real sockets: people, bots, spectators, and reconnecting."""

import asyncio
from typing import Any

from parlour.protocol import messages as m
from parlour.rules import get_game
from parlour.server import ParlourServer

from .wsclient import Client

JSON = "parlour.v1.json"


async def create(host: Client, **fields: Any) -> m.Joined:
    request: dict[str, Any] = {"game": "tribolo", "board": 7, **fields}
    joined = await host.request(m.CreateRoom(**request))
    assert isinstance(joined, m.Joined), joined
    return joined


async def play_my_turns(client: Client, colour: str, room: str) -> list[tuple[int, str, str]]:
    """Play `colour` until the game ends (first legal move); every update seen, in order."""
    seen: list[tuple[int, str, str]] = []
    view = await client.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView)
    state, version = view.room["state"], view.room["version"]
    while not state["over"]:
        if state["to_move"] == colour:
            reply = await client.request(
                m.Move(room=room, version=version, move=state["legal_moves"][0])
            )
            assert isinstance(reply, m.Ok), reply
        update = await client.update(version + 1)
        seen.append((update.version, update.seat, update.move))
        state, version = update.state, update.version
    return seen


async def test_three_people_play_a_whole_tribolo_game_and_see_the_same(
    server: ParlourServer,
) -> None:
    ann = await Client.open(server.port, "Ann", JSON)
    bob = await Client.open(server.port, "Bob")
    cy = await Client.open(server.port, "Cy")
    joined = await create(ann, seat="blue")
    room = joined.room["room"]
    for client, colour in ((bob, "red"), (cy, "green")):
        reply = await client.request(m.Join(room=room, seat=colour))
        assert isinstance(reply, m.Joined) and reply.seat == colour
    assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
    histories = await asyncio.gather(
        play_my_turns(ann, "blue", room),
        play_my_turns(bob, "red", room),
        play_my_turns(cy, "green", room),
    )
    assert histories[0] == histories[1] == histories[2]
    versions = [version for version, _, _ in histories[0]]
    assert versions == list(range(1, len(versions) + 1))
    finals = [await client.request(m.GetRoom(room=room)) for client in (ann, bob, cy)]
    assert all(isinstance(final, m.RoomView) for final in finals)
    views = [final.room for final in finals if isinstance(final, m.RoomView)]
    assert {view["status"] for view in views} == {"finished"}
    assert views[0]["moves"] == [move for _, _, move in histories[0]]
    replayed = get_game("tribolo").new(seed=7)
    for move in views[0]["moves"]:
        replayed = replayed.play_text(move)
    expected_scores = dict(zip(replayed.game.seats, replayed.scores(), strict=True))
    for view in views:
        assert view["state"]["over"] is True
        assert view["state"]["scores"] == expected_scores
        assert view["state"]["winners"] == [replayed.game.seats[i] for i in replayed.winners()]
    for client in (ann, bob, cy):
        await client.close()


async def test_a_person_finishes_a_game_against_two_bots(server: ParlourServer) -> None:
    ann = await Client.open(server.port, "Ann")
    room = (await create(ann, seat="green")).room["room"]
    assert isinstance(await ann.request(m.FillBots(room=room, level="easy")), m.Ok)
    assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
    history = await play_my_turns(ann, "green", room)
    movers = {seat for _, seat, _ in history}
    assert movers == {"blue", "red", "green"}
    final = await ann.request(m.GetRoom(room=room))
    assert isinstance(final, m.RoomView) and final.room["status"] == "finished"
    assert final.room["ended"] == "played" and final.room["state"]["over"]
    await ann.close()
