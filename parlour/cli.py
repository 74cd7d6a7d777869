"""The `parlour` command: one entry point, a subcommand for each job."""

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any

from parlour import __version__
from parlour.rules import GAMES, Game, OptionError, RulesError, get_game
from parlour.rules.dealing import MAX_BOARD_NUMBER
from parlour.rules.game import MAX_PERFT_DEPTH
from parlour.rules.options import ChoiceOption, parse_options


def _perft(args: argparse.Namespace) -> int:
    """Count the leaves of the game tree from a dealt board or a given position."""
    game = get_game(args.game)
    if args.position is not None:
        if args.option:
            raise RulesError("--position says the whole position: leave out --option")
        state = game.parse_position(args.position)
    else:
        seed, pairs = _board_choice(game, args.board or "0")
        options = parse_options(game.option_specs, [*args.option, *pairs])
        state = game.new(options, seed=seed)
    print(state.perft(args.depth))
    return 0


def _board_choice(game: Game[Any], board: str) -> tuple[int, list[str]]:
    """A board number, or a named board as the game's `board` option."""
    if re.fullmatch(r"[+-]?[0-9]+", board.strip()):
        if len(board.strip()) > len(str(MAX_BOARD_NUMBER)) + 1:
            raise OptionError(f"the board number must be from 0 to {MAX_BOARD_NUMBER}")
        return int(board), []
    if not any(spec.name == "board" for spec in game.option_specs):
        raise OptionError(f"{game.title} has no named boards: --board takes a board number")
    return 0, [f"board={board}"]


def _games(args: argparse.Namespace) -> int:
    """List the games, their seats and options."""
    for game in GAMES.values():
        print(f"{game.name}: {game.title}, seats {', '.join(game.seats)}")
        for spec in game.option_specs:
            if isinstance(spec, ChoiceOption):
                bounds = "|".join(spec.choices)
            else:
                bounds = f"{spec.minimum}..{spec.maximum}"
            print(f"  {spec.name}={spec.default}  ({bounds}) {spec.help}")
    return 0


def _depth(text: str) -> int:
    """A perft depth from the command line, within what perft can count."""
    depth = int(text)
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise argparse.ArgumentTypeError(f"the depth must be from 0 to {MAX_PERFT_DEPTH}")
    return depth


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="parlour", description=__doc__)
    parser.add_argument("--version", action="version", version=f"parlour {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = commands.add_parser("games", help="list the games and their options")
    games.set_defaults(run=_games)

    perft = commands.add_parser(
        "perft",
        help="count the positions DEPTH plies deep (passes are plies)",
        description="Print the number of leaves of the game tree DEPTH plies deep. A pass is"
        " a ply and a finished game is one leaf, whatever depth is left.",
    )
    perft.add_argument("game", choices=sorted(GAMES), metavar="GAME", help="a game name")
    start = perft.add_mutually_exclusive_group()
    start.add_argument(
        "--board",
        metavar="N|NAME",
        help="a board number to deal (default 0), or a named board such as abalone",
    )
    start.add_argument("--position", metavar="TEXT", help="a position in the game's notation")
    perft.add_argument(
        "--option", action="append", default=[], metavar="K=V", help="a game option, repeatable"
    )
    perft.add_argument("--depth", type=_depth, required=True, metavar="D", help="plies to count")
    perft.set_defaults(run=_perft)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; bad input prints a one-line error and returns 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except RulesError as error:
        print(f"parlour {args.command}: error: {error}", file=sys.stderr)
        return 2
    return status
