"""How a game ended, as a room view's `ended` says (protocol.md 2.5)."""

from typing import Final

PLAYED: Final = "played"
"""Played out: the rules ended it."""
FLAG: Final = "flag"
"""A seat ran out of time and the game could not go on."""
RESIGNED: Final = "resigned"
"""A seat resigned and the game could not go on."""
AGREED: Final = "agreed"
"""Every person seated agreed to end it as it stood: a draw of two seats."""
ABORTED: Final = "aborted"
"""Aborted before each person had made a first move: never rated."""

CLAIMED: Final = "claimed"
"""Every other person seated was away, the computer standing in, and the one who stayed
claimed the game: those away finish last."""

ENDINGS: Final = (PLAYED, FLAG, RESIGNED, AGREED, ABORTED, CLAIMED)
