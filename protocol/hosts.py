"""Host names as both ends read them: whether an address names this machine alone."""

import ipaddress


def this_machine_only(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 without brackets) is loopback: a server
    there is reached from this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
