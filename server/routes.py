"""The plain HTTP answers on the server's port: health, metrics and the front page."""

import dataclasses
import http
from collections.abc import Callable
from typing import Final

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from parlour import __version__

from .metrics import CONTENT_TYPE

WEBSOCKET_PATH: Final = "/ws"

FRONT_PAGE: Final = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parlour</title></head>
<body><h1>Parlour {version}</h1>
<p>This is a Parlour game server. Its WebSocket endpoint is <code>/ws</code> on this
address; connect with <code>parlour</code>'s clients or any client that speaks
<code>parlour.v1.json</code> or <code>parlour.v1.msgpack</code>.</p>
<p>Health: <a href="/healthz">/healthz</a>. Metrics: <a href="/metrics">/metrics</a>.</p>
</body></html>
"""


def reply(
    connection: ServerConnection, status: http.HTTPStatus, body: bytes, content_type: str
) -> Response:
    """An HTTP response with `body` of `content_type`, in place of a WebSocket handshake."""
    response = connection.respond(status, "")
    del response.headers["Content-Type"]
    del response.headers["Content-Length"]
    response.headers["Content-Type"] = content_type
    response.headers["Content-Length"] = str(len(body))
    response.headers["Cache-Control"] = "no-store"
    return dataclasses.replace(response, body=body)


def http_router(
    is_healthy: Callable[[], bool], render_metrics: Callable[[], bytes]
) -> Callable[[ServerConnection, Request], Response | None]:
    """websockets' `process_request`: the WebSocket path goes on to the handshake."""

    def route(connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.partition("?")[0]
        if path == WEBSOCKET_PATH:
            return None
        if path == "/healthz":
            if is_healthy():
                return reply(connection, http.HTTPStatus.OK, b"ok\n", "text/plain; charset=utf-8")
            return reply(
                connection,
                http.HTTPStatus.SERVICE_UNAVAILABLE,
                b"shutting down\n",
                "text/plain; charset=utf-8",
            )
        if path == "/metrics":
            return reply(connection, http.HTTPStatus.OK, render_metrics(), CONTENT_TYPE)
        if path == "/":
            page = FRONT_PAGE.format(version=__version__).encode()
            return reply(connection, http.HTTPStatus.OK, page, "text/html; charset=utf-8")
        return reply(connection, http.HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    return route
