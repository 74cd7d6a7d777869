"""The shell's post office: the mails the lobby made, sent one at a time through the SMTP
server in a thread, so the event loop never waits on it. A mail the SMTP server cannot
take now (it is down, or slow) is tried again later, less and less often, and dropped
after the last try; the server serves on meanwhile. A server that stops keeps the mails
not sent yet, and a server sends them on (`keep_unsent`, `send_kept`). Every outcome is
logged and counted."""

import asyncio
import contextlib
import inspect
import logging
import smtplib
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Final

from prometheus_client import Counter, Gauge

from .archive import MailArchive, RemoteMailArchive
from .letters import Mail
from .smtp import MailRefusedError, SmtpServer, message_of, send

log = logging.getLogger("parlour.server")

RETRY_SECONDS: Final = (10.0, 30.0, 120.0, 600.0, 1800.0)
"""How long a mail waits before each new try; after the last, it is dropped."""
IN_FLIGHT_SECONDS: Final = 15.0
"""How long a stopping server waits for a mail it is sending to go (or fail): past that it
is kept for the next server, which may send it again."""

Send = Callable[[SmtpServer, EmailMessage], None]


@dataclass
class Waiting:
    """A mail in the queue, and how often it was tried."""

    mail: Mail
    due: float
    """When to try it next, on the mailer's clock."""
    tries: int = 0


class Mailer:
    """Mails waiting to be sent, and the task that sends them."""

    def __init__(
        self,
        server: SmtpServer,
        sender: str,
        counted: Counter,
        waiting: Gauge,
        *,
        clock: Callable[[], float] = time.monotonic,
        send: Send = send,
    ) -> None:
        self.server = server
        self.sender = sender
        self.counted = counted
        """Mails by kind and outcome: `sent`, `retried` or `dropped`."""
        self.waiting_gauge = waiting
        self.clock = clock
        self._send = send
        self._queue: list[Waiting] = []
        self._sending = asyncio.Lock()
        self._wake = asyncio.Event()
        self._settled = asyncio.Event()
        self._settled.set()
        self._in_flight: tuple[Waiting, asyncio.Future[None]] | None = None
        """The last mail handed to a thread to send, and that send: a stop may cut short
        the wait for it while it goes on, and `keep_unsent` settles it (one whose outcome
        was taken in has left the queue, or waits there for its next try)."""

    def post(self, mail: Mail) -> None:
        """A mail to send as soon as may be."""
        self._queue.append(Waiting(mail, self.clock()))
        self.waiting_gauge.set(len(self._queue))
        self._settled.clear()
        self._wake.set()

    @property
    def queued(self) -> int:
        return len(self._queue)

    async def keep_unsent(self, archive: MailArchive | RemoteMailArchive | None) -> None:
        """The server stops: the mails not sent by now are kept in `archive`, for a server
        to send later (`send_kept`)."""
        await self._settle_in_flight()
        mails = [waiting.mail for waiting in self._queue]
        if not mails or archive is None:
            return
        try:
            kept = archive.keep_unsent(mails)
            if inspect.isawaitable(kept):
                await kept
        except Exception:
            log.exception("stopping with %d mail(s) not sent, and not kept", len(mails))
            return
        self._queue = []
        self.waiting_gauge.set(0)
        log.info("kept %d mail(s) not sent yet, for a server to send", len(mails))

    async def _settle_in_flight(self) -> None:
        """Wait for the last send, which the server's stop may have cut short: a mail that
        went is not kept to be sent again by the next server."""
        if self._in_flight is None:
            return
        waiting, sending = self._in_flight
        self._in_flight = None
        await asyncio.wait([sending], timeout=IN_FLIGHT_SECONDS)
        went = sending.done() and not sending.cancelled() and sending.exception() is None
        if went and waiting in self._queue:
            self._queue.remove(waiting)
            self.counted.labels(waiting.mail.kind, "sent").inc()
            log.info(
                "sent a %s mail to %s as the server stopped", waiting.mail.kind, waiting.mail.to
            )

    async def send_kept(self, archive: MailArchive | RemoteMailArchive | None) -> None:
        """Send the mails a stopped server kept unsent in `archive`."""
        if archive is None:
            return
        try:
            taken = archive.take_unsent()
            kept = await taken if inspect.isawaitable(taken) else taken
        except Exception:
            log.exception("could not read the mails kept unsent: trying again later")
            return
        for mail in kept:
            self.post(mail)

    def _due(self) -> list[Waiting]:
        now = self.clock()
        return [waiting for waiting in self._queue if waiting.due <= now]

    async def send_due(self) -> None:
        """Try every mail due now, one at a time; those that fail wait for their next try."""
        async with self._sending:
            for waiting in self._due():
                try:
                    message = message_of(waiting.mail, self.sender)
                    sending = asyncio.ensure_future(
                        asyncio.to_thread(self._send, self.server, message)
                    )
                    self._in_flight = (waiting, sending)
                    await asyncio.shield(sending)  # a stop does not cut the send short
                except MailRefusedError as refused:
                    self._drop(waiting, str(refused))
                except (OSError, smtplib.SMTPException) as error:
                    self._retry(waiting, error)
                except Exception as error:
                    log.exception("failed on a %s mail to %s", waiting.mail.kind, waiting.mail.to)
                    self._drop(waiting, repr(error))
                else:
                    self._queue.remove(waiting)
                    self.counted.labels(waiting.mail.kind, "sent").inc()
                    log.info("sent a %s mail to %s", waiting.mail.kind, waiting.mail.to)
                finally:
                    self.waiting_gauge.set(len(self._queue))

    def _retry(self, waiting: Waiting, error: Exception) -> None:
        if waiting.tries >= len(RETRY_SECONDS):
            self._drop(waiting, f"{error}, after {waiting.tries + 1} tries")
            return
        delay = RETRY_SECONDS[waiting.tries]
        waiting.tries += 1
        waiting.due = self.clock() + delay
        self.counted.labels(waiting.mail.kind, "retried").inc()
        log.warning(
            "could not send a %s mail to %s through %s (%s): trying again in %g s",
            waiting.mail.kind,
            waiting.mail.to,
            self.server.shown(),
            error,
            delay,
        )

    def _drop(self, waiting: Waiting, why: str) -> None:
        self._queue.remove(waiting)
        self.counted.labels(waiting.mail.kind, "dropped").inc()
        log.error("dropped a %s mail to %s: %s", waiting.mail.kind, waiting.mail.to, why)

    async def run_forever(self) -> None:
        """Send mails as they come and as their next tries fall due."""
        while True:
            await self.send_due()
            if not self._due():
                self._settled.set()
            self._wake.clear()
            later = [waiting.due for waiting in self._queue]
            delay = None if not later else max(0.0, min(later) - self.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)

    async def idle(self) -> None:
        """Until no mail is being sent or due now (those waiting for a later try aside)."""
        await self._settled.wait()
