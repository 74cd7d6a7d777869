"""A real server on a free loopback port for each test that asks for one, and each test's
own data folders."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from parlour.server import ParlourServer, ServerConfig, running_server


@pytest.fixture
async def server() -> AsyncIterator[ParlourServer]:
    config = ServerConfig(host="127.0.0.1", port=0, tick_interval=0.05, bot_workers=1)
    async with running_server(config) as running:
        yield running


@pytest.fixture(autouse=True)
def own_data_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's own data and config folders, for what it and the programs it starts keep
    (a player key, a name, seats, a server's rooms): never the user's, nor another test's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
