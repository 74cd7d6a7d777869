"""The `parlour` command: one entry point, a subcommand for each job."""

import argparse
import asyncio
import ipaddress
import json
import logging
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from parlour import __version__
from parlour.protocol.messages import MAX_VACATION_DAYS
from parlour.protocol.timecontrol import TimeControl, read_written
from parlour.rules import GAMES, RulesError, State, get_game
from parlour.rules.game import MAX_PERFT_DEPTH
from parlour.rules.options import ChoiceOption, board_choice, parse_options

DEFAULT_PORT = 8765
LOCAL_SERVER = f"127.0.0.1:{DEFAULT_PORT}"
REDIS_VARIABLE = "PARLOUR_REDIS_URL"
MAX_PROCS = 256


class CommandError(Exception):
    """A command that cannot run as asked; printed as one line."""


def _perft(args: argparse.Namespace) -> int:
    """Count the leaves of the game tree from a dealt board or a given position."""
    print(_start_state(args).perft(args.depth))
    return 0


def _see(args: argparse.Namespace) -> int:
    """Draw the board a game would start from, as Tribolo's "See" showed its boards."""
    from rich.console import Console  # noqa: PLC0415 (only `see` draws)

    from parlour.client.terminal.boards import board_for  # noqa: PLC0415
    from parlour.client.terminal.boards.base import Marks  # noqa: PLC0415

    state = _start_state(args)
    observation = state.observation()
    first = f"{str(observation['to_move']).title()} moves first"
    board = args.board or "0"
    if args.position is not None:
        where = "the position given"
    elif board_choice(state.game.title, state.game.option_specs, board)[0] is None:
        where = f"the {board.strip()} board"
        if "first=" not in " ".join(args.option):
            first = "who moves first is drawn at the start"
    else:
        where = f"board {board}"
    Console(highlight=False).print(f"{state.game.title}, {where}: {first}.")
    Console().print(board_for(observation).render(Marks()))
    return 0


def _start_state(args: argparse.Namespace) -> State[Any]:
    """The position `perft` and `see` start from: a dealt board, a named one, or a given
    position."""
    game = get_game(args.game)
    if args.position is not None:
        if args.option:
            raise RulesError("--position says the whole position: leave out --option")
        return game.parse_position(args.position)
    seed, pairs = board_choice(game.title, game.option_specs, args.board or "0")
    options = parse_options(game.option_specs, [*args.option, *pairs])
    return game.new(options, seed=seed or 0)


def _games(args: argparse.Namespace) -> int:
    """List the games, their seats, computer levels and options."""
    from parlour.bots import levels_for  # noqa: PLC0415 (only `games` needs the bots)

    for game in GAMES.values():
        print(f"{game.name}: {game.title}, seats {', '.join(game.seats)}")
        print(f"  computer levels: {', '.join(levels_for(game.name))} (weakest first)")
        for spec in game.option_specs:
            if isinstance(spec, ChoiceOption):
                bounds = "|".join(spec.choices)
            else:
                bounds = f"{spec.minimum}..{spec.maximum}"
            print(f"  {spec.name}={spec.default}  ({bounds}) {spec.help}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    """Run the game server until SIGTERM or SIGINT."""
    from parlour.server import ServerConfig  # noqa: PLC0415 (only `serve` needs the server)
    from parlour.server.addresses import METRICS_FROM  # noqa: PLC0415
    from parlour.server.reach import AdvertiseError  # noqa: PLC0415
    from parlour.server.serve import data_directory, serve  # noqa: PLC0415
    from parlour.server.smtp import MailSettingsError  # noqa: PLC0415
    from parlour.server.store import StoreError  # noqa: PLC0415
    from parlour.server.tls import TlsError  # noqa: PLC0415

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)  # a line per request is noise
    redis_url = args.redis or os.environ.get(REDIS_VARIABLE) or None
    if redis_url is not None:
        redis_url = _redis_url(redis_url)
    if args.smtp is not None and args.mail_from is None:
        raise CommandError("--smtp needs --mail-from too: the address mail is sent from")
    if args.mail_from is not None and args.smtp is None:
        raise CommandError("--mail-from needs --smtp too: the SMTP server to send mail by")
    try:
        data_dir = None if redis_url else data_directory(args.data_dir)
    except OSError as error:
        raise CommandError(f"cannot use the data directory {args.data_dir}: {error}") from None
    if args.bot_workers == 0 and redis_url is None:
        raise CommandError(
            "--bot-workers 0 leaves the bots nobody to think for them: it needs --redis and"
            " `parlour worker` processes taking their searches"
        )
    if args.tls_cert is not None and args.tls_key is None:
        raise CommandError("--tls-cert needs --tls-key too: the certificate's private key")
    if args.tls_key is not None and args.tls_cert is None:
        raise CommandError("--tls-key needs --tls-cert too: the certificate it is the key of")
    if args.metrics_port is not None and args.metrics_port == args.port != 0:
        raise CommandError("--metrics-port must be another port than --port, the game's")
    config = ServerConfig(
        host=args.host,
        port=args.port,
        data_dir=data_dir,
        bot_workers=args.bot_workers,
        bot_pause=args.bot_pause,
        ping_interval=args.ping_interval,
        redis_url=redis_url,
        lease_seconds=args.lease,
        advertise=tuple(args.advertise),
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        metrics_from=tuple(args.metrics_from or METRICS_FROM),
        metrics_port=args.metrics_port,
        smtp=args.smtp,
        mail_from=args.mail_from,
    )
    try:
        asyncio.run(serve(config))
    except (StoreError, ConnectionError, TlsError, AdvertiseError, MailSettingsError) as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot listen on {args.host}:{args.port}: {error}") from None
    return 0


def _worker(args: argparse.Namespace) -> int:
    """Take bot searches from a cluster's Redis until SIGTERM or SIGINT."""
    from parlour.server.serve import run_worker  # noqa: PLC0415 (only `worker` needs it)

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    redis_url = args.redis or os.environ.get(REDIS_VARIABLE) or None
    if redis_url is None:
        raise CommandError(
            f"say which Redis to take searches from: --redis URL or ${REDIS_VARIABLE}"
        )
    try:
        asyncio.run(run_worker(_redis_url(redis_url), args.procs))
    except ConnectionError as error:
        raise CommandError(str(error)) from None
    return 0


def _advertise(text: str) -> str:
    """`--advertise [https://]HOST[:PORT]`, checked."""
    from parlour.server.reach import AdvertiseError, advertised  # noqa: PLC0415

    try:
        advertised(text, 1)
    except AdvertiseError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def _smtp(text: str) -> str:
    """`--smtp smtp://[USER:PASSWORD@]HOST[:PORT]` or `smtps://...`, checked."""
    from parlour.server.smtp import MailSettingsError, read_smtp_url  # noqa: PLC0415

    try:
        read_smtp_url(text)
    except MailSettingsError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip()


def _mail_from(text: str) -> str:
    """`--mail-from ADDRESS`, checked."""
    from parlour.server.smtp import MailSettingsError, read_mail_from  # noqa: PLC0415

    try:
        return read_mail_from(text)
    except MailSettingsError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _network(text: str) -> str:
    """`--metrics-from CIDR`, checked: a network such as 10.0.0.0/8, or one address."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a network such as 10.0.0.0/8 or an address such as 10.0.0.5"
        ) from None


def _redis_url(text: str) -> str:
    """A Redis URL from the command line or the environment; CommandError if it is not one."""
    scheme = text.partition("://")[0]
    if scheme not in ("redis", "rediss", "unix") or "://" not in text:
        raise CommandError(
            f"{text!r} is not a Redis URL: give redis://HOST:PORT/DB (or rediss://, unix://)"
        )
    return text


def _number(least: float, most: float, unit: str = "", *, whole: bool = True) -> Any:
    """A parser of a number from the command line, from `least` to `most`; anything else is
    refused with the range it must be in."""
    kind = "a whole number" if whole else "a number"
    in_range = f"{kind} from {least:g} to {most:g}{unit}"

    def number(text: str) -> float:
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {in_range}, not {text!r}") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"must be from {least:g} to {most:g}{unit}")
        return value

    return number


def _vacation_days(text: str) -> int:
    """Vacation days as typed: a whole number from 0 to 30, or `end` (0)."""
    if text.strip().lower() in {"end", "stop", "off"}:
        return 0
    try:
        days = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of days from 1 to 30, or 'end', not {text!r}"
        ) from None
    if not 0 <= days <= MAX_VACATION_DAYS:
        raise argparse.ArgumentTypeError(
            f"must be from 1 to {MAX_VACATION_DAYS} days (or 'end'), not {days}"
        )
    return days


def _time_control(text: str) -> TimeControl:
    """A time control as written on the command line (`5+3`, `3d`, `3d+7`, `none`)."""
    try:
        return read_written(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors read as sentences: "--depth must be a whole number"."""

    def error(self, message: str) -> NoReturn:
        super().error(re.sub(r"^argument (\S+?): ", r"\1 ", message))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = _Parser(prog="parlour", description=__doc__)
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
    perft.add_argument(
        "--depth",
        type=_number(0, MAX_PERFT_DEPTH),
        required=True,
        metavar="D",
        help="plies to count",
    )
    perft.set_defaults(run=_perft)

    see = commands.add_parser(
        "see",
        help="draw the board a game would start from",
        description="Draw the starting board of GAME for a board number, a named board"
        " (parlour games lists them) or a position, as Tribolo's See showed its boards.",
    )
    see.add_argument("game", choices=sorted(GAMES), metavar="GAME", help="a game name")
    shown = see.add_mutually_exclusive_group()
    shown.add_argument(
        "--board", metavar="N|NAME", help="a board number (default 0), or a named board"
    )
    shown.add_argument("--position", metavar="TEXT", help="a position in the game's notation")
    see.add_argument(
        "--option", action="append", default=[], metavar="K=V", help="a game option, repeatable"
    )
    see.set_defaults(run=_see)

    serve = commands.add_parser(
        "serve",
        help="run the game server",
        description="Host rooms for every game on one port: the WebSocket endpoint at /ws,"
        " /healthz and /metrics. Stops cleanly on SIGTERM or Ctrl-C. With --tls-cert and"
        " --tls-key the port speaks TLS (https:// and wss://), and SIGHUP reads the two files"
        " again (a renewed certificate) without dropping anyone.",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for every network)",
    )
    serve.add_argument(
        "--advertise",
        action="append",
        type=_advertise,
        default=[],
        metavar="[https://]HOST[:PORT]",
        help="the address other machines reach this server at, for invitations, where it is"
        " not the one listened on (behind a balancer or a router forwarding a port);"
        " repeat for several (default: with --host 0.0.0.0, this machine's addresses)."
        " https://HOST[:PORT] (or wss://) is a balancer serving TLS, port 443 unless given:"
        " invitations then name wss:// and https://",
    )
    serve.add_argument(
        "--port",
        type=_number(0, 65535),
        default=DEFAULT_PORT,
        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    serve.add_argument(
        "--tls-cert",
        type=Path,
        metavar="FILE",
        help="serve TLS with this certificate chain (PEM: the server's certificate, then its"
        " intermediates, as an ACME client's fullchain.pem); needs --tls-key",
    )
    serve.add_argument(
        "--tls-key",
        type=Path,
        metavar="FILE",
        help="the certificate's private key (PEM, without a passphrase)",
    )
    serve.add_argument(
        "--metrics-from",
        action="append",
        type=_network,
        metavar="CIDR",
        help="who may read /metrics: a network or address, repeatable (default: this machine"
        " only, 127.0.0.1 and ::1; giving any replaces it). The connection's own peer is what"
        " counts, never X-Forwarded-For: behind a balancer it is the balancer, so allow"
        " your metrics scraper's network and keep the balancer from forwarding /metrics, or"
        " use --metrics-port",
    )
    serve.add_argument(
        "--metrics-port",
        type=_number(0, 65535),
        metavar="PORT",
        help="serve /metrics (and /healthz) on this port of its own instead, in plain HTTP on"
        " the same --host, still only to --metrics-from; the game's port then has no /metrics",
    )
    serve.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help="where the server keeps its data (default: the user's data directory for parlour)",
    )
    serve.add_argument(
        "--bot-pause",
        type=_number(0, 10, " seconds", whole=False),
        default=0.4,
        metavar="SECONDS",
        help="least time a bot takes over a move, so people can follow (default 0.4)",
    )
    serve.add_argument(
        "--ping-interval",
        type=_number(0.5, 300, " seconds", whole=False),
        default=20.0,
        metavar="SECONDS",
        help="how often each connection is pinged: how soon a dead one is dropped, and how"
        " fresh the network lag forgiven on a clock is (default 20)",
    )
    serve.add_argument(
        "--bot-workers",
        type=_number(0, MAX_PROCS),
        default=2,
        metavar="N",
        help="processes that think for the computer players (default 2); with --redis, 0"
        " leaves the thinking to `parlour worker` processes",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="run as one node of a cluster that keeps its rooms in this Redis"
        f" (redis://HOST:6379/0; default ${REDIS_VARIABLE}); --data-dir is then not used",
    )
    serve.add_argument(
        "--lease",
        type=_number(1, 60, " seconds", whole=False),
        default=3.0,
        metavar="SECONDS",
        help="with --redis: how long a node keeps its rooms without renewing them, so how"
        " soon other nodes take over the rooms of a node that is lost (default 3)",
    )
    serve.add_argument(
        "--smtp",
        type=_smtp,
        metavar="URL",
        help='send players their "your turn" mail through this SMTP server:'
        " smtp://[USER:PASSWORD@]HOST[:PORT] (port 25; STARTTLS when the server offers it,"
        " ?starttls=require to insist) or smtps://... (TLS from the start, port 465);"
        " needs --mail-from. Without it the server offers no mail",
    )
    serve.add_argument(
        "--mail-from",
        type=_mail_from,
        metavar="ADDRESS",
        help="the address mail is sent from, as games@example.org or"
        " 'Parlour <games@example.org>'",
    )
    serve.set_defaults(run=_serve)

    worker = commands.add_parser(
        "worker",
        help="think for the computer players of a cluster, on this machine",
        description="Take bot moves and suggestions from a cluster's Redis for every node,"
        " in N processes, until SIGTERM or Ctrl-C; searches held are answered first.",
    )
    worker.add_argument(
        "--redis", metavar="URL", help=f"the cluster's Redis (default ${REDIS_VARIABLE})"
    )
    worker.add_argument(
        "--procs",
        type=_number(1, MAX_PROCS),
        default=os.cpu_count() or 1,
        metavar="N",
        help="search processes (default: one per CPU)",
    )
    worker.set_defaults(run=_worker)
    _add_operator_commands(commands)
    _add_client_commands(commands)
    return parser


def _add_operator_commands(commands: Any) -> None:
    """`reports` and `bar`: an operator's moderation, over the server's own records."""
    reports = commands.add_parser(
        "reports",
        help="read the reports players filed about others",
        description="Print the newest reports, newest first: who reported whom, in which"
        " room, why, and the room's last chat lines. The server may be running.",
    )
    reports.add_argument(
        "--limit", type=_number(1, 10_000), default=100, metavar="N", help="at most N (100)"
    )
    reports.add_argument("--json", action="store_true", help="one JSON object a line")
    bar = commands.add_parser(
        "bar",
        help="bar a player from the server, or let them in again",
        description="Refuse the player's hello from now on (a player already connected is"
        " refused from their next connection). PLAYER is their id, as `parlour reports`"
        " shows it (p-...), or their player key.",
    )
    bar.add_argument("player", metavar="PLAYER", help="the player's id (p-...) or key")
    bar.add_argument(
        "--reason",
        default="barred by the operators",
        help="said to the player when their hello is refused",
    )
    bar.add_argument("--lift", action="store_true", help="let the player in again")
    for command in (reports, bar):
        command.add_argument(
            "--data-dir",
            type=Path,
            metavar="DIR",
            help="the single server's data directory (default: the user's data directory"
            " for parlour)",
        )
        command.add_argument(
            "--redis", metavar="URL", help=f"a cluster's Redis instead (default ${REDIS_VARIABLE})"
        )
        command.set_defaults(run=_operate)


def _operate(args: argparse.Namespace) -> int:
    """Run `reports` or `bar` over the records."""
    from parlour.server import operators  # noqa: PLC0415 (only these need the records)
    from parlour.server.moderation import report_text  # noqa: PLC0415
    from parlour.server.store import StoreError  # noqa: PLC0415

    redis_url = args.redis or os.environ.get(REDIS_VARIABLE) or None
    if redis_url is not None:
        redis_url = _redis_url(redis_url)
    data_dir = args.data_dir
    try:
        if args.command == "reports":
            found = operators.reports(data_dir, redis_url, args.limit)
            for report in found:
                print(json.dumps(report) if args.json else report_text(report) + "\n")
            if not found and not args.json:
                print("No reports.")
            return 0
        player = operators.player_named(args.player)
        if args.lift:
            was = operators.lift_bar(data_dir, redis_url, player)
            print(f"{player} may come in again." if was else f"{player} was not barred.")
        else:
            operators.bar(data_dir, redis_url, player, args.reason)
            print(f"{player} is barred: their next hello is refused.")
    except (FileNotFoundError, StoreError, operators.NotAPlayerError, ConnectionError) as error:
        raise CommandError(str(error)) from None
    return 0


def _server(text: str) -> str:
    """A server address from the command line, as a WebSocket URL."""
    from parlour.client.connection import ConnectError, server_url  # noqa: PLC0415

    try:
        return server_url(text)
    except ConnectError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _ca(text: str) -> Path:
    """`--ca FILE`: a CA certificate to trust, read now so that a bad one is said at once."""
    from parlour.client.tls import CaFileError, client_context  # noqa: PLC0415

    path = Path(text).expanduser().absolute()
    try:
        client_context(path)
    except CaFileError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return path


def _add_ca(command: argparse.ArgumentParser, *, what: str = "the server") -> None:
    command.add_argument(
        "--ca",
        type=_ca,
        metavar="FILE",
        help=f"trust the CA whose certificate (PEM) is in FILE, besides this machine's, to"
        f" check the certificate of {what} at a wss:// or https:// --server",
    )


SERVER_HELP = (
    f"host:port, or wss://host:port (an https:// link too) for a server with TLS"
    f" (default {LOCAL_SERVER}, a server on this machine)"
)


def _add_client_commands(commands: Any) -> None:
    """play, host and join: the terminal client, seated in a room."""
    game_names = sorted(GAMES)
    play = commands.add_parser(
        "play",
        help="play against the computer in this terminal",
        description="Start a private server in this process and play GAME against computer"
        " players. Keys are shown at the bottom of the screen; Q quits.",
    )
    play.add_argument("game", choices=game_names, metavar="GAME", help="a game name")
    play.add_argument("--bots", metavar="LEVEL", help="the computer players' level")
    play.add_argument(
        "--bot-pause",
        type=_number(0, 10, " seconds", whole=False),
        default=0.4,
        metavar="SECONDS",
        help="least time a computer player takes over a move (default 0.4)",
    )
    host = commands.add_parser(
        "host",
        help="open a room on a server for friends to join",
        description="Create a room for GAME on a running server, print its code and the"
        " command friends join with, and take a seat in it.",
    )
    host.add_argument("game", choices=game_names, metavar="GAME", help="a game name")
    host.add_argument(
        "--server", type=_server, default=LOCAL_SERVER, metavar="URL", help=SERVER_HELP
    )
    _add_ca(host)
    host.add_argument("--public", action="store_true", help="list the room in the lobby")
    host.add_argument(
        "--unrated",
        action="store_true",
        help="a friendly room: its games move nobody's rating (by default they count when"
        " every person plays with a key and nobody asks the computer for help)",
    )
    for command in (play, host):
        seats = command.add_mutually_exclusive_group()
        seats.add_argument("--seat", metavar="COLOUR", help="your seat (default: the first)")
        seats.add_argument(
            "--seats",
            type=_colours,
            metavar="C,C",
            help="several seats played from this screen by people taking turns (blue,red)",
        )
        seats.add_argument(
            "--watch", action="store_true", help="take no seat: watch the computers play"
        )
        command.add_argument(
            "--names",
            type=_colours,
            metavar="N,N",
            help="with --seats: the people's names, in the same order (default: Player 2, ...)",
        )
        start = command.add_mutually_exclusive_group()
        start.add_argument(
            "--board",
            metavar="N|NAME",
            help="a board number (default: random), or a named board (parlour games lists them)",
        )
        start.add_argument(
            "--position",
            metavar="TEXT",
            help="start from this position in the game's notation (any layout)",
        )
        command.add_argument(
            "--edit",
            action="store_true",
            help="Oubliette: set up the board (holes, blocks, pieces) in the editor first",
        )
        command.add_argument(
            "--option", action="append", default=[], metavar="K=V", help="a game option"
        )
        command.add_argument(
            "--clock",
            type=_time_control,
            default=TimeControl(),
            metavar="TIME",
            help="the room's clock: 5+3 (minutes, then seconds added a move), 3d (days a"
            " move), 3d+7 (and up to 7 days banked); default none",
        )
        command.add_argument(
            "--think-ms",
            type=_number(100, 10_000, " ms"),
            default=1000,
            metavar="MS",
            help="how long the searching computer levels think about a move (default 1000)",
        )
    host.add_argument(
        "--left-seats",
        choices=("bot", "open"),
        default="bot",
        help="what a seat given up during a game becomes: the computer's (default) or open",
    )
    host.add_argument(
        "--standin-after",
        type=_number(0, 3600, " seconds"),
        default=60,
        metavar="S",
        help="seconds before a computer plays for someone who dropped out (0: never; default 60)",
    )
    join = commands.add_parser(
        "join",
        help="join a room by its code, or pick one in the lobby",
        description="Take a seat in (or watch) the room with this code; with no code, show"
        " the public rooms to choose from.",
    )
    join.add_argument(
        "code",
        nargs="*",
        type=str,
        metavar="CODE",
        help="the room's code (7KQM-X3RD-2HVP; case, dashes and spaces do not matter) or id;"
        " back into the seats you hold there, if any",
    )
    join.add_argument(
        "--server", type=_server, default=LOCAL_SERVER, metavar="URL", help=SERVER_HELP
    )
    _add_ca(join)
    seat = join.add_mutually_exclusive_group()
    seat.add_argument("--seat", metavar="COLOUR", help="the seat to take (default: a free one)")
    seat.add_argument("--watch", action="store_true", help="watch without a seat")
    rooms = commands.add_parser(
        "rooms",
        help="list the rooms you hold seats in",
        description="List the rooms this user holds seats in (kept by host and join), as"
        " their servers show them now, with the command that comes back to each.",
    )
    rooms.add_argument(
        "--server", type=_server, metavar="URL", help="only the rooms on this server"
    )
    _add_ca(rooms, what="the servers (the one a seat was taken with is kept for it)")
    for command in (play, host, join):
        command.add_argument(
            "--guest",
            action="store_true",
            help="play without your player key: no ratings, no games kept as yours",
        )
    for command in (play, host, join):
        command.add_argument(
            "--name", metavar="NAME", help="the name others see (default: your login name)"
        )
    rooms.add_argument(
        "--name",
        metavar="NAME",
        help="the name to say hello with (default: the one you played under there)",
    )
    for command in (play, host, join, rooms):
        command.set_defaults(run=_client)
    _add_player_commands(commands)


def _add_player_commands(commands: Any) -> None:
    """key, leaderboard, mine, vacation and replay: a player's key, ratings, games and
    time away."""
    key = commands.add_parser(
        "key",
        help="your player key: show it, or import one from another machine",
        description="Your player key is you on every Parlour server: your name, ratings and"
        " games. It is made the first time the client runs. `parlour key` shows it and how to"
        " move it; `parlour key import KEY` (or the key on standard input) puts another in"
        " its place, once you say so, printing the old one so that it is not lost.",
    )
    key.add_argument(
        "action", nargs="?", choices=("show", "import"), default="show", help="(default: show)"
    )
    key.add_argument("text", nargs="*", metavar="KEY", help="the key to import")
    key.add_argument("--yes", action="store_true", help="import: replace your key without asking")
    leaderboard = commands.add_parser(
        "leaderboard",
        help="a game's highest rated players on a server",
        description="The 50 highest rated players of GAME on the server, computers marked;"
        " a ? marks a provisional rating.",
    )
    leaderboard.add_argument("game", choices=sorted(GAMES), metavar="GAME", help="a game name")
    leaderboard.add_argument(
        "--speed",
        choices=("none", "live", "days"),
        default="none",
        help="the ratings of games without a clock (none, the default), live or of days a move",
    )
    mine = commands.add_parser(
        "mine",
        help="your games on a server: rooms in play and finished games",
        description="The rooms you hold seats in on the server, to go back to with `parlour"
        " join`, and your finished games with their result and rating change, each to"
        " replay with `parlour replay --record RECORD`.",
    )
    vacation = commands.add_parser(
        "vacation",
        help="stop the clocks of your games of days a move while you are away",
        description="A vacation stops the clocks of your games of days a move (live clocks"
        " run on), those in play and those that begin while it is on. You have 30 days a"
        " calendar year; ending a vacation early gives back its whole days not begun."
        " With no DAYS, says whether you are on vacation and the days you have left.",
    )
    vacation.add_argument(
        "days",
        nargs="?",
        type=_vacation_days,
        metavar="DAYS",
        help="days from now, 1 to 30; 'end' (or 0) ends the vacation on",
    )
    replay = commands.add_parser(
        "replay",
        help="step through a game with charts of the scores and chances",
        description="Step through the game in a game file (as `export` writes them; - for"
        " standard input), here with no server, or a finished game of yours by its record"
        " (parlour mine lists them), asked of the server: the board at every move, the"
        " scores and the computer's judgement charted.",
    )
    replayed = replay.add_mutually_exclusive_group(required=True)
    replayed.add_argument("file", nargs="?", metavar="FILE", help="a game file")
    replayed.add_argument("--record", metavar="RECORD", help="a finished game's record")
    for command in (leaderboard, mine, vacation, replay):
        asked = "with --record, the server's " if command is replay else ""
        command.add_argument(
            "--server",
            type=_server,
            default=LOCAL_SERVER,
            metavar="URL",
            help=f"{asked}{SERVER_HELP}",
        )
        _add_ca(command)
        command.add_argument(
            "--name",
            metavar="NAME",
            help="the name to say hello with (default: the one you last played under, else"
            " your login name)",
        )
    for command in (key, leaderboard, mine, vacation, replay):
        command.set_defaults(run=_player)


def _colours(text: str) -> list[str]:
    """A comma-separated list, as `--seats blue,red` gives it."""
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"{text!r} is not a list like blue,red")
    return items


def _client(args: argparse.Namespace) -> int:
    """Run the terminal client for play, host or join."""
    from parlour.terminal import SetupError, run  # noqa: PLC0415 (only these need Textual)

    try:
        return run(args.command, args)
    except SetupError as error:
        raise CommandError(str(error)) from None


def _player(args: argparse.Namespace) -> int:
    """Run key, leaderboard, mine, vacation or replay."""
    from parlour.players import run  # noqa: PLC0415 (only these need the client)
    from parlour.terminal import SetupError  # noqa: PLC0415

    try:
        return run(args.command, args)
    except SetupError as error:
        raise CommandError(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; bad input prints a one-line error and returns 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except (RulesError, CommandError) as error:
        print(f"parlour {args.command}: error: {error}", file=sys.stderr)
        return 2
    return status
