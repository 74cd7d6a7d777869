"""The compose file's HAProxy, running: Debian's haproxy in master-worker mode as the image
runs it, on free loopback ports in front of the given node ports, and the HTTP(S) requests a
test sends it."""

import asyncio
import contextlib
import http.client
import signal
import socket
import ssl
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..haproxy import environment, loopback_config, need_haproxy
from .processes import START_TIMEOUT, Spawned


def free_ports() -> tuple[int, int]:
    """Two loopback ports nobody listens on now, never the same one twice (HAProxy would
    listen on it twice, with SO_REUSEPORT, and share its connections between the two)."""
    with contextlib.ExitStack() as held:
        probes = [held.enter_context(socket.socket()) for _ in range(2)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        first, second = (int(probe.getsockname()[1]) for probe in probes)
        return first, second


@dataclass
class Balancer(Spawned):
    """HAProxy and its two ports: plain http (:80 in the image) and https (:443)."""

    http_port: int
    https_port: int
    log: Path

    def reload(self) -> None:
        """SIGHUP, as `docker compose kill -s HUP balancer` sends: the master starts new
        workers on the configuration and certificates read again."""
        self.signal(signal.SIGHUP)

    def said(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.asynccontextmanager
async def running_balancer(
    folder: Path,
    node_ports: Sequence[int],
    certs: Path,
    settings: Mapping[str, str],
    ports: tuple[int, int] | None = None,
) -> AsyncIterator[Balancer]:
    """deploy/haproxy.cfg running in front of `node_ports` with the certificates in `certs`
    and the configuration's `settings` (PARLOUR_HTTPS_PORT is the balancer's own), on the
    (http, https) `ports` or free ones, once it accepts connections; stopped at the end."""
    haproxy = need_haproxy()
    http_port, https_port = ports or free_ports()
    config = folder / "haproxy.cfg"
    config.write_text(
        loopback_config(
            http_port=http_port, https_port=https_port, certs=certs, node_ports=node_ports
        )
    )
    log = folder / "haproxy.log"
    env = environment({"PARLOUR_HTTPS_PORT": str(https_port), **settings})
    with log.open("ab") as output:
        process = await asyncio.create_subprocess_exec(
            haproxy, "-W", "-db", "-f", str(config), stdout=output, stderr=output, env=env
        )
    balancer = Balancer(process, http_port, https_port, log)
    try:
        await until_listening(balancer)
        yield balancer
    finally:
        await balancer.stop()


async def until_listening(balancer: Balancer) -> None:
    """Wait until the plain http port takes connections; RuntimeError with HAProxy's log if
    it exits first."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if balancer.process.returncode is not None or time.monotonic() > deadline:
            raise RuntimeError(f"haproxy did not start: {balancer.said()[-2000:]}")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", balancer.http_port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        await writer.wait_closed()
        return


@dataclass(frozen=True)
class Reply:
    """An HTTP response as it came: no redirect followed."""

    status: int
    headers: http.client.HTTPMessage
    body: bytes
    certificate: bytes | None
    """The server certificate (DER) of an https reply."""


def trusting(ca: Path) -> ssl.SSLContext:
    """A client context that verifies servers against the test's CA alone."""
    return ssl.create_default_context(cafile=str(ca))


async def fetch(
    url: str, context: ssl.SSLContext | None = None, headers: Mapping[str, str] | None = None
) -> Reply:
    """GET `url` (http://127.0.0.1:PORT/... or https://...) with `context` for https."""

    def get() -> Reply:
        scheme, _, rest = url.partition("://")
        where, slash, path = rest.partition("/")
        host, _, port = where.partition(":")
        connection: http.client.HTTPConnection
        if scheme == "https":
            connection = http.client.HTTPSConnection(host, int(port), timeout=10, context=context)
        else:
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            connection.request("GET", slash + path, headers=dict(headers or {}))
            certificate = None
            if isinstance(connection, http.client.HTTPSConnection):
                # Read before the response: one that closes the connection takes the socket.
                assert isinstance(connection.sock, ssl.SSLSocket)
                certificate = connection.sock.getpeercert(binary_form=True)
            response = connection.getresponse()
            return Reply(response.status, response.headers, response.read(), certificate)
        finally:
            connection.close()

    return await asyncio.to_thread(get)


async def until_status(url: str, status: int, context: ssl.SSLContext | None = None) -> Reply:
    """Ask `url` until it answers with `status` (the nodes come up behind HAProxy after two
    health checks); the reply."""
    async with asyncio.timeout(START_TIMEOUT):
        while True:
            with contextlib.suppress(OSError, http.client.HTTPException):
                reply = await fetch(url, context)
                if reply.status == status:
                    return reply
            await asyncio.sleep(0.1)
