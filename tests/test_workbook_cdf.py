"""The Championnat de France workbook: template, fill of the example, checks, and the Classement
pasted into a Tour de France season."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import openpyxl
import pytest
from conftest import table_dicts, table_rows

from xlcircuit.federations import adapter_of as federation_of
from xlcircuit.federations import cdf as cdf_book
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.federations.examples import load
from xlcircuit.rules.errors import WorkbookProblems
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, save_atomic


def write(path: Path, parametres=None, joueurs=None, parties=None, votes=(), preferes=()) -> Path:
    wb = cdf_book.new_workbook()
    if parametres is not None:
        # the template already has the three parameters: rewrite the whole table
        type_rows(wb, cdf_book.PARAMETRES, parametres)
    type_rows(wb, cdf_book.JOUEURS, joueurs if joueurs is not None else load("cdf").JOUEURS)
    type_rows(wb, cdf_book.PARTIES, parties if parties is not None else load("cdf").PARTIES)
    type_rows(wb, cdf_book.VOTES, votes)
    type_rows(wb, cdf_book.PREFERES, preferes)
    return save_atomic(wb, path)


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> Path:
    """The bundled example, filled."""
    path = tmp_path_factory.mktemp("cdf") / "exemple.xlsx"
    wb = cdf_book.new_workbook()
    cdf_book.put_example(wb)
    save_atomic(wb, path)
    book = Book(path)
    cdf_book.fill(book)
    book.save()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- template --------------------------------------------------------------------------------


def test_new_workbook_has_the_tables_in_french(tmp_path):
    path = save_atomic(cdf_book.new_workbook(), tmp_path / "neuf.xlsx")
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Tournoi", "Joueurs", "Parties", "Votes", "Préférés", "Scores", "Qualification",
                             "Table finale", "Classement", "Équipes", "Trophées", "Meilleurs pays", "Palmarès", "Journal"]
    assert table_rows(wb["Tournoi"], "Parametres")[1:] == [["Championnat", None], ["Table finale", "oui"],
                                                           ["Tables incomplètes", "non"]]
    assert table_rows(wb["Joueurs"], "Joueurs")[0] == ["Joueur", "Club", "Équipe", "Naissance", "Étranger", "Bonus",
                                                       "Identifiant", "Alias"]
    assert table_rows(wb["Parties"], "Parties")[0] == ["Ronde", "Table", "Joueur", "Pays", "Centres", "Éliminé après",
                                                       "Années jouées", "Ordre de choix", "Source"]
    assert table_rows(wb["Votes"], "Votes")[0] == ["Ronde", "Table", "Votant", "Catégorie", "Premier", "Second",
                                                   "Bulletin"]
    assert table_rows(wb["Classement"], "Classement")[0][:2] == ["Place", "Joueur"]
    assert federation_of(Book(path)) is cdf_book.ADAPTER
    lists = [dv.formula1 for dv in wb["Parties"].data_validations.dataValidation]
    assert '"Autriche,Angleterre,France,Allemagne,Italie,Russie,Turquie"' in lists


def test_an_empty_template_fills_without_error(tmp_path):
    path = save_atomic(cdf_book.new_workbook(), tmp_path / "vide.xlsx")
    book = Book(path)
    summary = cdf_book.fill(book)
    assert summary.championship.standings == []


# --- the example -------------------------------------------------------------------------------


def test_the_example_holds_the_hand_checked_boards(example):
    scores = table_dicts(openpyxl.load_workbook(example)["Scores"], "Scores")
    board = [(r["Centres"], r["Score"]) for r in scores if (r["Ronde"], r["Table"]) == (1, 1)]
    # cdf.md: 9 -> 67; 8 -> 38; 7 -> 30; 5 -> 20; 3 -> 16; 2 -> 14; 0 (after 5 years) -> 5.
    assert board == [(9, 67), (8, 38), (7, 30), (5, 20), (3, 16), (2, 14), (0, 5)]
    tied = [(r["Centres"], r["Score"], r["Résultat"]) for r in scores if (r["Ronde"], r["Table"]) == (1, 2)]
    assert [(c, s) for c, s, _ in tied] == [(8, 50), (8, 50), (7, 30), (6, 25), (5, 21.5), (0, 6), (0, 4)]
    assert tied[0][2] == "ex aequo en tête (2)"
    solo = next(r for r in scores if r["Résultat"] == "solo")
    assert (solo["Joueur"], solo["Centres"], solo["Score"]) == ("Antoine Mercier", 18, 102)
    voted = {r["Années jouées"] for r in scores if (r["Ronde"], r["Table"]) == (2, 2)}
    assert voted == {5}
    adrien = [r for r in scores if r["Joueur"] == "Adrien Lefort" and r["Ronde"] == 2]
    # Tables 4 (10 centres, nobody within 3: 20+10+51 = 81) and 5 (4 centres: 8+10 = 18):
    # 0.8*81 + 0.4*18 = 72 < 81, so 100% + 0%.
    assert sorted(r["Score"] for r in adrien) == [18, 81]
    assert {r["Score de la ronde"] for r in adrien} == {81}
    assert all("100 % + 0 %" in r["Remarque"] for r in adrien)


def test_the_example_top_board_and_champion(example):
    wb = openpyxl.load_workbook(example)
    final = table_dicts(wb["Table finale"], "TableFinale")
    assert [(r["Étape"], r["Joueur"]) for r in final] == [
        (1, "Camille Faure"), (2, "Raphaël Dumont"), (3, "Adrien Lefort"), (4, "Antoine Mercier"),
        (5, "Ulysse Marchal"), (5, "Olivier Brunet"), (5, "Sandrine Aubry")]
    assert next(r for r in final if r["Résultat"])["Joueur"] == "Raphaël Dumont"
    standings = table_dicts(wb["Classement"], "Classement")
    assert (standings[0]["Place"], standings[0]["Joueur"], standings[0]["Table finale"]) == (
        1, "Raphaël Dumont", "champion")
    # Raphaël: 40, 87, 6, 52 -> 87 + 52 + 0.8*40 + 0.4*6 = 173.4; +15% = 199.41.
    assert standings[0]["Score final"] == pytest.approx(173.4)
    assert standings[0]["Total"] == pytest.approx(199.41)
    assert [r["Place"] for r in standings] == list(range(1, 36))
    assert wb["Classement"].cell(4, 12).number_format == "0.00"
    teams = table_dicts(wb["Équipes"], "Equipes")
    assert len(teams) == 8 and teams[0]["Équipe"] == "Ch'tis Diplo"
    trophies = table_dicts(wb["Trophées"], "Trophees")
    assert {r["Trophée"] for r in trophies} == {"meilleur diplomate", "meilleur tacticien", "meilleur stratège",
                                               "plus machiavélique", "joueur préféré"}
    favourite = next(r for r in trophies if r["Trophée"] == "joueur préféré")
    assert (favourite["Joueur"], favourite["Points"]) == ("Ulysse Marchal", 14)
    countries = table_dicts(wb["Meilleurs pays"], "MeilleursPays")
    assert next(r for r in countries if r["Pays"] == "Italie")["Joueur"] == "Antoine Mercier"  # the solo, 102


def test_the_classement_pasted_into_a_tdf_season_gives_its_tdf_points(example, tmp_path):
    standings = table_dicts(openpyxl.load_workbook(example)["Classement"], "Classement")
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.TOURNOIS, [("Championnat de France 2014", dt.date(2014, 12, 21), "majeur", None)])
    type_rows(wb, tdf_book.RESULTATS, [("Championnat de France 2014", r["Joueur"], r["Place"], None, None)
                                       for r in standings])
    path = save_atomic(wb, tmp_path / "saison.xlsx")
    book = Book(path)
    tdf_book.fill(book)
    book.save()
    points = {r["Joueur"]: r["Points"] for r in table_dicts(openpyxl.load_workbook(path)["Points"], "Points")}
    by_place = {r["Place"]: points[r["Joueur"]] for r in standings}
    # tdf.md §1 with x = 35 classified: place 1 -> 1000 + 35; place p -> 1000 * 10 ** (-(p - 1) / 34); last 100.
    assert by_place[1] == 1035
    assert by_place[2] == pytest.approx(1000 * 10 ** (-1 / 34))  # 934.56…
    assert by_place[18] == pytest.approx(1000 * 10 ** (-17 / 34))  # 316.23… = 1000 / sqrt(10)
    assert by_place[35] == pytest.approx(100)
    assert points["Raphaël Dumont"] == 1035  # the champion, first whatever his total


def test_refill_gives_the_same_tables_whatever_the_row_order(example, tmp_path):
    shuffled = write(tmp_path / "melange.xlsx", load("cdf").PARAMETRES, list(reversed(load("cdf").JOUEURS)),
                     load("cdf").PARTIES[1::2] + load("cdf").PARTIES[::2], list(reversed(load("cdf").VOTES)),
                     list(reversed(load("cdf").PREFERES)))
    book = Book(shuffled)
    cdf_book.fill(book)
    book.save()
    once, twice = openpyxl.load_workbook(example), openpyxl.load_workbook(shuffled)
    for spec in cdf_book.OUTPUTS:
        assert table_rows(twice[spec.sheet], spec.name) == table_rows(once[spec.sheet], spec.name), spec.name


def test_without_top_board_everyone_is_ranked_by_final_score(tmp_path):
    parties = [row[:7] + (None,) for row in load("cdf").PARTIES]
    path = write(tmp_path / "sans.xlsx", [("Table finale", "non")], parties=parties)
    book = Book(path)
    summary = cdf_book.fill(book)
    standings = summary.championship.standings
    assert not any(s.champion or s.top_board for s in standings)
    # Ulysse: 22, 85, 65, 52 -> 85 + 65 + 0.8*52 + 0.4*22 = 200.4, the best final score.
    assert (standings[0].player, standings[0].total) == ("Ulysse Marchal", pytest.approx(200.4))


def test_report_lines(example):
    summary = cdf_book.compute(Book(example))
    first, *rest = cdf_book.report(summary)
    assert first == "4 rondes, 19 parties, 35 joueurs classés."
    assert rest[0].split()[:3] == ["1.", "Raphaël", "Dumont"] and "champion" in rest[0]
    assert "199,41" in rest[0]


# --- bad input -------------------------------------------------------------------------------


def test_every_problem_is_reported_at_once_and_nothing_is_written(tmp_path):
    joueurs = [("Ana", None, "Un", "hier", "peut-être", None), ("Bob", None, None, None, None, "dix")]
    joueurs += [(name, None, None, None, None, None) for name in "CDEFGH"]
    parties = [
        (1, 1, "Ana", "Autriche", 9, None, None, None),
        (1, 1, "Bob", "Autriche", 8, None, None, None),  # Austria twice: reported on the board
        (1, 1, "C", "France", 7, None, None, None),
        (1, 1, "D", "Allemagne", 5, None, None, None),
        (1, 1, "E", "Italie", 3, None, None, None),
        (1, 1, "F", "Russie", 2, None, None, None),
        (1, 1, "G", "Turquie", 0, None, None, None),  # eliminated: after how many years?
        (5, 2, "Zed", "Prusse", 2.5, None, None, 3),
    ]
    votes = [(1, 1, "Ana", "meilleur cuisinier", "Bob", "Ana", "4+0")]
    path = write(tmp_path / "fautes.xlsx", joueurs=joueurs, parties=parties, votes=votes)
    before = digest(path)
    with pytest.raises(WorkbookProblems) as caught:
        cdf_book.fill(Book(path))
    where = {(p.sheet, p.row, p.column) for p in caught.value.problems}
    assert where == {
        ("Joueurs", 2, "Naissance"), ("Joueurs", 2, "Étranger"), ("Joueurs", 3, "Bonus"),
        ("Parties", 8, "Éliminé après"),
        ("Parties", 9, "Ronde"), ("Parties", 9, "Joueur"), ("Parties", 9, "Pays"), ("Parties", 9, "Centres"),
        ("Parties", 2, "Table"),  # the board with Austria twice (and G unscored)
        ("Votes", 2, "Catégorie"), ("Votes", 2, "Bulletin"),
    }
    message = str(caught.value)
    assert "Parties!E9 (colonne « Centres ») : nombre de centres attendu : un entier de 0 à 34 ; trouvé 2.5" in message
    assert "Zed est absent de la table Joueurs" in message
    assert digest(path) == before


def test_board_level_problems(tmp_path):
    joueurs = [(name, None, None, None, None, None) for name in "ABCDEFGH"]
    seven = [(1, 1, name, power, 4, None, None, None)
             for name, power in zip("ABCDEFG", ("Autriche", "Angleterre", "France", "Allemagne", "Italie", "Russie",
                                                "Turquie"))]
    six = [(2, 1, *row[2:]) for row in seven[:6]]  # six players, not allowed
    long = [(3, 1, *row[2:4], 5, None, 5 if row[2] == "A" else 6, None) for row in seven]  # two lengths
    votes = [(1, 1, "A", "diplomate", "B", "H", "3+1"), (1, 1, "A", "diplomate", "B", "C", "3+1"),
             (1, 1, "A", "Diplomate", "C", "D", "2+2")]
    path = write(tmp_path / "tables.xlsx", joueurs=joueurs, parties=seven + six + long, votes=votes,
                 preferes=[("H", "A"), ("A", "A")])
    with pytest.raises(WorkbookProblems) as caught:
        cdf_book.compute(Book(path))
    messages = {(p.sheet, p.row, p.column): p.message for p in caught.value.problems}
    assert "7 joueurs attendus" in messages[("Parties", 9, "Table")]
    assert "plusieurs durées (5, 6)" in messages[("Parties", 15, "Années jouées")]
    assert "H n'a pas joué à la table 1 de la ronde 1" in messages[("Votes", 2, "Second")]
    assert "déjà voté « meilleur diplomate »" in messages[("Votes", 4, "Catégorie")]
    assert "H n'a joué aucune partie" in messages[("Préférés", 2, "Votant")]
    assert "soi-même" in messages[("Préférés", 3, "Joueur préféré")]


def test_a_blank_ronde_is_a_located_problem_not_a_crash(tmp_path):
    # A Parties line without its round used to reach the board sort (None < 1: TypeError); a vote without
    # its round reached the core and came back with no row nor column.
    parties = [list(row) for row in load("cdf").PARTIES]
    parties[3][0] = None
    votes = [list(row) for row in load("cdf").VOTES[:2]]
    votes[1][0] = None
    path = write(tmp_path / "ronde.xlsx", load("cdf").PARAMETRES, parties=parties, votes=votes)
    with pytest.raises(WorkbookProblems) as caught:
        cdf_book.compute(Book(path))
    messages = {(p.sheet, p.row, p.column): p.message for p in caught.value.problems}
    assert messages == {
        ("Parties", 5, "Ronde"): "numéro de ronde attendu : un entier de 1 à 4 ; trouvé une cellule vide",
        ("Votes", 3, "Ronde"): "numéro de ronde attendu : un entier de 1 à 4 ; trouvé une cellule vide",
        # the line left out, its board (round 1, table 1, from row 2) is one player short
        ("Parties", 2, "Table"): "table 1 de la ronde 1 : 7 joueurs attendus sur une table ; trouvé 6 (table "
                                 "incomplète : autorisez-la dans les paramètres)",
    }


# --- blank or garbage in any cell of an input table: a fill, or located problems ---------------

SEVEN = ("Ana", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus")
POWERS = ("Autriche", "Angleterre", "France", "Allemagne", "Italie", "Russie", "Turquie")
#: A small championship that fills: one table of seven in rounds 1 and 2 (9, 8, 7, 5, 3, 2 and 0 centres,
#: Gus eliminated after 5 years), two ballots, two favourite votes; Ana's Joueurs line has every column.
SMALL = {
    cdf_book.JOUEURS: [(name, "Club", "Les As" if i < 2 else None, dt.date(1990, 1, 1 + i), "oui" if i == 0 else None,
                        5 if i == 0 else None, f"id{i}", None) for i, name in enumerate(SEVEN)],
    cdf_book.PARTIES: [(r, 1, name, POWERS[(i + r) % 7], centres, 5 if centres == 0 else None, 7 if i == 0 else None,
                        None) for r in (1, 2) for i, (name, centres) in enumerate(zip(SEVEN, (9, 8, 7, 5, 3, 2, 0)))],
    cdf_book.VOTES: [(1, 1, "Ana", "meilleur diplomate", "Bob", "Cid", "3+1"),
                     (2, 1, "Bob", "stratège", "Ana", "Cid", "2+2")],
    cdf_book.PREFERES: [("Ana", "Bob"), ("Cid", "Ana")],
}
#: The line changed: Gus's first game (eliminated: his Éliminé après is required) or the first line.
CHANGED = {cdf_book.PARTIES: 6}
#: Cells that may not be left blank.
REQUIRED = {("Joueurs", "Joueur"), ("Parties", "Ronde"), ("Parties", "Table"), ("Parties", "Joueur"),
            ("Parties", "Pays"), ("Parties", "Centres"), ("Parties", "Éliminé après")} | {
    (spec.sheet, c.header) for spec in (cdf_book.VOTES, cdf_book.PREFERES) for c in spec.columns}
#: Free text (names, tables, clubs, teams): any text is a name; elsewhere « zzz » is refused at its cell.
FREE = {("Joueurs", "Joueur"), ("Joueurs", "Club"), ("Joueurs", "Équipe"), ("Joueurs", "Identifiant"), ("Joueurs", "Alias"),
        ("Parties", "Table"), ("Parties", "Joueur"),
        ("Parties", "Source"),
        ("Votes", "Table"), ("Votes", "Votant"), ("Votes", "Premier"), ("Votes", "Second"), ("Préférés", "Votant"),
        ("Préférés", "Joueur préféré")}
GARBAGE = (None, "zzz", -1, 2.5, 99, dt.date(2020, 1, 1))


def test_the_small_championship_fills(tmp_path):
    wb = cdf_book.new_workbook()
    for spec, rows in SMALL.items():
        type_rows(wb, spec, rows)
    summary = cdf_book.fill(Book(save_atomic(wb, tmp_path / "petit.xlsx")))
    assert [s.player for s in summary.championship.standings][:2] == ["Ana", "Bob"]


@pytest.mark.parametrize("spec, header", [(spec, c.header) for spec in SMALL for c in spec.columns],
                         ids=lambda x: x if isinstance(x, str) else x.sheet)
def test_blank_or_garbage_in_any_cell_ends_filled_or_in_located_problems(tmp_path, spec, header):
    index, column = CHANGED.get(spec, 0), [c.header for c in spec.columns].index(header)
    for value in GARBAGE:
        tables = {s: [list(row) + [None] * (len(s.columns) - len(row)) for row in rows] for s, rows in SMALL.items()}
        tables[spec][index][column] = value
        wb = cdf_book.new_workbook()
        for s, rows in tables.items():
            type_rows(wb, s, rows)
        try:
            cdf_book.fill(Book(save_atomic(wb, tmp_path / "fuzz.xlsx")))
            problems = []
        except WorkbookProblems as exc:
            problems = exc.problems
        assert all(p.row and p.column and p.cell for p in problems), (value, [str(p) for p in problems])
        here = [p.message for p in problems if (p.sheet, p.row, p.column) == (spec.sheet, index + 2, header)]
        if value is None and (spec.sheet, header) in REQUIRED:
            assert len(here) == 1 and " attendu" in here[0] and here[0].endswith(" ; trouvé une cellule vide"), here
        elif value is None:
            assert problems == []
        elif value == "zzz" and (spec.sheet, header) not in FREE:
            assert len(here) == 1 and " attendu" in here[0] and here[0].endswith(" ; trouvé « zzz »"), here
