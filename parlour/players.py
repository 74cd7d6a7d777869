"""`parlour key`, `leaderboard`, `mine`, `vacation` and `replay`: this user's player key, a
game's leaderboard, this player's games and vacation, and a game stepped through with
charts (protocol.md 2.10, 2.12).

A game file is replayed here, with no server: the replay is built in this process by the
same code a server builds it with (parlour.server.replays, from the rules and the judges in
this package). A finished game's record is the server's, so `--record` asks it.

The key is shown with what moving it to another machine takes, and replaced only once the
person says so, with the old one printed so that it is not lost.
"""

import argparse
import asyncio
import sys
import time
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from parlour.client.connection import (
    Connection,
    ConnectionLostError,
    RefusedError,
    server_option,
)
from parlour.client.playerkey import KeyFile, PlayerKey, PlayerKeyError, parse_key
from parlour.client.terminal.leaderboard import leaderboard_text, you
from parlour.client.terminal.mygames import my_games_text
from parlour.client.terminal.replay import ReplayApp, ask_replay
from parlour.client.terminal.replaymodel import ReplayModel
from parlour.protocol import messages as m
from parlour.protocol.errors import ProtocolError
from parlour.protocol.messages import MAX_GAME_FILE
from parlour.terminal import SetupError, connected, player_key, player_name, trusted_ca


def show_key(key_file: KeyFile) -> None:
    """The key, the id others see, where it is kept and how to take it elsewhere."""
    try:
        key = key_file.load_or_make()
    except PlayerKeyError as error:
        raise SetupError(str(error)) from None
    print(f"Your player key: {key.key}")
    print(f"Your player id:  {key.player}  (what others see of you; the key stays secret)")
    print(f"Kept in {key_file.path}, readable by you alone.")
    print("To play as yourself on another machine, run there:")
    print(f"  parlour key import {key.key}")
    print("Anyone who has the key plays as you: give it to nobody else.")


def read_typed_key(words: list[str]) -> str:
    """The key given on the command line, else typed or piped in."""
    if words:
        return " ".join(words)
    if sys.stdin.isatty():
        try:
            return input("Paste the player key to use from now on: ")
        except EOFError:
            return ""
    return sys.stdin.read(1024)


def confirmed(old: PlayerKey, *, yes: bool, asked_by_pipe: bool) -> bool:
    """Whether the person agrees to replace `old`: asked at the terminal, unless `--yes`."""
    if yes:
        return True
    if asked_by_pipe or not sys.stdin.isatty():
        raise SetupError(
            "replacing your player key needs a yes: run it at a terminal, or add --yes"
        )
    try:
        answer = input("Replace it? The games and ratings of that key stay with it. [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def import_key(key_file: KeyFile, words: list[str], *, yes: bool) -> int:
    """Keep the key given in place of this user's, once they say so."""
    typed = read_typed_key(words)
    try:
        old = key_file.read()
        new = parse_key(typed)
        if old == new:
            print(f"That is your player key already ({new.player}).")
            return 0
        if old is not None:
            print(f"Your player key now is {old.key} ({old.player}).")
            print("Keep it somewhere if you may want to play as that player again.")
            if not confirmed(old, yes=yes, asked_by_pipe=not words and not sys.stdin.isatty()):
                print("Your key is as it was.")
                return 1
        key_file.replace(typed)
    except PlayerKeyError as error:
        raise SetupError(str(error)) from None
    print(f"Your player key is now {new.key} ({new.player}).")
    if old is not None:
        print(f"The old key was {old.key}: it plays as that player again if you import it.")
    return 0


def looking(args: argparse.Namespace) -> AbstractAsyncContextManager[Connection]:
    """A connection for a command that only looks: it says hello with the name last played
    under, so that it renames nobody."""
    name, ca = player_name(args, looking=True), trusted_ca(args)
    return connected(args.server, name, player_key(args), ca=ca)


async def leaderboard(args: argparse.Namespace) -> int:
    """The game's leaderboard on the server, printed."""
    async with looking(args) as connection:
        try:
            answer = await connection.request(m.Leaderboard(game=args.game, speed=args.speed))
        except (RefusedError, ConnectionLostError) as error:
            raise SetupError(str(error)) from None
        if not isinstance(answer, m.LeaderboardReply):
            raise SetupError(f"the server answered {answer.TYPE!r}, not a leaderboard")
        print(leaderboard_text(answer, you(connection.welcome)))
    return 0


async def mine(args: argparse.Namespace) -> int:
    """This player's games on the server: in play, to go back to, and finished."""
    async with looking(args) as connection:
        try:
            answer = await connection.request(m.MyGames())
        except (RefusedError, ConnectionLostError) as error:
            raise SetupError(str(error)) from None
        if not isinstance(answer, m.MyGamesReply):
            raise SetupError(f"the server answered {answer.TYPE!r}, not your games")
        print(f"Your games on {args.server}, as {connection.name}:")
        server = server_option(connection.url, connection.ca)
        print(my_games_text(answer, you(connection.welcome), time.time(), server))
    return 0


def game_file_text(path: str) -> str:
    """The game file at `path` (`-` for standard input), as the server takes it."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).expanduser().read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SetupError(f"cannot read the game file {path}: {error}") from None
    text = text.strip()
    if not text:
        raise SetupError(f"the game file {path} is empty")
    if len(text) > MAX_GAME_FILE:
        raise SetupError(f"the game file {path} is longer than {MAX_GAME_FILE:,} characters")
    return text


def replay_here(text: str) -> ReplayModel:
    """The replay of a game file, built in this process as a server would build it."""
    from parlour.server.known import replay_message  # noqa: PLC0415 (only a replay needs it)

    try:
        return ReplayModel.from_reply(replay_message(None, text))
    except (ProtocolError, ValueError) as error:
        raise SetupError(f"cannot replay that game: {error}") from None


async def vacation(args: argparse.Namespace) -> int:
    """This player's vacation on the server: taken, ended, or only told. Ending one when
    none is on changes nothing."""
    async with looking(args) as connection:
        try:
            answer = await connection.request(m.GetVacation())
            on = isinstance(answer, m.VacationReply) and answer.until is not None
            if args.days or (args.days == 0 and on):
                answer = await connection.request(m.TakeVacation(days=args.days))
        except (RefusedError, ConnectionLostError) as error:
            raise SetupError(str(error)) from None
        if not isinstance(answer, m.VacationReply):
            raise SetupError(f"the server answered {answer.TYPE!r}, not your vacation")
        print(vacation_text(answer, taken=args.days if args.days or on else None))
    return 0


def vacation_text(answer: m.VacationReply, taken: int | None) -> str:
    """A vacation in words: until when, in local time, what it does, and the days left."""
    left = f"{answer.days_left} vacation day{'' if answer.days_left == 1 else 's'} left this year"
    if answer.until is None:
        if taken == 0:
            over = "Your vacation is over: your clocks of days a move run"
            return f"{over}. {left} (a day begun counts)."
        return f"You are not on vacation: your clocks of days a move run. {left}."
    until = time.strftime("%a %d %b %Y, %H:%M", time.localtime(answer.until))
    begun = "You are on vacation" if taken is None else "Vacation taken"
    return (
        f"{begun} until {until} (this machine's time): the clocks of your games of days a"
        f" move stand still till then; live clocks run on. {left}."
    )


async def replay(args: argparse.Namespace) -> int:
    """A game file (here, with no server), or a finished game by its record (asked of the
    server), stepped through in this terminal."""
    if args.record is None:
        text = game_file_text(args.file)
        shown = await asyncio.to_thread(replay_here, text)
    else:
        async with looking(args) as connection:
            try:
                shown = await ask_replay(connection, m.Replay(record=args.record))
            except (RefusedError, ConnectionLostError, ValueError) as error:
                raise SetupError(f"cannot replay that game: {error}") from None
    await ReplayApp(shown).run_async()
    return 0


def run(command: str, args: argparse.Namespace) -> int:
    """Run one of this module's commands to the end."""
    if command == "key":
        key_file = KeyFile()
        if args.action == "import":
            return import_key(key_file, args.text, yes=args.yes)
        show_key(key_file)
        return 0
    jobs = {"leaderboard": leaderboard, "mine": mine, "vacation": vacation, "replay": replay}
    job = jobs[command]
    try:
        return asyncio.run(job(args))
    except KeyboardInterrupt:
        return 130
