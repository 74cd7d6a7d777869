"""Replays in the terminal (protocol.md 2.10 `replay`): at every ply the board the rules
give, drawn by the room's own board widgets with the changed cells lit; the charts of the
scores and chances with a cursor at the ply; keys, clicks on a chart and on the move list;
a replay from a room at game over, from a game file (`parlour replay FILE`), and 80x24."""

import asyncio
import random
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static

from parlour.cli import main
from parlour.client.connection import Connection
from parlour.client.terminal.app import ParlourApp
from parlour.client.terminal.boards import board_for
from parlour.client.terminal.boards.base import Marks
from parlour.client.terminal.charts import PlyChart, canvas_of, ply_at_column, ply_ticks
from parlour.client.terminal.charts import rgb as chart_rgb
from parlour.client.terminal.replay import (
    MoveList,
    ReplayApp,
    ReplayBoard,
    ReplayScreen,
    ask_replay,
)
from parlour.client.terminal.replaymodel import thousandths
from parlour.players import replay_here
from parlour.protocol import messages as m
from parlour.protocol.players import new_key
from parlour.rules import GAMES, State, get_game
from parlour.rules.gamefile import game_file, parse_game_file

from .test_app import SCREEN, until
from .test_players import play_out, rated_room

SMALL = (80, 24)


@pytest.fixture
async def player(url: str) -> AsyncIterator[Connection]:
    opened = await Connection.open(url, "ann", key=new_key(), retry_delays=(0.05,))
    yield opened
    await opened.close()


def random_game_file(game: str, plies: int, seed: int = 5, **options: Any) -> str:
    """A game of `game` played at random by the rules, `plies` moves or to its end."""
    rules = get_game(game)
    chosen = rules.resolve_options(options)
    state = rules.new(chosen, seed=seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while not state.is_over and len(moves) < plies:
        move = rng.choice(state.legal_moves())
        moves.append(state.format_move(move))
        state = state.play(move)
    return game_file(rules, chosen, seed, moves).text()


def states_of(text: str) -> list[State[Any]]:
    """The position after every move of a game file, by the rules."""
    parsed = parse_game_file(text)
    states = [parsed.start()]
    for move in parsed.moves:
        states.append(states[-1].play_text(move))
    return states


def replay_screen(app: Any) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


def charts(screen: ReplayScreen) -> tuple[PlyChart, PlyChart]:
    return screen.query_one("#score-chart", PlyChart), screen.query_one("#eval-chart", PlyChart)


def check_ply(screen: ReplayScreen, ply: int, state: State[Any]) -> None:
    """The screen at `ply` shows the board the rules give, drawn as the board widget draws
    that position with the move's cells lit, and the charts' cursor at the ply."""
    frame = screen.replay.frames[ply]
    view = screen.query_one(ReplayBoard)
    observation = state.observation(None)
    assert view.board is not None and view.board.observation == observation, f"ply {ply}"
    drawn = board_for(observation, compact=view.compact)
    marks = Marks(changed=frozenset(frame.changed))
    assert view.render().plain == drawn.render(marks).plain, f"ply {ply}"
    assert view.marks.changed == frozenset(frame.changed)
    assert (frame.move is None) == (ply == 0)
    if frame.move is not None:
        assert frame.changed, f"move {ply} changed nothing"
        assert frame.mover == state.game.seats[states_mover(screen, ply)]
    score, chances = charts(screen)
    assert score.data is not None and chances.data is not None
    assert score.data.cursor == chances.data.cursor == ply
    if not screen.replay.racing:
        for seat, colour in enumerate(screen.replay.seats):
            assert score.data.series[colour][ply] == state.scores()[seat]
    moves = screen.query_one(MoveList)
    assert moves.highlighted == ply


def states_mover(screen: ReplayScreen, ply: int) -> int:
    """The seat that moved into `ply`, by the state before it."""
    before = screen.replay.frames[ply - 1].state
    return list(screen.replay.seats).index(str(before["to_move"]))


async def step_through(pilot: Pilot[None], screen: ReplayScreen, states: list[Any]) -> None:
    """Home, then Right to the end: every ply as the rules give it."""
    assert screen.replay.last == len(states) - 1
    await pilot.press("home")
    await until(pilot, lambda: screen.ply == 0, "the start")
    for ply, state in enumerate(states):
        if ply:
            await pilot.press("right")
            await until(pilot, lambda ply=ply: screen.ply == ply, f"ply {ply}")  # type: ignore[misc]
        check_ply(screen, ply, state)
    await pilot.press("right")
    assert screen.ply == len(states) - 1, "Right went past the end"


async def click_chart(pilot: Pilot[None], chart: PlyChart, ply: int) -> None:
    """Click a chart at the column where `ply` is drawn."""
    assert chart.data is not None
    start, width = chart.canvas
    assert width > 0, "the chart has no canvas"
    last = max(1, chart.data.last)
    column = start + int(0.5 + (width - 1) * ply / last)
    await pilot.click(chart, offset=(column, chart.size.height // 2))


def test_a_click_maps_back_to_the_ply_plotext_draws_there() -> None:
    for last, width in ((1, 30), (9, 30), (30, 30), (200, 41), (7, 1)):
        for ply in range(last + 1):
            column = 4 + int(0.5 + (width - 1) * ply / last)
            found = ply_at_column(column, 4, width, last)
            assert found is not None
            assert abs(found - ply) * (width - 1) <= last, (last, width, ply, found)
        assert ply_at_column(3, 4, width, last) is None
        assert ply_at_column(4 + width, 4, width, last) is None
    drawing = "  title\n 9┤  │\n  └───┘\n   0  9"
    assert canvas_of(drawing) == (3, 3)
    assert canvas_of("no frame") == (0, 0)
    assert ply_ticks(0) == [0] and ply_ticks(9) == [0, 5] and ply_ticks(128)[-1] == 100


def test_shares_are_read_in_thousandths_or_as_fractions() -> None:
    assert [thousandths(value) for value in (0, 392, 1000, 0.5, 1.0, "x", None)] == [
        0,
        392,
        1000,
        500,
        1000,
        None,
        None,
    ]


async def test_a_finished_tribolo_game_replays_as_the_rules_give_it_with_charts(
    player: Connection,
) -> None:
    room = await rated_room(player)
    await play_out(player, room.ref)
    room.apply(await player.request(m.GetRoom(room=room.ref)))
    exported = await player.request(m.ExportGame(room=room.ref))
    assert isinstance(exported, m.GameFileText)
    states = states_of(exported.text)
    app = ParlourApp(player, room)
    async with app.run_test(size=SCREEN) as pilot:
        await pilot.press("f8")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay opened")
        screen = replay_screen(app)
        assert screen.ply == screen.replay.last, "a replay opens at the end"
        assert screen.replay.judged and screen.replay.over
        await step_through(pilot, screen, states)
        # A click on either chart goes to the ply under the mouse.
        score, chances = charts(screen)
        for chart, ply in ((score, 2), (chances, screen.replay.last - 1), (score, 0)):
            await click_chart(pilot, chart, ply)
            await until(pilot, lambda ply=ply: screen.ply == ply, f"the click reached {ply}")  # type: ignore[misc]
            check_ply(screen, ply, states[ply])
        # A click on the move list goes to that move.
        await pilot.pause()
        moves = screen.query_one(MoveList)
        await pilot.click(MoveList, offset=(4, 1 + 3 - int(moves.scroll_y)))
        await until(pilot, lambda: screen.ply == 3, "the list's move")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ReplayScreen), "back to the room")


async def test_replay_is_offered_in_a_room_once_the_game_is_over(player: Connection) -> None:
    room = await rated_room(player)
    app = ParlourApp(player, room)
    async with app.run_test(size=SCREEN) as pilot:
        screen = app.screen
        assert screen.check_action("replay", ()) is False
        await play_out(player, room.ref)
        await until(pilot, lambda: screen.check_action("replay", ()) is True, "it was offered")


async def test_an_oubliette_game_file_replays_as_the_rules_give_it(player: Connection) -> None:
    text = random_game_file("oubliette", 14, seed=11, eject=1)
    states = states_of(text)
    replay = await ask_replay(player, m.Replay(text=text))
    app = ReplayApp(replay)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay opened")
        screen = replay_screen(app)
        await step_through(pilot, screen, states)
        # Digits typed together go to that move; W to the next worst move.
        await pilot.press("home", "1", "2")
        await until(pilot, lambda: screen.ply == 12, "move 12")
        check_ply(screen, 12, states[12])
        worst = screen.replay.next_worst(12)
        if worst is not None:
            await pilot.press("w")
            await until(pilot, lambda: screen.ply == worst, "the next worst move")
        await pilot.press("end")
        await until(pilot, lambda: screen.ply == len(states) - 1, "the end")
        await click_chart(pilot, charts(screen)[1], 7)
        await until(pilot, lambda: screen.ply == 7, "the click reached 7")


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_replay_screen_fits_80_by_24_for_every_game(
    player: Connection, game: str
) -> None:
    text = random_game_file(game, 30, seed=2)
    replay = await ask_replay(player, m.Replay(text=text))
    app = ReplayApp(replay)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay opened")
        screen = replay_screen(app)
        await pilot.press("left")
        await pilot.pause()
        screen_region = screen.region
        board = screen.query_one(ReplayBoard)
        assert board.board is not None
        width, height = board.board.size()
        assert screen_region.contains_region(board.region), f"{game}: the board is cut"
        assert (board.region.width, board.region.height) == (width, height), game
        now = screen.query_one("#replay-now", Static)
        assert now.region.height > 0 and screen_region.contains_region(now.region)
        for chart in charts(screen):
            assert screen_region.contains_region(chart.region), f"{game}: a chart is cut"
            assert not chart.region.overlaps(board.region), f"{game}: a chart is on the board"
            assert chart.size.height >= 5 and chart.canvas[1] >= 20, f"{game}: {chart.size}"
        await click_chart(pilot, charts(screen)[0], 10)
        await until(pilot, lambda: screen.ply == 10, f"{game}: the click reached 10")
        # G shows the charts large, and the board again.
        await pilot.press("g")
        await pilot.pause()
        assert screen.arranged == "charts" and not board.display
        assert all(chart.size.height >= 8 for chart in charts(screen))
        await pilot.press("g")
        await pilot.pause()
        assert screen.arranged != "charts" and board.display


async def test_parlour_replay_of_a_file_needs_no_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`parlour replay FILE` builds the replay here: with --server at a port that refuses
    every connection, it opens, and every move steps through as the rules give it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = tmp_path / "game.txt"
    text = random_game_file("othello", 10, seed=4)
    path.write_text(text)
    states = states_of(text)
    shown: list[tuple[str, int]] = []

    async def run_async(self: ReplayApp, **_: Any) -> None:
        async with self.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(self.screen, ReplayScreen), "it opened")
            await step_through(pilot, replay_screen(self), states)
            shown.append((self.replay.game, self.replay.last))
            await pilot.press("escape")

    monkeypatch.setattr(ReplayApp, "run_async", run_async)
    with socket.socket() as refusing:
        refusing.bind(("127.0.0.1", 0))
        server = f"127.0.0.1:{refusing.getsockname()[1]}"
        assert await asyncio.to_thread(main, ["replay", str(path), "--server", server]) == 0
        assert shown == [("othello", 10)]
        assert await asyncio.to_thread(main, ["replay", str(path)]) == 0
        assert len(shown) == 2
        path.write_text('[Game "tribolo"]\n\n1. blue z99\n')
        assert await asyncio.to_thread(main, ["replay", str(path), "--server", server]) == 2
    assert "cannot replay that game" in capsys.readouterr().err


async def test_each_seats_name_follows_a_stroke_of_its_chart_line() -> None:
    """Black's line is drawn grey on the charts' dark background: the words under the move
    show each seat's stroke before its name, in the charts' own colours."""
    replay = replay_here(random_game_file("othello", 12, seed=3))
    app = ReplayApp(replay)
    async with app.run_test(size=SCREEN) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay opened")
        now = replay_screen(app).query_one("#replay-now", Static).content
        assert isinstance(now, Text)
        strokes = [
            (now.plain[span.end + 1 : span.end + 6].strip(), span.style)
            for span in now.spans
            if now.plain[span.start : span.end] == "━━"
        ]
        assert [seat for seat, _ in strokes] == ["Black", "White"]
        for seat, style in strokes:
            assert isinstance(style, Style) and style.color is not None
            assert style.color.triplet is not None
            assert tuple(style.color.triplet) == chart_rgb(seat.lower())
