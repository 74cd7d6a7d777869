"""Tripppin: the seed text's examples, the deal, routes, draws, loops, notation and views."""

import json
import pickle
from collections import Counter
from dataclasses import replace

import pytest

from parlour.rules import (
    IllegalMoveError,
    MalformedMoveError,
    MalformedPositionError,
    OptionError,
)
from parlour.rules.dealing import Dealer
from parlour.rules.game import plain_perft
from parlour.rules.tripppin import GRID, TRIPPPIN, TripppinState

BLUE, GREY = 0, 1
NAMES = ("n", "ne", "e", "se", "s", "sw", "w", "nw")


def sq(name: str) -> int:
    """The square number of `name` (a1 top left, square = row * 8 + col)."""
    col = ord(name[0]) - ord("a")
    row = int(name[1:]) - 1
    return row * 8 + col


def mask(directions: str) -> int:
    """The arrow mask of space-separated direction names."""
    return sum(1 << NAMES.index(name) for name in directions.split())


def position(
    arrows: dict[str, str] | None = None,
    blue: str = "e8:0",
    grey: str = "d8:0",
    to_move: str = "B",
    ply: int = 0,
) -> TripppinState:
    """A hand-made position: blank tiles except `arrows` (square name: direction names)."""
    tiles = [0] * 64
    for name, directions in (arrows or {}).items():
        tiles[sq(name)] = mask(directions)
    rows = "/".join("".join(f"{m:02x}" for m in tiles[r * 8 : r * 8 + 8]) for r in range(8))
    return TRIPPPIN.parse_position(f"{rows} {blue} {grey} {to_move} {ply}")


def names(squares: tuple[int, ...]) -> set[str]:
    """The names of `squares`."""
    return {GRID.format_square(square) for square in squares}


def test_the_opponents_arrows_restrict_the_mover() -> None:
    # "If you make a move onto a square that has arrow pointing downward, leftward, and to
    # the upper right, then the only moves your opponent is allowed to make in response are
    # to the squares immediately downward, leftward, or to the upper right of [his]."
    state = position({"d4": "s w ne"}, blue="f6:0", grey="d5:0", to_move="G")
    after = state.play_text("d4")
    assert names(after.legal_moves()) == {"f7", "e6", "g5"}
    assert after.observation()["directions"] == ["ne", "s", "w"]
    with pytest.raises(IllegalMoveError, match="f5 is not a legal move for blue"):
        after.play_text("f5")


def test_a_square_without_arrows_allows_all_eight() -> None:
    # "When you are on a square that does not have arrows ... your opponent can make any of
    # the eight moves."
    state = position(blue="d4:0", grey="a8:0")
    assert names(state.legal_moves()) == {"c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"}
    assert state.observation()["directions"] == list(NAMES)


def test_start_squares_carry_no_arrows_but_the_edge_and_the_opponent_still_block() -> None:
    state = TRIPPPIN.new(seed=5)
    assert names(state.legal_moves()) == {"d7", "e7", "f7", "f8"}


def test_no_moving_off_the_edge_or_onto_the_opponent() -> None:
    # "BUT he cannot move off the edge of the board, and he cannot move onto the same square
    # you are on."
    state = position(blue="a8:0", grey="b7:0")
    assert names(state.legal_moves()) == {"a7", "b8"}
    for text in ("b7", "a9"):
        with pytest.raises((IllegalMoveError, MalformedMoveError)):
            state.play_text(text)
    with pytest.raises(MalformedMoveError, match="'s' from a8 is off the board"):
        state.parse_move("s")


def test_a_player_pushed_into_a_corner_with_no_move_loses() -> None:
    # "sometimes a player is left with no legal move at all. In this case the other player
    # wins." Grey steps onto a tile whose arrows all point off the board from blue's corner.
    state = position({"c6": "s sw w"}, blue="a8:2", grey="c5:0", to_move="G")
    assert not state.is_over
    after = state.play_text("c6")
    assert after.is_over
    assert after.legal_moves() == ()
    assert after.winners() == (GREY,)
    assert after.scores() == (2, 0)
    assert after.observation()["to_move"] is None
    with pytest.raises(IllegalMoveError, match="the game is over; a7 cannot be played"):
        after.play_text("a7")


def test_a_player_pushed_off_an_edge_loses_even_from_the_middle_of_it() -> None:
    state = position({"c4": "ne e se"}, blue="h4:0", grey="c3:0", to_move="G")
    assert state.play_text("c4").winners() == (GREY,)
    away_from_the_edge = position({"c4": "ne e se"}, blue="g4:0", grey="c4:0")
    assert names(away_from_the_edge.legal_moves()) == {"h3", "h4", "h5"}


def test_reaching_the_current_target_advances_it() -> None:
    state = position(blue="g8:0", grey="a1:0")
    assert state.observation()["targets"] == {"blue": "g7", "grey": "b7"}
    after = state.play_text("g7")
    assert after.progress == (1, 0)
    assert after.scores() == (1, 0)
    assert after.observation()["targets"] == {"blue": "g2", "grey": "b7"}


def test_passing_over_a_later_target_does_not_count() -> None:
    # "Only the current target counts": blue's b2 is its third target, not its first.
    state = position(blue="c3:0", grey="h1:0")
    assert state.play_text("b2").progress == (0, 0)
    # Nor does grey's last target, blue's own start.
    assert position(blue="e7:0", grey="h1:0").play_text("e8").progress == (0, 0)


def test_reaching_the_last_target_wins_at_once() -> None:
    state = position(blue="c7:4", grey="h1:1")
    assert state.target(BLUE) == sq("d8")
    after = state.play_text("d8")
    assert after.is_over
    assert after.winners() == (BLUE,)
    assert after.scores() == (5, 1)
    assert after.observation()["targets"] == {"blue": None, "grey": "b2"}
    assert after.legal_moves() == ()
    assert after.best_moves() == ()


def walk(state: TripppinState, path: str, shuffle: tuple[str, str]) -> list[str]:
    """Move the seat to move along `path`, the other seat stepping to and fro meanwhile.

    `path` is square names separated by spaces. Returns the squares of it where the mover's
    progress went up; the mover must win on the last one.
    """
    mover = state.to_move
    reached = []
    squares = path.split()
    for step, square in enumerate(squares):
        before = state.progress[mover]
        state = state.play_text(square)
        if state.progress[mover] > before:
            reached.append(square)
        if state.is_over:
            assert step == len(squares) - 1
            assert state.winners() == (mover,)
            break
        state = state.play_text(shuffle[step % 2])
    return reached


def test_blue_goes_round_g7_g2_b2_b7_then_d8() -> None:
    path = "f7 g7 g6 g5 g4 g3 g2 f2 e2 d2 c2 b2 b3 b4 b5 b6 b7 c8 d8"
    assert walk(position(grey="a4:0"), path, ("a5", "a4")) == ["g7", "g2", "b2", "b7", "d8"]


def test_grey_goes_round_b7_b2_g2_g7_then_e8() -> None:
    path = "c7 b7 b6 b5 b4 b3 b2 c2 d2 e2 f2 g2 g3 g4 g5 g6 g7 f8 e8"
    state = position(blue="h4:0", to_move="G")
    assert walk(state, path, ("h5", "h4")) == ["b7", "b2", "g2", "g7", "e8"]
    assert state.observation()["routes"] == {
        "blue": ["g7", "g2", "b2", "b7", "d8"],
        "grey": ["b7", "b2", "g2", "g7", "e8"],
    }


def test_each_three_arrow_tile_is_dealt_once_with_two_blanks() -> None:
    fixed = {sq(name) for name in ("b2", "g2", "b7", "g7", "d8", "e8")}
    three = {m for m in range(256) if m.bit_count() == 3}
    assert len(three) == 56
    for seed in (0, 1, 12345):
        tiles = TRIPPPIN.new(seed=seed).tiles
        assert all(tiles[square] == 0 for square in fixed)
        dealt = Counter(tiles[square] for square in range(64) if square not in fixed)
        assert dealt == Counter({**dict.fromkeys(three, 1), 0: 2})


def test_the_deal_shuffles_the_masks_in_ascending_order_onto_ascending_squares() -> None:
    masks = [m for m in range(256) if m.bit_count() == 3] + [0, 0]
    Dealer(77).shuffle(masks)
    fixed = {sq(name) for name in ("b2", "g2", "b7", "g7", "d8", "e8")}
    tiles = TRIPPPIN.new(seed=77).tiles
    assert [tiles[square] for square in range(64) if square not in fixed] == masks


def test_a_board_number_always_deals_the_same_board_and_others_differ() -> None:
    assert TRIPPPIN.new(seed=42).tiles == TRIPPPIN.new(seed=42).tiles
    assert len({TRIPPPIN.new(seed=seed).tiles for seed in range(20)}) == 20


def test_blue_is_the_right_piece_and_moves_first_by_default() -> None:
    state = TRIPPPIN.new()
    assert TRIPPPIN.seats == ("blue", "grey")
    assert state.to_move == BLUE
    assert state.pieces == (sq("e8"), sq("d8"))
    assert state.observation()["pieces"] == {"blue": "e8", "grey": "d8"}


def test_the_first_option_chooses_who_starts() -> None:
    assert TRIPPPIN.new({"first": "grey"}).to_move == GREY
    assert TRIPPPIN.new({"first": "blue"}).to_move == BLUE
    with pytest.raises(OptionError, match="'first' must be one of blue, grey"):
        TRIPPPIN.new({"first": "red"})


def test_max_plies_ends_an_unfinished_game_in_a_draw() -> None:
    limited = TRIPPPIN.new({"max_plies": 2}, seed=3)
    assert limited.max_plies == 2
    limited = limited.play(limited.legal_moves()[0])
    assert not limited.is_over
    limited = limited.play(limited.legal_moves()[0])
    assert limited.is_over
    assert limited.winners() == (BLUE, GREY)
    assert limited.legal_moves() == ()
    with pytest.raises(OptionError):
        TRIPPPIN.new({"max_plies": -1})


def test_a_win_on_the_last_allowed_ply_is_still_a_win() -> None:
    limited = replace(position(blue="c7:4", grey="h1:0", ply=9), max_plies=10)
    assert not limited.is_over
    assert limited.play_text("d8").winners() == (BLUE,)
    assert limited.play_text("c8").winners() == (BLUE, GREY)


def test_a_move_sequence_played_twice_makes_its_first_move_looping() -> None:
    state = position()
    cycle = ["e7", "d7", "e8", "d8"]
    for text in cycle * 2:
        assert state.looping_moves() == ()
        state = state.play_text(text)
    assert state.looping_moves() == (sq("e7"),)
    assert state.recent == tuple(sq(text) for text in cycle * 2)
    # Once blue starts the third run, grey's next move in it is the looping one.
    assert state.play_text("e7").looping_moves() == (sq("d7"),)
    # A different move breaks the loop; the computer's rule does not bind `play`.
    assert state.play_text("f7").looping_moves() == ()


def test_preventing_loops_is_an_option_that_play_carries_along() -> None:
    game = TRIPPPIN
    assert game.new().prevent_loops
    allowed = game.new({"prevent_loops": "no"})
    assert not allowed.prevent_loops
    assert not allowed.play(allowed.legal_moves()[0]).prevent_loops
    assert allowed == game.new()  # a choice of the computer players, not of the rules


RINGS = {
    # Closed king walks of 20 and 21 steps, blue's in columns e-h and grey's in a-d.
    20: (
        "e7 e6 e5 e4 e3 e2 e1 f1 g1 h1 h2 h3 h4 h5 h6 h7 h8 g8 f8 e8",
        "d7 d6 d5 d4 d3 d2 d1 c1 b1 a1 a2 a3 a4 a5 a6 a7 a8 b8 c8 d8",
    ),
    21: (
        "e7 e6 e5 e4 e3 e2 e1 f1 f2 g1 h1 h2 h3 h4 h5 h6 h7 h8 g8 f8 e8",
        "d7 d6 d5 d4 d3 d2 d1 c1 c2 b1 a1 a2 a3 a4 a5 a6 a7 a8 b8 c8 d8",
    ),
}


@pytest.mark.parametrize(("steps", "looping"), [(20, ("e7",)), (21, ())])
def test_loops_up_to_forty_plies_are_noticed(steps: int, looping: tuple[str, ...]) -> None:
    # "Loops more than twenty turns long will not be noticed."
    blue_ring, grey_ring = (ring.split() for ring in RINGS[steps])
    assert len(blue_ring) == len(grey_ring) == steps
    state = position(blue="e8:1", grey="d8:2")
    for blue_step, grey_step in zip(blue_ring * 2, grey_ring * 2, strict=True):
        state = state.play_text(blue_step).play_text(grey_step)
    assert state.pieces == (sq("e8"), sq("d8"))
    assert state.looping_moves() == tuple(sq(name) for name in looping)


def test_equal_positions_are_equal_whatever_their_history() -> None:
    one = position().play_text("f7").play_text("c7").play_text("e7")
    other = position().play_text("d7").play_text("c7").play_text("e7")
    assert one.recent != other.recent
    assert one == other
    assert hash(one) == hash(other)
    assert "recent" not in repr(one)


def test_moves_played_starts_where_the_history_starts() -> None:
    state = TRIPPPIN.new(seed=9)
    assert state.recent == ()
    played = []
    for _ in range(6):
        move = state.legal_moves()[-1]
        played.append(move)
        state = state.play(move)
    assert state.recent == tuple(played)
    assert TRIPPPIN.parse_position(state.format_position()).recent == ()


def test_history_keeps_the_eighty_plies_loop_detection_reads() -> None:
    state = position()
    cycle = ["e7", "d7", "e8", "d8"]
    for ply in range(200):
        state = state.play_text(cycle[ply % 4])
    assert state.recent == tuple(sq(cycle[ply % 4]) for ply in range(120, 200))
    assert state.looping_moves() == (sq("e7"),)


def test_a_long_game_pickles_without_deep_nesting() -> None:
    state = position()
    cycle = ["e7", "d7", "e8", "d8"]
    for ply in range(5000):
        state = state.play_text(cycle[ply % 4])
    copied = pickle.loads(pickle.dumps(state))
    assert copied == state
    assert copied.recent == state.recent
    assert copied.looping_moves() == state.looping_moves()


def test_best_moves_head_for_the_current_target() -> None:
    # From e8 blue's target g7 is two king moves away; f7 and f8 are both one away.
    assert TRIPPPIN.new(seed=1).best_moves() == (sq("f7"), sq("f8"))
    assert position(blue="f7:0", grey="a1:0").best_moves() == (sq("g7"),)
    assert position(blue="f7:1", grey="a1:0").best_moves() == (sq("e6"), sq("f6"), sq("g6"))
    assert position({"a1": "s"}, blue="f7:1", grey="a1:0").best_moves() == (sq("f8"),)


def test_moves_are_squares_or_directions_from_the_mover() -> None:
    state = TRIPPPIN.new()
    assert state.parse_move("e7") == sq("e7") == 52
    assert state.parse_move(" NE ") == sq("f7")
    assert state.parse_move("nw") == sq("d7")
    assert state.format_move(52) == "e7"
    grey = TRIPPPIN.new({"first": "grey"})
    assert grey.parse_move("n") == sq("d7")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a move"),
        ("north", "is not a move"),
        ("e", None),
        ("i1", "off the board"),
        ("a9", "off the board"),
        ("s", "'s' from e8 is off the board"),
        ("e7-e6", "is not a move"),
    ],
)
def test_bad_move_texts(text: str, message: str | None) -> None:
    state = TRIPPPIN.new()
    if message is None:
        assert state.parse_move(text) == sq("f8")
        return
    with pytest.raises(MalformedMoveError, match=message):
        state.parse_move(text)


@pytest.mark.parametrize("move", [None, "e7", 1.0, True, -1, 64, 0])
def test_play_refuses_what_is_not_a_legal_move(move: object) -> None:
    state = TRIPPPIN.new()
    before = state.format_position()
    with pytest.raises(IllegalMoveError, match="is not a legal move for blue"):
        state.play(move)  # type: ignore[arg-type]
    assert state.format_position() == before


def test_play_never_changes_the_state_it_is_called_on() -> None:
    state = TRIPPPIN.new(seed=4)
    before = state.format_position()
    after = state.play(state.legal_moves()[0])
    assert state.format_position() == before
    assert after.recent == (*state.recent, after.last_move)
    assert after.ply == 1
    assert state.passed == after.passed == ()


def test_positions_read_back() -> None:
    state = TRIPPPIN.new(seed=31)
    for _ in range(7):
        assert TRIPPPIN.parse_position(state.format_position()).format_position() == (
            state.format_position()
        )
        state = state.play(state.best_moves()[0])
    read = TRIPPPIN.parse_position(state.format_position())
    assert read.recent == ()
    assert read.ply == 7
    assert read.tiles == state.tiles
    assert read.pieces == state.pieces


def test_the_blank_start_is_written_as_documented() -> None:
    rows = "/".join(["0" * 16] * 8)
    assert position().format_position() == f"{rows} e8:0 d8:0 B 0 0"
    assert TRIPPPIN.new(seed=0).format_position().split()[1:] == ["e8:0", "d8:0", "B", "0", "0"]


def test_any_arrow_mask_reads_back_on_a_dealt_square() -> None:
    state = position({"a1": "n ne e se s sw w nw", "h1": "e"}, blue="a1:3", grey="h8:2", ply=12)
    text = state.format_position()
    assert text.startswith("ff000000000000" + "04/")
    assert text.endswith(" a1:3 h8:2 B 12 0")
    assert TRIPPPIN.parse_position(text).format_position() == text


GOOD_TILES = "/".join(["0" * 16] * 8)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a position is the tile rows"),
        (f"{GOOD_TILES} e8:0 d8:0 B", "a position is the tile rows"),
        (f"{GOOD_TILES} e8:0 d8:0 B 0 0 x", "a position is the tile rows"),
        (f"{GOOD_TILES} e8:0 d8:0 B 0 x", "the ply limit must be a whole number"),
        (f"{GOOD_TILES} e8:0 d8:0 B 0 100001", "the ply limit must be a whole number"),
        ("/".join(["0" * 16] * 7) + " e8:0 d8:0 B 0", "8 rows joined by '/', not 7"),
        ("/".join(["0" * 16] * 9) + " e8:0 d8:0 B 0", "8 rows joined by '/', not 9"),
        ("0" * 14 + "/" + "/".join(["0" * 16] * 7) + " e8:0 d8:0 B 0", "16 characters"),
        ("0" * 18 + "/" + "/".join(["0" * 16] * 7) + " e8:0 d8:0 B 0", "16 characters"),
        ("zz" + "0" * 14 + "/" + "/".join(["0" * 16] * 7) + " e8:0 d8:0 B 0", "'zz' is not"),
        ("-1" + "0" * 14 + "/" + "/".join(["0" * 16] * 7) + " e8:0 d8:0 B 0", "'-1' is not"),
        (
            "0" * 16 + "/00ff" + "0" * 12 + "/" + "/".join(["0" * 16] * 6) + " e8:0 d8:0 B 0",
            "b2 is a circle and carries no arrows",
        ),
        (
            "/".join(["0" * 16] * 7) + "/00000000ff000000 e8:0 d8:0 B 0",
            "e8 is a start square and carries no arrows",
        ),
        (f"{GOOD_TILES} e8 d8:0 B 0", "blue's piece is written square:progress"),
        (f"{GOOD_TILES} e9:0 d8:0 B 0", "blue's piece: 'e9' is off the board"),
        (f"{GOOD_TILES} e8:0 x:0 B 0", "grey's piece: 'x' is not a square"),
        (f"{GOOD_TILES} e8:6 d8:0 B 0", "blue's progress must be 0 to 5, not '6'"),
        (f"{GOOD_TILES} e8:0 d8:-1 B 0", "grey's progress must be 0 to 5, not '-1'"),
        (f"{GOOD_TILES} e8:0 d8: B 0", "grey's progress must be 0 to 5, not ''"),
        (f"{GOOD_TILES} e8:0 e8:0 B 0", "both pieces cannot stand on e8"),
        (f"{GOOD_TILES} d8:5 e8:5 B 0", "both pieces cannot have finished"),
        (f"{GOOD_TILES} e8:0 d8:0 X 0", "'X' is not a seat"),
        (f"{GOOD_TILES} e8:0 d8:0 b 0", "'b' is not a seat"),
        (f"{GOOD_TILES} e8:0 d8:0 BG 0", "'BG' is not a seat"),
        (
            f"{GOOD_TILES} e8:0 d8:0 B -1",
            "the ply must be a whole number from 0 to 1000000000, not '-1'",
        ),
        (f"{GOOD_TILES} e8:0 d8:0 B two", "the ply must be a whole number"),
        (f"{GOOD_TILES} e8:0 d8:0 B 1.5", "the ply must be a whole number"),
        (f"{GOOD_TILES} e8:0 d8:0 B ²", "the ply must be a whole number"),
        (f"{GOOD_TILES} e8:0 d8:0 B {'9' * 5000}", "the ply must be a whole number"),
    ],
)
def test_bad_position_texts(text: str, message: str) -> None:
    with pytest.raises(MalformedPositionError, match=message):
        TRIPPPIN.parse_position(text)


def test_a_finished_or_stuck_position_reads_as_over() -> None:
    assert position(blue="d8:5", grey="c2:3", to_move="G").winners() == (BLUE,)
    assert position({"c6": "s sw w"}, blue="a8:0", grey="c6:0").winners() == (GREY,)


def test_the_observation_is_json_and_shows_the_whole_game() -> None:
    state = TRIPPPIN.new(seed=8)
    state = state.play(state.legal_moves()[0])
    obs = state.observation(GREY)
    assert json.loads(json.dumps(obs)) == obs
    assert obs == state.observation(None) == state.observation(BLUE)
    assert obs["game"] == "tripppin"
    assert (obs["rows"], obs["cols"], obs["seats"]) == (8, 8, ["blue", "grey"])
    assert obs["circles"] == ["b2", "g2", "b7", "g7"]
    assert obs["starts"] == {"blue": "e8", "grey": "d8"}
    assert obs["to_move"] == "grey"
    assert obs["legal_moves"] == [state.format_move(m) for m in state.legal_moves()]
    assert obs["last_move"] == state.format_move(state.pieces[BLUE])
    assert obs["progress"] == obs["scores"] == {"blue": 0, "grey": 0}
    assert (obs["over"], obs["winners"], obs["ply"]) == (False, [], 1)
    assert obs["position"] == state.format_position()
    tiles = obs["tiles"]
    assert isinstance(tiles, list)
    assert len(tiles) == 8
    for row, tile_row in enumerate(tiles):
        assert isinstance(tile_row, list)
        for col, shown in enumerate(tile_row):
            assert shown == [n for b, n in enumerate(NAMES) if state.tiles[row * 8 + col] >> b & 1]


def test_small_perft_counts() -> None:
    start = position()
    assert start.perft(1) == 4
    # After d7 or e7 grey has 4 moves; after f7 or f8 it has all 5 of d8's.
    assert start.perft(2) == 18
    dealt = TRIPPPIN.new(seed=2)
    assert [dealt.perft(d) for d in range(5)] == [plain_perft(dealt, d) for d in range(5)]


def test_fast_perft_counts_wins_and_stuck_players_like_the_plain_walk() -> None:
    # Blue is one step from its last target (d8) and grey one from its fourth (g7): games
    # end inside the tree, by a finished route or by a player left with no move.
    near_the_end = position({"c7": "s e", "d7": "se"}, blue="c7:4", grey="f7:3")
    assert near_the_end.play_text("d8").winners() == (0,)
    depths = range(1, 6)
    assert [near_the_end.perft(d) for d in depths] == [
        plain_perft(near_the_end, d) for d in depths
    ]
    limited = replace(TRIPPPIN.new(seed=11), max_plies=3)
    assert [limited.perft(d) for d in range(6)] == [plain_perft(limited, d) for d in range(6)]
    assert limited.perft(5) == limited.perft(3)
