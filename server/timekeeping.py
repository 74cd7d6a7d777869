"""The lobby's time across its rooms: when each clock next needs looking at (flags, the end
of a vacation), woken for rather than ticked; clocks given back the time their keeper
could not keep them; and vacations applied to every room of the player's here."""

import heapq
from collections.abc import Mapping
from typing import Any

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m

from .answers import Outbox, refuse
from .archive import VacationQuery
from .journal import Journal
from .room import ConnId
from .services import Services
from .table import Table
from .vacations import VACATION_DAYS, Vacation


class Timekeeper:
    """Deadlines and vacations over the lobby's tables."""

    def __init__(self, tables: Mapping[str, Table], journal: Journal, services: Services) -> None:
        self.tables = tables
        self.journal = journal
        self.services = services
        self._deadlines: list[tuple[int, str]] = []
        """When clocks need looking at (Unix milliseconds), with their rooms, soonest first;
        a deadline a move has since put off is passed over when it comes."""
        self._vacations: list[tuple[str, int, int]] = []

    def resume_clocks(self, since: float) -> Outbox:
        """The rooms' keeper could not keep them from `since` (Unix time) till now (a
        cluster node cut off from Redis): their running clocks are given the time back,
        and their people shown it."""
        outbox: Outbox = []
        for table in self.tables.values():
            if table.timing.paused(int(since * 1000)):
                outbox += self.services.shown(table.room)
        return outbox

    def next_deadline(self) -> float | None:
        """When (Unix time) a clock next runs out, if one runs: the shell's time to call
        `flags_due`."""
        for room_id in self.journal.take_timed():
            table = self.tables.get(room_id)
            deadline = None if table is None else table.timing.next_event_ms()
            if deadline is not None:
                heapq.heappush(self._deadlines, (deadline, room_id))
        return self._deadlines[0][0] / 1000 if self._deadlines else None

    def flags_due(self) -> Outbox:
        """Flag the seats whose time ran out by now (`next_deadline`)."""
        now_ms = int(self.services.wall() * 1000)
        outbox: Outbox = []
        while self._deadlines and self._deadlines[0][0] <= now_ms:
            _, room_id = heapq.heappop(self._deadlines)
            table = self.tables.get(room_id)
            if table is not None:
                outbox += table.timing.time_up()
        return outbox

    def vacation_taken(
        self, conn: ConnId, request: str | int | None, query: VacationQuery, found: Any
    ) -> Outbox:
        """The database's answer to a vacation asked for: taken (and applied to the rooms
        here), or refused for want of days; or only looked at."""
        if not isinstance(found, Vacation):
            raise refuse(
                ErrorCode.NO_VACATION_LEFT,
                f"that is more vacation days than you have left this year ({VACATION_DAYS} a"
                " year, counted as they are taken)",
            )
        reply = m.VacationReply(id=request, **found.describe(query.now))
        if query.days is None:
            return [(conn, reply)]
        from_ms, until_ms = int(found.start * 1000), int(found.until * 1000)
        self._vacations.append((query.player, from_ms, until_ms))
        return [(conn, reply), *self.apply_vacation(query.player, from_ms, until_ms)]

    def vacation_found(self, query: VacationQuery, found: Any) -> Outbox:
        """The database's answer to whether a player seated in a game of days just begun is
        on vacation: if so, their days clocks here stand still till it ends."""
        if not isinstance(found, Vacation) or found.until <= query.now:
            return []
        return self.apply_vacation(query.player, int(found.start * 1000), int(found.until * 1000))

    def apply_vacation(self, player: str, from_ms: int, until_ms: int) -> Outbox:
        """`player` is on vacation from `from_ms` to `until_ms` (ended at `until_ms` if that
        is not later than now): the days clocks of their seats here stand still meanwhile."""
        outbox: Outbox = []
        for table in self.tables.values():
            if table.timing.vacation(player, from_ms, until_ms):
                outbox += self.services.shown(table.room)
        return outbox

    def vacations_taken(self) -> list[tuple[str, int, int]]:
        """Every vacation taken or ended here since the last call (player, from, until), for
        a cluster node to tell the other nodes, whose rooms it does not hold."""
        taken, self._vacations = self._vacations, []
        return taken
