"""deploy/haproxy.cfg as the tests run it: on loopback ports, with a certificate folder of
the test's own and the nodes' loopback addresses in place of the compose services. Every
other line is the shipped one, so the tests check what is deployed."""

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
CONFIG = ROOT / "deploy" / "haproxy.cfg"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
CERTS = "/etc/haproxy/certs/"
"""Where the compose file mounts the certificate folder in the balancer."""
SETTINGS = ("PARLOUR_TLS", "PARLOUR_HTTPS_PORT", "PARLOUR_ACME_THUMBPRINT")
"""The environment the configuration reads."""
LOOPBACK_MAXCONN = 1000
"""Connections kept within this machine's file limit, in place of the shipped 20000."""


def need_haproxy() -> str:
    """Debian's haproxy, or the test is skipped."""
    if not Path(HAPROXY).exists():
        pytest.skip("haproxy is missing: install Debian's haproxy package")
    return HAPROXY


def replaced(text: str, old: str, new: str, count: int = 1) -> str:
    """`text` with `old` made `new`, which must be there `count` times: a changed template
    fails here rather than running unchanged."""
    found = text.count(old)
    assert found == count, f"{old!r} is in deploy/haproxy.cfg {found} times, not {count}"
    return text.replace(old, new)


def loopback_config(
    *, http_port: int, https_port: int, certs: Path, node_ports: Sequence[int]
) -> str:
    """deploy/haproxy.cfg with its ports on 127.0.0.1, `certs` as its certificate folder and
    its servers on the `node_ports`, without Docker's DNS. On a machine shared with other
    tests it never shares a port (`noreuseport`): one taken meanwhile fails it loudly."""
    limits = f"maxconn {LOOPBACK_MAXCONN}\n    noreuseport"
    text = replaced(CONFIG.read_text(), "maxconn 20000", limits)
    text = replaced(text, "    bind :80\n", f"    bind 127.0.0.1:{http_port}\n")
    text = replaced(text, "    bind :443 ", f"    bind 127.0.0.1:{https_port} ")
    text = replaced(text, f"crt {CERTS} ", f"crt {certs}/ ")
    text = replaced(text, " resolvers docker init-addr last,libc,none", "")
    servers = re.findall(r"^    server .*\n", text, flags=re.MULTILINE)
    assert len(servers) == len(node_ports), servers
    for number, (line, port) in enumerate(zip(servers, node_ports, strict=True), start=1):
        text = replaced(text, line, f"    server node{number} 127.0.0.1:{port}\n")
    return text


def environment(settings: Mapping[str, str]) -> dict[str, str]:
    """This process's environment with the configuration's settings exactly `settings`."""
    unknown = settings.keys() - set(SETTINGS)
    assert not unknown, unknown
    kept = {name: value for name, value in os.environ.items() if name not in SETTINGS}
    return {**kept, **settings}


def check(
    path: Path, settings: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`haproxy -c -f path`, with the configuration's settings `settings` (none: defaults)."""
    return subprocess.run(
        [need_haproxy(), "-c", "-f", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env=environment(settings or {}),
    )
