"""protocol.md's table of error codes names exactly the codes the server sends, and its
examples of messages read as those messages."""

import json
import re
from pathlib import Path

from parlour.protocol import ErrorCode
from parlour.protocol import messages as m

PROTOCOL_MD = Path(__file__).parents[2] / "protocol.md"


def test_the_error_table_lists_every_error_code_and_no_other() -> None:
    text = PROTOCOL_MD.read_text()
    section = text[text.index("| code | meaning | closes |") : text.index("## 4. Close codes")]
    listed = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert sorted(listed) == sorted(code.value for code in ErrorCode)
    assert len(listed) == len(set(listed))


def test_the_examples_of_my_games_and_your_turn_read_as_the_messages_they_show() -> None:
    blocks = re.findall(r"^```json\n(.*?)^```", PROTOCOL_MD.read_text(), re.MULTILINE | re.DOTALL)
    examples = {message["type"]: message for message in map(json.loads, blocks)}
    mine = m.read_server_message(examples["my_games"])
    assert isinstance(mine, m.MyGamesReply)
    assert [entry["turn"] for entry in mine.playing] == [True, False]
    assert all(entry["time_left_ms"] is None for entry in mine.playing)
    told = m.read_server_message(examples["your_turn"])
    assert told == m.YourTurn(room="k7Hq2mXa", ref="k7Hq2mXa", game="othello", seats=["white"])


def test_the_examples_of_email_read_as_the_messages_they_show() -> None:
    blocks = re.findall(r"^```json\n(.*?)^```", PROTOCOL_MD.read_text(), re.MULTILINE | re.DOTALL)
    examples = {message["type"]: message for message in map(json.loads, blocks)}
    asked = m.read_client_message(examples["set_email"])
    assert asked == m.SetEmail(id=31, address="ann@example.org", digest_hours=12)
    shown = m.read_server_message(examples["email"])
    assert shown == m.EmailReply(id=31, address="ann@example.org", verified=False, digest_hours=12)
    sent_back = m.read_client_message(examples["verify_email"])
    assert sent_back == m.VerifyEmail(id=32, code="042917")
