"""What the account screen reads from what a player typed, and says back (protocol.md 2.12
vacations, 2.13 email): each field read as the server reads it, or refused in words saying
what it takes; the server's refusals and answers in words a player acts on. Pure."""

import math
from typing import Final

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.errors import ProtocolError
from parlour.protocol.fields import CODE_DIGITS, EmailCode, read_email_address

from ..connection import RefusedError
from ..invocation import parlour_command
from .clocks import date_words

DAY_S: Final = 86_400
EXAMPLE_ADDRESS: Final = "ann@example.org"


class AccountInputError(ValueError):
    """What was typed into a field of the account screen is not what it takes: the message
    says what it takes, in words."""


def sentence(text: str) -> str:
    """A server's words as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else f"{text}."


def _quoted(typed: str) -> str:
    return f"“{typed}” is not one" if typed else "nothing was typed"


def read_address(typed: str) -> str:
    """The address typed, as the server keeps it (its domain in lower case)."""
    text = typed.strip()
    if not text:
        raise AccountInputError(
            f"Type your address first, as {EXAMPLE_ADDRESS}; Remove takes yours off."
        )
    address = read_email_address(text)
    if address is None:
        raise AccountInputError(
            f"“{text}” is not an email address: write it as {EXAMPLE_ADDRESS}, with @ and dots."
        )
    return address


def read_hours(typed: str) -> int:
    """The least hours between two digests, typed as a whole number in range."""
    text = typed.strip()
    low, high = m.MIN_DIGEST_HOURS, m.MAX_DIGEST_HOURS
    wants = f"The hours between digests must be a whole number from {low} to {high} (24 is a day)"
    if not (text.isascii() and text.isdigit()):
        raise AccountInputError(f"{wants}; {_quoted(text)}.")
    if not low <= int(text) <= high:
        raise AccountInputError(f"{wants}; {int(text)} is not.")
    return int(text)


def read_code(typed: str) -> str:
    """The code's digits, spaces and dashes left out as the server leaves them out."""
    text = typed.strip()
    try:
        return EmailCode().read("code", text)
    except ProtocolError:
        raise AccountInputError(
            f"The code is the {CODE_DIGITS} digits in the mail, as 042 917; {_quoted(text)}."
        ) from None


def read_days(typed: str, available: int) -> int:
    """Vacation days to take, a whole number from 1 to the most a vacation may be, and no
    more than `available` (while a vacation is on, the server alone knows how many of its
    days ending it gives back, so it alone judges)."""
    text = typed.strip()
    most = m.MAX_VACATION_DAYS
    wants = f"Vacation days must be a whole number from 1 to {most}"
    if not (text.isascii() and text.isdigit()):
        raise AccountInputError(f"{wants}; {_quoted(text)}.")
    days = int(text)
    if days == 0:
        raise AccountInputError(f"{wants}; to end a vacation, End it now ends it.")
    if days > most:
        raise AccountInputError(f"{wants}; {days} is not.")
    if days > available:
        left = f"only {available} day{'s' * (available != 1)}" if available else "no days"
        raise AccountInputError(f"You have {left} of vacation left this year.")
    return days


def refusal_words(refused: RefusedError) -> str:
    """A refusal of a request of this screen, in words a player acts on: the tries left,
    the minutes to wait; otherwise the server's own words."""
    detail = refused.error.detail or {}
    if refused.code == ErrorCode.BAD_CODE:
        tries = detail.get("tries_left")
        if not isinstance(tries, int):
            return "No code is waiting (a code works for an hour): Send code mails you a new one."
        if tries > 0:
            return f"That is not the code: {tries} {'try' if tries == 1 else 'tries'} left."
        return "That is not the code, and that was the last try: Send code mails a new one."
    if refused.code == ErrorCode.RATE_LIMITED:
        wait = detail.get("retry_after_s")
        if isinstance(wait, int):
            minutes = max(1, math.ceil(wait / 60))
            return (
                "Too many codes were mailed within the hour: ask again in"
                f" {minutes} minute{'s' * (minutes != 1)}."
            )
    if refused.code == ErrorCode.NO_EMAIL:
        return "This server sends no mail: its operator has not set it up."
    if refused.code == ErrorCode.NO_KEY:
        return f"Only a player with a key has these: start {parlour_command()} without --guest."
    return sentence(refused.error.message)


def email_words(email: m.EmailReply) -> str:
    """The player's address as the server keeps it, and when mail goes."""
    hours = f"Digests at most every {email.digest_hours} hour{'s' * (email.digest_hours != 1)}."
    if email.address is None:
        return f"No address: give one to be mailed when games wait on your move. {hours}"
    if email.verified:
        return f"Mail goes to {email.address} (confirmed). {hours}"
    return (
        f"{email.address} is not confirmed yet: type the code mailed to it below. No mail"
        f" goes to it till then. {hours}"
    )


def vacation_words(vacation: m.VacationReply, now_s: float) -> str:
    """Whether the player is on vacation and till when, and the days left this year."""
    left = f"{vacation.days_left} day{'s' * (vacation.days_left != 1)} left this year"
    if vacation.until is None:
        return f"Not on vacation. {left}."
    until = date_words(vacation.until, since_s=now_s)
    return (
        f"On vacation until {until}: the clocks of your games of days per move stand still"
        f" till then. {left}."
    )


def take_question(days: int, vacation: m.VacationReply | None, now_s: float) -> str:
    """What the player is asked before `days` days of vacation are taken."""
    until = date_words(now_s + days * DAY_S, since_s=now_s)
    replaces = (
        " The vacation on ends first, its whole days not begun given back."
        if vacation is not None and vacation.until is not None
        else ""
    )
    return (
        f"Take {days} day{'s' * (days != 1)} of vacation? The clocks of your games of days per"
        f" move stop till {until} (live clocks run on).{replaces}"
    )
