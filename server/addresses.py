"""Who is asking: the client address a connection's limits are counted under.

It is the connection's peer, unless the peer is a proxy the server trusts (a balancer in
front of it), which names the client in `X-Forwarded-For`; HAProxy's `option forwardfor`
adds it. The header is read from its right end, where each trusted proxy appended the
address it saw, to the first address that is not a trusted proxy's: what a client writes
in the header itself is never believed. An IPv6 client counts by its /64 network, which
one machine usually has whole.
"""

import ipaddress
from collections.abc import Iterable, Sequence
from typing import Final

from websockets.asyncio.server import ServerConnection

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

TRUSTED_PROXIES: Final = (
    "127.0.0.0/8",
    "::1/128",
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "fc00::/7",
)
"""Loopback and private networks, where a balancer in front of the server sits (as
HAProxy does in docker-compose.yml's cluster); what Rails trusts by default."""
METRICS_FROM: Final = ("127.0.0.1/32", "::1/128")
"""Who may read `/metrics` unless the operator says otherwise: this machine, by its
loopback address. (Another 127/8 address stands for another machine in the tests.)"""
IPV6_CLIENT_PREFIX: Final = 64
UNKNOWN: Final = "unknown"


def networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """Networks written as `10.0.0.0/8` or single addresses; ValueError if one is not."""
    return tuple(ipaddress.ip_network(text, strict=False) for text in texts)


def client_address(peer: str | None, forwarded: Sequence[str], trusted: Sequence[Network]) -> str:
    """The address to count a connection under: its peer's, or the client's a trusted
    proxy named in the `X-Forwarded-For` headers `forwarded`, in the order received."""
    current = _address(peer)
    if current is None:
        return UNKNOWN
    hops = [hop.strip() for header in forwarded for hop in header.split(",")]
    while _trusted(current, trusted) and hops:
        named = _address(hops.pop())
        if named is None:
            break
        current = named
    return _key(current)


def peer_in(peer: str | None, allowed: Sequence[Network]) -> bool:
    """Whether the connection's peer address `peer` is in one of the networks `allowed`.
    Only the peer counts, never `X-Forwarded-For`: behind a balancer, the balancer is it."""
    address = _address(peer)
    return address is not None and _trusted(address, allowed)


def _address(text: str | None) -> Address | None:
    if not text:
        return None
    try:
        address = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, trusted: Sequence[Network]) -> bool:
    return any(address.version == network.version and address in network for network in trusted)


def _key(address: Address) -> str:
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{address}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(address)


def address_of(websocket: ServerConnection, trusted: tuple[Network, ...]) -> str:
    """A connection's client address: the peer's, or the one a trusted balancer passed on."""
    peer = websocket.remote_address
    host = peer[0] if isinstance(peer, tuple) and peer else None
    forwarded = websocket.request.headers.get_all("X-Forwarded-For") if websocket.request else []
    return client_address(host, forwarded, trusted)
