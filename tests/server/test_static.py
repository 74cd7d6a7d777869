"""The browser page's files: served from the package, by a table and not by file name, with
content types, and cached so that an upgrade never leaves a stale page."""

import asyncio
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from parlour.rules import GAMES
from parlour.server import ParlourServer
from parlour.server.static import ASSET_CACHING, PAGE_CACHING, WebSite


def fetch(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of GET `path`."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


async def get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(fetch, port, path, headers)


def assets_of(page: bytes) -> str:
    """The folder the page loads its files from."""
    found = re.search(rb'src="(/static/[0-9a-f]{16})/main\.js"', page)
    assert found is not None, page
    return found[1].decode()


async def test_the_lobby_page_loads_its_module_from_a_versioned_folder(
    server: ParlourServer,
) -> None:
    status, headers, page = await get(server.port, "/")
    assert (status, headers["Content-Type"]) == (200, "text/html; charset=utf-8")
    assert headers["Cache-Control"] == PAGE_CACHING
    assert b"{{assets}}" not in page
    assets = assets_of(page)
    assert assets == server.site.assets
    status, headers, script = await get(server.port, f"{assets}/main.js")
    assert (status, headers["Content-Type"]) == (200, "text/javascript; charset=utf-8")
    assert headers["Cache-Control"] == ASSET_CACHING
    assert b"import" in script
    for module in ("main.js", "room.js", "boards/view.js", "boards/oubliette.js"):
        assert f'<link rel="modulepreload" href="{assets}/{module}">'.encode() in page
    status, headers, _ = await get(server.port, f"{assets}/style.css")
    assert (status, headers["Content-Type"]) == (200, "text/css; charset=utf-8")
    status, headers, _ = await get(server.port, f"{assets}/boards/view.js")
    assert (status, headers["Content-Type"]) == (200, "text/javascript; charset=utf-8")


async def test_a_room_link_serves_the_same_page(server: ParlourServer) -> None:
    _, _, lobby = await get(server.port, "/")
    status, headers, room = await get(server.port, "/r/Ab3_x-9QkLmN")
    assert (status, headers["Content-Type"], room) == (200, "text/html; charset=utf-8", lobby)


async def test_the_page_forbids_other_sites_code_and_keeps_room_codes_to_itself(
    server: ParlourServer,
) -> None:
    _, headers, _ = await get(server.port, "/r/Ab3_x-9QkLmN")
    policy = headers["Content-Security-Policy"]
    assert "script-src" not in policy and "default-src 'self'" in policy
    here = f"127.0.0.1:{server.port}"
    assert f"connect-src 'self' ws://{here} wss://{here};" in policy
    _, headers, _ = await get(server.port, "/", {"Host": "evil; script-src *"})
    assert "connect-src 'self';" in headers["Content-Security-Policy"]
    assert "script-src" not in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"


async def test_a_browsers_current_copy_is_answered_with_304(server: ParlourServer) -> None:
    _, headers, _ = await get(server.port, "/")
    status, again, body = await get(server.port, "/", {"If-None-Match": headers["ETag"]})
    assert (status, body, again["ETag"]) == (304, b"", headers["ETag"])
    status, _, body = await get(server.port, "/", {"If-None-Match": f"W/{headers['ETag']}"})
    assert (status, body) == (304, b"")
    status, _, body = await get(server.port, "/", {"If-None-Match": '"something-older"'})
    assert status == 200 and body


@pytest.mark.parametrize(
    "path",
    [
        "/r/",
        "/r/a/b",
        "/r/..",
        "/r/%2e%2e",
        "/static/0000000000000000/main.js",
        "/static/main.js",
        "/index.html",
        "/main.js",
    ],
)
async def test_paths_outside_the_table_are_not_found(server: ParlourServer, path: str) -> None:
    status, _, body = await get(server.port, path)
    assert (status, body) == (404, b"not found\n")


@pytest.mark.parametrize(
    "tail",
    [
        "../index.html",
        "boards/../main.js",
        "%2e%2e/%2e%2e/pyproject.toml",
        "..%2f..%2fserver/app.py",
    ],
)
async def test_no_path_climbs_out_of_the_files_folder(server: ParlourServer, tail: str) -> None:
    status, _, body = await get(server.port, f"{server.site.assets}/{tail}")
    assert (status, body) == (404, b"not found\n")


def make_site(folder: Path, files: dict[str, str]) -> WebSite:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return WebSite(folder)


PAGE = '<script type="module" src="{{assets}}/main.js"></script>'


def test_only_files_of_known_kinds_are_served(tmp_path: Path) -> None:
    site = make_site(
        tmp_path,
        {"index.html": PAGE, "main.js": "1", "notes.md": "x", "run.sh": "x", ".hidden.js": "x"},
    )
    pages = {path for path in site.files if path.startswith("/rules/")}
    assert set(site.files) - pages == {f"{site.assets}/main.js"}
    assert pages == {f"/rules/{game}" for game in GAMES}
    assert (
        site.page.body == f'<script type="module" src="{site.assets}/main.js"></script>'.encode()
    )


def test_changing_any_file_changes_the_folder_the_page_names(tmp_path: Path) -> None:
    before = make_site(tmp_path, {"index.html": PAGE, "main.js": "1", "boards/view.js": "2"})
    unchanged = WebSite(tmp_path)
    after = make_site(tmp_path, {"boards/view.js": "3"})
    assert unchanged.assets == before.assets
    assert after.assets != before.assets
    assert after.page.etag != before.page.etag
    assert before.find(f"{after.assets}/main.js") is None


def test_a_folder_without_the_page_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"index\.html"):
        make_site(tmp_path, {"main.js": "1"})
