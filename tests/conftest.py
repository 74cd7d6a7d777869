"""Fixtures more than one folder of tests uses: every frame checked against the protocol's
JSON Schema, and a server that serves TLS with certificates made by a CA of the test's own;
and the groups of tests that never run at the same time as one another."""

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from parlour.server import ParlourServer, ServerConfig, running_server
from tests.mailbox import Mailbox
from tests.schemacheck import checking
from tests.tlsfiles import TlsFiles, make_tls_files

SHOWN_VIOLATIONS = 5

RUN_APART: dict[str, tuple[str, ...]] = {
    "cluster": (
        "tests/cluster/",
        "tests/web/test_cluster_page.py",
        "tests/test_deploy.py",
        "tests/test_deploy_cluster.py",
    ),
    "tmux": ("tests/client/terminal/test_terminal.py",),
}
"""Tests that must not run against each other, by group: the cluster's (a redis-server or
HAProxy on a port probed free, which two workers could both be handed; leases and failovers
timed on the wall clock) and the terminal's under tmux. pytest-xdist's `loadgroup` gives
each group to a single worker, which runs its tests one at a time."""


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: a worker for each core and one more, since the tests wait on browsers,
    servers and subprocesses more than they compute (on two cores, three workers finish
    the suite a sixth sooner than two). PYTEST_XDIST_AUTO_NUM_WORKERS still sets it."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test's xdist group (before xdist reads the marks): its group in
    `RUN_APART`, else its module's if it uses a fixture the module's tests share (a browser,
    a server), so that the fixture is made once, not on every worker."""
    for item in items:
        groups = [group for group, paths in RUN_APART.items() if item.nodeid.startswith(paths)]
        if not groups and uses_module_fixture(item):
            groups = [item.nodeid.split("::")[0]]
        for group in groups:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a grouped test on a worker of `--dist loadgroup` whose node id pytest-xdist did
    not mark with the group (its way of telling the scheduler): the group is ignored then,
    and the cluster's tests would run against each other."""
    lost = grouped(item) and "@" not in item.nodeid
    if lost and item.config.getoption("loadgroup", default=False):
        pytest.fail(
            "pytest-xdist did not group this test: this pytest and this pytest-xdist "
            "do not work together (see the pins in pyproject.toml)",
            pytrace=False,
        )


def grouped(item: pytest.Item) -> bool:
    return item.get_closest_marker("xdist_group") is not None


def uses_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs[-1].scope == "module" for defs in info.name2fixturedefs.values() if defs)


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
