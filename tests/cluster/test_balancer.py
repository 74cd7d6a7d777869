"""The compose file's HAProxy configuration, run for real in front of two nodes on loopback:
players who know only the balancer's address play on when the node they were on is killed."""

import asyncio
import contextlib
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from parlour.protocol import messages as m

from ..server.wsclient import Client
from .conftest import StartNode
from .players import Person, check_acknowledged, play
from .processes import Node, free_port, until_health

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
CONFIG = Path(__file__).parents[2] / "deploy" / "haproxy.cfg"


def loopback_config(port: int, nodes: list[Node]) -> str:
    """deploy/haproxy.cfg with the balancer on `port`, the nodes on their loopback ports in
    place of the compose services, and connections kept within this machine's file limit."""
    text = CONFIG.read_text().replace("maxconn 20000", "maxconn 1000")
    text = text.replace("bind :8765", f"bind 127.0.0.1:{port}")
    text = re.sub(r"^    server .*\n", "", text, flags=re.MULTILINE)
    text = text.replace(" resolvers docker init-addr last,libc,none", "")
    servers = "".join(
        f"    server node{number} 127.0.0.1:{node.port}\n"
        for number, node in enumerate(nodes, start=1)
    )
    return text + servers


@contextlib.asynccontextmanager
async def balancer(folder: Path, nodes: list[Node]) -> AsyncIterator[int]:
    """HAProxy running the loopback configuration; its port."""
    if not Path(HAPROXY).exists():
        pytest.skip("haproxy is missing: install Debian's haproxy package")
    port = free_port()
    config = folder / "haproxy.cfg"
    config.write_text(loopback_config(port, nodes))
    process = await asyncio.create_subprocess_exec(
        HAPROXY,
        "-f",
        str(config),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        yield port
    finally:
        process.kill()
        await process.wait()


async def test_players_behind_haproxy_play_on_when_their_node_is_killed(
    start: StartNode, tmp_path: Path
) -> None:
    nodes = [await start("--lease", "2") for _ in range(2)]
    async with balancer(tmp_path, nodes) as port:
        front = Node(nodes[0].process, port)
        assert await until_health(front, "200") == "ok"
        host = await Client.open(port, "Ann")
        joined = await host.request(m.CreateRoom(game="othello", seat="black", board=5))
        assert isinstance(joined, m.Joined)
        ref = joined.room["room"]
        guest = await Client.open(port, "Bob")
        taken = await guest.request(m.Join(room=ref, seat="white"))
        assert isinstance(taken, m.Joined)
        assert isinstance(await host.request(m.Start(room=ref)), m.Ok)
        through_balancer = lambda: [port]  # noqa: E731 (the only address a player knows)
        ann = Person("Ann", "black", ref, joined.token, host, through_balancer)
        bob = Person("Bob", "white", ref, taken.token, guest, through_balancer)
        people = [ann, bob]
        await play(people, moves=6)

        await nodes[0].kill()
        await play(people, moves=6)
        final = await play(people)
        assert final["state"]["over"]
        check_acknowledged(people, final)
        assert ann.rejoined + bob.rejoined >= 1, "someone was on the killed node"
