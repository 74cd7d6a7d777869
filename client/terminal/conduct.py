"""Keeping a table civil (protocol.md 2.14), as the terminal's room knows it: the people in a
room (seated, watching, or heard in its chat), whom this player mutes and blocks, and the
words for both. Pure: views and lists in, words out; the app asks and sends."""

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.players import fold

BLOCK_WORDS: Final = "they cannot sit at your tables, and you will not see their chat"
"""What a block does, said wherever a block is offered or told."""
REMOVED_WORDS: Final = "The host sent you out of this room."
JOINERS: Final = frozenset("\u200c\u200d")
"""The format characters a string may hold: the zero-width non-joiner and joiner."""
REASON_MOST: Final = 500
"""Characters a report's reason may have (protocol.md 2.14 `report`)."""


@dataclass(frozen=True, slots=True)
class Person:
    """Someone as mutes, blocks and reports name them: by their player id, or a guest (and a
    history entry's chat line, which carries no id) by their name alone."""

    name: str
    player: str | None = None

    @classmethod
    def read(cls, entry: Any) -> "Person | None":
        """A person from a `{"name", "player"}` map (a welcome's list, the view's watchers,
        a seat's holder); None from anything else."""
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            return None
        player = entry.get("player")
        return cls(entry["name"], player if isinstance(player, str) and player else None)

    def same(self, other: "Person") -> bool:
        """Whether the two name one person: by player id where both have one, else by name
        as the server compares names."""
        if self.player and other.player:
            return self.player == other.player
        return fold(self.name) == fold(other.name)

    def among(self, people: Iterable["Person"]) -> bool:
        return any(self.same(other) for other in people)


@dataclass
class Standing:
    """Whom this player mutes and blocks: as the welcome listed them, changed as the server
    says `ok` to each mute and block. A guest's last as long as the client runs."""

    muted: list[Person] = field(default_factory=list)
    blocked: list[Person] = field(default_factory=list)

    @classmethod
    def of(cls, welcome: m.Welcome | None) -> "Standing":
        def listed(entries: list[Any] | None) -> list[Person]:
            return [person for person in map(Person.read, entries or []) if person is not None]

        if welcome is None:
            return cls()
        return cls(listed(welcome.muted), listed(welcome.blocked))

    def welcomed(self, welcome: m.Welcome) -> None:
        """A new welcome (after a reconnection): a player's lists as the server keeps them;
        a guest's, which the server forgot with the old connection, as they were."""
        if welcome.muted is not None or welcome.blocked is not None:
            again = Standing.of(welcome)
            self.muted, self.blocked = again.muted, again.blocked

    def mutes(self, person: Person) -> bool:
        return person.among(self.muted)

    def blocks(self, person: Person) -> bool:
        return person.among(self.blocked)

    def hides(self, person: Person) -> bool:
        """Whether this player keeps `person`'s chat from sight: muted or blocked."""
        return self.mutes(person) or self.blocks(person)

    def mark(self, person: Person) -> str:
        """`blocked`, `muted`, or nothing: how lists of people mark them."""
        if self.blocks(person):
            return "blocked"
        return "muted" if self.mutes(person) else ""

    def change(self, kind: str, person: Person, *, on: bool) -> None:
        """The server said `ok` to `kind` (`mute` or `block`) of `person`, `on` or lifted."""
        kept = self.muted if kind == "mute" else self.blocked
        kept[:] = [each for each in kept if not each.same(person)]
        if on:
            kept.append(person)


@dataclass(frozen=True, slots=True)
class Present:
    """A person of a room as the People list shows them: the seats they hold, whether they
    watch, and (for one neither seated nor watching) that they spoke in it."""

    person: Person
    seats: tuple[str, ...] = ()
    watching: bool = False

    def where(self) -> str:
        """Where they are in the room, as a sentence: `Bob plays White.`"""
        if self.seats:
            colours = " and ".join(colour.capitalize() for colour in self.seats)
            return f"{self.person.name} plays {colours}."
        if self.watching:
            return f"{self.person.name} is watching this room."
        return f"{self.person.name} spoke in this room."

    def line(self, standing: Standing) -> str:
        """The person in a list: `Zed: watching (muted)`."""
        if self.seats:
            at = "plays " + " and ".join(colour.capitalize() for colour in self.seats)
        else:
            at = "watching" if self.watching else "spoke here"
        mark = standing.mark(self.person)
        return f"{self.person.name}: {at}" + (f" ({mark})" if mark else "")


def seated_person(holder: Mapping[str, Any]) -> Person | None:
    """The person a seat is theirs: a person playing it, away (the computer standing in), or
    who handed it to the computer; None for the computer's own seat and an open one."""
    return Person.read(holder) if holder.get("kind") != "open" else None


def people_in(
    view: Mapping[str, Any], heard: Sequence[Person], me: Sequence[Person]
) -> list[Present]:
    """The people of a room but this screen's: seated first, in seat order, then watchers,
    then those heard in its chat who are neither; each once."""
    yours = set(view.get("yours") or [])
    found: list[Present] = []

    def known(person: Person) -> bool:
        return person.among(me) or person.among(each.person for each in found)

    for seat in view.get("seats") or []:
        person = seated_person(seat["holder"])
        if person is None or seat["colour"] in yours or person.among(me):
            continue
        index = next((i for i, each in enumerate(found) if each.person.same(person)), None)
        if index is None:
            found.append(Present(person, (str(seat["colour"]),)))
        else:
            held = found[index]
            found[index] = Present(held.person, (*held.seats, str(seat["colour"])))
    for entry in view.get("watchers") or []:
        person = Person.read(entry)
        if person is not None and not known(person):
            found.append(Present(person, watching=True))
    for person in heard:
        if not known(person):
            found.append(Present(person))
    return found


def standing_words(person: Person, standing: Standing) -> str:
    """What this player's mute or block of `person` does now, or nothing."""
    if standing.blocks(person):
        return f"You block {person.name}: {BLOCK_WORDS}."
    if standing.mutes(person):
        return f"You mute {person.name}: you do not see their chat."
    return ""


def changed_words(kind: str, person: Person, *, on: bool) -> str:
    """A mute or block done, or lifted, as the status line says it."""
    name = person.name
    if kind == "mute":
        return f"{name} is muted: you will not see their chat." if on else f"{name} is unmuted."
    if on:
        return f"You block {name}: {BLOCK_WORDS}."
    return f"You no longer block {name}: they may sit at your tables again."


def refused_words(code: str, message: str) -> str | None:
    """A refusal about who may be in a room (protocol.md 3: `blocked`, `removed`, `barred`)
    as a plain sentence; None for any other."""
    if code == ErrorCode.BLOCKED:
        return "A person in this room has blocked you: you cannot sit at their table."
    if code == ErrorCode.REMOVED:
        return f"{REMOVED_WORDS} You may not watch it or sit in it again."
    if code == ErrorCode.BARRED:
        text = message.strip().rstrip(".")
        return text[:1].upper() + text[1:] + "."
    return None


def clean_reason(typed: str) -> str:
    """A report's reason as the server takes it (a `str`, protocol.md 2): no control or
    format characters but the two joiners, its spaces run together, at most `REASON_MOST`
    characters."""
    kept = "".join(
        char
        if char in JOINERS or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Zl", "Zp")
        else " "
        for char in typed
    )
    return " ".join(kept.split())[:REASON_MOST]
