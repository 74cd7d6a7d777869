"""The README's test command is the one CI runs."""

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    first_block = re.search(r"```sh\n(.*?)\n```", readme, re.DOTALL)
    assert first_block is not None
    command = first_block[1].strip().splitlines()[-1]
    assert "pytest" in command
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert command in ci_lines
