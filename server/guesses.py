"""How many wrong room codes an address may try: a limit on guessing private rooms.

An address that names rooms that are not there `limit` times within `window` seconds is
refused look-ups by code (`too_many_guesses`) until the oldest of those misses is
`window` old. Look-ups that find their room are never counted. Pure: the lobby tells it of
misses and asks it, on a clock the caller gives.
"""

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

GUESS_LIMIT: Final = 20
GUESS_WINDOW: Final = 600.0


@dataclass
class GuessLimit:
    """Misses by address within a sliding window."""

    clock: Callable[[], float]
    limit: int = GUESS_LIMIT
    window: float = GUESS_WINDOW
    _misses: dict[str, deque[float]] = field(default_factory=dict, repr=False)
    _order: deque[tuple[float, str]] = field(default_factory=deque, repr=False)
    """Every miss still in the window, oldest first: what to forget, and when."""

    def missed(self, address: str) -> None:
        """`address` named a room that is not there."""
        now = self.clock()
        self._forget_before(now - self.window)
        self._misses.setdefault(address, deque()).append(now)
        self._order.append((now, address))

    def limited(self, address: str) -> bool:
        """Whether `address` has missed `limit` times within the window."""
        self._forget_before(self.clock() - self.window)
        return len(self._misses.get(address, ())) >= self.limit

    def addresses(self) -> int:
        """How many addresses have a miss within the window."""
        self._forget_before(self.clock() - self.window)
        return len(self._misses)

    def _forget_before(self, cutoff: float) -> None:
        while self._order and self._order[0][0] <= cutoff:
            _, address = self._order.popleft()
            misses = self._misses[address]
            misses.popleft()
            if not misses:
                del self._misses[address]
