"""Twelve rooms spread over three nodes while nodes are killed at random and replaced:
afterwards every acknowledged move is in its room exactly once, where it was played."""

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from typing import Any

from parlour.protocol import messages as m

from ..server.wsclient import Client
from .conftest import StartNode, start_nodes
from .players import LOST, RETRY_PAUSE, Reconnecting
from .processes import Node

PAIRS = 4
ROOMS_EACH = 3
"""Rooms a pair of players share: a connection may host three rooms at once."""
MOVES = 12
"""Moves played in each room."""
KILLS = 2
"""Nodes killed, one each time another third of all the moves has been played: the
games outlast the kills however fast or slow the machine is."""
TIMEOUT = 300.0
LEASE = "1"
"""Seconds a node's rooms stay its own after it stops renewing: a killed node's rooms
are taken over in a second, and a node that misses renewals under load only hands rooms
over early, which the check below covers as well."""


@dataclass
class Player(Reconnecting):
    """One connection holding a seat in several rooms, coming back through any live node
    with every seat's token when its node is killed."""

    name: str
    nodes: list[Node]
    client: Client
    tokens: dict[str, str] = field(default_factory=dict)
    colours: dict[str, str] = field(default_factory=dict)
    acked: dict[str, dict[int, str]] = field(default_factory=dict)
    rejoined: int = 0

    async def come_back(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.close(), 1)
        while True:
            try:
                client = await Client.open(random.choice(up(self.nodes)).port, self.name)
                for ref, token in self.tokens.items():
                    joined = await client.request(m.Join(room=ref, token=token))
                    if not isinstance(joined, m.Joined):
                        raise TimeoutError(f"not back in {ref}: {joined}")
            except LOST:
                await asyncio.sleep(RETRY_PAUSE)
                continue
            self.client = client
            self.rejoined += 1
            return

    async def take(self, message: m.CreateRoom | m.Join) -> str:
        """Make or join a room and take a seat in it; the room's id."""
        joined = await self.ask(message)
        assert isinstance(joined, m.Joined) and joined.seat is not None, joined
        ref = str(joined.room["room"])
        self.tokens[ref], self.colours[ref] = joined.token, joined.seat
        self.acked[ref] = {}
        return ref

    async def room(self, ref: str) -> dict[str, Any]:
        answer = await self.ask(m.GetRoom(room=ref))
        assert isinstance(answer, m.RoomView), answer
        return answer.room

    async def turn(self, ref: str) -> dict[str, Any]:
        """Play a random legal move in `ref` if it is this player's turn; the room."""
        room = await self.room(ref)
        state = room["state"]
        if room["status"] == "playing" and state["to_move"] == self.colours[ref]:
            move = random.choice(state["legal_moves"])
            answer = await self.ask(m.Move(room=ref, version=room["version"], move=move))
            if isinstance(answer, m.Ok):
                self.acked[ref][room["version"] + 1] = move
            else:
                assert isinstance(answer, m.Error), answer
                assert answer.code in ("stale_version", "not_your_turn"), answer
        return room


async def play_pair(black: Player, white: Player) -> None:
    """Both play every room they share until each has MOVES moves or is over."""
    rooms = list(black.tokens)
    while rooms:
        for ref in list(rooms):
            room = await black.turn(ref)
            await white.turn(ref)
            if room["version"] >= MOVES or room["status"] == "finished":
                rooms.remove(ref)


async def pair(nodes: list[Node], number: int) -> tuple[Player, Player]:
    """Two players on two nodes sharing ROOMS_EACH Othello rooms, started."""
    first, second = nodes[number % len(nodes)], nodes[(number + 1) % len(nodes)]
    black = Player(f"b{number}", nodes, await Client.open(first.port, f"b{number}"))
    white = Player(f"w{number}", nodes, await Client.open(second.port, f"w{number}"))
    for _ in range(ROOMS_EACH):
        ref = await black.take(m.CreateRoom(game="othello", seat="black"))
        await white.take(m.Join(room=ref, seat="white"))
        assert isinstance(await black.ask(m.Start(room=ref)), m.Ok)
    return black, white


def acknowledged(players: list[Player]) -> int:
    """How many moves the cluster has acknowledged to `players`, all told."""
    return sum(len(moves) for player in players for moves in player.acked.values())


def up(nodes: list[Node]) -> list[Node]:
    """The nodes not killed."""
    return [node for node in nodes if node.process.returncode is None]


async def kill_as_play_goes_on(nodes: list[Node], start: StartNode, players: list[Player]) -> int:
    """Kill a random node each time another share of the moves has been played (KILLS
    times), starting a new one in its place meanwhile; never the last node that is up.
    How many were killed."""

    async def replace() -> None:
        nodes.append(await start("--lease", LEASE))

    replacing: list[asyncio.Task[None]] = []
    for share in range(1, KILLS + 1):
        due = PAIRS * ROOMS_EACH * MOVES * share / (KILLS + 1)
        while acknowledged(players) < due or len(live := up(nodes)) < 2:
            await asyncio.sleep(0.05)
        await random.choice(live).kill()
        replacing.append(asyncio.create_task(replace()))
    await asyncio.gather(*replacing)
    return len(replacing)


async def test_random_node_kills_lose_no_acknowledged_move(start: StartNode) -> None:
    nodes = await start_nodes(start, 3, "--lease", LEASE)
    pairs = await asyncio.gather(*(pair(nodes, number) for number in range(PAIRS)))
    players = [player for both in pairs for player in both]
    async with asyncio.timeout(TIMEOUT):
        games = asyncio.gather(*(play_pair(black, white) for black, white in pairs))
        killed = await kill_as_play_goes_on(nodes, start, players)
        await games
    assert killed == KILLS

    assert sum(player.rejoined for player in players) > 0
    checked = 0
    for player in players:
        for ref, acked in player.acked.items():
            room = await player.room(ref)
            assert room["version"] == len(room["moves"]), ref
            for version, move in acked.items():
                assert room["moves"][version - 1] == move, (ref, version, move)
                checked += 1
    assert len({ref for player in players for ref in player.tokens}) == PAIRS * ROOMS_EACH
    assert checked >= PAIRS * ROOMS_EACH * MOVES * 0.9
