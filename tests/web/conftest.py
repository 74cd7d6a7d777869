"""What the browser tests share: Debian's Chromium driven by Playwright, a `parlour serve` of
their own on a free loopback port, and the folder their screenshots go to."""

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
OUTPUT_VARIABLE = "PARLOUR_TEST_OUTPUT"
DEFAULT_OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "web"
SERVING = re.compile(r"serving ws(s?)://127\.0\.0\.1:(\d+)/ws")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium, headless; never a downloaded one. Playwright's synchronous API keeps an event
    loop running while it is open, so it is closed after each module, before other modules'
    asyncio tests."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def output_dir() -> Path:
    """Where screenshots go for a person to look at: $PARLOUR_TEST_OUTPUT or test-output/web."""
    folder = Path(os.environ.get(OUTPUT_VARIABLE) or DEFAULT_OUTPUT)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a `parlour serve` on a free loopback port, bots moving without a pause."""
    yield from serving("--data-dir", str(tmp_path_factory.mktemp("data")))


def serving(*args: str) -> Iterator[str]:
    """`parlour serve ARGS` on a free loopback port, bots moving without a pause: its
    address (https:// when ARGS give it a certificate) while the caller goes on, then
    stopped."""
    command = [sys.executable, "-m", "parlour", "serve", "--port", "0", "--bot-pause", "0"]
    process = subprocess.Popen([*command, *args], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    found = None
    for line in process.stdout:
        found = SERVING.search(line)
        if found:
            break
    if found is None:
        process.kill()
        pytest.fail(f"parlour serve did not start (exit {process.wait()})")
    yield f"http{found[1]}://127.0.0.1:{found[2]}"
    process.terminate()
    process.wait(timeout=20)
