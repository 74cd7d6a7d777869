"""The random and greedy bots: legal, repeatable for a seed, and greedy takes the best."""

import pytest

from parlour.bots import UnknownLevelError, choose_move, fallback_move, levels_for
from parlour.rules import GAMES, RulesError, get_game


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_every_level_plays_legal_moves_to_the_end(game: str, level: str) -> None:
    options = {"max_plies": 200} if game in ("tripppin", "oubliette") else {}
    state = GAMES[game].new(GAMES[game].resolve_options(options), seed=5)
    plies = 0
    while not state.is_over:
        text = choose_move(state, level, 1.0, seed=plies)
        assert state.parse_move(text) in state.legal_moves()
        state = state.play_text(text)
        plies += 1
    assert plies > 0


def test_greedy_takes_one_of_the_best_moves_and_random_spreads_out() -> None:
    state = get_game("tribolo").new(seed=8)  # two of its ten moves flip the most
    best = {state.format_move(move) for move in state.best_moves()}
    legal = {state.format_move(move) for move in state.legal_moves()}
    assert len(best) == 2 and len(legal) == 10
    greedy = {choose_move(state, "greedy", 1.0, seed) for seed in range(50)}
    assert greedy <= best
    random_choices = {choose_move(state, "random", 1.0, seed) for seed in range(50)}
    assert random_choices == legal


def test_the_same_seed_gives_the_same_move() -> None:
    state = get_game("oubliette").new(seed=1)
    moves = [choose_move(state, "random", 1.0, seed=99) for _ in range(5)]
    assert len(set(moves)) == 1


def test_an_unknown_level_and_a_finished_game_are_refused() -> None:
    state = get_game("othello").new()
    with pytest.raises(UnknownLevelError, match="no bot level 'expert'"):
        choose_move(state, "expert", 1.0, seed=0)
    assert levels_for("othello") == ("random", "greedy")
    finished = get_game("tripppin").new({"max_plies": 1})
    finished = finished.play(finished.legal_moves()[0])
    assert finished.is_over
    with pytest.raises(RulesError, match="game is over"):
        choose_move(finished, "random", 1.0, seed=0)


def test_the_fallback_is_a_legal_move() -> None:
    state = get_game("doublolo").new(seed=11)
    for seed in range(20):
        assert state.parse_move(fallback_move(state, seed)) in state.legal_moves()
