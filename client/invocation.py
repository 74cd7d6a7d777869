"""The `parlour` command as this process was started, for the commands the client prints:
pasted into a shell, each must run this very program (protocol-wise, the same client)."""

import shlex
import shutil
import sys
from pathlib import Path


def parlour_command() -> str:
    """`parlour` where a shell finds this program by that name; else its full path, or
    `python -m parlour` with the full path of the Python running it, as it was started
    (the README's install leaves `parlour` in `.venv/bin`, off the PATH)."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if program is None or program.name != "parlour":
        return f"{shlex.quote(sys.executable)} -m parlour"
    found = shutil.which("parlour")
    if found is not None and Path(found).resolve() == program.resolve():
        return "parlour"
    return shlex.quote(str(program.resolve()))
