"""Where other machines reach a server, for the invitations clients print."""

import socket

import pytest

from parlour.server.reach import (
    AdvertiseError,
    advertised,
    advertises_tls,
    own_addresses,
    reachable,
)


def test_a_server_on_loopback_is_reached_from_this_machine_alone() -> None:
    assert reachable("127.0.0.1", 8765) == []
    assert reachable("localhost", 8765) == []
    assert reachable("::1", 8765) == []


def test_a_server_on_one_address_names_it() -> None:
    assert reachable("192.168.1.20", 8765) == ["192.168.1.20:8765"]
    assert reachable("fd00::5", 8765) == ["[fd00::5]:8765"]


def test_addresses_it_was_told_come_first_with_its_port_where_none_is_given() -> None:
    told = ["games.example.org", "203.0.113.7:9000", "[2001:db8::1]:443", "[2001:db8::2]"]
    assert reachable("0.0.0.0", 8765, told) == [
        "games.example.org:8765",
        "203.0.113.7:9000",
        "[2001:db8::1]:443",
        "[2001:db8::2]:8765",
    ]


def test_an_address_given_over_tls_has_port_443_unless_it_says_another() -> None:
    told = [
        "https://games.example.org",
        "wss://games.example.org:8443/ws",
        "HTTPS://[2001:db8::1]/",
        " https://203.0.113.7:9000 ",
    ]
    assert reachable("0.0.0.0", 8765, told) == [
        "games.example.org:443",
        "games.example.org:8443",
        "[2001:db8::1]:443",
        "203.0.113.7:9000",
    ]


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "http://x.org",
        "ws://x.org",
        "ftp://x.org",
        "https://",
        "https://x.org/play",
        "x.org:port",
        "x.org:70000",
        "a b",
    ],
)
def test_an_address_that_is_not_host_or_host_port_is_refused(typed: str) -> None:
    with pytest.raises(AdvertiseError):
        advertised(typed, 8765)


def test_addresses_are_over_tls_when_given_with_https_or_wss() -> None:
    assert advertises_tls(["https://a.example.org", "wss://b.example.org:8443"]) is True
    assert advertises_tls(["a.example.org", "203.0.113.7:9000"]) is False
    assert advertises_tls([]) is False
    with pytest.raises(AdvertiseError, match=r"https:// .* or none of them"):
        advertises_tls(["https://a.example.org", "b.example.org"])


def test_on_every_address_it_names_this_machines_own_and_never_loopback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def resolved(*_: object, **__: object) -> list[tuple[object, ...]]:
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.1.1", 0)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", 0)),
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("fe80::1", 0, 0, 2)),
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("2001:db8::7", 0, 0, 0)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", resolved)
    found = own_addresses()
    assert "10.1.2.3" in found and "2001:db8::7" in found
    assert not any(address.startswith(("127.", "fe80")) for address in found)
    assert reachable("0.0.0.0", 8765)[-2:] == ["10.1.2.3:8765", "[2001:db8::7]:8765"]
