"""The cluster in docker-compose.yml (`--profile cluster`): Redis with every write synced,
two Parlour nodes and a bot worker on it, and HAProxy in front of the nodes, whose
configuration HAProxy's own checker must pass."""

import shutil
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from .test_deploy import (
    COMPOSE,
    ROOT,
    compose_healthcheck_argv,
    healthcheck_code,
    load_yaml,
    published_ports,
)

HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"
HAPROXY_IMAGE_CONFIG = "/usr/local/etc/haproxy/haproxy.cfg"
NODES = ("node1", "node2")
NODE_PORT = 8765


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    document = load_yaml(COMPOSE)
    found: dict[str, Any] = document["services"]
    return found


def haproxy_check(path: Path) -> subprocess.CompletedProcess[str]:
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(haproxy).exists():
        pytest.skip("haproxy is missing: install Debian's haproxy package")
    return subprocess.run(
        [haproxy, "-c", "-f", str(path)], capture_output=True, text=True, check=False, timeout=60
    )


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_cluster_profile_holds_redis_two_nodes_and_a_balancer(
    services: dict[str, Any],
) -> None:
    cluster = [name for name, found in services.items() if "cluster" in found.get("profiles", [])]
    assert cluster == ["redis", *NODES, "worker", "balancer"]


def test_redis_syncs_every_write_to_its_append_only_file_on_a_named_volume(
    services: dict[str, Any],
) -> None:
    redis = services["redis"]
    command = redis["command"]
    assert command[0] == "redis-server"
    assert option(command, "--appendonly") == "yes"
    assert option(command, "--appendfsync") == "always"
    [volume] = redis["volumes"]
    source, target = volume.split(":")
    assert target == "/data", "where the official image keeps its files"
    assert source in load_yaml(COMPOSE)["volumes"]
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


@pytest.mark.parametrize("name", NODES)
def test_each_node_serves_on_every_interface_through_redis(
    services: dict[str, Any], name: str
) -> None:
    node = services[name]
    command = node["command"]
    assert command[0] == "serve"
    assert option(command, "--host") == "0.0.0.0"
    assert int(option(command, "--port")) == NODE_PORT
    assert option(command, "--redis") == "redis://redis:6379/0"
    assert "--data-dir" not in command, "a node keeps nothing of its own"
    assert node["image"] == services["parlour"]["image"]
    assert node["depends_on"]["redis"]["condition"] == "service_healthy"
    code = healthcheck_code(compose_healthcheck_argv(node["healthcheck"]["test"]))
    assert f"http://127.0.0.1:{NODE_PORT}/healthz" in code
    assert "ports" not in node, "players reach the nodes through the balancer"


def test_a_worker_thinks_for_the_nodes_bots_through_the_same_redis(
    services: dict[str, Any],
) -> None:
    worker = services["worker"]
    command = worker["command"]
    assert command[0] == "worker"
    assert option(command, "--redis") == option(services["node1"]["command"], "--redis")
    assert int(option(command, "--procs")) >= 1
    assert worker["image"] == services["parlour"]["image"]
    assert worker["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "ports" not in worker, "a worker listens on nothing"


def test_the_balancer_runs_the_checked_configuration_in_front_of_both_nodes(
    services: dict[str, Any],
) -> None:
    balancer = services["balancer"]
    assert balancer["image"].startswith("haproxy:")
    [mount] = balancer["volumes"]
    source, target, mode = mount.split(":")
    assert (ROOT / source).resolve() == HAPROXY_CONFIG.resolve()
    assert (PurePosixPath(target), mode) == (PurePosixPath(HAPROXY_IMAGE_CONFIG), "ro")
    assert published_ports(balancer, {}) == [("8780", NODE_PORT)]
    assert published_ports(balancer, {"PARLOUR_CLUSTER_PORT": "9000"}) == [("9000", NODE_PORT)]
    assert set(balancer["depends_on"]) == {*NODES, "worker"}
    config = HAPROXY_CONFIG.read_text()
    assert f"bind :{NODE_PORT}" in config
    for name in NODES:
        assert f"server {name} {name}:{NODE_PORT}" in config
    assert "option httpchk GET /healthz" in config
    assert "timeout tunnel" in config, "WebSockets outlive the client and server timeouts"


def test_haproxy_passes_its_own_configuration_check() -> None:
    result = haproxy_check(HAPROXY_CONFIG)
    assert result.returncode == 0, result.stderr
    assert "Configuration file is valid" in result.stdout + result.stderr


def test_haproxy_refuses_a_broken_configuration(tmp_path: Path) -> None:
    broken = tmp_path / "haproxy.cfg"
    broken.write_text(HAPROXY_CONFIG.read_text().replace("balance leastconn", "balance nearest"))
    result = haproxy_check(broken)
    assert result.returncode != 0
    assert "balance only supports" in result.stdout + result.stderr
