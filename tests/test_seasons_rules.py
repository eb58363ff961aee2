"""What carries over from one season to the next, as the rules decide it (the pure core): the next season's
name, the palmarès podium, DBM's thresholds, Elo's starting state, TORRES' roster of next season."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlcircuit.rules import dbm, elo, seasons, torres
from xlcircuit.rules.errors import InvalidInput

# --- the next season's name, the podium --------------------------------------------------------------------


@pytest.mark.parametrize("name, following", [
    ("2025-2026", "2026-2027"),
    ("2025/26", "2026/27"),
    ("2099-00", "2100-01"),
    ("Saison 2025", "Saison 2026"),
    ("Championnat de France 2014", "Championnat de France 2015"),
    ("Ligue des soirées 2025-2026", "Ligue des soirées 2026-2027"),
    ("printemps 2026", "printemps 2027"),
    ("Ligue du jeudi", None),
    ("", None),
    (None, None),
])
def test_the_next_seasons_name_moves_each_year_on(name, following):
    assert seasons.next_name(name) == following


@given(st.integers(1900, 2098))
def test_a_season_over_two_years_stays_over_two_years(year):
    assert seasons.next_name(f"{year}-{year + 1}") == f"{year + 1}-{year + 2}"


@pytest.mark.parametrize("ranked, podium", [
    ([(1, "A"), (2, "B"), (3, "C"), (4, "D")], ("A", "B", "C")),
    ([(1, "A"), (1, "B"), (3, "C")], ("A et B", None, "C")),  # two champions, no second
    ([(1, "A"), (2, "B"), (2, "C"), (2, "D")], ("A", "B, C et D", None)),
    ([(None, "X"), (1, "A")], ("A", None, None)),  # the unranked are on no podium
    ([], (None, None, None)),
])
def test_the_podium_of_the_palmares_keeps_ties_together(ranked, podium):
    assert seasons.podium(ranked) == podium


# --- DBM: next season's seuil_S and seuil_O ---------------------------------------------------------------


def _table1(means: list[tuple[str, list[float]]]) -> list[dbm.Ranked]:
    """A Tableau 1 from each active player's counted results, in order (totals decreasing)."""
    ranked = []
    for place, (player, results) in enumerate(means, start=1):
        ranked.append(dbm.Ranked(place, dbm.Record(player, (), tuple(results), sum(results),
                                                   sum(results) / len(results))))
    return ranked


def test_the_thresholds_come_from_the_last_active_s_and_o_of_the_end_of_season():
    """Eight active players: RÉPARTITION PAR CLASSES gives 10 % → 1 X (0.8 rounded half up), 25 % → 2 (X+S),
    50 % → 4 (X+S+O): the 2nd is the last (S), the 4th the last (O). « la moyenne finale du dernier joueur
    « actif » (S) de la saison précédente »: their averages, whatever their class at the start."""
    table = _table1([("Ana", [100, 90, 80, 70]), ("Bob", [90, 80, 70, 60]), ("Cid", [80, 70, 60, 50]),
                     ("Dan", [90, 80, 60]),  # three results: total 230, average 76.67
                     ("Eve", [50, 50, 50, 50]), ("Fox", [40, 40, 40, 40]), ("Gus", [30, 30, 30, 30]),
                     ("Hal", [10, 10, 10, 10])])
    found = dbm.next_thresholds(table)
    assert (found.player_s, found.seuil_s) == ("Bob", 75.0)
    assert found.player_o == "Dan" and found.seuil_o == pytest.approx(230 / 3)


def test_without_an_active_s_player_the_threshold_stays_blank():
    """Four active players: 10 % → 0 X, 25 % → 1 (the 1st is S), 50 % → 2: no X, one S, one O; two players:
    25 % of 2 is 0.5 → 1 (S), 50 % → 1: no (O)."""
    two = dbm.next_thresholds(_table1([("Ana", [60, 60, 60]), ("Bob", [20, 20, 20])]))
    assert (two.player_s, two.seuil_s, two.player_o, two.seuil_o) == ("Ana", 60.0, None, None)
    assert dbm.next_thresholds([]) == dbm.NextThresholds(None, None, None, None)


# --- Elo: a player's starting rating and games played ------------------------------------------------------


def test_the_sources_table_of_six_with_k_16_needs_thirty_games_already_played():
    """Source: « Prenons une table de six où votre note est 1000 et où vous finissez troisième. Devant vous, un
    joueur noté 1200 et un noté 1100 ; derrière, un 1000, un 900 et un 800 … On multiplie par le coefficient
    16, on divise par vos cinq adversaires : 16 × 0,5 / 5 = 1,6, arrondi à +2 ». K is 16 « à partir de la
    trente et unième » partie: the player has thirty games behind him."""
    players = ("A1200", "B1100", "Vous", "D1000", "E900", "F800")
    starts = {"A1200": elo.Start(1200, 40), "B1100": elo.Start(1100, 40), "Vous": elo.start_of(1000, 30),
              "D1000": elo.Start(1000, 40), "E900": elo.Start(900, 40), "F800": elo.Start(800, 40)}
    game = elo.Game("soirée", None, players, (47, 61, 78, 92, 104, 120))
    history = elo.run_history([game], starts=starts)
    mine = next(line.change for line in history.lines if line.player == "Vous")
    assert (mine.before, mine.games, mine.k, mine.delta, mine.after) == (1000, 31, 16, 2, 1002)


def test_a_new_player_still_starts_at_1000_with_k_48():
    """« Tout le monde commence à 1000 » and « 48 pour les parties 1 à 5 »: five equal duels won in a row lead
    « de 1000 à 1120 » (+24 each, at equal ratings in two-player games)."""
    games = [elo.Game(str(i), None, ("Vous", f"Autre{i}"), (1, 2)) for i in range(5)]
    starts = {f"Autre{i}": elo.Start(1000 + 24 * i, 0) for i in range(5)}  # each opponent at your rating
    history = elo.run_history(games, starts=starts)
    assert [line.change.after for line in history.lines if line.player == "Vous"] == [1024, 1048, 1072, 1096, 1120]


def test_games_already_played_end_the_placement_and_set_k():
    """« Aucun palier ne vous est annoncé tant que les cinq ne sont pas jouées »: four games already played and
    one here make five; the issue's case: a player carried at 1109 is « Or » (1050), not « 1024 Placement »."""
    history = elo.run_history([elo.Game("1", None, ("Louis", "Zoé"), (10, 20))],
                              starts={"Louis": elo.start_of(1109, 4), "Zoé": elo.start_of(None, None)})
    louis = next(s for s in history.standings if s.player == "Louis")
    change = next(line.change for line in history.lines if line.player == "Louis")
    assert change.k == 48 and louis.games == 5 and louis.tier is elo.Tier.GOLD
    assert louis.rating == 1109 + change.delta


def test_a_player_with_a_starting_rating_is_in_the_standings_without_a_game():
    history = elo.run_history([], starts={"Absent": elo.start_of(1300, 50)})
    assert [(s.player, s.rating, s.games, s.tier) for s in history.standings] == [
        ("Absent", 1300, 50, elo.Tier.PLATINUM)]


@pytest.mark.parametrize("rating, games", [(99, 0), (1000.5, 0), (1000, -1), (1000, 2.5), ("mille", 0),
                                           (2_000_000, 0), (1000, 10**7), (True, 0)])
def test_a_starting_state_outside_the_rules_is_refused(rating, games):
    with pytest.raises(InvalidInput):
        elo.start_of(rating, games)


# --- TORRES: the roster of next season --------------------------------------------------------------------


def _standing(name: str, division: int, group: int, position: int, status=torres.Status.ACTIVE) -> torres.Standing:
    return torres.Standing(torres.Player(name, 1500, division, group, status), position, position, 6, 0, 0, 0)


@pytest.mark.parametrize("division, position, lowest, back", [
    (2, 1, 3, 1), (2, 2, 3, 1),  # « les 2 meilleurs de chaque groupe montent »
    (2, 3, 3, 2), (2, 6, 3, 2),  # the 3rd-6th stay
    (2, 7, 3, 3), (2, 10, 3, 3),  # the others go down
    (1, 1, 3, 1), (1, 6, 3, 1), (1, 7, 3, 2),  # D1: its 1st-6th stay, nobody above
    (3, 2, 3, 2), (3, 9, 3, 3),  # the lowest division sends nobody down
])
def test_a_withdrawn_player_comes_back_where_his_place_would_have_put_him(division, position, lowest, back):
    """Source « Retrait du championnat »: « il sera réintégré dans la division dans laquelle il se serait trouvé
    au début de la saison suivante »."""
    assert torres.return_division(_standing("X", division, 1, position), lowest) == back


def test_next_seasons_roster_keeps_groups_statuses_and_where_leavers_come_back():
    players = [torres.Player(f"P{i}", 1500 + i, 1, 1) for i in range(1, 9)]
    players += [torres.Player("Parti", 1400, 2, None, torres.Status.LEFT),
                torres.Player("Attend", 1300, None, None, torres.Status.NEW)]
    placed = [torres.Movement(p, torres.Move.STAY, None, 1, 1) for p in players[:6]]
    withdrawn = _standing("P7", 1, 1, 7, torres.Status.WITHDRAWN)
    forfeit = _standing("P8", 1, 1, 8, torres.Status.FORFEIT)
    following = torres.NextSeason(
        placed + [torres.Movement(withdrawn.player, torres.Move.WITHDRAWN, withdrawn),
                  torres.Movement(forfeit.player, torres.Move.FORFEIT, forfeit),
                  torres.Movement(players[9], torres.Move.WAITING, None)],
        {(1, 1): placed})
    players[6] = withdrawn.player
    players[7] = forfeit.player
    pyramid = {(1, 1): [], (2, 1): [], (2, 2): []}  # a D1 and a D2 this season
    carried = {c.name: (c.division, c.group, c.status) for c in torres.carry_over(players, pyramid, following)}
    assert carried["P1"] == (1, 1, torres.Status.ACTIVE)
    assert carried["P7"] == (2, None, torres.Status.LEFT)  # 7th of D1: he would have gone down to D2
    assert carried["P8"] == (None, None, torres.Status.LEFT)  # « y accèdera par la division la plus basse »
    assert carried["Parti"] == (2, None, torres.Status.LEFT)  # still away, still coming back to D2
    assert carried["Attend"] == (None, None, torres.Status.NEW)  # « prioritaires » next time
    assert list(carried)[:6] == [f"P{i}" for i in range(1, 7)]  # next season's groups first
