"""`parlour play`, `host`, `join` and `rooms`: set up a seat in a room, then run the terminal
client; or list the rooms this user holds seats in.

`play` starts a private server in this process on a free loopback port, so one command
gives a game against the computer. The room is set up before the client takes over the
screen, so `host` can print the room code and the command friends join with.

Every hello carries this user's player key (made on the first run), unless `--guest`; a
name the server says is another player's is asked again at the terminal, or refused with
a word on `--name` where nobody is there to ask.

A `wss://` server's certificate is checked, trusting a private CA given with `--ca`; a
refused one is a one-line error that says why (client.tls).
"""

import argparse
import asyncio
import contextlib
import getpass
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from parlour.bots import levels_for
from parlour.client.connection import (
    BarredError,
    ConnectError,
    Connection,
    ConnectionLostError,
    NameTakenError,
    RefusedError,
    invitation,
    is_tls,
)
from parlour.client.invocation import parlour_command
from parlour.client.playerkey import KeyFile, NameFile, PlayerKeyError
from parlour.client.seatbook import HeldSeat, SeatBook, SeatBookError
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.conduct import refused_words
from parlour.client.terminal.dialogs import NAME_LENGTH
from parlour.client.terminal.editor import EditorApp
from parlour.client.terminal.room import RoomModel, levels_in, middle_level
from parlour.protocol import messages as m
from parlour.protocol.codes import room_key
from parlour.rules import get_game
from parlour.rules.options import board_choice, parse_options


class SetupError(Exception):
    """The room could not be set up as asked; printed as one line."""


def player_name(args: argparse.Namespace, *, looking: bool = False) -> str:
    """The name others see: the first of `--names`, else `--name`, else the login name.
    A command that only looks takes the name last played under with the key before the
    login name, so that it never renames the player."""
    name = (getattr(args, "names", None) or [args.name])[0]
    if name is None and looking and not getattr(args, "guest", False):
        name = NameFile().read()
    if name is None:
        with contextlib.suppress(Exception):
            name = getpass.getuser()
    name = (name or "player").strip()[:32]
    return name or "player"


def room_options(args: argparse.Namespace) -> tuple[dict[str, Any], int | None]:
    """The game options and board number from the command line, checked by the rules,
    with the seats and computer level asked for."""
    game = get_game(args.game)
    board, named = None, list[str]()
    if args.board is not None:
        board, named = board_choice(game.title, game.option_specs, args.board)
    options = parse_options(game.option_specs, [*args.option, *named])
    wanted = seats_wanted(args)
    for seat in wanted:
        if seat not in game.seats:
            raise SetupError(f"{game.title} has no seat {seat!r}: {', '.join(game.seats)}")
    if len(set(wanted)) != len(wanted):
        raise SetupError(f"--seats names a seat twice: {','.join(wanted)}")
    names = getattr(args, "names", None) or []
    if len(names) > len(wanted):
        raise SetupError("--names gives more names than --seats gives seats")
    levels = levels_for(game.name)
    if getattr(args, "bots", None) is not None and args.bots not in levels:
        raise SetupError(f"{game.title} has no level {args.bots!r}: {', '.join(levels)}")
    return dict(options), board


async def _ask(connection: Connection, message: m.ClientMessage) -> m.ServerMessage:
    try:
        return await connection.request(message)
    except RefusedError as error:
        raise SetupError(refused_words(error.code, str(error)) or str(error)) from None
    except ConnectionLostError as error:
        raise SetupError(str(error)) from None


def seats_wanted(args: argparse.Namespace) -> list[str]:
    """The seats this screen plays: one, several people's (`--seats`), or none (`--watch`)."""
    if getattr(args, "watch", False):
        return []
    if getattr(args, "seats", None):
        return list(args.seats)
    return [args.seat or get_game(args.game).seats[0]]


def sharing_names(args: argparse.Namespace, count: int) -> list[str]:
    """The names of the people at this screen after the first, as `--names` gives them."""
    given = list(getattr(args, "names", None) or [])[1:]
    return [*given, *(f"Player {number}" for number in range(len(given) + 2, count + 1))]


async def create_room(
    connection: Connection, args: argparse.Namespace, *, public: bool
) -> RoomModel:
    """A new room with this screen in the seats asked for (the first by default); the
    people sharing it take theirs one by one."""
    options, board = room_options(args)
    wanted = seats_wanted(args)
    seat = wanted[0] if wanted else None
    position = getattr(args, "position", None)
    request = m.CreateRoom(
        game=args.game,
        options=options,
        board=None if position is not None else board,
        position=position,
        public=public,
        seat=seat,
        bot_think_ms=args.think_ms,
        standin_after=getattr(args, "standin_after", 60),
        left_seats=getattr(args, "left_seats", "bot"),
        rated=not getattr(args, "unrated", False),
        time_control=args.clock.describe(),
    )
    answer = await _ask(connection, request)
    assert isinstance(answer, m.Joined)
    room = RoomModel.joined(answer)
    for other, name in zip(wanted[1:], sharing_names(args, len(wanted)), strict=True):
        joined = await _ask(connection, m.Join(room=room.ref, seat=other, name=name))
        assert isinstance(joined, m.Joined)
        room = RoomModel.joined(joined, room.ref)
    return room


async def enter_room(
    connection: Connection, args: argparse.Namespace, book: SeatBook
) -> RoomModel:
    """Into the room named by its code: back into the seats held there, a new seat, or
    watching."""
    if args.watch:
        watching = await _ask(connection, m.Spectate(room=args.code))
        assert isinstance(watching, m.Watching)
        return RoomModel.watching(watching, args.code)
    held = None if args.seat else _held(book, connection.url, args.code)
    if held is not None:
        try:
            back = await connection.request(m.Join(room=args.code, token=held.token))
        except RefusedError as error:
            if error.code not in ("bad_token", "no_such_room"):
                raise SetupError(refused_words(error.code, str(error)) or str(error)) from None
            _forget(book, held)
            if error.code == "no_such_room":
                raise SetupError(f"room {args.code} has closed: {error}") from None
            print(f"Your seats in room {args.code} are yours no longer; taking a free one.")
        except ConnectionLostError as error:
            raise SetupError(str(error)) from None
        else:
            assert isinstance(back, m.Joined)
            return RoomModel.joined(back, args.code)
    joined = await _ask(connection, m.Join(room=args.code, seat=args.seat))
    assert isinstance(joined, m.Joined)
    return RoomModel.joined(joined, args.code)


def _held(book: SeatBook, server: str, room: str) -> HeldSeat | None:
    try:
        return book.find(server, room)
    except SeatBookError as error:
        print(f"parlour: {error}")
        return None


def _forget(book: SeatBook, held: HeldSeat) -> None:
    try:
        book.forget(held.server, held.room)
    except SeatBookError as error:
        print(f"parlour: {error}")


def remember_name(connection: Connection) -> None:
    """The name played under with the key, for the commands that only look."""
    player = connection.welcome.player if connection.welcome is not None else None
    if isinstance(player, dict) and player.get("name"):
        NameFile().keep(str(player["name"]))


def welcomed(connection: Connection) -> None:
    """The name remembered; and the first time a server meets this player's key, who they
    are to it now."""
    remember_name(connection)
    player = connection.welcome.player if connection.welcome is not None else None
    if isinstance(player, dict) and player.get("new"):
        print(
            f"This server meets you for the first time: you are {player.get('name')}"
            f" ({player.get('id')}), known by your player key from now on (parlour key).",
            flush=True,
        )


def said_goodbye(app: ParlourApp) -> None:
    """After quitting a room: how to come back to the seats kept there."""
    room = app.left
    if room is not None and app.book is not None and (room.yours or room.host):
        print(f"Your seats stay yours. Come back with:  {app.come_back(room)}")


def default_level(connection: Connection, game: str) -> str | None:
    """A middling one of the game's computer levels, as the server lists them."""
    levels = levels_in(connection.welcome, game)
    return middle_level(levels) if levels else None


def player_key(args: argparse.Namespace) -> str | None:
    """The key this user plays with (made now, the first time), or None with `--guest`."""
    if getattr(args, "guest", False):
        return None
    try:
        return KeyFile().load_or_make().key
    except PlayerKeyError as error:
        raise SetupError(f"{error} (or play without a key: --guest)") from None


async def ask_in_terminal(taken: str) -> str | None:
    """Another name, typed at the terminal, when the server says `taken` is another
    player's; None where nobody is at a terminal to ask, or nothing is typed."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    print(f"The name {taken} belongs to another player on this server.")
    try:
        typed = await asyncio.to_thread(input, "Another name to play under (Enter stops): ")
    except EOFError:
        return None
    return typed.strip()[:NAME_LENGTH] or None


def trusted_ca(args: argparse.Namespace) -> Path | None:
    """The private CA certificate `--ca` gives for `--server`; SetupError for a plain
    server, which has no certificate to check (a wss:// address is never made plain)."""
    ca: Path | None = getattr(args, "ca", None)
    if ca is not None and not is_tls(args.server):
        raise SetupError(
            f"--ca trusts a CA for a server reached over TLS, and {args.server} is plain:"
            " give --server wss://HOST:PORT (or an https:// link)"
        )
    return ca


@contextlib.asynccontextmanager
async def connected(
    url: str, name: str, key: str | None = None, *, ca: Path | None = None
) -> AsyncIterator[Connection]:
    """A connection that has said hello with `name` and `key` (trusting the CA certificate
    in `ca` for a `wss://` server), closed on the way out."""
    try:
        connection = await Connection.open(url, name, key=key, ask_name=ask_in_terminal, ca=ca)
    except NameTakenError as error:
        raise SetupError(f"{error}: choose another with --name NAME") from None
    except BarredError as error:
        raise SetupError(refused_words("barred", error.reason) or str(error)) from None
    except ConnectError as error:
        raise SetupError(str(error)) from None
    try:
        yield connection
    finally:
        await connection.close()


async def edit_position(args: argparse.Namespace) -> bool:
    """With --edit, the start made in the board editor (in `args.position`); False if the
    player left the editor without starting."""
    if not args.edit:
        return True
    game = get_game(args.game)
    if game.name != "oubliette":
        raise SetupError("the board editor is Oubliette's; give other layouts with --position")
    options, board = room_options(args)
    start = args.position or game.new(options, seed=board or 0).format_position()
    args.position = await EditorApp(start).run_async()
    return args.position is not None


async def play(args: argparse.Namespace) -> None:
    """A private game against computer players on a server of our own."""
    from parlour.server import ServerConfig, running_server  # noqa: PLC0415
    from parlour.server.serve import addresses  # noqa: PLC0415

    room_options(args)
    if not await edit_position(args):
        return
    config = ServerConfig(host="127.0.0.1", port=0, bot_pause=args.bot_pause)
    async with running_server(config) as server:
        url = addresses("127.0.0.1", server.port)[0]
        async with connected(url, player_name(args), player_key(args)) as connection:
            remember_name(connection)
            room = await create_room(connection, args, public=False)
            level = args.bots or default_level(connection, args.game)
            await _ask(connection, m.FillBots(room=room.ref, level=level))
            calls = room.calls_coin(connection.welcome)
            if not calls:
                await _ask(connection, m.Start(room=room.ref))
            await ParlourApp(connection, room, start=calls).run_async()


async def host(args: argparse.Namespace) -> None:
    """A room on a running server for friends to join."""
    room_options(args)
    ca = trusted_ca(args)
    if not await edit_position(args):
        return
    async with connected(args.server, player_name(args), player_key(args), ca=ca) as connection:
        welcomed(connection)
        room = await create_room(connection, args, public=args.public)
        invited = invitation(connection, room.ref)
        print(f"Room {room.ref} ({'public' if args.public else 'private'}) is open.")
        print(invited, flush=True)
        app = ParlourApp(connection, room, book=SeatBook())
        await app.run_async()
        print(invited)
        said_goodbye(app)


def typed_room(words: list[str]) -> str | None:
    """The room named on the command line, as the server writes it: a code may be typed in
    any case, with spaces or dashes (`parlour join 7kqm x3rd 2hvp`)."""
    return room_key(" ".join(words)) if words else None


async def join(args: argparse.Namespace) -> None:
    """A seat or a view of a room by its code, or the lobby of public rooms."""
    args.code = typed_room(args.code)
    if args.code is None and (args.seat or args.watch):
        raise SetupError("--seat and --watch need the room's CODE; without one, pick in the lobby")
    ca = trusted_ca(args)
    book = SeatBook()
    name = player_name(args)
    if args.name is None and args.code is not None and not (args.seat or args.watch):
        held = _held(book, args.server, args.code)
        name = held.name if held is not None and held.name else name
    async with connected(args.server, name, player_key(args), ca=ca) as connection:
        welcomed(connection)
        room = None if args.code is None else await enter_room(connection, args, book)
        app = ParlourApp(connection, room, book=book)
        await app.run_async()
        said_goodbye(app)


async def rooms(args: argparse.Namespace) -> None:
    """The rooms this user holds seats in, as their servers say they are now."""
    try:
        held = SeatBook().held()
    except SeatBookError as error:
        raise SetupError(str(error)) from None
    if args.server is not None:
        trusted_ca(args)
        held = [seat for seat in held if seat.server == args.server]
    if not held:
        print(
            f"You hold no seats. Host a room with `{parlour_command()} host GAME`, or join one"
            f" with `{parlour_command()} join`."
        )
        return
    for server in dict.fromkeys(seat.server for seat in held):
        print(f"On {server}:")
        here = [seat for seat in held if seat.server == server]
        try:
            played = next((seat.name for seat in here if seat.name), None)
            name = args.name or played or player_name(args, looking=True)
            kept = next((seat.ca_file for seat in here if seat.ca), None)
            ca = (args.ca or kept) if is_tls(server) else None
            async with connected(server, name, player_key(args), ca=ca) as connection:
                for seat in here:
                    print(f"  {await _room_line(connection, seat)}")
        except SetupError as error:
            for seat in here:
                print(f"  {_line(seat, f'({error})')}")


async def _room_line(connection: Connection, seat: HeldSeat) -> str:
    """One held room as its server shows it now; a closed one is forgotten."""
    try:
        answer = await connection.request(m.GetRoom(room=seat.room))
    except RefusedError as error:
        if error.code == "no_such_room":
            SeatBook().forget(seat.server, seat.room)
            return _line(seat, "(closed: forgotten)")
        return _line(seat, f"({error})")
    assert isinstance(answer, m.RoomView)
    view = RoomModel(answer.room, seat.room, host=seat.host)
    view.view["yours"] = list(seat.seats)
    return _line(seat, f"{view.status}: {view.status_line().split('   ')[0]}")


def _line(seat: HeldSeat, state: str) -> str:
    seats = ", ".join(colour.capitalize() for colour in seat.seats) or "hosting"
    return f"{seat.game.capitalize()} {seats}  {state}\n    {seat.come_back()}"


def run(command: str, args: argparse.Namespace) -> int:
    """Run one of the client commands to the end."""
    job = {"play": play, "host": host, "join": join, "rooms": rooms}[command]
    try:
        asyncio.run(job(args))
    except KeyboardInterrupt:
        return 130
    return 0
