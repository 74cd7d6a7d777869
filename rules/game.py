"""The interface every game implements: a Game deals immutable States.

The server, the bots, the clients' hints and the tests use games only through this
interface. Seats are numbered in turn order; `Game.seats` names them (blue, red, ...).
A player who cannot move is passed over by the rules themselves: the player `to_move` of
a state that is not over always has a legal move.
"""

from abc import ABC, abstractmethod
from typing import Any, Generic, Self, TypeVar

from .errors import IllegalMoveError, RulesError, UnknownGameError
from .jsonvalue import JsonValue
from .options import Options, OptionSpec, OptionValue, resolve_options

MoveT = TypeVar("MoveT")


class State(ABC, Generic[MoveT]):
    """One position of a game, immutable: `play` returns a new state.

    Two states are equal when the rules see them alike: the same legal moves, results and
    future. What only reports the past (the last move, what it flipped or pushed, who was
    passed over, recent moves kept for loop detection) does not count.
    """

    __slots__ = ()

    game: "Game[MoveT]"
    """The game this is a position of."""
    to_move: int
    """The seat whose turn it is (once the game is over, the seat that would be next)."""
    passed: tuple[int, ...]
    """The seats passed over, in order, since the last move, because they had no move.

    Empty once the game is over: a game that ended was not passed on to anyone.
    """

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def legal_moves(self) -> tuple[MoveT, ...]:
        """Every legal move of the player to move; empty exactly when the game is over."""

    @abstractmethod
    def play(self, move: MoveT) -> Self:
        """The state after `move`; IllegalMoveError if it is not legal here."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Each seat's score now, in seat order."""

    @abstractmethod
    def best_moves(self) -> tuple[MoveT, ...]:
        """The "Best" hint: the legal moves that gain the most right now (ties included)."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """The move written as `text`; MalformedMoveError if it is not one (legal or not)."""

    @abstractmethod
    def format_move(self, move: MoveT) -> str:
        """The move in this game's notation; `parse_move` reads it back."""

    @abstractmethod
    def format_position(self) -> str:
        """The whole position as text; `Game.parse_position` reads it back."""

    @abstractmethod
    def observation(self, seat: int | None = None) -> dict[str, JsonValue]:
        """What a client draws for `seat` (None for a spectator), JSON-compatible."""

    def winners(self) -> tuple[int, ...]:
        """The seats that won a finished game (more than one is a tie); empty while playing."""
        if not self.is_over:
            return ()
        scores = self.scores()
        best = max(scores)
        return tuple(seat for seat, score in enumerate(scores) if score == best)

    def play_text(self, text: str) -> Self:
        """Play a move written in this game's notation."""
        return self.play(self.parse_move(text))

    def perft(self, depth: int) -> int:
        """Leaf count of the game tree `depth` plies deep (passes are plies; an end is a leaf)."""
        check_perft_depth(depth)
        if depth == 0 or self.is_over:
            return 1
        return self._count_leaves(depth)

    def _count_leaves(self, depth: int) -> int:
        """Perft of a game still going, `depth` at least 1; games with a faster counter
        override this, and `plain_perft` is what they must agree with."""
        return plain_perft(self, depth)

    def _refuse(self, move_text: str) -> IllegalMoveError:
        """The error for a move that is not legal here, saying why as far as can be told."""
        if self.is_over:
            return IllegalMoveError(f"the game is over; {move_text} cannot be played")
        seat = self.game.seats[self.to_move]
        return IllegalMoveError(f"{move_text} is not a legal move for {seat}")


class Game(ABC, Generic[MoveT]):
    """A game: its seats, options, and how to deal or read a position."""

    name: str
    """Registry name: lower case, no spaces (`tribolo`)."""
    title: str
    """Name shown to people (`Tribolo`)."""
    seats: tuple[str, ...]
    """Seat colours in turn order."""
    option_specs: tuple[OptionSpec, ...] = ()
    highest_score_wins: bool = True
    """Whether the winners of a finished game are always its top scorers. Where the rules
    can name a winner otherwise (a player left with no move loses), this is False."""
    first_by_coin: bool = False
    """Whether a person may call a coin toss for who moves first, as Doublolo's "call heads
    or tails": with a `first` option of `random`, the call decides it instead of the board
    number."""
    private_observations: bool = False
    """Whether a seat may see what others do not, so that `observation` differs by seat.
    Every game here shows everything to everyone."""

    def resolve_options(self, options: Options | None = None) -> dict[str, OptionValue]:
        """Every option with its value (given ones checked, the rest defaulted)."""
        return resolve_options(self.option_specs, options)

    @abstractmethod
    def new(self, options: Options | None = None, seed: int = 0) -> State[MoveT]:
        """A new game; everything random in it is drawn from `seed`, the board number."""

    @abstractmethod
    def parse_position(self, text: str) -> State[MoveT]:
        """The state a position text describes; MalformedPositionError if it describes none."""

    def start_from(self, text: str, options: Options | None = None) -> State[MoveT]:
        """A game started from a position, with the options its notation does not hold (as
        a room's); MalformedPositionError if the text describes no position."""
        self.resolve_options(options)
        return self.parse_position(text)

    def describe(self) -> dict[str, JsonValue]:
        """What a lobby shows of the game, JSON-compatible."""
        return {
            "name": self.name,
            "title": self.title,
            "seats": list(self.seats),
            "options": [spec.describe() for spec in self.option_specs],
            "first_by_coin": self.first_by_coin,
        }

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Unpickle as the registered game of that name, so states keep comparing equal."""
        return get_game, (self.name,)


GAMES: dict[str, Game[Any]] = {}
"""Every game by name: the registry, which the package fills with its games (a game's
module cannot be imported here, as each imports this one)."""


def get_game(name: str) -> Game[Any]:
    """The registered game called `name`; UnknownGameError if there is none."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGameError(f"no game called {name!r} (games: {', '.join(GAMES)})") from None


MAX_PERFT_DEPTH = 100
"""Deeper than any count that could finish, and shallow enough for Python's call stack."""


def check_perft_depth(depth: int) -> None:
    """Refuse a depth perft cannot count."""
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise RulesError(f"perft depth must be from 0 to {MAX_PERFT_DEPTH}, not {depth}")


def plain_perft(state: State[Any], depth: int) -> int:
    """Perft by walking `legal_moves` and `play` at every level: slow, and the definition.

    A pass is a ply, so a child reached through passes has that many fewer plies left; a
    finished game is one leaf whatever depth is left.
    """
    check_perft_depth(depth)
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for move in state.legal_moves():
        child = state.play(move)
        remaining = depth - 1 - len(child.passed)
        total += plain_perft(child, remaining) if remaining > 0 else 1
    return total
