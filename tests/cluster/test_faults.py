"""One fault at a time, at the moment that hurts most, with every message each client was
shown kept: nothing shown is ever taken back, requests waiting on a lost owner go on to
its successor, and people on the other nodes keep their seats (protocol.md, section 6)."""

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parlour.client.connection import Connection
from parlour.protocol import messages as m

from ..server.wsclient import TIMEOUT, Client
from .conftest import StartNode, start_nodes
from .processes import Node, RedisProcess, metric_reaching, until_health

LEASE = 2.0
BOUND = LEASE + 2.0
"""How soon a room must be served again after a fault (protocol.md, section 6)."""


class Watched(Client):
    """A client that keeps every message it was shown, answers and updates alike."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.shown: list[m.ServerMessage] = []
        self._kept: set[int] = set()

    async def expect(
        self, wanted: Callable[[m.ServerMessage], bool], timeout: float = TIMEOUT
    ) -> m.ServerMessage:
        def noting(message: m.ServerMessage) -> bool:
            if id(message) not in self._kept:
                self._kept.add(id(message))
                self.shown.append(message)
            return wanted(message)

        return await super().expect(noting, timeout)

    async def everything(self, quiet: float = 0.5) -> list[m.ServerMessage]:
        """Every message shown so far, once the connection has been quiet for `quiet` s."""
        with contextlib.suppress(TimeoutError):
            await self.expect(lambda message: False, timeout=quiet)
        return self.shown


async def othello_room(owner: Node, first: Node, second: Node) -> tuple[str, Watched, Watched]:
    """An Othello room made on `owner` by a host who sits in no seat, black joined
    through `first` and white through `second`, started."""
    host = await Client.open(owner.port, "Host")
    made = await host.request(m.CreateRoom(game="othello", seat=None))
    assert isinstance(made, m.Joined), made
    ref = made.room["room"]
    black = await Watched.open(first.port, "Ann")
    white = await Watched.open(second.port, "Bob")
    for person, colour in ((black, "black"), (white, "white")):
        joined = await person.request(m.Join(room=ref, seat=colour))
        assert isinstance(joined, m.Joined), joined
    assert isinstance(await host.request(m.Start(room=ref)), m.Ok)
    return ref, black, white


async def play_moves(ref: str, people: dict[str, Watched], count: int) -> dict[str, Any]:
    """`count` moves, each by the seat to move, the first legal one; the room after."""
    for _ in range(count):
        room = await view(next(iter(people.values())), ref)
        colour = room["state"]["to_move"]
        move = m.Move(room=ref, version=room["version"], move=room["state"]["legal_moves"][0])
        assert isinstance(await people[colour].request(move), m.Ok)
    return await view(next(iter(people.values())), ref)


async def view(client: Client, ref: str) -> dict[str, Any]:
    answer = await client.request(m.GetRoom(room=ref))
    assert isinstance(answer, m.RoomView), answer
    return answer.room


def contradictions(shown: list[m.ServerMessage], moves: list[str]) -> list[str]:
    """What a client was shown that the kept game does not hold: an update's move at its
    version, a room view's moves as the start of the game."""
    wrong = []
    for message in shown:
        if isinstance(message, m.Update):
            kept = moves[message.version - 1] if message.version <= len(moves) else None
            if kept != message.move:
                wrong.append(f"update {message.version} {message.move}: kept {kept}")
        elif isinstance(message, m.RoomView | m.Joined):
            seen = message.room.get("moves", [])
            if seen != moves[: len(seen)]:
                wrong.append(f"room at {message.room['version']}: {seen}, kept {moves}")
    return wrong


async def test_a_paused_owner_shows_nobody_the_move_it_could_not_keep(
    start: StartNode,
) -> None:
    owner, first, second = await start_nodes(start, 3, "--lease", str(LEASE))
    ref, black, white = await othello_room(owner, first, second)
    people = {"black": black, "white": white}
    room = await play_moves(ref, people, 4)
    assert room["state"]["to_move"] == "black"
    move = room["state"]["legal_moves"][0]

    owner.signal(signal.SIGSTOP)
    paused = time.monotonic()
    try:
        # Both wait at the paused owner, the read behind the move.
        await black.send(m.Move(id="late", room=ref, version=room["version"], move=move))
        await black.send(m.GetRoom(id="look", room=ref))
        answer = await black.expect(lambda message: message.id == "late", timeout=3 * BOUND)
        answered = time.monotonic() - paused
        looked = await black.expect(lambda message: message.id == "look", timeout=BOUND)
    finally:
        owner.signal(signal.SIGCONT)
    assert isinstance(answer, m.Ok), answer
    assert answered < BOUND, f"the move waited {answered:.1f} s for the room's new owner"
    assert isinstance(looked, m.RoomView)
    # The owner wakes and works through what waited for it: Redis refuses its write.
    await metric_reaching(owner, "parlour_writes_fenced_out_total", 1, timeout=LEASE)

    final = await view(white, ref)
    assert final["moves"] == [*room["moves"], move]
    for name, person in people.items():
        shown = await person.everything()
        assert contradictions(shown, final["moves"]) == [], name
        answers = [message.id for message in shown if message.id in ("late", "look")]
        assert sorted(answers) == (["late", "look"] if person is black else []), answers
    after = m.Move(room=ref, version=final["version"], move=final["state"]["legal_moves"][0])
    assert isinstance(await white.request(after), m.Ok), "white kept the seat"


async def test_after_redis_restarts_every_room_is_served_and_every_seat_held(
    start: StartNode, redis_server: RedisProcess
) -> None:
    nodes = await start_nodes(start, 3, "--lease", str(LEASE))
    rooms = []
    for index in range(3):  # each node owns a room, and has a person of each other's
        owner, first, second = (nodes[(index + step) % 3] for step in range(3))
        ref, black, white = await othello_room(owner, first, second)
        await play_moves(ref, {"black": black, "white": white}, 2)
        rooms.append((ref, {"black": black, "white": white}))

    await redis_server.kill()
    await asyncio.sleep(LEASE)  # down past every lease and heartbeat
    await redis_server.start()
    back = time.monotonic()
    for node in nodes:
        await until_health(node, "200")

    async def serving(ref: str, people: dict[str, Watched]) -> float:
        """Seconds from Redis being back until each seat has moved once more."""
        for _ in range(2):
            while True:
                room = await view(people["black"], ref)
                colour = room["state"]["to_move"]
                legal = room["state"]["legal_moves"][0]
                asked = m.Move(room=ref, version=room["version"], move=legal)
                answer = await people[colour].request(asked)
                if isinstance(answer, m.Ok):
                    break
                assert isinstance(answer, m.Error) and answer.code == "unavailable", answer
                await asyncio.sleep(0.2)
        return time.monotonic() - back

    waited = await asyncio.gather(*(serving(ref, people) for ref, people in rooms))
    assert max(waited) < BOUND, f"rooms served again after {sorted(waited)} s"
    for ref, people in rooms:
        final = await view(people["white"], ref)
        for person in people.values():
            assert contradictions(await person.everything(0.1), final["moves"]) == []
        seats = {seat["colour"]: seat["holder"] for seat in final["seats"]}
        assert all(holder["connected"] for holder in seats.values()), seats


async def test_once_redis_is_back_no_request_meets_a_connection_that_died_with_it(
    start: StartNode, redis_server: RedisProcess, tmp_path: Path
) -> None:
    nodes = await start_nodes(start, 2, "--lease", str(LEASE))

    async def busy(node: Node) -> None:
        """Many people at once: the node's pool of Redis connections fills."""
        people = await asyncio.gather(*(Client.open(node.port, f"P{n}") for n in range(8)))
        cards = await asyncio.gather(
            *(person.request(m.ScoreCard(game="othello")) for person in people)
        )
        assert all(isinstance(card, m.ScoreCardReply) for card in cards), cards
        await asyncio.gather(*(person.close() for person in people))

    await asyncio.gather(*(busy(node) for node in nodes))
    await redis_server.kill()
    await redis_server.start()
    for node in nodes:
        await until_health(node, "200")
    await asyncio.gather(*(busy(node) for node in nodes))
    logs = "".join(log.read_text() for log in sorted(tmp_path.glob("node-*.log")))
    assert "archive failed" not in logs


async def test_the_terminal_client_sends_a_move_again_until_redis_is_back(
    start: StartNode, redis_server: RedisProcess
) -> None:
    owner, edge = await start_nodes(start, 2, "--lease", str(LEASE))
    ref, black, white = await othello_room(owner, edge, owner)
    room = await view(black, ref)
    black_token = next(message.token for message in black.shown if isinstance(message, m.Joined))
    ann = await Connection.open(f"ws://127.0.0.1:{edge.port}/ws", "Ann")
    try:
        await ann.request(m.Join(room=ref, token=black_token))
        await redis_server.kill()
        await until_health(edge, "503")  # the node knows: it answers `unavailable` at once
        move = m.Move(room=ref, version=room["version"], move=room["state"]["legal_moves"][0])
        sent = asyncio.create_task(ann.request(move))
        await asyncio.sleep(1.0)
        assert not sent.done(), "the client waits while the cluster says unavailable"
        await redis_server.start()
        assert isinstance(await sent, m.Ok)
    finally:
        await ann.close()
    assert (await view(white, ref))["moves"] == [move.move]
