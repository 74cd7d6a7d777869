"""The plain HTTP side of the port: health, metrics, and unknown paths (the page: test_static)."""

import asyncio
import urllib.error
import urllib.request

import pytest

from parlour.protocol import messages as m
from parlour.server import ParlourServer

from .wsclient import Client


def fetch(port: int, path: str) -> tuple[int, str, str]:
    """Status, content type and body of GET `path`."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


async def get(port: int, path: str) -> tuple[int, str, str]:
    return await asyncio.to_thread(fetch, port, path)


async def test_healthz_answers_ok(server: ParlourServer) -> None:
    assert await get(server.port, "/healthz") == (200, "text/plain; charset=utf-8", "ok\n")


async def test_healthz_answers_503_once_the_server_drains(server: ParlourServer) -> None:
    server.drain()
    assert await get(server.port, "/healthz") == (
        503,
        "text/plain; charset=utf-8",
        "shutting down\n",
    )


async def test_metrics_count_connections_rooms_moves_and_errors(server: ParlourServer) -> None:
    ann = await Client.open(server.port, "Ann")
    joined = await ann.request(m.CreateRoom(game="othello", seat="black"))
    assert isinstance(joined, m.Joined)
    room = joined.room["room"]
    await ann.request(m.FillBots(room=room))
    await ann.request(m.Start(room=room))
    assert isinstance(await ann.request(m.Move(room=room, version=0, move="d3")), m.Ok)
    await ann.update(2)  # the bot's answer
    refused = await ann.request(m.Move(room=room, version=0, move="c3"))
    assert isinstance(refused, m.Error) and refused.code == "stale_version"
    status, content_type, text = await get(server.port, "/metrics")
    assert status == 200 and content_type.startswith("text/plain; version=")
    lines = set(text.splitlines())
    assert "parlour_connections 1.0" in lines
    assert 'parlour_rooms{status="playing"} 1.0' in lines
    assert 'parlour_moves_total{by="human"} 1.0' in lines
    assert 'parlour_moves_total{by="bot"} 1.0' in lines
    assert 'parlour_errors_sent_total{code="stale_version"} 1.0' in lines
    assert 'parlour_messages_received_total{type="move"} 2.0' in lines
    await ann.close()


@pytest.mark.parametrize("path", ["/nothing", "/ws/../etc/passwd", "/healthz/x"])
async def test_other_paths_are_not_found(server: ParlourServer, path: str) -> None:
    status, _, body = await get(server.port, path)
    assert (status, body) == (404, "not found\n")


async def test_a_plain_get_of_the_websocket_path_is_told_to_upgrade(server: ParlourServer) -> None:
    status, _, body = await get(server.port, "/ws")
    assert status == 426 and "WebSocket" in body
