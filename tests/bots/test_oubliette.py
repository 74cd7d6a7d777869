"""Oubliette's bot levels: legal and timely play, sound thoughts, tactics, and a search
that agrees with plain minimax."""

import random
from typing import Any

import pytest

from parlour.bots.oubliette import LEVELS, judge
from parlour.bots.oubliette_eval import ejectable, tables
from parlour.bots.oubliette_search import INFINITY, Search, children, play_key
from parlour.bots.thinking import WIN, Thought
from parlour.rules import RulesError, get_game
from parlour.rules.hexgrid import BOARD, CELL_BITS
from parlour.rules.oubliette import OUBLIETTE, OublietteMove, OublietteState, _outcomes
from tests.bots.conftest import SteppingClock

from ..rules.test_oubliette import position

BOARDS = ("oubliette", "abalone", "belgian-daisy")


def thoughts(
    level: int, state: OublietteState, budget: float, seed: int = 0
) -> list[Thought[Any]]:
    """Every thought a level has about `state` in `budget` seconds."""
    return list(LEVELS[level].think(state, budget, random.Random(seed)))


def chosen(level: int, state: OublietteState, budget: float, seed: int = 0) -> OublietteMove:
    """The move a level plays: its last thought's."""
    move: OublietteMove = thoughts(level, state, budget, seed)[-1].move
    return move


def midgame(board: str, plies: int, seed: int) -> OublietteState:
    """A position some random plies into a game on `board`."""
    rng = random.Random(seed)
    state = OUBLIETTE.new({"board": board})
    for _ in range(plies):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_the_levels_are_zero_to_six_weakest_first() -> None:
    assert [level.name for level in LEVELS] == [str(n) for n in range(7)]
    assert all(level.summary for level in LEVELS)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("level", range(7))
def test_every_level_plays_legal_moves_in_time(
    board: str, level: int, search_clock: SteppingClock
) -> None:
    state = OUBLIETTE.new({"board": board})
    budget = 0.05
    for seed in range(4):
        started = search_clock.now
        move = chosen(level, state, budget, seed)
        assert search_clock.now - started <= budget + 5 * search_clock.step
        assert move in state.legal_moves()
        state = state.play(move)


@pytest.mark.parametrize("level", [0, 1, 2])
def test_a_seed_repeats_a_move(level: int) -> None:
    state = midgame("oubliette", 10, seed=3)
    moves = {chosen(level, state, 5.0, seed=42) for _ in range(3)}
    assert len(moves) == 1


def test_level_zero_varies_with_the_seed() -> None:
    state = OUBLIETTE.new()
    assert len({chosen(0, state, 1.0, seed) for seed in range(12)}) > 1


@pytest.mark.parametrize("level", [0, 3, 6])
def test_thoughts_deepen_and_each_line_is_playable(
    level: int, search_clock: SteppingClock
) -> None:
    state = midgame("belgian-daisy", 8, seed=level)
    started = search_clock.now
    found = LEVELS[level].think(state, 0.4, random.Random(1))
    first = next(found)
    assert search_clock.now - started <= 5 * search_clock.step, "a first thought at once"
    told = [first, *found]
    assert [t.depth for t in told] == sorted(t.depth for t in told)
    assert told[-1].depth >= 1
    for thought in told:
        assert thought.line[0] == thought.move
        after = state
        for move in thought.line:
            assert move in after.legal_moves()
            after = after.play(move)


def test_a_finished_game_and_another_game_are_refused() -> None:
    finished = position("e7 e8 a1", "e9 i5", ejected="5:0").play_text("e7-e8 e")
    with pytest.raises(RulesError, match="over"):
        thoughts(3, finished, 0.1)
    with pytest.raises(TypeError, match="Othello"):
        list(LEVELS[3].think(get_game("othello").new(), 0.1, random.Random(0)))


def test_level_zero_takes_the_winning_ejection() -> None:
    # Pushing e9 off the board with e7-e8 is the sixth ejection.
    state = position("e7 e8 a1 a2", "e9 i5 i6", ejected="5:0")
    move = chosen(0, state, 1.0)
    assert state.play(move).winners() == (0,)
    assert thoughts(0, state, 1.0)[-1].score == WIN - 1


def red_wins_next(state: OublietteState) -> bool:
    """Whether red, to move, has an ejection that wins the game."""
    return any(state.play(move).winners() == (1,) for move in state.legal_moves())


@pytest.mark.parametrize("level", range(1, 7))
def test_every_searching_level_guards_the_piece_that_would_lose(level: int) -> None:
    # Red has five; c3-b3 pushes a3 off the bottom edge unless green moves it or blocks.
    state = position("a3 e4 e5 f6 g7", "c3 b3 i5 i6 h4", ejected="0:5")
    assert red_wins_next(state.play(state.parse_move("g7 e")))
    move = chosen(level, state, 0.3)
    assert not red_wins_next(state.play(move))


def test_a_search_finds_a_forced_win_and_says_so() -> None:
    # Green needs two more: e7-e8 pushes e9 off, c3-b3 pushes a3 off, and red's a3 is
    # hemmed in, so whichever red saves, green ejects the other on the third ply.
    state = position("e7 e8 a2 a4 b4 b3 c3", "e9 a3 i5", ejected="4:0")
    told = thoughts(4, state, 2.0)
    assert told[-1].score == WIN - 3
    assert state.play(told[-1].move).ejected == (5, 0)


@pytest.mark.parametrize("level", [1, 3, 6])
def test_the_last_ply_before_the_limit_is_a_draw_unless_it_wins(level: int) -> None:
    drawn = position("e7 e8 a1 a2", "e9 i5 i6", ejected="4:0", ply=9, max_plies=10)
    assert thoughts(level, drawn, 0.3)[-1].score == 0
    won = position("e7 e8 a1 a2", "e9 i5 i6", ejected="5:0", ply=9, max_plies=10)
    move = chosen(level, won, 0.3)
    assert won.play(move).winners() == (0,)


def mirrored(state: OublietteState) -> OublietteState:
    """The position reflected left to right, which the hexagon maps onto itself."""
    board, *rest = state.format_position().split()
    rows = "/".join(row[::-1] for row in board.split("/"))
    return OUBLIETTE.parse_position(" ".join([rows, *rest]))


def turned_and_swapped(state: OublietteState) -> OublietteState:
    """The position turned half round, colours swapped, the other side to move."""
    board, letter, ejected, *rest = state.format_position().split()
    swap = str.maketrans("GR", "RG")
    green, red = ejected.split(":")
    turned = board[::-1].translate(swap)
    return OUBLIETTE.parse_position(
        " ".join([turned, letter.translate(swap), f"{red}:{green}", *rest])
    )


@pytest.mark.parametrize(("board", "seed"), [(b, s) for b in BOARDS for s in range(4)])
def test_the_evaluation_is_symmetric(board: str, seed: int) -> None:
    state = midgame(board, 12 + seed, seed)
    score = judge(state)
    assert judge(mirrored(state)) == score
    assert judge(turned_and_swapped(state)) == score
    green_view = score if state.to_move == 0 else -score
    swapped = turned_and_swapped(state)
    assert (judge(swapped) if swapped.to_move == 0 else -judge(swapped)) == -green_view


def test_the_evaluation_prefers_ejections_then_safety() -> None:
    ahead = position("e3 e4 d4", "g5 g6", ejected="1:0")
    level = position("e3 e4 d4", "g5 g6 g7", ejected="0:0")
    assert judge(ahead) > judge(level) + 500
    threatened = position("a3 e4 e5", "c3 b3 i5")
    safe = position("a3 e4 e5", "c3 b2 i5")
    assert judge(safe) > judge(threatened)


def random_position(rng: random.Random) -> tuple[int, int, int, int, int]:
    """Scattered pieces, holes, blocks and a limit: (own, opp, holes, blocks, limit)."""
    cells = list(CELL_BITS)
    rng.shuffle(cells)
    own, opp = rng.randint(3, 18), rng.randint(3, 18)
    holes, blocks = rng.randint(0, 3), rng.randint(0, 2)
    taken = [sum(cells[:own]), sum(cells[own : own + opp])]
    rest = cells[own + opp :]
    return (
        taken[0],
        taken[1],
        sum(rest[:holes]),
        sum(rest[holes : holes + blocks]),
        rng.choice([2, 3, 4, 9]),
    )


def test_ejectable_finds_exactly_the_pieces_one_push_can_eject() -> None:
    rng = random.Random(11)
    for _ in range(400):
        own, opp, holes, blocks, limit = random_position(rng)
        expected = 0
        for found in _outcomes(own, opp, holes, blocks, limit):
            if found.ejects:
                front = opp & ~found.opp
                far = (found.pushed - 1) * found.direction
                expected |= front << far if far > 0 else front >> -far
        assert ejectable(own, opp, tables(holes, limit, 6)) == expected


def test_move_keys_replay_exactly_the_legal_moves() -> None:
    rng = random.Random(12)
    seen: list[int] = []
    for _ in range(300):
        own, opp, holes, blocks, limit = random_position(rng)
        empty = BOARD & ~(own | opp | holes | blocks)
        kids = {kid[0]: kid for kid in children(own, opp, holes, blocks, limit)}
        for key in [*kids, *rng.sample(seen, min(len(seen), 50))]:
            assert play_key(key, own, opp, empty, blocks, limit) == kids.get(key)
        seen.extend(list(kids)[:3])


def minimax(state: OublietteState, depth: int, ply: int) -> int:
    """The plain minimax value of `state` to its mover, `depth` plies deep, no pruning."""
    if max(state.ejected) >= state.layout.win:
        return ply - WIN
    if depth == 0:
        return judge(state)
    moves = state.legal_moves()
    if not moves:
        return ply - WIN
    return max(-minimax(state.play(move), depth - 1, ply + 1) for move in moves)


SMALL = [
    position("e4 e5 d4 c3", "f5 f6 g7", holes="a1"),
    position("a1 a2 b2 e5", "b3 c3 c4 i9", ejected="2:3", win=4),
    position("e7 e8 d6 c5", "e9 f8 g7 f7", ejected="3:3", win=5),
    position("c3 c4 c5 d4", "d5 e5 f5", to_move="R", limit=3),
]


@pytest.mark.parametrize("state", SMALL)
def test_exact_search_agrees_with_plain_minimax(state: OublietteState) -> None:
    mover = state.to_move
    own, opp = state.pieces[mover], state.pieces[1 - mover]
    ejected = (state.ejected[mover], state.ejected[1 - mover])
    search = Search(state.layout, ejected, 1 << 30, float("inf"), pruning=False)
    roots = search.root_children(own, opp)
    for depth in (1, 2, 3):
        expected = max(-minimax(state.play(move), depth - 1, 1) for move in state.legal_moves())
        best = -INFINITY
        for result in search.iterate(own, opp, roots, depth, {}):
            best = result.score
        assert best == expected, depth
