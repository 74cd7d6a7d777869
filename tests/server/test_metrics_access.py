"""`/metrics` is for the operator: only peers `--metrics-from` allows (this machine by
default), or on a port of its own; `/healthz` stays open to every balancer. A second
loopback address, 127.0.0.2, stands for another machine."""

import asyncio
import http.client
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from parlour.server import ParlourServer, ServerConfig, running_server
from parlour.server.addresses import METRICS_FROM, networks, peer_in

from .serving import spawn_serve

ANOTHER_MACHINE = "127.0.0.2"


def fetch_from(
    source: str, port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """Status and body of GET `path` from the server on 127.0.0.1:`port`, sent from the
    address `source`."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=5, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


async def get_from(
    source: str, port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    return await asyncio.to_thread(fetch_from, source, port, path, headers)


SERVER = ServerConfig(port=0, bot_workers=1)


@pytest.fixture
async def server() -> AsyncIterator[ParlourServer]:
    async with running_server(SERVER) as running:
        yield running


async def test_metrics_are_refused_to_another_machine_and_served_to_this_one(
    server: ParlourServer,
) -> None:
    status, body = await get_from(ANOTHER_MACHINE, server.port, "/metrics")
    assert (status, body) == (
        403,
        "/metrics is served to the addresses --metrics-from allows only\n",
    )
    status, body = await get_from("127.0.0.1", server.port, "/metrics")
    assert status == 200 and "parlour_connections 0.0" in body
    assert await get_from(ANOTHER_MACHINE, server.port, "/healthz") == (200, "ok\n")


async def test_a_forwarded_for_header_never_opens_the_metrics(server: ParlourServer) -> None:
    claimed = {"X-Forwarded-For": "127.0.0.1"}
    status, _ = await get_from(ANOTHER_MACHINE, server.port, "/metrics", claimed)
    assert status == 403


async def test_metrics_from_names_who_may_read_them_in_place_of_this_machine() -> None:
    async with running_server(replace(SERVER, metrics_from=("127.0.0.2/32",))) as server:
        status, body = await get_from(ANOTHER_MACHINE, server.port, "/metrics")
        assert status == 200 and "parlour_connections" in body
        assert (await get_from("127.0.0.1", server.port, "/metrics"))[0] == 403


async def test_a_metrics_port_serves_metrics_and_health_and_nothing_else() -> None:
    async with running_server(replace(SERVER, metrics_port=0)) as server:
        port = server.metrics_port
        assert port is not None and port != server.port
        status, body = await get_from("127.0.0.1", port, "/metrics")
        assert status == 200 and "parlour_connections" in body
        assert (await get_from(ANOTHER_MACHINE, port, "/metrics"))[0] == 403
        assert await get_from(ANOTHER_MACHINE, port, "/healthz") == (200, "ok\n")
        for elsewhere in ("/", "/ws"):
            assert await get_from("127.0.0.1", port, elsewhere) == (404, "not found\n")
        assert await get_from("127.0.0.1", server.port, "/metrics") == (404, "not found\n")
        assert await get_from("127.0.0.1", server.port, "/healthz") == (200, "ok\n")
        server.drain()
        assert await get_from("127.0.0.1", port, "/healthz") == (503, "shutting down\n")


async def test_serve_prints_its_metrics_port_and_whom_it_serves(tmp_path: Path) -> None:
    process = await spawn_serve(
        "--port", "0", "--data-dir", str(tmp_path),
        "--metrics-port", "0", "--metrics-from", "127.0.0.2", "--metrics-from", "10.1.0.0/16",
    )  # fmt: skip
    assert process.stdout is not None
    try:
        async with asyncio.timeout(30):
            while "metrics:" not in (line := (await process.stdout.readline()).decode()):
                assert line, "serve ended without printing its metrics port"
        found = re.fullmatch(
            r"metrics: http://127\.0\.0\.1:(\d+)/metrics \(to 127\.0\.0\.2/32, 10\.1\.0\.0/16\)\n",
            line,
        )
        assert found, line
        status, body = await get_from(ANOTHER_MACHINE, int(found[1]), "/metrics")
        assert status == 200 and "parlour_connections" in body
    finally:
        process.kill()
        await process.wait()


async def test_serve_refuses_a_metrics_port_that_is_the_games(tmp_path: Path) -> None:
    process = await spawn_serve(
        "--port", "8799", "--metrics-port", "8799", "--data-dir", str(tmp_path)
    )  # fmt: skip
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert "--metrics-port must be another port than --port" in stderr.decode()


@pytest.mark.parametrize("given", ["everyone", "10.0.0.0/33", ""])
async def test_serve_refuses_a_metrics_network_that_is_none(given: str) -> None:
    process = await spawn_serve("--port", "0", "--metrics-from", given)
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert "--metrics-from" in stderr.decode() and "is not a network" in stderr.decode()


@pytest.mark.parametrize(
    ("peer", "allowed"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("127.0.0.2", False),
        ("10.0.0.1", False),
        ("::2", False),
        (None, False),
        ("not an address", False),
    ],
)
def test_by_default_only_this_machine_reads_the_metrics(peer: str | None, allowed: bool) -> None:
    assert peer_in(peer, networks(METRICS_FROM)) is allowed
