"""The guessing limit and the client address it counts by, without sockets."""

from dataclasses import dataclass

from parlour.server.addresses import TRUSTED_PROXIES, client_address, networks
from parlour.server.guesses import GuessLimit

TRUSTED = networks(TRUSTED_PROXIES)


@dataclass
class Clock:
    now: float = 5000.0

    def __call__(self) -> float:
        return self.now


def test_misses_are_counted_by_address_and_the_limit_holds_until_the_window_passes() -> None:
    clock = Clock()
    guesses = GuessLimit(clock, limit=3, window=600.0)
    guesses.missed("203.0.113.7")
    clock.now += 100
    guesses.missed("203.0.113.7")
    guesses.missed("198.51.100.1")
    assert not guesses.limited("203.0.113.7")
    clock.now += 100
    guesses.missed("203.0.113.7")
    assert guesses.limited("203.0.113.7")
    assert not guesses.limited("198.51.100.1"), "another address counts on its own"
    clock.now += 399.0  # the first miss is 599 s old
    assert guesses.limited("203.0.113.7")
    clock.now += 1.0  # now it is 600 s old: out of the window
    assert not guesses.limited("203.0.113.7")
    guesses.missed("203.0.113.7")
    assert guesses.limited("203.0.113.7")
    clock.now += 600
    assert not guesses.limited("203.0.113.7")
    assert guesses.addresses() == 0, "addresses with no miss left are forgotten"


def test_the_default_limit_is_twenty_misses_in_ten_minutes() -> None:
    clock = Clock()
    guesses = GuessLimit(clock)
    for _ in range(19):
        guesses.missed("a")
        clock.now += 30
    assert not guesses.limited("a")
    guesses.missed("a")
    assert guesses.limited("a")
    clock.now += 30  # the first of the twenty is 600 s old
    assert not guesses.limited("a")


def test_a_peer_that_is_no_proxy_is_the_client_whatever_the_header_says() -> None:
    assert client_address("203.0.113.7", [], TRUSTED) == "203.0.113.7"
    assert client_address("203.0.113.7", ["198.51.100.1"], TRUSTED) == "203.0.113.7"


def test_a_trusted_proxy_names_the_client_and_a_client_cannot_pass_for_another() -> None:
    assert client_address("127.0.0.1", [], TRUSTED) == "127.0.0.1"
    assert client_address("172.18.0.5", ["203.0.113.7"], TRUSTED) == "203.0.113.7"
    # What the client wrote comes first; the balancer appended what it saw.
    assert client_address("172.18.0.5", ["198.51.100.1, 203.0.113.7"], TRUSTED) == ("203.0.113.7")
    assert client_address("172.18.0.5", ["198.51.100.1", "203.0.113.7"], TRUSTED) == (
        "203.0.113.7"
    )
    # Through two trusted proxies, to the first address that is not one.
    assert client_address("127.0.0.1", ["203.0.113.7, 10.0.0.2"], TRUSTED) == "203.0.113.7"
    # Rubbish in the header stops the reading at the last proxy.
    assert client_address("10.0.0.2", ["nonsense"], TRUSTED) == "10.0.0.2"
    assert client_address("10.0.0.2", ["203.0.113.7"], networks(["127.0.0.1"])) == "10.0.0.2"


def test_an_ipv6_client_counts_by_its_network_and_a_mapped_ipv4_one_as_ipv4() -> None:
    one = client_address("2001:db8:1:2::10", [], TRUSTED)
    other = client_address("2001:db8:1:2:ffff::1", [], TRUSTED)
    assert one == other == "2001:db8:1:2::/64"
    assert client_address("2001:db8:1:3::10", [], TRUSTED) != one
    assert client_address("::ffff:203.0.113.7", [], TRUSTED) == "203.0.113.7"
    assert client_address("::1", ["2001:db8::5"], TRUSTED) == "2001:db8::/64"
    assert client_address(None, [], TRUSTED) == "unknown"
