"""The post office alone, against a real SMTP server in the test's process: a mail the
server cannot take now is tried again later, less and less often, then dropped; one it
refuses for good is dropped at once; a URL that insists on STARTTLS is not sent in the
clear; a user and password log in. Time is the test's clock."""

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from parlour.server.letters import Mail
from parlour.server.mailer import RETRY_SECONDS, Mailer
from parlour.server.metrics import Metrics
from parlour.server.smtp import read_smtp_url
from parlour.server.stopping import cancel_all
from parlour.server.store import Store
from tests.mailbox import Mailbox, text_of

MAIL = Mail("bob@example.org", "Parlour at example.org: your code 042917", "042917\n", "code")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def mailer_for(url: str) -> tuple[Mailer, Metrics, Clock]:
    metrics, clock = Metrics(), Clock()
    mailer = Mailer(
        read_smtp_url(url), "games@example.org", metrics.mails, metrics.mails_waiting, clock=clock
    )
    return mailer, metrics, clock


def counted(metrics: Metrics, outcome: str) -> float:
    found = metrics.registry.get_sample_value(
        "parlour_mails_total", {"kind": "code", "outcome": outcome}
    )
    return found or 0.0


@pytest.fixture
def closed_port() -> int:
    """A loopback port nobody listens on (an SMTP server was there a moment ago)."""
    box = Mailbox()
    box.start()
    box.stop()
    return box.port


class Refusing(Mailbox):
    """An SMTP server that knows nobody: every recipient is refused for good."""

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's name)
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: Any
    ) -> str:
        return "550 no such user here"


@pytest.fixture
def refusing() -> Iterator[Mailbox]:
    box = Refusing()
    box.start()
    try:
        yield box
    finally:
        box.stop()


async def test_a_mail_is_tried_again_less_and_less_often_then_dropped(closed_port: int) -> None:
    mailer, metrics, clock = mailer_for(f"smtp://127.0.0.1:{closed_port}")
    mailer.post(MAIL)
    await mailer.send_due()
    assert (counted(metrics, "retried"), mailer.queued) == (1, 1)
    for tries, delay in enumerate(RETRY_SECONDS[:-1], start=2):
        clock.now += delay - 1
        await mailer.send_due()
        assert counted(metrics, "retried") == tries - 1, "not due yet"
        clock.now += 1
        await mailer.send_due()
        assert counted(metrics, "retried") == tries
    clock.now += RETRY_SECONDS[-1]
    await mailer.send_due()
    assert (counted(metrics, "retried"), counted(metrics, "dropped")) == (len(RETRY_SECONDS), 1)
    assert mailer.queued == 0
    assert metrics.registry.get_sample_value("parlour_mails_waiting") == 0


async def test_a_mail_refused_for_good_is_dropped_at_once(refusing: Mailbox) -> None:
    mailer, metrics, _ = mailer_for(refusing.url)
    mailer.post(MAIL)
    await mailer.send_due()
    assert (counted(metrics, "dropped"), counted(metrics, "retried"), mailer.queued) == (1, 0, 0)
    assert refusing.mails() == []


async def test_a_url_that_requires_starttls_sends_nothing_in_the_clear() -> None:
    box = Mailbox()
    box.start()
    try:
        mailer, metrics, _ = mailer_for(f"{box.url}?starttls=require")
        mailer.post(MAIL)
        await mailer.send_due()
        assert (counted(metrics, "retried"), mailer.queued) == (1, 1)
        assert box.mails() == []
    finally:
        box.stop()


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
async def test_a_user_and_password_in_the_url_log_in() -> None:
    def authenticator(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        known = isinstance(data, LoginPassword) and (data.login, data.password) == (
            b"ann+games",
            b"s@cret",
        )
        return AuthResult(success=known)

    box = Mailbox(authenticator=authenticator, auth_required=True, auth_require_tls=False)
    box.start()
    try:
        mailer, metrics, _ = mailer_for(f"smtp://ann%2Bgames:s%40cret@127.0.0.1:{box.port}")
        mailer.post(MAIL)
        await mailer.send_due()
        assert counted(metrics, "sent") == 1
        [mail] = box.mails()
        assert (mail["To"], mail["From"], text_of(mail)) == (
            "bob@example.org",
            "games@example.org",
            "042917\n",
        )
    finally:
        box.stop()


class Slow(Mailbox):
    """An SMTP server that takes a while to say it took a mail: a send is under way."""

    def __init__(self) -> None:
        super().__init__()
        self.taking = threading.Event()

    async def handle_DATA(  # noqa: N802 (aiosmtpd's name)
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        self.taking.set()
        await asyncio.sleep(0.3)
        return await super().handle_DATA(server, session, envelope)


async def test_a_mail_going_as_the_server_stops_is_not_kept_to_be_sent_again(
    tmp_path: Path,
) -> None:
    box = Slow()
    box.start()
    try:
        mailer, metrics, _ = mailer_for(box.url)
        store = Store(tmp_path / "parlour.sqlite3")
        mailer.post(MAIL)
        running = asyncio.create_task(mailer.run_forever())
        await asyncio.to_thread(box.taking.wait, 10)
        assert await cancel_all([running]) == 0  # the server stops mid-send
        await mailer.keep_unsent(store.mail)
        assert len(box.mails()) == 1
        assert store.mail.take_unsent() == [], "the mail went: nothing is kept to send again"
        assert counted(metrics, "sent") == 1
    finally:
        box.stop()
