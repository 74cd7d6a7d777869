"""What a node remembers of where other rooms live stays bounded, and never forgets what
its own rooms and connections use."""

import pytest

from parlour.server.cluster import takeover
from parlour.server.cluster.members import Memberships
from parlour.server.cluster.takeover import Takeover


def test_remembered_owners_and_codes_are_trimmed_to_what_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(takeover, "CACHE_LIMIT", 10)
    node = Takeover()
    node.fences = {"mine": 3}
    node.members = Memberships()
    node.members.note(7, "joined", {"room": {"room": "theirs"}, "token": "t"}, at=2)
    node.owners = {"mine": 1, "theirs": 2} | {f"old{n}": 2 for n in range(6)}
    node.refs = {"code-theirs": "theirs"} | {f"code{n}": f"old{n}" for n in range(6)}
    node._trim_caches()
    assert node.owners == {"mine": 1, "theirs": 2}
    assert node.refs == {"code-theirs": "theirs"}
    node.owners["other"] = 4
    node._trim_caches()
    assert "other" in node.owners, "under the bound nothing is forgotten"
