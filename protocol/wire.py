"""The two encodings of one schema: MessagePack in binary frames, JSON in text frames.

Both carry only what they encode alike (protocol.md, section 1): maps with string keys,
arrays, strings, booleans, null, and integers within +/-(2^53 - 1).
"""

import json
from collections.abc import Callable
from typing import Any, Final, Protocol

import msgpack

from .errors import ErrorCode, ProtocolError

MAX_SAFE_INTEGER: Final = 2**53 - 1
MAX_FRAME_BYTES: Final = 64 * 1024
MAX_DEPTH: Final = 32
"""Deepest nesting of maps and arrays a message may have; observations need six."""

MSGPACK: Final = "parlour.v1.msgpack"
JSON: Final = "parlour.v1.json"

Frame = bytes | str
Message = dict[str, Any]


def check_schema(value: object, depth: int = 0) -> None:
    """Refuse any value outside the common schema with `bad_message`."""
    if depth > MAX_DEPTH:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"nested more than {MAX_DEPTH} deep")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        _check_text(value)
        return
    if isinstance(value, int):
        if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "an integer beyond +/-(2^53 - 1)")
        return
    if isinstance(value, list):
        for item in value:
            check_schema(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ProtocolError(ErrorCode.BAD_MESSAGE, "a map key that is not a string")
            _check_text(key)
            check_schema(item, depth + 1)
        return
    kind = "a float" if isinstance(value, float) else f"a value of type {type(value).__name__}"
    raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}, which the protocol does not carry")


def _check_text(text: str) -> None:
    """Refuse a string that is not Unicode text: a lone surrogate, which JSON escapes allow."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a string that is not valid Unicode") from None


def as_message(value: object) -> Message:
    """A decoded frame as a message: a map within the schema with a string `type`."""
    check_schema(value)
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be a map")
    if not isinstance(value.get("type"), str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a string field 'type'")
    return value


class Codec(Protocol):
    """Turns message maps into frames of one subprotocol and back."""

    subprotocol: str

    def encode(self, message: Message) -> Frame: ...

    def parse(self, frame: Frame) -> object:
        """The value in `frame`, unchecked; ProtocolError `bad_frame` if it holds none."""
        ...

    def decode(self, frame: Frame) -> Message:
        """The message in `frame`; ProtocolError `bad_frame` or `bad_message` if none."""
        ...


class _Decoding:
    """`decode` for a codec that can `parse`."""

    def parse(self, frame: Frame) -> object:
        raise NotImplementedError

    def decode(self, frame: Frame) -> Message:
        return as_message(self.parse(frame))


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


class JsonCodec(_Decoding):
    """`parlour.v1.json`: one JSON object per text frame."""

    subprotocol = JSON

    def encode(self, message: Message) -> str:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"))

    def parse(self, frame: Frame) -> object:
        if not isinstance(frame, str):
            raise ProtocolError(ErrorCode.BAD_FRAME, f"{JSON} takes text frames, not binary")
        try:
            return json.loads(frame, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as error:
            raise ProtocolError(ErrorCode.BAD_FRAME, f"not valid JSON: {error}") from None


class MsgpackCodec(_Decoding):
    """`parlour.v1.msgpack`: one MessagePack map per binary frame."""

    subprotocol = MSGPACK

    def encode(self, message: Message) -> bytes:
        data: bytes = msgpack.packb(message, use_bin_type=True)
        return data

    def parse(self, frame: Frame) -> object:
        if not isinstance(frame, bytes):
            raise ProtocolError(ErrorCode.BAD_FRAME, f"{MSGPACK} takes binary frames, not text")
        try:
            return msgpack.unpackb(frame, raw=False, strict_map_key=False, timestamp=0)
        except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as error:
            # TypeError: a map key msgpack can read but Python cannot hash, such as an array.
            reason = str(error) or type(error).__name__
            raise ProtocolError(ErrorCode.BAD_FRAME, f"not valid MessagePack: {reason}") from None


CODECS: Final[dict[str, Callable[[], Codec]]] = {MSGPACK: MsgpackCodec, JSON: JsonCodec}
SUBPROTOCOLS: Final = (MSGPACK, JSON)


def codec_for(subprotocol: str) -> Codec:
    """The codec of a subprotocol this version speaks; KeyError for any other."""
    return CODECS[subprotocol]()
