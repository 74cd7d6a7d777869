"""A clock the bots' tests control: searches read time through `parlour.bots.thinking`,
and here each reading moves it on by a fixed step, so a search's budget is kept or not
whatever the machine's speed or load."""

import types
from collections.abc import Iterator

import pytest

from parlour.bots import thinking


class SteppingClock:
    """Seconds that pass by `step` each time they are read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def search_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[SteppingClock]:
    """The bots' clock, a millisecond a reading."""
    clock = SteppingClock(0.001)
    monkeypatch.setattr(thinking, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    yield clock
