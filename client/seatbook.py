"""The seats this user holds, kept between runs of the terminal client.

A seat's token is the only way back into it, so the client writes every token it is given
to a file in the user's data directory (platformdirs), one entry per server and room,
readable and writable by the user alone. `parlour join CODE` finds the token there, and
`parlour rooms` lists the rooms kept. The server is kept as the address it was reached
by, scheme and all, so a seat taken over `wss://` comes back over `wss://`, with the
private CA's certificate it was trusted by, if any.
"""

import json
import logging
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

import platformdirs

from .connection import join_command
from .privatefile import write_private

log = logging.getLogger("parlour.client")

FILE_NAME: Final = "seats.json"
MAX_KEPT: Final = 200
"""Rooms remembered at most; the oldest are forgotten first."""


class SeatBookError(Exception):
    """The seat file could not be read or written; the message says which and why."""


@dataclass(frozen=True)
class HeldSeat:
    """A room this user holds seats in (or hosts), on one server."""

    server: str
    room: str
    """How the room is named to its server: a private room's code, else its id."""
    token: str
    game: str
    seats: tuple[str, ...]
    host: bool
    kept_at: float
    name: str = ""
    """The name this user was known by there, so that coming back keeps it."""
    ca: str = ""
    """The private CA certificate (its path) the server was trusted by; "" for none."""

    @property
    def ca_file(self) -> Path | None:
        return Path(self.ca) if self.ca else None

    def come_back(self) -> str:
        """The command that comes back into the room, as it was reached."""
        return join_command(self.server, self.room, self.ca_file)


def default_path() -> Path:
    return Path(platformdirs.user_data_dir("parlour")) / FILE_NAME


class SeatBook:
    """The file of held seats: read whole, changed, and written back whole."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def held(self) -> list[HeldSeat]:
        """Every room kept, newest first."""
        return sorted(self._read().values(), key=lambda seat: -seat.kept_at)

    def find(self, server: str, room: str) -> HeldSeat | None:
        return self._read().get((server, room))

    def keep(
        self,
        server: str,
        room: str,
        token: str,
        game: str,
        seats: list[str],
        *,
        host: bool,
        name: str = "",
        ca: Path | None = None,
    ) -> None:
        """Remember the token that brings this user back into `room` on `server` (trusted
        by the CA certificate in `ca`)."""
        kept = self._read()
        trusted = "" if ca is None else str(ca.absolute())
        held = HeldSeat(server, room, token, game, tuple(seats), host, time.time(), name, trusted)
        kept[(server, room)] = held
        newest = sorted(kept.values(), key=lambda seat: -seat.kept_at)[:MAX_KEPT]
        self._write(newest)

    def forget(self, server: str, room: str) -> None:
        """Forget a room: its seats were given up, or it is gone."""
        kept = self._read()
        if kept.pop((server, room), None) is not None:
            self._write(list(kept.values()))

    def _read(self) -> dict[tuple[str, str], HeldSeat]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as error:
            raise SeatBookError(f"cannot read {self.path}: {error.strerror}") from None
        try:
            entries = json.loads(text)
            seats = [_held(entry) for entry in entries]
        except (ValueError, TypeError, KeyError) as error:
            raise SeatBookError(f"{self.path} is damaged ({error}); move it aside") from None
        return {(seat.server, seat.room): seat for seat in seats}

    def _write(self, seats: list[HeldSeat]) -> None:
        """Write the whole file anew, then put it in place: never half-written, and readable
        by this user alone from the moment it exists."""
        text = json.dumps([_entry(seat) for seat in seats], indent=1)
        try:
            write_private(self.path, text)
        except OSError as error:
            raise SeatBookError(f"cannot write {self.path}: {error.strerror}") from None


def _entry(seat: HeldSeat) -> dict[str, Any]:
    entry = asdict(seat)
    entry["seats"] = list(seat.seats)
    return entry


def _held(entry: dict[str, Any]) -> HeldSeat:
    seats = entry["seats"]
    if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
        raise TypeError("seats is not a list of colours")
    texts = (entry["server"], entry["room"], entry["token"], entry["game"])
    name, ca = entry.get("name", ""), entry.get("ca", "")
    if not all(isinstance(text, str) for text in (*texts, name, ca)):
        raise TypeError("an entry's server, room, token, game, name and ca are text")
    kept_at = float(entry["kept_at"])
    return HeldSeat(*texts, tuple(seats), bool(entry["host"]), kept_at, name, ca)
