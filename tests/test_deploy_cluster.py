"""The cluster in docker-compose.yml (`--profile cluster`): Redis with every write synced,
two Parlour nodes and a bot worker on it, and HAProxy in front of the nodes terminating
TLS, whose configuration HAProxy's own checker must pass."""

import re
import shutil
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from parlour.cli import build_parser
from parlour.server.reach import advertises_tls, reachable

from .haproxy import CERTS, CONFIG, SETTINGS, check, replaced
from .test_deploy import (
    COMPOSE,
    DOCKERIGNORE,
    ROOT,
    compose_healthcheck_argv,
    dockerignore_rules,
    healthcheck_code,
    ignored,
    interpolate,
    load_yaml,
    published_ports,
)
from .tlsfiles import make_tls_files

HAPROXY_IMAGE_CONFIG = "/usr/local/etc/haproxy/haproxy.cfg"
NODES = ("node1", "node2")
NODE_PORT = 8765


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    document = load_yaml(COMPOSE)
    found: dict[str, Any] = document["services"]
    return found


@pytest.fixture
def certs(tmp_path: Path) -> Path:
    """A certificate folder as an operator's: one PEM of chain and key, made by a test CA."""
    folder = tmp_path / "certs"
    folder.mkdir()
    shutil.copy(make_tls_files(tmp_path / "made").combined, folder / "games.example.org.pem")
    return folder


def with_certs(certs: Path) -> str:
    """deploy/haproxy.cfg reading its certificates from `certs`; nothing else changed."""
    return replaced(CONFIG.read_text(), f"crt {CERTS} ", f"crt {certs}/ ")


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


@pytest.mark.parametrize("name", NODES)
@pytest.mark.parametrize(
    ("env", "addresses", "tls"),
    [
        ({}, ["localhost:443"], True),
        ({"PARLOUR_ADVERTISE": "https://games.example.org"}, ["games.example.org:443"], True),
        ({"PARLOUR_ADVERTISE": "localhost:80"}, ["localhost:80"], False),
    ],
)
def test_each_node_names_the_balancers_address_in_invitations(
    services: dict[str, Any], name: str, env: dict[str, str], addresses: list[str], tls: bool
) -> None:
    # The node's command line as `parlour serve` reads it, with the settings given.
    command = [interpolate(word, env) for word in services[name]["command"]]
    args = build_parser().parse_args(command)
    assert reachable(args.host, args.port, args.advertise) == addresses
    assert advertises_tls(args.advertise) is tls


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
    [config_mount, _] = balancer["volumes"]
    source, target, mode = config_mount.split(":")
    assert (ROOT / source).resolve() == CONFIG.resolve()
    assert (PurePosixPath(target), mode) == (PurePosixPath(HAPROXY_IMAGE_CONFIG), "ro")
    assert set(balancer["depends_on"]) == {*NODES, "worker"}
    config = CONFIG.read_text()
    for name in NODES:
        assert f"server {name} {name}:{NODE_PORT}" in config
    assert "option httpchk GET /healthz" in config
    assert "timeout tunnel" in config, "WebSockets outlive the client and server timeouts"


def test_the_balancer_reads_certificates_from_a_folder_on_the_host(
    services: dict[str, Any],
) -> None:
    [_, mount] = services["balancer"]["volumes"]
    source, target, mode = interpolate(mount, {}).split(":")
    assert (ROOT / source).resolve() == (ROOT / "certs").resolve()
    assert (target.rstrip("/") + "/", mode) == (CERTS, "ro")
    assert re.search(rf"^    bind :443 ssl crt {CERTS} ", CONFIG.read_text(), re.MULTILINE)
    moved = interpolate(mount, {"PARLOUR_CERTS": "/srv/certs"})
    assert moved == f"/srv/certs:{target}:ro"


def test_the_certificates_stay_out_of_git_and_out_of_the_image() -> None:
    assert "certs/" in (ROOT / ".gitignore").read_text().splitlines()
    rules = dockerignore_rules(DOCKERIGNORE.read_text())
    assert ignored("certs/games.example.org.pem", rules)


def test_the_balancer_publishes_http_and_https_and_redirects_to_the_published_https_port(
    services: dict[str, Any],
) -> None:
    balancer = services["balancer"]
    assert published_ports(balancer, {}) == [("80", 80), ("443", 443)]
    moved = {"PARLOUR_HTTP_PORT": "8080", "PARLOUR_HTTPS_PORT": "8443"}
    assert published_ports(balancer, moved) == [("8080", 80), ("8443", 443)]
    settings = balancer["environment"]
    assert set(settings) == set(SETTINGS), "what deploy/haproxy.cfg reads"
    assert interpolate(settings["PARLOUR_HTTPS_PORT"], moved) == "8443"
    assert interpolate(settings["PARLOUR_HTTPS_PORT"], {}) == "443"
    assert interpolate(settings["PARLOUR_TLS"], {}) == "on"
    assert interpolate(settings["PARLOUR_TLS"], {"PARLOUR_TLS": "off"}) == "off"
    assert interpolate(settings["PARLOUR_ACME_THUMBPRINT"], {}) == ""
    assert balancer["sysctls"]["net.ipv4.ip_unprivileged_port_start"] == 0, (
        "the image's unprivileged user binds 80 and 443"
    )


def test_tls_is_1_2_or_later_with_forward_secret_aead_ciphers_only() -> None:
    # OpenSSL 3 refuses TLS 1.0 and 1.1 on its own as well, which hides the setting's
    # absence from the test with a real HAProxy: it is read here.
    config = CONFIG.read_text()
    assert re.search(r"^    ssl-default-bind-options ssl-min-ver TLSv1.2\b", config, re.MULTILINE)
    [ciphers] = re.findall(r"^    ssl-default-bind-ciphers (\S+)$", config, re.MULTILINE)
    for cipher in ciphers.split(":"):
        assert cipher.startswith("ECDHE-"), cipher
        assert "GCM" in cipher or "CHACHA20-POLY1305" in cipher, cipher


def test_haproxy_passes_its_own_configuration_check(tmp_path: Path, certs: Path) -> None:
    config = tmp_path / "haproxy.cfg"
    config.write_text(with_certs(certs))
    result = check(config)
    assert result.returncode == 0, result.stderr
    assert "Configuration file is valid" in result.stdout + result.stderr


def test_haproxy_passes_the_check_answering_acme_challenges(tmp_path: Path, certs: Path) -> None:
    config = tmp_path / "haproxy.cfg"
    config.write_text(with_certs(certs))
    result = check(config, {"PARLOUR_ACME_THUMBPRINT": "Xy-z_0123456789"})
    assert result.returncode == 0, result.stderr


def test_without_tls_the_shipped_configuration_needs_no_certificate() -> None:
    result = check(CONFIG, {"PARLOUR_TLS": "off"})
    assert result.returncode == 0, result.stderr
    assert "Configuration file is valid" in result.stdout + result.stderr


def test_haproxy_refuses_to_start_with_no_certificate_in_the_folder(tmp_path: Path) -> None:
    config = tmp_path / "haproxy.cfg"
    (tmp_path / "certs").mkdir()
    config.write_text(with_certs(tmp_path / "certs"))
    result = check(config)
    assert result.returncode != 0
    assert "no SSL certificate" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"PARLOUR_TLS": "yes"}, "PARLOUR_TLS must be on or off, not 'yes'"),
        ({"PARLOUR_HTTPS_PORT": ""}, "PARLOUR_HTTPS_PORT is empty"),
    ],
)
def test_haproxy_refuses_settings_it_does_not_know(
    tmp_path: Path, certs: Path, settings: dict[str, str], said: str
) -> None:
    config = tmp_path / "haproxy.cfg"
    config.write_text(with_certs(certs))
    result = check(config, settings)
    assert result.returncode != 0
    assert said in result.stdout + result.stderr


def test_haproxy_refuses_a_broken_configuration(tmp_path: Path, certs: Path) -> None:
    broken = tmp_path / "haproxy.cfg"
    broken.write_text(with_certs(certs).replace("balance leastconn", "balance nearest"))
    result = check(broken)
    assert result.returncode != 0
    assert "balance only supports" in result.stdout + result.stderr
