"""A room's history (protocol.md 2.11) as the lines of the room's log: what a person who
joins or comes back reads of what happened before. Pure: entries in, words out, in the
words the live log uses for the messages the entries mirror."""

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from parlour.protocol import messages as m

from .room import (
    aborted_words,
    chat_words,
    claimed_words,
    coin_words,
    ended_words,
    out_words,
    paused_words,
    played_words,
    seat_words,
    title,
)

Entry = Mapping[str, Any]
SCORE_DASH = "\N{EN DASH}"


def history_lines(
    entries: Iterable[Entry],
    *,
    since: int = 0,
    stamp: Callable[[int], str] | None = None,
    seats: int = 2,
) -> list[str]:
    """The log's lines for `entries`, oldest first: only those numbered above `since` (the
    last one already shown), each after `stamp` of its time where one is given; `seats`,
    the room's, words a draw offer as its room's. An entry of a kind this client does not
    know, or that it cannot read, is left out."""
    lines = []
    over = changed = False
    for entry in entries:
        try:
            was_over, over = over, over_after(entry, over)
            was_changed, changed = changed, changed_after(entry, changed)
            if int(entry["n"]) <= since:
                continue
            said = entry_lines(entry, seats=seats, over=was_over, outlived=was_changed)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if stamp is not None:
            said = [f"{stamp(int(entry['at']))} {line}" for line in said]
        lines += said
    return lines


def over_after(entry: Entry, over: bool) -> bool:
    """Whether the room's game is over after `entry`, `over` telling whether it was before."""
    kind = entry.get("kind")
    if kind in ("over", "aborted"):
        return True
    if kind in ("started", "new_game", "undo"):
        return False
    if kind == "loaded":
        return bool(entry.get("over"))
    return over


def changed_after(entry: Entry, changed: bool) -> bool:
    """Whether the game has just changed under any proposal about it after `entry` (it
    ended, or a seat went out), `changed` telling whether it had before: a proposal that
    expires next was ended by that (protocol.md 2.7). Seat changes and chat come between."""
    kind = entry.get("kind")
    if kind in ("resigned", "flagged", "over", "aborted", "claimed"):
        return True
    return changed and kind in ("seat", "chat")


def entry_lines(
    entry: Entry, *, seats: int = 2, over: bool = False, outlived: bool = False
) -> list[str]:
    """One entry in words: a line, two where a coin was tossed, none for an unknown kind;
    `seats`, `over` (whether the game was over before it) and `outlived` (whether the game
    had just changed) word a proposal as its room's."""
    kind = entry["kind"]
    if kind == "move":
        return [move_words(entry)]
    if kind == "seat":
        change = m.SeatSet(
            room="", seat=entry["seat"], holder=entry["holder"], by=entry["by"], after=None
        )
        return [seat_words(change)]
    if kind == "chat":
        return [
            chat_words(
                m.ChatLine(room="", name=entry["name"], seat=entry["seat"], text=entry["text"])
            )
        ]
    if kind == "started":
        return [*tossed(entry), f"The game has started: {title(entry['first'])} moves first."]
    if kind == "over":
        return [over_words(entry)]
    if kind == "new_game":
        rotated = " with everyone one seat on" if entry.get("rotated") else ""
        began = f"A new game began{rotated}: {title(entry['first'])} moves first."
        return [*tossed(entry), began]
    if kind == "undo":
        taken = int(entry["moves"])
        return [f"{taken} move{'s' * (taken != 1)} taken back."]
    if kind == "loaded":
        return ["Another game was put on the board (loaded or imported)."]
    if kind == "proposal":
        ended = m.ProposalEnded(
            room="",
            proposal="",
            kind=entry["proposal"],
            outcome=entry["outcome"],
            by=entry.get("by"),
            seat=entry.get("seat"),
        )
        return [ended_words(ended, seats=seats, over=over, outlived=outlived)]
    if kind in ("flagged", "resigned"):
        how = "flag" if kind == "flagged" else "resigned"
        return [out_words(str(entry["seat"]), entry.get("name"), how, ends=bool(entry["ends"]))]
    if kind == "claimed":
        return [claimed_words(str(entry["seat"]), entry.get("name"))]
    if kind == "aborted":
        late = entry.get("late") is True
        return [aborted_words(str(entry["seat"]), entry.get("name"), late=late)]
    if kind == "clock_paused":
        given = entry["given_ms"]
        if not isinstance(given, int) or isinstance(given, bool):
            raise TypeError(f"given_ms is {given!r}")
        return [paused_words(str(entry["seat"]), given)]
    return []


def move_words(entry: Entry) -> str:
    """A move and any seats passed over after it, as the live log says it."""
    name, level = entry.get("name"), entry.get("level")
    holder = {"kind": "human", "name": name} if level is None else {"kind": "bot", "name": name}
    return played_words(holder, entry["seat"], entry["move"], entry.get("passed", []))


def over_words(entry: Entry) -> str:
    """A game's end with the winners' names and the scores, joined by en dashes:
    `Game over: Ann won 34-30-0.`"""
    scores: Mapping[str, int] = entry["scores"]
    names: Mapping[str, str | None] = entry.get("names", {})
    winners: Sequence[str] = entry["winners"]
    standing = SCORE_DASH.join(str(score) for score in scores.values())
    who = [names.get(colour) or title(colour) for colour in winners]
    if not winners or len(winners) == len(scores):
        return f"Game over: a draw, {standing}."
    if len(who) == 1:
        return f"Game over: {who[0]} won {standing}."
    return f"Game over: {' and '.join(who)} share the win, {standing}."


def tossed(entry: Entry) -> list[str]:
    """The coin tossed for who moves first, if one was."""
    coin = entry.get("coin")
    return [coin_words(coin)] if coin else []


def time_of_day(at: int) -> str:
    """A Unix time as the hour and minute here: a `stamp` for `history_lines`."""
    return time.strftime("%H:%M", time.localtime(at))
