"""The tables of a chaos run: each room made by a host connection on one node that takes no
seat, its people joined through other nodes so that their requests and updates cross Redis;
a finished game followed by a fresh room at the same table."""

import asyncio
import itertools
import random
from typing import Final

from parlour.protocol import messages as m

from .connection import RETRY_PAUSE, Conn, LostError, abandon
from .people import Person, Play, RefusedError
from .record import started

PERSON_SEATS: Final = {"othello": ("black", "white"), "tribolo": ("blue",)}
BOT_SEATS: Final = {"othello": (), "tribolo": ("red", "green")}
BOT_LEVEL: Final = "easy"
BOT_THINK_MS: Final = 100


def seat_set(answer: m.ServerMessage) -> bool:
    """`set_seat` was done."""
    return isinstance(answer, m.Ok)


class Table:
    """One table of the run: a room at a time, made by a host that takes no seat on one
    node, with its people on the others; a fresh room when a game ends."""

    def __init__(self, play: Play, number: int, game: str, rng: random.Random) -> None:
        self.play = play
        self.number = number
        self.game = game
        self.rng = rng
        self.rooms: list[str] = []
        """Every room made here, in order."""
        self.room: str | None = None
        """The room being played, once started."""
        self.host: Conn | None = None
        self.people: list[Person] = []

    def conns(self) -> list[Conn]:
        """The connections of this table: the host's and its people's."""
        held = [self.host, *(person.conn for person in self.people)]
        return [conn for conn in held if conn is not None]

    def seated_through(self, port: int) -> bool:
        """Whether one of this table's people is connected through the node on `port`."""
        return any(p.conn is not None and p.conn.port == port for p in self.people)

    async def run(self) -> None:
        """Make a room, play it to the end, make another, until the run stops."""
        while await self._open_room():
            await asyncio.gather(*(person.run() for person in self.people))
            if self.play.stopping:
                return
            self.leave()

    async def _open_room(self) -> bool:
        """Make and start a room, trying other nodes while the cluster refuses; False
        if the run stopped first."""
        for attempt in itertools.count():
            if self.play.stopping:
                return False
            ports = self.play.cluster.ports()
            if len(ports) >= 2:
                host = ports[(self.number + len(self.rooms) + attempt) % len(ports)]
                try:
                    await self._make(host, [port for port in ports if port != host])
                    return True
                except (RefusedError, LostError):
                    self.leave()
            await asyncio.sleep(RETRY_PAUSE)
        return False

    async def _make(self, host_port: int, others: list[int]) -> None:
        """Make a room through `host_port`, seat its people through `others`, start it."""
        play = self.play
        self.host = host = await play.open(host_port, f"host{self.number}")
        create = m.CreateRoom(
            game=self.game,
            seat=None,
            standin_after=0,
            bot_think_ms=BOT_THINK_MS,
            time_control=play.settings.time_control,
        )
        room = str((await play.join(host, create)).room["room"])
        self.rooms.append(room)
        for seat in BOT_SEATS[self.game]:
            bot = m.SetSeat(room=room, seat=seat, holder="bot", level=BOT_LEVEL)
            await play.must(host, bot, seat_set)
        for index, colour in enumerate(PERSON_SEATS[self.game]):
            name = f"t{self.number}{colour[0]}{len(self.rooms)}"
            person = Person(play, name, colour, room, random.Random(self.rng.random()))
            self.people.append(person)
            await person.sit(others[(self.number + index) % len(others)], colour)
        await play.must(host, m.Start(room=room), started)
        self.room = room

    def leave(self) -> None:
        """Close this table's connections, gracefully, in the background."""
        abandon(self.host)
        for person in self.people:
            person.leave()
        self.host, self.people, self.room = None, [], None
