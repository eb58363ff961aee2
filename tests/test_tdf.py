"""Tour de France de Diplomatie: points of one tournament (tdf.md §1) and the season (§2).

Source: the federation's French text, « règlement du Tour de France de Diplomatie » (2022-2023),
summarised in ``docs/regles/tdf.md``.
Expected values are computed by hand in the tests (arithmetic literals with a comment),
never by calling xlcircuit.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlcircuit.rules.errors import InvalidInput
from xlcircuit.rules.mechanics import format_half_up
from xlcircuit.rules.tdf import (
    Kind,
    Line,
    Outing,
    Role,
    Status,
    Tournament,
    line_violations,
    misplaced_cancellations,
    place_points,
    run_season,
    score_tournament,
    season,
    standings,
    tied_points,
    tournament_points,
    tournament_violations,
)


def shown(values):
    """Points as the source prints them: rounded half up to the unit."""
    return [format_half_up(v) for v in values]


# === §1 Worked examples ===========================================================================
# tdf.md §1 "Worked examples from the source"; tdf-reglement.txt "Exemple 1" and "Exemple 2".

EXAMPLE_1 = [  # tdf-reglement.txt "Exemple 1": 21 players, no tie
    ("Jacques", 1021), ("Malcolm", 891), ("Matthieu", 794), ("Patrick", 708), ("Daniel", 631),
    ("Eulalie", 562), ("Geoffroy", 501), ("Axel", 447), ("François", 398), ("Jonathan", 355),
    ("Joseph", 316), ("Pierre", 282), ("Conan", 251), ("Valentin", 224), ("Robert", 200),
    ("Johnny", 178), ("Laurence", 158), ("Sylvestre", 141), ("Oscar", 126), ("Bernard", 112),
    ("Nicolas", 100),
]  # fmt: skip


def example_1_lines():
    lines = []
    for place, (name, _) in enumerate(EXAMPLE_1, start=1):
        # "Daniel 5e et co-organisateur joueur": a playing organiser
        role = Role.ORGANISER if name == "Daniel" else None
        lines.append(Line(name, place=place, role=role))
    # "Guéric, co-organisateur mais n'ayant pas joué": not classified, 100 points
    lines.append(Line("Guéric", role=Role.ORGANISER))
    return lines


def test_example_1_lines_to_the_unit():
    scored = score_tournament(example_1_lines())
    assert [(s.line.player, format_half_up(s.points)) for s in scored] == [
        (name, str(points)) for name, points in EXAMPLE_1
    ] + [("Guéric", "100")]


def test_example_1_statuses_and_x():
    scored = score_tournament(example_1_lines())
    assert [s.status for s in scored] == [Status.CLASSIFIED] * 21 + [Status.ROLE]
    # Guéric does not change x: the winner has 1000 + 21 and the last exactly 100
    assert scored[0].points == 1021.0
    assert scored[20].points == 100.0
    assert scored[21].points == 100.0
    assert scored[21].place is None
    daniel = scored[4]
    assert (daniel.line.player, daniel.place, daniel.classified) == ("Daniel", 5, True)


def test_example_1_with_tournament_points():
    points = tournament_points(list(range(1, 22)) + [Role.ORGANISER])
    assert shown(points) == [str(p) for _, p in EXAMPLE_1] + ["100"]


def test_example_1_details():
    # "x=21 et r=1,122… soit 1000/r=891,251… , 1000/r²=794,328…"
    assert format_half_up(place_points(2, 21), 3) == "891.251"
    assert format_half_up(place_points(3, 21), 3) == "794.328"
    assert place_points(2, 21) / place_points(3, 21) == pytest.approx(1.122, abs=5e-4)  # r


EXAMPLE_2_PLACES = [  # tdf-reglement.txt "Exemple 2": 12 players, two tied 1st, four tied 9th
    ("David", 1), ("Rémi", 1), ("Maurice", 3), ("René", 4), ("Philippe", 5), ("Louis", 6),
    ("Clovis", 7), ("Pollux", 8), ("Claudine", 9), ("Georges", 9), ("Léo", 9),
    ("Charles-Henri", 9),
]  # fmt: skip
EXAMPLE_2_SHOWN = ["912", "912", "658", "534", "433", "351", "285", "231"] + ["141"] * 4


def test_example_2_lines_to_the_unit():
    lines = [
        # "l'organisateur a terminé 8e": Pollux plays, so no extra 100
        Line(name, place=place, role=Role.ORGANISER if name == "Pollux" else None)
        for name, place in EXAMPLE_2_PLACES
    ]
    scored = score_tournament(lines)
    assert shown(s.points for s in scored) == EXAMPLE_2_SHOWN
    assert [s.place for s in scored] == [1, 1, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]
    assert [s.tied for s in scored] == [2, 2, 1, 1, 1, 1, 1, 1, 4, 4, 4, 4]


def test_example_2_with_tournament_points():
    points = tournament_points([place for _, place in EXAMPLE_2_PLACES])
    assert shown(points) == EXAMPLE_2_SHOWN


def test_example_2_details():
    # "x=12 et r=1,233… soit 1000/r=811,131… , 1000/r²=657,933…"
    assert format_half_up(place_points(2, 12), 3) == "811.131"
    assert format_half_up(place_points(3, 12), 3) == "657.933"
    assert place_points(2, 12) / place_points(3, 12) == pytest.approx(1.233, abs=5e-4)  # r


@pytest.mark.parametrize(
    "place, typed",
    [(1, "1012"), (2, "811"), (9, "187"), (10, "152"), (11, "123"), (12, "100")],
)
def test_example_2_per_place_values_typed_in_the_source(place, typed):
    # "David et Rémi 912 =(1012+811)/2", "… 141 =(187+152+123+100)/4"
    assert format_half_up(place_points(place, 12)) == typed


def test_example_2_shared_values():
    points = tournament_points([1, 1, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9])
    first, ninth = points[0], points[8]
    assert first == pytest.approx((1012 + 811.131) / 2, abs=1e-3)
    # The source's own formulas with the typed (rounded) values give the same display,
    # half up: (1012 + 811) / 2 = 911.5 -> 912 ; (187 + 152 + 123 + 100) / 4 = 140.5 -> 141.
    assert format_half_up((1012 + 811) / 2) == format_half_up(first) == "912"
    assert format_half_up((187 + 152 + 123 + 100) / 4) == format_half_up(ninth) == "141"


# === §1 Every case ================================================================================


@pytest.mark.parametrize(
    "place, x, expected",
    [
        (1, 21, 1021.0),  # 1000 + x
        (1, 2, 1002.0),
        (2, 2, 100.0),  # the last place
        (2, 3, 1000 / 10**0.5),  # r = 10 ** (1/2)
        (3, 3, 100.0),
        (2, 11, 1000 / 10**0.1),  # r = 10 ** (1/10)
        (6, 11, 1000 / 10**0.5),
        (4, 5, 1000 * 10 ** (-3 / 4)),
    ],
)
def test_formula(place, x, expected):
    """§1: place 1 gets 1000 + x, place p >= 2 gets 1000 / r ** (p - 1) with r = 10 ** (1 / (x - 1))."""
    assert place_points(place, x) == pytest.approx(expected, rel=1e-12)


def test_last_place_is_exactly_100():
    """§1: the last place gets exactly 100 (closed form, no drift), for x from 2 to 200."""
    assert [x for x in range(2, 201) if place_points(x, x) != 100.0] == []
    assert [x for x in range(2, 201) if place_points(x, x, interrupted=True) != 100.0] == []
    assert [x for x in range(2, 201) if tournament_points(list(range(1, x + 1)))[-1] != 100.0] == []


@pytest.mark.parametrize(
    "places, expected",
    [
        # x = 3: 1003, 1000 / 10 ** 0.5 = 316.227..., 100
        ([1, 1, 3], [(1003 + 1000 / 10**0.5) / 2] * 2 + [100.0]),
        ([1, 2, 2], [1003.0] + [(1000 / 10**0.5 + 100) / 2] * 2),
        ([1, 1, 1], [(1003 + 1000 / 10**0.5 + 100) / 3] * 3),
        # x = 5, three tied second share places 2, 3, 4 (the source's own example)
        (
            [1, 2, 2, 2, 5],
            [1005.0] + [1000 * (10**-0.25 + 10**-0.5 + 10**-0.75) / 3] * 3 + [100.0],
        ),
        ([2, 2, 1], [(1000 / 10**0.5 + 100) / 2] * 2 + [1003.0]),  # any line order
    ],
)
def test_ties_share_the_mean_of_their_places(places, expected):
    """§1 Ties: k players tied at p get the mean of places p .. p+k-1 (winner bonus included)."""
    assert tournament_points(places) == pytest.approx(expected, rel=1e-12)


def test_tied_points():
    # 3 tied at 2 among 5: mean of 1000 * 10 ** (-1/4), ** (-2/4), ** (-3/4)
    assert tied_points(2, 5, 3) == pytest.approx(
        1000 * (10**-0.25 + 10**-0.5 + 10**-0.75) / 3, rel=1e-12
    )
    assert tied_points(1, 3, 1) == 1003.0


def test_vacancy_closes_up():
    """§1 Vacant place: official places 1, 2, 4 get the points of 1, 2, 3 among 3."""
    assert tournament_points([1, 2, 4]) == pytest.approx([1003.0, 1000 / 10**0.5, 100.0], rel=1e-12)
    scored = score_tournament([Line("A", 1), Line("B", 2), Line("C", 4)])
    assert [s.place for s in scored] == [1, 2, 3]
    assert scored[2].points == 100.0


def test_vacancy_then_tie():
    # official 1, 3, 3 (place 2 vacant): x = 3, the two tied share places 2 and 3
    assert tournament_points([1, 3, 3]) == pytest.approx(
        [1003.0] + [(1000 / 10**0.5 + 100) / 2] * 2, rel=1e-12
    )


def test_duplicate_keeps_the_best_line_and_others_move_up():
    """§1 Duplicate: a person's second line is dropped; the people behind it move up; x counts
    distinct people (here 3: A, B, C)."""
    lines = [Line("A", 1), Line("B", 2), Line("A", 3), Line("C", 4)]
    scored = score_tournament(lines)
    assert [s.status for s in scored] == [
        Status.CLASSIFIED, Status.CLASSIFIED, Status.DUPLICATE, Status.CLASSIFIED,
    ]  # fmt: skip
    assert [s.place for s in scored] == [1, 2, None, 3]
    # x = 3: 1003, 1000 / 10 ** 0.5, 0 for the duplicate, 100 for the last
    assert [s.points for s in scored] == pytest.approx([1003.0, 1000 / 10**0.5, 0.0, 100.0], rel=1e-12)


def test_duplicate_best_line_wins_whatever_the_line_order():
    scored = score_tournament([Line("A", 3), Line("B", 1), Line("A", 2)])
    assert [s.status for s in scored] == [Status.DUPLICATE, Status.CLASSIFIED, Status.CLASSIFIED]
    assert [s.points for s in scored] == [0.0, 1002.0, 100.0]  # x = 2


def test_duplicate_role_line_of_a_playing_organiser():
    """§1: a playing organiser gets only his place's points, even typed as two lines."""
    scored = score_tournament([Line("Daniel", role=Role.ORGANISER), Line("Daniel", 2), Line("Eve", 1)])
    assert [s.status for s in scored] == [Status.DUPLICATE, Status.CLASSIFIED, Status.CLASSIFIED]
    assert [s.points for s in scored] == [0.0, 100.0, 1002.0]  # x = 2


@pytest.mark.parametrize("role", [Role.ORGANISER, Role.HELPER])
def test_roles_get_100_and_do_not_count_in_x(role):
    """§1: non-playing organiser, helper: 100 each."""
    scored = score_tournament([Line("A", 1), Line("R", role=role), Line("B", 2)])
    assert [s.status for s in scored] == [Status.CLASSIFIED, Status.ROLE, Status.CLASSIFIED]
    assert [s.points for s in scored] == [1002.0, 100.0, 100.0]  # x = 2, not 3
    assert not scored[1].classified
    assert tournament_points([1, role, 2]) == [1002.0, 100.0, 100.0]


def test_cancelled_tournament_everyone_gets_100():
    lines = [Line(name, role=Role.CANCELLED) for name in ("A", "B", "C")]
    assert [s.points for s in score_tournament(lines)] == [100.0, 100.0, 100.0]
    assert misplaced_cancellations(lines) == []


def test_a_cancelled_tournament_has_no_places():
    # Source: « En cas d'annulation d'un tournoi au dernier moment (manque de joueurs par exemple), les joueurs
    # présents sur place marquent aussi 100 points de dédommagement »: a tournament that was played (places
    # 1, 2) was not cancelled; « annulé » there is refused, by the Excel function and the batch mode alike.
    lines = [Line("A", 1), Line("B", 2), Line("C", role=Role.CANCELLED)]
    assert misplaced_cancellations(lines) == [2]
    assert misplaced_cancellations([Line("A", 3, role=Role.CANCELLED)]) == [0]  # a place on the line itself
    with pytest.raises(InvalidInput, match="un tournoi annulé n'a pas de classement"):
        score_tournament(lines)
    with pytest.raises(InvalidInput, match="un tournoi annulé n'a pas de classement"):
        tournament_points([1, 2, Role.CANCELLED])
    # Formerly 1002 / 100 / 100: now a message in the cell.
    from xlcircuit.udfs import TDF_TOURNAMENT

    out = TDF_TOURNAMENT([[1.0], [2.0], ["annulé"]])
    assert isinstance(out, str) and out.startswith("#un tournoi annulé n'a pas de classement")
    # Other roles beside places stay valid.
    assert misplaced_cancellations([Line("A", 1), Line("O", role=Role.ORGANISER)]) == []


def test_playing_organiser_gets_only_his_place():
    scored = score_tournament([Line("A", 1), Line("Org", 2, role=Role.ORGANISER), Line("B", 3)])
    assert scored[1].status is Status.CLASSIFIED
    assert scored[1].points == pytest.approx(1000 / 10**0.5, rel=1e-12)  # x = 3, no extra 100


def test_not_classified_column_gives_none():
    assert tournament_points([1, None, 2]) == [1002.0, None, 100.0]


def test_interrupted_no_winner_bonus():
    """§1 Interrupted: place 1 gets 1000, the others are unchanged."""
    assert tournament_points([1, 2, 3], interrupted=True) == pytest.approx(
        [1000.0, 1000 / 10**0.5, 100.0], rel=1e-12
    )
    assert place_points(1, 21, interrupted=True) == 1000.0
    assert place_points(2, 21, interrupted=True) == place_points(2, 21)


def test_interrupted_tie_at_first_shares_1000_with_place_2():
    assert tournament_points([1, 1, 3], interrupted=True) == pytest.approx(
        [(1000 + 1000 / 10**0.5) / 2] * 2 + [100.0], rel=1e-12
    )


@pytest.mark.parametrize("interrupted, expected", [(False, 1001.0), (True, 1000.0)])
def test_single_classified_player(interrupted, expected):
    """§1 x = 1 (decision): 1000 + 1, or 1000 when interrupted."""
    assert place_points(1, 1, interrupted) == expected
    assert tournament_points([1, Role.ORGANISER], interrupted) == [expected, 100.0]


def test_imposed_points_replace_the_value():
    """§1 Special decisions: imposed points replace the computed value and are shown as imposed
    (e.g. the 2022 Swiss champion, "1015")."""
    scored = score_tournament([Line("A", 1), Line("B", 2, imposed_points=1015), Line("C", 3)])
    assert [s.points for s in scored] == pytest.approx([1003.0, 1015.0, 100.0], rel=1e-12)
    assert [s.imposed for s in scored] == [False, True, False]
    assert scored[1].status is Status.CLASSIFIED and scored[1].place == 2


def test_imposed_points_zero_is_still_imposed():
    scored = score_tournament([Line("A", 1, imposed_points=0), Line("B", 2)])
    assert (scored[0].points, scored[0].imposed) == (0.0, True)


def test_imposed_place_gives_the_points_of_that_place():
    """§1 Special decisions, 2020 case: the champions of Switzerland and Europe both get the
    winner's points; the others keep the points of their place."""
    lines = [Line("Suisse", 1), Line("B", 2), Line("Europe", 3, imposed_place=1)]
    lines += [Line(name, place) for name, place in [("D", 4), ("E", 5), ("F", 6), ("G", 7)]]
    scored = score_tournament(lines)
    assert scored[0].points == 1007.0  # 1000 + 7
    assert (scored[2].points, scored[2].imposed) == (1007.0, True)
    assert scored[1].points == pytest.approx(1000 * 10 ** (-1 / 6), rel=1e-12)
    assert scored[6].points == 100.0


def test_imposed_place_of_an_interrupted_tournament():
    scored = score_tournament([Line("A", 1), Line("B", 2, imposed_place=1)], interrupted=True)
    assert [s.points for s in scored] == [1000.0, 1000.0]


# §1 « Rencontres donnant lieu à plusieurs classements » (the 2018/2020/2022 special decisions): a line may get
# « the points of place N » of its tournament, so N is a place of that classification: 1 <= N <= x, x the
# number of classified people (a duplicate's second line and a 100-point role are not classified).
IMPOSED_PLACES = [
    # lines, violations (index, field, message): x counted by hand
    ([Line("A", 1), Line("B", 2), Line("C", 3, imposed_place=3)], []),  # x = 3: the last place is allowed
    ([Line("A", 1), Line("B", 2, imposed_place=1)], []),  # the 2020 case: the winner's points
    ([Line("A", 1), Line("B", 2, imposed_place=3)],  # x = 2
     [(1, "imposed_place", "place 3 demandée, mais « Open » n'a que 2 classés")]),
    ([Line("A", 1), Line("B", 2), Line("A", 3), Line("C", 4, imposed_place=4)],  # A twice: x = 3
     [(3, "imposed_place", "place 4 demandée, mais « Open » n'a que 3 classés")]),
    ([Line("A", 1), Line("O", role=Role.ORGANISER, imposed_place=2)],  # a role is not classified: x = 1
     [(1, "imposed_place", "place 2 demandée, mais « Open » n'a que 1 classé")]),
    ([Line("O", role=Role.ORGANISER, imposed_place=1)],  # nobody classified: no place 1
     [(0, "imposed_place", "place 1 demandée, mais « Open » n'a aucun classé")]),
    ([Line("A", 1), Line("B", 2, imposed_place=0)],
     [(1, "imposed_place", "place 0 demandée, mais « Open » n'a que 2 classés")]),
]


@pytest.mark.parametrize("lines, expected", IMPOSED_PLACES)
def test_an_imposed_place_is_a_place_of_the_classification(lines, expected):
    found = tournament_violations(lines, "Open")
    assert [(v.index, v.field, v.message) for v in found] == expected
    if expected:  # the plain-data entry point refuses it too, naming no tournament
        with pytest.raises(InvalidInput, match=f"^place {lines[expected[0][0]].imposed_place} demandée, mais le "
                                               "tournoi n'a"):
            score_tournament(lines)
    else:
        score_tournament(lines)


@pytest.mark.parametrize("line, expected", [
    (Line("A", 1), []),
    (Line("A", role=Role.HELPER), []),
    (Line("A", 1, imposed_points=0), []),
    (Line("A"), [("place", "place manquante : un joueur classé a une place ; sinon indiquez son rôle "
                           "(organisateur, aide, annulé)")]),
    (Line("A", 0), [("place", "place attendue ≥ 1 ; trouvé 0")]),
    (Line("A", 2, role=Role.CANCELLED), [("role", "un tournoi annulé n'a pas de classement : retirez la place ou "
                                                  "le rôle « annulé »")]),
    (Line("A", 1, imposed_points=-5), [("imposed_points", "nombre de points entre 0 et 100000 attendu ; "
                                                          "trouvé -5")]),
    (Line("A", 1, imposed_points=2.5e5), [("imposed_points", "nombre de points entre 0 et 100000 attendu ; "
                                                             "trouvé 250000")]),
])
def test_what_one_line_breaks_on_its_own(line, expected):
    """§1: a line is a place (≥ 1) or a 100-point role; « annulé » has no place; imposed points are bounded."""
    assert [(v.field, v.message) for v in line_violations(line, 7)] == expected
    assert all(v.index == 7 for v in line_violations(line, 7))


@pytest.mark.parametrize(
    "call",
    [
        lambda: place_points(0, 5),  # place 0
        lambda: place_points(6, 5),  # place > x
        lambda: place_points(2, 1),
        lambda: place_points(1, 0),  # nobody classified
        lambda: tied_points(11, 12, 3),  # 11, 12, 13: past x = 12
        lambda: tied_points(1, 3, 0),
        lambda: score_tournament([Line("A", 0)]),  # place 0
        lambda: score_tournament([Line("A", -1)]),
        lambda: score_tournament([Line("A", 1), Line("B")]),  # neither place nor role
        lambda: score_tournament([Line("A", 1), Line("B", 2, imposed_place=3)]),  # "place 3" of 2
        lambda: tournament_points([1, 0]),
    ],
)
def test_bad_input_raises_invalid_input(call):
    with pytest.raises(InvalidInput):
        call()


# === Kind and Role as typed in a workbook =========================================================


@pytest.mark.parametrize(
    "text, expected",
    [
        ("normal", Kind.NORMAL),
        ("", Kind.NORMAL),
        ("   ", Kind.NORMAL),
        (None, Kind.NORMAL),
        ("Majeur", Kind.MAJOR),
        ("  MAJEUR ", Kind.MAJOR),
        ("en ligne", Kind.ONLINE),
        ("En Ligne", Kind.ONLINE),
        ("en\u00a0 ligne", Kind.ONLINE),  # non-breaking and doubled spaces
        ("majeur en ligne", Kind.MAJOR_ONLINE),
        ("Majeur  En LIGNE", Kind.MAJOR_ONLINE),
    ],
)
def test_kind_parse(text, expected):
    assert Kind.parse(text) is expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("organisateur", Role.ORGANISER),
        (" Organisateur ", Role.ORGANISER),
        ("ORGANISATEUR", Role.ORGANISER),
        ("aide", Role.HELPER),
        ("Aide", Role.HELPER),
        ("annulé", Role.CANCELLED),
        ("annule", Role.CANCELLED),  # accent optional
        ("ANNULÉ", Role.CANCELLED),
        ("Annule\u00a0", Role.CANCELLED),
        ("", None),
        ("  ", None),
        (None, None),
        ("joueur", None),
        (" Joueur ", None),
        ("Joueuse", None),
        ("co-organisateur", Role.ORGANISER),  # the source's own word in example 1
        ("Co-organisatrice", Role.ORGANISER),
        ("organisatrice", Role.ORGANISER),
    ],
)
def test_role_parse(text, expected):
    assert Role.parse(text) is expected


@pytest.mark.parametrize("text", ["major", "online", "majeure", "1", "joueur"])
def test_kind_parse_unknown(text):
    with pytest.raises(InvalidInput):
        Kind.parse(text)


@pytest.mark.parametrize("text", ["orga", "organiser", "helper", "normal", "x"])
def test_role_parse_unknown(text):
    with pytest.raises(InvalidInput):
        Role.parse(text)


# === §2 Season total ==============================================================================


def outings(majors=(), others=(), online=()):
    return (
        [Outing(p, Kind.MAJOR) for p in majors]
        + [Outing(p, Kind.NORMAL) for p in others]
        + [Outing(p, Kind.ONLINE) for p in online]
    )


@pytest.mark.parametrize(
    "majors, others, online, expected",
    [
        # tdf.md §2 "Season vectors (hand-checked)"
        ((), (700, 500, 300, 200, 100, 50), (), 1275),  # 700 + 400 + 120 + 40 + 10 + 5
        ((900,), (700, 500, 300), (800,), 2320),  # 900 + max(1380, 700 + 400 + 320, 1340)
        ((), (150,), (900,), 870),  # 150 + 0.8 * 900
        ((), (150, 120), (900,), 870),  # max(150 + 96 + 360, 150 + 720, 720)
        ((1000,), (600, 400), (900, 500), 2520),  # 1000 + max(1380, 600 + 720 + 200, 920)
    ],
)
def test_season_vectors(majors, others, online, expected):
    assert season(outings(majors, others, online)).total == pytest.approx(expected, rel=1e-12)


def test_season_vector_2_sets_the_300_aside():
    # majors [900], others [700, 500, 300], online [800]: keeping the best two others is best
    result = season(outings((900,), (700, 500, 300), (800,)))
    assert result.weights == pytest.approx((1.0, 1.0, 0.8, 0.0, 0.4))
    assert result.set_aside == (False, False, False, True, False)


def test_season_order_of_outings_does_not_matter():
    result = season([Outing(300), Outing(800, Kind.ONLINE), Outing(500), Outing(900, Kind.MAJOR), Outing(700)])
    assert result.total == pytest.approx(2320, rel=1e-12)
    assert result.weights == pytest.approx((0.0, 0.4, 0.8, 1.0, 1.0))
    assert result.set_aside == (True, False, False, False, False)


@pytest.mark.parametrize(
    "m, online_weight, expected",
    [
        # others all 1000, one online at 100: the discount never costs more than a kept 1000
        (0, 0.8, 80),  # 0.8 * 100
        (1, 0.8, 1080),  # 1000 + 80
        (2, 0.4, 1840),  # 1000 + 800 + 40
        (3, 0.2, 2220),  # 1000 + 800 + 400 + 20
        (4, 0.1, 2410),  # 1000 + 800 + 400 + 200 + 10
        (5, 0.1, 2510),  # 1000 + 800 + 400 + 200 + 100 + 10
    ],
)
def test_online_weight_by_number_of_other_non_majors(m, online_weight, expected):
    """§2 source: "0 ou 1 tournoi hors majeurs → 80 % ; 2 → 40 % ; 3 → 20 % ; au moins 4 → 10 %"."""
    result = season(outings(majors=(1000,), others=[1000] * m, online=(100,)))
    assert result.weights[-1] == pytest.approx(online_weight)
    assert result.weights[0] == 1.0  # the major does not count among the m
    assert not any(result.set_aside)
    assert result.total == pytest.approx(1000 + expected, rel=1e-12)


@pytest.mark.parametrize(
    "m, online, expected_weights, expected",
    [
        # "si 80 % pour le premier tournoi, … 40 et 20 %"
        (1, (300, 200, 100), (0.8, 0.4, 0.2), 1340),  # 1000 + 240 + 80 + 20
        # "si 40 % pour le premier tournoi, 20 et 10 %"
        (2, (300, 200, 100), (0.4, 0.2, 0.1), 1970),  # 1000 + 800 + 120 + 40 + 10
        # "si 20 ou 10 % pour le premier tournoi, 10 % pour les suivants"
        (3, (300, 200), (0.2, 0.1), 2280),  # 1000 + 800 + 400 + 60 + 20
        (4, (300, 200), (0.1, 0.1), 2450),  # 1000 + 800 + 400 + 200 + 30 + 20
        (0, (300, 200), (0.8, 0.4), 320),  # 240 + 80
    ],
)
def test_several_online_tournaments(m, online, expected_weights, expected):
    result = season(outings(others=[1000] * m, online=online))
    assert result.weights[m:] == pytest.approx(expected_weights)
    assert not any(result.set_aside)
    assert result.total == pytest.approx(expected, rel=1e-12)


def test_online_is_placed_last_whatever_its_points():
    # others [100], online [900]: the online one is still after the 100, at 80 %
    result = season(outings(others=(100,), online=(900,)))
    assert result.weights == pytest.approx((1.0, 0.8))
    assert result.total == pytest.approx(820, rel=1e-12)  # 100 + 720


def test_major_online_counts_like_a_major():
    """§2 Online replacing a major (2021): 100 %, and it takes no place in the others' weights."""
    result = season([Outing(900, Kind.MAJOR_ONLINE), Outing(700), Outing(500)])
    assert result.weights == pytest.approx((1.0, 1.0, 0.8))
    assert result.total == pytest.approx(2000, rel=1e-12)  # 900 + 700 + 400


def test_majors_count_at_100_percent_however_many():
    result = season(outings(majors=(900, 800, 700, 600, 500)))
    assert result.weights == (1.0,) * 5
    assert result.total == 3500  # 900 + 800 + 700 + 600 + 500


def test_role_outing_counts_but_is_not_classified():
    """§2: 100-point roles count in the total but not toward the two tournaments."""
    result = season([Outing(700), Outing(100, classified=False)])
    assert result.total == pytest.approx(780, rel=1e-12)  # 700 + 0.8 * 100
    assert result.classified == 1
    assert not result.ranked


@pytest.mark.parametrize(
    "season_outings, classified, ranked",
    [
        ([], 0, False),
        ([Outing(1000)], 1, False),
        ([Outing(1000, Kind.MAJOR), Outing(100, Kind.ONLINE)], 2, True),
        ([Outing(100, classified=False), Outing(100, classified=False)], 0, False),
        ([Outing(500), Outing(100, classified=False), Outing(300, Kind.ONLINE)], 2, True),
    ],
)
def test_ranked_needs_two_classified_tournaments(season_outings, classified, ranked):
    result = season(season_outings)
    assert result.classified == classified
    assert result.ranked is ranked


def test_set_aside_tournament_still_counts_toward_the_two():
    # others [150, 120], online [900]: the 120 is set aside but still makes 3 classified
    result = season(outings(others=(150, 120), online=(900,)))
    assert result.set_aside == (False, True, False)
    assert result.classified == 3
    assert result.ranked


def test_no_loss_tie_keeps_more_tournaments():
    # others [500, 100], online [200]: both kept 500 + 80 + 80 = 660 ; best one 500 + 160 = 660
    result = season(outings(others=(500, 100), online=(200,)))
    assert result.total == 660
    assert result.weights == pytest.approx((1.0, 0.8, 0.4))
    assert result.set_aside == (False, False, False)


def test_empty_season():
    assert season([]).total == 0


# --- standings and run_season -------------------------------------------------------------------


def test_standings_competition_ranks_then_unranked():
    table = standings(
        {
            "Denis": [Outing(800), Outing(100)],  # 800 + 80 = 880
            "Bob": [Outing(600), Outing(375)],  # 600 + 300 = 900
            "Emma": [Outing(2000, Kind.MAJOR)],  # one tournament: unranked
            "Alice": [Outing(500), Outing(500)],  # 500 + 400 = 900
            "Chloé": [Outing(1000), Outing(0)],  # 1000
            "Fred": [Outing(1000), Outing(100, classified=False)],  # one classified: unranked
        }
    )
    assert [(s.player, s.rank) for s in table] == [
        ("Chloé", 1),
        ("Alice", 2),
        ("Bob", 2),
        ("Denis", 4),
        ("Emma", None),
        ("Fred", None),
    ]
    assert [s.season.total for s in table[:4]] == pytest.approx([1000, 900, 900, 880], rel=1e-12)


def test_standings_float_noise_shares_a_rank():
    table = standings(
        {
            "A": [Outing(0.1, Kind.MAJOR), Outing(0.2, Kind.MAJOR)],  # 0.30000000000000004
            "B": [Outing(0.3, Kind.MAJOR), Outing(0.0, Kind.MAJOR)],  # 0.3
        }
    )
    assert [s.rank for s in table] == [1, 1]


def test_standings_equal_rank_listed_by_name():
    table = standings(
        {
            "Zoé": [Outing(0.1, Kind.MAJOR), Outing(0.2, Kind.MAJOR)],  # 0.30000000000000004
            "Anna": [Outing(0.3, Kind.MAJOR), Outing(0.0, Kind.MAJOR)],  # 0.3
        }
    )
    assert [(s.player, s.rank) for s in table] == [("Anna", 1), ("Zoé", 1)]


def test_run_season_weights():
    paris = Tournament(
        "Paris", Kind.NORMAL, lines=(Line("Alice", 1), Line("Bob", 2), Line("Chloé", 3))
    )  # x = 3: 1003, 316.23, 100
    lyon = Tournament(
        "Lyon",
        Kind.NORMAL,
        lines=(Line("Chloé", 1), Line("Alice", 2), Line("Bob", 3), Line("Dan", 4)),
    )  # x = 4: 1004, 464.16, 215.44, 100
    web = Tournament(
        "Web", Kind.ONLINE, lines=(Line("Bob", 1), Line("Alice", 2), Line("Guéric", role=Role.ORGANISER))
    )  # x = 2: 1002, 100; Guéric 100 as organiser
    report = run_season([paris, lyon, web])
    assert report.weights == {
        # Alice: others 1003, 464.16 at 100 % and 80 %, online 100 at 40 %
        ("Alice", "Paris"): (1.0, False),
        ("Alice", "Lyon"): (0.8, False),
        ("Alice", "Web"): (0.4, False),
        # Bob: others 316.23, 215.44, online 1002:
        #   both kept: 316.23 + 172.35 + 400.8 = 889.4 ; best one: 316.23 + 801.6 = 1117.8
        #   -> Lyon treated as not played, Web at 80 %
        ("Bob", "Paris"): (1.0, False),
        ("Bob", "Lyon"): (0.0, True),
        ("Bob", "Web"): (0.8, False),
        # Chloé: Lyon 1004 first, Paris 100 second
        ("Chloé", "Paris"): (0.8, False),
        ("Chloé", "Lyon"): (1.0, False),
        ("Dan", "Lyon"): (1.0, False),
        ("Guéric", "Web"): (0.8, False),  # online, no other non-major: 80 %
    }
    assert [(s.player, s.rank) for s in report.standings] == [
        ("Alice", 1),  # 1003 + 0.8 * 1000 * 10 ** (-1/3) + 40 = 1414.3
        ("Bob", 2),  # 1117.8
        ("Chloé", 3),  # 1004 + 80
        ("Dan", None),
        ("Guéric", None),
    ]
    assert report.standings[1].season.total == pytest.approx(1000 / 10**0.5 + 0.8 * 1002, rel=1e-12)
    assert [s.points for s in report.scored["Web"]] == [1002.0, 100.0, 100.0]


def test_run_season_drops_duplicates_and_keeps_roles():
    t1 = Tournament("T1", lines=(Line("A", 1), Line("B", 2), Line("A", 3), Line("O", role=Role.HELPER)))
    t2 = Tournament("T2", Kind.MAJOR, lines=(Line("B", 1), Line("A", 2)))
    report = run_season([t1, t2])
    assert report.weights == {
        ("A", "T1"): (1.0, False),  # one outing for A in T1, not two
        ("A", "T2"): (1.0, False),
        ("B", "T1"): (1.0, False),
        ("B", "T2"): (1.0, False),
        ("O", "T1"): (1.0, False),
    }
    a = next(s for s in report.standings if s.player == "A")
    assert a.season.total == pytest.approx(1002 + 100, rel=1e-12)  # T1 x = 2 ; T2 place 2 of 2
    o = next(s for s in report.standings if s.player == "O")
    assert (o.rank, o.season.classified, o.season.total) == (None, 0, 100.0)


# === Properties (required by the project) =========================================================


@given(st.integers(min_value=1, max_value=300), st.booleans())
def test_points_never_increase_as_the_place_worsens(x, interrupted):
    points = [place_points(p, x, interrupted) for p in range(1, x + 1)]
    assert all(a >= b for a, b in zip(points, points[1:]))


@given(st.integers(min_value=2, max_value=300), st.booleans())
def test_no_tie_no_role_goes_from_1000_plus_x_to_exactly_100(x, order_reversed):
    places = list(range(1, x + 1))
    if order_reversed:
        places.reverse()
    points = dict(zip(places, tournament_points(places)))
    assert points[1] == 1000.0 + x
    assert points[x] == 100.0
    assert all(points[p] > points[p + 1] for p in range(1, x))
    assert all(100.0 <= v <= 1000.0 + x for v in points.values())


points_st = st.one_of(
    st.integers(min_value=0, max_value=2000).map(float),
    st.floats(min_value=0, max_value=2000, allow_nan=False, allow_infinity=False),
)
outing_st = st.builds(Outing, points=points_st, kind=st.sampled_from(Kind), classified=st.booleans())


@given(st.lists(outing_st, max_size=10), outing_st, st.data())
def test_season_total_never_decreases_when_a_tournament_is_added(before, added, data):
    """§2 No-loss rule: "un joueur ne pourra donc pas perdre de points en participant à un
    tournoi supplémentaire". Tolerance 1e-7: float noise, and the core's absolute 1e-9 tie
    epsilon (with points near 1e-38 it keeps a 0-point tournament at a 1e-38 cost)."""
    at = data.draw(st.integers(min_value=0, max_value=len(before)))
    old = season(before).total
    new = season(before[:at] + [added] + before[at:]).total
    assert new >= old - 1e-7


@st.composite
def tied_classifications(draw):
    """Official places with ties (groups at 1 + the people before them), in any order."""
    sizes = draw(st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=25))
    official, place = [], 1
    for size in sizes:
        official += [place] * size
        place += size
    return draw(st.permutations(official))


@given(tied_classifications(), st.booleans())
def test_tie_sharing_preserves_the_total(official, interrupted):
    x = len(official)
    with_ties = tournament_points(official, interrupted)
    untied = [place_points(p, x, interrupted) for p in range(1, x + 1)]
    assert sum(with_ties) == pytest.approx(sum(untied), rel=1e-12)
