"""The errors the rules raise: one small family under ValueError, each with a readable message."""


class RulesError(ValueError):
    """Base of every error the rules raise for bad input."""


class MalformedMoveError(RulesError):
    """Move text that is not a move of this game (bad syntax, off the board)."""


class IllegalMoveError(RulesError):
    """A well-formed move that the rules do not allow in this position."""


class MalformedPositionError(RulesError):
    """Position text that does not describe a position of this game."""


class OptionError(RulesError):
    """An unknown option, a value of the wrong type or out of bounds, or a bad board number."""


class UnknownGameError(RulesError):
    """A game name that is not registered."""
