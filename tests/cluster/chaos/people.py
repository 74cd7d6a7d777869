"""The people of a chaos run, and what they share.

People move when it is their turn, after a short pause, with a legal move drawn from a
seeded generator. A person whose connection closes comes back through another node with
the seat token; a request answered `unavailable` is sent again after a pause; a request
with no answer within the timeout counts as `no answer` and the person carries on on the
same connection (a paused node must still get what was sent to it when it wakes)."""

import asyncio
import contextlib
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.protocol import messages as m

from .cluster import Cluster
from .connection import RETRY_PAUSE, Conn, LostError, News, abandon, is_open
from .record import Recorder
from .settings import Settings

NEWS_PATIENCE: Final = 1.0
"""Seconds a person waits without news before asking for the room."""
REQUEST_TRIES: Final = 10
"""How many times a request that must be done is sent."""


class RefusedError(Exception):
    """The cluster would not make or fill a room now."""


@dataclass
class Play:
    """What every person and table of the run shares."""

    settings: Settings
    recorder: Recorder
    cluster: Cluster
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    _labels: Iterator[int] = field(default_factory=itertools.count)

    @property
    def stopping(self) -> bool:
        return self.stop.is_set()

    async def open(self, port: int, name: str, news: News | None = None) -> Conn:
        """A welcomed connection, labelled with its name, a number and its port."""
        label = f"{name}#{next(self._labels)}@{port}"
        return await Conn.open(
            port, name, label, recorder=self.recorder, timeout=self.settings.timeout, news=news
        )

    async def must(
        self, conn: Conn, message: m.ClientMessage, done: Callable[[m.ServerMessage], bool]
    ) -> m.ServerMessage:
        """The answer to `message` that is `done`; sent again while the answer is
        `unavailable` or none comes (a few times); RefusedError otherwise."""
        for _ in range(REQUEST_TRIES):
            if self.stopping:
                break
            answer = await conn.request(message)
            if answer is not None and done(answer):
                return answer
            if answer is None or (isinstance(answer, m.Error) and answer.code == "unavailable"):
                await asyncio.sleep(RETRY_PAUSE)
                continue
            raise RefusedError(f"{message.TYPE} answered {answer}")
        raise RefusedError(f"{message.TYPE} not done")

    async def join(self, conn: Conn, message: m.CreateRoom | m.Join) -> m.Joined:
        """`joined` for a room made or a seat taken."""
        answer = await self.must(conn, message, lambda answer: isinstance(answer, m.Joined))
        assert isinstance(answer, m.Joined)
        return answer


class Person:
    """One person in a seat of one room, playing their turns and coming back with the
    seat token when their connection closes."""

    def __init__(self, play: Play, name: str, colour: str, room: str, rng: random.Random) -> None:
        self.play = play
        self.name = name
        self.colour = colour
        self.room = room
        self.rng = rng
        self.token = ""
        self.conn: Conn | None = None
        self.version = 0
        self.status = "waiting"
        self.to_move: str | None = None
        self.legal: list[str] = []
        self.stale = True
        """Whether what this person knows of the room may be behind: ask for it."""
        self.news = asyncio.Event()

    async def sit(self, port: int, seat: str) -> None:
        """Connect through `port` and take `seat`; RefusedError or LostError if that fails."""
        self.conn = await self._connect(port)
        joined = await self.play.join(self.conn, m.Join(room=self.room, seat=seat))
        self.token = joined.token

    @property
    def my_turn(self) -> bool:
        return (
            not self.stale
            and self.status == "playing"
            and self.to_move == self.colour
            and bool(self.legal)
        )

    def hear(self, message: m.ServerMessage) -> None:
        """Learn from every message this person's connection receives."""
        match message:
            case m.Update() if message.room == self.room:
                if message.version == self.version + 1:
                    self._learn(message.version, message.state, None)
                elif message.version > self.version:
                    self.stale = True
            case m.RoomView() | m.Joined() | m.Watching() if message.room["room"] == self.room:
                view = message.room
                if message.id is not None or view["version"] >= self.version:
                    self._learn(view["version"], view.get("state") or {}, view["status"])
            case m.SeatChanged() if message.room == self.room:
                self.stale = True
        self.news.set()

    def _learn(self, version: int, state: dict[str, Any], status: str | None) -> None:
        """Take what a message says of the room as what this person knows."""
        self.version = version
        self.to_move = state.get("to_move")
        self.legal = list(state.get("legal_moves") or [])
        if status is not None:
            self.status = status
        elif state.get("over"):
            self.status = "finished"
        else:
            self.status = "playing"
        self.stale = False

    async def run(self) -> None:
        """Play this person's turns until the game is over or the run stops."""
        while not self.play.stopping and self.status != "finished":
            try:
                await self._step()
            except LostError:
                await self._come_back()

    async def _step(self) -> None:
        """One thing to do: catch up, move, or wait for news (then catch up)."""
        if not is_open(self.conn):
            raise LostError("closed")
        if self.stale:
            await self._refresh()
        elif self.my_turn:
            await self._move()
        else:
            self.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), NEWS_PATIENCE)
            if not self.news.is_set():
                self.stale = True

    async def _ask(self, message: m.ClientMessage) -> m.ServerMessage | None:
        """The answer on this person's connection, or None for no answer in time."""
        assert self.conn is not None
        return await self.conn.request(message)

    async def _refresh(self) -> None:
        """Ask for the room; wait a little if the cluster cannot say."""
        answer = await self._ask(m.GetRoom(room=self.room))
        if isinstance(answer, m.Error) and answer.code == "not_seated":
            await self._take_back()
        if self.stale:
            await asyncio.sleep(RETRY_PAUSE)

    async def _move(self) -> None:
        """After a short pause, a legal move at the version known; any trouble makes the
        person ask for the room again."""
        await asyncio.sleep(self.rng.uniform(*self.play.settings.pace))
        if not self.my_turn:
            return
        version, move = self.version, self.rng.choice(self.legal)
        answer = await self._ask(m.Move(room=self.room, version=version, move=move))
        if isinstance(answer, m.Ok):
            if self.version == version:
                self.to_move = None
            return
        self.stale = True
        if isinstance(answer, m.Error) and answer.code == "not_seated":
            await self._take_back()
        if isinstance(answer, m.Error) and answer.code == "unavailable":
            await asyncio.sleep(RETRY_PAUSE)

    async def _take_back(self) -> None:
        """Told `not_seated` while holding the seat: join again with the token, as a
        client would, so that play goes on (the error is counted all the same)."""
        await self._ask(m.Join(room=self.room, token=self.token))

    async def _come_back(self) -> None:
        """Connect again through another live node and take the seat back with the token,
        until that works or the run stops."""
        avoid = self.conn.port if self.conn is not None else None
        while not self.play.stopping:
            for port in self.play.cluster.ports(avoid):
                if await self._back_through(port):
                    return
            await asyncio.sleep(RETRY_PAUSE)

    async def _back_through(self, port: int) -> bool:
        """Whether a new connection through `port` took the seat back."""
        try:
            conn = await self._connect(port)
            answer = await conn.request(m.Join(room=self.room, token=self.token))
        except LostError:
            return False
        if isinstance(answer, m.Joined):
            self.conn = conn
            return True
        conn.abandon()
        return False

    async def _connect(self, port: int) -> Conn:
        """A connection of this person's through `port`, recorded as one holding a seat."""
        conn = await self.play.open(port, self.name, self.hear)
        self.play.recorder.people.add(conn.label)
        return conn

    def leave(self) -> None:
        """Close this person's connection, gracefully, in the background."""
        abandon(self.conn)
