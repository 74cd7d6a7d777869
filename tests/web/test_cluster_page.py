"""The page on a cluster node whose Redis goes away mid-game: a move clicked meanwhile is
sent again until Redis is back, and is played, with no error shown (protocol.md 6)."""

import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..cluster.processes import REDIS_SERVER, START_TIMEOUT, RedisProcess
from .conftest import serving
from .test_page import Player, create_room, open_player

__all__ = ["open_player"]  # the page's fixture, here on the cluster's `site`


@dataclass
class Redis:
    """The test's redis-server, which it kills and starts again."""

    server: RedisProcess
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start on the server's port and files, and wait until it answers."""
        self.process = subprocess.Popen(self.server.command)
        deadline = time.monotonic() + START_TIMEOUT
        while not self.server.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise self.server.not_started()
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"{REDIS_SERVER} is missing: install Debian's redis-server package")
    redis = Redis(RedisProcess(tmp_path_factory.mktemp("redis")))
    redis.start()
    yield redis
    redis.kill()


@pytest.fixture(scope="module")
def site(redis_server: Redis) -> Iterator[str]:
    """The address of one `parlour serve --redis` node of the test's cluster."""
    yield from serving("--bot-workers", "1", "--redis", redis_server.server.url)


def test_a_move_clicked_while_redis_is_away_is_played_once_it_is_back(
    open_player: Any, redis_server: Redis, site: str
) -> None:
    ann: Player = open_player("Ann")
    create_room(ann, "othello", {"black": "you", "white": "easy"})
    ann.my_turn()
    before = ann.view
    move = before["state"]["legal_moves"][0]

    redis_server.kill()
    health(ann, site, 503)  # the node knows: it answers `unavailable` at once
    ann.click_square(move)
    time.sleep(1.0)
    assert ann.view["version"] == before["version"], "nothing is played while Redis is away"
    redis_server.start()
    ann.wait("room.view.version > arg", before["version"])
    assert ann.view["moves"][: before["version"] + 1] == [*before["moves"], move]
    assert ann.page.locator("#error").inner_text() == ""


def health(player: Player, site: str, status: int) -> None:
    """Wait until the node answers /healthz with `status`."""
    deadline = time.monotonic() + START_TIMEOUT
    while player.page.request.get(f"{site}/healthz").status != status:
        assert time.monotonic() < deadline, f"/healthz never answered {status}"
        time.sleep(0.1)
