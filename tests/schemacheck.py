"""Every frame the tests' servers and clients send, checked against the protocol's JSON
Schema (`parlour.protocol.schema`), so a field added without the schema fails a test.

`FrameChecker` validates each distinct frame once per session (its verdict is kept by the
frame's bytes or text) with one validator per message type, compiled once: fastjsonschema's
code, made from the schema (which keeps to keywords draft 7 has, so it reads it alike),
and jsonschema's Draft 2020-12 validator to say in words what is wrong with a frame the
fast one refuses.
`tests/conftest.py` wraps the sessions, the server's sending and the clients with it.
"""

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, Final

import fastjsonschema
import msgpack
import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from parlour.protocol import ClientSession, ServerSession
from parlour.protocol.messages import ClientMessage
from parlour.protocol.schema import FILES, direction_schema
from parlour.protocol.session import Request
from parlour.protocol.wire import Frame
from parlour.server import ParlourServer

MAX_KEPT: Final = 50_000
"""Verdicts kept before the cache starts again: bounds the memory of a long session."""


@cache
def validators(direction: str) -> dict[str, Draft202012Validator]:
    """A compiled validator for each message type one way: `client` or `server`."""
    schema = direction_schema(direction)
    defs = schema["$defs"]
    return {
        kind: Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": defs})
        for kind in schema["properties"]["type"]["enum"]
    }


def decoded(frame: Frame) -> object:
    """The value a frame carries, in either subprotocol."""
    if isinstance(frame, bytes):
        return msgpack.unpackb(frame, raw=False, strict_map_key=False)
    return json.loads(frame)


@cache
def fast_validators(direction: str) -> dict[str, Callable[[object], object]]:
    """Each message type's schema one way, compiled to Python by fastjsonschema."""
    schema = direction_schema(direction)
    defs = schema["$defs"]
    return {
        kind: fastjsonschema.compile({"$ref": f"#/$defs/{kind}", "$defs": defs})
        for kind in schema["properties"]["type"]["enum"]
    }


def violation(direction: str, frame: Frame) -> str | None:
    """What is wrong with `frame` as a message `direction` sends, in words; None if
    nothing is."""
    where = f"schemas/{FILES[direction]}"
    try:
        message = decoded(frame)
    except ValueError as error:
        return f"a {direction} frame that does not decode ({error}): {frame!r:.200}"
    kind = message.get("type") if isinstance(message, dict) else None
    found = validators(direction).get(kind) if isinstance(kind, str) else None
    if found is None or not isinstance(kind, str):
        return f"a {direction} message of no type {where} has ({kind!r}): {message!r:.300}"
    try:
        fast_validators(direction)[kind](message)
    except fastjsonschema.JsonSchemaException as refused:
        fast_said = str(refused)
    else:
        return None
    worst = best_match(found.iter_errors(message))
    if worst is None:
        return f"{direction} message '{kind}' breaks {where}: {fast_said}"
    wanted = json.dumps({worst.validator: worst.validator_value}, ensure_ascii=False)
    return (
        f"{direction} message '{kind}' breaks {where} at {worst.json_path}: {worst.message};"
        f" the schema wants {wanted:.200} (at {'/'.join(map(str, worst.schema_path))})"
    )


class FrameChecker:
    """Checks frames as they pass, keeping what is wrong until the test asks."""

    def __init__(self) -> None:
        self.verdicts: dict[tuple[str, Frame], str | None] = {}
        self.violations: list[str] = []

    def check(self, direction: str, frame: Frame) -> None:
        key = (direction, frame)
        if key in self.verdicts:
            verdict = self.verdicts[key]
        else:
            if len(self.verdicts) >= MAX_KEPT:
                self.verdicts.clear()
            verdict = self.verdicts[key] = violation(direction, frame)
        if verdict is not None:
            self.violations.append(verdict)

    def taken(self) -> list[str]:
        """The violations seen since the last call."""
        found, self.violations = self.violations, []
        return found


CHECKER: Final = FrameChecker()


@contextmanager
def checking(monkeypatch: pytest.MonkeyPatch) -> Iterator[FrameChecker]:
    """Check every frame made or received in this process while the block runs: the
    server's frames as it sends them (`ParlourServer.send_frame`), a client's as it sends
    them (`ClientSession.send`), the requests a server accepts (`ServerSession.receive`;
    one it refuses is not a message, but its error is checked) and whatever a client
    receives and reads (`ClientSession.receive`: frames of servers in other processes;
    one the client refuses is not a message, as tests of the client's refusals send)."""
    checker = CHECKER
    send_frame = ParlourServer.send_frame
    receive = ServerSession.receive
    client_send = ClientSession.send
    client_receive = ClientSession.receive

    def sending(self: ParlourServer, conn: int, websocket: Any, frame: Frame) -> None:
        checker.check("server", frame)
        send_frame(self, conn, websocket, frame)

    def receiving(self: ServerSession, frame: Frame, now: float) -> Any:
        result = receive(self, frame, now)
        if isinstance(result, Request):
            checker.check("client", frame)
        return result

    def client_sending(self: ClientSession, message: ClientMessage) -> Frame:
        frame = client_send(self, message)
        checker.check("client", frame)
        return frame

    def client_receiving(self: ClientSession, frame: Frame) -> Any:
        message = client_receive(self, frame)
        checker.check("server", frame)
        return message

    monkeypatch.setattr(ParlourServer, "send_frame", sending)
    monkeypatch.setattr(ServerSession, "receive", receiving)
    monkeypatch.setattr(ClientSession, "send", client_sending)
    monkeypatch.setattr(ClientSession, "receive", client_receiving)
    checker.taken()
    yield checker
