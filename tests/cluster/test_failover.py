"""Nodes lost mid-game (SIGKILL, SIGSTOP): another node takes their rooms from Redis, people
come back with their tokens, bots play on, and no acknowledged move is lost or doubled."""

import asyncio
import signal
import time

from parlour.protocol import messages as m

from ..server.wsclient import Client
from .conftest import StartNode, start_nodes
from .players import Person, check_acknowledged, play, until_turn
from .processes import Node, RedisProcess, http_get, metric, metric_reaching, until_health

LEASE = "2"
MOVES_AFTER = 6
"""Moves the people play once a fault is over: the game goes on, each of them moving."""
NUMLO_6X6: dict[str, int | str] = {"rows": 6, "cols": 6, "tiles": 2, "valued": 4}
"""A short Numlo: on board 1, with blue and red playing their first legal move, a game of 20
or 21 moves whatever the bot plays, so that play goes on across each fault."""
METRIC_TIMEOUT = 10.0
"""Seconds a node that woke has to show in its metrics the write it was refused."""


async def seat(node: Node, name: str, ref: str, colour: str, nodes: list[Node]) -> Person:
    """A person who joins `ref` as `colour` through `node`, and comes back through any node
    of `nodes` that is up."""
    client = await Client.open(node.port, name)
    joined = await client.request(m.Join(room=ref, seat=colour))
    assert isinstance(joined, m.Joined), joined
    return Person(name, colour, ref, joined.token, client, lambda: up(nodes, node))


def up(nodes: list[Node], first: Node) -> list[int]:
    alive = [node for node in nodes if node.process.returncode is None]
    alive.sort(key=lambda node: node is not first)
    return [node.port for node in alive]


async def hosted_game(owner: Node, *, short: bool = True) -> tuple[Client, str]:
    """A Numlo room made on `owner`, short or on the standard board: blue and red for
    people, green a bot; not started."""
    host = await Client.open(owner.port, "Host")
    create = m.CreateRoom(game="numlo", seat=None, board=1, options=NUMLO_6X6)
    if not short:
        create = m.CreateRoom(game="numlo", seat=None, board=3)
    joined = await host.request(create)
    assert isinstance(joined, m.Joined)
    ref = joined.room["room"]
    filled = await host.request(m.SetSeat(room=ref, seat="green", holder="bot", level="easy"))
    assert isinstance(filled, m.Ok)
    return host, ref


async def start_and_leave(host: Client, ref: str) -> None:
    """The host starts the game and leaves: nobody would read what the room tells it, and a
    node stopping waits for a connection that does not read to answer its close."""
    assert isinstance(await host.request(m.Start(room=ref)), m.Ok)
    await host.close()


async def test_the_owner_killed_mid_game_loses_no_acknowledged_move(start: StartNode) -> None:
    nodes = await start_nodes(start, 3, "--lease", LEASE)
    owner = nodes[0]
    host, ref = await hosted_game(owner)
    ann = await seat(owner, "Ann", ref, "blue", nodes)
    bob = await seat(nodes[1], "Bob", ref, "red", nodes)
    await start_and_leave(host, ref)
    people = [ann, bob]
    await play(people, moves=6)

    await owner.kill()
    room = await play(people, moves=4)
    assert room["status"] in ("playing", "finished")
    assert ann.rejoined == 1, "Ann's node was killed: she came back through another"
    assert bob.rejoined == 0, "Bob's node lives: his seat came back to him where he was"
    seats = {seat["colour"]: seat["holder"] for seat in room["seats"]}
    assert seats["blue"] == {"kind": "human", "name": "Ann", "connected": True}
    assert seats["red"] == {"kind": "human", "name": "Bob", "connected": True}
    final = await play(people)
    assert final["state"]["over"]
    check_acknowledged(people, final)
    bot_moves = [
        version
        for version in range(1, final["version"] + 1)
        if all(version not in person.acked for person in people)
    ]
    assert bot_moves, "the bot played its turns after the owner was lost"


async def test_an_owner_paused_past_its_lease_cannot_write_when_it_wakes(
    start: StartNode,
) -> None:
    nodes = await start_nodes(start, 2, "--lease", LEASE)
    owner, other = nodes
    host, ref = await hosted_game(owner, short=False)  # no end before the fault
    ann = await seat(owner, "Ann", ref, "blue", nodes)
    bob = await seat(other, "Bob", ref, "red", nodes)
    await start_and_leave(host, ref)
    people = [ann, bob]
    await play(people, moves=3)
    room = await until_turn(people, "blue")

    owner.signal(signal.SIGSTOP)
    late = m.Move(room=ref, version=room["version"], move=room["state"]["legal_moves"][0])
    await ann.client.send(late)
    ann.ports = lambda: [other.port]  # her node does not answer: she tries the other
    await ann.come_back()
    assert ann.client.websocket.remote_address[1] == other.port
    played = await play(people, moves=4)
    owner.signal(signal.SIGCONT)
    fenced = await metric_reaching(owner, "parlour_writes_fenced_out_total", 1, METRIC_TIMEOUT)
    assert fenced >= 1

    final = await play(people, moves=2)
    assert final["version"] > played["version"]
    check_acknowledged(people, final)
    assert final["moves"][: played["version"]] == played["moves"]


async def test_redis_lost_mid_game_refuses_changes_then_play_goes_on(
    start: StartNode, redis_server: RedisProcess
) -> None:
    nodes = await start_nodes(start, 2, "--lease", LEASE)
    # The standard board: a short game was once over before the fault.
    host, ref = await hosted_game(nodes[0], short=False)
    ann = await seat(nodes[0], "Ann", ref, "blue", nodes)
    bob = await seat(nodes[1], "Bob", ref, "red", nodes)
    await start_and_leave(host, ref)
    people = [ann, bob]
    await play(people, moves=3)
    room = await until_turn(people, "blue")

    await redis_server.kill()
    killed = time.monotonic()
    move = m.Move(room=ref, version=room["version"], move=room["state"]["legal_moves"][0])
    refused = await ann.client.request(move)
    assert isinstance(refused, m.Error) and refused.code == "unavailable", refused
    for node in nodes:
        assert await until_health(node, "503") == "Redis cannot be reached"
        assert metric(await http_get(node.port, "/metrics"), "parlour_redis_up") == 0
    # Down past every lease: the nodes must take their rooms anew.
    await asyncio.sleep(killed + float(LEASE) + 1 - time.monotonic())

    await redis_server.start()
    for node in nodes:
        assert await until_health(node, "200") == "ok"
    final = await play(people, moves=MOVES_AFTER)
    assert final["version"] >= room["version"] + MOVES_AFTER
    check_acknowledged(people, final)
    assert final["moves"][: room["version"]] == room["moves"]
    assert (ann.rejoined, bob.rejoined) == (0, 0), "nobody's connection was closed"


async def test_a_rooms_history_survives_its_owner_and_comes_back_with_its_people(
    start: StartNode,
) -> None:
    nodes = await start_nodes(start, 2, "--lease", LEASE)
    owner, other = nodes
    host, ref = await hosted_game(owner, short=False)  # no end before the fault
    ann = await seat(owner, "Ann", ref, "blue", nodes)
    bob = await seat(other, "Bob", ref, "red", nodes)
    assert isinstance(await host.request(m.Start(room=ref)), m.Ok)
    await play([ann, bob], moves=3)
    assert isinstance(await ann.ask(m.Chat(room=ref, text="so close! gg")), m.Ok)
    assert isinstance(
        await bob.ask(m.Chat(room=ref, text="Sorry, my cat walked on the keys")), m.Ok
    )
    watcher = await Client.open(other.port, "Cy")
    watching = await watcher.request(m.Spectate(room=ref))
    assert isinstance(watching, m.Watching) and watching.history is not None
    before = watching.history
    said = [(entry["name"], entry["text"]) for entry in before if entry["kind"] == "chat"]
    assert said == [("Ann", "so close! gg"), ("Bob", "Sorry, my cat walked on the keys")]
    assert len([entry for entry in before if entry["kind"] == "move"]) >= 3

    await owner.kill()
    back = await Client.open(other.port, "Ann")
    async with asyncio.timeout(30):
        while True:
            joined = await back.request(m.Join(room=ref, token=ann.token))
            if not (isinstance(joined, m.Error) and joined.code == "unavailable"):
                break
            await asyncio.sleep(0.2)
    assert isinstance(joined, m.Joined) and joined.history is not None
    assert joined.history[: len(before)] == before, "another node took the room with its history"
    moves = [entry["move"] for entry in joined.history if entry["kind"] == "move"]
    assert moves == joined.room["moves"][: len(moves)]
    for client in (host, ann.client, bob.client, watcher, back):
        await client.close()


async def test_a_live_clock_stands_still_while_its_room_has_no_owner(start: StartNode) -> None:
    # One after the other: Redis knows when a node was last alive from its first
    # heartbeat on, and the owner must have had one before it is killed.
    owner = await start("--lease", LEASE)
    other = await start("--lease", LEASE)
    ann = await Client.open(owner.port, "Ann")
    bob = await Client.open(other.port, "Bob")
    live = {"kind": "live", "base_s": 600, "increment_s": 0}
    made = await ann.request(
        m.CreateRoom(game="othello", board=1, seat="black", time_control=live)
    )
    assert isinstance(made, m.Joined)
    ref = made.room["room"]
    assert isinstance(await bob.request(m.Join(room=ref, seat="white")), m.Joined)
    assert isinstance(await ann.request(m.Start(room=ref)), m.Ok)
    shown = await ann.request(m.GetRoom(room=ref))
    assert isinstance(shown, m.RoomView)
    first = shown.room["state"]["legal_moves"][0]
    assert isinstance(await ann.request(m.Move(room=ref, version=0, move=first)), m.Ok)
    update = await bob.update(1)
    assert update.clock is not None and update.clock["running"] == "white"
    before, lost = update.clock["left_ms"]["white"], time.monotonic()

    await owner.kill()
    while True:  # each request is answered: `unavailable` until the other node takes the room
        again = await bob.request(m.GetRoom(room=ref))
        if isinstance(again, m.RoomView):
            break
        assert isinstance(again, m.Error) and again.code == "unavailable", again
    away = time.monotonic() - lost
    after = again.room["clock"]["left_ms"]["white"]
    assert away > float(LEASE) / 2, "the room had no owner till its lease ran out"
    assert before - after < away * 1000 / 2, (
        f"white was charged {before - after} ms of the {away * 1000:.0f} ms without an owner"
    )
    assert again.room["clock"]["running"] == "white" and again.room["status"] == "playing"
    await ann.close()
    await bob.close()
