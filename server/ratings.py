"""Players' ratings per game by OpenSkill (Weng-Lin): 2 or 3 seats, ties, people and bots.

Each seat is a team of one; a computer level is a player like a person (`computer:hard`).
The model is PlackettLuce: among made-up players meeting at random it foresaw 3-seat games
best and 2-seat ones within 0.006 of the best; ThurstoneMostellerFull led only on the
arena's two-level pools, where its fast-falling sigma pays (benchmarks/ratings.py).
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()
"""The one model every rating goes through (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
DISPLAY_NEW: Final = 1500
"""The number shown for a new player."""
DISPLAY_SCALE: Final = 400 / (math.log(10) * math.sqrt(2) * MODEL.beta)
"""Shown points per unit of mu, about 29.5: so that, as in Elo, of two settled players
(sigma near 0) 400 points apart the stronger wins 10 games in 11 by `win_chances`."""
PROVISIONAL_SIGMA: Final = 5.0
"""A rating is provisional (shown with "?") while its sigma is above this: for about a dozen
games of mixed results against settled players, 2 or 3 seats; one-sided results, telling
less, take 15 to 30 (benchmarks/ratings.py)."""
COMPUTER: Final = "computer:"
"""The prefix of the ids under which computer levels are rated; no person's id has it."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill at one game: mean `mu` and uncertainty `sigma` on OpenSkill's scale."""

    mu: float
    sigma: float
    games: int = 0
    """Rated games played."""

    @property
    def display(self) -> int:
        """The number shown to people: `1500 + 29.5 * (mu - 25)`, rounded, an Elo-like scale
        (a new player 1500, sigma's 8.3 about 250 points)."""
        return round(DISPLAY_NEW + DISPLAY_SCALE * (self.mu - MODEL.mu))

    @property
    def provisional(self) -> bool:
        """Whether the rating is still too uncertain to mean much, as lichess's "?"."""
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def ordinal(self) -> float:
        """The value a leaderboard orders by: `mu - 3 sigma` (OpenSkill's `ordinal()`), a
        skill the player very likely has, so few lucky games don't top the board."""
        return self.mu - 3 * self.sigma


NEW: Final = Rating(MODEL.mu, MODEL.sigma)
"""The rating of someone never rated."""


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The seats' new ratings after one game; rank 1 is best and equal ranks are a tie."""
    if len(before) != len(ranks) or len(before) < 2:
        raise ValueError(f"{len(before)} ratings and {len(ranks)} ranks: need one each, 2 up")
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [
        Rating(team[0].mu, team[0].sigma, rating.games + 1)
        for team, rating in zip(after, before, strict=True)
    ]


def combined(seats: Sequence[Rating]) -> Rating:
    """One player's rating after a game in which it held several seats (a computer level
    filling two): the mean of those seats' new ratings, counted as one game."""
    if not seats:
        raise ValueError("no seats to combine")
    return Rating(
        sum(rating.mu for rating in seats) / len(seats),
        sum(rating.sigma for rating in seats) / len(seats),
        seats[0].games,
    )


def rate_players(
    before: Mapping[str, Rating], seats: Sequence[str], ranks: Sequence[int]
) -> dict[str, Rating]:
    """The new rating of each player of one game, by id; `seats` names each seat's player,
    and one missing from `before` starts `NEW`."""
    after = rate([before.get(player, NEW) for player in seats], ranks)
    return {
        player: combined(
            [rating for held, rating in zip(seats, after, strict=True) if held == player]
        )
        for player in dict.fromkeys(seats)
    }


def win_chances(ratings: Sequence[Rating]) -> list[float]:
    """Each seat's chance to finish first by the model's own likelihood: exp(mu / c) shared
    out, c^2 the sum of sigma^2 + beta^2. Not `predict_win`, which assumes a normal curve
    and with 3 seats averages pairwise chances, so it never gives a seat more than 2/3."""
    c = math.sqrt(sum(rating.sigma**2 + MODEL.beta**2 for rating in ratings))
    top = max(rating.mu for rating in ratings)
    weights = [math.exp((rating.mu - top) / c) for rating in ratings]
    return [weight / sum(weights) for weight in weights]


def ranks_of(
    scores: Sequence[int], winners: Sequence[int], flagged: Sequence[int] = ()
) -> list[int]:
    """Each seat's finishing place for rating: the winners first (a shared win ties at 1),
    then the others by score, higher better, equal scores tied (places as 1, 1, 3); seats
    that ran out of time last of all, the first to run out the very last."""
    if any(not 0 <= seat < len(scores) for seat in (*winners, *flagged)):
        raise ValueError(f"winners {list(winners)} are not all seats of {len(scores)}")
    won = set(winners)
    out = {seat: order for order, seat in enumerate(flagged)}

    def beats(other: int, seat: int) -> bool:
        if (other in out) != (seat in out):
            return seat in out
        if other in out:
            return out[other] > out[seat]
        if (other in won) != (seat in won):
            return other in won
        return seat not in won and scores[other] > scores[seat]

    seats = range(len(scores))
    return [1 + sum(beats(other, seat) for other in seats) for seat in seats]


def pool(game: str, speed: str) -> str:
    """Where a game's ratings are kept: one pool per game and kind of time control (as
    lichess keeps one per speed), `othello` for games without a clock, `othello:live`."""
    return game if speed == "none" else f"{game}:{speed}"


def computer_player(level: str) -> str:
    """The id under which a computer level is rated, as `computer:hard`."""
    return COMPUTER + level


def is_computer(player: str) -> bool:
    """Whether a rated id is a computer level's."""
    return player.startswith(COMPUTER)
