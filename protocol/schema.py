"""JSON Schema 2020-12 of every message, both directions, made from the protocol's own code.

The top level of each message comes from its class in `messages` (each field's
`FieldSpec.json_schema`); the maps and arrays the server nests in them (room views, seats,
clocks, history entries, observations, ...) are the shapes defined here, by the names the
message fields' `Shape` specs give. `python -m parlour.protocol.schema --write` writes
`schemas/client.schema.json` and `schemas/server.schema.json`; a test fails when they
differ from what this module makes.

A field a table of protocol.md shows as `T?` may be left out, and absent means null: such
fields are not required and allow null. Every map the protocol fixes refuses other fields
(`additionalProperties: false`), so a field the server adds without the schema fails the
tests that watch its traffic.
"""

import argparse
import json
import sys
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any, Final

from parlour.rules import GAMES, Game
from parlour.rules.flank import FlankGame
from parlour.rules.oubliette import OublietteGame
from parlour.rules.tripppin import DIRECTION_NAMES, TripppinGame

from . import timecontrol as tc
from .endings import ENDINGS
from .fields import MAX_OPTIONS, Integer, Text, integer_schema, text_pattern
from .messages import (
    CLIENT_MESSAGES,
    COIN_SIDES,
    LEFT_SEATS,
    PROPOSAL_KINDS,
    SERVER_MESSAGES,
    Message,
)
from .wire import JSON, MAX_SAFE_INTEGER, MSGPACK

Schema = dict[str, Any]

DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
FILES: Final = {"client": "client.schema.json", "server": "server.schema.json"}
WRITE_COMMAND: Final = "python -m parlour.protocol.schema --write"

NULL: Final[Schema] = {"type": "null"}
STRING: Final[Schema] = {"type": "string"}
BOOLEAN: Final[Schema] = {"type": "boolean"}
INT: Final[Schema] = integer_schema()
COUNT: Final[Schema] = integer_schema(0)
"""A count, a version, a time in seconds or milliseconds since 1970: 0 to 2^53 - 1."""
COLOUR: Final[Schema] = {"$ref": "#/$defs/colour"}
TEXTS: Final[Schema] = {"type": "array", "items": STRING}
COLOURS: Final[Schema] = {"type": "array", "items": COLOUR}


def ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def nullable(schema: Schema) -> Schema:
    """`T?`: the value or null (and, where it is a field, it may be left out)."""
    return {"anyOf": [schema, NULL]}


def record(required: dict[str, Schema], optional: dict[str, Schema] | None = None) -> Schema:
    """A map with these fields and no others: `optional` ones may be left out or null."""
    optional = optional or {}
    properties = required | {name: nullable(schema) for name, schema in optional.items()}
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def tagged(tag: str, kinds: dict[str, Schema]) -> Schema:
    """One of several records told apart by the value of their field `tag`: an `if` on
    the tag for each, so a validator reads only the record the tag names (and says what is
    wrong with that one alone)."""
    branches = []
    for kind, shape in kinds.items():
        properties = {tag: {"const": kind}} | shape["properties"]
        required = [tag, *shape["required"]]
        branches.append((kind, shape | {"properties": properties, "required": required}))
    return discriminated(tag, branches)


def discriminated(tag: str, branches: list[tuple[str, Schema]]) -> Schema:
    """A map whose field `tag` names which of `branches` it must follow."""
    return {
        "type": "object",
        "required": [tag],
        "properties": {tag: {"enum": [kind for kind, _ in branches]}},
        "allOf": [
            {"if": {"properties": {tag: {"const": kind}}, "required": [tag]}, "then": shape}
            for kind, shape in branches
        ],
    }


def by_colour(value: Schema, seats: tuple[str, ...] | None = None) -> Schema:
    """A map from colour to `value`: every seat of `seats`, or any of the games' colours."""
    if seats is None:
        return {"type": "object", "propertyNames": COLOUR, "additionalProperties": value}
    return record(dict.fromkeys(seats, value))


def colours() -> Schema:
    """Every seat colour of every game this server has."""
    names = sorted({colour for game in GAMES.values() for colour in game.seats})
    return {"enum": names}


# The games' observations (protocol.md 2.6): each game's `State.observation()`.


def _common(game: Game[Any]) -> dict[str, Schema]:
    seat = {"enum": list(game.seats)}
    return {
        "game": {"const": game.name},
        "seats": {"const": list(game.seats)},
        "to_move": nullable(seat),
        "legal_moves": TEXTS,
        "scores": by_colour(INT, game.seats),
        "over": BOOLEAN,
        "winners": {"type": "array", "items": seat},
        "position": STRING,
        "last_move": nullable(STRING),
    }


def _flank(game: Game[Any]) -> dict[str, Schema]:
    return {
        "rows": COUNT,
        "cols": COUNT,
        "letters": by_colour(STRING, game.seats),
        "board": TEXTS,
        "values": TEXTS,
        "passed": {"type": "array", "items": {"enum": list(game.seats)}},
        "flipped": TEXTS,
    }


def _tripppin(game: Game[Any]) -> dict[str, Schema]:
    direction = {"enum": list(DIRECTION_NAMES)}
    directions = {"type": "array", "items": direction}
    rows = {"type": "array", "items": directions}
    squares = by_colour(STRING, game.seats)
    return {
        "rows": COUNT,
        "cols": COUNT,
        "tiles": {"type": "array", "items": rows},
        "circles": TEXTS,
        "starts": squares,
        "pieces": squares,
        "progress": by_colour(COUNT, game.seats),
        "routes": by_colour(TEXTS, game.seats),
        "targets": by_colour(nullable(STRING), game.seats),
        "directions": directions,
        "ply": COUNT,
    }


def _oubliette(game: Game[Any]) -> dict[str, Schema]:
    return {
        "rows": TEXTS,
        "row_cells": {"type": "array", "items": TEXTS},
        "pieces": by_colour(TEXTS, game.seats),
        "holes": TEXTS,
        "blocks": TEXTS,
        "ejected": by_colour(COUNT, game.seats),
        "limit": COUNT,
        "win": COUNT,
        "ply": COUNT,
        "last_pushed": COUNT,
        "last_ejected": BOOLEAN,
    }


BOARDS: Final = ((FlankGame, _flank), (TripppinGame, _tripppin), (OublietteGame, _oubliette))
"""Each kind of game's own observation fields, beside those every game has."""


def observation(game: Game[Any]) -> Schema:
    """What `game`'s `State.observation()` holds; every field is always there."""
    for kind, board in BOARDS:
        if isinstance(game, kind):
            shape = record(_common(game) | board(game))
            shape["required"] = list(shape["properties"])
            shape["title"] = f"{game.name}'s observation"
            return shape
    raise TypeError(f"no observation schema for the game {game.name!r}: add it to BOARDS")


# The shapes the server nests in its messages, by the names their fields' `Shape` gives.


def _time_control() -> Schema:
    return tagged(
        "kind",
        {
            tc.NONE: record({}),
            tc.LIVE: record(
                {"base_s": integer_schema(tc.MIN_BASE_S, tc.MAX_BASE_S)},
                {"increment_s": integer_schema(0, tc.MAX_INCREMENT_S)},
            ),
            tc.DAYS: record(
                {"days": integer_schema(tc.MIN_DAYS, tc.MAX_DAYS)},
                {"bank_days": integer_schema(0, tc.MAX_BANK_DAYS)},
            ),
        },
    )


def _holder() -> Schema:
    player = {"player": STRING}
    return tagged(
        "kind",
        {
            "open": record({}),
            "human": record({"name": STRING, "connected": BOOLEAN}, player),
            "bot": record({"level": STRING}, {"name": STRING, "connected": BOOLEAN} | player),
            "standin": record({"name": STRING, "level": STRING}, player),
        },
    )


def _summary() -> dict[str, Schema]:
    return {
        "room": STRING,
        "game": STRING,
        "options": ref("option_values"),
        "board": COUNT,
        "position": nullable(STRING),
        "status": {"enum": ["waiting", "playing", "finished"]},
        "seats": {"type": "array", "items": ref("seat")},
        "host": STRING,
        "bot_think_ms": COUNT,
        "left_seats": {"enum": list(LEFT_SEATS)},
        "people": COUNT,
        "moved_at": COUNT,
        "created_at": COUNT,
        "time_control": ref("time_control"),
    }


def _room_summary() -> Schema:
    shape = record(_summary())
    shape["required"].remove("position")
    return shape


def _room_view() -> Schema:
    required = _summary() | {
        "public": BOOLEAN,
        "version": COUNT,
        "moves": TEXTS,
        "seat_changes": {"type": "array", "items": ref("seat_change")},
        "yours": COLOURS,
        "rated": BOOLEAN,
        "flagged": COLOURS,
        "resigned": COLOURS,
        "absent": COLOURS,
        "winners": COLOURS,
        "abortable": BOOLEAN,
        "watchers": {"type": "array", "items": ref("person")},
    }
    optional = {
        "ended": {"enum": list(ENDINGS)},
        "coin": ref("coin"),
        "state": ref("observation"),
        "you": COLOUR,
        "unrated": STRING,
        "rating_changes": by_colour(ref("rating_change")),
        "clock": ref("clock"),
    }
    shape = record(required, optional)
    shape["required"].remove("position")
    return shape


def _history_entry() -> Schema:
    """A history entry (protocol.md 2.11): `kind`, `n` and `at`, then its kind's fields."""
    coin = {"coin": ref("coin")}
    kinds = {
        "move": (
            {"seat": COLOUR, "move": STRING, "version": COUNT, "passed": COLOURS},
            {"name": STRING, "level": STRING},
        ),
        "seat": ({"seat": COLOUR, "holder": ref("holder")}, {"by": STRING, "after": COUNT}),
        "chat": (
            {"name": STRING, "text": STRING},
            {"seat": COLOUR, "watching": BOOLEAN, "player": STRING},
        ),
        "started": ({"first": COLOUR}, coin),
        "over": (
            {
                "winners": COLOURS,
                "scores": by_colour(INT),
                "names": by_colour(nullable(STRING)),
            },
            {},
        ),
        "new_game": ({"first": COLOUR, "board": COUNT, "rotated": BOOLEAN}, coin),
        "undo": ({"moves": COUNT, "version": COUNT}, {}),
        "loaded": ({"moves": COUNT, "over": BOOLEAN}, {}),
        "proposal": (
            {
                "proposal": {"enum": list(PROPOSAL_KINDS)},
                "outcome": {"enum": ["declined", "expired"]},
            },
            {"by": COLOUR, "seat": COLOUR},
        ),
        "flagged": ({"seat": COLOUR, "ends": BOOLEAN}, {"name": STRING}),
        "resigned": ({"seat": COLOUR, "ends": BOOLEAN}, {"name": STRING}),
        "aborted": ({"seat": COLOUR}, {"name": STRING, "late": BOOLEAN}),
        "claimed": ({"seat": COLOUR}, {"name": STRING}),
        "clock_paused": ({"seat": COLOUR, "given_ms": COUNT}, {}),
    }
    every = {"n": integer_schema(1), "at": COUNT}
    return tagged(
        "kind", {kind: record(every | needed, extra) for kind, (needed, extra) in kinds.items()}
    )


def _game_description() -> Schema:
    common = {"name": STRING, "help": STRING}
    option = tagged(
        "kind",
        {
            "int": record(common | {"default": INT, "minimum": INT, "maximum": INT}),
            "choice": record(common | {"default": STRING, "choices": TEXTS}),
        },
    )
    return record(
        {
            "name": STRING,
            "title": STRING,
            "seats": COLOURS,
            "options": {"type": "array", "items": option},
            "first_by_coin": BOOLEAN,
            "levels": TEXTS,
            "default_level": STRING,
        }
    )


def _option_values() -> Schema:
    return {
        "type": "object",
        "maxProperties": MAX_OPTIONS,
        "propertyNames": Text(1, 32).json_schema(),
        "additionalProperties": {"anyOf": [Text(0, 64).json_schema(), Integer().json_schema()]},
    }


def _lines() -> dict[str, Schema]:
    return {
        "wins": COUNT,
        "losses": COUNT,
        "ties": COUNT,
        "games": COUNT,
        "win_percent": integer_schema(0, 100),
    }


def _replay_frame() -> Schema:
    return record(
        {
            "ply": COUNT,
            "state": ref("observation"),
            "changed": TEXTS,
            "ejected": TEXTS,
            "scores": {"type": "array", "items": INT},
        },
        {
            "move": STRING,
            "mover": COLOUR,
            "evaluation": {"type": "array", "items": integer_schema(0, 1000)},
        },
    )


def _error_detail() -> Schema:
    """What an error's `detail` may name (protocol.md 3)."""
    return record(
        {},
        {
            "field": STRING,
            "type": STRING,
            "version": COUNT,
            "levels": TEXTS,
            "seats": COLOURS,
            "retry_after_s": COUNT,
            "tries_left": COUNT,
        },
    )


def shapes() -> dict[str, Schema]:
    """Every shape a message's field may name, by name."""
    return {
        "colour": colours(),
        "text": STRING,
        "plain": {
            "description": "no control, format or line-breaking characters",
            "not": {"pattern": text_pattern(False)},
        },
        "lines": {
            "description": "no control or format characters but line breaks and tabs",
            "not": {"pattern": text_pattern(True)},
        },
        "option_values": _option_values(),
        "time_control": _time_control(),
        "rating": record({"value": INT, "provisional": BOOLEAN, "games": COUNT}),
        "rating_change": record({"before": INT, "after": INT}),
        "holder": _holder(),
        "seat": record({"colour": COLOUR, "holder": ref("holder")}, {"rating": ref("rating")}),
        "room_summary": _room_summary(),
        "room_view": _room_view(),
        "coin": record(
            {
                "by": COLOUR,
                "call": {"enum": list(COIN_SIDES)},
                "landed": {"enum": list(COIN_SIDES)},
                "first": COLOUR,
            }
        ),
        "seat_change": record({"after": COUNT, "seat": COLOUR, "holder": STRING}),
        "clock": record(
            {
                "control": ref("time_control"),
                "left_ms": by_colour(COUNT),
                "at": COUNT,
            },
            {"running": COLOUR, "held_until": by_colour(COUNT)},
        ),
        "observation": discriminated(
            "game", [(name, ref(f"observation_{name}")) for name in GAMES]
        ),
        **{f"observation_{name}": observation(game) for name, game in GAMES.items()},
        "history_entry": _history_entry(),
        "search": record(
            {"move": STRING, "line": TEXTS, "score": INT, "depth": COUNT, "nodes": COUNT},
            {"forced": INT},
        ),
        "game_description": _game_description(),
        "player": record({"id": STRING, "name": STRING, "new": BOOLEAN}),
        "person": record({"name": STRING}, {"player": STRING}),
        "colour_line": record({"colour": COLOUR} | _lines()),
        "player_line": record(
            {"name": STRING} | _lines(), {"player": STRING, "rating": ref("rating")}
        ),
        "best_score": record({"name": STRING, "initials": STRING, "typed": BOOLEAN, "score": INT}),
        "saved_game": record(
            {
                "name": STRING,
                "game": STRING,
                "moves": COUNT,
                "saved_by": STRING,
                "saved_at": COUNT,
            }
        ),
        "playing_entry": record(
            {
                "room": STRING,
                "ref": STRING,
                "game": STRING,
                "seats": COLOURS,
                "status": {"enum": ["waiting", "playing"]},
                "moved_at": COUNT,
                "turn": BOOLEAN,
            },
            {"time_left_ms": COUNT},
        ),
        "finished_entry": record(
            {
                "record": STRING,
                "game": STRING,
                "preset": STRING,
                "finished_at": COUNT,
                "moves": COUNT,
                "rated": BOOLEAN,
                "seats": {"type": "array", "items": ref("result_seat")},
            }
        ),
        "result_seat": record(
            {
                "colour": COLOUR,
                "kind": {"enum": ["human", "bot", "changed"]},
                "outcome": {"enum": ["win", "loss", "tie"]},
                "score": INT,
            },
            {"name": STRING, "player": STRING, "level": STRING, "rating": ref("rating_change")},
        ),
        "leader": record(
            {
                "rank": integer_schema(1),
                "player": STRING,
                "name": STRING,
                "computer": BOOLEAN,
                "rating": INT,
                "provisional": BOOLEAN,
                "games": COUNT,
            }
        ),
        "replay_frame": _replay_frame(),
        "worst_move": record({"ply": COUNT, "colour": COLOUR, "loss": INT}),
        "replay_result": record(
            {"over": BOOLEAN, "winners": COLOURS, "scores": {"type": "array", "items": INT}}
        ),
        "error_detail": _error_detail(),
    }


# The messages.


def message_schema(kind: type[Message]) -> Schema:
    """A message's map: `type`, then each of its class's fields by its `FieldSpec`."""
    required: dict[str, Schema] = {"type": {"const": kind.TYPE}}
    optional: dict[str, Schema] = {}
    defaults: dict[str, Any] = {}
    for item in fields(kind):
        schema = item.metadata["spec"].json_schema()
        if not schema:
            raise TypeError(f"'{kind.TYPE}.{item.name}' has no schema: give it a Shape")
        if item.default is MISSING:
            required[item.name] = schema
        else:
            optional[item.name] = schema
            if item.default is not None:
                defaults[item.name] = item.default
    shape = record(required, optional)
    for name, value in defaults.items():
        shape["properties"][name]["default"] = value
    shape["title"] = kind.TYPE
    if kind.__doc__ and not kind.__doc__.startswith(f"{kind.__name__}("):
        shape["description"] = " ".join(kind.__doc__.split())
    return shape


def _referenced(schema: object) -> set[str]:
    """The names of the `$defs` that `schema` refers to, directly."""
    if isinstance(schema, dict):
        found = {schema["$ref"].removeprefix("#/$defs/")} if "$ref" in schema else set()
        for value in schema.values():
            found |= _referenced(value)
        return found
    if isinstance(schema, list):
        return set().union(*map(_referenced, schema)) if schema else set()
    return set()


def direction_schema(direction: str) -> Schema:
    """The schema of every message one way: `client` (to the server) or `server`."""
    registry = CLIENT_MESSAGES if direction == "client" else SERVER_MESSAGES
    messages = {kind.TYPE: message_schema(kind) for kind in registry.values()}
    known = shapes()
    clashes = set(messages) & set(known)
    if clashes:
        raise ValueError(f"shapes named as messages: {', '.join(sorted(clashes))}")
    defs: dict[str, Schema] = dict(messages)
    wanted = _referenced(messages)
    while wanted - set(defs):
        name = min(wanted - set(defs))
        if name not in known:
            raise KeyError(f"no shape called {name!r}: define it in shapes()")
        defs[name] = known[name]
        wanted |= _referenced(known[name])
    sender = "a client sends the server" if direction == "client" else "the server sends"
    return {
        "$schema": DRAFT,
        "title": f"Parlour protocol 1: every message {sender}",
        "description": (
            f"One message, as a map in a {MSGPACK} binary frame or a {JSON} text frame"
            " (protocol.md). Both carry the same maps: no byte strings, no floats,"
            f" integers within +/-{MAX_SAFE_INTEGER} (2^53 - 1). A field that is not"
            " required may be left out, and absent means the same as null. Text fields"
            " refuse control and format characters; the pattern names those of the Basic"
            " Multilingual Plane. Made by the server's own code: do not edit, run"
            f" `{WRITE_COMMAND}`."
        ),
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": sorted(messages)}},
        "oneOf": [ref(name) for name in messages],
        "$defs": defs,
    }


def schema_text(direction: str) -> str:
    """The schema file's text: stable, two-space indented JSON with a final newline."""
    return json.dumps(direction_schema(direction), indent=2, ensure_ascii=False) + "\n"


def stale_files(folder: Path) -> list[Path]:
    """The schema files in `folder` that differ from what the code makes (or are missing)."""
    stale = []
    for direction, name in FILES.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != schema_text(direction):
            stale.append(path)
    return stale


def write(folder: Path) -> list[Path]:
    """Write both schema files into `folder`; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for direction, name in FILES.items():
        path = folder / name
        path.write_text(schema_text(direction), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m parlour.protocol.schema",
        description="Write or check the JSON Schema files of the Parlour protocol.",
    )
    parser.add_argument("--write", action="store_true", help="write the files")
    parser.add_argument(
        "--dir", type=Path, default=Path("schemas"), help="the folder (default: ./schemas)"
    )
    args = parser.parse_args(argv)
    if args.write:
        for path in write(args.dir):
            print(f"wrote {path}")
        return 0
    stale = stale_files(args.dir)
    for path in stale:
        print(f"{path} differs from the code; run {WRITE_COMMAND}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
