"""deploy/install-certificate, the ACME client's renewal hook: a chain and key become one PEM
file in the balancer's certificate folder, which HAProxy takes, and a running balancer is
sent SIGHUP through `docker compose` (a stand-in `docker` here, which records its calls)."""

import os
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from .haproxy import CERTS, CONFIG, check, replaced
from .tlsfiles import TlsFiles, make_tls_files

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "deploy" / "install-certificate"
NAME = "games.example.org"
FAKE_DOCKER = """#!/bin/sh
printf '%s | %s\\n' "$(pwd)" "$*" >>"$DOCKER_CALLS"
[ "$*" = "compose ps -q balancer" ] && [ -n "$BALANCER_ID" ] && echo "$BALANCER_ID"
exit 0
"""


@dataclass
class Setting:
    """A folder for the certificates, the `docker` the script finds and the files it gets."""

    certs: Path
    calls: Path
    env: dict[str, str]
    files: TlsFiles

    def run(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(SCRIPT), *map(str, args)],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
            env=self.env,
        )

    def docker_calls(self) -> list[str]:
        return self.calls.read_text().splitlines() if self.calls.exists() else []


@pytest.fixture
def setting(tmp_path: Path) -> Setting:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is missing")
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    docker = bin_folder / "docker"
    docker.write_text(FAKE_DOCKER)
    docker.chmod(0o755)
    certs = tmp_path / "certs"
    calls = tmp_path / "docker-calls"
    env = {
        **os.environ,
        "PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}",
        "PARLOUR_CERTS": str(certs),
        "PARLOUR_CERTS_OWNER": f"{os.getuid()}:{os.getgid()}",
        "DOCKER_CALLS": str(calls),
        "BALANCER_ID": "0123456789ab",
    }
    return Setting(certs, calls, env, make_tls_files(tmp_path / "made"))


def test_the_chain_and_key_become_one_private_file_haproxy_takes_then_it_reloads(
    setting: Setting, tmp_path: Path
) -> None:
    result = setting.run(NAME, setting.files.cert, setting.files.key)
    assert result.returncode == 0, result.stderr
    installed = setting.certs / f"{NAME}.pem"
    expected = setting.files.cert.read_bytes() + setting.files.key.read_bytes()
    assert installed.read_bytes() == expected
    assert stat.S_IMODE(installed.stat().st_mode) == 0o600
    assert [path.name for path in setting.certs.iterdir()] == [installed.name]
    assert setting.docker_calls() == [
        f"{ROOT} | compose ps -q balancer",
        f"{ROOT} | compose kill -s HUP balancer",
    ]
    assert "the balancer reloads its certificates" in result.stderr
    config = tmp_path / "haproxy.cfg"
    config.write_text(replaced(CONFIG.read_text(), f"crt {CERTS} ", f"crt {setting.certs}/ "))
    checked = check(config)
    assert checked.returncode == 0, checked.stderr


def test_a_renewal_replaces_the_file_whole(setting: Setting, tmp_path: Path) -> None:
    assert setting.run(NAME, setting.files.cert, setting.files.key).returncode == 0
    renewed = make_tls_files(tmp_path / "renewed", authority=setting.files.authority, tag="2")
    result = setting.run(NAME, renewed.cert, renewed.key)
    assert result.returncode == 0, result.stderr
    installed = setting.certs / f"{NAME}.pem"
    assert installed.read_bytes() == renewed.cert.read_bytes() + renewed.key.read_bytes()
    assert [path.name for path in setting.certs.iterdir()] == [installed.name]
    assert setting.docker_calls().count(f"{ROOT} | compose kill -s HUP balancer") == 2


def test_as_certbots_deploy_hook_it_takes_the_renewed_files_by_name_alone(
    setting: Setting, tmp_path: Path
) -> None:
    lineage = tmp_path / "live" / NAME
    lineage.mkdir(parents=True)
    shutil.copy(setting.files.cert, lineage / "fullchain.pem")
    shutil.copy(setting.files.key, lineage / "privkey.pem")
    setting.env["RENEWED_LINEAGE"] = str(lineage)
    result = setting.run(NAME)
    assert result.returncode == 0, result.stderr
    expected = setting.files.cert.read_bytes() + setting.files.key.read_bytes()
    assert (setting.certs / f"{NAME}.pem").read_bytes() == expected
    assert f"{ROOT} | compose kill -s HUP balancer" in setting.docker_calls()


def test_a_balancer_that_is_not_running_is_left_to_read_it_when_it_starts(
    setting: Setting,
) -> None:
    setting.env["BALANCER_ID"] = ""
    result = setting.run(NAME, setting.files.cert, setting.files.key)
    assert result.returncode == 0, result.stderr
    assert (setting.certs / f"{NAME}.pem").exists()
    assert setting.docker_calls() == [f"{ROOT} | compose ps -q balancer"]
    assert "the balancer is not running: it reads the certificate when it starts" in result.stderr


def test_a_key_that_is_not_the_certificates_is_refused_and_nothing_changes(
    setting: Setting, tmp_path: Path
) -> None:
    other = make_tls_files(tmp_path / "other", authority=setting.files.authority, tag="2")
    result = setting.run(NAME, setting.files.cert, other.key)
    assert result.returncode == 1
    assert f"the key '{other.key}' is not the key of the certificate" in result.stderr
    assert not setting.certs.exists()
    assert setting.docker_calls() == []


@pytest.mark.parametrize(
    ("which", "said"),
    [
        ("no chain", "cannot read the certificate chain"),
        ("key for chain", "holds no PEM certificate"),
        ("chain for key", "holds no PEM private key"),
    ],
)
def test_files_that_are_not_a_chain_and_a_key_are_refused(
    setting: Setting, tmp_path: Path, which: str, said: str
) -> None:
    chain, key = {
        "no chain": (tmp_path / "missing.pem", setting.files.key),
        "key for chain": (setting.files.key, setting.files.key),
        "chain for key": (setting.files.cert, setting.files.cert),
    }[which]
    result = setting.run(NAME, chain, key)
    assert result.returncode == 1
    assert said in result.stderr
    assert not setting.certs.exists()


@pytest.mark.parametrize("name", [".hidden", "../escape", "with space", ""])
def test_a_name_haproxy_would_skip_or_that_leaves_the_folder_is_refused(
    setting: Setting, name: str
) -> None:
    result = setting.run(name, setting.files.cert, setting.files.key)
    assert result.returncode == 1
    assert "NAME must be letters, digits" in result.stderr
    assert not setting.certs.exists()


@pytest.mark.parametrize("count", [1, 2, 4])
def test_it_says_how_to_call_it(setting: Setting, count: int) -> None:
    setting.env.pop("RENEWED_LINEAGE", None)
    args: list[str | Path] = [NAME, setting.files.cert, setting.files.key, setting.files.ca]
    result = setting.run(*args[:count])
    assert result.returncode == 2
    assert "usage:" in result.stderr
    assert "NAME FULLCHAIN KEY" in result.stderr
    assert not setting.certs.exists()
