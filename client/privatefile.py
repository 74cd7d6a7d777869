"""Files this user alone may read (seat tokens, the player key), written whole or not at all.

Each is written to a temporary file beside it, made readable by this user alone, flushed
to disk and only then put in place, so a crash never leaves half a file and nobody else
can read it for a moment.
"""

import os
import tempfile
from pathlib import Path
from typing import Final

PRIVATE_FILE: Final = 0o600
PRIVATE_FOLDER: Final = 0o700


def write_private(path: Path, text: str, *, replace: bool = True) -> bool:
    """Write `text` to `path`, readable by this user alone. With `replace` False a file
    already there is kept (whoever made it first wins, as two runs starting at once may
    both try): whether this call wrote it. OSError if the folder or file cannot be made."""
    folder = path.parent
    folder.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}-", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, PRIVATE_FILE)
        if replace:
            os.replace(temporary, path)
            return True
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        return True
    finally:
        Path(temporary).unlink(missing_ok=True)
