"""Where other machines reach this server: the addresses an invitation names.

A server listening on every address (`--host 0.0.0.0`) finds this machine's own addresses;
one listening on a single address names that one; one told where it is reached
(`--advertise`, behind a balancer or a router that forwards a port) names what it was
told. One listening on loopback alone is reached from this machine only: it names none.
An address told with `https://` or `wss://` is a balancer serving TLS in front of it.
"""

import ipaddress
import socket
from collections.abc import Iterable, Sequence
from typing import Final

from parlour.protocol.hosts import this_machine_only

EVERY_ADDRESS: Final = ("", "0.0.0.0", "::")
PROBE: Final = ("192.0.2.1", 9)
"""An address no packet goes to (TEST-NET-1): a UDP socket `connect`ed to it sends
nothing, but the kernel picks the address this machine's default route leaves by."""


TLS_SCHEMES: Final = ("https", "wss")
"""The schemes an advertised address may be given with: reached over TLS."""
TLS_PORT: Final = 443
"""The port of an address given with a TLS scheme and no port."""


class AdvertiseError(ValueError):
    """An `--advertise` address that is not `HOST[:PORT]`, `https://HOST[:PORT]` or
    `wss://HOST[:PORT]`, or addresses of which some are over TLS and some not."""


def reachable(host: str, port: int, told: Sequence[str] = ()) -> list[str]:
    """`host:port` addresses, best first, that other machines reach a server listening on
    `host`:`port` at."""
    if told:
        return [advertised(address, port) for address in told]
    if host in EVERY_ADDRESS:
        found = own_addresses()
    elif this_machine_only(host):
        found = []
    else:
        found = [host]
    return [joined(address, port) for address in found]


def own_addresses() -> list[str]:
    """This machine's addresses that are not loopback: the one its default route leaves by
    first, then those its name resolves to."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            found.append(str(probe.getsockname()[0]))
    except OSError:
        pass  # no route out: the names may still tell
    try:
        named = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        named = []
    found += [str(info[4][0]) for info in named]
    return _usable(found)


def _usable(addresses: Iterable[str]) -> list[str]:
    """The addresses that others could reach, once each, in order."""
    kept = []
    for address in dict.fromkeys(addresses):
        try:
            parsed = ipaddress.ip_address(address.split("%")[0])
        except ValueError:
            continue
        if not (parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified):
            kept.append(address)
    return kept


def joined(host: str, port: int) -> str:
    """`host:port`, an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def advertises_tls(told: Sequence[str]) -> bool:
    """Whether the addresses `told` are reached over TLS (given as `https://` or `wss://`).

    AdvertiseError if some are and some are not: a welcome says one or the other.
    """
    secure = {_scheme(address) is not None for address in told}
    if len(secure) > 1:
        raise AdvertiseError(
            "give every address to advertise with https:// (reached over TLS) or none of them"
        )
    return secure == {True}


def _scheme(address: str) -> str | None:
    """The TLS scheme `address` is given with, if any; AdvertiseError for another."""
    scheme, found, _ = address.strip().partition("://")
    if not found:
        return None
    if scheme.lower() not in TLS_SCHEMES:
        raise AdvertiseError(
            f"{address!r}: the only schemes are https:// and wss:// (a balancer serving TLS);"
            " give HOST[:PORT] alone for one in plain HTTP"
        )
    return scheme.lower()


def advertised(address: str, port: int) -> str:
    """`HOST[:PORT]` as `host:port`, the server's own port where none is given;
    `https://HOST[:PORT]` (or `wss://`, a path `/` or `/ws` allowed) with port 443."""
    text = address.strip()
    if _scheme(text) is not None:
        text = text.partition("://")[2]
        for path in ("/ws", "/"):
            text = text.removesuffix(path)
        port = TLS_PORT
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        given = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, given = text.partition(":")
    else:
        host, given = text, ""
    if not host or any(char in host for char in "/ @?#") or (given and not given.isdigit()):
        raise AdvertiseError(f"{address!r} is not HOST, HOST:PORT or https://HOST[:PORT]")
    if given and not 0 < int(given) < 65536:
        raise AdvertiseError(f"{address!r} has a bad port number")
    return joined(host, int(given) if given else port)
