"""A real SMTP server in the test's process (aiosmtpd, in a thread of its own) on a free
loopback port, and the mails it took, for tests to read."""

import asyncio
import email
import threading
from email import policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

WAIT = 10.0


class Mailbox(Controller):
    """An SMTP server on 127.0.0.1 (port 0 picks a free port) that keeps every mail."""

    def __init__(self, port: int = 0, **smtp: Any) -> None:
        super().__init__(self, hostname="127.0.0.1", port=port, **smtp)
        self.received: list[EmailMessage] = []
        self._lock = threading.Lock()

    def _trigger_server(self) -> None:
        # Bound to port 0, the server learns its port before it checks it answers there.
        assert isinstance(self.server, asyncio.Server)
        self.port = int(self.server.sockets[0].getsockname()[1])
        super()._trigger_server()  # type: ignore[no-untyped-call]

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        content = envelope.content
        assert isinstance(content, bytes)
        message = email.message_from_bytes(content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.received.append(message)
        return "250 OK"

    def mails(self) -> list[EmailMessage]:
        with self._lock:
            return list(self.received)

    async def wait_for(self, count: int, timeout: float = WAIT) -> list[EmailMessage]:
        """The mails taken, once there are at least `count`."""
        async with asyncio.timeout(timeout):
            while len(self.mails()) < count:
                await asyncio.sleep(0.01)
        return self.mails()


def text_of(mail: EmailMessage) -> str:
    """A plain text mail's body, its lines ended as Python ends them."""
    body = mail.get_body(("plain",))
    assert body is not None
    content = body.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")
