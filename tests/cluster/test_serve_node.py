"""`parlour serve --redis` as an operator runs it: clear refusals, where the rooms are kept,
and a node stopped with SIGTERM hands its rooms over at once."""

import asyncio
import signal

from redis.asyncio import Redis

from parlour.protocol import messages as m
from parlour.server import ServerConfig
from parlour.server.serve import make_server, shown_url

from ..server.serving import spawn_serve
from ..server.wsclient import Client
from .conftest import StartNode, start_nodes
from .processes import RedisProcess, free_port

STOPPED_WITHIN = 10.0
"""Seconds two nodes told to stop together may take: closing, releasing, exiting."""
STARTS = 6
"""Nodes started and stopped at once, one after another."""


async def refusal(*args: str) -> tuple[int | None, str]:
    process = await spawn_serve("--port", "0", *args)
    _, stderr = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode, stderr.decode()


async def test_a_url_that_is_not_redis_is_refused() -> None:
    code, said = await refusal("--redis", "http://127.0.0.1:6379")
    assert code == 2
    assert "'http://127.0.0.1:6379' is not a Redis URL" in said


async def test_a_redis_nobody_answers_at_is_refused() -> None:
    code, said = await refusal("--redis", f"redis://127.0.0.1:{free_port()}/0")
    assert code == 2
    assert "cannot reach Redis" in said


def test_a_password_in_the_url_is_never_printed() -> None:
    assert shown_url("redis://:s3cret@db:6379/0") == "redis://:***@db:6379/0"
    assert shown_url("redis://ann:s3cret@db:6379/0") == "redis://ann:***@db:6379/0"
    assert shown_url("redis://db:6379/0") == "redis://db:6379/0"


async def test_a_node_stopped_with_sigterm_hands_its_rooms_over_at_once(
    start: StartNode, redis_server: RedisProcess
) -> None:
    leaving, staying = await start_nodes(start, 2)
    host = await Client.open(leaving.port, "Ann")
    joined = await host.request(m.CreateRoom(game="othello", seat="black", public=False))
    assert isinstance(joined, m.Joined) and joined.code is not None
    room = joined.room["room"]
    redis = Redis.from_url(redis_server.url, decode_responses=True)
    try:
        lease = f"parlour:room:{room}:lease"
        held = await redis.get(lease)  # "node:fence"
        assert held is not None
        await leaving.stop()
        assert leaving.process.returncode == 0
        now = await redis.get(lease)
        assert now is None or str(now).split(":")[0] != str(held).split(":")[0], (
            "released (the other node may take it at once), not left to run out"
        )
    finally:
        await redis.aclose()
    again = await Client.open(staying.port, "Ann")
    back = await again.request(m.Join(room=joined.code, token=joined.token))
    assert isinstance(back, m.Joined) and back.seat == "black"


async def test_nodes_sharing_a_room_stop_at_once_when_told_together(start: StartNode) -> None:
    """A node stopped with SIGTERM while another is stopping too has had a Redis command cut
    short by the cancellation, which redis-py swallowed, so the node waited for ever (the
    test below starts and stops nodes again and again)."""
    first, second = await start_nodes(start, 2)
    host = await Client.open(first.port, "Ann")
    made = await host.request(m.CreateRoom(game="othello", seat="black", public=False))
    assert isinstance(made, m.Joined) and made.code is not None
    guest = await Client.open(second.port, "Bob")
    assert isinstance(await guest.request(m.Join(room=made.code)), m.Joined)
    for client in (host, guest):
        await client.close()
    for node in (first, second):
        node.signal(signal.SIGTERM)
    async with asyncio.timeout(STOPPED_WITHIN):
        codes = await asyncio.gather(first.process.wait(), second.process.wait())
    assert list(codes) == [0, 0]


async def test_a_node_told_to_stop_as_it_starts_stops(redis_server: RedisProcess) -> None:
    """Its worker's read of jobs, cancelled mid-command, once swallowed the cancellation
    (redis-py does) and the node waited for it for ever: one start in a few hung."""
    for _ in range(STARTS):
        config = ServerConfig(host="127.0.0.1", port=0, redis_url=redis_server.url, bot_workers=1)
        server = make_server(config)
        await server.start()
        server.close()
        async with asyncio.timeout(STOPPED_WITHIN):
            await server.wait_closed()
