"""Game files: written, read back and replayed to the same position; bad ones refused with
the line that is wrong."""

import random

import pytest

from parlour.rules import GAMES, get_game
from parlour.rules.gamefile import MAX_CHARS, GameFileError, game_file, parse_game_file


def random_game(name: str, seed: int, plies: int) -> tuple[list[str], object]:
    """Moves of a random game from board `seed`, and the state they reach."""
    rng = random.Random(seed)
    state = GAMES[name].new(seed=seed)
    moves = []
    for _ in range(plies):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        moves.append(state.format_move(move))
        state = state.play(move)
    return moves, state


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [0, 5])
def test_a_written_game_reads_back_and_replays_to_the_same_position(name: str, seed: int) -> None:
    game = GAMES[name]
    moves, final = random_game(name, seed, 400)
    written = game_file(game, game.resolve_options({}), seed, moves, {"Seats": 'a "b" c'})
    read = parse_game_file(written.text())
    assert read == written
    assert read.replay() == final
    assert read.tags == {"Seats": 'a "b" c'}


def test_a_game_may_start_from_a_position() -> None:
    game = get_game("oubliette")
    state = game.new(game.resolve_options({"board": "abalone"})).play_text("a1-c3 ne")
    reply = state.format_move(state.legal_moves()[0])
    text = game_file(game, game.resolve_options({}), state.format_position(), [reply]).text()
    assert '[Position "' in text and "[Board" not in text
    assert f"1. red {reply}" in text
    assert parse_game_file(text).replay() == state.play_text(reply)


def test_comments_and_blank_lines_are_skipped() -> None:
    text = "\n".join(
        [
            "",
            "# A short game of Othello",
            '[Game "othello"]',
            '[Board "0"]',
            "",
            "1. black d3   ",
            "# a comment between moves",
            "2. white c3",
        ]
    )
    read = parse_game_file(text)
    assert read.moves == ("d3", "c3")
    assert read.options == {}


HEAD = '[Game "othello"]\n[Board "0"]\n'


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[Board "0"]\n', "no [Game"),
        ('[Game "chess"]\n[Board "0"]\n', "there is no game 'chess'"),
        ('[Game "tribolo"]\n[Options "rows=99"]\n[Board "0"]\n', "[Options]"),
        ('[Game "othello"]\n', "either [Board] or [Position]"),
        ('[Game "othello"]\n[Board "0"]\n[Position "x"]\n', "either [Board] or [Position]"),
        ('[Game "othello"]\n[Board "-3"]\n', "must be a board number"),
        ('[Game "oubliette"]\n[Position "garbage"]\n', "the start:"),
        (HEAD + "1. black d3\n2. white zz\n", "line 4: "),
        (HEAD + "1. black d3\n2. white a1\n", "line 4: a1 is not a legal move"),
        (HEAD + "1. white d3\n", "line 3: it was black's move, not white's"),
        (HEAD + "1. black d3\n3. white c3\n", "line 4: move 3 where 2 belongs"),
        (HEAD + '1. black d3\n[Result "x"]\n', "line 4: tags come before the moves"),
        (HEAD + "black d3\n", "line 3: a move is written"),
        ("[Game othello]\n", "line 1: a tag is written"),
    ],
)
def test_a_bad_file_is_refused_saying_where(text: str, said: str) -> None:
    with pytest.raises(GameFileError) as refused:
        parse_game_file(text)
    assert said in str(refused.value)


def test_moves_after_the_end_and_huge_files_are_refused() -> None:
    game = get_game("othello")
    moves, final = random_game("othello", 1, 100)
    assert final.is_over  # type: ignore[attr-defined]
    text = game_file(game, {}, 1, moves).text() + f"{len(moves) + 1}. black d3\n"
    with pytest.raises(GameFileError, match="already over"):
        parse_game_file(text)
    with pytest.raises(GameFileError, match="at most"):
        parse_game_file(HEAD + "#" * MAX_CHARS)
