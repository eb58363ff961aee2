"""DBM championship (dbm.md): classes, ABRA (VFT), CADABRA (RFJ), VAJ, season tables, next classes.

Source: the federation's French text, « Championnat DBM 98/99 — La Réforme » (Philippe Lempereur),
summarised in ``docs/regles/dbm.md`` (its section
names are cited). Expected values are the source's printed figures or hand arithmetic in a comment,
never computed by xlcircuit.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlcircuit.rules.dbm import (
    Entry,
    PlayerClass,
    Reason,
    Record,
    Result,
    Thresholds,
    Tournament,
    average,
    base,
    best_four,
    class_value,
    cmm,
    current_class,
    next_classes,
    referee_bonus,
    result_points,
    run_season,
    tableau1,
    teams,
    tied_points,
    tournament_value,
)
from xlcircuit.rules.errors import InvalidInput
from xlcircuit.rules.mechanics import format_half_up

I, F, O, S, X = PlayerClass.I, PlayerClass.F, PlayerClass.O, PlayerClass.S, PlayerClass.X


def two(x: float) -> str:
    """As the source prints results and values: two decimals, half up."""
    return format_half_up(x, 2)


# === Classes (RÉPARTITION PAR CLASSES, VBJ) =========================================================


@pytest.mark.parametrize("typed, expected", [
    ("I", I), ("i", I), (" F ", F), ("f", F), ("O", O), ("o", O), ("0", O), (0.0, O), (0, O), ("(0)", O),
    ("S", S), ("s", S), ("X", X), ("x ", X), ("1", I), (1.0, I), ("(i)", I), (2.0, F), (3, O), ("4", S), (5.0, X),
    ("( 0 )", O), ("( 1 )", I),  # VAJ: "les joueurs ( 0 ) passent (S)"
])  # fmt: skip
def test_class_codes_as_typed(typed, expected):
    # "(i) valeur 1 … (X) valeur 5"; the source writes O as "(0)" and I as "(1)".
    assert PlayerClass.parse(typed) is expected


@pytest.mark.parametrize("code, value", [("I", 1), ("F", 2), ("O", 3), ("0", 3), ("S", 4), ("X", 5)])
def test_class_values(code, value):
    assert class_value(code) == value


@pytest.mark.parametrize("typed", ["A", "", "OO", 6, 2.5, -1, True, None, "10"])
def test_bad_class_codes_are_refused_in_french(typed):
    with pytest.raises(InvalidInput, match="classe attendue"):
        PlayerClass.parse(typed)


# === ABRA (VFT) ======================================================================================


@pytest.mark.parametrize("mvb, expected", [
    (1.0, 8.0), (2.0, 8.0),  # "< ou = 2.00 : 8.00"
    (2.0001, 8.5), (2.25, 8.5), (2.2501, 9.0), (2.5, 9.0), (2.5001, 9.5), (2.75, 9.5), (2.7501, 10.0),
    (3.0, 10.0), (3.0001, 10.5), (3.25, 10.5), (3.2501, 11.0), (3.5, 11.0), (3.5001, 11.5), (3.75, 11.5),
    (3.7501, 12.0), (4.0, 12.0), (4.0001, 12.5), (4.25, 12.5), (4.2501, 13.0), (4.5, 13.0), (4.5001, 13.5),
    (4.75, 13.5), (4.7501, 14.0), (5.0, 14.0),
])  # fmt: skip
def test_cmm_strict_thresholds(mvb, expected):
    # CMM table: "> 2.00 : 8.50", "> 2.25 : 9.00" … "> 4.75 : 14.00", each strictly above.
    assert cmm(mvb) == expected


@pytest.mark.parametrize("players, rounds, expected", [
    (12, 4, 12), (24, 4, 24), (25, 4, 24), (36, 4, 24),  # "au plus, les vingt-quatre meilleures … quatre rondes"
    (24, 5, 24), (26, 5, 26), (30, 5, 30), (34, 5, 30),  # "… les trente meilleures pour … cinq rondes"
    (40, 3, 18),
])  # fmt: skip
def test_base_of_retained_players(players, rounds, expected):
    assert base(players, rounds) == expected


def test_worked_example_1_value():
    # Source "EXEMPLES 1)": 4 rounds, 12 players (O) 3: BJR 12, SVB 36, MVB 3.00, CMM 10.00, VFT 120.00.
    v = tournament_value([3] * 12, 4)
    assert (v.njt, v.nrj, v.bjr, v.svb, two(v.mvb), two(v.cmm), two(v.vft)) == (
        12, 4, 12, 36, "3.00", "10.00", "120.00")


EXAMPLE_1_RFJ = ["120.00", "95.24", "75.60", "60.00", "47.62", "37.80",
                 "30.00", "23.81", "18.90", "15.00", "11.91", "9.45"]  # fmt: skip


def test_worked_example_1_every_result():
    # Source "EXEMPLES 1)", the table of RFJ by place (the 1st printed "120").
    assert [two(result_points(120.0, place, 12)) for place in range(1, 13)] == EXAMPLE_1_RFJ


def test_worked_example_2_value():
    # Source "EXEMPLES 2)": 36 players, 3 X, 8 S, 11 O, 14 F, 4 rounds; the 24 best values are
    # 3 X + 8 S + 11 O + 2 F: SVB 15 + 32 + 33 + 4 = 84, MVB 3.50, CMM 11.00, VFT 154.00.
    v = tournament_value([5] * 3 + [4] * 8 + [3] * 11 + [2] * 14, 4)
    assert (v.njt, v.bjr, v.svb, two(v.mvb), two(v.cmm), two(v.vft)) == (36, 24, 84, "3.50", "11.00", "154.00")


EXAMPLE_2_RFJ = (  # source "EXEMPLES 2)", places 1 to 36
    "154.00 142.58 132.02 122.23 113.17 104.78 97.01 89.82 83.16 77.00 71.29 66.01 61.11 56.58 52.39 48.51 "
    "44.91 41.58 38.50 35.65 33.00 30.56 28.29 26.20 24.25 22.46 20.79 19.25 17.82 16.50 15.28 14.15 13.10 "
    "12.13 11.23 10.40"
).split()


def test_worked_example_2_every_result():
    assert [two(result_points(154.0, place, 36)) for place in range(1, 37)] == EXAMPLE_2_RFJ


def test_published_rounding_is_half_up():
    # dbm.md: MVB 3.0625 shows 3.06 and VFT 128.625 shows 128.63 (Python's '%.2f' would print 128.62).
    # 15 (O) and one (S): SVB 49, MVB 49 / 16 = 3.0625 > 3.00 so CMM 10.50; VFT 3.0625 × 10.5 × 4 = 128.625.
    v = tournament_value([3] * 15 + [4], 4)
    assert (v.svb, v.mvb, v.cmm, v.vft) == (49, 3.0625, 10.5, 128.625)
    assert (two(v.mvb), two(v.vft)) == ("3.06", "128.63")


def test_bad_tournaments_are_refused():
    with pytest.raises(InvalidInput):
        tournament_value([], 4)
    with pytest.raises(InvalidInput):
        tournament_value([3, 6], 4)
    with pytest.raises(InvalidInput):
        tournament_value([3, 3], 0)
    with pytest.raises(InvalidInput):
        result_points(120.0, 13, 12)


# === CADABRA (RFJ), ties, referee ====================================================================


def test_quarters():
    # "le premier du deuxième quart marque … VFT/2 ; … troisième quart … VFT/4 ; … quatrième … VFT/8"
    assert [result_points(120.0, p, 12) for p in (1, 4, 7, 10)] == [120.0, 60.0, 30.0, 15.0]


def test_tied_players_share_their_places():
    # Decision (dbm.md): two tied 5th of example 1 share (47.622… + 37.797…) / 2.
    assert tied_points(120.0, 5, 12, 2) == pytest.approx((120 / 2 ** (16 / 12) + 120 / 2 ** (20 / 12)) / 2)
    assert tied_points(120.0, 5, 12) == result_points(120.0, 5, 12)
    with pytest.raises(InvalidInput):
        tied_points(120.0, 11, 12, 3)


@pytest.mark.parametrize("vft, bonus", [(120.0, 60.0), (154.0, 77.0), (200.0, 100.0), (250.0, 100.0), (0.0, 0.0)])
def test_referee_bonus(vft, bonus):
    # PRIME D'ARBITRAGE: "Plafonnée à cent points et égale à la moitié des points de la valeur du tournoi".
    assert referee_bonus(vft) == bonus


def test_best_four_and_average():
    assert best_four([120.0, 15.0, 95.24, 60.0, 47.62]) == pytest.approx(120 + 95.24 + 60 + 47.62)
    assert best_four([30.0]) == 30.0
    assert average([120.0, 15.0, 95.24, 60.0, 47.62]) == pytest.approx((120 + 95.24 + 60 + 47.62) / 4)
    assert average([30.0, 10.0]) == 20.0
    assert average([]) is None


# === VAJ ==============================================================================================

SEUILS = Thresholds(seuil_s=60.0, seuil_o=40.0)


@pytest.mark.parametrize("start, mean, expected", [
    (X, 1.0, X), (S, 1.0, S), (S, 99.0, S),  # "(S) et (X) ne changent pas de classe en cours de saison"
    (O, 60.0, S), (O, 75.0, S), (O, 59.99, O),  # "(0) passent (S) … égale ou supérieure à [seuil_S]"
    (F, 40.0, O), (F, 39.99, F), (F, 15.0, I), (F, 15.01, F), (F, 3.0, I),  # "(F) passent (0) … ; (1) … ≤ 15"
    (I, 15.0, I), (I, 15.01, F), (I, 99.0, F),  # "(1) passent (F) tant que … supérieure à quinze points"
    (F, None, F), (O, None, O), (I, None, I),  # no result yet: VAJ = VBJ
])  # fmt: skip
def test_current_value(start, mean, expected):
    assert current_class(start, mean, SEUILS) is expected


FIRST_SEASON = Thresholds()  # the reform's first season: no last active (S) or (O) of a previous season


@pytest.mark.parametrize("start, mean, expected", [
    (O, 60.0, O), (O, 999.0, O),  # « … la moyenne finale du dernier joueur « actif » (S) de la saison précédente »:
    (F, 40.0, F), (F, 999.0, F),  # none in 98/99 (classes from the old levels): no (O) → (S), no (F) → (O)
    # « ils passent (1) tant que leur moyenne est inférieure ou égale à quinze points »
    (F, 15.0, I), (F, 3.0, I), (F, 15.01, F),
    (I, 15.01, F), (I, 15.0, I),  # « les joueurs (1) passent (F) tant que leur moyenne est supérieure à quinze »
    (S, 1.0, S), (X, 1.0, X),
])  # fmt: skip
def test_current_value_in_the_reforms_first_season(start, mean, expected):
    assert current_class(start, mean, FIRST_SEASON) is expected
    # One threshold known, the other not: each passage on its own.
    assert current_class(O, 70.0, Thresholds(seuil_s=60.0)) is S
    assert current_class(F, 70.0, Thresholds(seuil_s=60.0)) is F


D1, D2, D3 = dt.date(2025, 9, 20), dt.date(2025, 10, 4), dt.date(2025, 11, 8)


def poule(name, date, players, rounds=4, doubles=False):
    return Tournament(name, date, rounds, doubles, tuple(Entry(p, place=i) for i, p in enumerate(players, 1)))


def test_vaj_follows_the_results_in_date_order():
    others = [f"O{i}" for i in range(11)]
    classes = {"Fanny": F, **dict.fromkeys(others, O)}
    season = [
        # Listed out of order: the core takes them by date.
        poule("Second", D2, ["Fanny"] + others),
        poule("Premier", D1, ["Fanny"] + others),
        poule("Même jour", D1, others[:3] + ["Fanny"]),
    ]
    report = run_season(season, classes, Thresholds(seuil_s=1000.0, seuil_o=40.0))  # no (O) becomes (S)
    assert [t.name for t in report.tournaments] == ["Même jour", "Premier", "Second"]
    # D1: nobody has a result: Fanny plays (F). "Premier": SVB 2 + 11 × 3 = 35, MVB 35/12 = 2.9167 > 2.75,
    # CMM 10.00, VFT 35/12 × 10 × 4 = 116.667; she wins it.
    first = report.values["Premier"]
    assert (first.svb, first.cmm) == (35, 10.0)
    assert first.vft == pytest.approx(35 / 12 * 40)
    fanny = {r.tournament: r for results in report.results.values() for r in results if r.player == "Fanny"}
    assert fanny["Premier"].vaj is F and fanny["Même jour"].vaj is F  # same date: no effect (decision)
    # "Même jour": 3 (O) and Fanny, 4 players, SVB 11, MVB 2.75, CMM 9.50, VFT 2.75 × 9.5 × 4 = 104.5; 4th of 4:
    # 104.5 / 2^3 = 13.0625. Her average before D2: the best four of (116.667, 13.0625) = 64.86 ≥ seuil_O (40).
    assert fanny["Même jour"].points == pytest.approx(13.0625)
    assert fanny["Second"].vaj is O
    assert fanny["Second"].before == pytest.approx((35 / 12 * 40 + 13.0625) / 2)
    assert report.values["Second"].svb == 36 and report.values["Second"].vft == 120.0  # all (O): example 1
    assert fanny["Second"].start is F


def test_vaj_average_is_the_best_four_so_far_referee_bonus_included():
    # VAJ: "(F) passent (0) … tant que leur moyenne est égale ou supérieure à [seuil_O]"; the average is
    # that of the results counted (the best four), a referee bonus being a result (decisions).
    others = [f"O{i}" for i in range(1, 13)]
    classes = dict.fromkeys(others, O)
    days = [dt.date(2025, 9, d) for d in (6, 13, 20, 27)] + [dt.date(2025, 10, 4), dt.date(2025, 10, 11)]
    referee = (Entry("Fanny", referee=True),)
    season = [poule(f"Arbitrée {i}", day, others) for i, day in enumerate(days[:4], 1)]
    # Twelve (O), VFT 120: Fanny, referee without playing, gets min(120 / 2, 100) = 60 four times.
    season = [replace(t, entries=t.entries + referee) for t in season]
    # Her average 60 >= seuil_O 55: she plays as (O), thirteen (O): VFT 120, she is 13th: 120 / 2^(48/13) = 9.28.
    season.append(poule("Cinquième", days[4], others + ["Fanny"]))
    season.append(poule("Sixième", days[5], ["Fanny"] + others[:11]))
    report = run_season(season, {**classes, "Fanny": F}, Thresholds(seuil_s=1000.0, seuil_o=55.0))
    fanny = {r.tournament: r for results in report.results.values() for r in results if r.player == "Fanny"}
    assert fanny["Cinquième"].vaj is O and fanny["Cinquième"].points == pytest.approx(120 / 2 ** (48 / 13))
    # Best four of (60, 60, 60, 60, 9.28) = 60 >= 55: still (O); the mean of all five, 49.86, would be (F).
    assert fanny["Sixième"].before == 60.0 and fanny["Sixième"].vaj is O
    # Twelve (O): SVB 36, MVB 3.00, VFT 120 (as (F) she would make SVB 35 and VFT 116.67).
    assert (report.values["Sixième"].svb, report.values["Sixième"].vft) == (36, 120.0)


def test_doubles_team_value_is_its_best_member_s_current_value():
    # NJT / VAJ: Ines (I) referees a poule of twelve (O) (VFT 120): bonus 60 > 15, so she plays as (F).
    # Then in doubles (Ines, Ivan (I)) and (Fred (F), Fabien (F)): team values 2 and 2 (her VAJ, not her
    # start class, which would give 1): SVB 4, MVB 2.00, CMM 8.00, VFT 2 × 8 × 4 = 64.
    others = [f"O{i}" for i in range(1, 13)]
    first = poule("Solo", D1, others)
    first = replace(first, entries=first.entries + (Entry("Ines", referee=True),))
    pairs = Tournament("Furor", D2, 4, True, (Entry("Ines", "Ivan", 1), Entry("Fred", "Fabien", 2)))
    classes = {**dict.fromkeys(others, O), "Ines": I, "Ivan": I, "Fred": F, "Fabien": F}
    report = run_season([first, pairs], classes, SEUILS)
    v = report.values["Furor"]
    assert (v.njt, v.bjr, v.svb, v.cmm, v.vft) == (2, 2, 4, 8.0, 64.0)
    ines = next(r for r in report.results["Furor"] if r.player == "Ines")
    assert (ines.start, ines.vaj, ines.team_value, ines.points) == (I, F, 2, 64.0)


def test_doubles_team_value_is_its_best_member():
    # NJT: "c'est le nombre d'équipes … La valeur de l'équipe est équivalente à la valeur du coéquipier le
    # mieux classé". Teams (X, I), (F, F), (O, I): values 5, 2, 3: SVB 10, MVB 3.333 > 3.25: CMM 11.00,
    # VFT 10/3 × 11 × 4 = 146.667; NJT 3: the 2nd team gets 146.667 / 2^(4/3).
    entries = (Entry("Xavier", "Ines", 1), Entry("Fred", "Fabien", 2), Entry("Olga", "Ivan", 3))
    classes = {"Xavier": X, "Ines": I, "Fred": F, "Fabien": F, "Olga": O, "Ivan": I}
    report = run_season([Tournament("Furor", D1, 4, True, entries)], classes, SEUILS)
    v = report.values["Furor"]
    assert (v.njt, v.bjr, v.svb, v.cmm) == (3, 3, 10, 11.0)
    assert v.vft == pytest.approx(10 / 3 * 44)
    results = {r.player: r for r in report.results["Furor"]}
    assert results["Ines"].points == results["Xavier"].points == pytest.approx(10 / 3 * 44)
    assert results["Fred"].points == results["Fabien"].points == pytest.approx(10 / 3 * 44 / 2 ** (4 / 3))
    assert (results["Ines"].team_value, results["Ines"].vaj, results["Ines"].partner) == (5, I, "Xavier")


def test_referee_bonus_counts_as_a_tournament():
    # Tournament of 12 (O): VFT 120; the referee who did not play gets min(60, 100) = 60.
    players = [f"P{i}" for i in range(12)]
    season = [Tournament("T", D1, 4, False, tuple(Entry(p, place=i) for i, p in enumerate(players, 1))
                         + (Entry("Arbitre", referee=True),))]
    report = run_season(season, dict.fromkeys(players, O), SEUILS)
    referee = report.records["Arbitre"]
    assert referee.tournaments == 1 and referee.total == 60.0
    assert report.results["T"][-1].referee and report.values["T"].njt == 12


def test_a_foreign_tournament_counts_but_does_not_make_a_player_enter():
    # CONDITIONS D'ENTRÉE: "un joueur entre dans le championnat à partir de sa première participation à
    # un tournoi français"; "les tournois « étrangers » … sont désormais comptabilisés".
    abroad = Tournament("Bellegem", D1, 4, False, (Entry("Anna", place=1), Entry("Bert", place=2)), foreign=True)
    home = poule("Paris", D2, ["Bert", "Carl"])
    report = run_season([abroad, home], {"Anna": S, "Bert": O, "Carl": F}, SEUILS)
    assert set(report.records) == {"Bert", "Carl"}
    assert report.records["Bert"].tournaments == 2  # his Bellegem result counts
    # Anna keeps her class, like a player with no French tournament.
    assert (report.classes["Anna"].end, report.classes["Anna"].reason) == (S, Reason.ABSENT)


def test_a_player_twice_in_a_poule_is_refused():
    with pytest.raises(InvalidInput, match="a déjà une ligne dans « T »"):
        run_season([Tournament("T", D1, 4, False, (Entry("A", place=1), Entry("A", place=2)))], {}, SEUILS)


# === Season tables ====================================================================================


def record(player: str, points: list[float]) -> Record:
    """A player's season from his results (test scaffolding: the best four summed by the test)."""
    results = tuple(Result(f"T{i}", player, p) for i, p in enumerate(points))
    best = tuple(sorted(points, reverse=True)[:4])
    return Record(player, results, best, sum(best), sum(best) / len(best))


def test_tableau1_active_players_by_best_four():
    records = {r.player: r for r in [
        record("Alain", [100, 90, 80, 70, 60]),  # 340
        record("Bruno", [120, 110, 20]),  # 250, three tournaments: '*'
        record("Chloé", [200, 150]),  # occasional: not in Tableau 1
        record("Denis", [100, 50, 50, 50]),  # 250, tied with Bruno
    ]}  # fmt: skip
    table = tableau1(records)
    assert [(r.place, r.record.player, r.record.total, r.record.three_only) for r in table] == [
        (1, "Alain", 340, False), (2, "Bruno", 250, True), (2, "Denis", 250, False)]


def test_teams_by_three_in_tableau1_order():
    totals = {"A1": 300, "A2": 250, "A3": 200, "A4": 150, "A5": 100, "A6": 50, "A7": 40,
              "B1": 280, "B2": 270, "B3": 260}  # fmt: skip
    records = {p: record(p, [t / 4] * 4) for p, t in totals.items()}
    clubs = {p: "Club A" if p.startswith("A") else "Club B" for p in totals}
    made = teams(tableau1(records), clubs)
    # Club B: 280 + 270 + 260 = 810; Club A 1: 300 + 250 + 200 = 750; Club A 2: 150 + 100 + 50 = 300;
    # A7 alone: an incomplete triplet, not ranked (decision).
    assert [(t.place, t.club, t.number, t.players, t.total) for t in made] == [
        (1, "Club B", 1, ("B1", "B2", "B3"), 810), (2, "Club A", 1, ("A1", "A2", "A3"), 750),
        (3, "Club A", 2, ("A4", "A5", "A6"), 300), (None, "Club A", 3, ("A7",), 40)]


def _season_for_classes():
    # 23 active players with four results each, totals 230, 220, … 10 (averages 57.5 … 2.5).
    records = {f"P{n:02d}": record(f"P{n:02d}", [(240 - 10 * n) / 4] * 4) for n in range(1, 24)}
    return records


def test_next_classes_by_percentages_rounded_half_up():
    # 23 active: X = 10% of 23 = 2.3 -> 2; X+S = 25% = 5.75 -> 6; X+S+O = 50% = 11.5 -> 12 (half up).
    # The others are F, or I when the average of the four best is below 15 (totals below 60: P19 on).
    records = _season_for_classes()
    starts = dict.fromkeys(records, F)
    classes = next_classes(tableau1(records), records, starts)
    ends = "".join(classes[f"P{n:02d}"].end.letter for n in range(1, 24))
    assert ends == "XX" + "SSSS" + "OOOOOO" + "FFFFFF" + "IIIII"
    assert classes["P01"].reason is Reason.SHARE and classes["P23"].reason is Reason.BELOW_15
    assert classes["P13"].reason is Reason.OTHERS
    # P18 has a total of 60: average exactly 15, not below 15: F.
    assert classes["P18"].end is F


def test_three_result_players_move_up_one_class():
    records = _season_for_classes()
    # Three results of 40: total 120 (between P12 = 120 and P13 = 110); average 40 ≥ P12's 30, the
    # last (O), so F -> O; as F by the share he is compared with the last O.
    records["Trio"] = record("Trio", [40, 40, 40])
    starts = dict.fromkeys(records, F)
    table = tableau1(records)
    classes = next_classes(table, records, starts)
    trio = classes["Trio"]
    # 24 active: X 2.4 -> 2, X+S 6, X+S+O 12; P12 and Trio tie on 120 for the 12th place: both O, and
    # Trio, (O) by the share, is compared with the last (S), P06, average 180 / 4 = 45: 40 < 45, no move.
    assert (trio.end, trio.reason) == (O, Reason.SHARE)
    records["Trio"] = record("Trio", [50, 50, 50])  # total 150, 9th; average 50 ≥ 45: O -> S
    classes = next_classes(tableau1(records), records, starts)
    assert (classes["Trio"].end, classes["Trio"].reason, classes["Trio"].reference_player) == (
        S, Reason.THREE_UP, "P06")
    assert classes["Trio"].reference == 45.0


def test_occasional_players():
    records = _season_for_classes()
    # Last active (X): P02 average 220/4 = 55; last (S): P06, 45; last (O): P12, 30; first active (F): P13,
    # 27.5; first active (O): P07, 42.5; first (S): P03, 52.5; first (I): P19, 50 / 4 = 12.5 (… P23 2.5).
    extra = {
        "Fo": ([30, 30], F, O, Reason.OCCASIONAL_UP),  # 30 ≥ last O's 30: up
        "Fk": ([29, 29], F, F, Reason.OCCASIONAL_KEPT),
        "Fd": ([12.5], F, I, Reason.OCCASIONAL_DOWN),  # 12.5 ≤ first I's 12.5 ("égale ou inférieure"): down
        "Od": ([27.5], O, F, Reason.OCCASIONAL_DOWN),  # 27.5 ≤ first F's 27.5
        "Sf": ([1], S, S, Reason.OCCASIONAL_FLOOR),  # S and X keep at least their class
        "Su": ([55, 60], S, X, Reason.OCCASIONAL_UP),  # 57.5 ≥ last X's 55
        "Xk": ([1, 2], X, X, Reason.OCCASIONAL_FLOOR),
        "Ik": ([10], I, I, Reason.OCCASIONAL_KEPT),  # no class below I
    }
    for name, (points, _, _, _) in extra.items():
        records[name] = record(name, points)
    starts = dict.fromkeys(records, F) | {name: start for name, (_, start, _, _) in extra.items()}
    starts["Absent"] = O
    classes = next_classes(tableau1(records), records, starts)
    for name, (_, start, end, reason) in extra.items():
        assert (classes[name].start, classes[name].end, classes[name].reason) == (start, end, reason), name
    assert (classes["Absent"].end, classes["Absent"].reason) == (O, Reason.ABSENT)


# === Properties =======================================================================================


@settings(max_examples=60)
@given(st.integers(min_value=1, max_value=40), st.floats(min_value=1, max_value=500), st.data())
def test_rfj_halves_every_quarter_of_the_field(quarter, vft, data):
    n = 4 * quarter
    place = data.draw(st.integers(min_value=1, max_value=n - quarter))
    assert result_points(vft, place + quarter, n) == pytest.approx(result_points(vft, place, n) / 2)


@settings(max_examples=60)
@given(st.integers(min_value=2, max_value=80), st.floats(min_value=1, max_value=500))
def test_rfj_falls_by_less_and_less(n, vft):
    # "la différence de points entre le premier et le deuxième est supérieure à … entre le deuxième et le
    # troisième", and so on.
    points = [result_points(vft, p, n) for p in range(1, n + 1)]
    gaps = [a - b for a, b in zip(points, points[1:])]
    assert all(g > 0 for g in gaps)
    assert all(a > b for a, b in zip(gaps, gaps[1:]))


@settings(max_examples=100)
@given(st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=60), st.integers(4, 5), st.data())
def test_vft_never_falls_when_a_value_rises(values, rounds, data):
    i = data.draw(st.integers(min_value=0, max_value=len(values) - 1))
    risen = list(values)
    risen[i] = data.draw(st.integers(min_value=values[i], max_value=5))
    assert tournament_value(risen, rounds).vft >= tournament_value(values, rounds).vft


@st.composite
def seasons(draw):
    pool = [f"J{i}" for i in range(draw(st.integers(4, 14)))]
    classes = {p: draw(st.sampled_from(list(PlayerClass))) for p in pool}
    tournaments = []
    for t in range(draw(st.integers(1, 7))):
        players = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=len(pool), unique=True))
        places = sorted(draw(st.lists(st.integers(1, len(players)), min_size=len(players), max_size=len(players))))
        entries = [Entry(p, place=q) for p, q in zip(players, places)]
        referees = [p for p in pool if p not in players][:draw(st.integers(0, 1))]
        entries += [Entry(p, referee=True) for p in referees]
        date = dt.date(2025, 9, 1) + dt.timedelta(days=draw(st.integers(0, 5)))
        tournaments.append(Tournament(f"T{t}", date, draw(st.integers(4, 5)), False, tuple(entries)))
    return tournaments, classes


@settings(max_examples=40, deadline=None)
@given(seasons(), st.floats(10, 90), st.floats(10, 90))
def test_tableau1_totals_never_exceed_the_sum_of_all_results(season, seuil_s, seuil_o):
    tournaments, classes = season
    report = run_season(tournaments, classes, Thresholds(seuil_s, seuil_o))
    everything = sum(r.points for results in report.results.values() for r in results)
    assert sum(r.record.total for r in report.tableau1) <= everything + 1e-9
    for ranked in report.tableau1:
        assert ranked.record.total <= sum(r.points for r in ranked.record.results) + 1e-9
        assert ranked.record.tournaments >= 3
    assert [r.place for r in report.tableau1] == sorted(r.place for r in report.tableau1)
    # Every player gets a class for next season; ties share: a tied group sums to its places' RFJ.
    assert set(report.classes) >= set(report.records)
    for t in tournaments:
        v = report.values[t.name]
        playing = [r for r in report.results[t.name] if not r.referee]
        expected = sum(result_points(v.vft, p, v.njt) for p in range(1, v.njt + 1))
        assert sum(r.points for r in playing) == pytest.approx(expected)


# === Checks of the typed lines: located violations (CLASSEMENT, PRIME D'ARBITRAGE) =================

from pathlib import Path  # noqa: E402

from xlcircuit.rules import dbm  # noqa: E402
from xlcircuit.rules.errors import Violation  # noqa: E402
from xlcircuit.rules.text import in_words  # noqa: E402


def test_each_line_of_a_poule_is_checked_in_the_order_typed():
    checks = dbm.EntryChecks(lambda i: f"ligne {i + 2}")
    lines = [
        ("T", False, Entry("A", place=1)),
        ("T", False, Entry("B")),  # neither place nor referee
        ("T", False, Entry("C", "D", place=2)),  # a partner in singles
        ("D", True, Entry("E", "F", referee=True)),  # a referee who did not play has no partner
        ("D", True, Entry("G", "G", place=1)),  # his own partner
        ("T", False, Entry("A", place=3)),  # A's second line in T
        ("D", True, Entry("H", "A", place=2)), ("D", True, Entry("A", "I", place=3)),  # A twice in doubles D
    ]
    found = [v for i, (name, doubles, entry) in enumerate(lines) for v in checks.check(i, name, doubles, entry)]
    assert [(v.index, v.field) for v in found] == [(1, "place"), (2, "partner"), (3, "partner"), (4, "partner"),
                                                   (5, "player"), (7, "player")]
    assert found[-2].message == "A a déjà une ligne dans « T » (ligne 2) : une ligne par joueur"
    assert found[-1].message == ("A a déjà une ligne dans « D » (ligne 8) : une ligne par joueur, une par équipe "
                                 "en double")


def test_a_referee_bonus_needs_a_poule_with_classified_players():
    # PRIME D'ARBITRAGE: half the VFT, and a poule without a classified player has no VFT.
    lines = [("P", Entry("A", place=1)), ("P", Entry("R", referee=True)), ("Vide", Entry("S", referee=True))]
    assert dbm.referee_violations(lines) == [
        Violation(2, "referee", "« Vide » n'a aucun joueur classé : sa valeur, donc la prime d'arbitrage, ne peut pas "
                                "être calculée")]
    # The core's entry point refuses it too (the referee used to get nothing, silently).
    with pytest.raises(InvalidInput, match="« Vide » n'a aucun joueur classé"):
        run_season([poule("P", D1, ["A", "B"]), Tournament("Vide", D1, 4, entries=(Entry("S", referee=True),))],
                   {}, SEUILS)


def test_a_referee_who_did_not_play_has_no_partner_in_the_core():
    referee = Entry("R", "Q", referee=True)
    with pytest.raises(InvalidInput, match="un arbitre qui n'a pas joué n'a pas d'équipier"):
        run_season([Tournament("D", D1, 4, True, (Entry("A", "B", place=1), referee))], {}, SEUILS)


def test_the_share_bands_are_the_cumulative_percentages():
    # RÉPARTITION PAR CLASSES: X the first 10 %, S the next 15 % (to 25 %), O the next 25 % (to 50 %).
    assert [dbm.share_of(c) for c in (X, S, O)] == [(0, 10), (10, 25), (25, 50)]


RULES_NUMBERS = Path(__file__).resolve().parents[1] / "docs" / "dbm.md"


def test_the_dbm_guide_states_the_cores_numbers():
    # docs/dbm.md keeps its prose; the rule numbers it states must be the core's.
    text = RULES_NUMBERS.read_text(encoding="utf-8")
    assert f"`Rondes` ({dbm.USUAL_ROUNDS[0]}, parfois {dbm.USUAL_ROUNDS[1]})" in text
    bands = [dbm.share_of(c) for c in dbm.SHARE_CLASSES]
    shares = ", ".join(f"{high - low} % {'suivants' if low else 'premiers'}" for low, high in bands)
    assert f"`Motif` ({shares}, moyenne inférieure à {dbm.I_LIMIT:g}," in text
    assert f"moitié de la VFT, {dbm.REFEREE_CAP:g} au plus" in text
    assert f"`Résultat 1` à `Résultat {dbm.BEST}`" in text and f"jusqu'à {dbm.BEST})" in text
    assert f"nouveau joueur classé {dbm.NEWCOMER.letter}" in text
    assert f"`Joueur 1` à `Joueur {dbm.TEAM_SIZE}`" in text
    active = in_words(dbm.ACTIVE)
    assert f"({active} tournois ou plus" in text and f"({active} tournois seulement)" in text
    assert f"la somme des {in_words(dbm.BEST)} meilleurs résultats" in text
