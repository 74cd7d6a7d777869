"""A server with a certificate: `https://` and `wss://` on its one port, for clients that
trust its CA; certificate files it cannot use are named with what is wrong before it listens."""

import asyncio
import re
import ssl
import urllib.request
from pathlib import Path

import pytest

from parlour.protocol import messages as m
from parlour.server import ParlourServer, ServerConfig, running_server
from parlour.server.app import tls_context
from parlour.server.tls import TlsError, server_context
from tests.tlsfiles import TlsFiles, make_tls_files

from .serving import spawn_serve
from .wsclient import Client


def trusting(files: TlsFiles) -> ssl.SSLContext:
    """A client's context that trusts the test's CA (as `--ca` would), and nothing else."""
    return ssl.create_default_context(cafile=str(files.ca))


def fetch(url: str, context: ssl.SSLContext | None = None) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5, context=context) as response:
        return response.status, response.read().decode()


def strict_transport(url: str, context: ssl.SSLContext | None = None) -> str | None:
    """The `Strict-Transport-Security` header of the answer to GET `url`."""
    with urllib.request.urlopen(url, timeout=5, context=context) as response:
        value: str | None = response.headers["Strict-Transport-Security"]
        return value


async def test_a_tls_server_welcomes_a_client_that_trusts_its_ca_over_wss(
    tls_server: ParlourServer, tls_files: TlsFiles
) -> None:
    ann = await Client.open(tls_server.port, "Ann", tls=trusting(tls_files))
    assert ann.welcome is not None and ann.welcome.tls is True
    joined = await ann.request(m.CreateRoom(game="othello", seat="black"))
    assert isinstance(joined, m.Joined)
    assert ann.websocket.transport.get_extra_info("ssl_object").version() in ("TLSv1.2", "TLSv1.3")
    await ann.close()


async def test_a_tls_server_answers_https_on_the_same_port(
    tls_server: ParlourServer, tls_files: TlsFiles
) -> None:
    url = f"https://127.0.0.1:{tls_server.port}/healthz"
    assert await asyncio.to_thread(fetch, url, trusting(tls_files)) == (200, "ok\n")


async def test_https_answers_tell_browsers_to_come_back_over_https_for_a_day(
    tls_server: ParlourServer, tls_files: TlsFiles
) -> None:
    for path in ("/", "/healthz", "/rules/othello"):
        url = f"https://127.0.0.1:{tls_server.port}{path}"
        assert await asyncio.to_thread(strict_transport, url, trusting(tls_files)) == (
            "max-age=86400"
        )
    async with running_server(ServerConfig(port=0, bot_workers=1)) as plain:
        assert await asyncio.to_thread(strict_transport, f"http://127.0.0.1:{plain.port}/") is None


async def test_a_client_that_does_not_trust_the_ca_is_refused(tls_server: ParlourServer) -> None:
    with pytest.raises(ssl.SSLCertVerificationError):
        await Client.open(tls_server.port, "Ann", tls=ssl.create_default_context())


async def test_a_server_without_a_certificate_says_it_is_not_reached_over_tls() -> None:
    async with running_server(ServerConfig(port=0, bot_workers=1)) as server:
        ann = await Client.open(server.port, "Ann")
        assert ann.welcome is not None and ann.welcome.tls is False
        await ann.close()


def test_the_context_refuses_tls_below_1_2(tls_files: TlsFiles) -> None:
    context = server_context(tls_files.cert, tls_files.key)
    assert context.minimum_version == ssl.TLSVersion.TLSv1_2
    assert context.protocol == ssl.PROTOCOL_TLS_SERVER


def test_a_key_of_another_certificate_is_named(tls_files: TlsFiles, tmp_path: Path) -> None:
    other = make_tls_files(tmp_path / "other")
    with pytest.raises(TlsError, match=f"the key in {other.key} is not the key of the "):
        server_context(tls_files.cert, other.key)


def test_a_missing_file_is_named(tls_files: TlsFiles, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.pem"
    with pytest.raises(TlsError, match=f"cannot read {missing}: No such file"):
        server_context(missing, tls_files.key)
    with pytest.raises(TlsError, match=f"cannot read {missing}: No such file"):
        server_context(tls_files.cert, missing)


def test_files_that_are_not_pem_are_named(tls_files: TlsFiles, tmp_path: Path) -> None:
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    with pytest.raises(TlsError, match=f"{junk} holds no certificate in PEM form"):
        server_context(junk, tls_files.key)
    with pytest.raises(TlsError, match=f"{junk} holds no private key in PEM form"):
        server_context(tls_files.cert, junk)
    with pytest.raises(TlsError, match=f"{tls_files.key} holds no certificate"):
        server_context(tls_files.key, tls_files.cert)


def test_an_encrypted_key_is_refused_rather_than_asked_for(
    tls_files: TlsFiles, tmp_path: Path
) -> None:
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415

    key = serialization.load_pem_private_key(tls_files.key.read_bytes(), password=None)
    locked = tmp_path / "locked.key"
    locked.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"secret"),
        )
    )
    with pytest.raises(TlsError, match=f"the key in {locked} is encrypted"):
        server_context(tls_files.cert, locked)


def test_a_certificate_without_its_key_is_refused(tls_files: TlsFiles) -> None:
    with pytest.raises(TlsError, match="give both"):
        tls_context(ServerConfig(tls_cert=tls_files.cert))
    assert tls_context(ServerConfig()) is None


async def test_serve_with_a_certificate_prints_wss_and_https_and_serves_them(
    tls_files: TlsFiles, tmp_path: Path
) -> None:
    process = await spawn_serve(
        "--port", "0", "--data-dir", str(tmp_path / "data"),
        "--tls-cert", str(tls_files.cert), "--tls-key", str(tls_files.key),
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        found = re.search(
            r"serving wss://127\.0\.0\.1:(\d+)/ws \(browser: https://127\.0\.0\.1:\1/\)", first
        )
        assert found, first
        ann = await Client.open(int(found.group(1)), "Ann", tls=trusting(tls_files))
        assert ann.welcome is not None and ann.welcome.tls is True
        await ann.close()
    finally:
        process.kill()
        await process.wait()


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--tls-cert", "{cert}"], "--tls-cert needs --tls-key too"),
        (["--tls-key", "{key}"], "--tls-key needs --tls-cert too"),
        (["--tls-cert", "{cert}", "--tls-key", "{other}"], "the key in {other} is not the key"),
        (["--tls-cert", "{missing}", "--tls-key", "{key}"], "cannot read {missing}: No such"),
    ],
)
async def test_serve_names_certificate_files_it_cannot_use_before_listening(
    tls_files: TlsFiles, tmp_path: Path, flags: list[str], said: str
) -> None:
    names = {
        "cert": str(tls_files.cert),
        "key": str(tls_files.key),
        "other": str(make_tls_files(tmp_path / "other").key),
        "missing": str(tmp_path / "missing.pem"),
    }
    process = await spawn_serve(
        "--port", "0", "--data-dir", str(tmp_path / "data"),
        *(flag.format(**names) for flag in flags),
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert said.format(**names) in stderr.decode()
    assert b"serving" not in stdout
