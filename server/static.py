"""The browser page's files: read once from the package, named by a hash of their contents.

The page (`/` and `/r/CODE`) is revalidated on every load; it names the other files under
`/static/HASH/`, which never change once served and are cached for a year. An upgrade
changes the hash, so a browser never mixes an old page with new files or the reverse.
Only the files read at start are served: a path is a key in a table, never a file name.
"""

import hashlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Final

from parlour.rules import GAMES

from .pages import rules_pages

WEB_PACKAGE: Final = "parlour.client"
WEB_FOLDER: Final = "web"
PAGE_FILE: Final = "index.html"
STATIC_PREFIX: Final = "/static/"
ROOM_PREFIX: Final = "/r/"
ASSETS_MARK: Final = "{{assets}}"
"""Written in the page where its files' folder goes: `/static/HASH`."""
PRELOAD_MARK: Final = "{{preload}}"
"""Written in the page where it lists every module, so the browser fetches them at once
rather than one import deep at a time."""

CONTENT_TYPES: Final[Mapping[str, str]] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}
"""What each kind of file is served as; files of any other kind are not served."""

PAGE_CACHING: Final = "no-cache"
ASSET_CACHING: Final = "public, max-age=31536000, immutable"
ROOM_CODE: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class WebFile:
    """One file as it is served: its bytes, content type, entity tag and caching."""

    body: bytes
    content_type: str
    etag: str
    caching: str


def entity_tag(body: bytes) -> str:
    """A strong entity tag for `body`."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _walk(folder: Traversable, prefix: str = "") -> Iterator[tuple[str, bytes]]:
    """Every file under `folder` as (path relative to it, contents), in name order."""
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        if entry.is_dir():
            yield from _walk(entry, f"{prefix}{entry.name}/")
        elif entry.is_file():
            yield f"{prefix}{entry.name}", entry.read_bytes()


def _content_type(path: str) -> str | None:
    suffix = path[path.rfind(".") :] if "." in path else ""
    return CONTENT_TYPES.get(suffix.lower())


class WebSite:
    """The page and its files, from the package's web folder (or another folder, in tests)."""

    def __init__(self, folder: Traversable | None = None) -> None:
        if folder is None:
            folder = resources.files(WEB_PACKAGE).joinpath(WEB_FOLDER)
        found = {path: body for path, body in _walk(folder) if _content_type(path) is not None}
        if PAGE_FILE not in found:
            raise FileNotFoundError(f"the browser page {PAGE_FILE} is missing from {folder}")
        digest = hashlib.sha256()
        for path, body in found.items():
            digest.update(path.encode() + b"\0" + hashlib.sha256(body).digest())
        self.version = digest.hexdigest()[:16]
        self.assets = f"{STATIC_PREFIX}{self.version}"
        preload = "\n".join(
            f'<link rel="modulepreload" href="{self.assets}/{path}">'
            for path in found
            if path.endswith(".js")
        )
        page = (
            found.pop(PAGE_FILE)
            .replace(PRELOAD_MARK.encode(), preload.encode())
            .replace(ASSETS_MARK.encode(), self.assets.encode())
        )
        self.page = WebFile(page, CONTENT_TYPES[".html"], entity_tag(page), PAGE_CACHING)
        self.files = {
            f"{self.assets}/{path}": WebFile(
                body, _content_type(path) or "", entity_tag(body), ASSET_CACHING
            )
            for path, body in found.items()
        }
        titles = {name: game.title for name, game in GAMES.items()}
        for path, body in rules_pages(titles, self.assets).items():
            self.files[path] = WebFile(
                body, CONTENT_TYPES[".html"], entity_tag(body), PAGE_CACHING
            )

    def find(self, path: str) -> WebFile | None:
        """The file served at `path` (without its query), if any."""
        if path == "/" or (
            path.startswith(ROOM_PREFIX) and ROOM_CODE.fullmatch(path[len(ROOM_PREFIX) :])
        ):
            return self.page
        return self.files.get(path)
