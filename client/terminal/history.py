"""A room's history (protocol.md 2.11) as the lines of the room's log: what a person who
joins or comes back reads of what happened before. Pure: entries in, words out, in the
words the live log uses for the messages the entries mirror."""

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from parlour.protocol import messages as m

from .room import (
    chat_words,
    coin_words,
    ended_words,
    flagged_words,
    paused_words,
    played_words,
    seat_words,
    title,
)

Entry = Mapping[str, Any]
SCORE_DASH = "\N{EN DASH}"


def history_lines(
    entries: Iterable[Entry], *, since: int = 0, stamp: Callable[[int], str] | None = None
) -> list[str]:
    """The log's lines for `entries`, oldest first: only those numbered above `since` (the
    last one already shown), each after `stamp` of its time where one is given. An entry
    of a kind this client does not know, or that it cannot read, is left out."""
    lines = []
    for entry in entries:
        try:
            if int(entry["n"]) <= since:
                continue
            said = entry_lines(entry)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if stamp is not None:
            said = [f"{stamp(int(entry['at']))} {line}" for line in said]
        lines += said
    return lines


def entry_lines(entry: Entry) -> list[str]:
    """One entry in words: a line, two where a coin was tossed, none for an unknown kind."""
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
        return [ended_words(ended)]
    if kind == "flagged":
        return [flagged_words(str(entry["seat"]), entry.get("name"), ends=bool(entry["ends"]))]
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
