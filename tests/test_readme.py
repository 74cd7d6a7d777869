"""The README's test command is the one CI runs."""

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def readme_commands() -> list[str]:
    """The README's shell blocks, in order, each as its last line."""
    readme = (ROOT / "README.md").read_text()
    return [
        block.strip().splitlines()[-1]
        for block in re.findall(r"```sh\n(.*?)\n```", readme, re.DOTALL)
    ]


def test_the_readme_opens_with_the_serve_command_then_the_test_command() -> None:
    serve, test = readme_commands()[:2]
    assert serve.endswith("parlour serve")
    assert test.endswith("python -m pytest")


def test_ci_runs_the_readme_test_command() -> None:
    command = readme_commands()[1]
    assert "pytest" in command
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert command in ci_lines
