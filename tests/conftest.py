"""Fixtures more than one folder of tests uses: a server that serves TLS with certificates
made by a CA of the test's own."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from parlour.server import ParlourServer, ServerConfig, running_server
from tests.mailbox import Mailbox
from tests.tlsfiles import TlsFiles, make_tls_files


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
