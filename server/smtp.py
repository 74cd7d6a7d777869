"""The SMTP server a Parlour server sends its mail through (`parlour serve --smtp URL
--mail-from ADDRESS`), and one mail's sending with the standard library's smtplib, which
blocks: the shell runs it in a thread (`mailer.py`).

`smtp://[USER:PASSWORD@]HOST[:PORT]` (port 25 unless given) upgrades to TLS with STARTTLS
when the server offers it, or insists on it with `?starttls=require`; `smtps://...` (port
465 unless given) speaks TLS from the start. A user and password, percent-encoded, log in.
"""

import smtplib
import ssl
import time
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import Final
from urllib.parse import parse_qsl, unquote, urlsplit

from parlour.protocol.fields import read_email_address

from .letters import Mail

SMTP_PORT: Final = 25
SMTPS_PORT: Final = 465
SEND_TIMEOUT: Final = 30.0
"""Seconds a mail server may take to answer before the mail is tried again later."""
REQUIRE: Final = "require"


class MailSettingsError(ValueError):
    """An `--smtp` URL or `--mail-from` address that cannot be used; the message says why."""


class MailRefusedError(Exception):
    """The mail server refused a mail for good (a 5xx answer): sending it again is no use."""


@dataclass(frozen=True, slots=True)
class SmtpServer:
    """Where and how mail is sent."""

    host: str
    port: int
    tls: bool = False
    """TLS from the start (`smtps://`)."""
    starttls_required: bool = False
    user: str | None = None
    password: str | None = None

    def shown(self) -> str:
        """The URL to print, without the password."""
        login = "" if self.user is None else f"{self.user}:***@"
        host = f"[{self.host}]" if ":" in self.host else self.host
        query = "?starttls=require" if self.starttls_required else ""
        return f"{'smtps' if self.tls else 'smtp'}://{login}{host}:{self.port}{query}"


def read_smtp_url(text: str) -> SmtpServer:
    """The SMTP server a URL names; MailSettingsError saying what is wrong if none."""
    shape = "give smtp://[USER:PASSWORD@]HOST[:PORT] or smtps://..."
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as error:
        raise MailSettingsError(f"{text!r} is not an SMTP URL ({error}): {shape}") from None
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise MailSettingsError(f"{text!r} is not an SMTP URL: {shape}")
    if parts.path not in ("", "/") or parts.fragment:
        raise MailSettingsError(f"{text!r} has a path; an SMTP URL has none: {shape}")
    tls = parts.scheme == "smtps"
    required = False
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key != "starttls" or value != REQUIRE:
            raise MailSettingsError(
                f"{text!r} asks for {key}={value}: the one setting an SMTP URL takes is"
                " ?starttls=require"
            )
        if tls:
            raise MailSettingsError(
                f"{text!r}: smtps:// speaks TLS from the start; ?starttls=require is for smtp://"
            )
        required = True
    if parts.password is not None and not parts.username:
        raise MailSettingsError(f"{text!r} has a password but no user")
    return SmtpServer(
        host=parts.hostname,
        port=port if port is not None else SMTPS_PORT if tls else SMTP_PORT,
        tls=tls,
        starttls_required=required,
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
    )


def read_mail_from(text: str) -> str:
    """The sender mails go out from: `games@example.org` or `Parlour <games@example.org>`;
    MailSettingsError if it is not one."""
    name, address = parseaddr(text.strip())
    if read_email_address(address) is None or "\n" in text or "\r" in text:
        raise MailSettingsError(
            f"{text!r} is not an address to send from: give games@example.org"
            " or 'Parlour <games@example.org>'"
        )
    return str(Address(display_name=name, addr_spec=address)) if name else address


def message_of(mail: Mail, sender: str) -> EmailMessage:
    """The mail as it goes on the wire: plain text, marked as sent by a machine."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(time.time(), usegmt=True)
    domain = parseaddr(sender)[1].rpartition("@")[2] or None
    message["Message-ID"] = make_msgid(domain=domain)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(mail.body)
    return message


def send(server: SmtpServer, message: EmailMessage, timeout: float = SEND_TIMEOUT) -> None:
    """Send one mail, blocking. OSError or smtplib.SMTPException if it could not be sent
    now; MailRefusedError if the server refused it for good."""
    context = ssl.create_default_context()
    client: smtplib.SMTP
    if server.tls:
        client = smtplib.SMTP_SSL(server.host, server.port, timeout=timeout, context=context)
    else:
        client = smtplib.SMTP(server.host, server.port, timeout=timeout)
    with client:
        client.ehlo()
        if not server.tls:
            if client.has_extn("starttls"):
                client.starttls(context=context)
                client.ehlo()
            elif server.starttls_required:
                raise smtplib.SMTPNotSupportedError(
                    f"{server.host} offers no STARTTLS, and the URL requires it"
                )
        if server.user is not None:
            client.login(server.user, server.password or "")
        try:
            client.send_message(message)
        except smtplib.SMTPRecipientsRefused as refused:
            raise MailRefusedError(f"the mail server refused {message['To']}: {refused}") from None
        except smtplib.SMTPResponseException as error:
            if 500 <= error.smtp_code < 600:
                raise MailRefusedError(f"the mail server refused the mail: {error}") from None
            raise
