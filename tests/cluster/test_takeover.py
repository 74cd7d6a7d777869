"""What a node remembers of where other rooms live stays bounded, and never forgets what
its own rooms and connections use."""

from unittest.mock import Mock

import pytest

from parlour.server.cluster import leases
from parlour.server.cluster.leases import Leases
from parlour.server.cluster.members import Memberships


def test_remembered_owners_and_codes_are_trimmed_to_what_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(leases, "CACHE_LIMIT", 10)
    unused = Mock(spec=[])  # trimming asks nothing of Redis, the lobby, the shell or the node
    node = Leases(
        records=unused,
        lobby=unused,
        members=Memberships(),
        link=unused,
        shell=unused,
        holder=unused,
        metrics=unused,
        counts=unused,
    )
    node.fences = {"mine": 3}
    node.members.note(7, "joined", {"room": {"room": "theirs"}, "token": "t"}, at=2)
    node.owners = {"mine": 1, "theirs": 2} | {f"old{n}": 2 for n in range(6)}
    node.refs = {"code-theirs": "theirs"} | {f"code{n}": f"old{n}" for n in range(6)}
    node.trim_caches()
    assert node.owners == {"mine": 1, "theirs": 2}
    assert node.refs == {"code-theirs": "theirs"}
    node.owners["other"] = 4
    node.trim_caches()
    assert "other" in node.owners, "under the bound nothing is forgotten"
