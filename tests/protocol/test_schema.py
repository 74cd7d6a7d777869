"""The JSON Schema files: made from the message classes, in step with the repository, and
checking what the protocol's own readers check."""

import copy
import json
import random
import re
import unicodedata
from pathlib import Path
from typing import Any, Final

import fastjsonschema
import pytest
from jsonschema import Draft202012Validator

from parlour.protocol import ProtocolError
from parlour.protocol import messages as m
from parlour.protocol.fields import (
    Choice,
    EmailCode,
    Integer,
    RequestId,
    Text,
    _has_control,
    text_pattern,
)
from parlour.protocol.schema import FILES, WRITE_COMMAND, direction_schema, schema_text
from parlour.rules import GAMES
from tests.schemacheck import fast_validators, validators, violation

from .test_wire import CLIENT_SAMPLES, ROOM_VIEW, SERVER_SAMPLES

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("direction", list(FILES))
def test_the_files_in_the_repository_are_what_the_code_makes(direction: str) -> None:
    path = SCHEMAS / FILES[direction]
    assert path.exists(), f"{path} is missing: run {WRITE_COMMAND}"
    assert path.read_text(encoding="utf-8") == schema_text(direction), (
        f"{path} differs from what parlour.protocol.schema makes: run {WRITE_COMMAND}"
    )


@pytest.mark.parametrize("direction", list(FILES))
def test_each_file_is_a_valid_2020_12_schema_naming_every_message(direction: str) -> None:
    schema = json.loads((SCHEMAS / FILES[direction]).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    registry = m.CLIENT_MESSAGES if direction == "client" else m.SERVER_MESSAGES
    assert sorted(schema["properties"]["type"]["enum"]) == sorted(registry)
    assert [one["$ref"] for one in schema["oneOf"]] == [f"#/$defs/{t}" for t in registry]


@pytest.mark.parametrize("direction", list(FILES))
def test_the_whole_schema_takes_each_sample_through_its_one_of(direction: str) -> None:
    whole = Draft202012Validator(direction_schema(direction))
    samples = CLIENT_SAMPLES if direction == "client" else SERVER_SAMPLES
    for sample in samples:
        assert list(whole.iter_errors(json.loads(json.dumps(sample.to_wire())))) == []


def test_a_field_the_schema_lacks_fails_with_the_type_path_and_what_was_wanted() -> None:
    wire = m.RoomView(room=ROOM_VIEW | {"spare": 1}).to_wire()
    found = violation("server", json.dumps(wire))
    assert found is not None
    assert "'room'" in found and "$.room" in found and "spare" in found
    assert '"additionalProperties": false' in found


def test_a_field_of_the_wrong_type_deep_inside_is_named_by_its_path() -> None:
    seats = [dict(ROOM_VIEW["seats"][0]), *ROOM_VIEW["seats"][1:]]
    seats[0]["holder"] = {"kind": "human", "name": "Ann", "connected": "yes"}
    found = violation(
        "server", json.dumps(m.RoomView(room=ROOM_VIEW | {"seats": seats}).to_wire())
    )
    assert found is not None
    assert "$.room.seats[0].holder" in found


def test_an_unknown_type_and_a_frame_that_is_no_message_are_violations() -> None:
    assert "no type" in (violation("server", '{"type": "lobby_news"}') or "")
    assert "does not decode" in (violation("client", b"\xc1") or "")


def test_optional_fields_may_be_null_or_left_out_but_others_may_not() -> None:
    check = validators("client")["join"]
    assert check.is_valid({"type": "join", "room": "k7Hq2mXa", "seat": None, "token": None})
    assert check.is_valid({"type": "join", "room": "k7Hq2mXa"})
    assert not check.is_valid({"type": "join", "room": None})
    assert not check.is_valid({"type": "join"})


def test_every_game_has_an_observation_and_each_start_is_valid() -> None:
    check = Draft202012Validator(
        {"$ref": "#/$defs/observation", "$defs": direction_schema("server")["$defs"]}
    )
    for game in GAMES.values():
        start = game.new(seed=3)
        after = start.play(start.legal_moves()[0])
        for state in (start, after):
            assert list(check.iter_errors(state.observation())) == [], game.name
        assert not check.is_valid(start.observation() | {"extra": 1})


def validates(spec_schema: dict[str, Any], value: object) -> bool:
    defs = direction_schema("client")["$defs"]
    return bool(Draft202012Validator(spec_schema | {"$defs": defs}).is_valid(value))


def reads(spec: Any, value: object) -> bool:
    try:
        spec.read("f", value)
    except ProtocolError:
        return False
    return True


@pytest.mark.parametrize(
    ("spec", "values"),
    [
        (Text(1, 4), ["", "a", "abcd", "abcde", "a\nb", "ab\n", "a\u202eb", "a\u200db", 3, None]),
        (Text(0, 9, lines=True), ["a\nb\tc", "a\u0007", "a\u2028", "", "a\n"]),
        (Integer(0, 10), [0, 10, 11, -1, True, "1", 2**53 - 1]),
        (RequestId(), ["", "x", "x" * 64, "x" * 65, 7, -(2**53 - 1), 1.5, None]),
        (EmailCode(), ["123456", "123 456", "12-34-56", "12345", "1234567", "12a456"]),
        (Choice(m.HINT_KINDS), ["possible", "best", "worst", 1]),
    ],
)
def test_a_fields_schema_takes_what_its_reader_takes(spec: Any, values: list[object]) -> None:
    for value in values:
        assert validates(spec.json_schema(), value) == reads(spec, value), value


@pytest.mark.parametrize("lines", [False, True])
def test_the_text_pattern_refuses_what_the_reader_refuses_in_the_basic_plane(
    lines: bool,
) -> None:
    pattern = re.compile(text_pattern(lines))
    allowed = "\n\r\t" if lines else ""
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        refused = char not in allowed and _has_control(char)
        assert (pattern.search(f"a{char}b") is not None) == refused, (
            hex(code),
            unicodedata.name(char, ""),
        )


def test_every_example_in_protocol_md_follows_a_schema() -> None:
    text = (SCHEMAS.parent / "protocol.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    othello = GAMES["othello"].new(seed=1).observation()
    for block in blocks:
        example = json.loads(block)
        if "type" not in example:  # a room view's clock, or a game as welcome lists it
            defs = direction_schema("server")["$defs"]
            part, value = (
                ("clock", example["clock"])
                if "clock" in example
                else ("game_description", example)
            )
            shape = Draft202012Validator({"$ref": f"#/$defs/{part}", "$defs": defs})
            assert list(shape.iter_errors(value)) == [], block
            continue
        cut = example.get("state")
        if isinstance(cut, dict):  # a `state` cut short in the text, to what matters
            assert cut_state_fits(cut), block
            example["state"] = othello
        found = [violation(way, json.dumps(example)) for way in FILES]
        assert None in found, found


def cut_state_fits(cut: dict[str, Any]) -> bool:
    """Whether the fields an example shows of a `state` are each as some game's
    observation has them (the example leaves the rest out)."""
    defs = direction_schema("server")["$defs"]
    for game in GAMES:
        shape = defs[f"observation_{game}"]["properties"]
        checks = {
            name: Draft202012Validator({**shape[name], "$defs": defs})
            for name in cut
            if name in shape
        }
        if len(checks) == len(cut) and all(
            checks[name].is_valid(value) for name, value in cut.items()
        ):
            return True
    return False


def test_the_fast_validator_the_tests_use_agrees_with_jsonschema_on_broken_messages() -> None:
    """`tests/schemacheck.py` checks frames with fastjsonschema (draft 7 semantics) for
    speed: on the samples and thousands of broken copies of them, it refuses exactly what
    the 2020-12 validator refuses."""
    rng = random.Random(7)
    checked = refused = 0
    for direction, samples in (("server", SERVER_SAMPLES), ("client", CLIENT_SAMPLES)):
        for sample in samples:
            wire = json.loads(json.dumps(sample.to_wire()))
            for tries in range(40):
                message = copy.deepcopy(wire)
                for _ in range(tries % 4):
                    broken(message, rng)
                kind = message["type"]
                full = validators(direction)[kind].is_valid(message)
                try:
                    fast_validators(direction)[kind](message)
                    fast = True
                except fastjsonschema.JsonSchemaException:
                    fast = False
                assert fast == full, (direction, json.dumps(message)[:300])
                checked, refused = checked + 1, refused + (not full)
    assert refused > checked / 4, "the broken copies are broken"


BREAKAGES: Final[tuple[object, ...]] = (
    None,
    1.5,
    "x" * 70,
    -1,
    [],
    {},
    True,
    "",
    2**60,
    "a\nb",
    "\u202e",
)


def broken(value: object, rng: random.Random) -> None:
    """Break one thing somewhere in `value`, in place (its `type` aside)."""
    if isinstance(value, dict):
        keys = [key for key in value if key != "type"]
        if not keys:
            return
        key, roll = rng.choice(keys), rng.random()
        if roll < 0.3:
            value[key] = rng.choice(BREAKAGES)
        elif roll < 0.45:
            value["unheard_of"] = 1
        elif roll < 0.55:
            del value[key]
        else:
            broken(value[key], rng)
    elif isinstance(value, list) and value:
        if rng.random() < 0.3:
            value.append(rng.choice((None, 1, "z", {})))
        else:
            broken(rng.choice(value), rng)
