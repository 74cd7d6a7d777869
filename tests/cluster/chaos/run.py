"""A chaos run: the cluster started and its tables playing, one fault a round, then every
room's final view read and judged.

A round lets play run a few seconds, injects one fault (`KINDS`) and waits until every room
playing at the fault has moved again. The record of every message (`record.jsonl`) and the
report (`report.txt`) are written to the run's folder, beside the nodes' logs."""

import asyncio
import contextlib
import random
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from parlour.protocol import messages as m

from .cluster import Cluster, Slot
from .connection import (
    CLOSE_TIMEOUT,
    RETRY_PAUSE,
    Conn,
    LostError,
    abandon,
    is_open,
    settle_background,
)
from .judge import FinalView, SeatCheck, judge
from .people import Play
from .record import Recorder, Round
from .report import Report, Violation
from .settings import CALM, Fault, Settings
from .tables import Table

READ_PAUSE: Final = 0.06
"""Seconds between the final views' requests: within the protocol's rate limit."""


def _silent(_: str) -> None:
    """Say nothing."""


class Chaos:
    """A chaos run: the cluster, its tables, the rounds of faults, then the judgement."""

    def __init__(
        self, settings: Settings, folder: Path, say: Callable[[str], None] = _silent
    ) -> None:
        self.settings = settings
        self.say = say
        self.rng = random.Random(settings.seed)
        self.recorder = Recorder()
        self.cluster = Cluster(folder, settings)
        self.play = Play(settings, self.recorder, self.cluster)
        self.tables: list[Table] = []
        self.rounds: list[Round] = []
        self.stuck: dict[str, int] = {}
        """Rooms that did not move again after a fault, and the version they stopped at."""
        self.crashes: list[Violation] = []
        """Nodes that exited though no fault killed them."""
        self.gone: set[int] = set()
        """The places of nodes gone and accounted for (a fault killed them, or their
        crash was noted), not started again yet."""

    async def run(self, kinds: Sequence[Fault]) -> Report:
        """Start the cluster and play, one round for each of `kinds`, then read every
        room's final view and judge what was shown against it."""
        tasks: list[asyncio.Task[None]] = []
        try:
            await self.cluster.start()
            games = ["othello"] * self.settings.othello_rooms
            games += ["tribolo"] * self.settings.tribolo_rooms
            self.tables = [
                Table(self.play, number, game, random.Random(self.rng.random()))
                for number, game in enumerate(games, 1)
            ]
            tasks = [asyncio.create_task(table.run()) for table in self.tables]
            await self._until_playing()
            for number, kind in enumerate(kinds, 1):
                self.rounds.append(await self._round(number, kind, last=number == len(kinds)))
            await asyncio.sleep(self.settings.tail)
            await self._replace_dead("the end", replace=False)
            await self._wind_down(tasks)
            finals = await self._final_views()
            report = judge(self.settings, self.recorder, self.rounds, finals, self._seats())
            report.violations += self.crashes
            (self.cluster.folder / "report.txt").write_text(report.described() + "\n")
            return report
        finally:
            with contextlib.suppress(OSError):
                self.recorder.write(self.cluster.folder / "record.jsonl", self.rounds)
            self.play.stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for table in self.tables:
                table.leave()
            await settle_background(CLOSE_TIMEOUT)
            await self.cluster.stop()

    async def _until_playing(self) -> None:
        """Wait (a while) until every table plays a room."""
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline and any(t.room is None for t in self.tables):
            await asyncio.sleep(0.1)

    async def _wind_down(self, tasks: list[asyncio.Task[None]]) -> None:
        """Stop play; a table that failed (the harness's own fault) fails the run."""
        self.play.stop.set()
        await asyncio.wait(tasks, timeout=self.settings.timeout + 5.0)
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise RuntimeError("a table of the chaos run failed") from task.exception()

    async def _round(self, number: int, kind: Fault, *, last: bool) -> Round:
        """Play a while, inject one fault, and wait until the rooms move again; then, unless
        it is the `last` round, start a node in the place of each that is gone."""
        await asyncio.sleep(self.rng.uniform(*self.settings.calm))
        slot = self._target()
        target = "redis" if kind == Fault.REDIS_KILL else slot.name
        fault = Round(number, kind, target, time.monotonic())
        await self._inject(fault, slot)
        fault.cleared_at = time.monotonic()
        await self._until_moved(fault)
        fault.end_at = time.monotonic()
        self.say(self._told(fault))
        self.stuck.update(self.recorder.unmoved(fault.affected))
        await self._replace_dead(fault.title, replace=not last)
        return fault

    async def _replace_dead(self, when: str, *, replace: bool) -> None:
        """Note each node that exited though no fault killed it (a violation); start a node
        in the place of each that is gone if told to `replace` them."""
        for slot in self.cluster.slots:
            if slot.live:
                continue
            if slot.number not in self.gone:
                code = slot.node.process.returncode
                log = self.cluster.log(slot.number, slot.started)
                text = f"{slot.name} exited by itself (code {code}) by {when}; its log: {log}"
                self.crashes.append(Violation("crashed", CALM, text))
                self.gone.add(slot.number)
            if replace:
                await self.cluster.replace(slot)
                self.gone.discard(slot.number)

    def _target(self) -> Slot:
        """A node to fault, drawn from those some table's connections go through (a node
        started in place of a killed one may have none yet)."""
        ports = {conn.port for table in self.tables for conn in table.conns()}
        used = [slot for slot in self.cluster.slots if slot.node.port in ports]
        return self.rng.choice(used or self.cluster.slots)

    async def _inject(self, fault: Round, slot: Slot) -> None:
        """Do the fault (a node killed is replaced once the rooms have moved again, so
        that a node starting takes no CPU from the failover timed, and only if another
        round follows)."""
        settings = self.settings
        match fault.kind:
            case Fault.NODE_KILL:
                self._mark(fault)
                self.gone.add(slot.number)
                await slot.node.kill()
            case Fault.NODE_PAUSE:
                self._cut_off(fault, slot)
                slot.node.signal(signal.SIGSTOP)
                try:
                    await asyncio.sleep(settings.pause_seconds)
                finally:
                    slot.node.signal(signal.SIGCONT)
                    slot.down = False
            case Fault.REDIS_KILL:
                await self.cluster.redis.kill()
                await asyncio.sleep(self.rng.uniform(*settings.redis_down))
                await self.cluster.redis.start()
                self._mark(fault)
            case Fault.PROXY_RESET:
                self._mark(fault)
                slot.proxy.reset()
            case Fault.BLACKHOLE:
                self._cut_off(fault, slot)
                try:
                    await slot.proxy.blackhole(settings.blackhole_seconds)
                finally:
                    slot.down = False

    def _mark(self, fault: Round) -> None:
        """Failover is timed from now, for the rooms playing now that an earlier fault
        has not left stuck."""
        fault.from_at = time.monotonic()
        self.stuck = self.recorder.unmoved(self.stuck)
        playing = self.recorder.playing()
        fault.stuck = set(playing) & set(self.stuck)
        fault.affected = {room: v for room, v in playing.items() if room not in fault.stuck}

    def _cut_off(self, fault: Round, slot: Slot) -> None:
        """`slot`'s node is about to be paused or cut off: the rooms with a person
        connected through it are left out of the bound."""
        slot.down = True
        fault.excluded = {
            table.room
            for table in self.tables
            if table.room is not None and table.seated_through(slot.node.port)
        }
        self._mark(fault)

    async def _until_moved(self, fault: Round) -> None:
        """Wait until every room playing at the fault has moved again, or for the bound
        and `settle` seconds after the fault cleared."""
        deadline = fault.cleared_at + self.settings.bound + self.settings.settle
        while time.monotonic() < deadline and self.recorder.unmoved(fault.affected):
            await asyncio.sleep(0.1)

    def _told(self, fault: Round) -> str:
        """A line on how the round went, for the one watching."""
        still = self.recorder.unmoved(fault.affected)
        moving = f"{len(fault.affected) - len(still)} of {len(fault.affected)} rooms moved"
        took = time.monotonic() - fault.from_at
        earlier = f"; {len(fault.stuck)} still stuck from before" if fault.stuck else ""
        return f"{fault.title}: {moving} again within {took:.1f} s{earlier}"

    async def _final_views(self) -> dict[str, FinalView]:
        """Every room's view, read through a live node (retried while refused)."""
        reader = FinalReader(self.play, time.monotonic() + self.settings.final_timeout)
        finals = {}
        for table in self.tables:
            for room in table.rooms:
                finals[room] = await reader.read(room)
                await asyncio.sleep(READ_PAUSE)
        reader.close()
        return finals

    def _seats(self) -> list[SeatCheck]:
        """Every person of every table's current room, to be found in their seat."""
        return [
            SeatCheck(table.room, person.colour, person.name, is_open(person.conn))
            for table in self.tables
            if table.room is not None
            for person in table.people
        ]


class FinalReader:
    """Reads rooms' views as a watcher, through whichever live node answers."""

    def __init__(self, play: Play, deadline: float) -> None:
        self.play = play
        self.deadline = deadline
        self.conn: Conn | None = None

    async def read(self, room: str) -> FinalView:
        """The room's view; tried until the deadline (once at least)."""
        while True:
            try:
                answer = await self._ask(m.Spectate(room=room))
            except LostError as lost:
                answer, why = None, str(lost)
            else:
                why = _why(answer, self.play.settings.timeout)
            if isinstance(answer, m.Watching):
                view = answer.room
                moves = tuple(str(move) for move in view["moves"])
                return FinalView(room, moves, tuple(view["seats"]), read_at=time.monotonic())
            if time.monotonic() > self.deadline:
                return FinalView(room, None, error=why)
            await asyncio.sleep(RETRY_PAUSE)

    async def _ask(self, message: m.ClientMessage) -> m.ServerMessage | None:
        """Ask through the reader's connection, opening one to a live node if needed."""
        if not is_open(self.conn):
            ports = self.play.cluster.ports()
            if not ports:
                raise LostError("no live node")
            self.conn = await self.play.open(ports[0], "auditor")
        return await self.conn.request(message)

    def close(self) -> None:
        """Close the reader's connection in the background."""
        abandon(self.conn)


def _why(answer: m.ServerMessage | None, timeout: float) -> str:
    """Why an answer is not the one wanted, in a few words."""
    if answer is None:
        return f"no answer within {timeout:g} s"
    if isinstance(answer, m.Error):
        return answer.code
    return answer.TYPE
