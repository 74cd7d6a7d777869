"""Boards dealt from board numbers: reproducible everywhere, with the counts the options give."""

from collections import Counter

import pytest

from parlour.rules import GAMES, OptionError
from parlour.rules.dealing import MAX_BOARD_NUMBER, Dealer

from .flank_games import FLANK_GAMES


def test_dealer_is_splitmix64() -> None:
    # Published SplitMix64 outputs for seeds 0 and 1234567.
    zero = Dealer(0)
    assert [zero.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    seeded = Dealer(1234567)
    assert [seeded.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_dealer_draws_within_bounds_and_without_repeats() -> None:
    dealer = Dealer(99)
    draws = [dealer.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert all(count > 60 for count in Counter(draws).values())
    sample = dealer.sample(range(50), 20)
    assert len(set(sample)) == 20
    assert set(sample) <= set(range(50))


# Board 7 of each game, pinned: a change here changes every shared board number.
BOARD_7 = {
    "tribolo": ".B.B.#.R.B.....R/.G........R.G.G./B..#.GR.B#B...../RG............../"
    "...#..R......R../.........#R..B#./.R.#.GB.......R./.#....#..B.B#..G/....G..G.G...G../"
    "......##......G./..R.B.R...B..... R",
    "doublolo": "..............#......../.................#.#.../...##....#.#.#.#......./"
    ".#...................../.................#...../..........#............/"
    "...#..............#..#./.WR......#....#......../.RW.#.#..............#./"
    ".......#.#.##...#....##/.............#.....RW../...................WR../"
    "................##...../.....#....#............ R",
}


@pytest.mark.parametrize("name", sorted(BOARD_7))
def test_board_numbers_deal_the_same_board_everywhere(name: str) -> None:
    assert FLANK_GAMES[name].new(seed=7).format_position() == BOARD_7[name]


def cell_counts(position: str) -> Counter[str]:
    return Counter(position.split(maxsplit=1)[0].replace("/", ""))


@pytest.mark.parametrize("board", range(20))
def test_tribolo_deals_twelve_grey_and_twelve_of_each(board: int) -> None:
    counts = cell_counts(FLANK_GAMES["tribolo"].new(seed=board).format_position())
    assert counts == Counter({".": 11 * 16 - 48, "#": 12, "B": 12, "R": 12, "G": 12})


@pytest.mark.parametrize("board", range(20))
def test_numlo_deals_tiles_and_valued_squares(board: int) -> None:
    state = FLANK_GAMES["numlo"].new(seed=board)
    counts = cell_counts(state.format_position())
    assert counts == Counter({".": 144 - 24, "B": 8, "R": 8, "G": 8})
    values = "".join(state.value_rows())
    assert sum(char != "." for char in values) == 24
    assert set(values) <= set(".123456")


@pytest.mark.parametrize("board", range(20))
def test_doublolo_deals_two_crosses_one_in_each_half(board: int) -> None:
    state = FLANK_GAMES["doublolo"].new(seed=board)
    rows = state.cells()
    counts = cell_counts(state.format_position())
    assert (counts["#"], counts["R"], counts["W"]) == (32, 4, 4)
    pieces = [(r, c) for r, row in enumerate(rows) for c, char in enumerate(row) if char in "RW"]
    halves = [[(r, c) for r, c in pieces if (c < 23 // 2) == left] for left in (True, False)]
    for group in halves:
        top, left = min(group)
        assert sorted(group) == [
            (top, left),
            (top, left + 1),
            (top + 1, left),
            (top + 1, left + 1),
        ]
        assert top > 0 and top + 1 < 13 and left > 0 and left + 1 < 22
        assert rows[top][left] == rows[top + 1][left + 1] != rows[top][left + 1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_first_player_can_always_move(name: str) -> None:
    for board in range(60):
        state = GAMES[name].new(seed=board)
        assert state.passed == ()
        assert state.legal_moves()


def test_first_player_is_drawn_from_the_board_number_unless_chosen() -> None:
    tribolo = FLANK_GAMES["tribolo"]
    firsts = {tribolo.new(seed=board).to_move for board in range(40)}
    assert firsts == {0, 1, 2}
    assert {tribolo.new({"first": "green"}, seed=b).to_move for b in range(10)} == {2}
    assert FLANK_GAMES["othello"].new(seed=5).to_move == 0


def test_options_shape_the_deal() -> None:
    state = FLANK_GAMES["tribolo"].new({"rows": 6, "cols": 9, "blocked": 3, "tiles": 4}, seed=3)
    counts = cell_counts(state.format_position())
    assert (len(state.cells()), len(state.cells()[0])) == (6, 9)
    assert (counts["#"], counts["B"], counts["R"], counts["G"]) == (3, 4, 4, 4)


@pytest.mark.parametrize("number", [-1, MAX_BOARD_NUMBER + 1, "7", 7.0, True, None])
def test_bad_board_numbers_are_refused(number: object) -> None:
    with pytest.raises(OptionError, match="board number"):
        FLANK_GAMES["tribolo"].new(seed=number)  # type: ignore[arg-type]


def test_the_largest_board_number_deals() -> None:
    assert FLANK_GAMES["numlo"].new(seed=MAX_BOARD_NUMBER).legal_moves()


@pytest.mark.parametrize("board", range(10))
def test_a_dealt_numlo_board_equals_its_position_read_back(board: int) -> None:
    state = FLANK_GAMES["numlo"].new(seed=board)
    assert FLANK_GAMES["numlo"].parse_position(state.format_position()).board == state.board
