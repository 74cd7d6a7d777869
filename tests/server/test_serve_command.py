"""`parlour serve` as a user runs it: it says where to connect and stops cleanly on SIGTERM."""

import asyncio
import re
import signal
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from .serving import spawn_serve
from .wsclient import Client


async def test_serve_prints_its_address_and_sigterm_closes_clients_with_1001(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    process = await spawn_serve("--port", "0", "--data-dir", str(data_dir))
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        found = re.search(r"serving ws://127\.0\.0\.1:(\d+)/ws \(browser: http://127", first)
        assert found, first
        assert data_dir.is_dir()
        client = await Client.open(int(found.group(1)), "Ann")
        process.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed):
            await client.websocket.recv()
        assert client.websocket.close_code == 1001
        assert await asyncio.wait_for(process.wait(), 30) == 0
        rest = (await process.stdout.read()).decode()
        assert "parlour server stopped" in rest
        assert "only this machine can connect (--host 0.0.0.0 lets other machines in)" in rest
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_serve_prints_the_addresses_other_machines_reach_it_by(tmp_path: Path) -> None:
    told = ("--advertise", "games.example.org", "--advertise", "203.0.113.7:9000")
    process = await spawn_serve("--port", "0", "--data-dir", str(tmp_path), *told)
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        port = re.search(r"serving ws://127\.0\.0\.1:(\d+)/ws", first)
        assert port, first
        lines = [(await process.stdout.readline()).decode().strip() for _ in range(2)]
        assert lines == [
            f"other machines: ws://games.example.org:{port.group(1)}/ws"
            f" (browser: http://games.example.org:{port.group(1)}/)",
            "other machines: ws://203.0.113.7:9000/ws (browser: http://203.0.113.7:9000/)",
        ]
    finally:
        process.kill()
        await process.wait()


async def test_serve_behind_a_tls_balancer_prints_wss_and_https_for_other_machines(
    tmp_path: Path,
) -> None:
    told = ("--advertise", "https://games.example.org", "--advertise", "wss://203.0.113.7:8443")
    process = await spawn_serve("--port", "0", "--data-dir", str(tmp_path), *told)
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        port = re.search(r"serving ws://127\.0\.0\.1:(\d+)/ws", first)
        assert port, first
        lines = [(await process.stdout.readline()).decode().strip() for _ in range(2)]
        assert lines == [
            "other machines: wss://games.example.org:443/ws"
            " (browser: https://games.example.org:443/)",
            "other machines: wss://203.0.113.7:8443/ws (browser: https://203.0.113.7:8443/)",
        ]
        ann = await Client.open(int(port[1]), "Ann")
        assert ann.welcome is not None and ann.welcome.tls is True
        assert ann.welcome.addresses == ["games.example.org:443", "203.0.113.7:8443"]
        await ann.close()
    finally:
        process.kill()
        await process.wait()


async def test_serve_refuses_addresses_to_advertise_some_over_tls_and_some_not(
    tmp_path: Path,
) -> None:
    told = ("--advertise", "https://games.example.org", "--advertise", "203.0.113.7:9000")
    process = await spawn_serve("--port", "0", "--data-dir", str(tmp_path), *told)
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert "give every address to advertise with https://" in stderr.decode()


async def test_serve_refuses_an_address_to_advertise_that_is_none(tmp_path: Path) -> None:
    process = await spawn_serve("--port", "0", "--advertise", "http://x.org")
    assert await asyncio.wait_for(process.wait(), 30) == 2


async def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    blocker = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = blocker.sockets[0].getsockname()[1]
    try:
        process = await spawn_serve("--port", str(port), "--data-dir", str(tmp_path))
        _, stderr = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 2
        assert f"cannot listen on 127.0.0.1:{port}" in stderr.decode()
    finally:
        blocker.close()


async def test_serve_refuses_a_data_directory_whose_database_it_cannot_use(
    tmp_path: Path,
) -> None:
    database = tmp_path / "parlour.sqlite3"
    database.write_bytes(b"this is not a database, and must stay as it is" * 100)
    before = database.read_bytes()
    process = await spawn_serve("--port", "0", "--data-dir", str(tmp_path))
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert f"cannot use {database} as Parlour's database" in stderr.decode()
    assert database.read_bytes() == before
