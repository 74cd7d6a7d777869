"""SIGHUP to `parlour serve` with a certificate: renewed files are served to the next
handshakes while open connections play on; files it cannot use leave the old certificate."""

import asyncio
import os
import re
import signal
import ssl
from pathlib import Path

from cryptography import x509

from parlour.protocol import messages as m
from tests.tlsfiles import make_tls_files

from .serving import spawn_serve
from .wsclient import Client

WAIT = 30.0


def serial_of(certificate: Path) -> int:
    """The serial number of the first certificate in a PEM file."""
    return x509.load_pem_x509_certificate(certificate.read_bytes()).serial_number


def served_serial(client: Client) -> int:
    """The serial number of the certificate the server showed `client`."""
    peer = client.websocket.transport.get_extra_info("ssl_object").getpeercert()
    return int(peer["serialNumber"], 16)


def replace(path: Path, data: bytes) -> None:
    """Put `data` at `path` in one step, as an ACME client renewing a certificate does."""
    fresh = path.with_name(path.name + ".new")
    fresh.write_bytes(data)
    os.replace(fresh, path)


async def line_saying(stream: asyncio.StreamReader, text: str) -> str:
    """The next line of `stream` that says `text`."""
    async with asyncio.timeout(WAIT):
        while line := (await stream.readline()).decode():
            if text in line:
                return line
    raise AssertionError(f"the server ended without saying {text!r}")


async def serving_port(process: asyncio.subprocess.Process) -> int:
    """The port a `parlour serve` with a certificate printed it serves on."""
    assert process.stdout is not None
    found = re.search(r"wss://127\.0\.0\.1:(\d+)/ws", await line_saying(process.stdout, "serving"))
    assert found
    return int(found[1])


async def test_sighup_serves_a_renewed_certificate_to_new_connections_only(
    tmp_path: Path,
) -> None:
    live = make_tls_files(tmp_path / "live")
    renewed = make_tls_files(tmp_path / "renewed", authority=live.authority, tag="2")
    assert serial_of(renewed.cert) != serial_of(live.cert)
    trusted = ssl.create_default_context(cafile=str(live.ca))
    process = await spawn_serve(
        "--port", "0", "--data-dir", str(tmp_path / "data"),
        "--tls-cert", str(live.cert), "--tls-key", str(live.key),
    )  # fmt: skip
    assert process.stderr is not None
    try:
        port = await serving_port(process)
        ann = await Client.open(port, "Ann", tls=trusted)
        assert served_serial(ann) == serial_of(live.cert)
        joined = await ann.request(m.CreateRoom(game="othello", seat="black"))
        assert isinstance(joined, m.Joined)
        room = joined.room["room"]
        await ann.request(m.FillBots(room=room))

        replace(live.cert, renewed.cert.read_bytes())
        replace(live.key, renewed.key.read_bytes())
        process.send_signal(signal.SIGHUP)
        said = await line_saying(process.stderr, "certificate reloaded")
        assert str(live.cert) in said

        bea = await Client.open(port, "Bea", tls=trusted)
        assert served_serial(bea) == serial_of(renewed.cert)
        assert isinstance(await bea.request(m.Spectate(room=room)), m.Watching)
        assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
        assert isinstance(await ann.request(m.Move(room=room, version=0, move="d3")), m.Ok)
        assert (await bea.update(1)).move == "d3"
        assert (await ann.update(2)).seat == "white", "the bot's answer reaches Ann"
        await ann.close()
        await bea.close()
    finally:
        process.kill()
        await process.wait()


async def test_sighup_with_files_it_cannot_use_keeps_the_certificate_it_serves(
    tmp_path: Path,
) -> None:
    live = make_tls_files(tmp_path / "live")
    other = make_tls_files(tmp_path / "other", authority=live.authority, tag="2")
    trusted = ssl.create_default_context(cafile=str(live.ca))
    process = await spawn_serve(
        "--port", "0", "--data-dir", str(tmp_path / "data"),
        "--tls-cert", str(live.cert), "--tls-key", str(live.key),
    )  # fmt: skip
    assert process.stderr is not None
    try:
        port = await serving_port(process)
        ann = await Client.open(port, "Ann", tls=trusted)
        served = serial_of(live.cert)

        replace(live.cert, other.cert.read_bytes())  # the renewal half written: the old key
        process.send_signal(signal.SIGHUP)
        said = await line_saying(process.stderr, "certificate not reloaded")
        assert f"the key in {live.key} is not the key of the certificate in {live.cert}" in said
        bea = await Client.open(port, "Bea", tls=trusted)
        assert served_serial(bea) == served

        replace(live.key, b"")
        process.send_signal(signal.SIGHUP)
        said = await line_saying(process.stderr, "certificate not reloaded")
        assert f"{live.key} holds no private key" in said
        cid = await Client.open(port, "Cid", tls=trusted)
        assert served_serial(cid) == served

        assert isinstance(await ann.request(m.CreateRoom(game="numlo")), m.Joined)
        assert process.returncode is None
        for client in (ann, bea, cid):
            await client.close()
    finally:
        process.kill()
        await process.wait()
