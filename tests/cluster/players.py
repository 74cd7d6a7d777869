"""People who play on through a cluster's failures: when their node goes they come back
through another with their seat token, and they note every move the cluster acknowledged."""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from parlour.protocol import messages as m

from ..server.wsclient import Client

GAME_TIMEOUT = 180.0
RETRY_PAUSE = 0.2
LOST = (ConnectionClosed, OSError, TimeoutError, InvalidHandshake)
"""What a request meets when its node has gone."""
_closing: set[asyncio.Task[None]] = set()


class Reconnecting:
    """A player whose requests outlive their node: answered through another node, and
    sent again while the cluster says `unavailable`."""

    client: Client

    async def come_back(self) -> None:
        raise NotImplementedError

    async def ask(self, message: m.ClientMessage) -> m.ServerMessage:
        """The answer to `message`, coming back through another node if this one is lost."""
        while True:
            try:
                answer = await self.client.request(message)
            except LOST:
                await self.come_back()
                continue
            if isinstance(answer, m.Error) and answer.code == "unavailable":
                await asyncio.sleep(RETRY_PAUSE)
                continue
            return answer


@dataclass
class Person(Reconnecting):
    """One person in one room, with the nodes they may connect through."""

    name: str
    colour: str
    ref: str
    token: str
    client: Client
    ports: Callable[[], list[int]]
    """The ports of the nodes that are up now, the one to try first first."""
    acked: dict[int, str] = field(default_factory=dict)
    """Each move of theirs that the cluster acknowledged, by the version it made."""
    rejoined: int = 0

    async def come_back(self) -> None:
        """Connect again through a node that is up and take the seat back with the token.

        The old connection is closed in the background: its node may be paused, and what
        was sent to it must reach it when it wakes."""
        closing = asyncio.create_task(self.client.close())
        _closing.add(closing)
        closing.add_done_callback(_closing.discard)
        while True:
            for port in self.ports():
                try:
                    client = await Client.open(port, self.name)
                    joined = await client.request(m.Join(room=self.ref, token=self.token))
                except LOST:
                    continue
                if isinstance(joined, m.Joined):
                    self.client = client
                    self.rejoined += 1
                    return
                await client.close()
            await asyncio.sleep(RETRY_PAUSE)

    async def room(self) -> dict[str, Any]:
        answer = await self.ask(m.GetRoom(room=self.ref))
        assert isinstance(answer, m.RoomView), answer
        return answer.room

    async def move_if_mine(self, room: dict[str, Any]) -> bool:
        """Play the first legal move if it is this person's turn; whether one was played."""
        state = room["state"]
        if room["status"] != "playing" or state["to_move"] != self.colour:
            return False
        move = state["legal_moves"][0]
        answer = await self.ask(m.Move(room=self.ref, version=room["version"], move=move))
        if isinstance(answer, m.Ok):
            self.acked[room["version"] + 1] = move
            return True
        assert isinstance(answer, m.Error), answer
        assert answer.code in ("stale_version", "not_your_turn", "game_over"), answer
        return False


async def play(people: list[Person], moves: int | None = None) -> dict[str, Any]:
    """Everyone plays their turns until `moves` moves were acknowledged (all told), or to
    the end of the game; the room as it then is."""
    made = 0
    async with asyncio.timeout(GAME_TIMEOUT):
        while True:
            for person in people:
                room = await person.room()
                if room["status"] == "finished" or (moves is not None and made >= moves):
                    return room
                made += await person.move_if_mine(room)
            await asyncio.sleep(0.01)


async def until_turn(people: list[Person], colour: str) -> dict[str, Any]:
    """Play the other seats' turns until it is `colour`'s; the room then."""
    async with asyncio.timeout(GAME_TIMEOUT):
        while True:
            for person in people:
                room = await person.room()
                assert room["status"] == "playing", room["status"]
                if room["state"]["to_move"] == colour:
                    return room
                if person.colour != colour:
                    await person.move_if_mine(room)
            await asyncio.sleep(0.01)


def check_acknowledged(people: list[Person], final: dict[str, Any]) -> None:
    """Every acknowledged move is in the game `final` shows, once, where it was played."""
    assert final["version"] == len(final["moves"])
    for person in people:
        for version, move in person.acked.items():
            assert final["moves"][version - 1] == move, (person.name, version, move)
