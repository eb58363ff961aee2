"""The bundled example season of the Tour de France (``xlcircuit.example_tdf``), checked by the core."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict

import pytest

from xlcircuit.federations.examples import load
from xlcircuit.rules.mechanics import format_half_up
from xlcircuit.rules.tdf import Kind, Line, Outing, Role, Status, Tournament, run_season, season
from xlcircuit.rules.text import fold

ex = load("tdf")

EXAMPLE_1 = "Tournoi de Paris"
EXAMPLE_2 = "Tournoi de Lyon"
VACANCY = "Tournoi de Bordeaux"
CANCELLED = "Tournoi de Lille"
DUPLICATE = "Tournoi de Toulouse"
IMPOSED = "Championnat de Suisse"
ONLINE = "Championnat du monde francophone (en ligne)"
INTERRUPTED = "Coupe de France web"
NO_LOSS_PLAYER = "Thomas Girard"
HELPER = "Sophie Caron"


def tournaments() -> list[Tournament]:
    """The example's two tables as core objects, the way the workbook reader will build them."""
    lines = defaultdict(list)
    for name, player, place, role, imposed in ex.RESULTATS:
        lines[name].append(Line(player, place=place, role=Role.parse(role), imposed_points=imposed))
    return [
        Tournament(
            name, Kind.parse(kind), interrupted=interrupted == "oui", lines=tuple(lines[name])
        )
        for name, _date, kind, interrupted in ex.TOURNOIS
    ]


@pytest.fixture(scope="module")
def report():
    return run_season(tournaments())


def rows(name: str) -> list[tuple]:
    return [row for row in ex.RESULTATS if row[0] == name]


def rounded(scored) -> list[str]:
    return [format_half_up(s.points) for s in scored]


def people() -> set[str]:
    return {row[1] for row in ex.RESULTATS}


# --- Shape of the tables ---------------------------------------------------------------------


def test_tables_have_the_workbook_headers_and_shapes():
    assert ex.TOURNOIS_HEADERS == ("Tournoi", "Date", "Type", "Interrompu")
    assert ex.RESULTATS_HEADERS == ("Tournoi", "Joueur", "Place", "Rôle", "Points imposés")
    assert all(len(row) == 4 for row in ex.TOURNOIS)
    assert all(len(row) == 5 for row in ex.RESULTATS)


def test_about_ten_tournaments_in_season_2025_2026():
    names = [row[0] for row in ex.TOURNOIS]
    assert 10 <= len(names) <= 12
    assert len(set(names)) == len(names)
    dates = [row[1] for row in ex.TOURNOIS]
    assert all(type(d) is datetime.date for d in dates)
    assert all(datetime.date(2025, 9, 1) <= d <= datetime.date(2026, 6, 30) for d in dates)
    assert dates == sorted(dates)
    assert {row[2] for row in ex.TOURNOIS} <= {"normal", "majeur", "en ligne", "majeur en ligne"}
    assert {row[3] for row in ex.TOURNOIS} <= {"oui", None}


def test_every_result_names_a_tournament_and_every_tournament_has_results():
    names = {row[0] for row in ex.TOURNOIS}
    assert {row[0] for row in ex.RESULTATS} == names


def test_values_are_what_an_organiser_types():
    for _name, player, place, role, imposed in ex.RESULTATS:
        assert player == player.strip() and player
        assert place is None or (type(place) is int and place >= 1)
        assert role in (None, "organisateur", "aide", "annulé")
        assert imposed is None or isinstance(imposed, (int, float))
        assert place is not None or role is not None  # a line without place needs a role


def test_about_eighty_distinct_people():
    everyone = people()
    assert 75 <= len(everyone) <= 90
    # All distinct, even ignoring case and accents.
    assert len({fold(p) for p in everyone}) == len(everyone)


def test_names_are_the_sources_first_names_or_first_and_last_names():
    source = {
        "Jacques", "Malcolm", "Matthieu", "Patrick", "Daniel", "Eulalie", "Geoffroy", "Axel",
        "François", "Jonathan", "Joseph", "Pierre", "Conan", "Valentin", "Robert", "Johnny",
        "Laurence", "Sylvestre", "Oscar", "Bernard", "Nicolas", "Guéric",
        "David", "Rémi", "Maurice", "René", "Philippe", "Louis", "Clovis", "Pollux",
        "Claudine", "Georges", "Léo", "Charles-Henri",
    }
    everyone = people()
    assert {p for p in everyone if " " not in p} == source
    # The others' first names are not the source's (no "Pierre Martin" next to "Pierre").
    assert not {p.split()[0] for p in everyone - source} & source
    # Some of the examples' people play other tournaments too.
    elsewhere = {row[1] for row in ex.RESULTATS if row[0] not in (EXAMPLE_1, EXAMPLE_2)}
    assert len(source & elsewhere) >= 5


def test_places_are_valid_classifications_with_one_vacancy():
    """Official places are competition places (1, 1, 3...), the only gap is Bordeaux's 7th."""
    gaps = {}
    for name, *_ in ex.TOURNOIS:
        places = Counter(row[2] for row in rows(name) if row[2] is not None)
        expected = 1
        for place in sorted(places):
            if place != expected:
                gaps[(name, expected)] = place - expected
            expected = place + places[place]
    assert gaps == {(VACANCY, 7): 1}


def test_most_people_play_several_tournaments_some_only_one(report):
    played = Counter(player for _name, player in {(row[0], row[1]) for row in ex.RESULTATS})
    several = [p for p, n in played.items() if n >= 2]
    assert len(several) > len(played) / 2
    unranked = [st for st in report.standings if st.rank is None]
    once = [st for st in unranked if st.season.classified == 1 and len(st.season.outings) == 1]
    assert len(once) >= 5
    # Ranked exactly when classified in two tournaments or more.
    assert all((st.rank is not None) == (st.season.classified >= 2) for st in report.standings)
    assert {st.player for st in report.standings} == people()


# --- The worked examples ---------------------------------------------------------------------


def test_worked_example_1(report):
    scored = report.scored[EXAMPLE_1]
    classified = [s for s in scored if s.classified]
    assert [s.line.player for s in classified] == [
        "Jacques", "Malcolm", "Matthieu", "Patrick", "Daniel", "Eulalie", "Geoffroy", "Axel",
        "François", "Jonathan", "Joseph", "Pierre", "Conan", "Valentin", "Robert", "Johnny",
        "Laurence", "Sylvestre", "Oscar", "Bernard", "Nicolas",
    ]
    assert [s.place for s in classified] == list(range(1, 22))
    assert rounded(classified) == (
        ["1021", "891", "794", "708", "631", "562", "501", "447", "398", "355", "316", "282", "251", "224", "200",
         "178", "158", "141", "126", "112", "100"]
    )
    by_player = {s.line.player: s for s in scored}
    # Daniel: playing co-organiser, only his place's points.
    assert by_player["Daniel"].line.role is Role.ORGANISER and by_player["Daniel"].line.place == 5
    assert format_half_up(by_player["Daniel"].points) == "631"
    # Guéric: co-organiser who did not play, 100 points, not classified.
    assert by_player["Guéric"].status is Status.ROLE
    assert by_player["Guéric"].line.role is Role.ORGANISER
    assert by_player["Guéric"].points == 100


def test_worked_example_2(report):
    scored = report.scored[EXAMPLE_2]
    assert [(s.line.player, s.line.place) for s in scored] == [
        ("David", 1), ("Rémi", 1), ("Maurice", 3), ("René", 4), ("Philippe", 5), ("Louis", 6),
        ("Clovis", 7), ("Pollux", 8), ("Claudine", 9), ("Georges", 9), ("Léo", 9),
        ("Charles-Henri", 9),
    ]
    assert all(s.classified for s in scored)
    assert rounded(scored) == ["912", "912", "658", "534", "433", "351", "285", "231", "141", "141", "141", "141"]
    pollux = scored[7]
    assert pollux.line.role is Role.ORGANISER  # the organiser played: no extra 100


# --- The special cases -----------------------------------------------------------------------


def test_another_tie(report):
    tied = {
        name
        for name, scored in report.scored.items()
        if name != EXAMPLE_2 and any(s.classified and s.tied > 1 for s in scored)
    }
    assert tied
    nantes = {s.line.player: s for s in report.scored["Tournoi de Nantes"]}
    assert nantes["Baptiste Renaud"].points == nantes["Noémie Fournier"].points
    assert nantes["Baptiste Renaud"].tied == 2


def test_vacancy_closes_up(report):
    scored = report.scored[VACANCY]
    classified = [s for s in scored if s.classified]
    assert [s.line.place for s in classified] == [1, 2, 3, 4, 5, 6] + list(range(8, 18))
    assert [s.place for s in classified] == list(range(1, 17))
    assert format_half_up(classified[-1].points) == "100"  # official 17th, effective last of 16


def test_helper_with_one_classified_tournament_is_unranked(report):
    lines = [row for row in ex.RESULTATS if row[1] == HELPER]
    assert sorted((row[0], row[2], row[3]) for row in lines) == [
        (VACANCY, 9, None),
        ("Tournoi de Nantes", None, "aide"),
    ]
    standing = next(st for st in report.standings if st.player == HELPER)
    assert standing.rank is None
    assert standing.season.classified == 1
    assert len(standing.season.outings) == 2
    helped = next(o for o in standing.season.outings if not o.classified)
    assert helped.points == 100


def test_major_and_online_kinds():
    kinds = {t.name: t.kind for t in tournaments()}
    assert kinds["Championnat de France"] is Kind.MAJOR
    assert kinds[ONLINE] is Kind.ONLINE
    assert kinds[INTERRUPTED] is Kind.ONLINE


def test_interrupted_online_tournament_has_no_winner_bonus(report):
    interrupted = [t.name for t in tournaments() if t.interrupted]
    assert interrupted == [INTERRUPTED]
    first = report.scored[INTERRUPTED][0]
    assert first.line.place == 1 and first.points == 1000


def test_cancelled_tournament(report):
    scored = report.scored[CANCELLED]
    assert len(scored) >= 3
    assert all(s.line.role is Role.CANCELLED and s.line.place is None for s in scored)
    assert all(s.status is Status.ROLE and s.points == 100 for s in scored)


def test_duplicate_two_boards(report):
    lines = Counter((row[0], row[1]) for row in ex.RESULTATS)
    assert [key for key, n in lines.items() if n > 1] == [(DUPLICATE, "Julien Morel")]
    scored = report.scored[DUPLICATE]
    julien = [s for s in scored if s.line.player == "Julien Morel"]
    assert [(s.line.place, s.status) for s in julien] == [
        (4, Status.CLASSIFIED),
        (10, Status.DUPLICATE),
    ]
    classified = [s for s in scored if s.classified]
    assert len(classified) == 13  # x counts distinct people
    assert [s.place for s in classified] == list(range(1, 14))  # those behind the 10th move up
    assert format_half_up(classified[-1].points) == "100"
    # Only his best line reaches the season.
    assert [o.tournament for st in report.standings if st.player == "Julien Morel"
            for o in st.season.outings].count(DUPLICATE) == 1


def test_imposed_points(report):
    imposed = [row for row in ex.RESULTATS if row[4] is not None]
    assert [(row[0], row[1], row[4]) for row in imposed] == [(IMPOSED, "Florian Schmitt", 1015)]
    scored = {s.line.player: s for s in report.scored[IMPOSED]}
    assert scored["Florian Schmitt"].imposed and scored["Florian Schmitt"].points == 1015
    assert scored["Christophe Meyer"].points == 1015  # the winner of 15: 1000 + 15, computed
    assert not scored["Christophe Meyer"].imposed


# --- The no-loss rule ------------------------------------------------------------------------


def test_no_loss_rule_raises_a_players_total(report):
    kinds = {t.name: t.kind for t in tournaments()}
    outings = [
        Outing(s.points, kinds[name], s.classified, name)
        for name, scored in report.scored.items()
        for s in scored
        if s.line.player == NO_LOSS_PLAYER and s.status is not Status.DUPLICATE
    ]
    normal = sorted((o.points for o in outings if o.kind is Kind.NORMAL), reverse=True)
    online = [o.points for o in outings if o.kind is Kind.ONLINE]
    assert len(normal) >= 3 and len(online) == 1
    assert not any(o.kind.counts_as_major for o in outings)
    assert [format_half_up(p) for p in normal + online] == ["858", "588", "136", "1021"]

    result = season(outings)
    assert any(result.set_aside)
    assert [o.tournament for o, aside in zip(result.outings, result.set_aside) if aside] == [
        "Tournoi de Marseille"
    ]
    # Plain weighting, nothing set aside: normal ones best first 100/80/40%,
    # the online one last (20%).
    plain = normal[0] * 1 + normal[1] * 0.8 + normal[2] * 0.4 + online[0] * 0.2
    dropping_worst = normal[0] * 1 + normal[1] * 0.8 + online[0] * 0.4
    assert result.total > plain
    assert result.total == pytest.approx(dropping_worst)
    assert format_half_up(plain) == "1587"
    assert format_half_up(result.total) == "1736"

    standing = next(st for st in report.standings if st.player == NO_LOSS_PLAYER)
    assert standing.rank is not None
    assert standing.season.total == pytest.approx(result.total)
    assert report.weights[(NO_LOSS_PLAYER, "Tournoi de Marseille")] == (0.0, True)
    assert report.weights[(NO_LOSS_PLAYER, ONLINE)] == (0.4, False)
