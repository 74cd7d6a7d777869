"""The level registry and entry points every game's bots go through."""

import pytest

from parlour.bots import UnknownLevelError, choose_move, fallback_move, levels_for, report, think
from parlour.bots.thinking import WIN, Thought
from parlour.rules import GAMES, RulesError, get_game

ORIGINAL_LEVELS = {
    "tribolo": ("easy", "medium", "hard", "expert"),
    "doublolo": ("easy", "medium", "hard", "expert"),
    "numlo": ("easy", "medium", "hard", "expert"),
    "othello": ("easy", "medium", "hard", "expert"),
    "tripppin": ("1", "2", "3", "4", "5", "6", "7", "8", "9", "perfect"),
    "oubliette": ("0", "1", "2", "3", "4", "5", "6"),
}


def test_every_game_offers_the_originals_levels_weakest_first() -> None:
    assert {game: levels_for(game) for game in GAMES} == ORIGINAL_LEVELS


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_weakest_and_strongest_levels_move_legally(game: str) -> None:
    state = GAMES[game].new(seed=5)
    for level in (levels_for(game)[0], levels_for(game)[-1]):
        text = choose_move(state, level, 0.1, seed=3)
        assert state.parse_move(text) in state.legal_moves()


def test_the_same_seed_gives_the_same_move() -> None:
    state = get_game("tribolo").new(seed=8)
    moves = {choose_move(state, "easy", 1.0, seed=99) for _ in range(5)}
    assert len(moves) == 1


def test_an_unknown_level_and_a_finished_game_are_refused() -> None:
    state = get_game("othello").new()
    with pytest.raises(UnknownLevelError, match="no bot level 'perfect'"):
        choose_move(state, "perfect", 1.0, seed=0)
    finished = get_game("tripppin").new({"max_plies": 1})
    finished = finished.play(finished.legal_moves()[0])
    assert finished.is_over
    with pytest.raises(RulesError, match="game is over"):
        list(think(finished, "1", 1.0, seed=0))


def test_a_report_writes_the_line_in_notation_and_stops_where_it_turns_illegal() -> None:
    state = get_game("othello").new()
    d3, c5, a1 = (state.parse_move(text) for text in ("d3", "c5", "a1"))
    found = report(state, Thought(d3, (d3, c5, a1, d3), WIN - 7, 3, 120))
    assert found == {
        "move": "d3",
        "line": ["d3", "c5"],
        "score": WIN - 7,
        "depth": 3,
        "nodes": 120,
        "forced": 7,
    }
    assert "forced" not in report(state, Thought(d3, (d3,), 40, 1, 4))


def test_the_fallback_is_a_legal_move() -> None:
    state = get_game("doublolo").new(seed=11)
    for seed in range(20):
        assert state.parse_move(fallback_move(state, seed)) in state.legal_moves()
