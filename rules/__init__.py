"""Pure game rules: no I/O, no asyncio, no wire formats.

Every game is a `Game` in the registry below; `get_game(name)` looks one up.
"""

from typing import Any

from .doublolo import DOUBLOLO
from .errors import (
    IllegalMoveError,
    MalformedMoveError,
    MalformedPositionError,
    OptionError,
    RulesError,
    UnknownGameError,
)
from .game import Game, State
from .jsonvalue import JsonValue
from .numlo import NUMLO
from .othello import OTHELLO
from .oubliette import OUBLIETTE
from .tribolo import TRIBOLO
from .tripppin import TRIPPPIN

GAMES: dict[str, Game[Any]] = {
    game.name: game for game in (TRIBOLO, NUMLO, DOUBLOLO, OTHELLO, TRIPPPIN, OUBLIETTE)
}


def get_game(name: str) -> Game[Any]:
    """The registered game called `name`; UnknownGameError if there is none."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGameError(f"no game called {name!r} (games: {', '.join(GAMES)})") from None


__all__ = [
    "GAMES",
    "Game",
    "IllegalMoveError",
    "JsonValue",
    "MalformedMoveError",
    "MalformedPositionError",
    "OptionError",
    "RulesError",
    "State",
    "UnknownGameError",
    "get_game",
]
