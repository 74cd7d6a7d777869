"""TLS for the client: the context a `wss://` connection verifies the server with, and a
failed handshake told as a sentence a player can act on.

Verification is the standard library's default (the certificate chains to an authority
this machine trusts, is in date, and is for the name dialled); `--ca FILE` adds a private
authority to the trusted ones, never replaces them, and nothing turns checking off.
"""

import ssl
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

UNKNOWN_AUTHORITY: Final = frozenset({2, 20, 21})
"""OpenSSL's verify codes for a chain that reaches no trusted authority: UNABLE_TO_GET_ISSUER_CERT,
_LOCALLY, UNABLE_TO_VERIFY_LEAF_SIGNATURE (the `ssl` module names none of them)."""
SELF_SIGNED: Final = frozenset({18, 19})
"""DEPTH_ZERO_SELF_SIGNED_CERT, SELF_SIGNED_CERT_IN_CHAIN."""
WRONG_NAME: Final = frozenset({62, 64})
"""HOSTNAME_MISMATCH, IP_ADDRESS_MISMATCH."""
OUT_OF_DATE: Final = frozenset({9, 10})
"""CERT_NOT_YET_VALID, CERT_HAS_EXPIRED."""


class CaFileError(ValueError):
    """The file given with `--ca` is not a certificate this client can trust; the message
    follows the option's name: "--ca names no file: ca.pem"."""


def client_context(ca: Path | None = None) -> ssl.SSLContext:
    """The context a `wss://` connection checks the server with: the system's authorities,
    and the one in `ca` too; CaFileError if that file cannot be read as certificates."""
    context = ssl.create_default_context()
    if ca is not None:
        try:
            context.load_verify_locations(cafile=ca)
        except FileNotFoundError:
            raise CaFileError(f"names no file: {ca}") from None
        except ssl.SSLError as error:
            raise CaFileError(
                f"names {ca}, which holds no CA certificate in PEM form ({error.reason or error})"
            ) from None
        except OSError as error:
            raise CaFileError(f"names {ca}, which cannot be read: {error.strerror}") from None
    return context


def refusal_words(error: ssl.SSLCertVerificationError, url: str, ca: Path | None) -> str:
    """What is wrong with the certificate of the server at `url`, and what can be done."""
    host = urlsplit(url).hostname or url
    code = error.verify_code
    said = error.verify_message or str(error.reason or error)
    trusted = (
        f"the CA in {ca} nor any this machine trusts" if ca else "an authority this machine trusts"
    )
    if code in SELF_SIGNED:
        what = f"its certificate is self-signed ({said}), not signed by {trusted}"
        advice = "if you trust it, give that certificate or its CA's with --ca FILE"
    elif code in UNKNOWN_AUTHORITY:
        what = f"its certificate is not signed by {trusted} ({said})"
        advice = "if the server's certificate is from a private CA, give that CA's with --ca FILE"
    elif code in WRONG_NAME:
        what = f"its certificate is not for the name {host} ({said})"
        advice = (
            "connect by a name the certificate is for; --ca FILE adds a CA to trust, and"
            " cannot make a certificate good for another name"
        )
    elif code in OUT_OF_DATE:
        what = f"its certificate is out of date ({said})"
        advice = (
            "its operator must renew it (or check this machine's clock); --ca FILE trusts"
            " a CA, and cannot make an expired certificate good"
        )
    else:
        what = f"its certificate was refused ({said})"
        advice = "if it is from a private CA, give that CA's certificate with --ca FILE"
    return f"cannot connect to {url} securely: {what}; {advice}"


def handshake_words(error: OSError, url: str) -> str:
    """A `wss://` address whose TLS handshake failed for want of a TLS server there."""
    said = getattr(error, "reason", None) or error.strerror or type(error).__name__
    return (
        f"cannot connect to {url}: the TLS handshake failed ({said}); is a TLS server"
        " listening there? (wss:// and https:// addresses need one)"
    )
