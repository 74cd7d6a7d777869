"""Board drawings for every game, chosen by the observation's `game`."""

from .base import Board, Observation
from .flank import FlankBoard
from .oubliette import OublietteBoard
from .tripppin import TripppinBoard

BOARDS: dict[str, type[Board]] = {
    "tribolo": FlankBoard,
    "numlo": FlankBoard,
    "doublolo": FlankBoard,
    "othello": FlankBoard,
    "tripppin": TripppinBoard,
    "oubliette": OublietteBoard,
}


def board_for(observation: Observation, *, compact: bool = False) -> Board:
    """The drawing of this observation's game, in fewer rows where `compact` and the game
    has such a drawing; ValueError for a game the client lacks."""
    kind = BOARDS.get(str(observation.get("game")))
    if kind is None:
        raise ValueError(f"this client cannot draw {observation.get('game')!r}")
    if kind is TripppinBoard:
        return TripppinBoard(observation, compact=compact)
    return kind(observation)
