"""The flank games by name, typed as flank games for tests that look inside their states."""

from parlour.rules.doublolo import DOUBLOLO
from parlour.rules.flank import FlankGame
from parlour.rules.numlo import NUMLO
from parlour.rules.othello import OTHELLO
from parlour.rules.tribolo import TRIBOLO

FLANK_GAMES: dict[str, FlankGame] = {g.name: g for g in (TRIBOLO, NUMLO, DOUBLOLO, OTHELLO)}
