"""Certificates made in the test: a certificate authority of its own and a server
certificate it signed for the loopback addresses, written to files as an operator's
would be (trustme), for the TLS tests of the server, the clients and the balancer."""

from dataclasses import dataclass
from pathlib import Path

import trustme

LOOPBACK_NAMES = ("127.0.0.1", "127.0.0.2", "localhost")
"""What the server certificate is good for: this machine, by address and by name."""


@dataclass(frozen=True)
class TlsFiles:
    """A CA's certificate and a server's certificate chain and key, as files."""

    authority: trustme.CA
    ca: Path
    """The CA's certificate (PEM): what a client given `--ca` trusts."""
    cert: Path
    """The server's certificate chain (PEM)."""
    key: Path
    """The server's private key (PEM)."""
    combined: Path
    """Chain and key in one file, as HAProxy's `crt` takes them."""


def make_tls_files(
    folder: Path, *, authority: trustme.CA | None = None, tag: str = ""
) -> TlsFiles:
    """A server certificate for the loopback names in `folder`, signed by `authority` (a
    new CA if none is given); `tag` tells apart the files of a second certificate."""
    folder.mkdir(parents=True, exist_ok=True)
    ca = authority or trustme.CA(organization_name="Parlour test CA")
    issued = ca.issue_cert(*LOOPBACK_NAMES)
    files = TlsFiles(
        authority=ca,
        ca=folder / f"ca{tag}.pem",
        cert=folder / f"server{tag}.pem",
        key=folder / f"server{tag}.key",
        combined=folder / f"server{tag}-combined.pem",
    )
    ca.cert_pem.write_to_path(str(files.ca))
    chain = b"".join(blob.bytes() for blob in issued.cert_chain_pems)
    files.cert.write_bytes(chain)
    issued.private_key_pem.write_to_path(str(files.key))
    files.combined.write_bytes(chain + issued.private_key_pem.bytes())
    return files
