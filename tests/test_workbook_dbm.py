"""The DBM season workbook: template, fill of the example and of hand-made seasons, checks, display.

Expected figures come from « Championnat DBM 98/99 — La Réforme » (Philippe Lempereur) ("EXEMPLES") or hand
arithmetic in a comment.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from conftest import need_libreoffice, table_dicts, table_rows

from xlcircuit.app import share
from xlcircuit.cli import main
from xlcircuit.federations import dbm as dbm_book
from xlcircuit.rules.errors import WorkbookProblems
from xlcircuit.rules.mechanics import format_half_up
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, libreoffice, save_atomic

#: LibreOffice's CSV export with "save cell contents as shown": numbers as their format displays them.
CSV_AS_SHOWN = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1"
OCT = dt.date(2025, 10, 1)


def two(x) -> str:
    return format_half_up(x, 2)


def season(path: Path, joueurs, tournois, resultats, seuils=(60, 40)) -> Path:
    """A DBM workbook from the template with these rows typed in."""
    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "2025-2026"), ("seuil_S", seuils[0]), ("seuil_O", seuils[1])])
    type_rows(wb, dbm_book.JOUEURS, joueurs)
    type_rows(wb, dbm_book.TOURNOIS, tournois)
    type_rows(wb, dbm_book.RESULTATS, resultats)
    return save_atomic(wb, path)


def fill(path: Path) -> tuple[dbm_book.Summary, openpyxl.Workbook]:
    book = Book(path)
    summary = dbm_book.fill(book)
    book.save()
    return summary, openpyxl.load_workbook(path)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dbm")
    wb = dbm_book.new_workbook()
    dbm_book.put_example(wb)
    path = save_atomic(wb, folder / dbm_book.EXAMPLE)
    summary, filled = fill(path)
    return path, summary, filled


# --- template ----------------------------------------------------------------------------------------


def test_new_workbook_has_the_tables_in_french(tmp_path):
    wb = openpyxl.load_workbook(save_atomic(dbm_book.new_workbook(), tmp_path / "neuf.xlsx"))
    assert wb.sheetnames == ["Saison", "Joueurs", "Tournois", "Résultats", "Valeurs", "Points", "Tableau 1",
                             "Tableau 2", "Équipes", "Classes", "Palmarès", "Journal"]
    assert [row[:2] for row in table_rows(wb["Saison"], "Parametres")] == [
        ["Paramètre", "Valeur"], ["Saison", None], ["seuil_S", None], ["seuil_O", None]]
    assert table_rows(wb["Saison"], "Parametres")[0][2] == "Commentaire"
    assert table_rows(wb["Joueurs"], "Joueurs")[0] == ["Joueur", "Club", "Classe", "Identifiant", "Alias"]
    assert table_rows(wb["Tournois"], "Tournois")[0] == ["Tournoi", "Date", "Rondes", "Doubles", "Étranger"]
    assert table_rows(wb["Résultats"], "Resultats")[0] == ["Tournoi", "Joueur", "Équipier", "Place", "Arbitre",
                                                          "Source"]
    assert table_rows(wb["Valeurs"], "Valeurs")[0][4:11] == ["NRJ", "NJT", "BJR", "SVB", "MVB", "CMM", "VFT"]
    assert table_rows(wb["Tableau 1"], "Tableau1")[0][:3] == ["Place", "Joueur", "*"]
    assert wb.custom_doc_props["xlcircuit"].value == "dbm"
    assert '"I,F,O,S,X"' in [dv.formula1 for dv in wb["Joueurs"].data_validations.dataValidation]
    assert '"oui"' in [dv.formula1 for dv in wb["Résultats"].data_validations.dataValidation]


def test_blank_thresholds_are_the_reforms_first_season_with_a_warning(tmp_path):
    # Source, VAJ: « (0) passent (S) … tant que leur moyenne est égale ou supérieure à la moyenne finale du
    # dernier joueur « actif » (S) de la saison précédente »: the reform's first season has none (its classes
    # come « des niveaux » of 97/98), so blank thresholds are valid: no (O) → (S), no (F) → (O); the
    # 15-point passages still apply.
    path = save_atomic(dbm_book.new_workbook(), tmp_path / "neuf.xlsx")
    summary = dbm_book.compute(Book(path))
    assert (summary.thresholds.seuil_s, summary.thresholds.seuil_o) == (None, None)
    # A blank with a documented default: a warning at its cell, naming what the blank means.
    assert any(w.startswith("Saison!B5 : seuil_S vide : première saison de la réforme") for w in summary.warnings)
    assert any(w.startswith("Saison!B6 : seuil_O vide : première saison de la réforme") for w in summary.warnings)
    # Poule 1 on 01/10: Ana (F) 1st, Ivan (I) 2nd, three (O): SVB 2 + 1 + 9 = 12, MVB 2.4 > 2.25: CMM 9.00,
    # VFT 2.4 × 9 × 4 = 86.4. Ana's average 86.4 is far above any threshold: without seuil_O she still plays
    # (F) on 01/11. Ivan: 86.4 / 2^(4/5) = 49.62 > 15: he plays (F) on 01/11.
    joueurs = [("Ana", "Club A", "F"), ("Ivan", "Club A", "I")] + [(f"P{i}", "Club B", "O") for i in range(3)]
    tournois = [("Poule 1", OCT, 4, None), ("Poule 2", dt.date(2025, 11, 1), 4, None)]
    resultats = [(t, "Ana", None, 1, None) for t in ("Poule 1", "Poule 2")] + [
        (t, "Ivan", None, 2, None) for t in ("Poule 1", "Poule 2")] + [
        (t, f"P{i}", None, i + 3, None) for t in ("Poule 1", "Poule 2") for i in range(3)]
    summary, wb = fill(season(tmp_path / "premiere.xlsx", joueurs, tournois, resultats, seuils=(None, None)))
    vaj = {(p["Joueur"], p["Tournoi"]): p["VAJ"] for p in table_dicts(wb["Points"], "Points")}
    assert table_dicts(wb["Valeurs"], "Valeurs")[0]["VFT"] == pytest.approx(86.4)
    assert (vaj["Ana", "Poule 1"], vaj["Ana", "Poule 2"]) == ("F", "F")
    assert (vaj["Ivan", "Poule 1"], vaj["Ivan", "Poule 2"]) == ("I", "F")
    assert len([w for w in summary.warnings if "première saison de la réforme" in w]) == 2
    # A typed threshold is still read, and text is still refused.
    summary, _ = fill(season(tmp_path / "un.xlsx", joueurs, tournois, resultats, seuils=(None, 40)))
    assert (summary.thresholds.seuil_s, summary.thresholds.seuil_o) == (None, 40)
    with pytest.raises(WorkbookProblems):
        dbm_book.compute(Book(season(tmp_path / "texte.xlsx", joueurs, tournois, resultats, seuils=(None, "x"))))


# --- the example season --------------------------------------------------------------------------------

EXAMPLE_1_RFJ = ["120.00", "95.24", "75.60", "60.00", "47.62", "37.80",
                 "30.00", "23.81", "18.90", "15.00", "11.91", "9.45"]  # fmt: skip
EXAMPLE_2_RFJ = (  # source "EXEMPLES 2)", places 1 to 36
    "154.00 142.58 132.02 122.23 113.17 104.78 97.01 89.82 83.16 77.00 71.29 66.01 61.11 56.58 52.39 48.51 "
    "44.91 41.58 38.50 35.65 33.00 30.56 28.29 26.20 24.25 22.46 20.79 19.25 17.82 16.50 15.28 14.15 13.10 "
    "12.13 11.23 10.40"
).split()


def test_the_example_holds_the_worked_examples(example):
    _, _, wb = example
    values = {row["Tournoi"]: row for row in table_dicts(wb["Valeurs"], "Valeurs")}
    # "EXEMPLES 1)": BJR 12, SVB 36, MVB 3.00, CMM 10.00, VFT 120.00; "EXEMPLES 2)": BJR 24, SVB 84, MVB 3.50,
    # CMM 11.00, VFT 154.00.
    for name, figures in [("Vincennes — Antique", (4, 12, 12, 36, "3.00", "10.00", "120.00")),
                          ("Open de Nice", (4, 36, 24, 84, "3.50", "11.00", "154.00"))]:
        v = values[name]
        assert (v["NRJ"], v["NJT"], v["BJR"], v["SVB"], two(v["MVB"]), two(v["CMM"]), two(v["VFT"])) == figures
    points = table_dicts(wb["Points"], "Points")
    for name, expected in [("Vincennes — Antique", EXAMPLE_1_RFJ), ("Open de Nice", EXAMPLE_2_RFJ)]:
        rows = [p for p in points if p["Tournoi"] == name and p["Place"] is not None]
        assert [p["Place"] for p in rows] == list(range(1, len(expected) + 1))
        assert [two(p["RFJ"]) for p in rows] == expected
        assert all(p["VAJ"] == p["Classe"] for p in rows)  # first date: everyone plays with his start class


def test_the_example_is_a_realistic_season(example):
    _, summary, wb = example
    values = table_dicts(wb["Valeurs"], "Valeurs")
    points = table_dicts(wb["Points"], "Points")
    assert len(values) >= 20
    assert len(summary.report.records) >= 130 and len(set(summary.clubs.values())) == 12
    doubles = [v for v in values if v["Doubles"] == "oui"]
    assert doubles and any(p["Équipier"] for p in points if p["Tournoi"] == doubles[0]["Tournoi"])
    assert any(v["NRJ"] == 5 and v["NJT"] > 24 and v["BJR"] == 30 for v in values)
    referees = [p for p in points if p["Place"] is None]
    assert referees and all(p["RFJ"] == pytest.approx(min(values_of(values, p["Tournoi"]) / 2, 100))
                            for p in referees)
    changes = {(p["Classe"], p["VAJ"]) for p in points if p["VAJ"] and p["VAJ"] != p["Classe"]}
    assert {("F", "O"), ("O", "S"), ("I", "F"), ("F", "I")} <= changes
    assert any(p["Ex aequo"] == 2 for p in points)
    table1 = table_dicts(wb["Tableau 1"], "Tableau1")
    assert any(row["*"] == "*" for row in table1) and table1[0]["Place"] == 1
    assert len(table_dicts(wb["Tableau 2"], "Tableau2")) == len(summary.report.records)
    assert table_dicts(wb["Équipes"], "Equipes")[0]["Place"] == 1
    ends = {row["Classe fin"] for row in table_dicts(wb["Classes"], "Classes")}
    assert ends == {"I", "F", "O", "S", "X"}
    # Bellegem is abroad: counted, but whoever played only there is out of the championship.
    abroad = [p for p in points if p["Tournoi"] == "Bellegem (Belgique)"]
    out = [p for p in abroad if p["Remarque"] and p["Remarque"].startswith("hors championnat")]
    assert out and all(p["Joueur"] not in summary.report.records for p in out)
    assert any(p["Compté"] == "oui" for p in abroad)


def values_of(values, name):
    return next(v["VFT"] for v in values if v["Tournoi"] == name)


def test_tableau1_is_the_best_four_of_the_points_table(example):
    _, _, wb = example
    points = table_dicts(wb["Points"], "Points")
    for row in table_dicts(wb["Tableau 1"], "Tableau1")[:15]:
        mine = sorted((p["RFJ"] for p in points if p["Joueur"] == row["Joueur"]), reverse=True)
        assert row["Tournois"] == len(mine) >= 3
        assert row["Total"] == pytest.approx(sum(mine[:4]))
        assert row["*"] == ("*" if len(mine) == 3 else None)
        counted = [p["RFJ"] for p in points if p["Joueur"] == row["Joueur"] and p["Compté"] == "oui"]
        assert sorted(counted, reverse=True) == pytest.approx(mine[:4])


def test_share_gives_each_club_its_players(example, tmp_path):
    path, summary, _ = example
    written = share.share_clubs(Book(path), dbm_book.ADAPTER, tmp_path / "clubs", day=dt.date(2026, 6, 30))
    assert len(written) == 12
    wb = openpyxl.load_workbook(written["JTI Nice"])
    mine = table_dicts(wb["Mon club"], "MonClub")
    assert mine and all(summary.clubs[row["Joueur"]] == "JTI Nice" for row in mine)


# --- a season computed by hand ---------------------------------------------------------------------------

#: One (S) and fifteen (O): SVB 4 + 45 = 49, MVB 49 / 16 = 3.0625 > 3.00: CMM 10.50, VFT 3.0625 × 10.5 × 4 =
#: 128.625 (shown 128.63, not 128.62); O14 and O15 tied 15th; Zoé referees without playing.
SMALL_PLAYERS = [("S1", "Club A", "S")] + [(f"O{i:02d}", "Club B", "o" if i % 2 else "0") for i in range(1, 16)]
SMALL_RESULTS = ([("Poule A", "S1", None, 1, None)]
                 + [("Poule A", f"O{i:02d}", None, min(i + 1, 15), None) for i in range(1, 16)]
                 + [("Poule A", "Zoé", None, None, "oui")])


def test_valeurs_and_points_of_a_poule_computed_by_hand(tmp_path):
    path = season(tmp_path / "petite.xlsx", SMALL_PLAYERS, [("Poule A", OCT, 4, None)], SMALL_RESULTS)
    summary, wb = fill(path)
    (v,) = table_dicts(wb["Valeurs"], "Valeurs")
    assert (v["NRJ"], v["NJT"], v["BJR"], v["SVB"], v["MVB"], v["CMM"], v["VFT"]) == (4, 16, 16, 49, 3.0625, 10.5,
                                                                                      128.625)
    assert v["Prime d'arbitrage"] == 64.3125  # 128.625 / 2
    header = [c.value for c in wb["Valeurs"][3]]
    mvb, vft = (wb["Valeurs"].cell(4, header.index(h) + 1) for h in ("MVB", "VFT"))
    assert (mvb.number_format, vft.number_format) == ("0.00", "0.00")
    assert (two(mvb.value), two(vft.value)) == ("3.06", "128.63")
    points = {p["Joueur"]: p for p in table_dicts(wb["Points"], "Points")}
    assert points["S1"]["RFJ"] == 128.625
    assert points["O01"]["RFJ"] == pytest.approx(128.625 / 2 ** (4 / 16))
    tied = (128.625 / 2 ** (4 * 14 / 16) + 128.625 / 2 ** (4 * 15 / 16)) / 2
    assert (points["O14"]["Place retenue"], points["O14"]["Ex aequo"]) == (15, 2)
    assert points["O14"]["RFJ"] == points["O15"]["RFJ"] == pytest.approx(tied)
    assert points["Zoé"]["RFJ"] == 64.3125 and "prime d'arbitrage" in points["Zoé"]["Remarque"]
    assert (points["O03"]["Classe"], points["O03"]["VAJ"], points["O03"]["Valeur"]) == ("O", "O", 3)
    assert summary.warnings == ["1 joueur sans classe dans la table Joueurs, classé F (nouveaux joueurs) : Zoé."]


def test_libreoffice_displays_the_published_two_decimals(tmp_path):
    need_libreoffice()
    path = season(tmp_path / "petite.xlsx", SMALL_PLAYERS, [("Poule A", OCT, 4, None)], SMALL_RESULTS)
    fill(path)
    out = libreoffice.convert(path, tmp_path / "csv", CSV_AS_SHOWN)
    sheet = next(p for p in out if p.stem.endswith("-Valeurs"))
    with sheet.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle) if row and row[0] == "Poule A"]
    assert rows[0][8:12] == ["3.06", "10.50", "128.63", "64.31"]  # 64.3125 -> 64.31


def test_vaj_changes_between_dates_in_the_workbook(tmp_path):
    # Ana (F) wins a poule of four (O) and herself on 01/10: SVB 2 + 12 = 14, MVB 2.8 > 2.75: CMM 10.00,
    # VFT 2.8 × 10 × 4 = 112; her average 112 ≥ seuil_O (40): on 01/11 she plays as (O).
    joueurs = [("Ana", "Club A", "F")] + [(f"P{i}", "Club B", "O") for i in range(4)]
    tournois = [("Poule 1", OCT, 4, None), ("Poule 2", dt.date(2025, 11, 1), 4, None)]
    resultats = [(t, "Ana", None, 1, None) for t in ("Poule 1", "Poule 2")] + [
        (t, f"P{i}", None, i + 2, None) for t in ("Poule 1", "Poule 2") for i in range(4)]
    _, wb = fill(season(tmp_path / "vaj.xlsx", joueurs, tournois, resultats, seuils=(1000, 40)))
    ana = [p for p in table_dicts(wb["Points"], "Points") if p["Joueur"] == "Ana"]
    assert [(p["VAJ"], p["Moyenne avant"]) for p in ana] == [("F", None), ("O", 112)]
    assert "joue en (O)" in ana[1]["Remarque"]
    assert [v["SVB"] for v in table_dicts(wb["Valeurs"], "Valeurs")] == [14, 15]


def test_doubles_in_the_workbook(tmp_path):
    # Three teams: (Xavier X, Inès I) 5, (Fred F, Fabien F) 2, (Olga O, Ivan I) 3: SVB 10, MVB 3.33 > 3.25:
    # CMM 11.00, VFT 10/3 × 11 × 4 = 146.667, NJT 3.
    joueurs = [("Xavier", None, "X"), ("Inès", None, "I"), ("Fred", None, "F"), ("Fabien", None, "F"),
               ("Olga", None, "O"), ("Ivan", None, "I")]
    resultats = [("Furor", "Xavier", "Inès", 1, None), ("Furor", "Fred", "Fabien", 2, None),
                 ("Furor", "Olga", "Ivan", 3, None)]
    _, wb = fill(season(tmp_path / "double.xlsx", joueurs, [("Furor", OCT, 4, "oui")], resultats))
    (v,) = table_dicts(wb["Valeurs"], "Valeurs")
    assert (v["Doubles"], v["NJT"], v["SVB"], v["CMM"]) == ("oui", 3, 10, 11)
    assert v["VFT"] == pytest.approx(10 / 3 * 44)
    points = {p["Joueur"]: p for p in table_dicts(wb["Points"], "Points")}
    assert len(points) == 6
    assert (points["Inès"]["Équipier"], points["Inès"]["Valeur équipe"], points["Inès"]["VAJ"]) == ("Xavier", 5, "I")
    assert points["Fabien"]["RFJ"] == pytest.approx(10 / 3 * 44 / 2 ** (4 / 3))


# --- problems and warnings --------------------------------------------------------------------------------


def test_every_problem_is_reported_with_its_cell_and_nothing_is_written(tmp_path, capsys):
    joueurs = [("Ana", "Club A", "Q"), ("Ana", "Club A", "F"), ("Bob", None, "S")]
    tournois = [("Poule 1", OCT, None, None), ("Poule 1", OCT, 4, None), ("Poule 2", None, 4, "peut-être"),
                ("Poule 3", OCT, 4, None)]
    resultats = [
        ("Poule 1", "Ana", None, 0, None),  # place 0
        ("Poule 9", "Bob", None, 1, None),  # unknown poule
        ("Poule 3", "Bob", None, None, None),  # neither place nor referee
        ("Poule 3", "Cid", "Dan", 1, None),  # a partner in a singles poule
        ("Poule 3", "Eve", None, 1, "peut-être"),
        ("Poule 3", "Fox", None, 2, None),
        ("Poule 3", "Fox", None, 3, None),  # twice in a poule
    ]
    path = season(tmp_path / "faux.xlsx", joueurs, tournois, resultats, seuils=("beaucoup", 40))
    before = path.read_bytes()
    assert main(["fill", str(path)]) == 1
    assert path.read_bytes() == before
    with pytest.raises(WorkbookProblems) as caught:
        dbm_book.compute(Book(path))
    found = [(p.sheet, p.cell, p.column) for p in caught.value.problems]
    assert found == [
        ("Saison", "B5", "Valeur"),
        ("Joueurs", "A3", "Joueur"), ("Joueurs", "C2", "Classe"),
        ("Tournois", "C2", "Rondes"), ("Tournois", "A3", "Tournoi"), ("Tournois", "B4", "Date"),
        ("Tournois", "D4", "Doubles"),
        ("Résultats", "D2", "Place"), ("Résultats", "A3", "Tournoi"), ("Résultats", "D4", "Place"),
        ("Résultats", "C5", "Équipier"), ("Résultats", "E6", "Arbitre"), ("Résultats", "B8", "Joueur"),
    ]  # fmt: skip
    text = str(caught.value)
    assert "classe attendue : I, F, O, S ou X (0 pour O, 1 pour I) ; trouvé « Q »" in text
    assert "Fox a déjà une ligne dans « Poule 3 » (ligne 7)" in text
    assert "n'est pas une poule en double" in text


def test_warnings_for_newcomers_odd_rounds_and_gaps(tmp_path):
    joueurs = [("Ana", None, "F"), ("Bob", None, "O")]
    resultats = [("P", "Ana", None, 1, None), ("P", "Bob", None, 2, None), ("P", "Cid", None, 4, None)]
    summary, _ = fill(season(tmp_path / "w.xlsx", joueurs, [("P", OCT, 6, None), ("Vide", OCT, 4, None)], resultats))
    text = "\n".join(summary.warnings)
    assert "1 joueur sans classe dans la table Joueurs, classé F (nouveaux joueurs) : Cid." in text
    assert "« P » est joué en 6 rondes" in text
    assert "« P » : place 3 absente du classement" in text
    assert "La poule « Vide » n'a encore aucun résultat." in text


def test_new_check_fill_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "saison.xlsx"
    assert main(["new", "dbm", str(path)]) == 0
    assert "Remplissez les tables « Joueurs », « Tournois » et « Résultats »" in capsys.readouterr().out
    wb = openpyxl.load_workbook(path)
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", None), ("seuil_S", 62.5), ("seuil_O", "41,25")])
    type_rows(wb, dbm_book.JOUEURS, SMALL_PLAYERS)
    type_rows(wb, dbm_book.TOURNOIS, [("Poule A", OCT, 4, None)])
    type_rows(wb, dbm_book.RESULTATS, SMALL_RESULTS)
    save_atomic(wb, path)
    assert main(["check", str(path)]) == 0
    assert main(["fill", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Classeur rempli" in out and "1 poule, 17 joueurs, 0 actif au tableau 1." in out
