"""Multiplayer Elo of the ranked mode: one game (elo.md §1-§6), a history (§7), the tiers.

Source: the federation's French text, the page of the « note de classé » scale,
summarised in ``docs/regles/elo.md``.
Expected values are typed by hand from the source's worked examples (arithmetic in comments),
never computed by xlcircuit. The multielo cross-check uses an independent, test-only oracle
written below from that package's documented method (the package itself is not installable here).
"""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlcircuit.rules.elo import (
    FLOOR,
    Game,
    Tier,
    expected,
    k_factor,
    placement_left,
    ranks,
    rate_game,
    run_history,
    tier,
)
from xlcircuit.rules.errors import InvalidInput
from xlcircuit.rules.mechanics import format_half_up


def deltas(ratings, totals, games, lowest_wins=True):
    return [c.delta for c in rate_game(ratings, totals, games, lowest_wins)]


# === Worked examples (elo.md "Worked examples from the source"; elo-classe.txt) ====================

# elo-classe.txt: "Cinquante points d'avance donnent 0,5715, cent points 0,6401, cent cinquante 0,7034,
# deux cents 0,7597 ; à quatre cents points d'écart, 0,9091, et à six cents, 0,9693".
EXPECTATIONS = [(0, "0.5000"), (50, "0.5715"), (100, "0.6401"), (150, "0.7034"), (200, "0.7597"),
                (400, "0.9091"), (600, "0.9693")]


@pytest.mark.parametrize("gap, shown", EXPECTATIONS)
def test_expectations_to_four_decimals(gap, shown):
    assert format_half_up(expected(1000 + gap, 1000), 4) == shown
    assert format_half_up(expected(1000, 1000 + gap), 4) == format_half_up(1 - float(shown), 4)
    assert expected(1000 + gap, 1000) < 1  # "jamais 1, quel que soit l'écart"


def test_ranks_from_totals_lowest_wins():
    # elo.md §1 / elo-classe.txt: "47, 61, 61, 78, 92 et 104 donnent les rangs 1, 2, 2, 4, 5 et 6"
    assert ranks([47, 61, 61, 78, 92, 104]) == [1, 2, 2, 4, 5, 6]
    assert ranks([104, 61, 47, 92, 61, 78]) == [6, 2, 1, 5, 2, 4]
    # "elsewhere the highest wins"
    assert ranks([47, 61, 61, 78, 92, 104], lowest_wins=False) == [6, 4, 4, 3, 2, 1]


def test_table_of_six_you_at_1000_third():
    # elo-classe.txt: you at 1000 finish 3rd; ahead 1200 and 1100, behind 1000, 900 and 800; K 16.
    # "-0,2403 - 0,3599 + 0,5000 + 0,3599 + 0,2403 = 0,5" ; "16 × 0,5 / 5 = 1,6, arrondi à +2"
    you = 1000
    duels = [0 - expected(you, 1200), 0 - expected(you, 1100), 1 - expected(you, 1000),
             1 - expected(you, 900), 1 - expected(you, 800)]
    assert [format_half_up(d, 4) for d in duels] == ["-0.2403", "-0.3599", "0.5000", "0.3599", "0.2403"]
    changes = rate_game([1200, 1100, 1000, 1000, 900, 800], [40, 50, 60, 70, 80, 90], [40] * 6)
    assert changes[2].raw == pytest.approx(1.6, abs=1e-12)
    assert changes[2].delta == 2
    # The whole table, everyone finishing in rating order (16 / 5 × the sum of result - expectation):
    # 1200: 0.3599 + 0.2403 + 0.2403 + 0.1510 + 0.0909 = 1.0824 -> 3.46 -> +3
    # 1100: -0.3599 + 0.3599 + 0.3599 + 0.2403 + 0.1510 = 0.7512 -> 2.40 -> +2
    # the other 1000: -0.2403 - 0.3599 - 0.5 + 0.3599 + 0.2403 = -0.5 -> -1.6 -> -2; 900 and 800 mirror 1100, 1200
    assert [c.raw for c in changes] == pytest.approx([3.4637, 2.4038, 1.6, -1.6, -2.4038, -3.4637], abs=1e-3)
    assert [c.delta for c in changes] == [3, 2, 2, -2, -2, -3]
    assert [c.after for c in changes] == [1203, 1102, 1002, 998, 898, 797]
    assert [c.rank for c in changes] == [1, 2, 3, 4, 5, 6]
    assert {c.k for c in changes} == {16}


def test_equal_ratings_table_of_six():
    # elo-classe.txt: "À notes égales, les écarts d'une table de six valent +8, +5, +2, -2, -5 et -8"
    # 16 × (wins - 2.5) / 5: 8, 4.8, 1.6, -1.6, -4.8, -8
    assert deltas([1000] * 6, [1, 2, 3, 4, 5, 6], [31] * 6) == [8, 5, 2, -2, -5, -8]


def test_equal_ratings_table_of_eight():
    # "ceux d'une table de huit, +8, +6, +3, +1, -1, -3, -6 et -8": 16 × (wins - 3.5) / 7
    # 8, 5.71, 3.43, 1.14, -1.14, -3.43, -5.71, -8
    assert deltas([1000] * 8, [10, 20, 30, 40, 50, 60, 70, 80], [100] * 8) == [8, 6, 3, 1, -1, -3, -6, -8]
    # "sur huit joueurs de même note, les quatre premiers gagnent des points"
    assert sum(d > 0 for d in deltas([1000] * 8, list(range(8)), [100] * 8)) == 4


def test_three_equal_the_first_two_tied():
    # "à trois joueurs de même note dont les deux premiers sont ex æquo, ces deux-là prennent 4 points
    # chacun et le dernier en perd 8": 16 × (1.5 - 1) / 2 = 4; 16 × (0 - 1) / 2 = -8
    assert deltas([1000] * 3, [12, 12, 30], [40] * 3) == [4, 4, -8]


def test_the_source_totals_at_equal_ratings_with_ties():
    # The six totals of §1 at equal ratings, K 16: results 5, 3.5, 3.5, 2, 1, 0 out of 5, expectation 2.5:
    # 8, 3.2, 3.2, -1.6, -4.8, -8
    assert deltas([1000] * 6, [47, 61, 61, 78, 92, 104], [40] * 6) == [8, 3, 3, -2, -5, -8]
    # and in placement (K 48): 24, 9.6, 9.6, -4.8, -14.4, -24
    assert deltas([1000] * 6, [47, 61, 61, 78, 92, 104], [1] * 6) == [24, 10, 10, -5, -14, -24]


def test_an_exact_half_rounds_away_from_zero_despite_float_noise():
    # 1000 ties 1000, 800 and 1200 and loses to the other 1000 (K 28): expectations 0.5 + 0.5 + 0.7597 + 0.2403
    # = 2, results 1.5: 28 × (1.5 - 2) / 4 = -3.5 exactly, which floats compute as -3.4999999999999982.
    changes = rate_game([1000, 1000, 1000, 800, 1200], [2, 2, 0, 2, 2], [10] * 5)
    assert changes[0].raw == pytest.approx(-3.5, abs=1e-9)
    assert changes[0].delta == -4  # "halves away from zero"


def test_a_near_half_that_is_not_a_half_rounds_to_nearest():
    # elo.md §3 "rounded to the nearest integer": 1000 meets seven players rated 435, 701, 953, 909, 1140, 1140 and
    # 1162, beats five and loses to two (K 16). His expectations, each to 50 digits (Decimal, below), sum to
    # 3.90625000000011961953…, so 16 × (5 - 3.90625000000011961953…) / 7 = 2.49999999999972658391… -> 2, not 3
    # (floats compute exactly 2.5 here; a change snapped to a half within 5e-10 misfired the same way).
    from decimal import Decimal, localcontext
    opponents = [435, 701, 953, 909, 1140, 1140, 1162]
    with localcontext() as ctx:
        ctx.prec = 50
        exact = 16 * (5 - sum(1 / (1 + Decimal(10) ** (Decimal(r - 1000) / 400)) for r in opponents)) / 7
    assert Decimal("2.4999999999997") < exact < Decimal("2.4999999999998")
    changes = rate_game([1000] + opponents, [3, 4, 5, 6, 7, 2, 1, 8], [40] * 8)
    assert changes[0].rank == 3 and changes[0].score == pytest.approx(5 / 7)
    assert changes[0].delta == 2


def test_equal_ratings_and_equal_totals_exchange_nothing():
    # "Deux joueurs de même note qui terminent au même total n'échangent donc rien"
    assert deltas([1000, 1000], [50, 50], [40, 40]) == [0, 0]


def test_upset_of_400_points_both_ways():
    # "16 × 0,9091 = 14,5 arrondis à 15 points" (14.545…); "Le même duel perdu ne coûte que
    # 16 × 0,0909 = 1,45, arrondi à un seul point"
    won = rate_game([1000, 1400], [10, 20], [40, 40])
    assert won[0].raw == pytest.approx(14.545, abs=1e-3) and won[0].delta == 15
    assert won[1].delta == -15
    lost = rate_game([1000, 1400], [20, 10], [40, 40])
    assert lost[0].raw == pytest.approx(-1.4545, abs=1e-3) and lost[0].delta == -1
    assert lost[1].delta == 1


def test_gap_of_600_the_minimum_point():
    # "À six cents points d'écart, le favori qui gagne récolte 16 × 0,0307 = 0,49, que l'arrondi ramène
    # à zéro" ; "Un point au moins est donc accordé à qui a devancé tout le monde, et retiré à qui a été
    # devancé par tous"
    favourite, underdog = rate_game([1600, 1000], [10, 20], [40, 40])
    assert favourite.raw == pytest.approx(0.49, abs=0.01)
    assert (favourite.delta, underdog.delta) == (1, -1)
    assert favourite.note and underdog.note


def test_the_middle_may_get_zero():
    # "le milieu de tableau garde le droit de finir à zéro": 1600, 1300 and 1000 finish in that order;
    # the middle player's raw change is 0 and stays 0.
    changes = rate_game([1600, 1300, 1000], [1, 2, 3], [40] * 3)
    # 1300: 16 × ((0 - 0.1510) + (1 - 0.8490)) / 2 = 0
    assert changes[1].delta == 0 and not changes[1].note
    assert changes[0].delta == 1 and changes[2].delta == -1  # 16 × (0.0307 + 0.1510) / 2 = 1.45 -> 1


@pytest.mark.parametrize("games, k, won", [(1, 48, 24), (5, 48, 24), (6, 28, 14), (30, 28, 14), (31, 16, 8),
                                           (500, 16, 8)])
def test_k_by_games_played(games, k, won):
    # "48 pour les parties 1 à 5, 28 de la sixième à la trentième, puis 16 à partir de la trente et
    # unième" ; "Une victoire équilibrée en duel rapporte donc successivement 24, puis 14, puis 8 points."
    assert k_factor(games) == k
    assert deltas([1000, 1000], [1, 2], [games, games]) == [won, -won]


def test_each_player_uses_his_own_k():
    # A newcomer (game 1, K 48) beats an established player (game 40, K 16), both at 1000: +24 and -8.
    assert deltas([1000, 1000], [1, 2], [1, 40]) == [24, -8]


def test_five_balanced_duels_in_placement():
    # "Cinq duels équilibrés gagnés d'affilée mènent donc de 1000 à 1120, et cinq perdus de 1000 à 880"
    up = down = 1000
    for game in range(1, 6):
        up += deltas([up, up], [1, 2], [game, game])[0]
        down += deltas([down, down], [1, 2], [game, game])[1]
    assert (up, down) == (1120, 880)
    # "une amplitude de 240 points, qui traverse trois paliers"
    assert [tier(r, 5) for r in (880, 1000, 1120)] == [Tier.BRONZE, Tier.SILVER, Tier.GOLD]


def test_five_balanced_duels_through_a_history():
    # 32 newcomers in five rounds; in round r a player meets the one whose name differs in bit r only,
    # who has the same record so far, hence the same rating and K: every duel is balanced.
    games = []
    for r in range(5):
        for a in range(32):
            b = a ^ (1 << r)
            if a < b:
                games.append(Game(f"{r}-{a}", dt.date(2025, 1, 1 + r), (f"J{a:02d}", f"J{b:02d}"), (1, 2)))
    history = run_history(reversed(games))  # given in any order: the dates decide
    final = {s.player: s for s in history.standings}
    assert final["J00"].rating == 1120 and final["J31"].rating == 880  # 5 × 24
    assert final["J00"].games == 5 and final["J00"].tier is Tier.GOLD and final["J31"].tier is Tier.BRONZE
    assert history.standings[0].player == "J00" and history.standings[-1].player == "J31"


def test_four_lost_games_in_an_evening():
    # "Toujours à notes égales, perdre quatre parties dans la soirée retire 32 points" (K 16: 4 × 8)
    rating = 1000
    for size in (2, 4, 6, 8):
        rating += deltas([rating] * size, list(range(size)), [40] * size)[-1]
    assert rating == 968


@pytest.mark.parametrize("size", range(2, 9))
@pytest.mark.parametrize("games, k", [(1, 48), (10, 28), (40, 16)])
def test_beating_the_whole_table_is_half_k_whatever_its_size(size, games, k):
    # "à notes égales, devancer toute la table rapporte la moitié du coefficient, qu'elle compte deux
    # joueurs ou huit"
    assert deltas([1000] * size, list(range(size)), [games] * size)[0] == k // 2


def test_seven_balanced_wins_reach_gold_at_k16():
    # "Un joueur qui sort du placement à 1000 est donc Argent, et Or n'est qu'à 50 points de lui : sept
    # victoires nettes en duel équilibré, une fois le coefficient à 16" (6 × 8 = 48, 7 × 8 = 56)
    rating = 1000
    assert tier(rating, 5) is Tier.SILVER
    for win in range(1, 8):
        rating += deltas([rating, rating], [1, 2], [40, 40])[0]
        assert tier(rating, 40) is (Tier.GOLD if win == 7 else Tier.SILVER)
    assert rating == 1056


TIERS = [(100, Tier.BRONZE), (899, Tier.BRONZE), (900, Tier.SILVER), (1049, Tier.SILVER), (1050, Tier.GOLD),
         (1199, Tier.GOLD), (1200, Tier.PLATINUM), (1349, Tier.PLATINUM), (1350, Tier.DIAMOND),
         (1499, Tier.DIAMOND), (1500, Tier.MASTER), (4000, Tier.MASTER)]


@pytest.mark.parametrize("rating, expected_tier", TIERS)
def test_tiers(rating, expected_tier):
    # elo-classe.txt: "Bronze part du plancher, Argent commence à 900, Or à 1050, Platine à 1200, Diamant à
    # 1350 et Maître à 1500" ; Bronze "de 100 à 899"; Maître "n'a pas de plafond"
    assert tier(rating, 5) is expected_tier


def test_tier_names_are_french():
    assert [t.label for t in Tier] == ["Placement", "Bronze", "Argent", "Or", "Platine", "Diamant", "Maître"]


def test_no_tier_during_placement():
    # "Aucun palier ne vous est annoncé tant que les cinq ne sont pas jouées"
    assert [tier(1500, g) for g in range(6)] == [Tier.PLACEMENT] * 5 + [Tier.MASTER]
    assert [placement_left(g) for g in (0, 1, 4, 5, 30)] == [5, 4, 1, 0, 0]


def test_floor_at_100():
    # "la note ne descend jamais sous 100": 104 loses 8 -> 100 (a change of -4); at 100, a loss changes nothing.
    changes = rate_game([104, 104], [1, 2], [40, 40])
    assert (changes[1].delta, changes[1].after, changes[1].note) == (-4, 100, "plancher")
    assert changes[0].delta == 8
    changes = rate_game([100, 100], [1, 2], [40, 40])
    assert (changes[1].delta, changes[1].after) == (0, 100)


def test_no_ceiling():
    assert rate_game([3000, 3000], [1, 2], [40, 40])[0].after == 3008


@pytest.mark.parametrize("ratings, totals, games", [
    ([1000], [1], [1]),  # one player
    ([1000] * 9, list(range(9)), [1] * 9),  # nine
    ([1000, 1000], [1, 2], [0, 1]),  # games played counts this one: at least 1
    ([99, 1000], [1, 2], [1, 1]),  # under the floor
    ([1000.5, 1000], [1, 2], [1, 1]),  # ratings are whole
    ([1000, 1000], [1, 2, 3], [1, 1]),  # lengths differ
    ([1000, 1000], [1e20, 1], [1, 1]),  # a total too large to rank (mechanics.rank_key: 9 decimals)
    ([1000, 1000], [float("nan"), 1], [1, 1]),
])
def test_refused_games(ratings, totals, games):
    with pytest.raises(InvalidInput):
        rate_game(ratings, totals, games)


# === History (§7) ===================================================================================


def test_history_in_date_order_then_as_given():
    d1, d2 = dt.date(2025, 9, 1), dt.date(2025, 9, 8)
    games = [
        Game("b", d2, ("Ana", "Bob"), (1, 2)),  # played second: Ana at 1024, Bob at 976
        Game("a", d1, ("Bob", "Ana"), (1, 2)),  # played first: Bob +24, Ana -24
        Game("c", d2, ("Ana", "Bob"), (1, 2)),  # same day as "b", after it
    ]
    history = run_history(games)
    assert [p.game.name for p in history.lines] == ["a", "a", "b", "b", "c", "c"]
    first_b = history.lines[2]
    assert (first_b.player, first_b.change.before, first_b.change.games) == ("Ana", 976, 2)
    # b: Ana at 976 beats Bob at 1024, K 48: 48 × (1 - 1 / (1 + 10^(48 / 400))) = 48 × 0.5690 = 27.3 -> +27
    assert first_b.change.delta == 27
    standings = {s.player: (s.rating, s.games) for s in history.standings}
    # c: Ana at 1003 beats Bob at 997: 48 × (1 - 1 / (1 + 10^(-6 / 400))) = 48 × 0.4914 = 23.6 -> +24
    assert standings == {"Ana": (1027, 3), "Bob": (973, 3)}


def test_history_k_steps_with_games_played():
    games = [Game(str(i), dt.date(2025, 1, 1) + dt.timedelta(days=i), ("A", "B"), (1, 1)) for i in range(32)]
    ks = [line.change.k for line in run_history(games).lines[::2]]
    assert ks == [48] * 5 + [28] * 25 + [16] * 2


def test_history_refuses_a_player_twice_in_a_game():
    with pytest.raises(InvalidInput, match="deux fois"):
        run_history([Game("x", dt.date(2025, 1, 1), ("A", "B", "A"), (1, 2, 3))])


def test_standings_share_ranks_and_name_order():
    games = [Game("1", dt.date(2025, 1, 1), ("Zoé", "ana", "Bob", "Chloé"), (1, 2, 2, 4))]
    table = run_history(games).standings
    # 48 × (3 - 1.5) / 3 = 24; 48 × (1.5 - 1.5) / 3 = 0 (twice); -24
    assert [(s.rank, s.player, s.rating) for s in table] == [
        (1, "Zoé", 1024), (2, "ana", 1000), (2, "Bob", 1000), (4, "Chloé", 976)]
    assert all(s.tier is Tier.PLACEMENT for s in table)


# === Cross-check with multielo's documented method (elo.md "Cross-check") ===========================
# The PyPI package ``multielo`` could not be installed here, so its documented method is written out
# as a test-only oracle, in its own matrix-and-score form: expected score of each player = the row sum
# of the pairwise logistic expectations (diagonal left out) over C(n, 2); actual score from the linear
# score function, place p (1..n) scoring (n - p) / C(n, 2), tied players sharing the mean score of the
# places they fill; change = k_value × (n - 1) × (actual - expected).
# With k_value = K n / (2 (n - 1)): k_value (n - 1) (S_i - E_i) = (K n / 2) × Σ_j (S_ij - E_ij) / C(n, 2)
# = K Σ_j (S_ij - E_ij) / (n - 1), elo.md §3 before rounding.


def multielo_changes(ratings, places, k_value, d_value=400.0):
    n = len(ratings)
    pairs = n * (n - 1) / 2
    matrix = [[1 / (1 + 10 ** ((rj - ri) / d_value)) for rj in ratings] for ri in ratings]
    expected_scores = [(sum(row) - row[i]) / pairs for i, row in enumerate(matrix)]  # the diagonal is 0.5
    linear = [(n - p) / pairs for p in range(1, n + 1)]  # score_function_base = 1
    order = sorted(range(n), key=lambda i: places[i])
    actual_scores = [0.0] * n
    for _, group in itertools.groupby(enumerate(order), key=lambda pair: places[pair[1]]):
        group = list(group)
        share = sum(linear[position] for position, _ in group) / len(group)
        for _, i in group:
            actual_scores[i] = share
    return [k_value * (n - 1) * (a - e) for a, e in zip(actual_scores, expected_scores)]


def test_the_oracle_gives_multielo_documented_results():
    # The package's README (default k_value 32, d_value 400, linear scores), results in the order given:
    # "player with 1200 rating beats a player with 1000 rating" -> 1207.68809835, 992.31190165
    assert [1200 + multielo_changes([1200, 1000], [1, 2], 32)[0], 1000 + multielo_changes([1200, 1000], [1, 2], 32)[1]] \
        == pytest.approx([1207.68809835, 992.31190165], abs=1e-8)
    # "player with 900 rating beats player with 1000 rating" -> 920.48207999, 979.51792001
    assert 900 + multielo_changes([900, 1000], [1, 2], 32)[0] == pytest.approx(920.48207999, abs=1e-8)
    # "3-way matchup" 1200, 900, 1000 finishing in that order -> 1208.34629612, 910.43382278, 981.21988111
    three = [r + c for r, c in zip([1200, 900, 1000], multielo_changes([1200, 900, 1000], [1, 2, 3], 32))]
    assert three == pytest.approx([1208.34629612, 910.43382278, 981.21988111], abs=1e-8)


def test_unrounded_changes_agree_with_multielo_on_random_games():
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(2, 8)
        ratings = [rng.randint(100, 2500) for _ in range(n)]
        totals = [rng.randint(0, 6) for _ in range(n)]  # few values: many ties
        games, k = rng.choice([(1, 48), (12, 28), (60, 16)])
        places = ranks(totals)  # the oracle takes places: 1 for the lowest total
        oracle = multielo_changes(ratings, places, k * n / (2 * (n - 1)))
        ours = [c.raw for c in rate_game(ratings, totals, [games] * n)]
        assert ours == pytest.approx(oracle, abs=1e-9), (ratings, totals, k)


# === Properties ======================================================================================

games_st = st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(200, 3000), min_size=n, max_size=n),
    st.lists(st.integers(0, 5), min_size=n, max_size=n),
))


@settings(max_examples=200, deadline=None)
@given(games_st, st.sampled_from([1, 10, 40]))
def test_one_k_the_changes_sum_to_zero_up_to_rounding(game, played):
    ratings, totals = game
    changes = rate_game(ratings, totals, [played] * len(ratings))
    assert sum(c.raw for c in changes) == pytest.approx(0, abs=1e-9)
    for c in changes:  # ratings of 200 and more: the floor (100) is never reached by one game
        assert abs(c.delta - c.raw) <= (0.5 + 1e-9 if not c.note else 1)
    assert abs(sum(c.delta for c in changes)) <= len(changes) / 2 + 2


@settings(max_examples=200, deadline=None)
@given(games_st, st.randoms(use_true_random=False))
def test_reordering_the_lines_of_a_game_changes_nothing(game, rnd):
    ratings, totals = game
    n = len(ratings)
    played = [rnd.randint(1, 40) for _ in range(n)]
    order = list(range(n))
    rnd.shuffle(order)
    plain = rate_game(ratings, totals, played)
    shuffled = rate_game([ratings[i] for i in order], [totals[i] for i in order], [played[i] for i in order])
    for position, i in enumerate(order):
        a, b = plain[i], shuffled[position]
        assert (a.rank, a.k, a.delta, a.note) == (b.rank, b.k, b.delta, b.note)
        assert a.raw == pytest.approx(b.raw, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(games_st, st.sampled_from([1, 10, 40]))
def test_highest_wins_is_lowest_wins_on_negated_totals(game, played):
    ratings, totals = game
    n = len(ratings)
    assert deltas(ratings, totals, [played] * n, lowest_wins=False) == deltas(ratings, [-t for t in totals],
                                                                              [played] * n)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.lists(st.integers(100, 400), min_size=n, max_size=n)),
       st.randoms(use_true_random=False))
def test_never_under_the_floor(ratings, rnd):
    n = len(ratings)
    changes = rate_game(ratings, [rnd.randint(0, 3) for _ in range(n)], [rnd.randint(1, 6) for _ in range(n)])
    assert all(c.after >= FLOOR and c.after == c.before + c.delta for c in changes)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_history_does_not_depend_on_the_order_of_lines_within_games(rnd):
    players = [f"P{i}" for i in range(10)]
    games = []
    for g in range(rnd.randint(1, 25)):
        seats = rnd.sample(players, rnd.randint(2, 8))
        games.append(Game(str(g), dt.date(2025, 1, 1 + rnd.randint(0, 5)), tuple(seats),
                          tuple(rnd.randint(0, 4) for _ in seats)))
    shuffled = []
    for game in games:
        order = list(range(len(game.players)))
        rnd.shuffle(order)
        shuffled.append(Game(game.name, game.date, tuple(game.players[i] for i in order),
                             tuple(game.totals[i] for i in order)))
    a, b = run_history(games), run_history(shuffled)
    assert [(s.rank, s.player, s.rating, s.games) for s in a.standings] == \
           [(s.rank, s.player, s.rating, s.games) for s in b.standings]
    assert sorted((p.game.name, p.player, p.change.delta) for p in a.lines) == \
           sorted((p.game.name, p.player, p.change.delta) for p in b.lines)


# === Lines into games: located violations (§7) =======================================================

from pathlib import Path  # noqa: E402

from xlcircuit.rules import elo  # noqa: E402
from xlcircuit.rules.errors import Violation  # noqa: E402


def test_lines_make_games_in_the_order_of_their_first_line():
    day, later = dt.date(2025, 3, 1), dt.date(2025, 3, 2)
    lines = [elo.Line("2", later, "A", 1), elo.Line("1", day, "B", 2), elo.Line("2", later, "C", 3),
             elo.Line("1", day, "A", 4)]
    games, violations = elo.games_of(lines)
    assert violations == []
    assert games == [Game("2", later, ("A", "C"), (1, 3)), Game("1", day, ("B", "A"), (2, 4))]


def test_game_violations_are_located_on_the_line_at_fault():
    day = dt.date(2025, 3, 1)
    lines = [elo.Line("5", day, "A", 1), elo.Line("5", day, "B", 2), elo.Line("5", day, "A", 3),  # A twice
             elo.Line("5", dt.date(2025, 3, 2), "C", 4),  # another date
             elo.Line("seul", day, "D", 1)]  # one player
    games, violations = elo.games_of(lines, lambda i: f"ligne {i + 2}")
    assert violations == [
        Violation(2, "player", "A figure déjà dans la partie « 5 » ligne 2"),
        Violation(3, "date", "la partie « 5 » est datée du 01/03/2025 ligne 2 : une partie a une seule date (deux "
                             "parties différentes ont deux noms différents)"),
        Violation(4, "game", "la partie « seul » a 1 joueur : de 2 à 8 attendus"),
    ]
    assert [len(g.players) for g in games] == [4, 1]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from([dt.date(2025, 1, 1), dt.date(2025, 1, 2)]),
                          st.sampled_from("ABCDEFGHIJ"), st.integers(-50, 50)), max_size=30))
def test_games_without_violations_are_a_history_the_core_takes(rows):
    # The adapter does not re-check: whatever games_of returns without a violation, run_history plays.
    games, violations = elo.games_of([elo.Line(*row) for row in rows])
    assert sum(len(g.players) for g in games) == len(rows)  # no line lost
    if not violations:
        history = run_history(games)
        assert len(history.lines) == len(rows)


ELO_GUIDE = Path(__file__).resolve().parents[1] / "docs" / "elo.md"


def test_the_elo_guide_states_the_cores_numbers():
    # docs/elo.md keeps its prose; the rule numbers it states must be the core's.
    text = ELO_GUIDE.read_text(encoding="utf-8")
    ks = [k for _, k in elo.K_STEPS] + [elo.K_LAST]
    assert f"`K` ({', '.join(map(str, ks[:-1]))} ou {ks[-1]})" in text
    assert f"(de {elo.MIN_PLAYERS} à {elo.MAX_PLAYERS} joueurs par partie)" in text
    assert f"tout le monde commence à {elo.START}, sauf un joueur dont la table `Joueurs` donne l'`Elo`" in text
    assert f"« plancher » à {elo.FLOOR})" in text and f"aucune note ne descend sous {elo.FLOOR}." in text
    ordinals = {3: "troisième", 4: "quatrième", 5: "cinquième", 6: "sixième"}
    assert f"« Placement (encore N parties) » avant la {ordinals[elo.PLACEMENT_GAMES]}" in text
    assert f"`Palier` ({', '.join(t.label for t in Tier if t.start is not None)} ;" in text


def test_the_workbook_guide_states_the_source_values():
    # elo-classe.txt: start 1000; K 48 for games 1-5, 28 up to the 30th, then 16; floor 100; tiers from
    # Argent 900 to Maître 1500 after five placement games.
    from xlcircuit.federations.elo import GUIDE

    text = " ".join(GUIDE)
    assert "Tout le monde commence à 1000 (ou à l'Elo de la table Joueurs)." in text
    assert "K vaut 48 pour les parties 1 à 5, 28 jusqu'à la 30e, puis 16 (parties déjà jouées comprises)." in text
    assert "aucune note ne descend sous 100. Paliers : Bronze, Argent (900), Or (1050), Platine (1200), " \
           "Diamant (1350), Maître (1500), annoncés après les cinq parties de placement." in text
    assert "De 2 à 8 joueurs par partie" in text
