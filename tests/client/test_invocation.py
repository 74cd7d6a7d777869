"""The `parlour` command the client prints is the one that runs this very program, pasted
into a fresh shell: bare only where the shell finds it so."""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.client.invocation import parlour_command


def script(folder: Path) -> Path:
    program = folder / "parlour"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    return program


def test_a_program_off_the_path_is_printed_with_its_full_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = script(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["./parlour", "host", "othello"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert parlour_command() == str(program)


def test_the_program_the_shell_finds_is_printed_bare(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = script(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(program), "join"])
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}/usr/bin")
    assert parlour_command() == "parlour"
    monkeypatch.setenv("PATH", f"{tmp_path / 'other'}{os.pathsep}{tmp_path}")
    (tmp_path / "other").mkdir()
    script(tmp_path / "other")
    assert parlour_command() == str(program), "another parlour first on the PATH"


def test_python_m_parlour_is_printed_with_that_python_and_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "argv", ["/somewhere/parlour/__main__.py", "host"])
    command = parlour_command()
    assert command == f"{shlex.quote(sys.executable)} -m parlour"
    ran = subprocess.run(
        [*shlex.split(command), "--version"], capture_output=True, text=True, env={}, check=True
    )
    assert ran.stdout.startswith("parlour ")
