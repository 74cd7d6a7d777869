"""Ratings in words (protocol.md 2.10): a rating as `1532?` while provisional, a change as
`1500 → 1532 (+32)`, whether a game counts. Pure: server maps in, text out."""

from collections.abc import Mapping, Sequence
from typing import Any

MINUS = "\u2212"
"""A true minus sign, as a change is printed, so that a fall lines up with a rise."""
BETWEEN = "\u2013"
"""An en dash, between the scores of a game: 40-30-20 as printed."""


def rating_value(rating: object) -> tuple[int, bool] | None:
    """A rating's number and whether it is provisional, from `{"value", "provisional",
    "games"}` or a bare number; None for anything else."""
    if isinstance(rating, Mapping):
        value = rating.get("value")
        provisional = bool(rating.get("provisional", False))
    else:
        value, provisional = rating, False
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return round(value), provisional


def rating_text(rating: object) -> str:
    """A rating as shown beside a name: `1532`, `1500?` while provisional; "" for none."""
    read = rating_value(rating)
    if read is None:
        return ""
    value, provisional = read
    return f"{value}?" if provisional else str(value)


def signed(number: int) -> str:
    """A change with its sign: `+32`, a minus sign and `12`, `±0`."""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"{MINUS}{-number}"
    return "±0"


def change_text(change: object) -> str:
    """A rating's change in one game: `1500 → 1532 (+32)`; "" for none."""
    if not isinstance(change, Mapping):
        return ""
    before, after = change.get("before"), change.get("after")
    if not (isinstance(before, int) and isinstance(after, int)):
        return ""
    return f"{before} → {after} ({signed(after - before)})"


def change_of(change: object) -> str:
    """Just the change of a rating in one game: `+32`; "" for none."""
    if not isinstance(change, Mapping):
        return ""
    before, after = change.get("before"), change.get("after")
    if not (isinstance(before, int) and isinstance(after, int)):
        return ""
    return signed(after - before)


def seat_rating(seat: Mapping[str, Any]) -> object:
    """The rating a seat of a room view or summary carries: on the seat, or on its holder."""
    rating = seat.get("rating")
    if rating is None and isinstance(seat.get("holder"), Mapping):
        rating = seat["holder"].get("rating")
    return rating


def counts_words(view: Mapping[str, Any]) -> str:
    """Whether a room's game is rated, and why not: "" where the server does not say. An
    aborted game counts for nobody, though its view may still call it rated."""
    if view.get("ended") == "aborted":
        return "Aborted: it counts for nobody's rating."
    if "rated" not in view:
        return ""
    if view.get("rated"):
        return "Rated game: it counts for everyone's rating."
    why = view.get("unrated")
    return f"Unrated: {why}." if isinstance(why, str) and why else "Unrated game."


def changes_words(
    view: Mapping[str, Any], names: Mapping[str, str], colours: Sequence[str]
) -> list[str]:
    """After a rated game: each seat's change, `Blue (Ann) 1500 → 1532 (+32)`, in seat
    order; none before the server has kept them."""
    changes = view.get("rating_changes")
    if not isinstance(changes, Mapping):
        return []
    lines = []
    for colour in colours:
        text = change_text(changes.get(colour))
        if text:
            who = names.get(colour)
            seat = colour.capitalize() + (f" ({who})" if who else "")
            lines.append(f"{seat} {text}")
    return lines
