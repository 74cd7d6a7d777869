"""Property-based tests of the flank rule (Tribolo, Numlo, Doublolo, Othello).

The engine works on bitboards; the tests check it against a deliberately plain reference
that works on the rows of `state.cells()` with coordinates and loops. Positions come from
two sources: boards dealt from random board numbers (small options, for speed) followed by
a random playout, and arbitrary position texts on tiny boards (1 to 8 rows and columns),
which reach edge shapes no deal makes: single rows, boards full of blocked squares, and a
seat to move that has no move.
"""

import json
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, given, note, reject, settings
from hypothesis import strategies as st

from parlour.rules import IllegalMoveError, OptionError, get_game
from parlour.rules.flank import FlankGame, FlankState
from parlour.rules.game import plain_perft

GAME_NAMES = ["tribolo", "numlo", "doublolo", "othello"]
TEXT_GAME_NAMES = ["tribolo", "othello", "numlo"]
MAX_BOARD_NUMBER = 2**53 - 1
EMPTY = "."
BLOCKED = "#"
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]

Cell = tuple[int, int]

FAST = settings(max_examples=150, deadline=None)
SLOW = settings(max_examples=60, deadline=None)


# --- The reference: rows of characters, coordinates, plain loops. ---------------------------


def inside(cells: Sequence[str], row: int, col: int) -> bool:
    """Whether (row, col) is on the board."""
    return 0 <= row < len(cells) and 0 <= col < len(cells[0])


def closed_run(cells: Sequence[str], row: int, col: int, step: Cell, letter: str) -> list[Cell]:
    """The run of one opponent's pieces next to (row, col) that `letter` closes off, or []."""
    dr, dc = step
    run: list[Cell] = []
    r, c = row + dr, col + dc
    while inside(cells, r, c) and cells[r][c] not in (EMPTY, BLOCKED, letter):
        if run and cells[r][c] != cells[run[0][0]][run[0][1]]:
            return []  # two opponent colours: flips nothing
        run.append((r, c))
        r, c = r + dr, c + dc
    if run and inside(cells, r, c) and cells[r][c] == letter:
        return run
    return []


def ref_flips(cells: Sequence[str], row: int, col: int, letter: str) -> set[Cell]:
    """Every piece that `letter` playing on (row, col) flips, in all eight directions."""
    flipped: set[Cell] = set()
    for step in DIRECTIONS:
        flipped.update(closed_run(cells, row, col, step, letter))
    return flipped


def ref_moves(cells: Sequence[str], letter: str) -> list[int]:
    """The squares (row * cols + col, ascending) where `letter` may play."""
    cols = len(cells[0])
    return [
        row * cols + col
        for row in range(len(cells))
        for col in range(cols)
        if cells[row][col] == EMPTY and ref_flips(cells, row, col, letter)
    ]


def ref_play(cells: Sequence[str], square: int, letter: str) -> list[str]:
    """The rows after `letter` plays `square`: the piece placed and the closed runs flipped."""
    row, col = divmod(square, len(cells[0]))
    changed = ref_flips(cells, row, col, letter) | {(row, col)}
    return [
        "".join(letter if (r, c) in changed else ch for c, ch in enumerate(line))
        for r, line in enumerate(cells)
    ]


def ref_scores(cells: Sequence[str], value_rows: Sequence[str], letters: str) -> list[int]:
    """Each seat's squares, plus the values of those squares where there are values."""
    scores = dict.fromkeys(letters, 0)
    for r, line in enumerate(cells):
        for c, ch in enumerate(line):
            if ch in scores:
                value = value_rows[r][c] if value_rows else EMPTY
                scores[ch] += 1 + (int(value) if value != EMPTY else 0)
    return [scores[letter] for letter in letters]


def seats_with_moves(state: FlankState) -> list[int]:
    """The seats that have a move in `state`'s position, by the reference."""
    cells = state.cells()
    return [seat for seat, letter in enumerate(state.game.letters) if ref_moves(cells, letter)]


def values_of(state: FlankState) -> list[str]:
    """The square values' rows as the position text writes them (empty if none)."""
    fields = state.format_position().split()
    return fields[2].split("/") if len(fields) == 3 else []


# --- Strategies. -----------------------------------------------------------------------------


@st.composite
def small_options(draw: st.DrawFn, game: FlankGame) -> dict[str, int | str]:
    """Options for a small board of `game` (rows and columns 4 to 10), fitting counts."""
    names = {spec.name for spec in game.option_specs}
    options: dict[str, int | str] = {}
    if "rows" in names:
        min_cols = 8 if game.name == "doublolo" else 4
        options["rows"] = draw(st.integers(4, 10))
        options["cols"] = draw(st.integers(min_cols, 10))
    size = int(options.get("rows", 8)) * int(options.get("cols", 8))
    if "blocked" in names:
        options["blocked"] = draw(st.integers(0, size // 4))
    if "tiles" in names:
        room = (size - int(options.get("blocked", 0)) - 1) // len(game.seats)
        options["tiles"] = draw(st.integers(1, max(1, min(room, 8))))
    if "valued" in names:
        options["valued"] = draw(st.integers(0, size))
    if "first" in names:
        options["first"] = draw(st.sampled_from(["random", *game.seats]))
    return options


@st.composite
def dealt_starts(draw: st.DrawFn) -> FlankState:
    """A freshly dealt small board of a random flank game and board number."""
    game = get_game(draw(st.sampled_from(GAME_NAMES)))
    assert isinstance(game, FlankGame)
    options = draw(small_options(game))
    seed = draw(st.integers(0, MAX_BOARD_NUMBER))
    try:
        return game.new(options, seed)
    except OptionError:
        reject()  # these options deal no playable board


@st.composite
def played(draw: st.DrawFn, start: FlankState, max_moves: int) -> FlankState:
    """`start` after up to `max_moves` random legal moves (fewer if the game ends)."""
    state = start
    for _ in range(draw(st.integers(0, max_moves))):
        if state.is_over:
            break
        state = state.play(draw(st.sampled_from(state.legal_moves())))
    return state


@st.composite
def position_texts(draw: st.DrawFn) -> tuple[FlankGame, str]:
    """A game and an arbitrary position text on a board of 1 to 8 rows and columns."""
    game = get_game(draw(st.sampled_from(TEXT_GAME_NAMES)))
    assert isinstance(game, FlankGame)
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(1, 8))
    # Empty squares are drawn more often, blocked-heavy boards still come up.
    cell = st.sampled_from([EMPTY, EMPTY, EMPTY, BLOCKED, *game.letters, *game.letters])
    cells = ["".join(draw(st.lists(cell, min_size=cols, max_size=cols))) for _ in range(rows)]
    text = "/".join(cells) + " " + draw(st.sampled_from(game.letters))
    if game.name == "numlo" and draw(st.booleans()):
        digit = st.sampled_from([EMPTY, *"123456789"])
        values = [
            "".join(EMPTY if ch == BLOCKED else draw(digit) for ch in line) for line in cells
        ]
        text += " " + "/".join(values)
    return game, text


@st.composite
def text_states(draw: st.DrawFn) -> FlankState:
    """The state an arbitrary position text describes."""
    game, text = draw(position_texts())
    return game.parse_position(text)


def states(max_moves: int = 40) -> st.SearchStrategy[FlankState]:
    """Dealt boards after a random playout, and arbitrary position texts (also played on)."""
    dealt = dealt_starts().flatmap(lambda start: played(start, max_moves))
    written = text_states().flatmap(lambda start: played(start, 4))
    return st.one_of(dealt, written)


@st.composite
def played_out(draw: st.DrawFn, start: FlankState) -> FlankState:
    """`start` played to the end with random legal moves."""
    state = start
    while not state.is_over:
        state = state.play(draw(st.sampled_from(state.legal_moves())))
    return state


def finished_states() -> st.SearchStrategy[FlankState]:
    """Dealt boards and position texts played to the end."""
    return st.one_of(dealt_starts(), text_states()).flatmap(played_out)


def draw_legal_move(state: FlankState, data: st.DataObject) -> int:
    """A legal move of `state`, drawn and noted (games that are over are skipped)."""
    assume(not state.is_over)
    move = data.draw(st.sampled_from(state.legal_moves()), label="move")
    note(f"move {state.format_move(move)}")
    return move


def show(state: FlankState) -> None:
    """Record the position in a falsifying example's report."""
    note(f"{state.game.name}: {state.format_position()!r}")


# --- 1. The engine agrees with the reference. ------------------------------------------------


@FAST
@given(states(), st.data())
def test_moves_and_flips_match_the_reference(state: FlankState, data: st.DataObject) -> None:
    show(state)
    letter = state.game.letters[state.to_move]
    expected = [] if state.is_over else ref_moves(state.cells(), letter)
    assert list(state.legal_moves()) == expected
    move = draw_legal_move(state, data)
    assert state.play(move).cells() == ref_play(state.cells(), move, letter)


@FAST
@given(text_states())
def test_the_seat_to_move_gets_exactly_the_reference_moves(state: FlankState) -> None:
    # Every seat's moves: if a text puts a stuck seat to move, the next one with moves plays.
    show(state)
    cells = state.cells()
    for seat, letter in enumerate(state.game.letters):
        if seat == state.to_move and not state.is_over:
            assert list(state.legal_moves()) == ref_moves(cells, letter)
        elif seat in state.passed:
            assert ref_moves(cells, letter) == []


# --- 2. Piece counts add up after a move. ---------------------------------------------------


@FAST
@given(states(), st.data())
def test_piece_counts_add_up_after_a_move(state: FlankState, data: st.DataObject) -> None:
    show(state)
    move = draw_legal_move(state, data)
    child = state.play(move)
    grid = state.board.grid
    before, after = "".join(state.cells()), "".join(child.cells())
    flipped = grid.squares(child.flipped)
    letters = state.game.letters
    mover = letters[state.to_move]
    lost = Counter(before[square] for square in flipped)
    counts_before, counts_after = Counter(before), Counter(after)
    assert child.last_move == move
    changed = [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    assert changed == sorted([*flipped, move])
    assert mover not in lost and EMPTY not in lost and BLOCKED not in lost
    assert counts_after[mover] == counts_before[mover] + 1 + len(flipped)
    for letter in letters:
        if letter != mover:
            assert counts_after[letter] == counts_before[letter] - lost[letter]
    assert [i for i, ch in enumerate(after) if ch == BLOCKED] == [
        i for i, ch in enumerate(before) if ch == BLOCKED
    ]


# --- 3. Passes happen only when no move exists. ----------------------------------------------


def check_turn(state: FlankState, mover: int) -> None:
    """`state` follows `mover`: the seats passed over are stuck, the one to move is not."""
    seats = len(state.game.seats)
    can_move = seats_with_moves(state)
    for seat in state.passed:
        assert seat not in can_move
    if state.is_over:
        assert can_move == []
        return
    assert state.to_move in can_move
    # The seats passed over are exactly those between the mover and the seat to move.
    between = []
    seat = (mover + 1) % seats
    while seat != state.to_move:
        between.append(seat)
        seat = (seat + 1) % seats
    assert list(state.passed) == between


@FAST
@given(states(), st.data())
def test_passes_only_when_no_move_exists(state: FlankState, data: st.DataObject) -> None:
    show(state)
    move = draw_legal_move(state, data)
    check_turn(state.play(move), state.to_move)


@FAST
@given(position_texts())
def test_a_stuck_seat_to_move_is_passed_over(game_and_text: tuple[FlankGame, str]) -> None:
    game, text = game_and_text
    note(text)
    state = game.parse_position(text)
    written = game.letters.index(text.split()[1])
    check_turn(state, written - 1)


# --- 4. Finished games. ----------------------------------------------------------------------


@SLOW
@given(finished_states())
def test_a_finished_game(state: FlankState) -> None:
    show(state)
    assert state.legal_moves() == ()
    assert seats_with_moves(state) == []
    scores = ref_scores(state.cells(), values_of(state), state.game.letters)
    best = max(scores)
    assert state.winners() == tuple(seat for seat, score in enumerate(scores) if score == best)
    for square in range(state.board.grid.size):
        try:
            state.play(square)
        except IllegalMoveError:
            continue
        raise AssertionError(f"{state.format_move(square)} was played in a finished game")


@FAST
@given(states())
def test_no_winners_while_playing(state: FlankState) -> None:
    show(state)
    assert (state.winners() == ()) == (not state.is_over)


# --- 5. Notation round-trips. ----------------------------------------------------------------


@FAST
@given(states())
def test_position_text_round_trips(state: FlankState) -> None:
    show(state)
    again = state.game.parse_position(state.format_position())
    assert again.format_position() == state.format_position()
    assert again.to_move == state.to_move
    assert again.legal_moves() == state.legal_moves()
    assert again.scores() == state.scores()


@FAST
@given(states())
def test_move_text_round_trips(state: FlankState) -> None:
    show(state)
    for square in range(state.board.grid.size):
        assert state.parse_move(state.format_move(square)) == square


@FAST
@given(states())
def test_observation_survives_json(state: FlankState) -> None:
    show(state)
    observation = state.observation()
    assert json.loads(json.dumps(observation)) == observation
    assert state.observation(0) == observation


# --- 6. The same board number deals the same board. ------------------------------------------


@FAST
@given(st.sampled_from(GAME_NAMES), st.data())
def test_a_board_number_deals_one_board(name: str, data: st.DataObject) -> None:
    game = get_game(name)
    assert isinstance(game, FlankGame)
    options = data.draw(small_options(game), label="options")
    seed = data.draw(st.integers(0, MAX_BOARD_NUMBER), label="board number")
    try:
        first = game.new(options, seed)
    except OptionError:
        reject()
    assert game.new(options, seed).format_position() == first.format_position()
    assert game.new(dict(options), seed) == first
    # A board where the first player is stuck is never dealt: nobody is passed at the start.
    assert first.passed == ()
    assert not first.is_over
    if options.get("first", "random") != "random":
        assert first.to_move == game.seats.index(str(options["first"]))


# --- 7. The fast perft equals the plain tree walk. -------------------------------------------


@FAST
@given(states(max_moves=60), st.integers(1, 3))
def test_fast_perft_equals_the_plain_walk(state: FlankState, depth: int) -> None:
    show(state)
    fast = state.perft(depth)
    assert fast == plain_perft(state, depth)


@FAST
@given(states(), st.integers(-3, -1))
def test_perft_refuses_a_negative_depth_like_the_plain_walk(state: FlankState, depth: int) -> None:
    show(state)
    with pytest.raises(ValueError, match="depth"):
        plain_perft(state, depth)
    with pytest.raises(ValueError, match="depth"):
        state.perft(depth)


# --- 8. Scores. ------------------------------------------------------------------------------


@FAST
@given(states())
def test_scores_count_squares_and_values(state: FlankState) -> None:
    show(state)
    expected = ref_scores(state.cells(), values_of(state), state.game.letters)
    assert list(state.scores()) == expected


# --- 9. Illegal moves are refused. -----------------------------------------------------------


@FAST
@given(states(), st.data())
def test_illegal_moves_are_refused(state: FlankState, data: st.DataObject) -> None:
    show(state)
    size = state.board.grid.size
    legal = set(state.legal_moves())
    illegal = [square for square in range(size) if square not in legal]
    junk: list[object] = [-1, size, size + 7, True, False, None, "a1", 1.0]
    move = data.draw(st.sampled_from(illegal + junk), label="move")
    note(f"move {move!r}")
    before = state.format_position()
    try:
        state.play(move)  # type: ignore[arg-type]
    except IllegalMoveError:
        pass
    else:
        raise AssertionError(f"{move!r} was played but is not a legal move")
    assert state.format_position() == before
    assert set(state.legal_moves()) == legal
