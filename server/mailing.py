"""Players' mail (protocol.md 2.13), the lobby's part, without I/O: the requests about a
player's address, and on each look the shell asks for, which digests and reminders may be
due. The database has the last word on each mail, in one transaction, so that of several
servers asking, one sends it; the shell sends the mails this part makes (`take`)."""

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.fields import CODE_DIGITS
from parlour.protocol.timecontrol import DAY_MS, DAYS

from .answers import Outbox, refuse
from .archive import ArchiveAsk, DigestQuery, EmailQuery, MailQuery, ReminderQuery
from .asking import Asker
from .emails import (
    UNVERIFIED_AGAIN_MS,
    Digest,
    EmailAnswer,
    EmailChange,
    NotYet,
    ReadAddress,
    SetAddress,
    Verify,
    reminder_at_ms,
)
from .known import playing_in
from .letters import Mail, Site, code_mail, digest_mail, reminder_mail
from .notices import TurnNotices, awaited
from .people import People
from .records import room_record
from .room import ConnId, Room, Seat

MailRequest = m.SetEmail | m.VerifyEmail | m.GetEmail
MAIL_REQUESTS: Final = (m.SetEmail, m.VerifyEmail, m.GetEmail)


def new_code() -> str:
    """A code to confirm an address: `CODE_DIGITS` random digits."""
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


@dataclass
class Mailing:
    """Players' addresses, and the digests and reminders they are due."""

    asker: Asker
    people: People
    rooms: Mapping[str, Room]
    """The lobby's rooms, by id."""
    notices: TurnNotices
    """When each room's turn began."""
    now_ms: Callable[[], int]
    """Unix milliseconds."""
    enabled: bool = False
    """Whether the server sends mail: its operator gave it an SMTP server."""
    site: Site = field(default_factory=Site)
    draw_code: Callable[[], str] = new_code
    _mails: list[Mail] = field(default_factory=list, repr=False)
    _digests: dict[str, tuple[int, int | None]] = field(default_factory=dict, repr=False)
    """For each player asked about: the newest turn asked of, and when to ask again even
    with no newer turn (never, for None)."""
    _asking: set[str] = field(default_factory=set, repr=False)
    """Players whose digest is being asked of the database now."""
    _reminded: dict[str, tuple[str, int | None]] = field(default_factory=dict, repr=False)
    """For each room: the turn last asked of for a reminder, and when to ask again."""

    # Requests.

    def handle(self, conn: ConnId, message: MailRequest) -> Outbox:
        """`set_email`, `verify_email` or `get_email` from a player, answered once the
        database has applied it to their record."""
        if not self.enabled:
            raise refuse(
                ErrorCode.NO_EMAIL, "this server sends no mail: its operator has not set it up"
            )
        player = self.people.players.get(conn)
        if player is None:
            raise refuse(ErrorCode.NO_KEY, "guests have no address of their own: send a key")
        change: EmailChange
        match message:
            case m.SetEmail():
                change = SetAddress(message.address, message.digest_hours, self.draw_code())
            case m.VerifyEmail():
                change = Verify(message.code)
            case m.GetEmail():
                change = ReadAddress()
        query = EmailQuery(player, change, self.now_ms())
        return self.asker.ask(ArchiveAsk(conn, message.id, query))

    def _changed(self, conn: ConnId, request: str | int | None, found: EmailAnswer) -> Outbox:
        address = found.shown.get("address")
        if found.code is not None and address is not None:
            self._mails.append(code_mail(self.site, str(address), found.code))
        if found.refused is not None:
            code, message, detail = found.refused
            raise refuse(code, message, **detail)
        return [(conn, m.EmailReply(id=request, **found.shown))]

    # Digests and reminders.

    def sweep(self) -> Outbox:
        """Ask the database about every digest and reminder that may be due now: a digest
        for each player some room waits on who is not connected here, a reminder for each
        days-per-move turn of a player's in its last quarter (or 12 hours)."""
        if not self.enabled:
            return []
        now = self.now_ms()
        waiting: dict[str, list[tuple[Room, int]]] = {}
        outbox: Outbox = []
        for room in list(self.rooms.values()):
            found = awaited(room)
            if found is None:
                continue
            seat, player = found
            waiting.setdefault(player, []).append((room, self.notices.began_ms(room)))
            outbox += self._remind(room, seat, player, now)
        here = set(self.people.players.values())
        for player, rooms in sorted(waiting.items()):
            if player not in here:
                outbox += self._digest(player, rooms, now)
        self._digests = {p: asked for p, asked in self._digests.items() if p in waiting}
        self._reminded = {r: asked for r, asked in self._reminded.items() if r in self.rooms}
        return outbox

    def _digest(self, player: str, rooms: list[tuple[Room, int]], now: int) -> Outbox:
        newest = max(began for _, began in rooms)
        asked = self._digests.get(player)
        if player in self._asking:
            return []
        if asked is not None and newest <= asked[0] and (asked[1] is None or now < asked[1]):
            return []
        listed = [waiting_entry(room, player, now) for room, _ in rooms]
        games = tuple(sorted(listed, key=lambda game: -int(game["moved_at"])))
        self._asking.add(player)
        query = DigestQuery(player, newest, now, games)
        return self.asker.ask(ArchiveAsk(None, None, query))

    def _remind(self, room: Room, seat: Seat, player: str, now: int) -> Outbox:
        clock = room.clock
        if clock is None or clock.control.kind != DAYS or clock.running is None:
            return []
        allowance = clock.remaining_ms[clock.running]
        left = clock.left_ms(clock.running, now)
        if now < reminder_at_ms(allowance, clock.since_ms) or left <= 0:
            return []
        marker = f"{room.id}:{room.version}:{seat.colour}"
        asked = self._reminded.get(room.id)
        if asked is not None and asked[0] == marker and (asked[1] is None or now < asked[1]):
            return []
        self._reminded[room.id] = (marker, None)
        game = waiting_entry(room, player, now)
        query = ReminderQuery(player, marker, now, left + DAY_MS, game)
        return self.asker.ask(ArchiveAsk(None, None, query))

    # The database's answers.

    def archived(
        self, conn: ConnId | None, request: str | int | None, query: MailQuery, found: Any
    ) -> Outbox:
        """What becomes of the database's answer to one of this part's questions."""
        match query:
            case EmailQuery():
                assert conn is not None
                if isinstance(query.change, SetAddress | Verify):
                    self._digests.pop(query.player, None)
                return self._changed(conn, request, found)
            case DigestQuery():
                self._asking.discard(query.player)
                if isinstance(found, NotYet):
                    self._digests[query.player] = (query.began_ms, found.again_ms)
                    return []
                assert isinstance(found, Digest)
                self._digests[query.player] = (query.began_ms, None)
                sent = (found.address, found.games, found.hours)
                self._mails.append(digest_mail(self.site, *sent, query.now_ms))
                return []
            case ReminderQuery():
                if found is None:
                    again = query.now_ms + UNVERIFIED_AGAIN_MS
                    self._reminded[str(query.game["room"])] = (query.marker, again)
                    return []
                self._mails.append(reminder_mail(self.site, str(found), query.game, query.now_ms))
                return []

    def failed(self, query: MailQuery) -> None:
        """The database could not be asked: ask again at the next look."""
        match query:
            case DigestQuery():
                self._asking.discard(query.player)
            case ReminderQuery():
                self._reminded.pop(str(query.game["room"]), None)
            case EmailQuery():
                pass

    def take(self) -> list[Mail]:
        """Every mail made since the last call, for the shell to send."""
        mails, self._mails = self._mails, []
        return mails


def waiting_entry(room: Room, player: str, now_ms: int) -> dict[str, Any]:
    """The room as `my_games` lists it to `player`."""
    return playing_in([room_record(room, history=False)], player, now_ms)[0]
