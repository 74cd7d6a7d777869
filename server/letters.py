"""The mails the server sends (protocol.md 2.13), as plain text: a code to confirm an
address, a digest of the games waiting on a player, a reminder before a days-per-move
clock runs out. Each game comes with the command and the page link that take the player
back to it, at the address other machines reach the server by."""

import json
import textwrap
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from parlour.rules import GAMES

from .emails import CODE_MS

CODE: Final = "code"
DIGEST: Final = "digest"
REMINDER: Final = "reminder"
STOP: Final = (
    "To stop these mails, remove your address in Parlour (the set_email request with no"
    " address); the same request with digest_hours sets how often digests may come."
)
WIDTH: Final = 72
"""Characters a line of prose takes at most; commands and links are never broken."""


@dataclass(frozen=True, slots=True)
class Mail:
    """One mail to send: plain text to one address."""

    to: str
    subject: str
    body: str
    kind: str
    """`code`, `digest` or `reminder`: what the metrics count it as."""

    def dumps(self) -> str:
        """As kept while it waits to be sent: JSON."""
        return json.dumps([self.to, self.subject, self.body, self.kind])

    @classmethod
    def loads(cls, text: str | bytes) -> "Mail":
        """A mail kept by `dumps`."""
        to, subject, body, kind = json.loads(text)
        return cls(str(to), str(subject), str(body), str(kind))


@dataclass(frozen=True, slots=True)
class Site:
    """Where the server is reached, for the links in its mails."""

    address: str = "127.0.0.1:8765"
    """`host:port` other machines reach the server at (the first it advertises)."""
    tls: bool = False

    @property
    def name(self) -> str:
        """The server as its mails name it: `Parlour at games.example.org`."""
        host = self.address.rpartition(":")[0] or self.address
        return f"Parlour at {host.strip('[]')}"

    @property
    def page(self) -> str:
        """The server's page, where anyone plays in a browser."""
        return f"{'https' if self.tls else 'http'}://{self.address}/"

    def join_command(self, ref: str) -> str:
        server = f"wss://{self.address}" if self.tls else self.address
        return f"parlour join {ref} --server {server}"

    def room_link(self, ref: str) -> str:
        return f"{self.page}r/{ref}"


def code_mail(site: Site, to: str, code: str) -> Mail:
    """The code that confirms `to` is the player's."""
    hours = CODE_MS // 3_600_000
    lines = [
        f"Your code to confirm this address on {site.name} ({site.page}) is",
        "",
        f"    {code}",
        "",
        f"Give it to Parlour within {hours} hour{'s' if hours != 1 else ''}. If you did not"
        " ask for it, ignore this mail: nothing more is sent to this address unless the code"
        " is given.",
    ]
    return Mail(to, f"{site.name}: your code {code}", _text(lines), CODE)


def digest_mail(
    site: Site, to: str, games: Iterable[dict[str, Any]], hours: int, now_ms: int
) -> Mail:
    """The games waiting on the player's move (entries of `my_games`' `playing`)."""
    waiting = list(games)
    count = f"{len(waiting)} game{'s' if len(waiting) != 1 else ''}"
    lines = [f"{count} on {site.name} {'wait' if len(waiting) != 1 else 'waits'} for your move:"]
    for game in waiting:
        lines += ["", *_game_lines(site, game, now_ms)]
    every = {1: "an hour", 24: "a day"}.get(hours, f"every {hours} hours")
    lines += [
        "",
        f"This digest comes at most once {every}, only while you are not connected, and"
        " only when a game has begun waiting on you since the last.",
        "",
        STOP,
    ]
    subject = f"{site.name}: {count} {'wait' if len(waiting) != 1 else 'waits'} for your move"
    return Mail(to, subject, _text(lines), DIGEST)


def reminder_mail(site: Site, to: str, game: dict[str, Any], now_ms: int) -> Mail:
    """Time is running out for the player's move in `game` (an entry of `playing`)."""
    left = int(game.get("time_left_ms") or 0)
    title = _title(game)
    lines = [
        f"Your time for a move in {title} on {site.name} runs out in {duration(left)},"
        f" at {_when(now_ms + left)}. If you have not moved by then, you lose on time (in a"
        " game of three, you finish last and the computer plays your seat on).",
        "",
        *_game_lines(site, game, now_ms),
        "",
        "This reminder comes once a turn, when less than a quarter of the time for the move"
        " (or 12 hours) is left.",
        "",
        STOP,
    ]
    subject = f"{site.name}: {duration(left)} left for your move in {title}"
    return Mail(to, subject, _text(lines), REMINDER)


def _text(lines: Iterable[str]) -> str:
    """Lines as a mail's body: prose wrapped, indented lines (commands, links) kept whole."""
    kept = [line if line.startswith(" ") else textwrap.fill(line, WIDTH) for line in lines]
    return "\n".join(kept) + "\n"


def _game_lines(site: Site, game: dict[str, Any], now_ms: int) -> list[str]:
    seats = " and ".join(str(colour) for colour in game.get("seats", []))
    left = game.get("time_left_ms")
    clock = "no clock" if left is None else f"{duration(int(left))} left"
    moved = _when(int(game.get("moved_at", now_ms // 1000)) * 1000)
    return [
        f"{_title(game)}, you play {seats}: last move {moved}, {clock}",
        f"  {site.join_command(str(game['ref']))}",
        f"  {site.room_link(str(game['ref']))}",
    ]


def _title(game: dict[str, Any]) -> str:
    found = GAMES.get(str(game.get("game")))
    return str(game.get("game")) if found is None else found.title


def _when(unix_ms: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(unix_ms / 1000))


def duration(ms: int) -> str:
    """A time left as people say it: `2 days 3 hours`, `5 hours 12 minutes`, `40 minutes`."""
    minutes = max(0, ms) // 60_000
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    parts = [(days, "day"), (hours, "hour"), (mins, "minute")]
    said = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n]
    return " ".join(said[:2]) if said else "less than a minute"
