"""Rating accuracy: how well OpenSkill's models, Elo and two baselines foresee games.

Run: `python benchmarks/ratings.py` (after `pip install -e .`); `--results FILE` to replay
another arena file.

The arena's games (benchmarks/arena.py) are replayed in file order, each game (Tribolo,
Othello, ...) a pool of its own whose players are its pairing's two computer levels; a
level on two seats of a 3-seat game is one player (`parlour.server.ratings.combined`).
Before each game is rated, every rater gives each seat its chance to win, scored as:

- accuracy: over the games one seat won, the share whose winner had the highest chance (a
  tie of k seats at the top counts 1/k);
- log loss: -sum over seats of y ln p, where y is the seat's share of the win (a shared win
  of 2 seats is 1/2 each) and p its chance; a coin flip scores ln 2 = 0.693 with 2 seats;
- Brier: sum over seats of (p - y)^2; a coin flip scores 0.5 with 2 seats, 0.667 with 3.

Each OpenSkill model is read twice: by the library's `predict_win` (one formula for all
five: a normal curve, and with 3 seats pairwise chances averaged, so never over 2/3), and
by its own likelihood of first place (`own`): Luce's exp(mu / c) shares for PlackettLuce
and BradleyTerry, normal performances for ThurstoneMosteller. Raters: the five models at
their defaults; `parlour.server.ratings` itself (it must match its model's row); plain Elo
(start 1500, K 32, 2 seats only, a draw half a win); "higher level": the searching side
always, its chance the share of its games won so far (Laplace's rule); a coin flip.

The arena has only two levels a game, mostly one-sided, so a made-up population follows:
players of known skill meeting at random, 2 or 3 at a time, as the server's people will.

Last: the games a new player takes to settle (sigma down to the server's provisional line)
against each game's computer levels as rated at the end, winning every game, losing every
game, or in turn; against the two levels in turn with 2 seats, both at once with 3.
"""

import argparse
import math
import platform
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any, Final, Generic, Protocol, TypeVar

from arena import DEFAULT_RESULTS, PAIRINGS, Pairing, load_results
from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from parlour.server import ratings
from parlour.server.ratings import NEW, PROVISIONAL_SIGMA, Rating, combined, computer_player

ELO_START: Final = 1500.0
ELO_K: Final = 32.0
STEPS: Final = 160
"""Intervals of the integral in `normal_chances` (even, for Simpson's rule)."""
PLAYERS: Final = 40
"""The made-up population's size."""
SKILL_SPREAD: Final = 6.0
"""The spread (standard deviation) of its players' skills around mu 25."""
POPULATION_GAMES: Final = 2000
WARM_UP: Final = 500
"""The population's first games, rated but not scored."""
SETTLE_LIMIT: Final = 300
"""Games a new player plays at most in the settling runs."""
PATHS: Final = ("wins", "losses", "in turn")
EVEN: Final = Rating(25.0, 2.0)
"""A settled player of a new player's mu."""


class ModelRating(Protocol):
    mu: float
    sigma: float


R = TypeVar("R", bound=ModelRating)


class Model(Protocol[R]):
    """What the benchmark uses of an OpenSkill model."""

    @property
    def beta(self) -> float: ...

    def rating(
        self, mu: float | None = None, sigma: float | None = None, name: str | None = None
    ) -> R: ...

    def rate(self, teams: list[list[R]], ranks: list[float] | None = None) -> list[list[R]]: ...

    def predict_win(self, teams: list[list[R]]) -> list[float]: ...


Reading = Callable[[Sequence[Rating], float], list[float]]
"""Each seat's chance of first place from the seats' ratings and the model's beta."""


def luce_chances(table: Sequence[Rating], beta: float) -> list[float]:
    """Plackett-Luce's chance of first place, exp(mu / c) shared out, c^2 the sum over seats
    of sigma^2 + beta^2 (with 2 seats, Bradley-Terry's chance to win)."""
    c = math.sqrt(sum(rating.sigma**2 + beta**2 for rating in table))
    top = max(rating.mu for rating in table)
    weights = [math.exp((rating.mu - top) / c) for rating in table]
    return [weight / sum(weights) for weight in weights]


def normal_chances(table: Sequence[Rating], beta: float) -> list[float]:
    """Thurstone-Mosteller's chance of first place, each performance normal with mean mu and
    variance sigma^2 + beta^2 (with 2 seats, `predict_win`); by Simpson's rule."""
    spreads = [math.sqrt(rating.sigma**2 + beta**2) for rating in table]
    low = min(r.mu - 8 * s for r, s in zip(table, spreads, strict=True))
    high = max(r.mu + 8 * s for r, s in zip(table, spreads, strict=True))
    width = (high - low) / STEPS
    chances = [0.0] * len(table)
    for step in range(STEPS + 1):
        x = low + step * width
        weight = 1 if step in (0, STEPS) else 4 if step % 2 else 2
        z = [(x - r.mu) / s for r, s in zip(table, spreads, strict=True)]
        below = [0.5 * math.erfc(-zk / math.sqrt(2)) for zk in z]
        for seat, (zk, spread) in enumerate(zip(z, spreads, strict=True)):
            others = math.prod(b for k, b in enumerate(below) if k != seat)
            chances[seat] += weight * math.exp(-zk * zk / 2) / spread * others
    return [chance * width / 3 / math.sqrt(2 * math.pi) for chance in chances]


class Rater(Protocol):
    """One way of rating a game's players: chances before a game, an update after it."""

    def chances(self, players: Sequence[str]) -> list[float]:
        """The chances to win as the library predicts them (for the others, their own)."""

    def own(self, players: Sequence[str]) -> list[float]:
        """The chances to win by the rater's own likelihood."""

    def update(self, players: Sequence[str], ranks: Sequence[int], shares: list[float]) -> None:
        """Take in one game: each seat's player, place and share of the win."""


@dataclass
class OpenSkillRater(Generic[R]):
    """An OpenSkill model's `predict_win` and `rate`, a player on several seats combined."""

    model: Model[R]
    reading: Reading
    table: dict[str, Rating] = field(default_factory=dict)

    def ratings(self, players: Sequence[str]) -> list[Rating]:
        return [self.table.get(player, NEW) for player in players]

    def teams(self, players: Sequence[str]) -> list[list[R]]:
        return [[self.model.rating(mu=r.mu, sigma=r.sigma)] for r in self.ratings(players)]

    def chances(self, players: Sequence[str]) -> list[float]:
        return self.model.predict_win(self.teams(players))

    def own(self, players: Sequence[str]) -> list[float]:
        if len(players) == 2 and self.reading is normal_chances:
            return self.chances(players)  # the same, in closed form
        return self.reading(self.ratings(players), self.model.beta)

    def update(self, players: Sequence[str], ranks: Sequence[int], shares: list[float]) -> None:
        after = self.model.rate(self.teams(players), ranks=[float(rank) for rank in ranks])
        seats = [
            Rating(team[0].mu, team[0].sigma, rating.games + 1)
            for team, rating in zip(after, self.ratings(players), strict=True)
        ]
        for player in dict.fromkeys(players):
            held = [rating for name, rating in zip(players, seats, strict=True) if name == player]
            self.table[player] = combined(held)


@dataclass
class ModuleRater:
    """`parlour.server.ratings` as the server will use it."""

    table: dict[str, Rating] = field(default_factory=dict)

    def chances(self, players: Sequence[str]) -> list[float]:
        model = ratings.MODEL
        teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in self.ratings(players)]
        return model.predict_win(teams)

    def own(self, players: Sequence[str]) -> list[float]:
        return ratings.win_chances(self.ratings(players))

    def ratings(self, players: Sequence[str]) -> list[Rating]:
        return [self.table.get(player, NEW) for player in players]

    def update(self, players: Sequence[str], ranks: Sequence[int], shares: list[float]) -> None:
        self.table |= ratings.rate_players(self.table, players, ranks)


@dataclass
class EloRater:
    """Plain Elo for two seats: expected score 1 / (1 + 10^(-difference / 400))."""

    table: dict[str, float] = field(default_factory=dict)

    def chances(self, players: Sequence[str]) -> list[float]:
        first, second = (self.table.get(player, ELO_START) for player in players)
        expected = 1 / (1 + 10 ** ((second - first) / 400))
        return [expected, 1 - expected]

    own = chances

    def update(self, players: Sequence[str], ranks: Sequence[int], shares: list[float]) -> None:
        expected = self.chances(players)
        for player, share, chance in zip(players, shares, expected, strict=True):
            self.table[player] = self.table.get(player, ELO_START) + ELO_K * (share - chance)


@dataclass
class HigherLevelRater:
    """The stronger level always; its chance its share of wins so far, (wins + 1) / (games + 2)."""

    level: str
    won: float = 0.0
    games: int = 0

    def chances(self, players: Sequence[str]) -> list[float]:
        chance = (self.won + 1) / (self.games + 2)
        rest = (1 - chance) / (len(players) - 1)
        return [chance if player == self.level else rest for player in players]

    own = chances

    def update(self, players: Sequence[str], ranks: Sequence[int], shares: list[float]) -> None:
        self.games += 1
        self.won += sum(s for p, s in zip(players, shares, strict=True) if p == self.level)


class CoinFlip:
    """Every seat alike."""

    def chances(self, players: Sequence[str]) -> list[float]:
        return [1 / len(players)] * len(players)

    own = chances

    def update(self, players: Sequence[str], ranks: Sequence[int], shares: list[float]) -> None:
        pass


MODELS: Final[dict[str, tuple[Callable[[], Model[Any]], Reading]]] = {
    "PlackettLuce": (PlackettLuce, luce_chances),
    "BradleyTerryFull": (BradleyTerryFull, luce_chances),
    "BradleyTerryPart": (BradleyTerryPart, luce_chances),
    "ThurstoneMostellerFull": (ThurstoneMostellerFull, normal_chances),
    "ThurstoneMostellerPart": (ThurstoneMostellerPart, normal_chances),
}
MODULE: Final = f"server/ratings.py ({type(ratings.MODEL).__name__})"


def openskill_rater(name: str) -> OpenSkillRater[Any]:
    make, reading = MODELS[name]
    return OpenSkillRater(make(), reading)


def maker(name: str) -> Callable[[Pairing], Rater]:
    """What makes a fresh rater of the model for each pairing."""
    return lambda _: openskill_rater(name)


RATERS: Final[dict[str, Callable[[Pairing], Rater]]] = {
    **{name: maker(name) for name in MODELS},
    MODULE: lambda _: ModuleRater(),
    "Elo (K 32)": lambda _: EloRater(),
    "higher level": lambda pairing: HigherLevelRater(computer_player(pairing.level)),
    "coin flip": lambda _: CoinFlip(),
}


@dataclass(frozen=True)
class Game:
    """One arena game as the raters see it."""

    pairing: Pairing
    players: tuple[str, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def shares(self) -> list[float]:
        return shares_of(self.winners, len(self.players))


def shares_of(winners: Sequence[int], seats: int) -> list[float]:
    """Each seat's share of the win."""
    return [1 / len(winners) if seat in winners else 0.0 for seat in range(seats)]


def pairing_named(name: str) -> Pairing:
    return next(pairing for pairing in PAIRINGS if pairing.name == name)


def game_of(record: dict[str, Any]) -> Game:
    """An arena record as a game: the searching side on its seat, the other level elsewhere.

    With 2 seats the outcome names the winner (Tripppin's scores don't); with 3 the best
    score wins, as the rules say, which must agree with the recorded outcome.
    """
    pairing = pairing_named(record["pairing"])
    scores: list[int] = record["scores"]
    seat: int = record["seat"]
    outcome: str = record["outcome"]
    if len(scores) == 2:
        winners = {"win": (seat,), "loss": (1 - seat,), "draw": (0, 1)}[outcome]
    else:
        winners = tuple(s for s, score in enumerate(scores) if score == max(scores))
        told = "win" if winners == (seat,) else "draw" if seat in winners else "loss"
        if told != outcome:
            raise ValueError(f"{pairing.name} game {record['index']}: scores disagree")
    players = tuple(
        computer_player(pairing.level if s == seat else pairing.opponent)
        for s in range(len(scores))
    )
    return Game(pairing, players, winners, tuple(ratings.ranks_of(scores, winners)))


@dataclass
class Score:
    """A rater's predictions over some games."""

    games: int = 0
    decisive: int = 0
    right: float = 0.0
    log_loss: float = 0.0
    brier: float = 0.0

    def add(self, chances: Sequence[float], winners: Sequence[int]) -> None:
        shares = shares_of(winners, len(chances))
        self.games += 1
        self.log_loss -= sum(
            y * math.log(max(p, 1e-15)) for p, y in zip(chances, shares, strict=True)
        )
        self.brier += sum((p - y) ** 2 for p, y in zip(chances, shares, strict=True))
        if len(winners) == 1:
            self.decisive += 1
            top = [seat for seat, p in enumerate(chances) if p == max(chances)]
            self.right += (winners[0] in top) / len(top)

    def losses(self) -> str:
        if not self.games:
            return f"{'-':>10}{'-':>8}"
        return f"{self.log_loss / self.games:>10.3f}{self.brier / self.games:>8.3f}"


@dataclass
class Replay:
    """What the raters made of the arena's games: scores by (rater, seats) of `chances` and
    of `own`, log loss by (rater, pairing), and each rater at the end, by pairing."""

    library: dict[tuple[str, int], Score] = field(default_factory=dict)
    own: dict[tuple[str, int], Score] = field(default_factory=dict)
    by_pairing: dict[tuple[str, str], Score] = field(default_factory=dict)
    raters: dict[str, dict[str, Rater]] = field(default_factory=dict)


def replay(games: Sequence[Game]) -> Replay:
    """Every rater over the games in file order, each predicting a game before rating it."""
    done = Replay()
    for game in games:
        name, seats = game.pairing.name, len(game.players)
        pool = done.raters.setdefault(
            name, {rater: make(game.pairing) for rater, make in RATERS.items()}
        )
        for rater_name, rater in pool.items():
            if isinstance(rater, EloRater) and seats != 2:
                continue
            chances = rater.chances(game.players)
            done.library.setdefault((rater_name, seats), Score()).add(chances, game.winners)
            done.by_pairing.setdefault((rater_name, name), Score()).add(chances, game.winners)
            own = rater.own(game.players)
            done.own.setdefault((rater_name, seats), Score()).add(own, game.winners)
            rater.update(game.players, game.ranks, game.shares)
    return done


def normal_noise(rng: random.Random) -> float:
    return rng.gauss(0.0, ratings.MODEL.beta)


def gumbel_noise(rng: random.Random) -> float:
    """Gumbel noise of spread beta: the performances under which Plackett-Luce is exact."""
    return -math.log(-math.log(rng.random())) * ratings.MODEL.beta * math.sqrt(6) / math.pi


def population(
    noise: Callable[[random.Random], float], seed: int
) -> dict[tuple[str, int], tuple[Score, Score]]:
    """Each model's (`predict_win`, own) scores by seats over a made-up population: players
    of skill drawn around mu 25, games of 2 or 3 of them at random, each finishing in the
    order of skill plus `noise`; scored after `WARM_UP` games."""
    rng = random.Random(seed)
    skills = [rng.gauss(25.0, SKILL_SPREAD) for _ in range(PLAYERS)]
    tables = [rng.sample(range(PLAYERS), rng.choice((2, 3))) for _ in range(POPULATION_GAMES)]
    results = [[skills[player] + noise(rng) for player in table] for table in tables]
    scores: dict[tuple[str, int], tuple[Score, Score]] = {}
    for name in MODELS:
        rater = openskill_rater(name)
        for index, (table, result) in enumerate(zip(tables, results, strict=True)):
            players = [str(player) for player in table]
            ranks = [1 + sum(other > mine for other in result) for mine in result]
            winners = [ranks.index(1)]
            if index >= WARM_UP:
                library, own = scores.setdefault((name, len(table)), (Score(), Score()))
                library.add(rater.chances(players), winners)
                own.add(rater.own(players), winners)
            rater.update(players, ranks, shares_of(winners, len(players)))
    return scores


def games_to_settle(model: Model[Any], levels: Sequence[Rating], seats: int, path: str) -> int:
    """Games until a new player's sigma is down to the provisional line, against `levels`
    held there (in turn with 2 seats, both at once with 3); past `SETTLE_LIMIT` if never."""
    player = NEW
    for played in range(1, SETTLE_LIMIT + 1):
        won = path == "wins" or (path == "in turn" and played % 2 == 1)
        opponents = [levels[played % 2]] if seats == 2 else list(levels)
        places = list(range(1, seats + 1))
        ranks = places if won else [seats, *places[:-1]]
        teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in [player, *opponents]]
        after = model.rate(teams, ranks=[float(rank) for rank in ranks])[0][0]
        player = Rating(after.mu, after.sigma, played)
        if player.sigma <= PROVISIONAL_SIGMA:
            return played
    return SETTLE_LIMIT + 1


def span(counts: Sequence[int]) -> str:
    """The fewest and most of some game counts, as `12-30`; past the limit as `>300`."""
    low, high = (
        str(n) if n <= SETTLE_LIMIT else f">{SETTLE_LIMIT}" for n in (min(counts), max(counts))
    )
    return low if low == high else f"{low}-{high}"


def print_conditions(path: Path, games: Sequence[Game]) -> None:
    counts = {seats: sum(len(g.players) == seats for g in games) for seats in (2, 3)}
    print(
        f"python {platform.python_version()}, openskill {version('openskill')}, models at their"
        f" defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300); Elo from {ELO_START:g}, K"
        f" {ELO_K:g}"
    )
    print(
        f"{len(games)} games from {path}, replayed in file order: {counts[2]} with 2 seats,"
        f" {counts[3]} with 3"
    )
    for title in dict.fromkeys(g.pairing.title() for g in games):
        mine = [g for g in games if g.pairing.title() == title]
        won = sum(g.shares[g.players.index(computer_player(g.pairing.level))] for g in mine)
        draws = sum(len(g.winners) > 1 for g in mine)
        print(f"  {title}: {len(mine)} games, the first won {won:g}, {draws} drawn")
    print()


def print_scores(done: Replay) -> None:
    print("the arena's games, each predicted before it is rated:")
    print(
        f"{'rater':<34}{'seats':>5}{'games':>7}{'decisive':>9}{'accuracy':>9}{'log loss':>10}"
        f"{'Brier':>8}  |{'log loss':>10}{'Brier':>8}"
    )
    print(f"{'':<64}predict_win  |{'own':>18}")
    for seats in (2, 3):
        for name in RATERS:
            library = done.library.get((name, seats), Score())
            own = done.own.get((name, seats), Score())
            accuracy = (
                f"{library.right / library.decisive:>9.1%}" if library.games else f"{'-':>9}"
            )
            print(
                f"{name:<34}{seats:>5}{library.games:>7}{library.decisive:>9}{accuracy}"
                f"{library.losses()}  |{own.losses()}"
            )
        print()


def print_pairings(done: Replay, names: Sequence[str]) -> None:
    print("log loss by game (predict_win):")
    print(f"{'rater':<34}" + "".join(f"{name:>10}" for name in names))
    for rater in RATERS:
        cells = []
        for name in names:
            score = done.by_pairing.get((rater, name))
            cells.append(f"{score.log_loss / score.games:>10.3f}" if score else f"{'-':>10}")
        print(f"{rater:<34}" + "".join(cells))
    print()


def print_population() -> None:
    print(
        f"a made-up population: {PLAYERS} players, skills normal around mu 25 (spread"
        f" {SKILL_SPREAD:g}), {POPULATION_GAMES} games of 2 or 3 of them at random, placed by"
        f" skill plus noise of spread beta; log loss after the first {WARM_UP} games:"
    )
    runs = {"normal": population(normal_noise, 1), "Gumbel": population(gumbel_noise, 2)}
    print(
        f"{'':<24}"
        + "".join(f"{f'{noise} noise, {s} seats':>24}" for noise in runs for s in (2, 3))
    )
    print(f"{'model':<24}" + f"{'predict_win':>14}{'own':>10}" * 4)
    for name in MODELS:
        cells = []
        for scores in runs.values():
            for seats in (2, 3):
                library, own = scores[(name, seats)]
                cells.append(
                    f"{library.log_loss / library.games:>14.3f}{own.log_loss / own.games:>10.3f}"
                )
        print(f"{name:<24}" + "".join(cells))
    games = {s: runs["normal"][("PlackettLuce", s)][0].games for s in (2, 3)}
    print(f"(scored: {games[2]} games of 2 seats, {games[3]} of 3, in each run)")
    print()


def print_levels(done: Replay) -> None:
    print(f"the computer levels at the end by {MODULE}:")
    print(f"{'game':<11}{'level':<18}{'shown':>6}{'mu':>7}{'sigma':>7}{'ordinal':>8}  provisional")
    for name, pool in done.raters.items():
        rater = pool[MODULE]
        assert isinstance(rater, ModuleRater)
        for player, rating in rater.table.items():
            print(
                f"{name:<11}{player:<18}{rating.display:>6}{rating.mu:>7.1f}{rating.sigma:>7.2f}"
                f"{rating.ordinal:>8.1f}  {'yes' if rating.provisional else 'no'}"
            )
    print()


def print_settling(done: Replay) -> None:
    print(
        f"games for a new player to settle (sigma down to {PROVISIONAL_SIGMA:g}) against each"
        " game's computer levels as rated at the end, fewest-most over the games:"
    )
    print(f"{'model':<24}" + "".join(f"{f'{s} seats, {p}':>17}" for s in (2, 3) for p in PATHS))
    for name in MODELS:
        cells = []
        for seats in (2, 3):
            for path in PATHS:
                counts = []
                for pairing_name, pool in done.raters.items():
                    pairing = pairing_named(pairing_name)
                    rater = pool[name]
                    if pairing.seats != seats or not isinstance(rater, OpenSkillRater):
                        continue
                    levels = [
                        rater.table[computer_player(level)]
                        for level in (pairing.level, pairing.opponent)
                    ]
                    counts.append(games_to_settle(rater.model, levels, seats, path))
                cells.append(f"{span(counts):>17}")
        print(f"{name:<24}" + "".join(cells))
    print(
        "(in turn: with 2 seats the player beats the weaker level and loses to the stronger;"
        " with 3 it comes first, then last)"
    )
    print(
        f"and against two settled players of a new player's mu (mu {EVEN.mu:g}, sigma"
        f" {EVEN.sigma:g}), held there:"
    )
    for name in MODELS:
        model = MODELS[name][0]()
        cells = [
            f"{span([games_to_settle(model, [EVEN, EVEN], seats, path)]):>17}"
            for seats in (2, 3)
            for path in PATHS
        ]
        print(f"{name:<24}" + "".join(cells))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    games = [game_of(record) for record in load_results(args.results)]
    print_conditions(args.results, games)
    done = replay(games)
    print_scores(done)
    print_pairings(done, list(dict.fromkeys(g.pairing.name for g in games)))
    print_population()
    print_levels(done)
    print_settling(done)
    print(f"\n{time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
