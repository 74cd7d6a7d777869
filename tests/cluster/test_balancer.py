"""The compose file's HAProxy configuration, run for real in front of two nodes on loopback
(plain http, PARLOUR_TLS=off, as for a quick try): players who know only the balancer's
address play on when the node they were on is killed."""

from pathlib import Path

from parlour.protocol import messages as m

from ..server.wsclient import Client
from .balancer import running_balancer
from .conftest import StartNode, start_nodes
from .players import Person, check_acknowledged, play
from .processes import Node, until_health


async def test_players_behind_haproxy_play_on_when_their_node_is_killed(
    start: StartNode, tmp_path: Path
) -> None:
    nodes = await start_nodes(start, 2, "--lease", "2")
    plain = {"PARLOUR_TLS": "off"}
    node_ports = [node.port for node in nodes]
    async with running_balancer(tmp_path, node_ports, tmp_path / "certs", plain) as balancer:
        port = balancer.http_port
        assert await until_health(Node(balancer.process, port), "200") == "ok"
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
