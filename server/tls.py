"""The server's TLS: one `ssl.SSLContext` made from the operator's certificate files.

The context is the standard library's server defaults (no TLS below 1.2). Files are checked
before they are used, so that a bad one is named with what is wrong with it; and loading new
files into a running server's context either takes them whole or leaves it as it was, so a
renewal gone wrong never leaves the server without a certificate.
"""

import logging
import shutil
import ssl
import tempfile
from pathlib import Path
from typing import Final, NoReturn

log = logging.getLogger("parlour.server")

CERTIFICATE_MARK: Final = "-----BEGIN CERTIFICATE-----"


class TlsError(ValueError):
    """Certificate files a server cannot serve TLS with; the message names the file and why."""


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server-side context serving the certificate chain in `cert` with the key in `key`.

    TlsError if either file cannot be read or used, or the key is not the certificate's.
    """
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    load_certificate(context, cert, key)
    return context


def load_certificate(context: ssl.SSLContext, cert: Path, key: Path) -> None:
    """Make `context` serve the certificate in `cert` and `key` from its next handshake on;
    connections already made keep theirs.

    The files are copied once and the copies checked in a context of their own first: a
    pair that fails (a renewal half written, a key of another certificate) raises TlsError
    and leaves `context` as it was, where loading it there would have dropped its key.
    """
    with tempfile.TemporaryDirectory(prefix="parlour-tls-") as folder:
        cert_copy = _copy(cert, Path(folder) / "cert.pem")
        key_copy = _copy(key, Path(folder) / "key.pem")
        _check(cert_copy, key_copy, cert, key)
        context.load_cert_chain(cert_copy, key_copy, password=_RefusePassphrase(key))


def _copy(source: Path, copy: Path) -> Path:
    """`source` copied to `copy`; TlsError naming `source` if it cannot be read."""
    try:
        shutil.copyfile(source, copy)
    except OSError as error:
        raise TlsError(f"cannot read {source}: {error.strerror or error}") from None
    return copy


def _check(cert_copy: Path, key_copy: Path, cert: Path, key: Path) -> None:
    """TlsError saying which of `cert` and `key` (read as their copies) is wrong, and how."""
    trial = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        trial.load_cert_chain(cert_copy, key_copy, password=_RefusePassphrase(key))
    except ssl.SSLError as error:
        if error.reason == "KEY_VALUES_MISMATCH":
            raise TlsError(
                f"the key in {key} is not the key of the certificate in {cert}"
            ) from None
        if not _holds_certificate(cert_copy):
            raise TlsError(
                f"{cert} holds no certificate in PEM form ({CERTIFICATE_MARK} ...)"
            ) from None
        raise TlsError(
            f"{key} holds no private key in PEM form (-----BEGIN PRIVATE KEY----- ...)"
        ) from None


def _holds_certificate(path: Path) -> bool:
    """Whether the file at `path` begins a chain of PEM certificates OpenSSL can read."""
    text = path.read_bytes().decode("ascii", errors="replace")
    if CERTIFICATE_MARK not in text:
        return False
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).load_verify_locations(cadata=text)
    except ssl.SSLError:
        return False
    return True


class _RefusePassphrase:
    """The passphrase callback for a key: a server started unattended has nobody to ask, so
    an encrypted key is refused (OpenSSL would otherwise prompt on the terminal)."""

    def __init__(self, key: Path) -> None:
        self.key = key

    def __call__(self) -> NoReturn:
        raise TlsError(
            f"the key in {self.key} is encrypted: give the key without its passphrase"
            " (openssl pkey -in KEY -out PLAIN)"
        )


def reload_certificate(
    context: ssl.SSLContext | None, cert: Path | None, key: Path | None
) -> bool:
    """Read the certificate files again (a renewal) into the context a server serves: the
    next handshakes get the new certificate, open connections keep theirs. Files that cannot
    be used are logged and the certificate served stays. Whether it took."""
    if context is None or cert is None or key is None:
        log.warning("asked to reload the certificate, but this server serves no TLS")
        return False
    try:
        load_certificate(context, cert, key)
    except TlsError as error:
        log.error("certificate not reloaded, still serving the one before: %s", error)
        return False
    log.info("certificate reloaded from %s and %s", cert, key)
    return True
