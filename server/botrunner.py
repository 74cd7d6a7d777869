"""The shell's computer players: a worker's search for each bot turn and suggestion the
lobby asks for, and the bot's move played through the lobby's checks (a move the checks
refuse replaced by a fallback while the turn stands)."""

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from parlour import bots
from parlour.protocol import ErrorCode, ProtocolError

from .answers import Outbox
from .lobby import Lobby
from .metrics import Metrics
from .thinking import BotTurn, SuggestionAsked
from .workers import Thinkers

log = logging.getLogger("parlour.server")


class BotRunner:
    """Searches running for the lobby's bots and suggestions, one a room at a time."""

    def __init__(
        self,
        lobby: Lobby,
        *,
        send: Callable[[Outbox], None],
        spawn: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]],
        follow_up: Callable[[], None],
        metrics: Metrics,
        bot_pause: float,
    ) -> None:
        self.lobby = lobby
        self.send = send
        self.spawn = spawn
        self.follow_up = follow_up
        self.metrics = metrics
        self.bot_pause = bot_pause
        """Least seconds between a bot's turn and its move, so people can follow the game."""
        self.workers: Thinkers | None = None
        """Where the searches run, once the shell has started them."""
        self._thinking: dict[str, tuple[BotTurn, asyncio.Task[None]]] = {}
        """The bot turn being searched in each room, and the task searching it."""

    def schedule(self) -> None:
        """Set workers searching for every bot whose turn it is and who is not yet thinking,
        and for every suggestion asked."""
        for room_id, colour in self.lobby.journal.take_reseated():
            thinking = self._thinking.get(room_id)
            if thinking is not None and thinking[0].colour == colour:
                self._stop_thinking(room_id)
        for turn in self.lobby.bot_turns():
            thinking = self._thinking.get(turn.room)
            if thinking is not None and _same_turn(thinking[0], turn):
                continue
            self._stop_thinking(turn.room)
            self._thinking[turn.room] = (turn, self.spawn(self._bot_turn(turn)))
        for asked in self.lobby.suggestions.take():
            self.spawn(self._suggest(asked))

    def _stop_thinking(self, room_id: str) -> None:
        """Cancel the search for a room's bot turn that no longer stands (its seat changed,
        or moves were taken back): its move would be refused."""
        thinking = self._thinking.pop(room_id, None)
        if thinking is not None:
            thinking[1].cancel()

    async def _bot_turn(self, turn: BotTurn) -> None:
        """Ask a worker for the bot's move, then play it through the lobby's checks."""
        try:
            assert self.workers is not None
            move, seed = await self.workers.move(
                turn, lambda found: self.send(self.lobby.bot_thought(turn, found))
            )
            await asyncio.sleep(max(0.0, turn.began + self.bot_pause - time.monotonic()))
            outbox = self._play_bot(turn, move, seed)
            if outbox:
                self.metrics.moves.labels("bot").inc()
            self.send(outbox)
        finally:
            thinking = self._thinking.get(turn.room)
            if thinking is not None and thinking[0] is turn:
                del self._thinking[turn.room]
        self.follow_up()

    async def _suggest(self, asked: SuggestionAsked) -> None:
        """Search for a person's suggestion as the strongest bot would, then answer it."""
        assert self.workers is not None
        found = await self.workers.suggest(
            asked, lambda thought: self.send(self.lobby.suggestion_thought(asked, thought))
        )
        self.send(self.lobby.suggested(asked, found))

    def _play_bot(self, turn: BotTurn, move: str, seed: int) -> Outbox:
        """The bot's move played; a refused one is replaced by a fallback if still its turn."""
        try:
            return self.lobby.play_bot(turn, move)
        except ProtocolError as error:
            if error.code not in (ErrorCode.MALFORMED_MOVE, ErrorCode.ILLEGAL_MOVE):
                log.info("bot move in room %s no longer wanted: %s", turn.room, error.message)
                return []
            log.warning("bot %s played %r in room %s: %s", turn.level, move, turn.room, error)
            self.metrics.bot_fallbacks.labels("refused").inc()
            return self.lobby.play_bot(turn, bots.fallback_move(turn.state, seed))


def _same_turn(one: BotTurn, other: BotTurn) -> bool:
    """Whether two bot turns ask for the same move: the same version, seat and holder."""
    return (one.version, one.colour, one.seat_changes) == (
        other.version,
        other.colour,
        other.seat_changes,
    )
