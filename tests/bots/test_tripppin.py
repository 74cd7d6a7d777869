"""Tripppin's computer players: legal, timely, repeatable; the solve checked against
brute force and against itself; perfect play wins what it solved as won."""

import random
import time
from collections.abc import Iterator
from itertools import pairwise

import pytest

from parlour.bots.thinking import WIN, Deadline, OutOfTime, Thought, forced_result
from parlour.bots.tripppin import CACHE, LEVELS
from parlour.bots.tripppin_perfect import (
    DrawKeeper,
    looping_starts,
    move_score,
    perfect_thought,
    position_score,
)
from parlour.bots.tripppin_search import allowed_moves, judge, plies_left
from parlour.bots.tripppin_solver import Solution, Solver, position_index
from parlour.bots.tripppin_traps import ROUNDS, trap_rank, trap_rounds
from parlour.rules.tripppin import (
    GOAL,
    GRID,
    ROUTES,
    STARTS,
    TRIPPPIN,
    TripppinState,
    deal_tiles,
)
from tests.bots.conftest import SteppingClock

BLUE, GREY = 0, 1
LEVEL = {level.name: level for level in LEVELS}
BOARD = 0
"""A board with every kind of result: won, lost and drawn positions."""


def sq(name: str) -> int:
    """The square number of `name` (a1 top left)."""
    return GRID.parse_square(name)


def solved(board: int) -> Solution:
    """The solution of board number `board`, shared with the perfect level's cache."""
    return CACHE.solve(deal_tiles(board), Deadline(30))


def thoughts(
    level: str, state: TripppinState, budget: float = 1.0, seed: int = 0
) -> list[Thought[int]]:
    """Everything `level` thinks about `state`."""
    return list(LEVEL[level].think(state, budget, random.Random(seed)))


def move_of(level: str, state: TripppinState, budget: float = 1.0, seed: int = 0) -> int:
    """The move `level` plays in `state`."""
    return thoughts(level, state, budget, seed)[-1].move


def state_at(
    board: int,
    pieces: tuple[int, int],
    progress: tuple[int, int],
    to_move: int,
    plies: int = 0,
) -> TripppinState:
    """A position on board `board`; `plies` left before the ply limit (0: none)."""
    return TripppinState(TRIPPPIN, deal_tiles(board), pieces, progress, to_move, max_plies=plies)


def random_positions(
    board: int, count: int, seed: int, progress: tuple[int, ...] = tuple(range(GOAL))
) -> Iterator[TripppinState]:
    """`count` random unfinished positions of board `board` with progress from `progress`."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        blue, grey = rng.sample(range(GRID.size), 2)
        state = state_at(
            board, (blue, grey), (rng.choice(progress), rng.choice(progress)), rng.randrange(2)
        )
        if not state.is_over:
            made += 1
            yield state


def index_of(state: TripppinState) -> int:
    """The solver's number for `state`."""
    return position_index(state.to_move, state.pieces, state.progress)


def brute_force(state: TripppinState, depth: int) -> int:
    """Minimax by the rules alone: `WIN - n` for a forced win in n plies, `n - WIN` for a
    forced loss, 0 if neither is forced within `depth` plies (or the game is drawn)."""
    if state.is_over:
        return -WIN if state.winners() == (1 - state.to_move,) else 0
    if depth == 0:
        return 0
    best = -WIN - 1
    for move in state.legal_moves():
        after = state.play(move)
        if after.winners() == (state.to_move,):
            score = WIN - 1
        else:
            reply = brute_force(after, depth - 1)
            score = 1 - reply if reply > 0 else -1 - reply if reply < 0 else 0
        best = max(best, score)
    return best


def solved_score(solution: Solution, state: TripppinState, depth: int) -> int:
    """What `brute_force` should find to `depth` plies, by the solution."""
    plies = solution.plies(index_of(state))
    if plies is None or plies > depth:
        return 0
    return WIN - plies if solution.wins(index_of(state)) else plies - WIN


# Every level


@pytest.mark.parametrize("level", ["1", "2", "5", "9", "perfect"])
def test_every_level_plays_legal_moves_to_the_end(level: str) -> None:
    state = TRIPPPIN.new({"max_plies": 40, "first": "grey"}, seed=3)
    while not state.is_over:
        start = time.monotonic()
        move = move_of(level, state, budget=0.5, seed=state.ply)
        assert time.monotonic() - start < 0.6
        assert move in state.legal_moves()
        state = state.play(move)
    assert state.ply <= 40


@pytest.mark.parametrize("level", ["1", "4", "9", "perfect"])
def test_thoughts_deepen_and_their_lines_are_legal(level: str) -> None:
    state = TRIPPPIN.new(seed=11)
    for move in (sq("e7"), sq("c7")):
        state = state.play(move) if move in state.legal_moves() else state
    found = thoughts(level, state)
    assert found
    assert [t.depth for t in found] == sorted(t.depth for t in found)
    for thought in found:
        assert thought.line[0] == thought.move
        position = state
        for move in thought.line:
            assert move in position.legal_moves()
            position = position.play(move)


@pytest.mark.parametrize("level", ["3", "9", "perfect"])
def test_a_seed_repeats_a_move(level: str) -> None:
    state = TRIPPPIN.new(seed=21)
    trap_rounds(solved(21), state.to_move, Deadline(30))
    for seed in range(3):
        moves = {move_of(level, state, 2.0, seed) for _ in range(3)}
        assert len(moves) == 1


def test_a_first_thought_comes_at_once_and_budgets_are_kept(
    search_clock: SteppingClock,
) -> None:
    state = TRIPPPIN.new(seed=987_654)  # a board no other test solves
    for level, budget in (("9", 0.01), ("perfect", 0.01), ("perfect", 0.05)):
        start = search_clock.now
        thinking = LEVEL[level].think(state, budget, random.Random(1))
        first = next(thinking)
        assert search_clock.now - start <= 5 * search_clock.step, "before any deepening"
        assert first.move in state.legal_moves()
        for _ in thinking:
            pass
        assert search_clock.now - start <= budget + 5 * search_clock.step


def test_level_one_takes_a_winning_step() -> None:
    # Blue, on the last leg of its route at c7, can step onto d8 and win.
    state = state_at(BOARD, (sq("c7"), sq("g2")), (GOAL - 1, 0), BLUE)
    assert sq("d8") in state.legal_moves()
    found = thoughts("1", state)[-1]
    assert found.move == sq("d8")
    assert forced_result(found.score) == 1


def test_level_one_takes_the_step_it_judges_best_and_level_n_looks_n_plies() -> None:
    state = TRIPPPIN.new(seed=4)
    seat = state.to_move
    judged = {
        move: -judge(1 - seat, state.pieces[1 - seat], move, state.progress[1 - seat], 0)
        for move in state.legal_moves()
    }
    assert judged[move_of("1", state)] == max(judged.values())
    assert move_of("1", state) in state.best_moves()
    for level in ("1", "2", "3"):
        assert thoughts(level, state)[-1].depth == int(level)


def test_searches_score_a_stuck_opponent_as_a_win() -> None:
    solution = solved(BOARD)
    for state in random_positions(BOARD, 400, seed=5):
        for move in state.legal_moves():
            after = state.play(move)
            if (
                after.is_over
                and after.winners() == (state.to_move,)
                and after.progress[state.to_move] != GOAL
            ):
                found = thoughts("2", state)[-1]
                assert found.score == WIN - 1
                assert move_score(state, solution, found.move) == WIN - 1
                return
    pytest.fail("no position found where a step leaves the opponent stuck")


# Loops


def test_no_level_starts_a_loop_a_third_time_when_it_has_another_move() -> None:
    state = TRIPPPIN.new(seed=3)
    cycle = _a_cycle(state)
    for move in cycle * 2:
        state = state.play(move)
    looping = state.looping_moves()
    assert looping == (cycle[0],)
    assert len(state.legal_moves()) > 1
    for level in LEVELS:
        for seed in range(3):
            assert move_of(level.name, state, 0.5, seed) not in looping


def test_only_games_that_prevent_loops_keep_the_levels_out_of_them() -> None:
    for prevent in ("yes", "no"):
        state = TRIPPPIN.new({"prevent_loops": prevent}, seed=3)
        cycle = _a_cycle(state)
        for move in cycle * 2:
            state = state.play(move)
        assert state.looping_moves() == (cycle[0],)
        assert (cycle[0] in allowed_moves(state)) == (prevent == "no")


def _a_cycle(state: TripppinState) -> list[int]:
    """Four moves that bring both pieces back where they stood, found by brute force."""
    start = state.pieces
    for first in state.legal_moves():
        one = state.play(first)
        for second in one.legal_moves():
            two = one.play(second)
            if start[state.to_move] not in two.legal_moves():
                continue
            three = two.play(start[state.to_move])
            if start[1 - state.to_move] in three.legal_moves():
                return [first, second, start[state.to_move], start[1 - state.to_move]]
    pytest.fail("no four-move cycle from this position")


def test_looping_starts_finds_what_the_rules_find() -> None:
    rng = random.Random(2)
    for board in range(4):
        state = TRIPPPIN.new(seed=board)
        while not state.is_over and state.ply < 200:
            found = looping_starts(state.recent)
            assert tuple(m for m in state.legal_moves() if m in found) == state.looping_moves()
            state = state.play(rng.choice(state.legal_moves()[:2]))


# The solve


@pytest.mark.parametrize("board", [BOARD, 7])
def test_the_solve_agrees_with_brute_force_near_the_end(board: int) -> None:
    solution = solved(board)
    decided = 0
    for state in random_positions(board, 60, seed=board, progress=(GOAL - 1,)):
        expected = solved_score(solution, state, 5)
        assert brute_force(state, 5) == expected, state.format_position()
        decided += expected != 0
    assert decided >= 5


def test_the_ply_limit_is_exact_in_the_solved_scores() -> None:
    # With a ply limit the game is finite, so brute force to the limit is exact.
    solution = solved(BOARD)
    for left in (1, 2, 4, 6):
        for state in random_positions(BOARD, 15, seed=left, progress=(GOAL - 2, GOAL - 1)):
            limited = state_at(BOARD, state.pieces, state.progress, state.to_move, left)
            expected = position_score(solution, index_of(state), left)
            assert brute_force(limited, left) == expected, limited.format_position()


def test_won_lost_and_drawn_positions_agree_with_their_moves() -> None:
    solution = solved(BOARD)
    seen = {"won": 0, "lost": 0, "drawn": 0}
    for state in random_positions(BOARD, 1500, seed=9):
        plies = solution.plies(index_of(state))
        replies = [_reply_plies(solution, state, move) for move in state.legal_moves()]
        if plies is None:
            seen["drawn"] += 1
            assert all(r is None or r[0] for r in replies)
            assert None in replies
        elif solution.wins(index_of(state)):
            seen["won"] += 1
            assert (False, plies - 1) in replies
            assert all(r is None or r[0] or r[1] >= plies - 1 for r in replies)
        else:
            seen["lost"] += 1
            assert all(r is not None and r[0] and r[1] <= plies - 1 for r in replies)
            assert (True, plies - 1) in replies
    assert min(seen.values()) >= 50


def _reply_plies(solution: Solution, state: TripppinState, move: int) -> tuple[bool, int] | None:
    """After `move`: whether the opponent wins and in how many plies, None for a draw; a
    move that finishes the route leaves the opponent lost in 0."""
    after = state.play(move)
    if after.is_over:
        return (False, 0)
    index = index_of(after)
    plies = solution.plies(index)
    return None if plies is None else (solution.wins(index), plies)


def test_a_position_nobody_can_move_in_is_lost_at_once() -> None:
    solution = solved(BOARD)
    for state in random_positions(BOARD, 3000, seed=13):
        if not state.legal_moves():
            continue
        for move in state.legal_moves():
            after = state.play(move)
            if after.is_over and not after.steps:
                assert solution.plies(index_of(after)) == 0
                assert not solution.wins(index_of(after))
                return
    pytest.fail("no position found with the mover stuck")


def test_a_solve_stopped_by_its_deadline_carries_on_to_the_same_result() -> None:
    tiles = deal_tiles(5)
    solver = Solver(tiles)
    with pytest.raises(OutOfTime):
        solver.solve(Deadline(0.0))
    resumed = None
    while resumed is None:
        try:
            resumed = solver.solve(Deadline(0.005))
        except OutOfTime:
            continue
    assert resumed.stored == Solver(tiles).solve(Deadline(30)).stored


def test_a_solve_takes_well_under_two_seconds() -> None:
    start = time.monotonic()
    Solver(deal_tiles(123)).solve(Deadline(30))
    assert time.monotonic() - start < 1.0


# Perfect play


def test_perfect_never_plays_into_a_loss_when_a_win_or_draw_exists() -> None:
    solution = solved(BOARD)
    for state in random_positions(BOARD, 200, seed=17):
        best = max(move_score(state, solution, move) for move in state.legal_moves())
        chosen = perfect_thought(state, solution, random.Random(0))
        assert move_score(state, solution, chosen.move) == best == chosen.score


def test_perfect_holds_out_longest_when_lost() -> None:
    solution = solved(BOARD)
    for state in random_positions(BOARD, 300, seed=19):
        scores = [move_score(state, solution, move) for move in state.legal_moves()]
        if max(scores) < 0 and len(set(scores)) > 1:
            chosen = perfect_thought(state, solution, random.Random(0))
            assert chosen.score == max(scores)
            assert forced_result(chosen.score) == -(WIN + max(scores))
            return
    pytest.fail("no lost position with a choice of how long to hold out")


@pytest.mark.parametrize("opponent", ["1", "9"])
def test_perfect_wins_what_it_solved_as_won_within_the_plies_it_said(opponent: str) -> None:
    solution = solved(BOARD)
    games = 0
    for state in random_positions(BOARD, 400, seed=23, progress=(1, 2)):
        plies = solution.plies(index_of(state))
        if plies is None or not solution.wins(index_of(state)) or plies < 9:
            continue
        perfect = state.to_move
        first = thoughts("perfect", state)[-1]
        assert forced_result(first.score) == plies
        game = state
        while not game.is_over:
            level = "perfect" if game.to_move == perfect else opponent
            game = game.play(move_of(level, game, 0.5, game.ply))
        assert game.winners() == (perfect,)
        assert game.ply <= plies
        games += 1
        if games == 3:
            return
    pytest.fail("too few won positions found")


def test_perfect_counts_a_win_beyond_the_ply_limit_as_a_draw() -> None:
    solution = solved(BOARD)
    for state in random_positions(BOARD, 400, seed=29):
        plies = solution.plies(index_of(state))
        if plies is None or not solution.wins(index_of(state)) or plies < 3:
            continue
        in_time = state_at(BOARD, state.pieces, state.progress, state.to_move, plies)
        too_late = state_at(BOARD, state.pieces, state.progress, state.to_move, plies - 1)
        assert forced_result(thoughts("perfect", in_time)[-1].score) == plies
        assert thoughts("perfect", too_late)[-1].score == 0
        return
    pytest.fail("no won position found")


def test_perfect_solves_the_start_of_a_board_once() -> None:
    state = TRIPPPIN.new(seed=BOARD)
    solved(BOARD)
    start = time.monotonic()
    found = thoughts("perfect", state, budget=0.05)
    assert time.monotonic() - start < 0.1
    assert found[-1].depth == solved(BOARD).horizon
    assert forced_result(found[-1].score) == solved(BOARD).plies(
        position_index(BLUE, STARTS, (0, 0))
    )


# The loop rule and draws


def test_trap_rounds_grow_and_hold_only_drawn_opponent_positions() -> None:
    solution = solved(BOARD)
    rounds = trap_rounds(solution, BLUE, Deadline(30))
    assert len(rounds) == ROUNDS
    for earlier, later in pairwise(rounds):
        assert all(b >= a for a, b in zip(earlier, later, strict=True))
    first = rounds[0]
    traps = [index for index in range(len(first)) if first[index]]
    assert traps
    rng = random.Random(3)
    for index in rng.sample(traps, 200):
        assert not solution.stored[index]
        assert solution.drawing[index] > 0


def test_round_one_traps_keep_the_victim_on_rails() -> None:
    # From a trap the opponent has a drawing move after which the victim has one drawing
    # move, and that leads to a trap again.
    solution = solved(BOARD)
    first = trap_rounds(solution, BLUE, Deadline(30))[0]
    checked = 0
    for state in random_positions(BOARD, 4000, seed=31):
        if state.to_move != GREY or not first[index_of(state)]:
            continue
        assert any(_rails_back_into(solution, first, state.play(m)) for m in state.legal_moves())
        checked += 1
    assert checked >= 20


def _rails_back_into(solution: Solution, traps: bytes, ours: TripppinState) -> bool:
    """Whether the victim, to move in `ours` (drawn), has one drawing move, into a trap."""
    if ours.is_over or solution.plies(index_of(ours)) is not None:
        return False
    drawing = [m for m in ours.legal_moves() if move_score(ours, solution, m) == 0]
    return len(drawing) == 1 and bool(traps[index_of(ours.play(drawing[0]))])


def test_perfect_leaves_a_draw_the_loop_rule_takes_away_as_late_as_it_can() -> None:
    # A drawn four-move cycle in which blue has one drawing move, c0, played twice: c0 is
    # now looping, so perfect takes its best other move.
    solution = solved(BOARD)
    state, cycle = _first_drawn_cycle(solution)
    again = state
    for move in cycle * 2:
        again = again.play(move)
    assert again.looping_moves() == (cycle[0],)
    others = [move_score(again, solution, m) for m in again.legal_moves() if m != cycle[0]]
    chosen = thoughts("perfect", again)[-1]
    assert chosen.move != cycle[0]
    assert chosen.score == max(others) < 0


def _first_drawn_cycle(solution: Solution) -> tuple[TripppinState, list[int]]:
    """A drawn position where blue, to move, has one drawing move, and the four drawing
    moves from it that bring both pieces back."""
    for state in random_positions(BOARD, 5000, seed=37):
        if state.to_move != BLUE or solution.plies(index_of(state)) is not None:
            continue
        drawing = [m for m in state.legal_moves() if move_score(state, solution, m) == 0]
        cycle = _drawn_cycle(solution, state) if len(drawing) == 1 else None
        if cycle is not None:
            return state, cycle
    pytest.fail("no drawn four-move cycle found")


def _drawn_cycle(solution: Solution, state: TripppinState) -> list[int] | None:
    """Four drawing moves that bring both pieces back where they stood, if any."""
    blue, grey = state.pieces
    for first in state.legal_moves():
        one = state.play(first)
        if one.is_over or move_score(state, solution, first):
            continue
        for second in one.legal_moves():
            two = one.play(second)
            if two.is_over or move_score(one, solution, second) or blue not in two.steps:
                continue
            three = two.play(blue)
            if move_score(two, solution, blue) or grey not in three.steps:
                continue
            if move_score(three, solution, grey) == 0:
                return [first, second, blue, grey]
    return None


def test_the_draw_keeper_sees_the_loop_rule_take_the_only_drawing_move_away() -> None:
    # In a drawn four-move cycle c0 c1 c2 c3 where blue has one drawing move, c0: after
    # c0 c1 c2 c3 c0 c1, playing c2 lets grey's c3 make c0 a third run, so the draw is
    # lost at once; after just c0 c1 it is not.
    solution = solved(BOARD)
    state, cycle = _first_drawn_cycle(solution)
    once = state.play(cycle[0]).play(cycle[1])
    again = once
    for move in cycle[2:] + cycle[:2]:
        again = again.play(move)
    keeper = DrawKeeper(solution, Deadline(5))
    assert keeper.holding(again, [cycle[2]])[cycle[2]] == 0
    assert keeper.holding(once, [cycle[2]])[cycle[2]] >= 1


def test_perfect_keeps_out_of_traps_when_a_drawing_move_is_safer() -> None:
    solution = solved(BOARD)
    rounds = trap_rounds(solution, BLUE, Deadline(30))
    found = 0
    for state in random_positions(BOARD, 3000, seed=41):
        if state.to_move != BLUE or solution.plies(index_of(state)) is not None:
            continue
        drawing = [m for m in state.legal_moves() if move_score(state, solution, m) == 0]
        ranks = {m: trap_rank(rounds, index_of(state.play(m))) for m in drawing}
        if len(set(ranks.values())) < 2:
            continue
        chosen = perfect_thought(state, solution, random.Random(0), traps=rounds)
        assert ranks[chosen.move] == max(ranks.values())
        assert ranks[thoughts("perfect", state)[-1].move] == max(ranks.values())
        found += 1
    assert found >= 10


def test_the_route_tables_match_the_rules() -> None:
    assert ROUTES[BLUE][-1] == STARTS[GREY]
    assert ROUTES[GREY][-1] == STARTS[BLUE]
    assert plies_left(TRIPPPIN.new({"max_plies": 30})) == 30
