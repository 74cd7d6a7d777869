"""The compose file's HAProxy terminating TLS, run for real from deploy/haproxy.cfg with a
certificate of the test's CA: in front of a stand-in node that records what reaches it (the
redirect, HSTS, the scheme passed on, /metrics kept back, ACME challenges, old TLS refused),
then in front of two real nodes on Redis, where players over wss play, and play on while a
renewed certificate is loaded by SIGHUP."""

import asyncio
import http.server
import os
import shutil
import ssl
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from parlour.protocol import messages as m

from ..server.wsclient import Client
from ..tlsfiles import TlsFiles, make_tls_files
from .balancer import Balancer, fetch, free_ports, running_balancer, trusting, until_status
from .conftest import StartNode
from .processes import START_TIMEOUT

HSTS = "max-age=31536000"
THUMBPRINT = "nCMMnrk-TJ5t6RLRhWSoE5Bm5FxuE6iVHNSgwU9uGe0"


@dataclass
class StandIn:
    """A node's stand-in: answers every GET with 200 and notes what it was asked."""

    port: int = 0
    seen: list[tuple[str, dict[str, list[str]]]] = field(default_factory=list)

    def paths(self) -> list[str]:
        """What players asked for (HAProxy's health checks left out)."""
        return [path for path, _ in self.seen if path != "/healthz"]

    def headers(self, path: str) -> dict[str, list[str]]:
        """The headers of the last request for `path`, each with all its values."""
        return [headers for seen, headers in self.seen if seen == path][-1]


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    found = StandIn()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            named: dict[str, list[str]] = {}
            for name, value in self.headers.items():
                named.setdefault(name.lower(), []).append(value)
            found.seen.append((self.path, named))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "3")
            self.end_headers()
            self.wfile.write(b"ok\n")

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    found.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield found
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def tls(tmp_path: Path) -> TlsFiles:
    return make_tls_files(tmp_path / "made")


@pytest.fixture
def certs(tmp_path: Path, tls: TlsFiles) -> Path:
    """The balancer's certificate folder, holding one chain-and-key PEM as an operator's."""
    folder = tmp_path / "certs"
    folder.mkdir()
    shutil.copy(tls.combined, folder / "games.example.org.pem")
    return folder


async def ready(balancer: Balancer, ca: Path) -> None:
    """Wait until HAProxy has found a node up behind it, over https."""
    url = f"https://127.0.0.1:{balancer.https_port}/healthz"
    await until_status(url, 200, trusting(ca))


@pytest.fixture
async def front(
    tmp_path: Path, stand_in: StandIn, certs: Path, tls: TlsFiles
) -> AsyncIterator[Balancer]:
    """HAProxy with TLS, as shipped, in front of the stand-in (as both nodes)."""
    async with running_balancer(tmp_path, [stand_in.port] * 2, certs, {}) as balancer:
        await ready(balancer, tls.ca)
        yield balancer


def der(chain: Path) -> bytes:
    """The first certificate of a PEM chain, as DER."""
    text = chain.read_text()
    end = "-----END CERTIFICATE-----"
    return ssl.PEM_cert_to_DER_cert(text[: text.index(end) + len(end)])


# --- in front of a stand-in -----------------------------------------------------------------


async def test_plain_http_is_sent_to_the_same_place_over_https_which_says_to_stay_there(
    front: Balancer, stand_in: StandIn, tls: TlsFiles
) -> None:
    plain = await fetch(f"http://127.0.0.1:{front.http_port}/r/ABCD?seat=white")
    assert plain.status == 301
    location = plain.headers["Location"]
    assert location == f"https://127.0.0.1:{front.https_port}/r/ABCD?seat=white"
    assert stand_in.paths() == [], "nothing reaches a node in the clear"

    secure = await fetch(location, trusting(tls.ca))
    assert (secure.status, secure.body) == (200, b"ok\n")
    assert secure.headers["Strict-Transport-Security"] == HSTS
    assert secure.certificate == der(tls.cert)
    assert stand_in.paths() == ["/r/ABCD?seat=white"]


async def test_the_redirect_keeps_the_host_the_player_asked_for(front: Balancer) -> None:
    for host in ("games.example.org", f"games.example.org:{front.http_port}"):
        plain = await fetch(f"http://127.0.0.1:{front.http_port}/", headers={"Host": host})
        assert plain.status == 301
        assert plain.headers["Location"] == f"https://games.example.org:{front.https_port}/"


async def test_the_nodes_are_told_the_player_came_over_https_whatever_the_player_says(
    front: Balancer, stand_in: StandIn, tls: TlsFiles
) -> None:
    lying = {"X-Forwarded-Proto": "http", "X-Forwarded-For": "203.0.113.9"}
    reply = await fetch(f"https://127.0.0.1:{front.https_port}/", trusting(tls.ca), lying)
    assert reply.status == 200
    told = stand_in.headers("/")
    assert told["x-forwarded-proto"] == ["https"]
    assert told["x-forwarded-for"][-1].split(",")[-1].strip() == "127.0.0.1", (
        "the address HAProxy saw comes last, where the nodes read it"
    )


@pytest.mark.parametrize("path", ["/metrics", "/metrics?name=x", "/metrics/"])
async def test_metrics_are_refused_at_the_balancer_over_https_and_http(
    front: Balancer, stand_in: StandIn, tls: TlsFiles, path: str
) -> None:
    secure = await fetch(f"https://127.0.0.1:{front.https_port}{path}", trusting(tls.ca))
    assert secure.status == 403
    plain = await fetch(f"http://127.0.0.1:{front.http_port}{path}")
    assert plain.status == 403
    assert stand_in.paths() == []
    healthz = await fetch(f"https://127.0.0.1:{front.https_port}/healthz", trusting(tls.ca))
    assert healthz.status == 200, "health stays open: other balancers ask it"


async def test_without_a_thumbprint_acme_challenges_are_redirected_like_anything(
    front: Balancer,
) -> None:
    challenge = await fetch(f"http://127.0.0.1:{front.http_port}/.well-known/acme-challenge/t")
    assert challenge.status == 301


async def test_with_a_thumbprint_haproxy_answers_acme_challenges_over_plain_http(
    tmp_path: Path, stand_in: StandIn, certs: Path, tls: TlsFiles
) -> None:
    settings = {"PARLOUR_ACME_THUMBPRINT": THUMBPRINT}
    async with running_balancer(tmp_path, [stand_in.port] * 2, certs, settings) as balancer:
        await ready(balancer, tls.ca)
        token = "LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0"
        url = f"http://127.0.0.1:{balancer.http_port}/.well-known/acme-challenge/{token}"
        answer = await fetch(url)
        assert (answer.status, answer.body.decode()) == (200, f"{token}.{THUMBPRINT}")
        assert answer.headers["Content-Type"] == "text/plain"
        other = await fetch(f"http://127.0.0.1:{balancer.http_port}/")
        assert other.status == 301
    assert stand_in.paths() == []


def old_client(ca: Path, highest: ssl.TLSVersion, ciphers: str) -> ssl.SSLContext:
    """A client that offers TLS up to `highest` with `ciphers`, weak ones allowed, so that
    any refusal is the server's."""
    context = trusting(ca)
    context.minimum_version = ssl.TLSVersion.TLSv1
    context.maximum_version = highest
    context.set_ciphers(f"{ciphers}:@SECLEVEL=0")
    return context


@pytest.mark.filterwarnings("ignore:ssl.TLSVersion.TLSv1:DeprecationWarning")
async def test_tls_older_than_1_2_and_ciphers_without_forward_secret_aead_are_refused(
    front: Balancer, tls: TlsFiles
) -> None:
    url = f"https://127.0.0.1:{front.https_port}/"
    modern = old_client(tls.ca, ssl.TLSVersion.TLSv1_2, "ECDHE-ECDSA-AES128-GCM-SHA256")
    assert (await fetch(url, modern)).status == 200, "the same client, TLS 1.2, gets through"

    tls11 = old_client(tls.ca, ssl.TLSVersion.TLSv1_1, "ALL")
    with pytest.raises(ssl.SSLError) as refused:
        await fetch(url, tls11)
    assert refused.value.reason == "TLSV1_ALERT_PROTOCOL_VERSION"

    cbc = old_client(tls.ca, ssl.TLSVersion.TLSv1_2, "ECDHE-ECDSA-AES128-SHA")
    with pytest.raises(ssl.SSLError) as refused:
        await fetch(url, cbc)
    assert refused.value.reason == "SSLV3_ALERT_HANDSHAKE_FAILURE"


async def test_without_tls_the_balancer_serves_plain_http_alone(
    tmp_path: Path, stand_in: StandIn
) -> None:
    plain = {"PARLOUR_TLS": "off"}
    absent = tmp_path / "no-certificates"
    async with running_balancer(tmp_path, [stand_in.port] * 2, absent, plain) as balancer:
        reply = await until_status(f"http://127.0.0.1:{balancer.http_port}/r/ABCD", 200)
        assert "Strict-Transport-Security" not in reply.headers
        assert stand_in.headers("/r/ABCD")["x-forwarded-proto"] == ["http"]
        with pytest.raises(ConnectionRefusedError):
            await fetch(f"https://127.0.0.1:{balancer.https_port}/", ssl.create_default_context())
        metrics = await fetch(f"http://127.0.0.1:{balancer.http_port}/metrics")
        assert metrics.status == 403


# --- in front of two real nodes -------------------------------------------------------------


@dataclass
class Game:
    """Ann (black) and Bob (white) in a started 5x5 Othello room, over wss."""

    ann: Client
    bob: Client
    ref: str

    async def move(self, mover: Client, watcher: Client) -> int:
        """The mover plays the first legal move; the version it made, which the watcher saw."""
        view = await mover.request(m.GetRoom(room=self.ref))
        assert isinstance(view, m.RoomView), view
        room = view.room
        move = room["state"]["legal_moves"][0]
        answer = await mover.request(m.Move(room=self.ref, version=room["version"], move=move))
        assert isinstance(answer, m.Ok), answer
        version = int(room["version"]) + 1
        update = await watcher.update(version)
        assert update.version == version
        return version


async def open_game(port: int, context: ssl.SSLContext) -> Game:
    ann = await Client.open(port, "Ann", tls=context)
    joined = await ann.request(m.CreateRoom(game="othello", seat="black", board=5))
    assert isinstance(joined, m.Joined), joined
    ref = joined.room["room"]
    bob = await Client.open(port, "Bob", tls=context)
    taken = await bob.request(m.Join(room=ref, seat="white"))
    assert isinstance(taken, m.Joined), taken
    assert isinstance(await ann.request(m.Start(room=ref)), m.Ok)
    return Game(ann, bob, ref)


@pytest.fixture
def ports() -> tuple[int, int]:
    """The balancer's (http, https) ports, known before the nodes that advertise them."""
    return free_ports()


async def start_nodes(start: StartNode, https_port: int) -> list[int]:
    """Two nodes that name the balancer's https address in their invitations; their ports."""
    advertise = ("--advertise", f"https://127.0.0.1:{https_port}")
    nodes = await asyncio.gather(start(*advertise), start(*advertise))
    return [node.port for node in nodes]


async def test_players_over_wss_through_the_balancer_play_and_are_told_its_https_address(
    start: StartNode, tmp_path: Path, certs: Path, tls: TlsFiles, ports: tuple[int, int]
) -> None:
    node_ports = await start_nodes(start, ports[1])
    async with running_balancer(tmp_path, node_ports, certs, {}, ports) as balancer:
        await ready(balancer, tls.ca)
        game = await open_game(balancer.https_port, trusting(tls.ca))
        await game.move(game.ann, game.bob)
        await game.move(game.bob, game.ann)
        for client in (game.ann, game.bob):
            assert client.welcome is not None
            assert client.welcome.addresses == [f"127.0.0.1:{balancer.https_port}"]
            assert client.welcome.tls is True, "invitations say wss:// and https://"

        with pytest.raises(ssl.SSLCertVerificationError):
            await Client.open(balancer.https_port, "Eve", tls=ssl.create_default_context())
        await game.ann.close()
        await game.bob.close()


def install(certs: Path, chain_and_key: Path) -> None:
    """Replace the certificate file whole, as deploy/install-certificate does."""
    partial = certs / ".games.example.org.pem.partial"
    shutil.copy(chain_and_key, partial)
    os.replace(partial, certs / "games.example.org.pem")


async def test_a_renewed_certificate_reloaded_by_sighup_is_served_while_games_go_on(
    start: StartNode, tmp_path: Path, certs: Path, tls: TlsFiles, ports: tuple[int, int]
) -> None:
    node_ports = await start_nodes(start, ports[1])
    context = trusting(tls.ca)
    async with running_balancer(tmp_path, node_ports, certs, {}, ports) as balancer:
        await ready(balancer, tls.ca)
        game = await open_game(balancer.https_port, context)
        await game.move(game.ann, game.bob)
        url = f"https://127.0.0.1:{balancer.https_port}/healthz"
        assert (await fetch(url, context)).certificate == der(tls.cert)

        renewed = make_tls_files(tmp_path / "renewed", authority=tls.authority, tag="2")
        install(certs, renewed.combined)
        balancer.reload()
        async with asyncio.timeout(START_TIMEOUT):
            while (await until_status(url, 200, context)).certificate != der(renewed.cert):
                await asyncio.sleep(0.1)

        await game.move(game.bob, game.ann)
        await game.move(game.ann, game.bob)
        carol = await Client.open(balancer.https_port, "Carol", tls=context)
        view = await carol.request(m.GetRoom(room=game.ref))
        assert isinstance(view, m.RoomView), view
        assert view.room["version"] == 3
        for client in (game.ann, game.bob, carol):
            await client.close()
