"""Replays: frames that match the rules move by move and a spectator's room view, the cells
each move changed, judgements on one scale, and the worst moves marked."""

import json
import math
import random
from dataclasses import replace
from typing import Any

import msgpack
import pytest

from parlour.bots.thinking import Deadline
from parlour.bots.tripppin_solver import Solution, Solver, position_index
from parlour.protocol import messages as m
from parlour.rules import GAMES, JsonValue, State
from parlour.rules.gamefile import GameFile, SeatChange, game_file, parse_game_file
from parlour.rules.tripppin import TripppinState
from parlour.server.replays import WORST_LOSS, WORST_PER_SEAT, Replay, replay_of
from parlour.server.room import Room, Seat

OTHELLO_CORNER = "WB.BBW../.WBWWW../..WBWWBB/...WWW../BBWBWBBB/.W.WWBB./W..BWW../...B.W.. B"
"""Black to move in a game between the bots: g7 hands white the h8 corner, c1 is quiet."""
OUBLIETTE_FIVE_ALL = (
    "....G/....../......./..G...../.RR.*..../......../......./....../....R G 5:5 9 6"
)
"""Five ejections each, the sixth wins: green's f4 se steps in front of red's e2-e3, which
can push it into the hole on e5; i9 w is safe."""
OUBLIETTE_PUSH_TWO = (
    "...../....../......./......../....GGGRR/......../......./....../R.... G 0:0 3 6"
)
"""Green's e5-e7 e pushes red's e8 and e9 east: the piece on e9 goes off the board."""


def played(name: str, seed: int, limit: int | None = None, *, best: bool = False) -> GameFile:
    """A game from board `seed` with seeded random moves (among the "Best" hint's if
    `best`), to its end or `limit` moves, read back from its file's text."""
    game = GAMES[name]
    options = game.resolve_options()
    state = game.new(options, seed)
    rng = random.Random(seed)
    moves: list[str] = []
    while not state.is_over and (limit is None or len(moves) < limit):
        move = rng.choice(state.best_moves() if best else state.legal_moves())
        moves.append(state.format_move(move))
        state = state.play(move)
    return parse_game_file(game_file(game, options, seed, moves).text())


def from_position(name: str, position: str, moves: list[str]) -> GameFile:
    """A game file starting from `position`, read back from its text."""
    game = GAMES[name]
    return parse_game_file(game_file(game, game.resolve_options(), position, moves).text())


def spectator_state(parsed: GameFile, state: State[Any]) -> JsonValue:
    """The `state` a room at this position shows a spectator in its view."""
    room = Room(
        id="r1",
        code=None,
        game=parsed.game,
        options=dict(parsed.options),
        board=parsed.board or 0,
        public=True,
        host_name="Ann",
        host_token="token",
        host_conn=None,
        standin_after=60,
        bot_think_ms=1000,
        initial=parsed.start(),
        seats=[Seat(colour) for colour in parsed.game.seats],
        position=parsed.position,
        state=state,
    )
    shown: JsonValue = room.view(None)["state"]
    return shown


def states_of(parsed: GameFile) -> list[State[Any]]:
    """The start and the position after each move, played by the rules."""
    states = [parsed.start()]
    for move in parsed.moves:
        states.append(states[-1].play_text(move))
    return states


def check_frames(parsed: GameFile, replay: Replay) -> None:
    """What every replay must be: a frame a position, each as a spectator's room shows it,
    with who moved, the scores, and shares of the win that sum to 1."""
    states = states_of(parsed)
    seats = parsed.game.seats
    assert replay.game == parsed.game.name
    assert replay.seats == seats
    assert len(replay.frames) == len(states)
    assert replay.evaluator
    for ply, (frame, state) in enumerate(zip(replay.frames, states, strict=True)):
        assert frame.ply == ply
        assert frame.state == spectator_state(parsed, state)
        assert frame.scores == state.scores()
        assert frame.evaluation is not None
        assert len(frame.evaluation) == len(seats)
        assert all(0 <= share <= 1 for share in frame.evaluation)
        assert math.isclose(sum(frame.evaluation), 1)
        if ply == 0:
            assert (frame.move, frame.mover, frame.changed) == (None, None, ())
        else:
            assert frame.move == parsed.moves[ply - 1]
            assert frame.mover == seats[states[ply - 1].to_move]
            assert frame.changed
    last = states[-1]
    assert replay.over == last.is_over
    assert replay.winners == tuple(seats[seat] for seat in last.winners())
    assert replay.scores == last.scores()
    if last.is_over:
        winners = last.winners()
        assert replay.frames[-1].evaluation == tuple(
            1 / len(winners) if seat in winners else 0 for seat in range(len(seats))
        )
    check_worst(replay)


def check_worst(replay: Replay) -> None:
    """The worst moves follow the rule: each lost its mover at least WORST_LOSS, at most
    WORST_PER_SEAT a seat and its largest losses, in move order, none of them forced."""
    losses: dict[str, list[tuple[int, float]]] = {colour: [] for colour in replay.seats}
    for before, after in zip(replay.frames, replay.frames[1:], strict=False):
        assert before.evaluation is not None and after.evaluation is not None
        assert after.mover is not None
        legal = before.state["legal_moves"]
        assert isinstance(legal, list)
        if len(legal) == 1:
            assert after.ply not in [slip.ply for slip in replay.worst]
            continue
        seat = replay.seats.index(after.mover)
        losses[after.mover].append((after.ply, before.evaluation[seat] - after.evaluation[seat]))
    marked = [(slip.ply, slip.colour) for slip in replay.worst]
    assert marked == sorted(marked)
    for colour, found in losses.items():
        big = sorted((loss for _, loss in found if loss >= WORST_LOSS), reverse=True)
        mine = [slip for slip in replay.worst if slip.colour == colour]
        assert len(mine) == min(len(big), WORST_PER_SEAT)
        assert sorted((slip.loss for slip in mine), reverse=True) == big[:WORST_PER_SEAT]
        assert all(dict(found)[slip.ply] == slip.loss for slip in mine)


def square_order(parsed: GameFile, names: tuple[str, ...]) -> list[int]:
    """A flank game's square numbers of these square names."""
    state = parsed.start()
    return [state.parse_move(name) for name in names]


def test_a_full_tribolo_game_replays_frame_by_frame() -> None:
    parsed = played("tribolo", 3)
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    assert replay.over
    assert len(replay.frames) > 100


def test_a_flank_move_changes_exactly_the_square_played_and_the_flips() -> None:
    parsed = played("tribolo", 3)
    for frame in replay_of(parsed).frames[1:]:
        state = frame.state
        assert isinstance(state["flipped"], list)
        assert state["last_move"] == frame.move
        assert set(frame.changed) == {frame.move, *state["flipped"]}
        assert len(frame.changed) == 1 + len(state["flipped"])
        order = square_order(parsed, frame.changed)
        assert order == sorted(order)
        assert frame.ejected == ()


def test_a_seat_passed_over_changes_nothing_and_does_not_move() -> None:
    parsed = played("tribolo", 3)
    frames = replay_of(parsed).frames
    passing = [frame for frame in frames if frame.state["passed"]]
    assert passing, "board 3's random game passes somebody over"
    for frame in passing:
        assert isinstance(frame.state["flipped"], list)
        assert set(frame.changed) == {frame.move, *frame.state["flipped"]}
        if frame.ply < len(frames) - 1:
            following = frames[frame.ply + 1]
            passed = frame.state["passed"]
            assert isinstance(passed, list)
            assert following.mover == frame.state["to_move"]
            assert following.mover not in passed


def test_a_full_oubliette_game_replays_with_its_ejections() -> None:
    parsed = played("oubliette", 0, best=True)
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    assert replay.over
    ejections = 0
    for before, after in zip(replay.frames, replay.frames[1:], strict=False):
        was, now = owners(before.state), owners(after.state)
        moved = {cell for cell in was.keys() | now.keys() if was.get(cell) != now.get(cell)}
        assert set(after.changed) == moved | set(after.ejected)
        assert bool(after.ejected) == after.state["last_ejected"]
        ejections += len(after.ejected)
    assert ejections == sum(replay.scores) > 0


def owners(state: dict[str, JsonValue]) -> dict[str, str]:
    """The colour of the piece on each occupied cell, from an Oubliette observation."""
    pieces = state["pieces"]
    assert isinstance(pieces, dict)
    found: dict[str, str] = {}
    for colour, cells in pieces.items():
        assert isinstance(cells, list)
        found |= {str(cell): colour for cell in cells}
    return found


def test_an_oubliette_push_that_ejects_shows_the_cell_it_left() -> None:
    parsed = from_position("oubliette", OUBLIETTE_PUSH_TWO, ["e5-e7 e"])
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    pushed = replay.frames[1]
    assert pushed.ejected == ("e9",)
    assert pushed.changed == ("e5", "e8", "e9")
    assert pushed.scores == (1, 0)
    assert pushed.state["pieces"] == {"green": ["e6", "e7", "e8"], "red": ["a1", "e9"]}


def test_an_oubliette_move_that_allows_the_winning_ejection_is_marked() -> None:
    parsed = from_position("oubliette", OUBLIETTE_FIVE_ALL, ["f4 se", "e2-e3 e"])
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    assert [(slip.ply, slip.colour) for slip in replay.worst] == [(1, "green")]
    assert replay.worst[0].loss > 0.4
    into_the_hole = replay.frames[2]
    assert into_the_hole.ejected == ("e4",)
    assert into_the_hole.changed == ("e2", "e4")
    assert replay.winners == ("red",)
    safe = replay_of(from_position("oubliette", OUBLIETTE_FIVE_ALL, ["i9 w"]))
    assert safe.worst == ()


def test_an_othello_move_giving_up_a_corner_is_marked() -> None:
    parsed = from_position("othello", OTHELLO_CORNER, ["g7"])
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    legal = replay.frames[1].state["legal_moves"]
    assert isinstance(legal, list) and "h8" in legal
    assert [(slip.ply, slip.colour) for slip in replay.worst] == [(1, "black")]
    quiet = replay_of(from_position("othello", OTHELLO_CORNER, ["c1"]))
    assert quiet.worst == ()


def thrown_win(seed: int, solution: Solution) -> GameFile | None:
    """A random Tripppin game on board `seed` up to the first time the mover could force
    a win, then a move that lets it go; None if no such moment comes."""
    game = GAMES["tripppin"]
    state = game.new(seed=seed)
    assert isinstance(state, TripppinState)
    rng = random.Random(seed)
    moves: list[str] = []
    while not state.is_over:
        if solution.wins(position_index(state.to_move, state.pieces, state.progress)):
            for move in state.legal_moves():
                child = state.play(move)
                index = position_index(child.to_move, child.pieces, child.progress)
                if not child.is_over and not solution.loses(index):
                    moves.append(state.format_move(move))
                    return parse_game_file(game_file(game, {}, seed, moves).text())
        move = rng.choice(state.legal_moves())
        moves.append(state.format_move(move))
        state = state.play(move)
    return None


def test_a_tripppin_move_that_throws_away_a_forced_win_is_marked() -> None:
    for seed in range(10):
        start = GAMES["tripppin"].new(seed=seed)
        assert isinstance(start, TripppinState)
        parsed = thrown_win(seed, Solver(start.tiles).solve(Deadline(math.inf)))
        if parsed is None:
            continue
        replay = replay_of(parsed)
        check_frames(parsed, replay)
        last = replay.frames[-1]
        assert last.mover is not None
        assert (last.ply, last.mover) in [(slip.ply, slip.colour) for slip in replay.worst]
        assert replay.worst[-1].loss >= 0.5
        return
    pytest.fail("no random game on boards 0-9 came to a forced win")


def test_a_game_from_a_position_replays() -> None:
    game = GAMES["tribolo"]
    middle = played("tribolo", 8, 40).replay().format_position()
    start = game.parse_position(middle)
    rng = random.Random(8)
    moves = []
    state = start
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(state.format_move(move))
        state = state.play(move)
    parsed = from_position("tribolo", middle, moves)
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    assert replay.frames[0].state["position"] == middle


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_game_replays_a_short_random_game(name: str, seed: int) -> None:
    parsed = played(name, seed, 16)
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    assert not replay.over or len(parsed.moves) < 16


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_replays_a_whole_game_to_its_result(name: str) -> None:
    parsed = played(name, 4, 400, best=True)
    replay = replay_of(parsed)
    check_frames(parsed, replay)


def test_a_game_with_no_moves_is_its_start() -> None:
    parsed = played("numlo", 6, 0)
    replay = replay_of(parsed)
    check_frames(parsed, replay)
    assert len(replay.frames) == 1
    assert (replay.worst, replay.over, replay.winners) == ((), False, ())


def test_a_replay_is_plain_data_with_the_seat_changes() -> None:
    parsed = replace(
        played("othello", 5, 10),
        seat_changes=(SeatChange(3, "white", "computer (hard)"),),
    )
    data = replay_of(parsed).describe()
    assert json.loads(json.dumps(data)) == data
    assert msgpack.unpackb(msgpack.packb(data)) == data
    assert set(data) == {
        "game",
        "seats",
        "names",
        "frames",
        "evaluator",
        "worst",
        "result",
        "seat_changes",
    }
    assert m.ReplayReply.from_wire({"type": "replay"} | data).game == "othello"
    assert data["seat_changes"] == [{"after": 3, "seat": "white", "holder": "computer (hard)"}]
    scores = list(parsed.replay().scores())
    assert data["result"] == {"over": False, "winners": [], "scores": scores}
    frames = data["frames"]
    assert isinstance(frames, list) and len(frames) == 11
    assert all(isinstance(frame, dict) for frame in frames)
    assert {key for frame in frames if isinstance(frame, dict) for key in frame} == {
        "ply",
        "move",
        "mover",
        "state",
        "changed",
        "ejected",
        "scores",
        "evaluation",
    }
