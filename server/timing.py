"""A table's clock (protocol.md 2.12), the part of a table that keeps time: a seat flagged
when its time runs out (losing a game of two; last in a game of three, the computer playing
it on), a vacation standing a player's days clocks still (from the start of a game begun
during it), and the time given back after the room's server was away."""

from collections.abc import Callable

from parlour.protocol.endings import FLAG
from parlour.protocol.timecontrol import DAYS

from .answers import Outbox
from .archive import ArchiveAsk, VacationQuery
from .clocks import Clock
from .history import CLOCK_PAUSED
from .room import Holder, Room, Status
from .services import Services


class TableClock:
    """A room's time, for its table."""

    def __init__(
        self,
        room: Room,
        services: Services,
        put_out: Callable[[int, str], Outbox],
        abort_late: Callable[[int], Outbox],
    ) -> None:
        self.room = room
        self.services = services
        self.put_out = put_out
        """Puts a seat out of the game (`Endings.out`)."""
        self.abort_late = abort_late
        """Aborts the game for a seat late with its first move (`Endings.late`)."""

    def time_up(self) -> Outbox:
        """Flag the seat to move if its time (and grace) ran out, abort the game if its
        person is late with a first move, and show the room when a vacation ended: worked
        out when the room is next asked anything, or when the lobby's time for it comes."""
        room, clock = self.room, self.room.clock
        if clock is None or room.status is not Status.PLAYING:
            return []
        now = room.now_ms()
        shown = self.services.shown(room) if clock.settle(now) else []
        late = self._late_first_move()
        if late is not None and now >= late[1]:
            return self.abort_late(late[0])
        seat = clock.out_of_time(now)
        return shown if seat is None else self._flag(seat, now)

    def next_event_ms(self) -> int | None:
        """When the room's clock next needs looking at (Unix milliseconds): a flag, a late
        first move, or the end of a hold."""
        clock = self.room.clock
        if clock is None or self.room.status is not Status.PLAYING:
            return None
        late = self._late_first_move()
        soonest = clock.next_event_ms()
        if late is None or soonest is None:
            return soonest
        return min(soonest, late[1])

    def _late_first_move(self) -> tuple[int, int] | None:
        """The seat to move and when its person is late, while it is yet to make a first
        move; a flag before then aborts the game too."""
        clock = self.room.clock
        if clock is None or clock.running is None or clock.running not in self.room.yet_to_move():
            return None
        due = clock.first_move_due_ms()
        deadline = clock.deadline_ms()
        assert due is not None and deadline is not None
        return clock.running, min(due, deadline)

    def _flag(self, index: int, now_ms: int) -> Outbox:
        """`index`'s time ran out: it is out of the game (`Endings.out`)."""
        clock = self.room.clock
        assert clock is not None
        clock.flag(index, now_ms)
        return self.put_out(index, FLAG)

    def vacation(self, player: str, from_ms: int, until_ms: int) -> bool:
        """The days clocks of `player`'s seats here stand still from `from_ms` to `until_ms`
        (a vacation), or run again now where `until_ms` is not later (one ended early).
        Whether anything changed."""
        room, clock = self.room, self.room.clock
        if clock is None or clock.control.kind != DAYS or room.status is not Status.PLAYING:
            return False
        now = room.now_ms()
        changed = False
        for index, seat in enumerate(room.seats):
            if seat.player != player or seat.holder is not Holder.HUMAN:
                continue
            held = clock.holds.get(index)
            if until_ms > now:
                clock.hold(index, from_ms, until_ms)
            elif held is not None:
                clock.holds[index] = (held[0], min(held[1], until_ms))
                clock.settle(now)
            else:
                continue
            changed = True
        return changed

    def vacations_asked(self, before: Clock | None) -> Outbox:
        """A new game of days per move began (its clock is not `before`): the database is
        asked whether each player seated as a person is on vacation, for their time to
        stand still from the start (`Timekeeper.vacation_found`)."""
        clock = self.room.clock
        if clock is None or clock is before or clock.control.kind != DAYS:
            return []
        players = {
            seat.player
            for seat in self.room.seats
            if seat.player is not None and seat.holder is Holder.HUMAN
        }
        asker, now = self.services.asker, self.services.wall()
        outbox: Outbox = []
        for player in sorted(players):
            outbox += asker.ask(ArchiveAsk(None, None, VacationQuery(player, None, now)))
        return outbox

    def paused(self, since_ms: int) -> int:
        """The room's server was away from `since_ms` till now: the time is given back to
        the seat to move, and the history says so. The time given back."""
        room, clock = self.room, self.room.clock
        if clock is None or clock.running is None or room.status is not Status.PLAYING:
            return 0
        colour = room.seats[clock.running].colour
        given = clock.paused(since_ms, room.now_ms())
        if given > 0:
            room.history.add(CLOCK_PAUSED, self.services.wall(), seat=colour, given_ms=given)
            self.services.journal.unsaved.add(room.id)
        return given
