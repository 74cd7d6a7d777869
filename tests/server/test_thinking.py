"""Watching the computer think, and asking it for a suggestion, over real sockets."""

from collections.abc import AsyncIterator
from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.rules import get_game
from parlour.server import ParlourServer, ServerConfig, running_server

from . import faulty_bots
from .wsclient import Client


@pytest.fixture
async def thinking_server() -> AsyncIterator[ParlourServer]:
    """Bots that think aloud for most of half a second: eight thoughts, deeper each time."""
    config = ServerConfig(bot_workers=1, think=faulty_bots.thoughtful_bot)
    async with running_server(config) as server:
        yield server


async def create(client: Client, game: str, **fields: Any) -> str:
    """Host a room of `game` and return its id."""
    joined = await client.request(m.CreateRoom(game=game, bot_think_ms=500, **fields))
    assert isinstance(joined, m.Joined), joined
    return str(joined.room["room"])


def thoughts(client: Client) -> list[m.Thinking]:
    """The `thinking` messages the client has been sent and not yet looked at."""
    kept = [message for message in client.inbox if isinstance(message, m.Thinking)]
    client.inbox = [message for message in client.inbox if not isinstance(message, m.Thinking)]
    return kept


async def test_who_asked_sees_a_bot_think_before_its_move(thinking_server: ParlourServer) -> None:
    port = thinking_server.port
    ann = await Client.open(port, "Ann")
    room = await create(ann, "tribolo", board=7, seat="blue")
    bob = await Client.open(port, "Bob")
    assert isinstance(await bob.request(m.Spectate(room=room)), m.Watching)
    assert isinstance(await ann.request(m.ShowThinking(room=room, on=True)), m.Ok)
    assert isinstance(await ann.request(m.FillBots(room=room)), m.Ok)
    assert isinstance(await ann.request(m.Start(room=room)), m.Ok)

    update = await ann.update(1)  # red, a bot, moves first on board 7
    seen = thoughts(ann)
    assert [thought.search["depth"] for thought in seen] == list(range(1, 9))
    assert {(t.room, t.version, t.seat, t.of) for t in seen} == {(room, 0, "red", "bot")}
    assert seen[-1].search["move"] == update.move
    await bob.update(1)
    assert thoughts(bob) == []  # Bob did not ask

    assert isinstance(await ann.request(m.ShowThinking(room=room, on=False)), m.Ok)
    await ann.update(2)
    assert thoughts(ann) == []
    await ann.close()
    await bob.close()


async def test_a_suggestion_answers_the_seat_to_move(thinking_server: ParlourServer) -> None:
    port = thinking_server.port
    ann = await Client.open(port, "Ann")
    room = await create(ann, "tribolo", board=7, seat="red")
    bob = await Client.open(port, "Bob")
    assert isinstance(await bob.request(m.Join(room=room, seat="blue")), m.Joined)
    assert isinstance(await ann.request(m.FillBots(room=room)), m.Ok)
    assert isinstance(await ann.request(m.ShowThinking(room=room, on=True)), m.Ok)
    assert isinstance(await ann.request(m.Start(room=room)), m.Ok)

    turn_of_bob = await bob.request(m.Suggest(room=room, think_ms=400))
    assert isinstance(turn_of_bob, m.Error) and turn_of_bob.code == "not_your_turn"
    await ann.send(m.Suggest(id="first", room=room, think_ms=400))
    again = await ann.request(m.Suggest(room=room))
    assert isinstance(again, m.Error) and again.code == "busy"
    answer = await ann.expect(lambda message: message.id == "first")
    assert isinstance(answer, m.Suggestion), answer
    state = get_game("tribolo").new(seed=7)
    assert (answer.room, answer.version) == (room, 0)
    assert answer.search["move"] == state.format_move(state.legal_moves()[-1])
    seen = thoughts(ann)
    assert [thought.of for thought in seen] == ["suggestion"] * 8
    assert seen[-1].search == answer.search

    played = await ann.request(m.Move(room=room, version=0, move=answer.search["move"]))
    assert isinstance(played, m.Ok)
    await ann.close()
    await bob.close()


async def test_only_members_may_watch_and_only_seats_be_suggested_to(
    thinking_server: ParlourServer,
) -> None:
    port = thinking_server.port
    ann = await Client.open(port, "Ann")
    room = await create(ann, "othello", seat="black")
    outsider = await Client.open(port, "Cy")
    refused = await outsider.request(m.ShowThinking(room=room, on=True))
    assert isinstance(refused, m.Error) and refused.code == "not_in_room"
    assert isinstance(await outsider.request(m.Spectate(room=room)), m.Watching)
    not_seated = await outsider.request(m.Suggest(room=room))
    assert isinstance(not_seated, m.Error) and not_seated.code == "not_seated"
    early = await ann.request(m.Suggest(room=room))
    assert isinstance(early, m.Error) and early.code == "not_started"
    await ann.close()
    await outsider.close()
