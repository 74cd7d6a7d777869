"""The flank games' bots: legal and repeatable play, honest thoughts, and sound searches.

Exact results are checked against a plain minimax over `State.play`, and the fast
primitives the searches use against the rules engine itself.
"""

import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from parlour.bots.flank import CONTEMPT, HARD, LEVELS, Plan, searcher
from parlour.bots.flank_eval import (
    EXPERT_DUEL,
    EXPERT_MELEE,
    POINT,
    SIMPLE,
    STRONG,
    UNKNOWN,
    Weights,
    make_eval2,
    make_eval3,
)
from parlour.bots.flank_shape import bits_of, shape_of
from parlour.bots.thinking import DECIDED, WIN, Level, Thought
from parlour.rules.flank import FlankState, opponents
from tests.rules.flank_games import FLANK_GAMES

BY_NAME = {level.name: level for level in LEVELS}
SEARCHERS = [BY_NAME["hard"], BY_NAME["expert"]]
SMALL_OPTIONS: dict[str, dict[str, Any]] = {
    "tribolo": {"rows": 8, "cols": 8, "blocked": 4, "tiles": 4},
    "numlo": {"rows": 8, "cols": 8, "tiles": 4, "valued": 12},
    "doublolo": {"rows": 6, "cols": 10, "blocked": 4},
    "othello": {},
}
CORNER_FIGHT = ".BW...../BW....../W.W...../...WB.../...BWW../.....WW./......W./.......B B"
"""Black takes a1 along the long diagonal now: White threatens it along the top row and
the left column, and no other move of Black's closes both."""


def new_game(game: str, seed: int, options: dict[str, Any] | None = None) -> FlankState:
    """A dealt flank game."""
    flank = FLANK_GAMES[game]
    return flank.new(flank.resolve_options(options or {}), seed=seed)


def random_position(game: str, seed: int, plies: int) -> FlankState:
    """A game `plies` random moves in (fewer if it would end)."""
    state = new_game(game, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        after = state.play(rng.choice(state.legal_moves()))
        if after.is_over:
            break
        state = after
    return state


def thoughts(level: Level, state: FlankState, budget: float, seed: int = 0) -> list[Thought[Any]]:
    """Everything a level thinks about `state`."""
    return list(level.think(state, budget, random.Random(seed)))


def assert_honest(state: FlankState, found: Sequence[Thought[Any]]) -> None:
    """Thoughts come deeper each time, and each line starts with its move and is playable."""
    assert found
    depths = [thought.depth for thought in found]
    assert depths == sorted(depths)
    for thought in found:
        assert thought.line[0] == thought.move
        position = state
        for move in thought.line:
            assert move in position.legal_moves()
            position = position.play(move)


@pytest.mark.parametrize("game", sorted(SMALL_OPTIONS))
def test_every_level_plays_whole_games_legally(game: str) -> None:
    """The levels take turns about, through games until 40 plies have been played (some
    Doublolo deals end after four, when each group is down to one colour)."""
    plies = 0
    for seed in range(5):
        state = new_game(game, seed, SMALL_OPTIONS[game])
        while not state.is_over:
            level = LEVELS[plies % len(LEVELS)]
            found = thoughts(level, state, 0.02, plies)
            assert_honest(state, found)
            state = state.play(found[-1].move)
            plies += 1
        if plies >= 40:
            break
    assert plies >= 40


@pytest.mark.parametrize("game", sorted(SMALL_OPTIONS))
def test_a_seed_repeats_the_move_and_every_finished_iteration(game: str) -> None:
    state = random_position(game, 5, 8)
    for level in LEVELS:
        first, second = thoughts(level, state, 0.1, 7), thoughts(level, state, 0.1, 7)
        if level.name in ("easy", "medium"):
            assert first == second
        else:
            finished = min(len(first), len(second)) - 1
            assert [t.move for t in first[:finished]] == [t.move for t in second[:finished]]
            assert [t.score for t in first[:finished]] == [t.score for t in second[:finished]]


def test_ties_are_broken_by_the_seed() -> None:
    state = FLANK_GAMES["othello"].new()
    openings = {thoughts(BY_NAME["easy"], state, 0.1, seed)[-1].move for seed in range(30)}
    assert len(openings) == 4


@pytest.mark.parametrize("game", ["doublolo", "tribolo"])
def test_the_searches_deepen_within_the_budget(game: str) -> None:
    state = random_position(game, 2, 30)
    for level in LEVELS:
        start = time.monotonic()
        found = thoughts(level, state, 0.3)
        assert time.monotonic() - start < 0.3 + 0.5
        assert_honest(state, found)
    deep = thoughts(BY_NAME["hard"], state, 0.3)
    assert deep[0].depth == 0 and deep[-1].depth >= 2
    assert deep[-1].nodes > deep[1].nodes


def test_best_reply_search_plays_and_reports_playable_lines() -> None:
    """Best-reply lines skip turns; what is reported is cut to the part played in turn."""
    best_reply = replace(HARD, multi="brs")
    level = Level("brs", "best-reply search", searcher(Plan(HARD, best_reply)))
    for seed in range(3):
        state = random_position("tribolo", seed, 15)
        found = thoughts(level, state, 0.2)
        assert_honest(state, found)
        assert found[-1].depth >= 3


def test_easy_mostly_presses_the_best_button() -> None:
    state = random_position("tribolo", 8, 12)
    best = set(state.best_moves())
    picks = [thoughts(BY_NAME["easy"], state, 0.1, seed)[-1].move for seed in range(60)]
    assert set(picks) <= set(state.legal_moves())
    assert sum(pick in best for pick in picks) >= 0.7 * len(picks)


@pytest.mark.parametrize("level", SEARCHERS, ids=lambda level: level.name)
def test_a_contested_corner_is_taken(level: Level) -> None:
    state = FLANK_GAMES["othello"].parse_position(CORNER_FIGHT)
    corner = state.parse_move("a1")
    assert thoughts(level, state, 0.2)[-1].move == corner


def pass_aware_value(state: FlankState, root: int, ply: int) -> int:
    """The root seat's result under best play as the searches score it, by plain minimax
    with the other seats playing against the root: `WIN - plies` for a win (a pass is a
    ply); with two seats `plies - WIN` for a loss and minus the contempt for a draw; with
    three, anything but a win scores the point margin to the best rival, minus the contempt.
    """
    if state.is_over:
        scores = state.scores()
        rival = max(score for seat, score in enumerate(scores) if seat != root)
        if scores[root] > rival:
            return WIN - ply
        if len(scores) == 3:
            return (scores[root] - rival) * POINT - CONTEMPT
        if scores[root] < rival:
            return ply - WIN
        return -CONTEMPT
    values = []
    for move in state.legal_moves():
        child = state.play(move)
        values.append(pass_aware_value(child, root, ply + 1 + len(child.passed)))
    return max(values) if state.to_move == root else min(values)


def endgame(game: str, seed: int, empties: int, options: dict[str, Any]) -> FlankState:
    """A position from a random game with `empties` empty squares left (and the game on)."""
    while True:
        state = new_game(game, seed, options)
        rng = random.Random(seed)
        while not state.is_over and _empties(state) > empties:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over and len(state.legal_moves()) > 1:
            return state
        seed += 1000


def _empties(state: FlankState) -> int:
    occupied = 0
    for piece in state.pieces:
        occupied |= piece
    return (state.board.free & ~occupied).bit_count()


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("othello", {}),
        ("numlo", {"rows": 6, "cols": 6, "tiles": 3, "valued": 12}),
        ("tribolo", {"rows": 6, "cols": 6, "blocked": 3, "tiles": 3}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_endgame_solve_agrees_with_plain_minimax(
    game: str, options: dict[str, Any], seed: int
) -> None:
    state = endgame(game, seed, 7, options)
    root = state.to_move
    expected = pass_aware_value(state, root, 0)
    final = thoughts(BY_NAME["expert"], state, 5.0)[-1]
    assert final.score == expected
    child = state.play(final.move)
    assert pass_aware_value(child, root, 1 + len(child.passed)) == expected
    if abs(expected) >= DECIDED:
        assert len(final.line) >= 1


def test_the_hard_level_solves_too_and_reports_a_forced_win() -> None:
    state = endgame("othello", 4, 6, {})
    expected = pass_aware_value(state, state.to_move, 0)
    assert thoughts(BY_NAME["hard"], state, 5.0)[-1].score == expected


@pytest.mark.parametrize(
    "weights", [SIMPLE, STRONG, EXPERT_DUEL], ids=["simple", "strong", "expert"]
)
@pytest.mark.parametrize("game", ["othello", "doublolo"])
def test_the_two_seat_evaluation_is_zero_sum(game: str, weights: Weights) -> None:
    for seed in range(6):
        state = random_position(game, seed, 10 + 7 * seed)
        shape = shape_of(state.board)
        evaluate = make_eval2(shape, weights)
        black, white = state.pieces
        empty = shape.free & ~(black | white)
        for_black = evaluate(black, white, empty, shape.moves2(black, white, empty))
        for_white = evaluate(white, black, empty, shape.moves2(white, black, empty))
        assert for_black == -for_white


def test_the_evaluation_sees_the_board_the_same_from_every_side() -> None:
    othello = FLANK_GAMES["othello"]
    state = random_position("othello", 9, 24)
    rows = state.cells()
    turns = {
        "mirrored": [row[::-1] for row in rows],
        "flipped": rows[::-1],
        "transposed": ["".join(column) for column in zip(*rows, strict=True)],
    }
    letter = othello.letters[state.to_move]
    seen = {score_for_mover(state)}
    for turned in turns.values():
        seen.add(score_for_mover(othello.parse_position("/".join(turned) + " " + letter)))
    assert len(seen) == 1


def score_for_mover(state: FlankState) -> int:
    """The expert evaluation of a two-seat position for the seat to move."""
    shape = shape_of(state.board)
    own, opp = state.pieces[state.to_move], state.pieces[1 - state.to_move]
    empty = shape.free & ~(own | opp)
    return int(make_eval2(shape, EXPERT_DUEL)(own, opp, empty, shape.moves2(own, opp, empty)))


def test_the_three_seat_evaluation_treats_both_rivals_alike() -> None:
    for seed in range(6):
        state = random_position("numlo", seed, 9 + 5 * seed)
        shape = shape_of(state.board)
        root, a, b = state.pieces
        empty = shape.free & ~(root | a | b)
        for weights in (SIMPLE, STRONG, EXPERT_MELEE):
            evaluate = make_eval3(shape, weights)
            score = evaluate(root, a, b, empty, UNKNOWN)
            assert score == evaluate(root, b, a, empty, UNKNOWN)
            moves = shape.moves3(root, a, b, empty), -1, shape.moves3(b, root, a, empty)
            assert evaluate(root, a, b, empty, moves) == score


def test_blocked_squares_make_corners_and_edges() -> None:
    tribolo = FLANK_GAMES["tribolo"]
    state = tribolo.parse_position("...../.#.../...../...../..... B")
    shape = shape_of(state.board)
    corners = {state.format_move(shape.square(bit)) for bit in bits_of(shape.corners)}
    assert corners == {"a1", "e1", "a5", "e5"}
    beside_block = {state.parse_move(name) for name in ("a2", "c2", "b1", "b3")}
    walled_once = set(state.board.grid.squares(shape.open_axes[3]))
    assert beside_block <= walled_once | set(state.board.grid.squares(shape.open_axes[1]))
    assert state.parse_move("c3") in state.board.grid.squares(shape.open_axes[3])


@pytest.mark.parametrize("game", sorted(SMALL_OPTIONS))
def test_the_fast_primitives_agree_with_the_rules(game: str) -> None:
    for seed in range(4):
        state = new_game(game, seed)
        shape = shape_of(state.board)
        rng = random.Random(seed)
        while not state.is_over:
            pieces = state.pieces
            mover = state.to_move
            occupied = 0
            for piece in pieces:
                occupied |= piece
            empty = shape.free & ~occupied
            if len(pieces) == 2:
                own, opp = pieces[mover], pieces[1 - mover]
                assert shape.moves2(own, opp, empty) == state.moves_mask
                for bit in bits_of(state.moves_mask):
                    expected = state.board.flips(bit, own, [opp])
                    assert shape.flips2(bit, own, opp) == expected
            else:
                own, a, b = pieces[mover], pieces[(mover + 1) % 3], pieces[(mover + 2) % 3]
                assert shape.moves3(own, a, b, empty) == state.moves_mask
                for bit in bits_of(state.moves_mask):
                    expected = state.board.flips(bit, own, opponents(pieces, mover))
                    assert shape.flips3(bit, own, a, b) == expected
            state = state.play(rng.choice(state.legal_moves()))


def test_stable_pieces_never_flip() -> None:
    """Pieces called stable, grown from corners along walls, keep their colour to the end."""
    found = 0
    for game in ("othello", "tribolo", "doublolo"):
        for seed in range(3):
            state = new_game(game, seed)
            shape = shape_of(state.board)
            rng = random.Random(seed)
            claims: list[tuple[int, int]] = []
            while not state.is_over:
                claims += [(seat, shape.stable(p)) for seat, p in enumerate(state.pieces)]
                state = state.play(rng.choice(state.legal_moves()))
            for seat, stable in claims:
                assert stable & state.pieces[seat] == stable
                found += stable.bit_count()
    assert found > 50
