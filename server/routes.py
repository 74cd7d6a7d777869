"""The plain HTTP answers on the server's port: health, metrics and the browser page."""

import dataclasses
import http
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from .addresses import Network, peer_in
from .metrics import CONTENT_TYPE
from .static import WebFile, WebSite

WEBSOCKET_PATH: Final = "/ws"

PAGE_HEADERS: Final[Mapping[str, str]] = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Sent with the page and its files: a private room's link (its code) is never passed on to
other sites."""
HOST: Final = re.compile(r"[A-Za-z0-9.-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def content_policy(host: str) -> str:
    """Nothing but the server's own code and connections in the page. The WebSocket is named
    by its host as well as by 'self', which older browsers do not apply to ws: and wss:."""
    sockets = f" ws://{host} wss://{host}" if HOST.fullmatch(host) else ""
    return (
        f"default-src 'self'; connect-src 'self'{sockets}; img-src 'self' data:; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


PLAIN_TEXT: Final = "text/plain; charset=utf-8"
HSTS: Final = "max-age=86400"
"""`Strict-Transport-Security` on the answers of a server serving TLS itself: browsers that
have seen it come back over https:// only, for a day (kept short, as a certificate given up
for plain HTTP is then out of reach that long; no preload list)."""
METRICS_REFUSED: Final = b"/metrics is served to the addresses --metrics-from allows only\n"


def reply(
    connection: ServerConnection,
    status: http.HTTPStatus,
    body: bytes,
    content_type: str,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """An HTTP response with `body` of `content_type`, in place of a WebSocket handshake."""
    response = connection.respond(status, "")
    del response.headers["Content-Type"]
    del response.headers["Content-Length"]
    response.headers["Content-Type"] = content_type
    response.headers["Content-Length"] = str(len(body))
    for name, value in (headers or {"Cache-Control": "no-store"}).items():
        response.headers[name] = value
    return dataclasses.replace(response, body=body)


def serve_file(connection: ServerConnection, request: Request, file: WebFile) -> Response:
    """A page file, or 304 when the browser's copy (named by its entity tag) is current."""
    headers = {
        "Cache-Control": file.caching,
        "ETag": file.etag,
        "Content-Security-Policy": content_policy(request.headers.get("Host", "")),
        **PAGE_HEADERS,
    }
    known = request.headers.get("If-None-Match", "")
    if file.etag in (tag.strip().removeprefix("W/") for tag in known.split(",")):
        return reply(connection, http.HTTPStatus.NOT_MODIFIED, b"", file.content_type, headers)
    return reply(connection, http.HTTPStatus.OK, file.body, file.content_type, headers)


def http_router(
    health_problem: Callable[[], str | None],
    render_metrics: Callable[[], bytes] | None,
    site: WebSite | None,
    metrics_from: Sequence[Network],
    *,
    tls: bool = False,
) -> Callable[[ServerConnection, Request], Response | None]:
    """websockets' `process_request`: the WebSocket path goes on to the handshake.

    `/healthz` is the readiness a load balancer asks: 503 with the reason while the server
    should be sent no new players. `/metrics` answers peers in `metrics_from` alone (403 to
    others), and is not found where `render_metrics` is None (served on a port of its
    own). With no `site`, the port serves only those two: a metrics port. Over `tls`, every
    answer carries `Strict-Transport-Security`."""

    def answer(connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.partition("?")[0]
        if path == WEBSOCKET_PATH and site is not None:
            return None
        if path == "/healthz":
            problem = health_problem()
            if problem is None:
                return reply(connection, http.HTTPStatus.OK, b"ok\n", PLAIN_TEXT)
            body = f"{problem}\n".encode()
            return reply(connection, http.HTTPStatus.SERVICE_UNAVAILABLE, body, PLAIN_TEXT)
        if path == "/metrics" and render_metrics is not None:
            peer = connection.remote_address
            if not peer_in(peer[0] if isinstance(peer, tuple) else None, metrics_from):
                return reply(connection, http.HTTPStatus.FORBIDDEN, METRICS_REFUSED, PLAIN_TEXT)
            return reply(connection, http.HTTPStatus.OK, render_metrics(), CONTENT_TYPE)
        file = None if site is None else site.find(path)
        if file is not None:
            return serve_file(connection, request, file)
        return reply(connection, http.HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def route(connection: ServerConnection, request: Request) -> Response | None:
        response = answer(connection, request)
        if response is not None and tls:
            response.headers["Strict-Transport-Security"] = HSTS
        return response

    return route
