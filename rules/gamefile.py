"""A whole game as a text file a person can read, share and replay.

Tags first, in the manner of chess's PGN, then one move a line with its number and the
colour that made it, in the game's own notation::

    [Game "tribolo"]
    [Options "rows=11 cols=16 blocked=12 tiles=12 first=random"]
    [Board "42"]

    1. blue d5
    {red: computer (expert)}
    2. red i5

A line in braces says a seat changed hands there, between the moves around it. `Board`
deals the start from a board number; `Position` gives it in the game's position notation
instead. Other tags (`Seats`, `Result`, `Date`, ...) are kept and shown but change
nothing. Lines starting with `#` are comments. Reading checks everything and replays every
move: a file that does not make a game is refused with the line that is wrong.
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from . import GAMES
from .errors import RulesError
from .game import Game, State
from .options import OptionValue, parse_options

MAX_CHARS: Final = 1_000_000
"""Longest file read; a game of the longest allowed length fits many times over."""
_TAG: Final = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
_MOVE: Final = re.compile(r"(\d+)\.\s+(\w+)\s+(\S.*)")
_SEAT_CHANGE: Final = re.compile(r"\{\s*(\w+)\s*:\s*([^{}]*\S)\s*\}")
_KNOWN: Final = ("Game", "Options", "Board", "Position")


class GameFileError(RulesError):
    """A game file that cannot be read or replayed; the message says where and why."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat that changed hands during the game: who held it from then on."""

    after: int
    """How many moves had been made."""
    colour: str
    holder: str
    """The new holder in words: a name, `computer (hard)`, `open`."""


@dataclass(frozen=True)
class GameFile:
    """A game's start and every move made from it."""

    game: Game[Any]
    options: dict[str, OptionValue]
    board: int | None
    position: str | None
    moves: tuple[str, ...] = ()
    tags: dict[str, str] = field(default_factory=dict)
    """Tags kept for people (who played, the result, when); they change nothing."""
    seat_changes: tuple[SeatChange, ...] = ()
    """Seats that changed hands during the game, in order; they change no move."""

    def start(self) -> State[Any]:
        """The position the game started from."""
        if self.position is not None:
            return self.game.start_from(self.position, self.options)
        return self.game.new(self.options, seed=self.board or 0)

    def replay(self) -> State[Any]:
        """The position after every move."""
        state = self.start()
        for move in self.moves:
            state = state.play_text(move)
        return state

    def text(self) -> str:
        """The file, as `parse_game_file` reads it."""
        lines = [_tag("Game", self.game.name)]
        lines.append(_tag("Options", " ".join(f"{k}={v}" for k, v in self.options.items())))
        if self.position is not None:
            lines.append(_tag("Position", self.position))
        else:
            lines.append(_tag("Board", str(self.board or 0)))
        lines += [_tag(name, value) for name, value in self.tags.items()]
        lines.append("")
        state = self.start()
        for number, move in enumerate(self.moves, start=1):
            lines += self._seat_lines(number - 1)
            lines.append(f"{number}. {self.game.seats[state.to_move]} {move}")
            state = state.play_text(move)
        lines += self._seat_lines(len(self.moves))
        return "\n".join(lines) + "\n"

    def _seat_lines(self, after: int) -> list[str]:
        return [
            f"{{{each.colour}: {each.holder}}}"
            for each in self.seat_changes
            if each.after == after
        ]


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def game_file(
    game: Game[Any],
    options: Mapping[str, OptionValue],
    start: int | str,
    moves: Sequence[str],
    tags: Mapping[str, str] | None = None,
    *,
    seat_changes: Sequence[SeatChange] = (),
) -> GameFile:
    """A game file from a board number or a position text, the moves made and the seats
    that changed hands."""
    board, position = (start, None) if isinstance(start, int) else (None, start)
    return GameFile(
        game, dict(options), board, position, tuple(moves), dict(tags or {}), tuple(seat_changes)
    )


def parse_game_file(text: str) -> GameFile:
    """The game a file holds, every move replayed; GameFileError if it holds none."""
    if len(text) > MAX_CHARS:
        raise GameFileError(f"a game file is at most {MAX_CHARS:,} characters")
    tags: dict[str, str] = {}
    moves: list[tuple[int, str, str]] = []
    changes: list[tuple[int, SeatChange]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            found = _SEAT_CHANGE.fullmatch(line)
            if found is None:
                raise GameFileError(f"line {number}: a seat change is written {{red: Ann}}")
            changes.append((number, SeatChange(len(moves), found[1].lower(), found[2])))
            continue
        if line.startswith("["):
            if moves or changes:
                raise GameFileError(f"line {number}: tags come before the moves")
            found = _TAG.fullmatch(line)
            if found is None:
                raise GameFileError(f'line {number}: a tag is written [Name "value"]')
            tags[found[1]] = re.sub(r"\\(.)", r"\1", found[2])
            continue
        found = _MOVE.fullmatch(line)
        if found is None:
            raise GameFileError(f"line {number}: a move is written `12. blue d5`")
        if int(found[1]) != len(moves) + 1:
            raise GameFileError(f"line {number}: move {found[1]} where {len(moves) + 1} belongs")
        moves.append((number, found[2].lower(), found[3].strip()))
    parsed = _start(tags)
    _replay(parsed, moves)
    for number, change in changes:
        if change.colour not in parsed.game.seats:
            raise GameFileError(
                f"line {number}: {parsed.game.title} has no seat {change.colour!r}"
            )
    return replace(
        parsed,
        moves=tuple(move for _, _, move in moves),
        tags={name: value for name, value in tags.items() if name not in _KNOWN},
        seat_changes=tuple(change for _, change in changes),
    )


def _start(tags: Mapping[str, str]) -> GameFile:
    """The game and start the tags name."""
    name = tags.get("Game")
    if name is None:
        raise GameFileError('no [Game "..."] tag: which game is this?')
    game = GAMES.get(name.strip().lower())
    if game is None:
        raise GameFileError(f"there is no game {name!r}: one of {', '.join(GAMES)}")
    try:
        options = parse_options(game.option_specs, tags.get("Options", "").split())
    except RulesError as error:
        raise GameFileError(f"[Options]: {error}") from None
    if ("Board" in tags) == ("Position" in tags):
        raise GameFileError("give the start as either [Board] or [Position], not both or none")
    if "Position" in tags:
        return GameFile(game, options, None, tags["Position"])
    board = tags["Board"].strip()
    if not (board.isascii() and board.isdigit()) or len(board) > 16:
        raise GameFileError(f"[Board] must be a board number, not {board!r}")
    return GameFile(game, options, int(board), None)


def _replay(parsed: GameFile, moves: Sequence[tuple[int, str, str]]) -> None:
    """Play every move, checking that each was made by the colour written."""
    try:
        state = parsed.start()
    except RulesError as error:
        raise GameFileError(f"the start: {error}") from None
    seats = parsed.game.seats
    for number, colour, move in moves:
        if state.is_over:
            raise GameFileError(f"line {number}: the game was already over")
        if colour != seats[state.to_move]:
            raise GameFileError(
                f"line {number}: it was {seats[state.to_move]}'s move, not {colour}'s"
            )
        try:
            state = state.play_text(move)
        except RulesError as error:
            raise GameFileError(f"line {number}: {error}") from None
