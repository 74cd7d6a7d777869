"""protocol.md's table of error codes names exactly the codes the server sends, and its
examples of messages read as those messages."""

import contextlib
import json
import re
from pathlib import Path
from typing import Any

from parlour.bots import default_level, levels_for
from parlour.protocol import ErrorCode
from parlour.protocol import messages as m
from parlour.protocol.errors import ProtocolError
from parlour.protocol.timecontrol import read_time_control
from parlour.rules import get_game

PROTOCOL_MD = Path(__file__).parents[2] / "protocol.md"


def test_the_error_table_lists_every_error_code_and_no_other() -> None:
    text = PROTOCOL_MD.read_text()
    section = text[text.index("| code | meaning | closes |") : text.index("## 4. Close codes")]
    listed = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert sorted(listed) == sorted(code.value for code in ErrorCode)
    assert len(listed) == len(set(listed))


def test_the_examples_of_my_games_and_your_turn_read_as_the_messages_they_show() -> None:
    blocks = re.findall(r"^```json\n(.*?)^```", PROTOCOL_MD.read_text(), re.MULTILINE | re.DOTALL)
    examples = {ex["type"]: ex for ex in map(json.loads, blocks) if "type" in ex}
    mine = m.read_server_message(examples["my_games"])
    assert isinstance(mine, m.MyGamesReply)
    assert [entry["turn"] for entry in mine.playing] == [True, False]
    assert all(entry["time_left_ms"] is None for entry in mine.playing)
    told = m.read_server_message(examples["your_turn"])
    assert told == m.YourTurn(room="k7Hq2mXa", ref="k7Hq2mXa", game="othello", seats=["white"])


def test_the_examples_of_email_read_as_the_messages_they_show() -> None:
    blocks = re.findall(r"^```json\n(.*?)^```", PROTOCOL_MD.read_text(), re.MULTILINE | re.DOTALL)
    examples = {ex["type"]: ex for ex in map(json.loads, blocks) if "type" in ex}
    asked = m.read_client_message(examples["set_email"])
    assert asked == m.SetEmail(id=31, address="ann@example.org", digest_hours=12)
    shown = m.read_server_message(examples["email"])
    assert shown == m.EmailReply(id=31, address="ann@example.org", verified=False, digest_hours=12)
    sent_back = m.read_client_message(examples["verify_email"])
    assert sent_back == m.VerifyEmail(id=32, code="042917")


def test_every_example_is_json_and_reads_as_a_message_of_its_type() -> None:
    blocks = re.findall(r"^```json\n(.*?)^```", PROTOCOL_MD.read_text(), re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 15
    for block in blocks:
        example = json.loads(block)
        if "type" not in example:  # a part of a message: a room view's clock, a game
            check_part(example, block)
            continue
        readings = []
        for read in (m.read_client_message, m.read_server_message):
            with contextlib.suppress(ProtocolError):
                readings.append(read(example))
        assert readings, f"reads as no message: {block}"


def test_the_examples_of_clocks_add_up() -> None:
    blocks = re.findall(r"^```json\n(.*?)^```", PROTOCOL_MD.read_text(), re.MULTILINE | re.DOTALL)
    update = next(json.loads(b) for b in blocks if '"type": "update"' in b and "clock" in b)
    start = next(json.loads(b)["clock"] for b in blocks if b.startswith('{"clock"'))
    spent = update["clock"]["at"] - start["at"]
    increment = update["clock"]["control"]["increment_s"] * 1000
    before, after = start["left_ms"]["black"], update["clock"]["left_ms"]["black"]
    assert after == before - spent + increment == 290_500


def check_part(example: dict[str, Any], block: str) -> None:
    """A part of a message shown alone: a room view's `clock`, or a game as `welcome`
    lists it (the server's own description of that game, cut short)."""
    if set(example) == {"clock"}:
        clock = example["clock"]
        assert read_time_control("clock.control", clock["control"]).clocked
        assert set(clock["left_ms"]) >= set(clock.get("held_until", {})), block
        return
    name = example["name"]
    described: dict[str, Any] = get_game(name).describe() | {
        "levels": list(levels_for(name)),
        "default_level": default_level(name),
    }
    assert set(example) == set(described), block
    for key, value in example.items():
        if key != "options":
            assert value == described[key], key
    offered = {option["name"]: option for option in described["options"]}
    for option in example["options"]:
        assert option == offered[option["name"]], option
