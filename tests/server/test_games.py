"""Every game plays to the end through the server, and bots that fail do not stop a game."""

from typing import Any

import pytest

from parlour.botworker import Think
from parlour.protocol import messages as m
from parlour.rules import GAMES, State
from parlour.server import ParlourServer, ServerConfig, running_server

from . import faulty_bots
from .wsclient import Client

LONG_GAME_LIMIT = {"tripppin": {"max_plies": 300}, "oubliette": {"max_plies": 30}}
"""Ply limits for the games the weakest bots could play on and on: Oubliette's never eject
a piece, and end on the limit."""


async def watch_bots_play(
    port: int, game: str, options: dict[str, Any], think_ms: int = 1000
) -> m.RoomView:
    """Host a room of bots only, watch the game to its end, and return the final view."""
    host = await Client.open(port, "Host")
    create = m.CreateRoom(game=game, board=3, options=options, bot_think_ms=think_ms)
    joined = await host.request(create)
    assert isinstance(joined, m.Joined) and joined.seat is None, joined
    room = joined.room["room"]
    assert isinstance(await host.request(m.FillBots(room=room)), m.Ok)  # the weakest
    assert isinstance(await host.request(m.Start(room=room)), m.Ok)
    version = 0
    while True:
        update = await host.update(version + 1)
        version = update.version
        if update.state["over"]:
            break
    final = await host.request(m.GetRoom(room=room))
    assert isinstance(final, m.RoomView)
    await host.close()
    return final


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_plays_to_the_end_with_bots(server: ParlourServer, game: str) -> None:
    options = LONG_GAME_LIMIT.get(game, {})
    final = await watch_bots_play(server.port, game, options)
    view = final.room
    assert view["status"] == "finished"
    assert len(view["moves"]) == view["version"] > 0
    replayed: State[Any] = GAMES[game].new(GAMES[game].resolve_options(options), seed=3)
    for move in view["moves"]:
        replayed = replayed.play_text(move)
    assert replayed.is_over
    assert view["state"] == replayed.observation(None)


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        (faulty_bots.crashing_bot, "error"),
        (faulty_bots.dying_bot, "crashed"),
        (faulty_bots.hanging_bot, "timeout"),
        (faulty_bots.illegal_bot, "refused"),
    ],
)
async def test_a_failing_bot_is_replaced_by_a_legal_move_and_the_game_goes_on(
    bot: Think, reason: str
) -> None:
    # One worker: the game can only go on if a dead or hung worker is replaced. A worker's
    # death is told from a timeout only if it is seen before the budget and grace are up.
    grace = 0.1 if reason == "timeout" else 2.0
    config = ServerConfig(bot_workers=1, bot_grace=grace, think=bot)
    async with running_server(config) as server:
        final = await watch_bots_play(server.port, "oubliette", {"max_plies": 6}, 100)
        assert final.room["status"] == "finished" and final.room["version"] == 6
        fallbacks = server.metrics.bot_fallbacks.labels(reason)._value.get()
        assert fallbacks == len(final.room["moves"])
