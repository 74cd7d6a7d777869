"""Pure game rules: no I/O, no asyncio, no wire formats.

Every game is a `Game` in the registry, filled below; `get_game(name)` looks one up.
"""

from .doublolo import DOUBLOLO
from .errors import (
    IllegalMoveError,
    MalformedMoveError,
    MalformedPositionError,
    OptionError,
    RulesError,
    UnknownGameError,
)
from .game import GAMES, Game, State, get_game
from .jsonvalue import JsonValue
from .numlo import NUMLO
from .othello import OTHELLO
from .oubliette import OUBLIETTE
from .tribolo import TRIBOLO
from .tripppin import TRIPPPIN

GAMES.update(
    (game.name, game) for game in (TRIBOLO, NUMLO, DOUBLOLO, OTHELLO, TRIPPPIN, OUBLIETTE)
)


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
