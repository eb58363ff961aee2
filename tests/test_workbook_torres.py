"""The TORRES season workbook: template, fill of the example, checks, and the ``schedule`` command."""

from __future__ import annotations

import zlib
from collections import Counter
from itertools import combinations
from pathlib import Path

import openpyxl
import pytest

from conftest import table_dicts, table_rows
from xlcircuit import example_torres
from xlcircuit.cli import main
from xlcircuit.errors import WorkbookProblems
from xlcircuit.workbook import Book
from xlcircuit.workbook import torres as torres_book
from xlcircuit.workbook.io import save_atomic
from xlcircuit.workbook.tables import type_rows


def example(folder: Path) -> Path:
    wb = torres_book.new_workbook()
    torres_book.put_example(wb)
    return save_atomic(wb, folder / "torres.xlsx")


def workbook(folder: Path, joueurs, matchs=(), parametres=None) -> Path:
    wb = torres_book.new_workbook()
    if parametres:
        type_rows(wb, torres_book.PARAMETRES, parametres)
    type_rows(wb, torres_book.JOUEURS, [tuple(row) + (None,) * (6 - len(row)) for row in joueurs])
    type_rows(wb, torres_book.MATCHS, list(matchs))
    return save_atomic(wb, folder / "saison.xlsx")


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    path = example(tmp_path_factory.mktemp("torres"))
    book = Book(path)
    summary = torres_book.fill(book)
    book.save()
    return openpyxl.load_workbook(path), summary


def test_new_workbook_has_the_tables_in_french(tmp_path):
    path = tmp_path / "neuf.xlsx"
    assert main(["new", "torres", str(path)]) == 0
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Saison", "Joueurs", "Matchs", "Classements", "Points", "Mouvements",
                             "Saison suivante", "Calendrier"]
    assert table_rows(wb["Saison"], "Parametres") == [["Paramètre", "Valeur"], ["Saison", None], ["Graine", None]]
    assert table_rows(wb["Joueurs"], "Joueurs")[0] == ["Joueur", "Elo", "Division", "Groupe", "Statut", "Club"]
    assert table_rows(wb["Matchs"], "Matchs")[0] == ["Division", "Groupe", "Match", "Joueur", "Points", "Retard"]
    assert table_rows(wb["Classements"], "Classements")[0] == [
        "Division", "Groupe", "Rang", "Joueur", "Statut", "Matchs", "Points de victoire", "Différence",
        "Points particuliers", "Elo", "Mouvement"]
    assert wb.custom_doc_props["xlcircuit"].value == "torres"
    lists = [dv.formula1 for dv in wb["Joueurs"].data_validations.dataValidation]
    assert '"actif,forfait,retrait,nouveau,retour"' in lists


def test_the_particular_points_example_and_its_victory_points(filled):
    wb, _ = filled
    points = table_dicts(wb["Points"], "Points")
    first = {p["Joueur"]: (p["Points particuliers"], p["Points de victoire"], p["Différence"])
             for p in points if (p["Division"], p["Groupe"], p["Match"]) == (1, 1, 1)}
    # torres.md §2 source example: 115, 130, 123, 110 -> -18, +42, +14, -38; places 3, 1, 2, 4 -> 2, 8, 4, 1.
    assert first == {"Adèle": (115, 2, -18), "Igor": (130, 8, 42), "Gaspard": (123, 4, 14), "Damien": (110, 1, -38)}
    assert wb["Points"].cell(4, 8).number_format == "+0;-0;0"


def test_unfinished_match_tie_and_forfeit_lines(filled):
    wb, _ = filled
    points = table_dicts(wb["Points"], "Points")
    def match(key):
        return {p["Joueur"]: (p["Place"], p["Points de victoire"], p["Différence"], p["Remarque"])
                for p in points if (p["Division"], p["Groupe"], p["Match"]) == key}
    # Quentin (145) delayed the match: 0; Octave 130, Léna 98, Simon 86 take 8, 4, 2. Total 459:
    # 4 × 98 - 459 = -67, 520 - 459 = 61, 580 - 459 = 121, 344 - 459 = -115.
    unfinished = match((2, 1, 15))
    assert {k: v[:3] for k, v in unfinished.items()} == {
        "Octave": (1, 8, 61), "Léna": (2, 4, -67), "Simon": (3, 2, -115), "Quentin": (None, 0, 121)}
    assert "retardé" in unfinished["Quentin"][3]
    # Juliette and Isidore tied on 152: they share (8 + 4) / 2 = 6; Fanny 127: 2; Hortense 76: 1.
    assert {k: v[1] for k, v in match((3, 1, 1)).items()} == {"Juliette": 6, "Isidore": 6, "Fanny": 2, "Hortense": 1}
    fictitious = [p for p in points if p["Joueur"] == "Forfait"]
    assert len(fictitious) == 4 and all(p["Points de victoire"] == 0 and "fictif" in p["Remarque"] for p in fictitious)


def test_standings_one_table_sorted_with_every_tie_breaker(filled):
    wb, summary = filled
    rows = table_dicts(wb["Classements"], "Classements")
    assert len(rows) == 10 + 20 + 28
    keys = [(r["Division"], r["Groupe"], r["Rang"]) for r in rows]
    assert keys == sorted(keys)
    for (d, g), size in {(1, 1): 10, (2, 1): 10, (2, 2): 10, (3, 1): 7, (3, 4): 7}.items():
        group = [r for r in rows if (r["Division"], r["Groupe"]) == (d, g)]
        assert len(group) == size
        active = [r for r in group if r["Statut"] != "forfait"]
        merit = [(-r["Points de victoire"], -r["Différence"], -r["Points particuliers"], r["Elo"]) for r in active]
        assert merit == sorted(merit)
        # Each player of a group of ten plays six matches (the forfeit player two, then « Forfait »).
        if size == 10:
            assert {r["Matchs"] for r in active} == {6}
    d1 = [r for r in rows if r["Division"] == 1]
    assert d1[0]["Mouvement"] == "champion"
    assert (d1[-1]["Joueur"], d1[-1]["Statut"], d1[-1]["Mouvement"], d1[-1]["Matchs"]) == ("Gaspard", "forfait", "forfait", 2)
    # D2 group 2 has neither a fictitious nor a delayed player: each of its 15 matches gives 8 + 4 + 2 + 1.
    assert sum(r["Points de victoire"] for r in rows if (r["Division"], r["Groupe"]) == (2, 2)) == 15 * 15


def test_movements_and_next_season(filled):
    wb, _ = filled
    moves = {r["Joueur"]: r for r in table_dicts(wb["Mouvements"], "Mouvements")}
    assert moves["Valentine"]["Mouvement"] == "retrait" and moves["Valentine"]["Division suivante"] is None
    assert (moves["Valentine"]["Rang"], moves["Valentine"]["Origine"]) == (1, "1d2g2")
    assert moves["Gaspard"]["Mouvement"] == "forfait"
    third = next(r for r in moves.values() if r["Origine"] == "3d2g2")
    assert (third["Mouvement"], third["Division suivante"]) == ("monte", 1)  # in Valentine's place
    rescued = [r["Origine"] for r in moves.values() if r["Mouvement"] == "repêché"]
    assert sorted(rescued) == ["7d2g1", "7d2g2"]  # one for Valentine's place, one for Gaspard's
    new = [r for r in moves.values() if r["Mouvement"] == "nouveau"]
    assert len(new) == 12 and {r["Division suivante"] for r in new} == {3}
    following = table_dicts(wb["Saison suivante"], "SaisonSuivante")
    sizes = Counter((r["Division"], r["Groupe"]) for r in following)
    assert sizes[1, 1] == sizes[2, 1] == sizes[2, 2] == 10
    assert sum(sizes[3, g] for g in range(1, 5)) == 58 + 12 - 2 - 30  # all but the leavers and D1, D2
    assert max(sizes[3, g] for g in range(1, 5)) - min(sizes[3, g] for g in range(1, 5)) <= 1


def test_problems_are_all_reported_with_their_cells_and_nothing_is_written(tmp_path):
    joueurs = [("Ana", 1500, 1, 1), ("Bob", None, 1, 1), ("Cléo", 1500, 1, 2), ("Dan", 1500, 1, 1, "absent"),
               ("Forfait", 1500, 1, 1)]
    matchs = [(1, 1, 1, "Ana", 100, None), (1, 1, 1, "Zoé", 90, None), (1, 1, 1, "Forfait bis", -5, None),
              (1, 3, 2, "Ana", 10, None)]
    path = workbook(tmp_path, joueurs, matchs)
    before = path.read_bytes()
    with pytest.raises(WorkbookProblems) as caught:
        torres_book.fill(Book(path))
    found = {(p.cell, p.column) for p in caught.value.problems}
    assert {("B3", "Elo"), ("D4", "Groupe"), ("E5", "Statut"), ("A6", "Joueur"), ("D3", "Joueur"),
            ("E4", "Points"), ("B5", "Groupe")} <= found
    assert main(["fill", str(path)]) == 1
    assert path.read_bytes() == before


def test_a_match_must_have_four_lines(tmp_path):
    joueurs = [(n, 1500, 1, 1) for n in "ABCDEFGHIJ"]
    path = workbook(tmp_path, joueurs, [(1, 1, 1, "A", 10, None), (1, 1, 1, "B", 20, None), (1, 1, 1, "B", 5, None),
                                        (1, 1, 2, "C", 10, None), (1, 1, 2, "D", 10, None)])
    with pytest.raises(WorkbookProblems) as caught:
        torres_book.compute(Book(path))
    messages = [str(p) for p in caught.value.problems]
    assert any("B figure 2 fois" in m for m in messages)
    assert any("le match 2 de D1 groupe 1 a 2 lignes ; 4 attendues" in m for m in messages)


def test_an_empty_template_fills(tmp_path):
    path = workbook(tmp_path, [])
    book = Book(path)
    summary = torres_book.fill(book)
    book.save()
    assert torres_book.report(summary)[0].startswith("0 joueurs")


def read_calendar(path: Path) -> list[dict]:
    return table_dicts(openpyxl.load_workbook(path)["Calendrier"], "Calendrier")


def test_schedule_command_draws_each_group_and_is_reproducible(tmp_path, capsys):
    joueurs = [row[:4] + (None,) for row in example_torres.JOUEURS if row[4] != "nouveau"]
    path = workbook(tmp_path, joueurs, parametres=[("Saison", "printemps 2026"), ("Graine", 2026)])
    assert main(["schedule", str(path), "-o", str(tmp_path / "a.xlsx")]) == 0
    assert "graine du tirage : 2026" in capsys.readouterr().out
    calendar = read_calendar(tmp_path / "a.xlsx")
    for (d, g), size in {(1, 1): 10, (2, 2): 10, (3, 3): 7}.items():
        seats = [r for r in calendar if (r["Division"], r["Groupe"]) == (d, g)]
        matches: dict[int, list[str]] = {}
        for r in seats:
            matches.setdefault(r["Match"], []).append(r["Joueur"])
        assert len(matches) == (15 if size == 10 else 7) and all(len(m) == 4 for m in matches.values())
        assert set(Counter(p for m in matches.values() for p in m).values()) == {6 if size == 10 else 4}
        pairs = Counter(frozenset(p) for m in matches.values() for p in combinations(m, 2))
        assert len(pairs) == size * (size - 1) // 2 and set(pairs.values()) == {2}
    # The calendar of the bundled example is the one drawn with its seed.
    typed = [(r["Division"], r["Groupe"], r["Match"]) for r in calendar]
    assert typed == [m[:3] for m in example_torres.MATCHS]
    # The same seed again (given or the season's) gives the same calendar; another seed another one.
    assert main(["schedule", str(path), "--seed", "2026", "-o", str(tmp_path / "b.xlsx")]) == 0
    assert read_calendar(tmp_path / "b.xlsx") == calendar
    assert main(["schedule", str(path), "--seed", "7", "-o", str(tmp_path / "c.xlsx")]) == 0
    assert read_calendar(tmp_path / "c.xlsx") != calendar
    # The empty Matchs table received the calendar, points to type; such a season fills (no match played).
    matchs = table_dicts(openpyxl.load_workbook(tmp_path / "a.xlsx")["Matchs"], "Matchs")
    assert len(matchs) == len(calendar) and all(r["Points"] is None for r in matchs)
    assert main(["fill", str(tmp_path / "a.xlsx")]) == 0


def test_schedule_refuses_a_group_without_a_design_and_checks_joueurs_first(tmp_path, capsys):
    path = workbook(tmp_path, [(f"J{i}", 1500, 1, 1) for i in range(8)] + [("X", "haut", 2, 1)])
    assert main(["schedule", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Joueurs!B10" in err and "Elo" in err
    path = workbook(tmp_path, [(f"J{i}", 1500, 1, 1) for i in range(8)])
    assert main(["schedule", str(path)]) == 1
    assert "8 joueurs" in capsys.readouterr().err


def test_default_seed_comes_from_the_season_name(tmp_path, capsys):
    joueurs = [(f"J{i}", 1500, 1, 1) for i in range(10)]
    path = workbook(tmp_path, joueurs, parametres=[("Saison", "été 2026"), ("Graine", None)])
    assert main(["schedule", str(path)]) == 0
    # zlib.crc32 of the season's name in UTF-8, a documented default.
    assert f"graine du tirage : {zlib.crc32('été 2026'.encode())}" in capsys.readouterr().out
