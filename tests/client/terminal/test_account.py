"""The terminal's account screen against a real server (protocol.md 2.12 vacations, 2.13
email): a careless user types sentences into every field and is told in words what it
takes, nothing the server would refuse for its shape is sent, the server's refusals are
shown beside the field that asked, and the screen stays usable. Mail comes through a real
SMTP server in the test's process, and the code is read from it."""

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from parlour.client.connection import Connection, RefusedError
from parlour.client.terminal.account import AccountScreen
from parlour.client.terminal.accountwords import refusal_words, take_question
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.clocks import date_words
from parlour.client.terminal.dialogs import ConfirmScreen
from parlour.client.terminal.lobby import LobbyScreen
from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.server import ParlourServer, ServerConfig, running_server
from parlour.server.serve import addresses
from tests.mailbox import Mailbox, text_of

from .test_app import SCREEN, type_fast, until

SENDER = "Parlour <games@example.org>"
NOW = 1_800_000_000.0
"""Fri 15 Jan 2027, 08:00 UTC: the wall clock a test sets for the server and the screen."""


class Wall:
    """Unix time the test turns, for the server and the screen alike."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def mail_url(mailbox: Mailbox) -> AsyncIterator[str]:
    """A server that sends mail through the test's own SMTP server; its address."""
    config = ServerConfig(
        tick_interval=0.05, bot_workers=1, smtp=mailbox.url, mail_from=SENDER, mail_interval=3600
    )
    async with running_server(config) as running:
        yield addresses("127.0.0.1", running.port)[0]


@pytest.fixture
async def ann(mail_url: str) -> AsyncIterator[Connection]:
    """Ann, a player with a key, on the server that sends mail."""
    opened = await Connection.open(mail_url, "ann", key=new_key(), retry_delays=(0.05,))
    yield opened
    await opened.close()


def said(screen: AccountScreen, place: str) -> str:
    return str(screen.query_one(place, Static).render())


async def account(pilot: Pilot[None], app: ParlourApp) -> AccountScreen:
    """The account screen, opened from the lobby with A."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
    await pilot.press("a")
    await until(pilot, lambda: isinstance(app.screen, AccountScreen), "the account opened")
    screen = app.screen
    assert isinstance(screen, AccountScreen)
    return screen


async def type_into(pilot: Pilot[None], screen: AccountScreen, field: str, text: str) -> None:
    """Empty `field` with the keys, put `text` into it as a paste (one event, where typing
    it key by key would take a second), then Enter; the keys as a fast typist presses them."""
    box = screen.query_one(field, Input)
    box.focus()
    await until(pilot, lambda: box.has_focus, f"{field} had the keys")
    await type_fast(pilot, "end", "ctrl+u")
    await until(pilot, lambda: box.value == "", f"{field} was emptied")
    box.post_message(events.Paste(text))
    await until(pilot, lambda: box.value == text, f"{text!r} was in {field}")
    await type_fast(pilot, "enter")


async def told(pilot: Pilot[None], screen: AccountScreen, place: str, words: str) -> None:
    await until(pilot, lambda: said(screen, place) == words, f"{place} said {words!r}")


def code_in(mailbox: Mailbox, index: int) -> str:
    found = re.search(r"^    (\d{6})$", text_of(mailbox.mails()[index]), re.MULTILINE)
    assert found is not None
    return found.group(1)


async def email_of(connection: Connection) -> tuple[str | None, bool, int]:
    """The address the server keeps, whether confirmed, and the hours between digests."""
    reply = await connection.request(m.GetEmail())
    assert isinstance(reply, m.EmailReply)
    return reply.address, reply.verified, reply.digest_hours


async def test_an_address_is_confirmed_with_the_code_mailed_whatever_else_is_typed(
    ann: Connection, mailbox: Mailbox
) -> None:
    app = ParlourApp(ann)
    async with app.run_test(size=SCREEN) as pilot:
        screen = await account(pilot, app)
        assert ann.welcome is not None and ann.welcome.player is not None
        player = ann.welcome.player
        assert f"ann, player id {player['id']}." in said(screen, "#who")
        await until(pilot, lambda: screen.email is not None, "the address was asked for")
        assert said(screen, "#email-state").startswith("No address: give one")
        # Sentences where the address goes: words, and nothing sent.
        for typed, words in [
            (
                "please send me a code",
                "“please send me a code” is not an email address: write it as"
                " ann@example.org, with @ and dots.",
            ),
            (
                "ann at example dot org",
                "“ann at example dot org” is not an email address: write it as"
                " ann@example.org, with @ and dots.",
            ),
            ("", "Type your address first, as ann@example.org; Remove takes yours off."),
        ]:
            await type_into(pilot, screen, "#address", typed)
            await told(pilot, screen, "#address-said", words)
        # The code before any was asked for: the client knows none can be waiting.
        await type_into(pilot, screen, "#code", "123456")
        await told(
            pilot, screen, "#code-said", "Give your address first: the code is mailed to it."
        )
        assert mailbox.mails() == [] and (await email_of(ann))[0] is None

        await type_into(pilot, screen, "#address", "ann@Example.ORG")
        mailed = "A code was mailed to ann@example.org: type its 6 digits below"
        await told(pilot, screen, "#address-said", f"{mailed} (it works for an hour).")
        assert screen.query_one("#code", Input).has_focus
        assert said(screen, "#email-state").startswith("ann@example.org is not confirmed yet")
        await mailbox.wait_for(1)
        code = code_in(mailbox, 0)
        assert mailbox.mails()[0]["To"] == "ann@example.org"
        # Sentences where the code goes, then a wrong code: the server's count of tries.
        for typed in ("please send me a code", "12 34 5", ""):
            await type_into(pilot, screen, "#code", typed)
            quoted = f"“{typed}” is not one" if typed else "nothing was typed"
            words = f"The code is the 6 digits in the mail, as 042 917; {quoted}."
            await told(pilot, screen, "#code-said", words)
        wrong = f"{(int(code) + 1) % 1_000_000:06d}"
        await type_into(pilot, screen, "#code", wrong)
        await told(pilot, screen, "#code-said", "That is not the code: 4 tries left.")
        assert not (await email_of(ann))[1]
        # The code pasted as mail clients split it: spaces and a dash.
        await type_into(pilot, screen, "#code", f" {code[:3]}-{code[3:]} ")
        await told(pilot, screen, "#code-said", "Confirmed: mail goes to ann@example.org.")
        assert said(screen, "#email-state").startswith("Mail goes to ann@example.org (confirmed).")
        assert await email_of(ann) == ("ann@example.org", True, 24)
        # The same address again sends nothing.
        await type_into(pilot, screen, "#address", "ann@example.org")
        await told(
            pilot,
            screen,
            "#address-said",
            "Mail goes to ann@example.org already: it is confirmed.",
        )

        # The hours between digests.
        assert screen.query_one("#hours", Input).value == "24"
        wants = "The hours between digests must be a whole number from 1 to 168 (24 is a day)"
        for typed, why in [
            ("12 hours please", "“12 hours please” is not one"),
            ("", "nothing was typed"),
            ("-2", "“-2” is not one"),
            ("169", "169 is not"),
            ("0", "0 is not"),
        ]:
            await type_into(pilot, screen, "#hours", typed)
            await told(pilot, screen, "#hours-said", f"{wants}; {why}.")
        assert (await email_of(ann))[2] == 24
        await type_into(pilot, screen, "#hours", "12")
        await told(pilot, screen, "#hours-said", "Digests at most every 12 hours.")
        assert await email_of(ann) == ("ann@example.org", True, 12)
        assert len(mailbox.mails()) == 1, "setting the hours mailed no code"

        # Remove, once she says so.
        await pilot.click("#remove")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked first")
        await pilot.press("enter")
        await told(pilot, screen, "#address-said", "ann@example.org is removed: no more mail.")
        assert (await email_of(ann))[0] is None
        assert screen.query_one("#address", Input).value == ""
        assert app.screen is screen and app.is_running


async def test_too_many_codes_say_how_long_to_wait_and_the_last_code_still_works(
    ann: Connection, mailbox: Mailbox
) -> None:
    app = ParlourApp(ann)
    async with app.run_test(size=SCREEN) as pilot:
        screen = await account(pilot, app)
        await until(pilot, lambda: screen.email is not None, "the address was asked for")
        for sent in range(1, 4):
            await type_into(pilot, screen, "#address", f"ann{sent}@example.org")
            await until(pilot, lambda: "A code was mailed" in said(screen, "#address-said"), "")
            await mailbox.wait_for(sent)
            screen.tell("#address-said", "")
        await type_into(pilot, screen, "#address", "ann4@example.org")
        await told(
            pilot,
            screen,
            "#address-said",
            "Too many codes were mailed within the hour: ask again in 60 minutes.",
        )
        assert len(mailbox.mails()) == 3
        # The third address's code still confirms it.
        await type_into(pilot, screen, "#code", code_in(mailbox, 2))
        await told(pilot, screen, "#code-said", "Confirmed: mail goes to ann3@example.org.")


async def test_a_guest_is_told_a_key_is_needed_and_offered_no_fields(mail_url: str) -> None:
    guest = await Connection.open(mail_url, "gus", retry_delays=(0.05,))
    app = ParlourApp(guest)
    try:
        async with app.run_test(size=SCREEN) as pilot:
            screen = await account(pilot, app)
            assert "You play as a guest here" in said(screen, "#who")
            assert "without --guest" in said(screen, "#who")
            assert said(screen, "#email-state").endswith("a player key is needed.")
            assert said(screen, "#vacation-state").endswith("a player key is needed.")
            assert not screen.query_one("#email-rows").display
            assert not screen.query_one("#vacation-rows").display
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")
    finally:
        await guest.close()


async def test_a_server_without_mail_offers_no_email_but_the_vacation(url: str) -> None:
    player = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    app = ParlourApp(player)
    try:
        async with app.run_test(size=SCREEN) as pilot:
            screen = await account(pilot, app)
            assert said(screen, "#email-state") == (
                "This server sends no mail: its operator has not set it up."
            )
            assert not screen.query_one("#email-rows").display
            await until(pilot, lambda: screen.vacation is not None, "the vacation was asked")
            assert said(screen, "#vacation-state") == "Not on vacation. 30 days left this year."
            assert screen.query_one("#days", Input).has_focus
    finally:
        await player.close()


# Vacations.


async def vacation_of(connection: Connection) -> tuple[int | None, int]:
    """When the vacation on ends, and the days left this year."""
    reply = await connection.request(m.GetVacation())
    assert isinstance(reply, m.VacationReply)
    return reply.until, reply.days_left


async def answer_question(pilot: Pilot[None], app: ParlourApp) -> str:
    """The question asked, answered yes with Enter."""
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked first")
    question = app.screen
    assert isinstance(question, ConfirmScreen)
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is not question, "it was answered")
    return question.words


async def test_a_vacation_is_taken_once_confirmed_and_ended_early(
    url: str, server: ParlourServer
) -> None:
    player = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    app = ParlourApp(player)
    try:
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
            wall = Wall()
            server.lobby.services.wall = wall
            screen = AccountScreen(player, now=wall)
            await app.push_screen(screen)
            await until(pilot, lambda: screen.vacation is not None, "the vacation was asked")
            wants = "Vacation days must be a whole number from 1 to 30"
            for typed, words in [
                ("ten days", f"{wants}; “ten days” is not one."),
                ("31", f"{wants}; 31 is not."),
                ("-2", f"{wants}; “-2” is not one."),
                ("", f"{wants}; nothing was typed."),
                ("0", f"{wants}; to end a vacation, End it now ends it."),
            ]:
                await type_into(pilot, screen, "#days", typed)
                await told(pilot, screen, "#days-said", words)
                assert app.screen is screen, f"{typed!r} asked nothing"
            await pilot.click("#end")
            await told(pilot, screen, "#days-said", "You are not on vacation.")
            assert await vacation_of(player) == (None, 30)

            # Ten days: she is told when the clocks stop till, and says yes.
            await type_into(pilot, screen, "#days", "10")
            question = await answer_question(pilot, app)
            till = date_words(NOW + 10 * 86_400, since_s=NOW)
            assert question.startswith(
                f"Take 10 days of vacation? The clocks of your games of days per move stop till"
                f" {till} (live clocks run on)."
            )
            on = await vacation_of(player)
            assert on[0] is not None and on[1] == 20
            until_words = date_words(on[0], since_s=NOW)
            await told(
                pilot, screen, "#days-said", f"Taken: your clocks stand still till {until_words}."
            )
            assert said(screen, "#vacation-state") == (
                f"On vacation until {until_words}: the clocks of your games of days per move"
                " stand still till then. 20 days left this year."
            )
            # A day and a half on, thirty more: ending the vacation on gives back its eight
            # whole days not begun, which the client leaves to the server to count. The
            # server refuses, in its words, and nothing changes.
            wall.now += 1.5 * 86_400
            await type_into(pilot, screen, "#days", "30")
            assert "The vacation on ends first" in await answer_question(pilot, app)
            await told(
                pilot,
                screen,
                "#days-said",
                "That is more vacation days than you have left this year (30 a year, counted as"
                " they are taken).",
            )
            assert await vacation_of(player) == on

            # Ended early: its eight days not begun come back.
            await pilot.click("#end")
            await answer_question(pilot, app)
            await told(
                pilot, screen, "#days-said", "Your vacation is over: your clocks run again."
            )
            assert said(screen, "#vacation-state") == "Not on vacation. 28 days left this year."
            # More than are left: the client can tell, and sends nothing.
            await type_into(pilot, screen, "#days", "29")
            await told(
                pilot, screen, "#days-said", "You have only 28 days of vacation left this year."
            )
            assert app.screen is screen
            assert await vacation_of(player) == (None, 28)
    finally:
        await player.close()


# The words, without a server.


def refused(code: str, **detail: int) -> RefusedError:
    return RefusedError(m.Error(code=code, message="the server's words", detail=detail or None))


def test_refusals_say_the_tries_left_and_the_minutes_to_wait() -> None:
    assert refusal_words(refused("bad_code", tries_left=1)) == "That is not the code: 1 try left."
    assert refusal_words(refused("bad_code", tries_left=0)) == (
        "That is not the code, and that was the last try: Send code mails a new one."
    )
    assert refusal_words(refused("bad_code")) == (
        "No code is waiting (a code works for an hour): Send code mails you a new one."
    )
    assert refusal_words(refused("rate_limited", retry_after_s=61)) == (
        "Too many codes were mailed within the hour: ask again in 2 minutes."
    )
    assert refusal_words(refused("rate_limited", retry_after_s=5)) == (
        "Too many codes were mailed within the hour: ask again in 1 minute."
    )
    assert refusal_words(refused("bad_field")) == "The server's words."


@pytest.mark.parametrize(
    ("at", "since", "shown"),
    [
        (
            datetime(2027, 7, 16, 15, 4, tzinfo=UTC),
            datetime(2027, 7, 6, tzinfo=UTC),
            "Fri 16 Jul 15:04",
        ),
        (
            datetime(2028, 1, 3, 9, 0, tzinfo=UTC),
            datetime(2027, 12, 20, tzinfo=UTC),
            "Mon 3 Jan 2028 09:00",
        ),
    ],
)
def test_dates_are_said_in_local_time_with_the_year_where_it_changes(
    at: datetime, since: datetime, shown: str
) -> None:
    at, since = at.replace(tzinfo=UTC), since.replace(tzinfo=UTC)
    assert date_words(at.timestamp(), since_s=since.timestamp(), zone=UTC) == shown
    east = timezone(timedelta(hours=10))
    later = (at + timedelta(hours=10)).replace(tzinfo=None)
    assert date_words(at.timestamp(), zone=east).endswith(f"{later.hour:02d}:{later.minute:02d}")


def test_taking_days_while_on_vacation_says_the_one_on_ends_first() -> None:
    on = m.VacationReply(until=int(NOW) + 86_400, days_left=25)
    question = take_question(3, on, NOW)
    assert question.endswith("The vacation on ends first, its whole days not begun given back.")
    assert "stop till" in take_question(3, None, NOW) and "ends first" not in take_question(
        3, m.VacationReply(until=None, days_left=30), NOW
    )
