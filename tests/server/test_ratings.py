"""Ratings: OpenSkill's updates for 2 and 3 seats and ties, places, display and provisional."""

import pytest

from parlour.server.ratings import (
    DISPLAY_SCALE,
    MODEL,
    NEW,
    PROVISIONAL_SIGMA,
    Rating,
    computer_player,
    is_computer,
    ranks_of,
    rate,
    rate_players,
    win_chances,
)

SETTLED = Rating(25.0, 2.0, 100)


def test_a_new_player_starts_at_the_models_prior_shown_as_1500_and_provisional() -> None:
    assert NEW.mu == 25.0
    assert NEW.sigma == pytest.approx(25 / 3)
    assert NEW.games == 0
    assert NEW.display == 1500
    assert NEW.provisional
    assert NEW.ordinal == pytest.approx(0.0)


def test_the_model_gives_the_figures_of_openskills_manual() -> None:
    # The manual's two teams of two new players, the first winning; and its predict_win.
    players = [MODEL.rating() for _ in range(4)]
    [[a, b], [c, d]] = MODEL.rate([players[:2], players[2:]])
    assert a.mu == b.mu == pytest.approx(26.964294621803063)
    assert c.mu == d.mu == pytest.approx(23.035705378196937)
    assert a.sigma == c.sigma == pytest.approx(8.177962604389991)
    chances = MODEL.predict_win([[MODEL.rating()], [MODEL.rating(mu=33.564, sigma=1.123)]])
    assert chances == pytest.approx([0.2021226121041832, 0.7978773878958167])


def test_a_win_raises_the_winner_and_lowers_the_loser() -> None:
    winner, loser = rate([NEW, NEW], [1, 2])
    # openskill 6.2.0's figures for two new players (its manual shows only teams of two).
    assert winner.mu == pytest.approx(27.635389493140497)
    assert loser.mu == pytest.approx(22.364610506859503)
    assert winner.sigma == loser.sigma == pytest.approx(8.06590141354368)
    assert winner.games == loser.games == 1
    assert winner.display > 1500 > loser.display


def test_ranks_count_whatever_the_seat_order() -> None:
    loser, winner = rate([NEW, NEW], [2, 1])
    assert (winner.mu, loser.mu) == tuple(rating.mu for rating in rate([NEW, NEW], [1, 2]))


def test_a_tie_between_equals_leaves_mu_equal_and_both_more_certain() -> None:
    first, second = rate([NEW, NEW], [1, 1])
    assert first.mu == pytest.approx(25.0)
    assert second.mu == pytest.approx(25.0)
    assert first.sigma == second.sigma < NEW.sigma


def test_a_tie_with_a_stronger_player_raises_the_weaker() -> None:
    strong, weak = rate([Rating(30.0, 3.0), Rating(20.0, 3.0)], [1, 1])
    assert strong.mu < 30.0
    assert weak.mu > 20.0


def test_three_seats_are_rated_in_their_order() -> None:
    second, third, first = rate([NEW, NEW, NEW], [2, 3, 1])
    assert first.mu > second.mu > third.mu
    assert first.mu > 25.0 > third.mu
    assert second.mu == pytest.approx(25.0, abs=1.0)


def test_a_shared_first_place_of_three_ties_the_two_winners() -> None:
    first, also_first, last = rate([NEW, NEW, NEW], [1, 1, 3])
    assert first.mu == pytest.approx(also_first.mu)
    assert first.mu > 25.0 > last.mu


def test_an_upset_moves_ratings_more_than_an_expected_result() -> None:
    strong, weak = Rating(30.0, 3.0), Rating(20.0, 3.0)
    expected = rate([strong, weak], [1, 2])
    upset = rate([strong, weak], [2, 1])
    assert 0 < expected[0].mu - strong.mu < strong.mu - upset[0].mu
    assert 0 < weak.mu - expected[1].mu < upset[1].mu - weak.mu


def test_sigma_shrinks_with_games_and_provisional_turns_off_after_about_a_dozen() -> None:
    player, sigmas, settled_after = NEW, [NEW.sigma], None
    for game in range(1, 41):
        player = rate([player, SETTLED], [1, 2] if game % 2 else [2, 1])[0]
        sigmas.append(player.sigma)
        if settled_after is None and not player.provisional:
            settled_after = game
    assert sigmas == sorted(sigmas, reverse=True)
    assert player.games == 40
    assert settled_after is not None and 8 <= settled_after <= 16
    assert player.sigma <= PROVISIONAL_SIGMA


def test_each_seat_counts_one_more_game_of_its_own() -> None:
    after = rate([Rating(25.0, 5.0, 7), NEW, SETTLED], [1, 2, 3])
    assert [rating.games for rating in after] == [8, 1, 101]


@pytest.mark.parametrize(
    ("before", "ranks"), [([NEW, NEW], [1]), ([NEW], [1]), ([NEW, NEW], [1, 2, 3])]
)
def test_a_game_needs_two_seats_and_a_rank_for_each(
    before: list[Rating], ranks: list[int]
) -> None:
    with pytest.raises(ValueError):
        rate(before, ranks)


@pytest.mark.parametrize(
    ("scores", "winners", "ranks"),
    [
        ([90, 32, 42], [0], [1, 3, 2]),  # a Tribolo win, then the others by score
        ([64, 36, 64], [0, 2], [1, 3, 1]),  # a shared win ties at 1
        ([24, 114, 24], [1], [2, 1, 2]),  # equal scores behind the winner tie
        ([0, 3], [0], [1, 2]),  # won by the rules whatever the score (Tripppin)
        ([32, 32], [0, 1], [1, 1]),  # a 2-seat draw
        ([5, 7, 5], [], [2, 1, 2]),  # no winner: by score alone
    ],
)
def test_ranks_of_puts_the_winners_first_then_the_others_by_score(
    scores: list[int], winners: list[int], ranks: list[int]
) -> None:
    assert ranks_of(scores, winners) == ranks


def test_ranks_of_refuses_a_winner_that_is_no_seat() -> None:
    with pytest.raises(ValueError):
        ranks_of([1, 2], [2])


def test_computer_levels_are_rated_under_ids_of_their_own() -> None:
    assert computer_player("hard") == "computer:hard"
    assert is_computer(computer_player("6"))
    assert not is_computer("ann")


def test_a_level_on_two_seats_is_one_player_with_the_mean_of_its_seats() -> None:
    easy = computer_player("easy")
    before = {"ann": SETTLED}
    after = rate_players(before, ["ann", easy, easy], [1, 2, 3])
    seats = rate([SETTLED, NEW, NEW], [1, 2, 3])
    assert set(after) == {"ann", easy}
    assert after["ann"] == seats[0]
    assert after[easy].mu == pytest.approx((seats[1].mu + seats[2].mu) / 2)
    assert after[easy].sigma == pytest.approx((seats[1].sigma + seats[2].sigma) / 2)
    assert after[easy].games == 1
    assert after[easy].mu < 25.0


def test_win_chances_share_out_one_and_favour_the_stronger() -> None:
    assert win_chances([NEW, NEW]) == pytest.approx([0.5, 0.5])
    assert win_chances([NEW, NEW, NEW]) == pytest.approx([1 / 3] * 3)
    chances = win_chances([Rating(40.0, 2.0), NEW, Rating(10.0, 2.0)])
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > 2 / 3 > chances[1] > chances[2]  # predict_win never passes 2/3


def test_400_shown_points_are_elos_10_to_1_between_settled_players() -> None:
    stronger, weaker = Rating(25.0 + 400 / DISPLAY_SCALE, 0.0), Rating(25.0, 0.0)
    assert stronger.display - weaker.display == 400
    assert win_chances([stronger, weaker])[0] == pytest.approx(10 / 11)
    assert round(DISPLAY_SCALE, 2) == 29.48
    assert Rating(35.0, 3.0).display == 1795


def test_the_leaderboard_value_is_openskills_ordinal() -> None:
    rating = Rating(30.0, 2.0)
    assert rating.ordinal == pytest.approx(24.0)
    assert rating.ordinal == pytest.approx(MODEL.rating(mu=30.0, sigma=2.0).ordinal())
    assert Rating(30.0, 6.0).ordinal < Rating(25.0, 2.0).ordinal  # uncertain ranks lower
