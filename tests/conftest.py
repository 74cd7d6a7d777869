"""Fixtures more than one folder of tests uses: every frame checked against the protocol's
JSON Schema, and a server that serves TLS with certificates made by a CA of the test's own."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from parlour.server import ParlourServer, ServerConfig, running_server
from tests.mailbox import Mailbox
from tests.schemacheck import checking
from tests.tlsfiles import TlsFiles, make_tls_files

SHOWN_VIOLATIONS = 5


@pytest.fixture(autouse=True)
def frames_follow_the_schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test if a frame its servers or clients sent breaks `schemas/` (protocol.md
    2): every message, both ways, both subprotocols (`tests/schemacheck.py`)."""
    with checking(monkeypatch) as checker:
        yield
    found = checker.taken()
    if found:
        distinct = list(dict.fromkeys(found))
        shown = "\n".join(distinct[:SHOWN_VIOLATIONS])
        more = len(distinct) - SHOWN_VIOLATIONS
        tail = f"\n... and {more} more" if more > 0 else ""
        pytest.fail(f"{len(found)} frames broke the protocol's schema:\n{shown}{tail}")


@pytest.fixture
def tls_files(tmp_path: Path) -> TlsFiles:
    return make_tls_files(tmp_path / "tls")


@pytest.fixture
async def tls_server(tls_files: TlsFiles) -> AsyncIterator[ParlourServer]:
    """A server on `wss://127.0.0.1:PORT/ws`, its certificate signed by `tls_files`' CA."""
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        tick_interval=0.05,
        bot_workers=1,
        tls_cert=tls_files.cert,
        tls_key=tls_files.key,
    )
    async with running_server(config) as running:
        yield running


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    """A real SMTP server in this process, on a free loopback port, keeping what it gets."""
    box = Mailbox()
    box.start()
    try:
        yield box
    finally:
        box.stop()
