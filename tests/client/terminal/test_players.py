"""Known players in the terminal client (protocol.md 2.10): ratings on the seats, in the
lobby and on the score card; whether a game counts and each seat's change after a rated
one; the leaderboard and My games screens, and their commands."""

import asyncio
import getpass
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Label, RichLog, Static

from parlour.cli import main
from parlour.client.connection import Connection, RefusedError
from parlour.client.playerkey import NameFile
from parlour.client.terminal.app import ParlourApp, RoomScreen
from parlour.client.terminal.cards import ScoreCardScreen
from parlour.client.terminal.dialogs import ConfirmScreen, InitialsScreen
from parlour.client.terminal.leaderboard import (
    LeaderboardScreen,
    leaderboard_rows,
    leaderboard_text,
)
from parlour.client.terminal.lobby import LobbyScreen
from parlour.client.terminal.mygames import MyGamesScreen, finished_row, my_games_text, playing_row
from parlour.client.terminal.replay import ReplayScreen
from parlour.client.terminal.room import RoomModel
from parlour.client.terminal.widgets import SeatsPanel
from parlour.protocol import messages as m
from parlour.protocol.players import new_key, player_id
from parlour.terminal import welcomed

from .test_app import SCREEN, screen_of, until

TINY: dict[str, int | str] = {"rows": 4, "cols": 4, "blocked": 0, "tiles": 1}
"""A Tribolo board of 16 squares: a rated game over in a dozen moves."""


@pytest.fixture
async def player(url: str) -> AsyncIterator[Connection]:
    """A connection that says hello with a player key."""
    opened = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    yield opened
    await opened.close()


async def rated_room(
    connection: Connection, *, game: str = "tribolo", public: bool = True, board: int = 3
) -> RoomModel:
    """A rated game against easy computers, started, this player in the first seat; a
    tiny board for Tribolo, so the game is over in a dozen moves."""
    welcome = connection.welcome
    assert welcome is not None
    seats = next(described["seats"] for described in welcome.games if described["name"] == game)
    create = m.CreateRoom(
        game=game,
        options=TINY if game == "tribolo" else None,
        seat=str(seats[0]),
        board=board,
        public=public,
    )
    joined = await connection.request(create)
    assert isinstance(joined, m.Joined)
    room = RoomModel.joined(joined)
    await connection.request(m.FillBots(room=room.ref, level="easy"))
    await connection.request(m.Start(room=room.ref))
    view = await connection.request(m.GetRoom(room=room.ref))
    room.apply(view)
    return room


async def room_view(connection: Connection, ref: str) -> dict[str, Any]:
    view = await connection.request(m.GetRoom(room=ref))
    assert isinstance(view, m.RoomView)
    return view.room


async def play_out(connection: Connection, ref: str) -> dict[str, Any]:
    """Play this connection's seats (the first legal move each turn) to the end of the
    game, and wait for its ratings to be kept; the last room view."""
    for _ in range(2000):
        view = await room_view(connection, ref)
        if view["status"] == "finished":
            break
        state = view["state"]
        if state["to_move"] in view["yours"]:
            move = m.Move(room=ref, version=view["version"], move=state["legal_moves"][0])
            try:
                await connection.request(move)
            except RefusedError as refused:
                assert refused.code in ("stale_version", "not_your_turn", "game_over")
        else:
            await asyncio.sleep(0.05)
    for _ in range(100):
        view = await room_view(connection, ref)
        if view.get("rating_changes") or not view.get("rated"):
            return view
        await asyncio.sleep(0.05)
    raise AssertionError("the ratings were never kept")


def seat_lines(screen: RoomScreen) -> list[str]:
    return [line.plain for _, line in screen.query_one(SeatsPanel).shown]


def log_text(screen: RoomScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)


async def my_games(pilot: Pilot[None], app: ParlourApp) -> MyGamesScreen:
    """The My games screen just opened, once the server's answer is in."""
    await until(pilot, lambda: isinstance(app.screen, MyGamesScreen), "it opened")
    screen = app.screen
    assert isinstance(screen, MyGamesScreen)
    await until(pilot, lambda: screen.reply is not None, "the games came")
    return screen


def table_rows(table: DataTable[Any]) -> list[tuple[str, ...]]:
    return [tuple(str(cell) for cell in table.get_row_at(row)) for row in range(table.row_count)]


async def test_a_rated_game_shows_the_ratings_that_it_counts_and_each_change(
    player: Connection,
) -> None:
    room = await rated_room(player)
    app = ParlourApp(player, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: "1500?" in " ".join(seat_lines(screen)), "ratings showed")
        assert all("1500?" in line for line in seat_lines(screen))
        rated = str(screen.query_one("#rated").render())
        assert "Rated game" in rated
        view = await play_out(player, room.ref)
        changes = view["rating_changes"]
        assert set(changes) == {"blue", "red", "green"}
        await until(pilot, lambda: "Ratings:" in log_text(screen), "the changes were told")
        for colour, change in changes.items():
            before, after = change["before"], change["after"]
            step = after - before
            signed = f"+{step}" if step > 0 else f"\u2212{-step}" if step < 0 else "±0"
            assert f"{before} → {after} ({signed})" in log_text(screen)
            line = next(line for line in seat_lines(screen) if colour.capitalize() in line)
            assert line.endswith(signed), line
        assert "F8 replays it" in log_text(screen)
        assert screen.room.status == "finished"


async def test_a_game_helped_by_the_best_move_says_it_is_unrated_and_why(
    player: Connection,
) -> None:
    room = await rated_room(player)
    app = ParlourApp(player, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: "Rated game" in str(screen.query_one("#rated").render()), "")
        await until(pilot, lambda: screen.room.my_turn, "it was Blue's turn")
        await pilot.press("f3")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked first")
        words = str(app.screen.query_one("#words", Static).render())
        assert "The best move makes this game unrated for its player (ann" in words
        await pilot.press("enter")  # a sentence's Enter says no
        await until(pilot, lambda: app.screen is screen, "it let it be")
        await pilot.pause(0.3)
        assert screen.room.view["rated"], "still rated"
        await pilot.press("f3")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "it asked again")
        await pilot.press("tab", "enter")
        await until(
            pilot, lambda: "Unrated" in str(screen.query_one("#rated").render()), "it said so"
        )
        assert "asked for the best move" in str(screen.query_one("#rated").render())
        await pilot.press("f3")
        await pilot.pause(0.3)
        assert app.screen is screen, "once unrated, nothing more to ask"


async def test_the_lobby_and_the_score_card_show_ratings(player: Connection) -> None:
    room = await rated_room(player, public=True)
    app = ParlourApp(player)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count > 0, "the room was listed")
        seats = table_rows(table)[0][3]
        assert seats == "blue ann 1500?, red computer 1500?, green computer 1500?"
    await play_out(player, room.ref)
    room.apply(await player.request(m.GetRoom(room=room.ref)))
    app = ParlourApp(player, room)
    async with app.run_test(size=SCREEN) as pilot:
        await pilot.press("f7")
        await until(pilot, lambda: isinstance(app.screen, ScoreCardScreen), "the card showed")
        await pilot.pause()
        players = table_rows(app.screen.query_one("#by-player", DataTable))
        card = await player.request(m.ScoreCard(game="tribolo", preset="standard"))
        assert isinstance(card, m.ScoreCardReply)
        me = player_id(str(player.key))
        expected = {
            line["name"] + (" (you)" if line["player"] == me else ""): line["rating"]
            for line in card.players
        }
        assert {row[0]: row[-1] for row in players} == {
            name: f"{rating['value']}{'?' if rating['provisional'] else ''}"
            for name, rating in expected.items()
        }
        assert "ann (you)" in expected


async def test_a_lobby_refresh_answered_after_a_room_is_entered_leaves_the_client_running(
    player: Connection, url: str
) -> None:
    """The lobby's refresh still on its way when a room's screen has taken the lobby's
    place (its timer fired as a room was entered): the list of rooms comes back to a
    screen gone, and the client goes on in the room."""
    bob = await Connection.open(url, "bob", retry_delays=(0.05,))
    try:
        made = await bob.request(m.CreateRoom(game="othello", seat="black"))
        assert isinstance(made, m.Joined)
        app = ParlourApp(player)
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await until(pilot, lambda: len(lobby.rooms) == 1, "the room was listed")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, RoomScreen), "the room opened")
            lobby.action_refresh()
            assert isinstance(await player.request(m.ListRooms()), m.Rooms)  # answered after
            await pilot.pause()
            assert app.is_running and screen_of(app).room.playing == ["white"]
    finally:
        await bob.close()


async def test_the_leaderboard_shows_what_the_server_sends_computers_marked(
    player: Connection,
) -> None:
    room = await rated_room(player)
    await play_out(player, room.ref)
    reply = await player.request(m.Leaderboard(game="tribolo"))
    assert isinstance(reply, m.LeaderboardReply) and len(reply.players) == 2
    app = ParlourApp(player)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "it opened")
        board = app.screen
        assert isinstance(board, LeaderboardScreen)
        table = board.query_one(DataTable)
        await until(pilot, lambda: board.reply is not None and board.game == "tribolo", "")
        me = player_id(str(player.key))
        assert table_rows(table) == leaderboard_rows(reply.players, me)
        marks = {row[1]: row[-1] for row in table_rows(table)}
        assert marks == {"ann": "you", "computer, level easy": "computer"}
        await pilot.press("right")
        await until(pilot, lambda: board.game != "tribolo" and board.reply is not None, "")
        await until(pilot, lambda: table.row_count == 0, "another game's board showed")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back to the lobby")


async def test_the_leaderboard_switches_between_untimed_live_and_days_ratings(
    player: Connection,
) -> None:
    room = await rated_room(player)
    await play_out(player, room.ref)
    untimed = await player.request(m.Leaderboard(game="tribolo"))
    assert isinstance(untimed, m.LeaderboardReply) and len(untimed.players) == 2
    app = ParlourApp(player)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
        board = LeaderboardScreen(player, "tribolo")
        await app.push_screen(board)
        table = board.query_one(DataTable)
        title = board.query_one("#board-title", Label)
        status = board.query_one("#board-status", Static)
        me = player_id(str(player.key))

        def showing(speed: str) -> Callable[[], bool]:
            return lambda: board.reply is not None and board.reply.speed == speed

        await until(pilot, showing("none"), "the untimed ratings showed")
        assert str(title.render()).startswith("Leaderboard: Tribolo, untimed games  (game")
        assert str(title.render()).endswith("S: live games)")
        assert table_rows(table) == leaderboard_rows(untimed.players, me)
        for speed, words in (("live", "live games"), ("days", "games of days a move")):
            await pilot.press("s")
            await until(pilot, showing(speed), f"the {speed} ratings showed")
            assert str(title.render()).startswith(f"Leaderboard: Tribolo, {words}  (game")
            assert table.row_count == 0, "a game without a clock rates no other kind"
            assert str(status.render()) == (
                f"Nobody has played a rated game of tribolo here yet ({words})."
            )
        await pilot.press("s")
        await until(pilot, showing("none"), "back to the untimed ratings")
        assert table_rows(table) == leaderboard_rows(untimed.players, me)
        await pilot.press("right")
        await until(pilot, lambda: board.game != "tribolo" and showing("none")(), "the next game")


async def test_my_games_lists_rooms_to_go_back_to_and_games_to_replay(
    url: str, player: Connection
) -> None:
    finished = await rated_room(player)
    await play_out(player, finished.ref)
    playing = await rated_room(player, public=False)
    assert playing.code is not None
    reply = await player.request(m.MyGames())
    assert isinstance(reply, m.MyGamesReply)
    assert [room["ref"] for room in reply.playing] == [playing.code]
    # Another machine with the same key: back into the seat without its token.
    elsewhere = await Connection.open(url, "ann", key=player.key, retry_delays=(0.05,))
    app = ParlourApp(elsewhere)
    try:
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
            await pilot.press("m")
            mine = await my_games(pilot, app)
            now = time.time()
            me = player_id(str(player.key))
            rows = table_rows(mine.query_one("#playing", DataTable))
            assert [row[:2] for row in rows] == [
                row[:2] for row in (playing_row(room, now) for room in reply.playing)
            ]
            # Whether it waits on her move has changed since, if the computers moved.
            assert [row[2] in ("playing", "your turn") for row in rows] == [True]
            done = table_rows(mine.query_one("#finished", DataTable))
            expected = finished_row(reply.finished[0], me, now)
            assert [row[2:] for row in done] == [expected[2:]]
            outcome = reply.finished[0]["seats"][0]
            change = outcome["rating"]["after"] - outcome["rating"]["before"]
            assert str(abs(change)) in done[0][3] and done[0][3].startswith(
                str(outcome["rating"]["before"])
            )
            # Enter on the finished game replays it.
            mine.query_one("#finished", DataTable).focus()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "it replayed")
            replay = app.screen
            assert isinstance(replay, ReplayScreen)
            assert replay.replay.last == reply.finished[0]["moves"]
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back to the lobby")
            # Enter on the room in play goes back to the seat.
            await pilot.press("m")
            again = await my_games(pilot, app)
            again.query_one("#playing", DataTable).focus()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, RoomScreen), "back in the room")
            room = screen_of(app).room
            assert room.room_id == playing.room_id and room.playing == ["blue"]
    finally:
        await elsewhere.close()


async def test_a_guest_is_told_why_there_are_no_games_of_their_own(url: str) -> None:
    guest = await Connection.open(url, "gus")
    app = ParlourApp(guest)
    try:
        async with app.run_test(size=SCREEN) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby showed")
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, MyGamesScreen), "it opened")
            status = app.screen.query_one("#games-status")
            await until(pilot, lambda: "guest" in str(status.render()), "it said why")
    finally:
        await guest.close()


async def test_the_commands_print_the_leaderboard_and_my_games(
    url: str,
    player: Connection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["key", "import", str(player.key), "--yes"]) == 0
    room = await rated_room(player)
    await play_out(player, room.ref)
    capsys.readouterr()
    server = ["--server", url.removeprefix("ws://").removesuffix("/ws"), "--name", "ann"]
    # Each command runs its own event loop, so in a thread of its own.
    assert await asyncio.to_thread(main, ["leaderboard", "tribolo", *server]) == 0
    board = capsys.readouterr().out
    assert await asyncio.to_thread(main, ["mine", *server]) == 0
    mine = capsys.readouterr().out
    reply = await player.request(m.Leaderboard(game="tribolo"))
    games = await player.request(m.MyGames())
    assert isinstance(reply, m.LeaderboardReply) and isinstance(games, m.MyGamesReply)
    me = player_id(str(player.key))
    assert board.strip() == leaderboard_text(reply, me)
    assert "(computer)" in board and "(you)" in board
    assert my_games_text(games, me, time.time(), " ".join(server[:2])) in mine
    assert f"replay --record RECORD {' '.join(server[:2])} steps" in mine
    assert f"record {games.finished[0]['record']}" in mine and "won" in mine
    live = ["leaderboard", "tribolo", "--speed", "live", *server]
    assert await asyncio.to_thread(main, live) == 0
    live_board = capsys.readouterr().out
    assert "(you)" not in live_board, "a game without a clock rates nobody's live rating"
    assert live_board.startswith("Leaderboard: Tribolo, live games")


async def test_the_commands_that_only_look_say_hello_with_the_name_played_under(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    key = new_key()
    assert main(["key", "import", key, "--yes"]) == 0
    bob = await Connection.open(url, "Bob", key=key)
    welcomed(bob)  # as `parlour host` and `parlour join` do
    await bob.close()
    assert NameFile().read() == "Bob"
    capsys.readouterr()
    server = ["--server", url.removeprefix("ws://").removesuffix("/ws")]
    for command in (["mine"], ["leaderboard", "othello"]):
        assert await asyncio.to_thread(main, [*command, *server]) == 0
    assert "as Bob:" in capsys.readouterr().out
    NameFile().path.unlink()
    assert await asyncio.to_thread(main, ["mine", *server]) == 0
    assert "as root:" in capsys.readouterr().out, "with no name kept, the login name"


async def test_the_end_names_the_winner_and_f9_plays_again_one_seat_on(
    player: Connection,
) -> None:
    room = await rated_room(player)
    app = ParlourApp(player, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = screen_of(app)
        await play_out(player, room.ref)
        await until(pilot, lambda: screen.room.status == "finished", "the game ended")
        result = screen.room.result()
        winners = screen.room.observation["winners"]  # type: ignore[index]
        if winners != ["blue"]:
            assert "the computer (" in result or "a draw" in result, result
        await until(pilot, lambda: result in log_text(screen), "the log said who won")
        assert "F9 plays again" in log_text(screen)
        if winners == ["blue"]:
            await until(pilot, lambda: isinstance(app.screen, InitialsScreen), "initials asked")
            await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the board")
        played = screen.room.version
        await pilot.press("f9")
        # A tiny board: the rematch may be over as soon as it began.
        await until(pilot, lambda: screen.room.version > played, "the rematch began")
        assert screen.room.playing == ["red"], "ann moved one seat on"
        holders = {seat["colour"]: seat["holder"] for seat in screen.room.seats}
        assert holders["blue"]["kind"] == "bot" and holders["red"]["name"] == "ann"
