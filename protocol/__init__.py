"""The Parlour wire protocol without I/O: messages, codecs and connection state machines.

protocol.md is the normative text; this package is its executable form.
"""

from .errors import CloseCode, ErrorCode, ProtocolError
from .messages import PROTOCOL_VERSION, ClientMessage, ServerMessage
from .session import ClientSession, Refusal, Request, ServerSession
from .wire import JSON, MAX_FRAME_BYTES, MSGPACK, SUBPROTOCOLS, Codec, codec_for

__all__ = [
    "JSON",
    "MAX_FRAME_BYTES",
    "MSGPACK",
    "PROTOCOL_VERSION",
    "SUBPROTOCOLS",
    "ClientMessage",
    "ClientSession",
    "CloseCode",
    "Codec",
    "ErrorCode",
    "ProtocolError",
    "Refusal",
    "Request",
    "ServerMessage",
    "ServerSession",
    "codec_for",
]
