"""The client over TLS against a real server serving `wss://` with a certificate from a CA
made in the test: verified by default, `--ca` to trust that CA, a refused certificate said
in a sentence (and never dialled again, nor made plain), and the printed commands, the
seat book and the invitations keeping the scheme."""

import asyncio
import datetime
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trustme

from parlour.cli import main
from parlour.client.connection import (
    CertificateError,
    ConnectError,
    Connection,
    Dropped,
    Reconnected,
    invitation,
    join_command,
    server_option,
    server_url,
)
from parlour.client.invocation import parlour_command
from parlour.client.seatbook import SeatBook
from parlour.client.terminal.app import ParlourApp
from parlour.client.tls import client_context
from parlour.protocol import messages as m
from parlour.server import ParlourServer, ServerConfig, running_server
from tests.tlsfiles import TlsFiles

from .terminal.test_app import SCREEN, click_square, screen_of, seated, until
from .test_connection import FAST_RETRY, next_of

WAIT = 60.0
"""Seconds for a command in a process of its own to start and finish on a busy machine."""


@pytest.mark.parametrize(
    ("url", "option"),
    [
        ("ws://example.org:8765/ws", "--server example.org:8765"),
        ("wss://example.org:8765/ws", "--server wss://example.org:8765"),
        ("wss://example.org/parlour/ws", "--server wss://example.org/parlour/ws"),
        ("ws://example.org:80/game", "--server ws://example.org:80/game"),
    ],
)
def test_printed_server_options_keep_the_scheme_and_read_back_the_same(
    url: str, option: str
) -> None:
    assert server_option(url) == option
    assert server_url(option.removeprefix("--server ")) == url
    assert join_command(url, "AB12") == f"{parlour_command()} join AB12 {option}"


def test_a_ca_is_printed_for_the_shell_to_read_back() -> None:
    ca = Path("/home/ann/my certs/ca.pem")
    assert (
        server_option("wss://example.org:443/ws", ca)
        == "--server wss://example.org:443 --ca '/home/ann/my certs/ca.pem'"
    )


def welcome(*, tls: bool, addresses: list[str] | None) -> m.Welcome:
    return m.Welcome(version=1, server="test", games=[], addresses=addresses, tls=tls)


def test_an_invitation_says_wss_and_https_when_the_server_says_tls() -> None:
    here = Connection("ws://127.0.0.1:8765/ws", "ann")
    here.welcome = welcome(tls=True, addresses=["friend.example:443"])
    words = invitation(here, "AB12")
    assert f"{parlour_command()} join AB12 --server wss://friend.example:443\n" in words
    assert words.endswith("https://friend.example:443/r/AB12")
    here.welcome = welcome(tls=False, addresses=["friend.example:8765"])
    assert "join AB12 --server friend.example:8765\n" in invitation(here, "AB12")


async def test_behind_a_tls_balancer_a_plain_connection_invites_over_wss() -> None:
    """A node reached in the clear on this machine, advertised at `https://` (a balancer
    ending TLS in front): friends are given the balancer's `wss://` and `https://`."""
    config = ServerConfig(host="127.0.0.1", port=0, advertise=("https://games.example",))
    async with running_server(config) as node:
        here = await Connection.open(f"ws://127.0.0.1:{node.port}/ws", "ann")
        try:
            assert here.welcome is not None and here.welcome.tls
            words = invitation(here, "AB12")
        finally:
            await here.close()
    assert "join AB12 --server wss://games.example:443\n" in words
    assert words.endswith("https://games.example:443/r/AB12")


def test_an_invitation_over_wss_is_never_plain() -> None:
    here = Connection("wss://127.0.0.1:8765/ws", "ann")
    here.welcome = welcome(tls=False, addresses=["friend.example:8765"])
    words = invitation(here, "AB12")
    assert "--server wss://friend.example:8765\n" in words
    assert "https://friend.example:8765/r/AB12" in words


def test_an_invitation_with_a_private_ca_names_the_file_friends_save_it_as(
    tls_files: TlsFiles,
) -> None:
    """The path here means nothing on a friend's machine: the command names the file by its
    name, and the note says which file here to send."""
    here = Connection("wss://127.0.0.1:8765/ws", "ann", ca=tls_files.ca)
    here.welcome = welcome(tls=True, addresses=["friend.example:8765"])
    words = invitation(here, "AB12")
    assert "join AB12 --server wss://friend.example:8765 --ca ca.pem\n" in words
    assert f"Send them {tls_files.ca} (it holds no secret) to save as ca.pem\n" in words


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["join", "AB12", "--ca", "{missing}"], "--ca names no file: {missing}"),
        (["mine", "--ca", "{not_pem}"], "--ca names {not_pem}, which holds no CA certificate in"),
    ],
)
def test_a_ca_file_that_is_no_certificate_is_refused_before_connecting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    not_pem = tmp_path / "notes.txt"
    not_pem.write_text("not a certificate\n")
    files = {"missing": tmp_path / "nothing.pem", "not_pem": not_pem}
    with pytest.raises(SystemExit) as exited:
        main([word.format(**files) for word in argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert said.format(**files) in err and "Traceback" not in err


async def test_a_connection_given_no_ca_file_says_so_before_dialling(tmp_path: Path) -> None:
    with pytest.raises(ConnectError, match=f"^--ca names no file: {tmp_path / 'none.pem'}$"):
        await Connection.open("wss://127.0.0.1:1/ws", "ann", ca=tmp_path / "none.pem")


@pytest.mark.parametrize("command", [["join", "AB12"], ["leaderboard", "othello"]])
def test_a_ca_for_a_plain_server_is_refused(
    tls_files: TlsFiles, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    argv = [*command, "--server", "127.0.0.1:1", "--ca", str(tls_files.ca)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"parlour {command[0]}: error: --ca trusts a CA for a server reached")
    assert "give --server wss://HOST:PORT" in err


async def test_over_wss_with_the_ca_the_connection_plays_and_comes_back(
    wss_url: str, tls_files: TlsFiles
) -> None:
    connection = await Connection.open(wss_url, "ann", ca=tls_files.ca, retry_delays=FAST_RETRY)
    try:
        assert connection.welcome is not None and connection.welcome.tls
        joined = await connection.request(m.CreateRoom(game="othello", seat="black"))
        assert isinstance(joined, m.Joined)
        room = joined.room["room"]
        await connection.request(m.Join(room=room, seat="white", name="Bea"))
        await connection.request(m.Start(room=room))
        await connection.request(m.Move(room=room, version=0, move="d3"))
        websocket = connection._websocket
        assert websocket is not None and websocket.transport.get_extra_info("ssl_object")
        websocket.transport.abort()
        await next_of(connection, Dropped)
        assert isinstance(await next_of(connection, Reconnected), Reconnected)
        again = await connection.request(m.Join(room=room, token=joined.token))
        assert isinstance(again, m.Joined) and again.room["moves"] == ["d3"]
        assert connection._websocket is not None
        assert connection._websocket.transport.get_extra_info("ssl_object") is not None
    finally:
        await connection.close()


def write_leaf(folder: Path, kind: str, authority: trustme.CA) -> tuple[Path, Path]:
    """A server certificate and key that a client trusting `authority` refuses: for
    another name, out of date, or signed by nobody but itself."""
    cert, key = folder / f"{kind}.pem", folder / f"{kind}.key"
    if kind == "self-signed":
        alone = trustme.CA(organization_name="Nobody in particular")
        alone.cert_pem.write_to_path(str(cert))
        alone.private_key_pem.write_to_path(str(key))
        return cert, key
    if kind == "other-name":
        issued = authority.issue_cert("parlour.example")
    else:
        issued = authority.issue_cert(
            "127.0.0.1",
            not_before=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC),
            not_after=datetime.datetime(2021, 1, 1, tzinfo=datetime.UTC),
        )
    cert.write_bytes(b"".join(blob.bytes() for blob in issued.cert_chain_pems))
    issued.private_key_pem.write_to_path(str(key))
    return cert, key


@asynccontextmanager
async def serving(cert: Path, key: Path) -> AsyncIterator[ParlourServer]:
    config = ServerConfig(host="127.0.0.1", port=0, bot_workers=1, tls_cert=cert, tls_key=key)
    async with running_server(config) as running:
        yield running


async def test_a_server_signed_by_an_unknown_ca_is_refused_saying_why(
    wss_url: str, tls_files: TlsFiles
) -> None:
    with pytest.raises(CertificateError) as refused:
        await Connection.open(wss_url, "ann")
    said = str(refused.value)
    assert said.startswith(f"cannot connect to {wss_url} securely: its certificate is not")
    assert "signed by an authority this machine trusts" in said
    assert "give that CA's with --ca FILE" in said
    other = make_ca_file(tls_files.ca.parent)
    with pytest.raises(CertificateError, match=f"not signed by the CA in {other} nor any"):
        await Connection.open(wss_url, "ann", ca=other)


def make_ca_file(folder: Path) -> Path:
    path = folder / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(path))
    return path


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("other-name", "its certificate is not for the name 127.0.0.1 (IP address mismatch"),
        ("expired", "its certificate is out of date (certificate has expired)"),
        ("self-signed", "its certificate is self-signed (self-signed certificate), not signed"),
    ],
)
async def test_a_bad_certificate_is_refused_even_with_the_ca(
    tls_files: TlsFiles, kind: str, said: str
) -> None:
    cert, key = write_leaf(tls_files.ca.parent, kind, tls_files.authority)
    async with serving(cert, key) as server:
        url = f"wss://127.0.0.1:{server.port}/ws"
        with pytest.raises(CertificateError) as refused:
            await Connection.open(url, "ann", ca=tls_files.ca)
        assert not server.lobby.people.names
    assert str(refused.value).startswith(f"cannot connect to {url} securely: {said}")
    assert "--ca FILE" in str(refused.value)


async def test_a_certificate_refused_on_reconnecting_ends_the_trying(
    wss_url: str, tls_files: TlsFiles
) -> None:
    connection = await Connection.open(wss_url, "ann", ca=tls_files.ca, retry_delays=FAST_RETRY)
    try:
        connection._tls = client_context()  # the CA is no longer trusted, as after a renewal
        websocket = connection._websocket
        assert websocket is not None
        websocket.transport.abort()
        assert isinstance(await next_of(connection, Dropped), Dropped)
        stopped = await next_of(connection, Dropped)
        assert isinstance(stopped, Dropped) and stopped.final
        assert "securely: its certificate is not signed by" in stopped.reason
        assert stopped.reason.endswith("; not reconnecting")
        assert connection._reader is not None
        await asyncio.wait_for(connection._reader, 5)
    finally:
        await connection.close()


async def test_wss_is_never_made_plain_and_plain_hints_at_wss(
    url: str, wss_url: str, server: ParlourServer
) -> None:
    plain_port = url.rsplit(":", 1)[1]
    with pytest.raises(ConnectError, match="the TLS handshake failed") as refused:
        await Connection.open(f"wss://127.0.0.1:{plain_port}", "ann")
    assert not isinstance(refused.value, CertificateError)
    assert not server.lobby.people.names, "no hello reached the plain server"
    with pytest.raises(ConnectError, match="if it serves TLS, its address is wss://HOST:PORT"):
        await Connection.open(wss_url.replace("wss://", "ws://"), "ann")


async def test_the_terminal_client_over_wss_plays_and_keeps_the_seat_by_wss(
    wss_url: str, tls_files: TlsFiles, tmp_path: Path
) -> None:
    connection = await Connection.open(wss_url, "ann", ca=tls_files.ca)
    book = SeatBook(tmp_path / "seats.json")
    try:
        room = await seated(connection, "othello", "black", bots="easy", public=False)
        legal = room.observation["legal_moves"] if room.observation else []
        app = ParlourApp(connection, room, book=book)
        async with app.run_test(size=SCREEN) as pilot:
            await click_square(pilot, app, legal[0])
            await until(pilot, lambda: screen_of(app).room.version >= 1, "the move came back")
            assert screen_of(app).room.view["moves"][0] == legal[0]
            back = app.come_back(screen_of(app).room)
    finally:
        await connection.close()
    port = wss_url.removesuffix("/ws").rsplit(":", 1)[1]
    assert back == (
        f"{parlour_command()} join {room.ref} --server wss://127.0.0.1:{port} --ca {tls_files.ca}"
    )
    held = book.find(wss_url, room.ref)
    assert held is not None and held.ca == str(tls_files.ca) and held.come_back() == back
    assert book.find(wss_url.replace("wss://", "ws://"), room.ref) is None, "never sent plain"


async def test_rooms_reaches_a_wss_server_with_the_ca_its_seat_was_taken_with(
    wss_url: str,
    tls_files: TlsFiles,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    connection = await Connection.open(wss_url, "ann", ca=tls_files.ca)
    try:
        room = await seated(connection, "othello", "black", bots="easy", public=False)
        SeatBook().keep(
            wss_url, room.ref, str(room.token), "othello", ["black"], host=True, ca=tls_files.ca
        )
        status = await asyncio.to_thread(main, ["rooms"])
    finally:
        await connection.close()
    out = capsys.readouterr().out
    assert status == 0
    assert f"On {wss_url}:\n  Othello Black  playing: Your move\n" in out
    assert f"    {join_command(wss_url, room.ref, tls_files.ca)}" in out


def command_env(home: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)}


async def run_command(*argv: str, home: Path) -> tuple[int, str, str]:
    """`python -m parlour ARGV` in a process of its own: its status, output and errors."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "parlour",
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=command_env(home),
    )
    out, err = await asyncio.wait_for(process.communicate(), WAIT)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_commands_without_the_ca_fail_with_one_readable_line(
    wss_url: str, tls_files: TlsFiles, tmp_path: Path
) -> None:
    server = wss_url.removesuffix("/ws")
    commands = [
        ["join", "AB12", "--server", server],
        ["host", "othello", "--server", server.replace("wss://", "https://")],
        ["mine", "--server", server],
    ]
    done = await asyncio.gather(*(run_command(*argv, home=tmp_path) for argv in commands))
    for argv, (status, out, err) in zip(commands, done, strict=True):
        assert status == 2, (argv, out, err)
        assert err.startswith(f"parlour {argv[0]}: error: cannot connect to {wss_url} securely")
        assert "its certificate is not signed by an authority this machine trusts" in err
        assert "--ca FILE" in err
        assert err.count("\n") == 1 and "Traceback" not in err
    status, out, err = await run_command(
        "leaderboard", "othello", "--server", server, "--ca", str(tls_files.ca), home=tmp_path
    )
    assert (status, err) == (0, "")
    assert "Othello" in out
