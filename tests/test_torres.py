"""TORRES championship: match scoring (torres.md §2), group standings (§3), the group schedule (§1) and
the end of season (§4).

Source: the federation's French text, « Fonctionnement du championnat TORRES » (Boîte à Jeux),
summarised in ``docs/regles/torres.md``.
Expected values are computed by hand (arithmetic in the comments), never by calling xlcircuit.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlcircuit.rules.errors import InvalidInput
from xlcircuit.rules.torres import (
    Move,
    Player,
    Seat,
    Standing,
    Status,
    group_standings,
    match_places,
    next_season,
    origin_label,
    particular_differences,
    schedule_group,
    schedule_note,
    score_match,
    snake,
    victory_points,
)

# === §2 Scoring a match ===========================================================================


def test_particular_points_example_of_the_source():
    # torres-championnat.txt « Classement », note ** : A 115, B 130, C 123, D 110.
    # A: 5 - 15 - 8 = -18; B: 15 + 7 + 20 = +42; C: 8 - 7 + 13 = +14; D: -5 - 20 - 13 = -38.
    assert particular_differences([115, 130, 123, 110]) == [-18, 42, 14, -38]


@pytest.mark.parametrize("points, scoreless, expected", [
    ([115, 130, 123, 110], None, [2, 8, 4, 1]),  # B 1st 8, C 2nd 4, A 3rd 2, D 4th 1 (source scale)
    ([120, 120, 100, 90], None, [6, 6, 2, 1]),  # torres.md decision: tied 1st share (8 + 4) / 2 = 6
    ([100, 90, 90, 50], None, [8, 3, 3, 1]),  # tied 2nd share (4 + 2) / 2 = 3
    ([100, 100, 100, 50], None, [14 / 3, 14 / 3, 14 / 3, 1]),  # (8 + 4 + 2) / 3
    ([70, 70, 70, 70], None, [3.75] * 4),  # (8 + 4 + 2 + 1) / 4
    # Unfinished (source « Durée du championnat »): B delayed scores 0; C, A, D placed among themselves.
    ([115, 130, 123, 110], [False, True, False, False], [4, 0, 8, 2]),
    ([115, 130, 123, 110], [True, True, False, False], [0, 0, 8, 4]),
    ([10, 20], None, [4, 8]),
])  # fmt: skip
def test_victory_points(points, scoreless, expected):
    assert victory_points(points, scoreless) == pytest.approx(expected)


def test_places_share_the_better_place_and_skip_scoreless():
    assert match_places([120, 120, 100, 90]) == [1, 1, 3, 4]
    assert match_places([115, 130, 123, 110], [False, True, False, False]) == [2, None, 1, 3]


def test_the_fictitious_player_is_ranked_by_his_points_like_anyone():
    # Source « Classement »: victory points « suivant la place obtenue dans la partie »; the fictitious player
    # « a de fortes chances d'être dernier » (« Placement du roi »), nothing more: he takes his place.
    # A 100, Forfait 95, B 90, C 80: A 1st (8), Forfait 2nd (4), B 3rd (2), C 4th (1).
    scored = score_match([Seat("A", 100), Seat("Forfait", 95), Seat("B", 90), Seat("C", 80)])
    assert [s.victory_points for s in scored] == [8, 4, 2, 1]
    assert [s.place for s in scored] == [1, 2, 3, 4]
    # Only who delayed an unfinished match scores nothing (« Durée du championnat »: « Le ou les joueurs ayant
    # retardé … ne marquent aucun point de victoire »): Cléo delayed; Forfait bis 95, Ana 90, Bob 80 place 1-3.
    scored = score_match([Seat("Ana", 90), Seat("Forfait bis", 95), Seat("Bob", 80), Seat("Cléo", 60, delayed=True)])
    assert [s.victory_points for s in scored] == [4, 8, 2, 0]
    assert [s.place for s in scored] == [2, 1, 3, None]
    # Differences still use every seat's points: total 325; 4 × 90 - 325 = 35, 380 - 325 = 55…
    assert [s.difference for s in scored] == [35, 55, -5, -85]
    assert Seat("forfait", 0).fictitious and Seat("FORFAIT QUARTER", 0).fictitious and not Seat("Forfaiture", 0).fictitious


def test_a_fictitious_player_ranked_second_leaves_the_real_players_the_points_of_their_places():
    # The case: A 100, Forfait 95, B 90, C 80 -> A 8, B 2, C 1 in the group's standings (before: B 4, C 2).
    players = [Player(n, 1500, 1, 1) for n in "ABC"] + [Player("D", 1500, 1, 1, Status.FORFEIT)]
    table = group_standings(players, [[Seat("A", 100), Seat("Forfait", 95), Seat("B", 90), Seat("C", 80)]])
    assert [(s.player.name, s.victory_points, s.matches) for s in table] == [
        ("A", 8, 1), ("B", 2, 1), ("C", 1, 1), ("D", 0, 0)]


def test_bad_matches_are_refused():
    with pytest.raises(InvalidInput):
        victory_points([1, 2, 3, 4, 5])
    with pytest.raises(InvalidInput):
        victory_points([])
    with pytest.raises(InvalidInput):
        victory_points([1, 2], [True])
    with pytest.raises(InvalidInput):  # too large to rank (mechanics.rank_key: 9 decimals)
        victory_points([1e20, 2, 3, 4])
    with pytest.raises(InvalidInput):
        victory_points([float("nan"), 2, 3, 4])


points_st = st.lists(st.integers(0, 300), min_size=4, max_size=4)


@given(points_st, st.lists(st.booleans(), min_size=4, max_size=4), st.permutations(range(4)))
def test_match_properties(points, flags, order):
    vp = victory_points(points, flags)
    playing = 4 - sum(flags)
    assert sum(vp) == pytest.approx(sum((8, 4, 2, 1)[:playing]))  # shared ties keep the total
    assert sum(particular_differences(points)) == 0
    for i, j in combinations(range(4), 2):
        if not flags[i] and not flags[j] and points[i] > points[j]:
            assert vp[i] > vp[j]
    # Reordering the seats reorders the results, nothing else.
    assert victory_points([points[i] for i in order], [flags[i] for i in order]) == pytest.approx([vp[i] for i in order])


# === §3 Group standings ===========================================================================


def names(table):
    return [s.player.name for s in table]


def test_first_criterion_victory_points_and_second_difference():
    players = [Player(n, 1500, 1, 1) for n in "ABCD"]
    matches = [
        [Seat("A", 100), Seat("B", 90), Seat("C", 80), Seat("D", 70)],  # total 340
        [Seat("B", 130), Seat("A", 90), Seat("C", 80), Seat("D", 70)],  # total 370
    ]
    table = group_standings(players, matches)
    # A: VP 8 + 4 = 12, diff (400 - 340) + (360 - 370) = 50; B: VP 4 + 8 = 12, diff 20 + 150 = 170.
    # C: VP 2 + 2 = 4, diff -20 + -50 = -70; D: 2, diff -60 + -90 = -150.
    assert names(table) == ["B", "A", "C", "D"]
    assert [(s.rank, s.victory_points, s.difference, s.points, s.matches) for s in table] == [
        (1, 12, 170, 220, 2), (2, 12, 50, 190, 2), (3, 4, -70, 160, 2), (4, 2, -150, 140, 2)]


def test_third_criterion_particular_points():
    players = [Player(n, 1500, 1, 1) for n in "ABCDE"]
    matches = [
        [Seat("A", 100), Seat("C", 50), Seat("D", 50), Seat("E", 50)],  # A: 8 VP, 400 - 250 = 150
        [Seat("B", 110), Seat("C", 60), Seat("D", 60), Seat("E", 60)],  # B: 8 VP, 440 - 290 = 150
    ]
    table = group_standings(players, matches)
    assert names(table)[:2] == ["B", "A"]  # same VP and difference: 110 points beat 100
    assert [s.rank for s in table[:2]] == [1, 2]


def test_fourth_criterion_is_the_lowest_elo():
    players = [Player("A", 1600, 1, 1), Player("B", 1500, 1, 1), Player("C", 1500, 1, 1), Player("D", 1500, 1, 1)]
    matches = [
        [Seat("A", 100), Seat("B", 90), Seat("C", 80), Seat("D", 70)],
        [Seat("B", 100), Seat("A", 90), Seat("C", 80), Seat("D", 70)],
    ]
    table = group_standings(players, matches)
    # A and B: 12 VP, difference 60 + 20 = 80, 190 points each: B has the lower Elo (1500 < 1600).
    assert names(table)[:2] == ["B", "A"]
    assert [s.rank for s in table[:2]] == [1, 2]


def test_full_ties_share_the_rank_and_forfeits_rank_last_tied():
    players = [Player("A", 1500, 1, 1), Player("B", 1500, 1, 1), Player("C", 1700, 1, 1, Status.FORFEIT),
               Player("D", 1400, 1, 1, Status.FORFEIT), Player("E", 1500, 1, 1)]
    matches = [[Seat("C", 200), Seat("A", 100), Seat("B", 100), Seat("Forfait", 10)]]
    table = group_standings(players, matches)
    # A and B tied on everything (VP (4 + 2) / 2 = 3 each): same rank; C won but is forfeit: last, tied with D.
    assert [(s.player.name, s.rank, s.position) for s in table] == [
        ("A", 1, 1), ("B", 1, 2), ("E", 3, 3), ("C", 4, 4), ("D", 4, 5)]
    assert table[0].victory_points == 3
    with pytest.raises(InvalidInput):
        group_standings(players, [[Seat("Zoé", 1), Seat("A", 2), Seat("B", 3), Seat("E", 4)]])


def test_an_elo_too_large_to_rank_is_refused():
    # The fourth criterion compares Elo ratings to 9 decimals (mechanics.rank_key): 1e20 used to escape as
    # decimal.InvalidOperation from the workbook's fill.
    with pytest.raises(InvalidInput, match="Elo"):
        Player("A", 1e20, 1, 1)
    with pytest.raises(InvalidInput, match="Elo"):
        Player("A", float("inf"))


# === §1 The schedule of a group ====================================================================


def check_design(matches, players, per_player):
    assert all(len(m) == 4 and len(set(m)) == 4 for m in matches)
    seats = Counter(p for m in matches for p in m)
    assert set(seats) == set(players) and set(seats.values()) == {per_player}
    pairs = Counter(frozenset(pair) for m in matches for pair in combinations(m, 2))
    assert len(pairs) == len(players) * (len(players) - 1) // 2 and set(pairs.values()) == {2}


@given(st.integers(0, 10**9))
@settings(max_examples=30)
def test_a_group_of_ten_has_15_matches_each_pair_twice_each_player_six(seed):
    players = [f"J{i}" for i in range(10)]
    matches = schedule_group(players, seed)
    assert len(matches) == 15
    check_design(matches, players, 6)
    assert schedule_group(list(reversed(players)), seed) == matches  # same seed, same schedule


def test_other_group_sizes_and_draws():
    seven = [f"J{i}" for i in range(7)]
    check_design(schedule_group(seven, 1), seven, 4)  # the 7 complements of the Fano plane's lines
    assert len(schedule_group(seven, 1)) == 7
    check_design(schedule_group(list("ABCD"), 1), list("ABCD"), 2)
    ten = [f"J{i}" for i in range(10)]
    assert len({tuple(schedule_group(ten, seed)) for seed in range(5)}) > 1  # the seed draws
    with pytest.raises(InvalidInput, match="11 joueurs"):
        schedule_group([f"J{i}" for i in range(11)], 1)
    with pytest.raises(InvalidInput, match="3 joueurs"):
        schedule_group(list("ABC"), 1)
    with pytest.raises(InvalidInput):
        schedule_group(["A"] * 10, 1)


@pytest.mark.parametrize("size, matches, each, times", [
    (6, 3, 2, {1, 2}),  # 6 × 2 = 3 × 4 seats; 3 × 2 ≤ 2 × 5 partners: two matches each is the most
    (8, 8, 4, {1, 2}),  # 8 × 4 = 8 × 4; 4 × 3 = 12 ≤ 2 × 7
    (9, 9, 4, {1, 2}),  # 9 × 4 = 9 × 4; 12 ≤ 2 × 8 (five each would need 45 / 4 matches)
    (5, 5, 4, {3}),  # 5 r = 4 b needs r = 4: each match leaves one out, every pair meets three times
])
def test_sizes_without_an_exact_schedule_get_the_closest_one_and_a_note(size, matches, each, times):
    # Source « Répartition des groupes »: lowest-division groups « équilibrés en nombre de joueurs »; sizes
    # where every pair cannot meet exactly twice (2-(v,4,2) designs exist for 4, 7 and 10 only up to ten)
    # get the closest schedule: every player the same number of matches, every pair at most twice.
    players = [f"J{i}" for i in range(size)]
    got = schedule_group(players, 3)
    assert len(got) == matches and all(len(set(m)) == 4 for m in got)
    assert set(Counter(p for m in got for p in m).values()) == {each}
    met = Counter(frozenset(pair) for m in got for pair in combinations(m, 2))
    assert {met[frozenset(pair)] for pair in combinations(players, 2)} == times
    note = schedule_note(size)
    assert f"{matches} matchs, {each} par joueur" in note and f"à {size} joueurs" in note
    assert schedule_note(4) is None and schedule_note(7) is None and schedule_note(10) is None


# === §4 End of season ============================================================================


def group(d, g, size, leaving=None):
    """A group whose players are named by the source's notation (3d2g1) and finished in that order."""
    leaving = leaving or {}
    table = []
    for position in range(1, size + 1):
        name = origin_label(position, d, g)
        table.append(Standing(Player(name, 1500, d, g, leaving.get(position, Status.ACTIVE)),
                              position, position, 6, 0, 0, 0))
    return table


def pyramid(lowest_size=10, divisions=2, leaving=None):
    leaving = leaving or {}
    return {(d, g): group(d, g, 10 if d < divisions else lowest_size, leaving.get((d, g)))
            for d in range(1, divisions + 1) for g in range(1, 2 ** (d - 1) + 1)}


def source_example():
    """torres-championnat.txt « Répartition des groupes »: D1 of 10, D2 of 2 groups, D3 of 4 groups of 7,
    12 new players n1… n12 by Elo."""
    standings = pyramid(lowest_size=7, divisions=3)
    newcomers = [Player(f"n{i}", 2000 - 10 * i) for i in range(12, 0, -1)]  # typed in any order
    return standings, newcomers


SOURCE_LAYOUT = {  # the source's example, as printed
    (1, 1): "1d1 2d1 3d1 4d1 5d1 6d1 1d2g1 1d2g2 2d2g1 2d2g2",
    (2, 1): "8d1 9d1 3d2g1 4d2g2 5d2g1 6d2g2 1d3g1 1d3g3 2d3g2 2d3g4",
    (2, 2): "7d1 10d1 3d2g2 4d2g1 5d2g2 6d2g1 1d3g2 1d3g4 2d3g1 2d3g3",
    (3, 1): "8d2g1 9d2g2 3d3g1 4d3g2 5d3g3 6d3g4 7d3g1 n2 n7 n10",
    (3, 2): "7d2g2 10d2g1 3d3g2 4d3g3 5d3g4 6d3g1 7d3g2 n1 n8 n9",
    (3, 3): "7d2g1 10d2g2 3d3g3 4d3g4 5d3g1 6d3g2 7d3g3 n4 n5 n12",
    (3, 4): "8d2g2 9d2g1 3d3g4 4d3g1 5d3g2 6d3g3 7d3g4 n3 n6 n11",
}


def layout(result):
    return {key: [m.player.name for m in members] for key, members in result.groups.items()}


def test_the_snake_of_the_rules():
    # torres.md §4: n1-n4 to A B C D, n5-n8 to D C B A, n9-n12 to A B C D.
    assert snake(12, [3, 3, 3, 3]) == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]
    assert snake(5, [1, 2, 2]) == [0, 1, 2, 2, 1]
    assert snake(3, [0, 3]) == [1, 1, 1]
    with pytest.raises(InvalidInput):
        snake(3, [1, 1])


@pytest.mark.parametrize("seed", range(12))
def test_next_season_reproduces_the_source_example_up_to_the_draws(seed):
    standings, newcomers = source_example()
    got = layout(next_season(standings, newcomers, seed=seed))
    assert sorted(got) == sorted(SOURCE_LAYOUT)
    assert set(got[1, 1]) == set(SOURCE_LAYOUT[1, 1].split())  # nothing drawn in D1
    for key, expected in SOURCE_LAYOUT.items():
        members = set(got[key])
        assert len(members) == 10
        # Stayers (3rd to 6th, and the lowest division's 7th) by circular permutation: not drawn.
        stay = {n for n in expected.split() if n[1:].startswith(f"d{key[0]}") or n[2:].startswith(f"d{key[0]}")}
        assert stay <= members, key
    for j in (1, 2):  # D2: a drawn pair from D1, two 1sts and two 2nds of four different D3 groups
        members = got[2, j]
        assert {m for m in members if m.endswith("d1")} in ({"7d1", "10d1"}, {"8d1", "9d1"})
        ups = sorted(m for m in members if "d3" in m)
        assert [u[0] for u in ups] == ["1", "1", "2", "2"] and len({u[-1] for u in ups}) == 4
    pairs = {frozenset(m for m in got[3, j] if "d2" in m) for j in range(1, 5)}
    assert pairs == {frozenset(p.split()) for p in ("8d2g1 9d2g2", "7d2g2 10d2g1", "7d2g1 10d2g2", "8d2g2 9d2g1")}
    minis = {frozenset(m for m in got[3, j] if m.startswith("n")) for j in range(1, 5)}
    assert minis == {frozenset(p.split()) for p in ("n1 n8 n9", "n2 n7 n10", "n3 n6 n11", "n4 n5 n12")}


def test_one_seed_draws_exactly_the_source_example():
    standings, newcomers = source_example()
    got = layout(next_season(standings, newcomers, seed=7792))
    assert got == {key: names.split() for key, names in SOURCE_LAYOUT.items()}


def test_movements_of_the_source_example():
    standings, newcomers = source_example()
    moves = {m.player.name: m for m in next_season(standings, newcomers, seed=1).movements}
    assert moves["1d1"].champion and moves["1d1"].move is Move.STAY
    assert [moves[n].move for n in ("6d1", "7d1", "2d2g1", "3d2g1", "7d2g1", "2d3g4", "7d3g4", "n12")] == [
        Move.STAY, Move.DOWN, Move.UP, Move.STAY, Move.DOWN, Move.UP, Move.STAY, Move.NEW]
    assert (moves["7d1"].division, moves["1d3g1"].division, moves["n1"].division) == (2, 2, 3)
    assert moves["n1"].origin == "n1" and moves["4d3g2"].origin == "4d3g2"


def where(result, name):
    return next(key for key, members in result.groups.items() if name in [m.player.name for m in members])


def test_a_leader_who_withdraws_lets_the_third_up_and_the_seventh_is_rescued():
    # Source « Repêchages », case 1: the 3rd moves up; the base rule rescues the best of those going down.
    standings = pyramid(divisions=3, leaving={(2, 1): {1: Status.WITHDRAWN}})
    result = next_season(standings, seed=3)
    moves = {m.player.name: m for m in result.movements}
    assert moves["1d2g1"].move is Move.WITHDRAWN and moves["1d2g1"].division is None
    assert moves["3d2g1"].move is Move.UP and moves["3d2g1"].division == 1
    assert moves["7d2g1"].move is Move.RESCUED and moves["7d2g1"].division == 2
    assert [moves[n].move for n in ("8d2g1", "9d2g1", "10d2g1")] == [Move.DOWN] * 3
    assert all(len(result.groups[2, j]) == 10 for j in (1, 2)) and len(result.groups[1, 1]) == 10


def test_a_forfeit_who_was_going_down_leaves_a_place_rescued_in_the_division_below():
    # Source case 3: no repêchage in his group; D2 receives one player fewer: the best 7th of D2 is rescued.
    standings = pyramid(divisions=3, leaving={(1, 1): {10: Status.FORFEIT}})
    standings[2, 2] = [Standing(s.player, s.rank, s.position, 6, 20 - s.position, 0, 0) for s in standings[2, 2]]
    standings[2, 1] = [Standing(s.player, s.rank, s.position, 6, 10 - s.position, 0, 0) for s in standings[2, 1]]
    result = next_season(standings, seed=5)
    moves = {m.player.name: m for m in result.movements}
    assert moves["10d1"].move is Move.FORFEIT
    # Both 7th are equally placed; 7d2g2 has more victory points (13 against 3): he is rescued.
    assert moves["7d2g2"].move is Move.RESCUED and moves["7d2g1"].move is Move.DOWN
    assert {where(result, n) for n in ("7d1", "8d1", "9d1")} <= {(2, 1), (2, 2)}
    assert all(len(result.groups[2, j]) == 10 for j in (1, 2))


def test_rescues_are_spread_one_per_group():
    # Two places left in D2 by D1's 9th and 10th: one rescue in each D2 group (totals within one).
    standings = pyramid(divisions=3, leaving={(1, 1): {9: Status.WITHDRAWN, 10: Status.WITHDRAWN}})
    moves = {m.player.name: m for m in next_season(standings, seed=2).movements}
    assert moves["7d2g1"].move is Move.RESCUED and moves["7d2g2"].move is Move.RESCUED
    # And with an internal rescue already in group 1, the external one goes to group 2.
    standings = pyramid(divisions=3, leaving={(1, 1): {10: Status.WITHDRAWN}, (2, 1): {3: Status.WITHDRAWN}})
    moves = {m.player.name: m for m in next_season(standings, seed=2).movements}
    assert moves["7d2g1"].move is Move.RESCUED and moves["7d2g2"].move is Move.RESCUED
    assert moves["8d2g1"].move is Move.DOWN


def test_without_anyone_to_rescue_the_best_stayer_of_the_division_below_moves_up():
    # D1: its five first leave; D1's 6th-10th all stay and nobody is left to rescue: D1 has 5 + 4 = 9
    # players, so the best of D2's stayers (the 3rds; 3d2g2 has more victory points) moves up.
    leaving = {(1, 1): dict.fromkeys(range(1, 6), Status.WITHDRAWN)}
    standings = pyramid(divisions=2, leaving=leaving)
    standings[2, 2] = [Standing(s.player, s.rank, s.position, 6, 30 - s.position, 0, 0) for s in standings[2, 2]]
    result = next_season(standings, seed=4)
    moves = {m.player.name: m for m in result.movements}
    assert [moves[f"{p}d1"].move for p in range(6, 11)] == [Move.STAY] + [Move.RESCUED] * 4
    assert moves["3d2g2"].move is Move.RESCUED_UP and moves["3d2g2"].division == 1
    assert moves["3d2g1"].move is Move.STAY
    assert len(result.groups[1, 1]) == 10


def test_a_standing_whose_player_is_not_in_that_group_is_refused():
    # The same season as above (a D2 stayer must move up), with D2 group 2's players typed without
    # their division and group: refused, rather than failing on the move up (KeyError before).
    leaving = {(1, 1): dict.fromkeys(range(1, 6), Status.WITHDRAWN)}
    standings = pyramid(divisions=2, leaving=leaving)
    standings[2, 2] = [Standing(Player(s.player.name, s.player.elo), s.rank, s.position, 6, 30 - s.position, 0, 0)
                       for s in standings[2, 2]]
    with pytest.raises(InvalidInput, match="1d2g2 est classé en D2 groupe 2 mais sa fiche indique division vide"):
        next_season(standings, seed=4)
    # A player in another group than the one he is ranked in.
    standings = pyramid(divisions=2)
    standings[2, 1] = [Standing(Player("intrus", 1500, 2, 2), 1, 1, 6, 0, 0, 0)] + list(standings[2, 1][1:])
    with pytest.raises(InvalidInput, match="intrus est classé en D2 groupe 1 mais sa fiche indique "
                                           "division 2, groupe 2"):
        next_season(standings, seed=1)


def test_a_returning_player_takes_a_vacant_place_before_any_rescue():
    standings = pyramid(divisions=3, leaving={(1, 1): {10: Status.FORFEIT}})
    back = Player("Revenant", 1700, 2, None, Status.RETURNING)
    result = next_season(standings, returning=[back], seed=1)
    moves = {m.player.name: m for m in result.movements}
    assert moves["Revenant"].move is Move.RETURNING and moves["Revenant"].division == 2
    assert moves["7d2g1"].move is Move.DOWN and moves["7d2g2"].move is Move.DOWN
    # Without a place at his level, he comes back one division lower.
    result = next_season(pyramid(lowest_size=7, divisions=3), returning=[back], seed=1)
    assert where(result, "Revenant")[0] == 3
    # Past the lowest division's ten per group, a D4 of eight groups does not open for him: he waits.
    result = next_season(pyramid(divisions=3), returning=[back], seed=1)
    moves = {m.player.name: m for m in result.movements}
    assert moves["Revenant"].move is Move.WAITING and moves["Revenant"].division is None
    assert not any(d == 4 for d, _ in result.groups)


def returning_d1(name="Revenant", elo=1700):
    return Player(name, elo, 1, None, Status.RETURNING)


@pytest.mark.parametrize("seed", range(6))
def test_a_returning_player_has_priority_over_rescuing_a_relegated_player_of_the_group(seed):
    # Source « Repêchages »: the place a withdrawal leaves « sera comblée en priorité par le retour d'un
    # participant ayant évolué à ce niveau. Sinon, elle sera comblée par un repêchage au sein du groupe ».
    # The source's layout (D1 of 10, D2 of 2 groups, D3 of 4 groups of 7): the 4th of D1 withdraws and a
    # former D1 player returns: he takes the D1 place and the 7th of D1 goes down.
    standings = pyramid(lowest_size=7, divisions=3, leaving={(1, 1): {4: Status.WITHDRAWN}})
    result = next_season(standings, returning=[returning_d1()], seed=seed)
    moves = {m.player.name: m for m in result.movements}
    assert (moves["Revenant"].move, moves["Revenant"].division) == (Move.RETURNING, 1)
    assert (moves["7d1"].move, moves["7d1"].division) == (Move.DOWN, 2)
    assert sorted(m.player.name for m in result.groups[1, 1]) == sorted(
        ["1d1", "2d1", "3d1", "5d1", "6d1", "1d2g1", "1d2g2", "2d2g1", "2d2g2", "Revenant"])
    assert {where(result, n)[0] for n in ("7d1", "8d1", "9d1", "10d1")} == {2}
    # Without him, the base rule rescues the best of those who were to go down: the 7th stays in D1.
    moves = {m.player.name: m for m in next_season(standings, seed=seed).movements}
    assert (moves["7d1"].move, moves["7d1"].division) == (Move.RESCUED, 1)
    # Same one division lower: the 4th of D2 group 1 withdraws, a former D2 player returns.
    standings = pyramid(lowest_size=7, divisions=3, leaving={(2, 1): {4: Status.WITHDRAWN}})
    back = Player("Revenante", 1650, 2, None, Status.RETURNING)
    result = next_season(standings, returning=[back], seed=seed)
    moves = {m.player.name: m for m in result.movements}
    assert (moves["Revenante"].move, moves["Revenante"].division) == (Move.RETURNING, 2)
    assert (moves["7d2g1"].move, moves["7d2g1"].division) == (Move.DOWN, 3)
    assert all(len(result.groups[2, j]) == 10 for j in (1, 2))
    moves = {m.player.name: m for m in next_season(standings, seed=seed).movements}
    assert (moves["7d2g1"].move, moves["7d2g1"].division) == (Move.RESCUED, 2)


def test_a_forfeit_player_is_ranked_last_so_his_departure_rescues_nobody_in_his_group():
    # Source « Repêchage au sein d'un groupe »: « les joueurs forfaits sont implicitement classés derniers
    # ex-aequo »; case 3, « Le joueur se retirant doit descendre d'une division : Il n'y a pas de repêchage ».
    # D1's best player by points goes forfeit: ranked 10th, he goes down (and leaves): D1's 7th goes down too.
    d1 = [Player(f"P{i}", 1500, 1, 1, Status.FORFEIT if i == 1 else Status.ACTIVE) for i in range(1, 11)]
    matches = [[Seat(f"P{i}", 200 - 10 * i) for i in block] for block in ((1, 2, 3, 4), (5, 6, 7, 8), (1, 8, 9, 10))]
    table = group_standings(d1, matches)  # P1 won both his matches
    assert table[-1].player.name == "P1" and table[-1].position == 10
    standings = pyramid(lowest_size=7, divisions=3)
    standings[1, 1] = table
    result = next_season(standings, seed=2)
    moves = {m.player.name: m for m in result.movements}
    assert moves["P1"].move is Move.FORFEIT
    assert [moves[s.player.name].move for s in table[:9]] == [Move.STAY] * 6 + [Move.DOWN] * 3
    # D2 receives three from D1 instead of four: the place is D2's to fill (a 7th of D2 rescued).
    assert sum(moves[f"7d2g{g}"].move is Move.RESCUED for g in (1, 2)) == 1


def test_a_returning_player_without_a_place_at_his_level_takes_the_nearest_one_above():
    # Source « Retrait du championnat »: « réintégré dans la division dans laquelle il se serait trouvé …
    # (ou dans la division la plus proche possible) ». D1: nine withdraw, the 10th stays (rescued); D2 (the
    # lowest, two groups of four) sends its 1sts and 2nds up and its 3rds and 4ths are rescued up: D1 has
    # 1 + 4 + 4 = 9 players, a place nobody can fill. Twenty-one former D2 players come back: twenty fill
    # D2, the last by Elo finds no place there and takes the place in D1 (a D3 would not open for one).
    leaving = {(1, 1): dict.fromkeys(range(1, 10), Status.WITHDRAWN)}
    standings = {(1, 1): group(1, 1, 10, leaving[1, 1]), (2, 1): group(2, 1, 4), (2, 2): group(2, 2, 4)}
    back = [Player(f"R{i:02d}", 2000 - i, 2, None, Status.RETURNING) for i in range(21)]
    result = next_season(standings, returning=back, seed=1)
    moves = {m.player.name: m for m in result.movements}
    assert (moves["R20"].move, moves["R20"].division) == (Move.RETURNING, 1)
    assert len(result.groups[1, 1]) == 10 and not any("sans joueur" in w for w in result.warnings)
    assert sorted(len(result.groups[2, j]) for j in (1, 2)) == [10, 10]
    assert {moves[f"R{i:02d}"].division for i in range(20)} == {2}


def test_the_lowest_division_is_balanced_in_size():
    # Source « Répartition des groupes »: « Les groupes de la division la plus basse devront être équilibrés
    # en nombre de joueurs ». D3 (4 groups of 4, 10, 4, 10) keeps 2 + 8 + 2 + 8 = 20 players, receives 8 from
    # D2 and 2 new players: 30 in 4 groups, 8, 8, 7, 7 (not 6/5/7/7 or worse as the permutation leaves them).
    standings = pyramid(divisions=3)
    standings[3, 1], standings[3, 3] = group(3, 1, 4), group(3, 3, 4)
    newcomers = [Player("N1", 1500), Player("N2", 1400)]
    for seed in range(8):
        result = next_season(standings, newcomers, seed=seed)
        assert sorted(len(result.groups[3, j]) for j in range(1, 5)) == [7, 7, 8, 8]
        eight = [w for w in result.warnings if "8 joueurs" in w]
        assert len(eight) == 1 and "pas de calendrier où chaque paire se rencontre exactement deux fois" in eight[0]
        assert not any("7 joueurs" in w for w in result.warnings)  # seven has an exact schedule


def test_one_new_player_too_many_does_not_open_a_division_of_empty_groups():
    # D1, D2 and D3 full: one new player would open a D4 of eight groups, seven of them empty. He waits.
    result = next_season(pyramid(divisions=3), [Player("N1", 1500)], seed=1)
    moves = {m.player.name: m for m in result.movements}
    assert moves["N1"].move is Move.WAITING and moves["N1"].division is None
    assert max(d for d, _ in result.groups) == 3
    assert any("N1" in w and "en attente" in w and "32 joueurs" in w for w in result.warnings)
    # Thirty-two (four per group) open it, balanced.
    newcomers = [Player(f"N{i}", 1500 - i) for i in range(32)]
    result = next_season(pyramid(divisions=3), newcomers, seed=1)
    assert [len(result.groups[4, j]) for j in range(1, 9)] == [4] * 8


def test_the_first_season_fills_the_divisions_by_elo():
    # Source « Répartition des groupes »: the first season by Boîte à Jeux Elo.
    players = [Player(f"P{i:02d}", 2000 - i) for i in range(46)]
    result = next_season({}, players, seed=1)
    assert sorted(m.player.name for m in result.groups[1, 1]) == [f"P{i:02d}" for i in range(10)]
    d2 = result.groups[2, 1] + result.groups[2, 2]
    assert sorted(m.player.name for m in d2) == [f"P{i:02d}" for i in range(10, 30)]
    assert sorted(len(result.groups[3, j]) for j in range(1, 5)) == [4, 4, 4, 4]
    # Five beyond D2 would make a D3 of four groups of one or two: they wait (a warning names them).
    result = next_season({}, players[:35], seed=1)
    assert max(d for d, _ in result.groups) == 2
    assert [m.move for m in result.movements[-5:]] == [Move.WAITING] * 5
    assert any("P34" in w and "en attente" in w for w in result.warnings)


def test_too_many_new_players_open_a_division():
    standings = pyramid(divisions=2)
    newcomers = [Player(f"N{i}", 1500 - i) for i in range(16)]
    result = next_season(standings, newcomers, seed=1)
    # D2 keeps its 3rd-10th (8 per group) and gets D1's 7th-10th: 20, full; sixteen new open a D3 of 4 × 4.
    assert [len(result.groups[3, j]) for j in range(1, 5)] == [4] * 4
    assert any("D3" in w for w in result.warnings)
    # Six would not: they wait.
    result = next_season(standings, newcomers[:6], seed=1)
    assert not any(d == 3 for d, _ in result.groups)
    assert {m.player.name for m in result.movements if m.move is Move.WAITING} == {f"N{i}" for i in range(6)}


@st.composite
def seasons(draw):
    divisions = draw(st.integers(1, 3))
    lowest = draw(st.integers(4, 10))
    statuses = st.sampled_from([Status.ACTIVE] * 6 + [Status.FORFEIT, Status.WITHDRAWN])
    leaving = {(d, g): {p: draw(statuses) for p in range(1, 11)}
               for d in range(1, divisions + 1) for g in range(1, 2 ** (d - 1) + 1)}
    newcomers = [Player(f"N{i}", draw(st.integers(1000, 2000))) for i in range(draw(st.integers(0, 12)))]
    returning = [Player(f"R{i}", draw(st.integers(1000, 2000)), draw(st.integers(1, 4)), None, Status.RETURNING)
                 for i in range(draw(st.integers(0, 4)))]
    return pyramid(lowest, divisions, leaving), newcomers + returning, draw(st.integers(0, 1000))


@given(seasons())
@settings(max_examples=40, deadline=None)
def test_every_player_who_stays_has_exactly_one_place(season):
    standings, arrivals, seed = season
    newcomers = [p for p in arrivals if p.status is Status.ACTIVE]
    returning = [p for p in arrivals if p.status is Status.RETURNING]
    result = next_season(standings, newcomers, returning, seed=seed)
    placed = Counter(m.player.name for members in result.groups.values() for m in members)
    waiting = {m.player.name for m in result.movements if m.move is Move.WAITING}
    staying = {s.player.name for table in standings.values() for s in table if not s.player.status.leaves}
    assert staying <= set(placed) and not waiting & set(placed) and set(placed.values()) <= {1}
    assert set(placed) | waiting == staying | {p.name for p in arrivals}
    lowest = max(d for d, _ in standings)
    for (d, _), members in result.groups.items():
        assert len(members) <= 10
        if d < lowest and not result.warnings:
            assert len(members) == 10
    for d in {d for d, _ in result.groups if d >= lowest}:  # « équilibrés en nombre de joueurs »
        sizes = [len(members) for (dd, _), members in result.groups.items() if dd == d]
        assert max(sizes) - min(sizes) <= 1
    assert layout(next_season(standings, list(reversed(newcomers)), returning[::-1], seed=seed)) == layout(result)


# === §1 Structure: where each player of the Joueurs table is this season ===========================
# torres.md §1: « la division d compte 2^(d-1) groupes de dix joueurs » (the lowest division may hold 4 to 10);
# a new player enters next season; a returning one comes back in a division (§4 « Retrait du championnat »).

from xlcircuit.rules.torres import WHOLE_TABLE, pyramid_violations, seat_violations  # noqa: E402


@pytest.mark.parametrize("division, group, status, expected", [
    (1, 1, Status.ACTIVE, []),
    (3, 4, Status.ACTIVE, []),  # D3 has 2^2 = 4 groups
    (3, 5, Status.ACTIVE, [("group", "la D3 a 4 groupes ; trouvé le groupe 5")]),
    (1, 2, Status.FORFEIT, [("group", "la D1 a 1 groupe ; trouvé le groupe 2")]),
    (None, None, Status.NEW, []),
    (2, None, Status.NEW, [("division", "un nouveau joueur n'a ni division ni groupe cette saison : videz ces "
                                        "cellules (il entrera en division la plus basse)")]),
    (2, None, Status.RETURNING, []),
    (2, 9, Status.RETURNING, []),  # his group is drawn: the one typed is not checked
    (None, None, Status.RETURNING, [("division", "division manquante : celle où le joueur revient")]),
    (None, 1, Status.WITHDRAWN, [("division", "division manquant : un joueur retrait joue cette saison dans une "
                                              "division et un groupe (sinon : nouveau, retour ou parti)")]),
    (2, None, Status.ACTIVE, [("group", "groupe manquant : un joueur actif joue cette saison dans une division et "
                                        "un groupe (sinon : nouveau, retour ou parti)")]),
    # §4 « Retrait du championnat »: a player who left keeps the division he would come back to, and no group.
    (2, None, Status.LEFT, []),
    (None, None, Status.LEFT, []),
    (2, 1, Status.LEFT, [("group", "un joueur parti ne joue pas cette saison : videz son groupe (sa division, "
                                   "facultative, est celle où il reviendra)")]),
])
def test_where_a_player_is_this_season(division, group, status, expected):
    found = seat_violations(Player("P", 1500.0, division, group, status), 4)
    assert [(v.field, v.message) for v in found] == expected and all(v.index == 4 for v in found)


def _pyramid(*sizes):
    """Players filling groups (division, group) with these many players each, in order."""
    return [Player(f"{d}.{g}.{i}", 1500.0, d, g) for d, g, n in sizes for i in range(n)]


@pytest.mark.parametrize("players, expected", [
    (_pyramid((1, 1, 10), (2, 1, 10), (2, 2, 10)), []),
    (_pyramid((1, 1, 10), (2, 1, 4), (2, 2, 10)), []),  # the lowest division: 4 to 10
    (_pyramid((1, 1, 10), (2, 1, 3), (2, 2, 11)),  # players 10 and 13 open the two groups
     [(10, "group", "D2 groupe 1 : 3 joueurs ; de 4 à 10 attendus"),
      (13, "group", "D2 groupe 2 : 11 joueurs ; de 4 à 10 attendus")]),
    (_pyramid((1, 1, 9), (2, 1, 10), (2, 2, 10)),
     [(0, "group", "D1 groupe 1 : 9 joueurs ; 10 attendus hors de la division la plus basse")]),
    (_pyramid((1, 1, 10), (2, 2, 10)),
     [(WHOLE_TABLE, "division", "la D2 n'a aucun joueur dans son groupe 1 : la division 2 a 2 groupes (la plus "
                                "basse ici est la D2)")]),
    (_pyramid((2, 1, 10), (2, 2, 10)),
     [(WHOLE_TABLE, "division", "la D1 n'a aucun joueur dans son groupe 1 : la division 1 a 1 groupe (la plus "
                                "basse ici est la D2)")]),
    ([Player("N", 1500.0, status=Status.NEW)], []),  # nobody in a group yet: no pyramid to check
])
def test_the_pyramid_of_this_season(players, expected):
    assert [(v.index, v.field, v.message) for v in pyramid_violations(players)] == expected
