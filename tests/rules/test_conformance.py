"""Conformance: every registered game keeps the promises of the generic `Game`/`State` interface.

In the spirit of OpenSpiel's games_sim_test, this module knows no game in particular. It
walks the registry `parlour.rules.GAMES`, derives option sets from each game's
`option_specs` (the defaults, every choice of each ChoiceOption, each IntOption at its
minimum and its maximum), deals a few board numbers with each, and plays a seeded random
game from every deal. The states met along the way then go through the same checks:
random games end, listed moves are accepted and others refused, finished states name their
winners, notation and positions read back, observations are JSON, board numbers replay,
states never change, perft agrees with the plain tree walk, and the "Best" hint is sound.
A game added to the registry later gets every check without a change here.

Only the interface is used: moves are opaque values compared with `==`, positions opaque
texts. A game with a `max_plies` option is played with a ply limit, since such a game may
otherwise never end; where an option set lifts the limit, the playout is capped instead.
Option sets that cannot be dealt (OptionError) are left out when the tests are collected,
except the defaults, which must always deal. Sets other than the defaults are played on
two board numbers only, to keep big boards affordable.
"""

import copy
import dataclasses
import functools
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from parlour.rules import (
    GAMES,
    IllegalMoveError,
    OptionError,
    UnknownGameError,
    get_game,
)
from parlour.rules.game import Game, State, plain_perft
from parlour.rules.options import ChoiceOption, IntOption, OptionValue

BOARDS = (0, 1, 7, 12345, 2**53 - 1)
"""Board numbers dealt with the default options; other option sets use two of them."""
PLY_LIMIT_OPTION = "max_plies"
"""The option, where a game has it, that ends a game drawn after so many plies (0: never)."""
PLY_LIMIT = 150
"""The `max_plies` the playouts use, where the game has that option."""
END_CAP = 10_000
"""A random game that is bound to end must end within this many plies."""
OPEN_CAP = 300
"""Where an option set lifts the ply limit, a playout stops after this many plies."""
SAMPLED_STATES = 6
"""How many states, evenly spread over a playout, the costlier checks look at."""
FOREIGN_MOVES = 25
"""How many moves from elsewhere in the game each sampled state is offered."""
JUNK_MOVES: tuple[object, ...] = (None, -1, "x", object(), (), 1.5, 10**40)
"""Values that are no move of any game."""


@dataclass(frozen=True)
class Case:
    """One game, one option set and one board number: a deal and a random game from it."""

    name: str
    label: str
    options: tuple[tuple[str, OptionValue], ...]
    board: int

    @property
    def game(self) -> Game[Any]:
        """The registered game."""
        return GAMES[self.name]

    def new(self) -> State[Any]:
        """A fresh deal of this case."""
        return self.game.new(dict(self.options), self.board)

    def __str__(self) -> str:
        return f"{self.name}-{self.label}-{self.board}"


def ply_limit_spec(game: Game[Any]) -> IntOption | None:
    """The game's `max_plies` option, if it has one."""
    for spec in game.option_specs:
        if spec.name == PLY_LIMIT_OPTION and isinstance(spec, IntOption):
            return spec
    return None


def option_sets(game: Game[Any]) -> list[tuple[str, dict[str, OptionValue]]]:
    """Labelled option sets: the defaults, every choice, every whole-number bound; no repeats."""
    base: dict[str, OptionValue] = {}
    limit = ply_limit_spec(game)
    if limit is not None:
        base[limit.name] = max(limit.minimum, min(PLY_LIMIT, limit.maximum))
    variants: list[tuple[str, OptionValue]] = []
    for spec in game.option_specs:
        if isinstance(spec, ChoiceOption):
            variants += [(spec.name, choice) for choice in spec.choices]
        else:
            variants += [(spec.name, spec.minimum), (spec.name, spec.maximum)]
    sets = [("defaults", base)]
    seen = [game.resolve_options(base)]
    for name, value in variants:
        options = {**base, name: value}
        resolved = game.resolve_options(options)
        if resolved not in seen:
            seen.append(resolved)
            sets.append((f"{name}={value}", options))
    return sets


def deals(game: Game[Any], options: dict[str, OptionValue], board: int) -> bool:
    """False if these options cannot be dealt on this board (OptionError); else True."""
    try:
        game.new(options, board)
    except OptionError:
        return False
    except Exception:
        return True  # not ours to judge here: the tests will show the error
    return True


def build_cases() -> list[Case]:
    """Every game with every option set that deals, on all boards or (beyond defaults) two."""
    cases = []
    for name, game in sorted(GAMES.items()):
        for index, (label, options) in enumerate(option_sets(game)):
            if index == 0:
                boards: tuple[int, ...] = BOARDS
            else:
                boards = (BOARDS[index % len(BOARDS)], BOARDS[(index + 2) % len(BOARDS)])
            for board in boards:
                if index == 0 or deals(game, options, board):
                    cases.append(Case(name, label, tuple(sorted(options.items())), board))
    return cases


ALL_CASES = build_cases()
CASES = [pytest.param(case, id=str(case)) for case in ALL_CASES]


@dataclass(frozen=True)
class Playout:
    """A seeded random game: `states[i + 1]` is `states[i]` after `moves[i]`."""

    case: Case
    states: tuple[State[Any], ...]
    moves: tuple[Any, ...]
    move_texts: tuple[str, ...]
    fingerprints: tuple[tuple[object, ...], ...]
    """What each state showed when it was reached, before any move was played on it."""
    bounded: bool
    """Whether the game is bound to end within END_CAP plies (else it was capped)."""

    @property
    def final(self) -> State[Any]:
        """The last state reached: finished, unless the playout was capped."""
        return self.states[-1]

    def sample(self) -> list[State[Any]]:
        """A few states spread evenly, always with the first, the last and the one before."""
        last = len(self.states) - 1
        picks = {round(k * last / (SAMPLED_STATES - 1)) for k in range(SAMPLED_STATES)}
        picks.add(max(last - 1, 0))
        return [self.states[i] for i in sorted(picks)]

    def seen_moves(self) -> list[Any]:
        """Every move played, and every move legal at a sampled state, without repeats."""
        pool: list[Any] = []
        for move in [*self.moves, *(m for s in self.sample() for m in s.legal_moves())]:
            if move not in pool:
                pool.append(move)
        return pool


def ply_limit(case: Case) -> int | None:
    """The case's `max_plies` (0: no limit), or None if the game has no such option."""
    if ply_limit_spec(case.game) is None:
        return None
    return int(case.game.resolve_options(dict(case.options))[PLY_LIMIT_OPTION])


def is_bounded(case: Case) -> bool:
    """Whether the game is bound to end: it has no ply limit option, or a limit is set."""
    limit = ply_limit(case)
    return limit is None or 0 < limit <= END_CAP


@functools.cache
def playout(case: Case) -> Playout:
    """Deal the case and play uniformly random legal moves until the end or the cap."""
    bounded = is_bounded(case)
    cap = END_CAP if bounded else OPEN_CAP
    rng = random.Random(str(case))
    state = case.new()
    states, moves, texts = [state], list[Any](), list[str]()
    fingerprints = [fingerprint(state)]
    while not state.is_over and len(moves) < cap:
        legal = state.legal_moves()
        assert legal, f"{case}: not over, but no legal move at {state.format_position()!r}"
        move = rng.choice(legal)
        texts.append(state.format_move(move))
        moves.append(move)
        state = state.play(move)
        states.append(state)
        fingerprints.append(fingerprint(state))
    return Playout(case, tuple(states), tuple(moves), tuple(texts), tuple(fingerprints), bounded)


def where(state: State[Any]) -> str:
    """A state's position text, for failure messages."""
    return repr(state.format_position())


def formatted(state: State[Any], moves: tuple[Any, ...]) -> Counter[str]:
    """The multiset of `moves` written in the state's notation."""
    return Counter(state.format_move(move) for move in moves)


def assert_refused(state: State[Any], move: object) -> None:
    """Playing `move` at `state` raises IllegalMoveError, not another exception."""
    try:
        state.play(move)
    except IllegalMoveError:
        return
    except Exception as error:
        pytest.fail(
            f"play({move!r}) at {where(state)} raised {type(error).__name__}: {error}"
            " instead of IllegalMoveError"
        )
    pytest.fail(f"play({move!r}) at {where(state)} was accepted, but it is not listed")


def fingerprint(state: State[Any]) -> tuple[object, ...]:
    """The cheap things a state shows (no position text: too slow for every ply)."""
    return (state.to_move, state.passed, state.is_over, state.scores())


def snapshot(state: State[Any]) -> tuple[object, ...]:
    """Everything a state shows, to tell whether it changed."""
    return (
        state.format_position(),
        formatted(state, state.legal_moves()),
        state.scores(),
        state.to_move,
        state.passed,
        state.is_over,
        copy.deepcopy(state.observation()),
    )


def json_round_trip(value: object) -> object:
    """The value written as strict JSON and read back."""
    return json.loads(json.dumps(value, allow_nan=False))


def clear_containers(value: object) -> None:
    """Empty every list and dict inside `value`, innermost first."""
    if isinstance(value, dict):
        for item in value.values():
            clear_containers(item)
        value.clear()
    elif isinstance(value, list):
        for item in value:
            clear_containers(item)
        value.clear()


def perft_depths(run: Playout) -> Iterator[tuple[State[Any], int]]:
    """Where perft is compared, how deep: 2 plies from mid-game, 1 from the start and end."""
    yield run.states[len(run.states) // 2], 2
    yield run.states[0], 1
    yield run.final, 1


# 1. Random games end.


@pytest.mark.parametrize(
    "case", [pytest.param(case, id=str(case)) for case in ALL_CASES if is_bounded(case)]
)
def test_random_playouts_end(case: Case) -> None:
    run = playout(case)
    assert run.final.is_over, f"{case}: not over after {len(run.moves)} random plies"
    limit = ply_limit(case)
    if limit:
        assert len(run.moves) <= limit, f"{case}: {len(run.moves)} moves despite max_plies"


# 2. Listed moves are accepted; anything else is refused.


@pytest.mark.parametrize("case", CASES)
def test_every_listed_move_is_accepted(case: Case) -> None:
    for state in playout(case).sample():
        legal = state.legal_moves()
        assert isinstance(legal, tuple)
        texts = formatted(state, legal)
        assert all(count == 1 for count in texts.values()), f"repeated moves at {where(state)}"
        for move in legal:
            child = state.play(move)
            assert isinstance(child, State)
            assert child.game is case.game


@pytest.mark.parametrize("case", CASES)
def test_unlisted_moves_are_refused(case: Case) -> None:
    run = playout(case)
    rng = random.Random(str(case))
    pool = run.seen_moves()
    for state in run.sample():
        legal = state.legal_moves()
        foreign = [move for move in pool if move not in legal]
        for move in rng.sample(foreign, min(FOREIGN_MOVES, len(foreign))):
            assert_refused(state, move)
        for junk in JUNK_MOVES:
            assert_refused(state, junk)
    if run.final.is_over and len(run.states) > 1:
        for move in [*run.states[-2].legal_moves(), *run.moves]:
            assert_refused(run.final, move)


# 3. Finished states name their winners; unfinished ones name none.


@pytest.mark.parametrize("case", CASES)
def test_winners_and_scores(case: Case) -> None:
    run = playout(case)
    seats = len(case.game.seats)
    for state in run.states:
        scores = state.scores()
        assert len(scores) == seats
        assert all(isinstance(score, int) for score in scores)
        assert 0 <= state.to_move < seats
        assert all(0 <= seat < seats for seat in state.passed)
        if not state.is_over:
            assert state.winners() == (), f"winners while playing at {where(state)}"
            assert state.legal_moves(), f"no legal move while playing at {where(state)}"
    final = run.final
    if not final.is_over:
        return
    assert final.legal_moves() == ()
    assert final.passed == ()
    winners = final.winners()
    assert winners, f"a finished game without winners at {where(final)}"
    assert len(set(winners)) == len(winners)
    assert set(winners) <= set(range(seats))
    if case.game.highest_score_wins:
        scores = final.scores()
        top = max(scores)
        assert set(winners) == {seat for seat in range(seats) if scores[seat] == top}


# 4. Notation reads back.


@pytest.mark.parametrize("case", CASES)
def test_move_texts_read_back(case: Case) -> None:
    for state in playout(case).sample():
        for move in state.legal_moves():
            text = state.format_move(move)
            assert isinstance(text, str)
            assert state.parse_move(text) == move, f"{text!r} reads back wrong at {where(state)}"


@pytest.mark.parametrize("case", CASES)
def test_position_texts_read_back(case: Case) -> None:
    for state in playout(case).sample():
        text = state.format_position()
        back = case.game.parse_position(text)
        assert back.format_position() == text
        assert back.is_over == state.is_over, f"the end is lost reading {text!r}"
        assert back.winners() == state.winners(), f"winners differ after reading {text!r}"
        if not state.is_over:
            assert back.to_move == state.to_move, f"to_move differs after reading {text!r}"
            assert formatted(back, back.legal_moves()) == formatted(state, state.legal_moves())


# 5. Observations and descriptions are JSON.


@pytest.mark.parametrize("case", CASES)
def test_observations_are_json(case: Case) -> None:
    seats: list[int | None] = [None, *range(len(case.game.seats))]
    for state in playout(case).sample():
        for seat in seats:
            observation = state.observation(seat)
            assert isinstance(observation, dict)
            assert json_round_trip(observation) == observation, f"seat {seat} at {where(state)}"
            assert observation.get("position") == state.format_position()
            if not case.game.private_observations:
                assert observation == state.observation(None), "a public game shows all alike"


# 6. A board number replays the same game.


@pytest.mark.parametrize("case", CASES)
def test_same_board_number_replays(case: Case) -> None:
    run = playout(case)
    first, second = case.new(), case.new()
    assert first.format_position() == second.format_position() == run.states[0].format_position()
    state = first
    for text in run.move_texts:
        state = state.play(state.parse_move(text))
    assert state.format_position() == run.final.format_position()
    assert state.is_over == run.final.is_over


# 7. States never change.


@pytest.mark.parametrize("case", CASES)
def test_states_are_immutable(case: Case) -> None:
    run = playout(case)
    for state, then in zip(run.states, run.fingerprints, strict=True):
        assert fingerprint(state) == then, f"a state changed after a move: {where(state)}"
    rng = random.Random(str(case))
    for state in run.sample():
        before = snapshot(state)
        legal = state.legal_moves()
        for move in rng.sample(legal, min(5, len(legal))):
            state.play(move)
        observation = state.observation()
        clear_containers(observation)
        for attribute, value in [("to_move", state.to_move + 1), ("passed", (0,))]:
            with pytest.raises((AttributeError, dataclasses.FrozenInstanceError)):
                setattr(state, attribute, value)
        assert snapshot(state) == before, f"a state changed: {before[0]!r}"


def test_the_snapshot_notices_a_change() -> None:
    game = GAMES[sorted(GAMES)[0]]
    start = game.new()
    later = start.play(start.legal_moves()[0])
    assert snapshot(start) != snapshot(later)
    observation = copy.deepcopy(start.observation())
    clear_containers(observation)
    assert observation == {}


# 8. Perft agrees with the plain tree walk.


@pytest.mark.parametrize("case", CASES)
def test_perft_matches_the_plain_walk(case: Case) -> None:
    run = playout(case)
    for state, deepest in perft_depths(run):
        for depth in range(deepest + 1):
            assert state.perft(depth) == plain_perft(state, depth), f"{depth} at {where(state)}"
        with pytest.raises(ValueError):
            state.perft(-1)
    if run.final.is_over:
        assert [run.final.perft(depth) for depth in range(3)] == [1, 1, 1]


# 9. The "Best" hint is a choice among the legal moves.


@pytest.mark.parametrize("case", CASES)
def test_best_moves_are_legal(case: Case) -> None:
    for state in playout(case).sample():
        best = state.best_moves()
        legal = state.legal_moves()
        if state.is_over:
            assert best == ()
        else:
            assert best, f"no best move at {where(state)}"
            assert all(move in legal for move in best), f"an illegal best move at {where(state)}"


# 10. The registry, the options and the dealing.


@pytest.mark.parametrize("name", sorted(GAMES))
def test_registry_entry(name: str) -> None:
    game = GAMES[name]
    assert game.name == name
    assert get_game(name) is game
    assert name == name.lower() and name.strip() and " " not in name
    assert isinstance(game.title, str) and game.title.strip()
    assert len(game.seats) >= 1
    assert len(set(game.seats)) == len(game.seats)
    assert all(seat and seat == seat.lower() for seat in game.seats)
    description = game.describe()
    assert json_round_trip(description) == description
    assert description["name"] == name


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGameError):
        get_game("nope")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_option_specs_are_sound(name: str) -> None:
    specs = GAMES[name].option_specs
    assert len({spec.name for spec in specs}) == len(specs)
    for spec in specs:
        assert spec.check(spec.default) == spec.default
        if isinstance(spec, IntOption):
            assert spec.minimum <= spec.default <= spec.maximum
        else:
            assert len(set(spec.choices)) == len(spec.choices)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bad_options_and_board_numbers_are_refused(name: str) -> None:
    game = GAMES[name]
    with pytest.raises(OptionError):
        game.new({"no-such-option": 1})
    for board in (-1, 2**53):
        with pytest.raises(OptionError):
            game.new(seed=board)
    for spec in game.option_specs:
        bad: list[OptionValue] = ["no-such-choice"]
        if isinstance(spec, IntOption):
            bad = [spec.minimum - 1, spec.maximum + 1]
        for value in bad:
            with pytest.raises(OptionError):
                game.new({spec.name: value})


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("board", BOARDS)
def test_the_defaults_deal(name: str, board: int) -> None:
    game = GAMES[name]
    state = game.new(None, board)
    assert state.game is game
    assert state.format_position() == game.new({}, board).format_position()
