"""Players' mail (protocol.md 2.13) end to end: a real server sends through a real SMTP
server in the test's process, and the test reads what arrives. The code confirms an
address, a wrong one does not, codes are limited; digests go only to players away, once
a window and only for games new since the last; a days-per-move turn is reminded of once.
The server's wall clock is the test's, turned by hand; each look for mail due is asked
for, never waited for."""

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.server import ParlourServer, ServerConfig, running_server
from parlour.server.emails import (
    HOUR_MS,
    DigestDue,
    EmailRecord,
    NotYet,
    digest_due,
    reminder_at_ms,
)
from parlour.server.letters import Site, duration
from parlour.server.smtp import MailSettingsError, read_mail_from, read_smtp_url
from tests.mailbox import Mailbox, text_of

from .serving import spawn_serve
from .wsclient import Client

UNIX = 1_800_000_000.0
ANN_KEY, BOB_KEY, CY_KEY = new_key(), new_key(), new_key()
BOBS = "bob@example.org"
SENDER = "Parlour <games@example.org>"


class Wall:
    """Unix time the test turns."""

    def __init__(self) -> None:
        self.now = UNIX

    def __call__(self) -> float:
        return self.now

    def hours(self, hours: float) -> None:
        self.now += hours * 3600


@asynccontextmanager
async def mailing(smtp: str | None, **config: Any) -> AsyncIterator[tuple[ParlourServer, Wall]]:
    """A server sending mail through `smtp`, its wall clock the test's; it looks for mail
    due only when the test asks (`mail_round`)."""
    settings = ServerConfig(
        bot_workers=1,
        tick_interval=0.05,
        smtp=smtp,
        mail_from=None if smtp is None else SENDER,
        mail_interval=3600.0,
        **config,
    )
    async with running_server(settings) as server:
        wall = Wall()
        server.lobby.services.wall = wall
        yield server, wall


async def player(server: ParlourServer, name: str, key: str) -> Client:
    return await Client.open(server.port, name, key=key)


def mails_counted(server: ParlourServer, kind: str, outcome: str) -> float | None:
    return server.metrics.registry.get_sample_value(
        "parlour_mails_total", {"kind": kind, "outcome": outcome}
    )


def subject(mail: Any) -> str:
    """The subject, unfolded: a long one comes on a line of its own after `Subject:`."""
    return str(mail["Subject"]).strip()


def code_in(mail: Any) -> str:
    found = re.search(r"^    (\d{6})$", text_of(mail), re.MULTILINE)
    assert found is not None, text_of(mail)
    return found.group(1)


async def confirmed(client: Client, mailbox: Mailbox, address: str = BOBS) -> None:
    """`client`'s player gives `address` and sends back the code mailed to it."""
    before = len(mailbox.mails())
    assert isinstance(await client.request(m.SetEmail(address=address)), m.EmailReply)
    mail = (await mailbox.wait_for(before + 1))[-1]
    done = await client.request(m.VerifyEmail(code=code_in(mail)))
    assert done == m.EmailReply(id=done.id, address=address, verified=True, digest_hours=24)


async def gone(server: ParlourServer, client: Client) -> None:
    """Close `client` and wait till the server has let its connection go."""
    assert client.welcome is not None and client.welcome.player is not None
    who = client.welcome.player["id"]
    await client.close()
    async with asyncio.timeout(10):
        while who in server.lobby.people.players.values():
            await asyncio.sleep(0.01)


async def othello(host: Client, guest: Client, **room: Any) -> tuple[str, str]:
    """A private Othello room, host black, guest white, started: its id and code."""
    made = await host.request(m.CreateRoom(game="othello", seat="black", public=False, **room))
    assert isinstance(made, m.Joined) and made.code is not None, made
    joined = await guest.request(m.Join(room=made.code, seat="white"))
    assert isinstance(joined, m.Joined), joined
    assert isinstance(await host.request(m.Start(room=made.code)), m.Ok)
    return str(made.room["room"]), made.code


async def play(server: ParlourServer, client: Client, room_id: str) -> None:
    """The first legal move, by `client`, whose turn it is."""
    room = server.lobby.rooms[room_id]
    assert room.state is not None
    text = room.state.format_move(room.state.legal_moves()[0])
    done = await client.request(m.Move(room=room.code or room_id, version=room.version, move=text))
    assert isinstance(done, m.Ok), done


# Addresses and codes.


async def test_the_code_mailed_to_an_address_confirms_it_and_a_wrong_one_does_not(
    mailbox: Mailbox,
) -> None:
    async with mailing(mailbox.url) as (server, _):
        bob = await player(server, "Bob", BOB_KEY)
        assert bob.welcome is not None and bob.welcome.email
        given = await bob.request(m.SetEmail(address=" bob@Example.ORG", digest_hours=12))
        assert given == m.EmailReply(id=given.id, address=BOBS, verified=False, digest_hours=12)
        [mail] = await mailbox.wait_for(1)
        assert (mail["To"], mail["From"]) == (BOBS, SENDER)
        assert mail["Auto-Submitted"] == "auto-generated"
        code = code_in(mail)
        assert subject(mail) == f"Parlour at 127.0.0.1: your code {code}"
        assert f"http://127.0.0.1:{server.port}/" in text_of(mail)

        wrong = f"{(int(code) + 1) % 1_000_000:06d}"
        refused = await bob.request(m.VerifyEmail(code=wrong))
        assert isinstance(refused, m.Error) and refused.code == "bad_code", refused
        assert refused.detail == {"tries_left": 4}
        still = await bob.request(m.GetEmail())
        assert still == m.EmailReply(id=still.id, address=BOBS, verified=False, digest_hours=12)

        done = await bob.request(m.VerifyEmail(code=f"{code[:3]} {code[3:]}"))
        assert done == m.EmailReply(id=done.id, address=BOBS, verified=True, digest_hours=12)
        again = await bob.request(m.VerifyEmail(code=code))
        assert isinstance(again, m.Error) and again.code == "bad_code", "a code works once"
        hours = await bob.request(m.SetEmail(address=BOBS, digest_hours=48))
        assert hours == m.EmailReply(id=hours.id, address=BOBS, verified=True, digest_hours=48)
        assert len(mailbox.mails()) == 1, "the address confirmed already: no code sent"

        stopped = await bob.request(m.SetEmail())
        assert stopped == m.EmailReply(id=stopped.id, verified=False, digest_hours=48)
        guest = await Client.open(server.port, "Cy")
        for asked in (m.SetEmail(address="cy@example.org"), m.GetEmail()):
            told = await guest.request(asked)
            assert isinstance(told, m.Error) and told.code == "no_key", told
        for client in (bob, guest):
            await client.close()


async def test_five_wrong_codes_void_the_code_and_three_codes_an_hour_are_the_most(
    mailbox: Mailbox,
) -> None:
    async with mailing(mailbox.url) as (server, wall):
        bob = await player(server, "Bob", BOB_KEY)
        assert isinstance(await bob.request(m.SetEmail(address=BOBS)), m.EmailReply)
        code = code_in((await mailbox.wait_for(1))[0])
        wrong = f"{(int(code) + 1) % 1_000_000:06d}"
        for left in (4, 3, 2, 1, 0):
            refused = await bob.request(m.VerifyEmail(code=wrong))
            assert isinstance(refused, m.Error) and refused.code == "bad_code"
            assert refused.detail == {"tries_left": left}
        void = await bob.request(m.VerifyEmail(code=code))
        assert isinstance(void, m.Error) and void.code == "bad_code", "the code is void now"
        assert "set_email" in void.message

        for _ in range(2):
            wall.hours(0.25)
            assert isinstance(await bob.request(m.SetEmail(address=BOBS)), m.EmailReply)
        mails = await mailbox.wait_for(3)
        wall.hours(0.25)
        # Sent once: the test's client would send a request refused as rate_limited again.
        await bob.send(m.SetEmail(id="fourth", address="robert@example.org"))
        limited = await bob.expect(lambda message: message.id == "fourth")
        assert isinstance(limited, m.Error) and limited.code == "rate_limited", limited
        assert limited.detail == {"retry_after_s": 15 * 60}
        shown = await bob.request(m.GetEmail())
        assert isinstance(shown, m.EmailReply) and shown.address == BOBS, "nothing changed"
        # Three codes went to Bob's address: another player may not send it a fourth.
        cy = await player(server, "Cy", CY_KEY)
        await cy.send(m.SetEmail(id="fourth", address=BOBS))
        flood = await cy.expect(lambda message: message.id == "fourth")
        assert isinstance(flood, m.Error) and flood.code == "rate_limited", flood
        assert BOBS in flood.message
        await cy.close()
        wall.hours(0.25)
        moved = await bob.request(m.SetEmail(address="robert@example.org"))
        assert isinstance(moved, m.EmailReply)
        latest = (await mailbox.wait_for(4))[-1]
        assert latest["To"] == "robert@example.org"
        assert [mail["To"] for mail in mails] == [BOBS] * 3
        wall.hours(1.01)  # the last code ran out
        late = await bob.request(m.VerifyEmail(code=code_in(latest)))
        assert isinstance(late, m.Error) and late.code == "bad_code", late
        await bob.close()


async def test_a_server_without_smtp_offers_no_mail() -> None:
    async with mailing(None) as (server, _):
        bob = await player(server, "Bob", BOB_KEY)
        assert bob.welcome is not None and bob.welcome.email is False
        refused = await bob.request(m.SetEmail(address=BOBS))
        assert isinstance(refused, m.Error) and refused.code == "no_email", refused
        await bob.close()


async def test_a_server_whose_smtp_server_is_down_serves_on_and_sends_the_code_later() -> None:
    box = Mailbox()
    box.start()
    port = box.port
    box.stop()  # nothing listens there now
    async with mailing(f"smtp://127.0.0.1:{port}") as (server, _):
        mailer = server.mailer
        assert mailer is not None
        now = [0.0]
        mailer.clock = lambda: now[0]
        bob = await player(server, "Bob", BOB_KEY)
        given = await bob.request(m.SetEmail(address=BOBS))
        assert isinstance(given, m.EmailReply) and not given.verified
        await mailer.idle()
        assert mailer.queued == 1
        assert mails_counted(server, "code", "retried") == 1
        assert isinstance(await bob.request(m.ListRooms()), m.Rooms), "it serves on"
        back = Mailbox(port=port)
        back.start()
        try:
            now[0] += 9.9
            await mailer.send_due()
            assert back.mails() == [] and mailer.queued == 1, "not due yet"
            now[0] += 0.1
            await mailer.send_due()
            [mail] = back.mails()
            done = await bob.request(m.VerifyEmail(code=code_in(mail)))
            assert isinstance(done, m.EmailReply) and done.verified
            assert mails_counted(server, "code", "sent") == 1
            assert mailer.queued == 0
        finally:
            back.stop()
        await bob.close()


async def test_mail_not_sent_when_the_server_stops_is_sent_by_the_next_one(
    tmp_path: Path, mailbox: Mailbox
) -> None:
    down = Mailbox()
    down.start()
    down.stop()  # nothing listens there now
    async with mailing(f"smtp://127.0.0.1:{down.port}", data_dir=tmp_path) as (server, _):
        bob = await player(server, "Bob", BOB_KEY)
        given = await bob.request(m.SetEmail(address=BOBS))
        assert isinstance(given, m.EmailReply) and not given.verified
        assert server.mailer is not None
        await server.mailer.idle()
        assert server.mailer.queued == 1, "the code waits for its next try"
        await bob.close()
    async with mailing(mailbox.url, data_dir=tmp_path) as (server, _):
        [mail] = await mailbox.wait_for(1)
        assert mail["To"] == BOBS
        bob = await player(server, "Bob", BOB_KEY)
        done = await bob.request(m.VerifyEmail(code=code_in(mail)))
        assert isinstance(done, m.EmailReply) and done.verified, "the code kept still works"
        await bob.close()
    async with mailing(mailbox.url, data_dir=tmp_path) as (server, _):
        await server.mail_round()
        assert len(mailbox.mails()) == 1, "a mail kept is sent once"


async def test_parlour_serve_with_smtp_says_so_and_mails_the_code(
    mailbox: Mailbox, tmp_path: Path
) -> None:
    process = await spawn_serve(
        *("--port", "0", "--data-dir", str(tmp_path)),
        *("--smtp", mailbox.url),
        *("--mail-from", SENDER),
    )
    try:
        assert process.stdout is not None
        first = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        port = re.search(r"serving ws://127\.0\.0\.1:(\d+)/ws", first)
        assert port, first
        async with asyncio.timeout(30):
            while not (line := (await process.stdout.readline()).decode()).startswith("mail:"):
                assert line, "the server said nothing of mail"
        assert line.strip() == f"mail: sent through {mailbox.url} from {SENDER}"
        bob = await Client.open(int(port.group(1)), "Bob", key=BOB_KEY)
        assert bob.welcome is not None and bob.welcome.email
        assert isinstance(await bob.request(m.SetEmail(address=BOBS)), m.EmailReply)
        [mail] = await mailbox.wait_for(1)
        assert mail["To"] == BOBS
        await bob.close()
    finally:
        process.kill()
        await process.wait()


# Digests.


async def test_a_digest_goes_only_to_a_player_away_once_a_window_for_games_new_since(
    mailbox: Mailbox,
) -> None:
    async with mailing(mailbox.url) as (server, wall):
        ann, bob = await player(server, "Ann", ANN_KEY), await player(server, "Bob", BOB_KEY)
        await confirmed(bob, mailbox)
        room, code = await othello(ann, bob)
        await play(server, ann, room)
        await server.mail_round()
        assert len(mailbox.mails()) == 1, "Bob is connected: no digest"

        await gone(server, bob)
        await server.mail_round()
        [_, digest] = await mailbox.wait_for(2)
        assert digest["To"] == BOBS
        assert subject(digest) == "Parlour at 127.0.0.1: 1 game waits for your move"
        text = " ".join(text_of(digest).split())  # prose is wrapped
        assert f"parlour join {code} --server 127.0.0.1:{server.port}" in text
        assert f"http://127.0.0.1:{server.port}/r/{code}" in text
        assert "Othello, you play white" in text and "no clock" in text
        assert "set_email request with no address" in text
        await server.mail_round()
        assert len(mailbox.mails()) == 2, "no game began waiting on Bob since"

        # Bob comes back and moves; Ann answers an hour later: a game new since the digest,
        # but the window is 24 hours.
        bob = await player(server, "Bob", BOB_KEY)
        assert isinstance(await bob.request(m.Join(room=code, seat="white")), m.Joined)
        await play(server, bob, room)
        await gone(server, bob)
        wall.hours(1)
        await play(server, ann, room)
        await server.mail_round()
        assert len(mailbox.mails()) == 2, "within the window"

        wall.hours(24)
        bob = await player(server, "Bob", BOB_KEY)
        await server.mail_round()
        assert len(mailbox.mails()) == 2, "Bob is connected, in no room"
        await gone(server, bob)
        await server.mail_round()
        [*_, second] = await mailbox.wait_for(3)
        assert subject(second) == subject(digest)
        await server.mail_round()
        assert len(mailbox.mails()) == 3
        await ann.close()


async def test_a_days_turn_is_reminded_of_once_when_a_quarter_of_its_time_is_left(
    mailbox: Mailbox,
) -> None:
    async with mailing(mailbox.url) as (server, wall):
        ann, bob = await player(server, "Ann", ANN_KEY), await player(server, "Bob", BOB_KEY)
        await confirmed(bob, mailbox)
        room, code = await othello(ann, bob, time_control={"kind": "days", "days": 1})
        await play(server, ann, room)
        wall.hours(18 - 1 / 60)
        await server.mail_round()
        assert len(mailbox.mails()) == 1, "more than a quarter of the day is left"
        wall.hours(2 / 60)
        await server.mail_round()
        [_, reminder] = await mailbox.wait_for(2)
        assert reminder["To"] == BOBS
        assert subject(reminder) == (
            "Parlour at 127.0.0.1: 5 hours 59 minutes left for your move in Othello"
        )
        text = " ".join(text_of(reminder).split())
        assert f"parlour join {code} --server 127.0.0.1:{server.port}" in text
        assert "5 hours 59 minutes left" in text
        wall.hours(1)
        await server.mail_round()
        assert len(mailbox.mails()) == 2, "once a turn, though Bob is connected and it waits"
        await bob.close()
        await ann.close()


# The parts alone.


def test_a_reminder_comes_at_a_quarter_of_the_time_or_12_hours_before_whichever_is_less() -> None:
    day = 24 * HOUR_MS
    assert reminder_at_ms(day, 0) == 18 * HOUR_MS
    assert reminder_at_ms(3 * day, 1000) == 1000 + 3 * day - 12 * HOUR_MS
    assert reminder_at_ms(40 * HOUR_MS, 0) == 30 * HOUR_MS


def test_a_digest_waits_for_a_confirmed_address_a_new_game_and_the_window() -> None:
    unconfirmed = EmailRecord(address=BOBS)
    assert digest_due(unconfirmed, 5, 10) == NotYet(10 + HOUR_MS)
    first = EmailRecord(address=BOBS, verified=True, digest_hours=2)
    assert digest_due(first, 5, 10) == DigestDue(BOBS, 2)
    sent = first.digested(10)
    assert digest_due(sent, 5, 20) == NotYet(None), "no game began waiting since"
    assert digest_due(sent, 15, 20) == NotYet(10 + 2 * HOUR_MS), "within the window"
    assert digest_due(sent, 15, 10 + 2 * HOUR_MS) == DigestDue(BOBS, 2)
    assert EmailRecord.read(sent.text()) == sent
    assert EmailRecord.read("not json") == EmailRecord()


def test_time_left_reads_as_people_say_it_and_links_name_the_server() -> None:
    assert duration(2 * 24 * HOUR_MS + 3 * HOUR_MS + 59_000) == "2 days 3 hours"
    assert duration(HOUR_MS + 60_000) == "1 hour 1 minute"
    assert duration(59_999) == "less than a minute"
    site = Site("games.example.org:443", tls=True)
    assert site.name == "Parlour at games.example.org"
    assert site.join_command("ABCD") == "parlour join ABCD --server wss://games.example.org:443"
    assert site.room_link("ABCD") == "https://games.example.org:443/r/ABCD"
    assert Site("[2001:db8::1]:8765").name == "Parlour at 2001:db8::1"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("smtp://mail.example.org", "smtp://mail.example.org:25"),
        ("smtp://ann:s%40cret@mail.example.org:587", "smtp://ann:***@mail.example.org:587"),
        (
            "smtp://mail.example.org:587?starttls=require",
            "smtp://mail.example.org:587?starttls=require",
        ),
        ("smtps://mail.example.org", "smtps://mail.example.org:465"),
        ("smtp://[2001:db8::25]", "smtp://[2001:db8::25]:25"),
    ],
)
def test_smtp_urls_read_with_their_default_ports(url: str, shown: str) -> None:
    assert read_smtp_url(url).shown() == shown


def test_an_smtp_url_keeps_its_login_decoded() -> None:
    server = read_smtp_url("smtp://ann%2Bgames:s%40cret@mail.example.org:587")
    assert (server.user, server.password, server.tls) == ("ann+games", "s@cret", False)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mail.example.org", "is not an SMTP URL"),
        ("http://mail.example.org", "is not an SMTP URL"),
        ("smtp://", "is not an SMTP URL"),
        ("smtp://mail.example.org:99999", "is not an SMTP URL"),
        ("smtp://mail.example.org:port", "is not an SMTP URL"),
        ("smtp://mail.example.org/inbox", "has a path"),
        ("smtp://mail.example.org?starttls=maybe", "?starttls=require"),
        ("smtp://mail.example.org?tls=1", "?starttls=require"),
        ("smtps://mail.example.org?starttls=require", "TLS from the start"),
        ("smtp://:secret@mail.example.org", "a password but no user"),
    ],
)
def test_an_smtp_url_that_is_not_one_says_why(url: str, says: str) -> None:
    with pytest.raises(MailSettingsError, match=re.escape(says)):
        read_smtp_url(url)


def test_the_sender_is_an_address_with_or_without_a_name() -> None:
    assert read_mail_from(" games@example.org ") == "games@example.org"
    assert read_mail_from("Parlour <games@example.org>") == SENDER
    for wrong in ("games", "Parlour", "games@example.org\nBcc: x@example.org"):
        with pytest.raises(MailSettingsError):
            read_mail_from(wrong)


def test_a_server_given_smtp_without_a_sender_will_not_start() -> None:
    with pytest.raises(MailSettingsError, match="both"):
        ParlourServer(ServerConfig(smtp="smtp://mail.example.org"))
    with pytest.raises(MailSettingsError, match="not an SMTP URL"):
        ParlourServer(ServerConfig(smtp="mail.example.org", mail_from="games@example.org"))
