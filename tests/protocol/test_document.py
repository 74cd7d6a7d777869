"""protocol.md's table of error codes names exactly the codes the server sends."""

import re
from pathlib import Path

from parlour.protocol import ErrorCode

PROTOCOL_MD = Path(__file__).parents[2] / "protocol.md"


def test_the_error_table_lists_every_error_code_and_no_other() -> None:
    text = PROTOCOL_MD.read_text()
    section = text[text.index("| code | meaning | closes |") : text.index("## 4. Close codes")]
    listed = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert sorted(listed) == sorted(code.value for code in ErrorCode)
    assert len(listed) == len(set(listed))
