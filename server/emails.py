"""A player's address for "your turn" mail (protocol.md 2.13), and every decision about it,
without I/O: what `set_email` and `verify_email` do to the record, and whether a digest or
a reminder is due.

SQLite (`store.py`) and Redis (`cluster/records.py`) each keep one record per player and
apply these same functions to it in a transaction, so both answer alike.
"""

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Final

from parlour.protocol import ErrorCode
from parlour.protocol.messages import DEFAULT_DIGEST_HOURS

HOUR_MS: Final = 60 * 60 * 1000
CODE_MS: Final = HOUR_MS
"""How long a code sent to an address works."""
CODES_AN_HOUR: Final = 3
"""Codes sent to a player's addresses within an hour at most, and to one address by all
players together: keys cost nothing, so without the second anyone could flood another's
mailbox with codes."""
TRIES: Final = 5
"""Wrong codes that void the code waiting."""
UNVERIFIED_AGAIN_MS: Final = HOUR_MS
"""How soon a player without a verified address is looked at again for a digest."""
REMINDER_MAX_MS: Final = 12 * HOUR_MS
"""A reminder goes when the seat to move has less than this left, or less than a quarter
of the time it had when its turn began, whichever is less."""


@dataclass(frozen=True, slots=True)
class EmailRecord:
    """What the server keeps of one player's address."""

    address: str | None = None
    verified: bool = False
    digest_hours: int = DEFAULT_DIGEST_HOURS
    code: str | None = None
    """The hash of the code waiting for the player to send back (`code_hash`)."""
    code_until_ms: int = 0
    tries: int = 0
    """Wrong codes sent back for the code waiting."""
    sent_ms: tuple[int, ...] = ()
    """When codes were sent, within the last hour: the rate limit's count."""
    digest_ms: int | None = None
    """When the last digest went."""

    def shown(self) -> dict[str, Any]:
        """The record as the `email` message shows it."""
        return {
            "address": self.address,
            "verified": self.verified,
            "digest_hours": self.digest_hours,
        }

    def text(self) -> str:
        """The record as stored: JSON."""
        kept = {
            "address": self.address,
            "verified": self.verified,
            "digest_hours": self.digest_hours,
            "code": self.code,
            "code_until_ms": self.code_until_ms,
            "tries": self.tries,
            "sent_ms": list(self.sent_ms),
            "digest_ms": self.digest_ms,
        }
        return json.dumps(kept, separators=(",", ":"))

    @classmethod
    def read(cls, text: str | bytes | None) -> "EmailRecord":
        """A stored record; none (or one that cannot be read) is a player with no address."""
        if not text:
            return cls()
        try:
            kept = json.loads(text)
            return cls(
                address=kept["address"],
                verified=bool(kept["verified"]),
                digest_hours=int(kept["digest_hours"]),
                code=kept["code"],
                code_until_ms=int(kept["code_until_ms"]),
                tries=int(kept["tries"]),
                sent_ms=tuple(int(at) for at in kept["sent_ms"]),
                digest_ms=None if kept["digest_ms"] is None else int(kept["digest_ms"]),
            )
        except (ValueError, KeyError, TypeError):
            return cls()

    def digested(self, now_ms: int) -> "EmailRecord":
        return replace(self, digest_ms=now_ms)


@dataclass(frozen=True, slots=True)
class EmailAnswer:
    """What a request about a player's address comes to: the record shown, or a refusal;
    and the code to mail, where one is to be sent."""

    shown: dict[str, Any]
    refused: tuple[ErrorCode, str, dict[str, Any]] | None = None
    code: str | None = None
    """The code to send to `shown["address"]`."""


def code_hash(player: str, code: str) -> str:
    """What is kept of a code: never the code itself."""
    return hashlib.sha256(f"{player}:{code}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SetAddress:
    """`set_email`: a new address (None removes it) and how often digests may come."""

    address: str | None
    digest_hours: int | None
    code: str
    """The code to send if the address needs one: drawn by the caller."""

    def apply(
        self, record: EmailRecord, player: str, now_ms: int, to_address: int = 0
    ) -> tuple[EmailRecord, EmailAnswer]:
        """`to_address`: the codes sent to `address` within the hour, by anyone's asking."""
        hours = record.digest_hours if self.digest_hours is None else self.digest_hours
        if self.address is None:
            gone = EmailRecord(
                digest_hours=hours, sent_ms=record.sent_ms, digest_ms=record.digest_ms
            )
            return gone, EmailAnswer(gone.shown())
        if self.address == record.address and record.verified:
            kept = replace(record, digest_hours=hours)
            return kept, EmailAnswer(kept.shown())
        recent = tuple(at for at in record.sent_ms if now_ms - at < HOUR_MS)
        if len(recent) >= CODES_AN_HOUR:
            wait_s = (min(recent) + HOUR_MS - now_ms + 999) // 1000
            refused = (
                ErrorCode.RATE_LIMITED,
                f"{CODES_AN_HOUR} codes were sent to you within the hour: ask again in"
                f" {max(1, round(wait_s / 60))} minutes",
                {"retry_after_s": wait_s},
            )
            return record, EmailAnswer(record.shown(), refused)
        if to_address >= CODES_AN_HOUR:
            refused = (
                ErrorCode.RATE_LIMITED,
                f"{CODES_AN_HOUR} codes went to {self.address} within the hour: ask again later",
                {"retry_after_s": HOUR_MS // 1000},
            )
            return record, EmailAnswer(record.shown(), refused)
        waiting = replace(
            record,
            address=self.address,
            verified=False,
            digest_hours=hours,
            code=code_hash(player, self.code),
            code_until_ms=now_ms + CODE_MS,
            tries=0,
            sent_ms=(*recent, now_ms),
        )
        return waiting, EmailAnswer(waiting.shown(), code=self.code)


@dataclass(frozen=True, slots=True)
class Verify:
    """`verify_email`: the code sent back."""

    code: str

    def apply(
        self, record: EmailRecord, player: str, now_ms: int, to_address: int = 0
    ) -> tuple[EmailRecord, EmailAnswer]:
        if record.code is None or record.address is None or now_ms >= record.code_until_ms:
            cleared = replace(record, code=None, tries=0)
            why = "no code is waiting to be sent back: set_email sends one"
            return cleared, EmailAnswer(cleared.shown(), (ErrorCode.BAD_CODE, why, {}))
        if code_hash(player, self.code) == record.code:
            verified = replace(record, verified=True, code=None, tries=0)
            return verified, EmailAnswer(verified.shown())
        tries = record.tries + 1
        if tries >= TRIES:
            void = replace(record, code=None, tries=0)
            why = f"that is not the code, {TRIES} times: it is void now; set_email sends another"
            return void, EmailAnswer(void.shown(), (ErrorCode.BAD_CODE, why, {"tries_left": 0}))
        left = TRIES - tries
        tried = replace(record, tries=tries)
        why = f"that is not the code ({left} {'try' if left == 1 else 'tries'} left)"
        return tried, EmailAnswer(tried.shown(), (ErrorCode.BAD_CODE, why, {"tries_left": left}))


@dataclass(frozen=True, slots=True)
class ReadAddress:
    """`get_email`."""

    def apply(
        self, record: EmailRecord, player: str, now_ms: int, to_address: int = 0
    ) -> tuple[EmailRecord, EmailAnswer]:
        return record, EmailAnswer(record.shown())


EmailChange = SetAddress | Verify | ReadAddress


def code_address(change: EmailChange) -> str | None:
    """The address a change may send a code to, whose codes within the hour count."""
    return change.address if isinstance(change, SetAddress) else None


@dataclass(frozen=True, slots=True)
class Digest:
    """A digest to send now: to `address`, of the games waiting on the player, who has
    it at most every `hours`."""

    address: str
    games: tuple[dict[str, Any], ...]
    hours: int


@dataclass(frozen=True, slots=True)
class NotYet:
    """No digest now; look again at `again_ms` (Unix milliseconds), or only once another
    game begins waiting on the player where None."""

    again_ms: int | None


@dataclass(frozen=True, slots=True)
class DigestDue:
    """A digest may go to `address` now, if the player is not connected anywhere."""

    address: str
    hours: int


def digest_due(record: EmailRecord, began_ms: int, now_ms: int) -> DigestDue | NotYet:
    """Whether a digest may go now to a player with a game that began waiting on them at
    `began_ms`: only to a verified address, only if that game began since the last digest,
    at most once in `digest_hours`."""
    if record.address is None or not record.verified:
        return NotYet(now_ms + UNVERIFIED_AGAIN_MS)
    last = record.digest_ms
    if last is not None and began_ms <= last:
        return NotYet(None)
    if last is not None and now_ms < last + record.digest_hours * HOUR_MS:
        return NotYet(last + record.digest_hours * HOUR_MS)
    return DigestDue(record.address, record.digest_hours)


def reminder_at_ms(allowance_ms: int, began_ms: int) -> int:
    """When a reminder goes for a turn that began at `began_ms` with `allowance_ms` to
    move in: once less than a quarter of it, or `REMINDER_MAX_MS`, is left."""
    return began_ms + allowance_ms - min(allowance_ms // 4, REMINDER_MAX_MS)
