"""The page over `https://` from a `parlour serve` with a certificate, in a Chromium that
trusts that one certificate alone (by its public key): a room made and a move played over
`wss://`, the page's Content-Security-Policy letting its socket through."""

import base64
import hashlib
import re
import ssl
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from playwright.sync_api import Browser, Route, WebSocket, sync_playwright

from tests.tlsfiles import TlsFiles, make_tls_files

from .conftest import CHROMIUM, serving
from .test_page import Player, create_room, open_player, remember_key

__all__ = ["open_player"]  # the page's fixture, here on this module's `browser` and `site`


def spki_hash(certificate: Path) -> str:
    """Base64 of the SHA-256 of the certificate's SubjectPublicKeyInfo: what Chromium's
    `--ignore-certificate-errors-spki-list` names a certificate to trust by."""
    cert = x509.load_pem_x509_certificate(certificate.read_bytes())
    spki = cert.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(hashlib.sha256(spki).digest()).decode()


def spki_flag(files: TlsFiles) -> str:
    """Chromium's flag trusting the server certificate of `files` alone."""
    return f"--ignore-certificate-errors-spki-list={spki_hash(files.cert)}"


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    return make_tls_files(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def browser(tls_files: TlsFiles) -> Iterator[Browser]:
    """Chromium trusting the test's server certificate, and no other unknown one."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=[spki_flag(tls_files)]
        )
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, tls_files: TlsFiles) -> Iterator[str]:
    """A `parlour serve` with the test's certificate: its https:// address."""
    yield from serving(
        "--data-dir", str(tmp_path_factory.mktemp("data")),
        "--tls-cert", str(tls_files.cert), "--tls-key", str(tls_files.key),
    )  # fmt: skip


VIOLATIONS = """
window.violations = [];
document.addEventListener("securitypolicyviolation",
    (event) => window.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
"""
"""Kept from the page's first script on: what its Content-Security-Policy blocked."""


def watch(player: Player) -> list[WebSocket]:
    """The WebSockets the page opens from now on; the policy violations it meets, from its
    next load on, are kept as `window.violations`."""
    opened: list[WebSocket] = []
    # Playwright marks each handler with an attribute, which a built-in method cannot take.
    player.page.on("websocket", lambda socket: opened.append(socket))  # noqa: PLW0108
    player.page.add_init_script(VIOLATIONS)
    return opened


def play_one_move(player: Player) -> None:
    """Make an Othello room against the computer and play the first legal move."""
    create_room(player, "othello", {"black": "you", "white": "easy"})
    player.my_turn()
    version = player.view["version"]
    player.click_square(player.view["state"]["legal_moves"][0])
    player.wait("room.view.version > arg", version)


def test_the_page_over_https_makes_a_room_and_plays_a_move_over_wss(
    open_player: Any, site: str
) -> None:
    assert site.startswith("https://")
    ann: Player = open_player("Ann")
    opened = watch(ann)
    page = ann.page.goto(f"{site}/")
    assert page is not None
    policy = page.headers["content-security-policy"]
    host = site.removeprefix("https://")
    assert re.search(rf"connect-src 'self'[^;]* wss://{re.escape(host)}", policy), policy
    assert page.headers["strict-transport-security"] == "max-age=86400"
    ann.page.wait_for_selector(".lobby")
    play_one_move(ann)
    assert [socket.url for socket in opened] == [f"wss://{host}/ws"]
    assert ann.page.evaluate("() => location.protocol") == "https:"
    assert ann.page.evaluate("() => window.violations") == []
    assert ann.page.locator("#error").inner_text() == ""


def test_connect_src_self_alone_lets_the_page_reach_its_own_wss(
    browser: Browser, site: str, tls_files: TlsFiles
) -> None:
    """Modern Chromium reads 'self' as the page's own origin over wss: too; the policy's
    own `wss://HOST` is for older browsers, and is not what lets the socket through here.

    A page the test hands over itself comes, for Chromium, from no local address, so its
    checks of connections into the local network are turned off for this one browser."""

    def self_only(route: Route) -> None:
        """The page as the server sends it, its policy's connect-src cut to 'self' (fetched
        here, trusting the test's CA: Playwright's own fetching would not)."""
        trusted = ssl.create_default_context(cafile=str(tls_files.ca))
        with urllib.request.urlopen(route.request.url, timeout=10, context=trusted) as sent:
            headers = {name.lower(): value for name, value in sent.headers.items()}
            body = sent.read()
        policy = headers["content-security-policy"]
        headers["content-security-policy"] = re.sub(
            r"connect-src [^;]*", "connect-src 'self'", policy
        )
        route.fulfill(status=200, headers=headers, body=body)

    relaxed = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[spki_flag(tls_files), "--disable-features=LocalNetworkAccessChecks"],
    )
    try:
        context = relaxed.new_context(viewport={"width": 1200, "height": 900})
        remember_key(context, "Bea")
        bea = Player(context.new_page())
        bea.page.route(re.compile(r"/$"), self_only)
        opened = watch(bea)
        page = bea.page.goto(f"{site}/")
        assert page is not None
        assert "connect-src 'self';" in page.headers["content-security-policy"]
        bea.page.fill("#name", "Bea")
        bea.page.click("text=Continue")
        bea.page.wait_for_selector(".lobby")
        play_one_move(bea)
        assert [socket.url for socket in opened] == [f"wss://{site.removeprefix('https://')}/ws"]
        assert bea.page.evaluate("() => window.violations") == []
        assert bea.errors == []
    finally:
        relaxed.close()
