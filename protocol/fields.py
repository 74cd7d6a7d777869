"""What each message field may hold: read and checked into a `bad_field` error if not."""

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from .errors import bad_field
from .players import read_key
from .timecontrol import read_time_control
from .wire import MAX_SAFE_INTEGER

MAX_OPTIONS: Final = 32


class FieldSpec:
    """The type and bounds of one field; `read` returns the value or raises bad_field."""

    def read(self, name: str, value: object) -> Any:
        raise NotImplementedError

    def json_schema(self) -> dict[str, Any]:
        """What the field may hold as JSON Schema 2020-12 (`parlour.protocol.schema`)."""
        raise NotImplementedError


JOINERS: Final = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters that names and emoji need."""
LINE_BREAKS: Final = str.maketrans("", "", "\n\r\t")
"""What multi-line text may hold beyond a plain string: line feeds, returns and tabs."""


def _has_control(text: str) -> bool:
    """Whether `text` holds a control, format or line-breaking character.

    Format characters include the bidirectional overrides that make a name read backwards;
    only the two joiners pass.
    """
    return any(
        unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")
        or (unicodedata.category(char) == "Cf" and char not in JOINERS)
        for char in text
    )


@cache
def text_pattern(lines: bool) -> str:
    """A regular expression (ECMA-262 and Python alike) that finds a control, format or
    line-breaking character of the Basic Multilingual Plane, which text may not hold; with
    `lines`, line breaks and tabs are not among them. The few format characters past U+FFFF
    are left to the prose. (A pattern of what text may hold would need an end anchor, and
    Python's `$` matches before a final line break.)"""
    allowed = set(map(ord, "\n\r\t")) if lines else set()
    refused = [
        code
        for code in range(0x10000)
        if code not in allowed and not 0xD800 <= code <= 0xDFFF and _has_control(chr(code))
    ]
    ranges: list[tuple[int, int]] = []
    for code in refused:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    spans = "".join(
        f"\\u{lo:04x}" if lo == hi else f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in ranges
    )
    return f"[{spans}]"


def string_schema(lo: int, hi: int, lines: bool = False) -> dict[str, Any]:
    """JSON Schema of `Text(lo, hi, lines)`: its characters checked by the shape
    `lines` or `plain` (`parlour.protocol.schema`), which holds `text_pattern`. The
    reference stands apart in `allOf`, so that tools of draft 7, where a `$ref` hides
    its siblings, check the lengths too."""
    return {
        "allOf": [
            {"type": "string", "minLength": lo, "maxLength": hi},
            {"$ref": "#/$defs/lines" if lines else "#/$defs/plain"},
        ]
    }


def integer_schema(lo: int = -MAX_SAFE_INTEGER, hi: int = MAX_SAFE_INTEGER) -> dict[str, Any]:
    """JSON Schema of `Integer(lo, hi)`."""
    return {"type": "integer", "minimum": lo, "maximum": hi}


@dataclass(frozen=True)
class Text(FieldSpec):
    """`str[a..b]`: a string of `lo` to `hi` code points with no control characters
    (`lines[a..b]` with `lines`: line breaks and tabs allowed)."""

    lo: int
    hi: int
    lines: bool = False

    def read(self, name: str, value: object) -> str:
        if not isinstance(value, str):
            raise bad_field(name, f"'{name}' must be a string")
        if not self.lo <= len(value) <= self.hi:
            raise bad_field(name, f"'{name}' must be {self.lo} to {self.hi} characters long")
        if _has_control(value.translate(LINE_BREAKS) if self.lines else value):
            raise bad_field(name, f"'{name}' must not hold control characters")
        return value

    def json_schema(self) -> dict[str, Any]:
        return string_schema(self.lo, self.hi, self.lines)


@dataclass(frozen=True)
class Initials(FieldSpec):
    """`initials`: 1 to 3 letters or digits, as a high-score table takes them; read in
    capitals."""

    def read(self, name: str, value: object) -> str:
        if not isinstance(value, str) or not 1 <= len(value) <= 3 or not value.isalnum():
            raise bad_field(name, f"'{name}' must be 1 to 3 letters or digits")
        return value.upper()

    def json_schema(self) -> dict[str, Any]:
        return {
            "type": "string",
            "minLength": 1,
            "maxLength": 3,
            "description": "letters or digits, read in capitals",
        }


@dataclass(frozen=True)
class Integer(FieldSpec):
    """`int[a..b]`."""

    lo: int = -MAX_SAFE_INTEGER
    hi: int = MAX_SAFE_INTEGER

    def read(self, name: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad_field(name, f"'{name}' must be an integer")
        if not self.lo <= value <= self.hi:
            raise bad_field(name, f"'{name}' must be from {self.lo} to {self.hi}")
        return value

    def json_schema(self) -> dict[str, Any]:
        return integer_schema(self.lo, self.hi)


@dataclass(frozen=True)
class Flag(FieldSpec):
    """A boolean."""

    def read(self, name: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise bad_field(name, f"'{name}' must be true or false")
        return value

    def json_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Choice(FieldSpec):
    """One of a few fixed words."""

    choices: tuple[str, ...]

    def read(self, name: str, value: object) -> str:
        if value not in self.choices:
            raise bad_field(name, f"'{name}' must be one of {', '.join(self.choices)}")
        assert isinstance(value, str)
        return value

    def json_schema(self) -> dict[str, Any]:
        return {"enum": list(self.choices)}


@dataclass(frozen=True)
class RequestId(FieldSpec):
    """A client's `id`: a string of 1 to 64 characters or an integer."""

    def read(self, name: str, value: object) -> str | int:
        if isinstance(value, str):
            return Text(1, 64).read(name, value)
        return Integer().read(name, value)

    def json_schema(self) -> dict[str, Any]:
        return {"anyOf": [Text(1, 64).json_schema(), Integer().json_schema()]}


@dataclass(frozen=True)
class EchoedId(FieldSpec):
    """The `id` an error carries: the request's as it was sent, a string or an integer,
    though it was not a valid one."""

    def read(self, name: str, value: object) -> str | int:
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                words = f"'{name}' is not valid Unicode: it cannot be sent back"
                raise bad_field(name, words) from None
            return value
        return Integer().read(name, value)

    def json_schema(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "string"}, Integer().json_schema()]}


@dataclass(frozen=True)
class OptionValues(FieldSpec):
    """Game options: a map from option names to integers or words; the game checks them."""

    def read(self, name: str, value: object) -> dict[str, int | str]:
        if not isinstance(value, dict):
            raise bad_field(name, f"'{name}' must be a map")
        if len(value) > MAX_OPTIONS:
            raise bad_field(name, f"'{name}' may name at most {MAX_OPTIONS} options")
        options: dict[str, int | str] = {}
        for key, item in value.items():
            Text(1, 32).read(f"{name}.{key}", key)
            if isinstance(item, str):
                options[key] = Text(0, 64).read(f"{name}.{key}", item)
            else:
                options[key] = Integer().read(f"{name}.{key}", item)
        return options

    def json_schema(self) -> dict[str, Any]:
        return {"$ref": "#/$defs/option_values"}


@dataclass(frozen=True)
class Anything(FieldSpec):
    """Any value of the common schema (already checked when the frame was decoded)."""

    def read(self, name: str, value: object) -> Any:
        return value

    def json_schema(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class Shape(Anything):
    """A nested map or array the server makes, of the shape `parlour.protocol.schema`
    defines under `name` (a room view, a history entry, ...); not checked on reading."""

    name: str
    many: bool = False
    """An array of them."""

    def json_schema(self) -> dict[str, Any]:
        shape = {"$ref": f"#/$defs/{self.name}"}
        return {"type": "array", "items": shape} if self.many else shape


@dataclass(frozen=True)
class Colour(Text):
    """A seat's colour as the server names it: read as text, shown in the schema as one of
    the games' colours."""

    lo: int = 1
    hi: int = 16

    def json_schema(self) -> dict[str, Any]:
        return {"$ref": "#/$defs/colour"}


@dataclass(frozen=True)
class Word(Text):
    """A word the server sends from a fixed list that may grow (an error's code): read as
    any text, so a client reads a later server's, shown in the schema as the list."""

    words: tuple[str, ...] = ()

    def json_schema(self) -> dict[str, Any]:
        return {"enum": list(self.words)}


@dataclass(frozen=True)
class PlayerKey(FieldSpec):
    """A player key (`parlour.protocol.players`): read in any case, with dashes or spaces
    anywhere, and written as the keys are."""

    def read(self, name: str, value: object) -> str:
        key = read_key(value) if isinstance(value, str) and len(value) <= 128 else None
        if key is None:
            raise bad_field(name, f"'{name}' must be a player key: 32 symbols in groups of four")
        return key

    def json_schema(self) -> dict[str, Any]:
        return {
            "type": "string",
            "maxLength": 128,
            "description": "32 symbols of Crockford's base 32, in any case, with dashes or"
            " spaces anywhere",
        }


MAX_ADDRESS: Final = 254
"""Characters in an email address at most (RFC 5321's path, less its brackets)."""
MAX_LOCAL_PART: Final = 64
ADDRESS_SPECIALS: Final = frozenset('<>()[]\\,;:"@')
"""Characters a plain address's part before the `@` may not hold (RFC 5322's specials)."""
CODE_DIGITS: Final = 6
"""Digits in a code sent to an email address to confirm it (protocol.md 2.13)."""


def read_email_address(value: str) -> str | None:
    """An email address in the shape every mail server takes (`ann@example.org`), its
    domain in lower case, spaces about it dropped; None if it is not one. Only ASCII:
    quoted parts, addresses at a bare IP and international addresses (which need mail
    servers that speak SMTPUTF8) are not taken."""
    text = value.strip(" ")
    if len(text) > MAX_ADDRESS or text.count("@") != 1 or not text.isascii():
        return None
    if _has_control(text):
        return None
    local, domain = text.split("@")
    if not 1 <= len(local) <= MAX_LOCAL_PART or ".." in local:
        return None
    if local.startswith(".") or local.endswith(".") or ADDRESS_SPECIALS & set(local):
        return None
    if any(char.isspace() for char in local):
        return None
    labels = domain.lower().split(".")
    if len(labels) < 2 or labels[-1].isdigit():
        return None
    for label in labels:
        if not 1 <= len(label) <= 63 or label.startswith("-") or label.endswith("-"):
            return None
        if not all(char.isalnum() or char == "-" for char in label):
            return None
    return f"{local}@{'.'.join(labels)}"


@dataclass(frozen=True)
class EmailAddress(FieldSpec):
    """An email address (`read_email_address`)."""

    def read(self, name: str, value: object) -> str:
        address = read_email_address(value) if isinstance(value, str) else None
        if address is None:
            raise bad_field(name, f"'{name}' must be an email address, as ann@example.org")
        return address

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "^ *[^@ ]+@[^@ ]+ *$", "format": "email"}


@dataclass(frozen=True)
class EmailCode(FieldSpec):
    """A code sent to an email address: `CODE_DIGITS` digits, read with spaces or dashes
    anywhere (`123 456`)."""

    def read(self, name: str, value: object) -> str:
        digits = value.replace(" ", "").replace("-", "") if isinstance(value, str) else ""
        if len(digits) != CODE_DIGITS or not digits.isascii() or not digits.isdigit():
            raise bad_field(name, f"'{name}' must be the {CODE_DIGITS} digits of the code")
        return digits

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^[ -]*([0-9][ -]*){{{CODE_DIGITS}}}$"}


NAME: Final = Text(1, 32)
COLOUR: Final = Text(1, 16)
ROOM_REF: Final = Text(8, 32)
TOKEN: Final = Text(22, 64)
LEVEL: Final = Text(1, 32)
GAME_NAME: Final = Text(1, 32)
MOVE_TEXT: Final = Text(1, 64)
VERSION: Final = Integer(0, MAX_SAFE_INTEGER)
BOARD_NUMBER: Final = Integer(0, MAX_SAFE_INTEGER)


@dataclass(frozen=True)
class TimeControlMap(FieldSpec):
    """A time control's map (`parlour.protocol.timecontrol`), read as its normal form."""

    def read(self, name: str, value: object) -> dict[str, Any]:
        return read_time_control(name, value).describe()

    def json_schema(self) -> dict[str, Any]:
        return {"$ref": "#/$defs/time_control"}
