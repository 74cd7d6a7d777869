"""Keeping a table civil (protocol.md 2.14): the people a player mutes and blocks, kept with
their key; reports of a person to the server's operators, kept with the room's game and its
recent chat; and the players an operator bars from the server.

A person is named by their player id, or a guest (no key) by their name, folded as names
are compared: `person_of`. Everything here is data and pure functions; the lobby, the
tables and the stores act on it."""

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.protocol.players import fold

MUTE: Final = "mute"
BLOCK: Final = "block"
KINDS: Final = (MUTE, BLOCK)
GUEST: Final = "name:"
"""How a guest is named in mutes and blocks: by their folded name after this mark."""
RECENT_CHAT: Final = 30
"""The room's chat lines a report keeps, the last ones."""
REPORTS_SHOWN: Final = 100
"""The newest reports `parlour reports` prints by default."""


def person_of(player: str | None, name: str) -> str:
    """How mutes, blocks and bars name a person: their player id, else a guest's name."""
    return player if player else GUEST + fold(name)


@dataclass(frozen=True, slots=True)
class Standing:
    """What the records say of a person as they say hello: whether an operator barred them
    (and why), whom they mute and block (with the names those went by), and who blocks
    them."""

    barred: str | None = None
    muted: dict[str, str] = field(default_factory=dict)
    """Each person muted, with their name when muted."""
    blocked: dict[str, str] = field(default_factory=dict)
    blocked_by: frozenset[str] = frozenset()

    def hides(self, player: str | None, name: str) -> bool:
        """Whether chat from the person `player` (or the guest `name`) is kept from them."""
        person = person_of(player, name)
        return person in self.muted or person in self.blocked

    def listed(self, kind: str) -> list[dict[str, str]]:
        """The people muted or blocked, as a welcome lists them."""
        kept = self.muted if kind == MUTE else self.blocked
        return [
            {"name": name} | ({} if person.startswith(GUEST) else {"player": person})
            for person, name in sorted(kept.items(), key=lambda item: fold(item[1]))
        ]

    def changed(self, kind: str, person: str, name: str, on: bool) -> "Standing":
        """The same standing with `person` muted or blocked (`on`), or no longer."""
        kept = dict(self.muted if kind == MUTE else self.blocked)
        if on:
            kept[person] = name
        else:
            kept.pop(person, None)
        if kind == MUTE:
            return Standing(self.barred, kept, self.blocked, self.blocked_by)
        return Standing(self.barred, self.muted, kept, self.blocked_by)

    def blocked_by_too(self, person: str, on: bool) -> "Standing":
        """The same standing with `person` among those who block them, or no longer."""
        by = self.blocked_by | {person} if on else self.blocked_by - {person}
        return Standing(self.barred, self.muted, self.blocked, by)


@dataclass(frozen=True, slots=True)
class SetStanding:
    """`player` mutes or blocks `person` (who went by `name`), or no longer (`on`)."""

    player: str
    person: str
    name: str
    kind: str
    on: bool


@dataclass(frozen=True, slots=True)
class Report:
    """A person reported to the operators, with what they need to judge it."""

    at: float
    by: str
    """The person who reported (`person_of`)."""
    by_name: str
    person: str
    """The person reported (`person_of`)."""
    name: str
    room: str
    game: str
    reason: str
    chat: tuple[dict[str, Any], ...]
    """The room's last chat lines, watchers' too, as its history keeps them."""
    record: str
    """The room's game so far, as a game file."""

    @property
    def key(self) -> str:
        """What makes a report one: the same reason about the same person in the same room
        by the same reporter (a report sent again after `unavailable` is kept once)."""
        made = "\n".join((self.room, self.by, self.person, self.reason))
        return hashlib.sha256(made.encode()).hexdigest()

    def describe(self) -> dict[str, Any]:
        """The report as `parlour reports --json` prints it and the records keep it."""
        return {
            "at": int(self.at),
            "by": self.by,
            "by_name": self.by_name,
            "person": self.person,
            "name": self.name,
            "room": self.room,
            "game": self.game,
            "reason": self.reason,
            "chat": list(self.chat),
            "record": self.record,
        }

    @classmethod
    def read(cls, value: dict[str, Any]) -> "Report":
        """A report as `describe` made it; KeyError, TypeError or ValueError if not one."""
        return cls(
            float(value["at"]),
            str(value["by"]),
            str(value["by_name"]),
            str(value["person"]),
            str(value["name"]),
            str(value["room"]),
            str(value["game"]),
            str(value["reason"]),
            tuple(dict(line) for line in value["chat"]),
            str(value["record"]),
        )


@dataclass(frozen=True, slots=True)
class FileReport:
    """Keep a report for the operators."""

    report: Report


def report_text(report: dict[str, Any]) -> str:
    """A kept report as `parlour reports` prints it for a person to read."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(report["at"]))
    lines = [
        f"{when}  {report['by_name']} ({report['by']}) reported {report['name']}"
        f" ({report['person']}) in room {report['room']} ({report['game']}):",
        f"  {report['reason']}",
    ]
    for line in report["chat"]:
        seat = f" [{line['seat']}]" if line.get("seat") else ""
        lines.append(f"    {line.get('name')}{seat}: {line.get('text')}")
    return "\n".join(lines)
