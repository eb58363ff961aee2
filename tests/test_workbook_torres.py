"""The TORRES season workbook: template, fill of the example, checks, and the ``schedule`` command."""

from __future__ import annotations

import re
import zipfile
import zlib
from collections import Counter
from itertools import combinations
from pathlib import Path

import openpyxl
import pytest
from conftest import need_libreoffice, sheets_as_csv, table_dicts, table_rows
from openpyxl.utils import range_boundaries

from xlcircuit.cli import main
from xlcircuit.federations import torres as torres_book
from xlcircuit.federations.examples import load
from xlcircuit.rules import torres
from xlcircuit.rules.errors import WorkbookProblems
from xlcircuit.udfs import TORRES_VP
from xlcircuit.workbook.spec import Output, TableSpec
from xlcircuit.workbook.write import type_rows, write_outputs
from xlcircuit.xlsx import Book, libreoffice, save_atomic


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
    assert wb.sheetnames == ["Saison", "Joueurs", "Matchs", "Classements", "Classement général", "Points",
                             "Mouvements", "Saison suivante", "Calendrier", "Palmarès", "Journal"]
    assert not wb["Classements"].tables  # the groups' tables come with the first fill
    assert table_rows(wb["Saison"], "Parametres") == [["Paramètre", "Valeur"], ["Saison", None], ["Graine", None]]
    assert table_rows(wb["Joueurs"], "Joueurs")[0] == ["Joueur", "Elo", "Division", "Groupe", "Statut", "Club",
                                                       "Identifiant", "Alias"]
    assert table_rows(wb["Matchs"], "Matchs")[0] == ["Division", "Groupe", "Match", "Joueur", "Points", "Retard",
                                                       "Source"]
    assert table_rows(wb["Classement général"], "ClassementGeneral")[0] == [
        "Division", "Groupe", "Rang", "Joueur", "Statut", "Matchs", "Points de victoire", "Différence",
        "Points particuliers", "Elo", "Mouvement"]
    assert wb.custom_doc_props["xlcircuit"].value == "torres"
    lists = [dv.formula1 for dv in wb["Joueurs"].data_validations.dataValidation]
    assert '"actif,forfait,retrait,nouveau,retour,parti"' in lists


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
    # The fictitious « Forfait » is placed by his points like anyone (source « Classement »: « suivant la place
    # obtenue dans la partie »): last of each of his four matches here (45, 42, 46, 31), he takes the 1 VP of
    # the 4th place, which count for nobody.
    fictitious = [p for p in points if p["Joueur"] == "Forfait"]
    assert len(fictitious) == 4 and all((p["Place"], p["Points de victoire"]) == (4, 1) and "fictif" in p["Remarque"]
                                        for p in fictitious)


def test_general_standings_one_table_sorted_with_every_tie_breaker(filled):
    wb, summary = filled
    rows = table_dicts(wb["Classement général"], "ClassementGeneral")
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
    last = d1[-1]
    assert (last["Joueur"], last["Statut"], last["Mouvement"], last["Matchs"]) == ("Gaspard", "forfait", "forfait", 2)
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


def test_the_forfeit_players_points_are_typed_and_agree_with_torres_vp(tmp_path):
    # The case: A 100, Forfait 95, B 90, C 80. The fictitious player replaces D (forfeit) and takes
    # the 2nd place by his points: A 8, B 2, C 1 in the Points table, in the standings and from TORRES_VP.
    joueurs = [("A", 1500, 1, 1), ("B", 1500, 1, 1), ("C", 1500, 1, 1), ("D", 1500, 1, 1, "forfait")]
    matchs = [(1, 1, 1, "A", 100, None), (1, 1, 1, "Forfait", 95, None), (1, 1, 1, "B", 90, None),
              (1, 1, 1, "C", 80, None)]
    path = workbook(tmp_path, joueurs, matchs)
    book = Book(path)
    torres_book.fill(book)
    book.save()
    wb = openpyxl.load_workbook(path)
    points = {p["Joueur"]: (p["Place"], p["Points de victoire"]) for p in table_dicts(wb["Points"], "Points")}
    assert points == {"A": (1, 8), "Forfait": (2, 4), "B": (3, 2), "C": (4, 1)}
    assert [v for _, v in points.values()] == [row[0] for row in TORRES_VP([[100.0], [95.0], [90.0], [80.0]])]
    general = table_dicts(wb["Classement général"], "ClassementGeneral")
    standings = {r["Joueur"]: r["Points de victoire"] for r in general}
    assert standings == {"A": 8, "B": 2, "C": 1, "D": 0}


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
    assert torres_book.report(summary)[0].startswith("0 joueur en 0 division")  # French: 0 and 1 take the singular


def read_calendar(path: Path) -> list[dict]:
    return table_dicts(openpyxl.load_workbook(path)["Calendrier"], "Calendrier")


def test_schedule_command_draws_each_group_and_is_reproducible(tmp_path, capsys):
    joueurs = [row[:4] + (None,) for row in load("torres").JOUEURS if row[4] != "nouveau"]
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
    assert typed == [m[:3] for m in load("torres").MATCHS]
    # The same seed again (given or the season's) gives the same calendar; another seed another one.
    assert main(["schedule", str(path), "--seed", "2026", "-o", str(tmp_path / "b.xlsx")]) == 0
    assert read_calendar(tmp_path / "b.xlsx") == calendar
    assert main(["schedule", str(path), "--seed", "7", "-o", str(tmp_path / "c.xlsx")]) == 0
    assert read_calendar(tmp_path / "c.xlsx") != calendar
    # The empty Matchs table received the calendar, points to type; such a season fills (no match played).
    matchs = table_dicts(openpyxl.load_workbook(tmp_path / "a.xlsx")["Matchs"], "Matchs")
    assert len(matchs) == len(calendar) and all(r["Points"] is None for r in matchs)
    assert main(["fill", str(tmp_path / "a.xlsx")]) == 0


def test_schedule_draws_the_closest_calendar_for_other_sizes_and_checks_joueurs_first(tmp_path, capsys):
    path = workbook(tmp_path, [(f"J{i}", 1500, 1, 1) for i in range(8)] + [("X", "haut", 2, 1)])
    assert main(["schedule", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Joueurs!B10" in err and "Elo" in err
    # Eight players: no calendar where every pair meets exactly twice; the closest one (8 matches, 4 each,
    # every pair once or twice), said so.
    path = workbook(tmp_path, [(f"J{i}", 1500, 1, 1) for i in range(8)])
    assert main(["schedule", str(path)]) == 0
    out = capsys.readouterr().out
    assert "à 8 joueurs, pas de calendrier où chaque paire se rencontre exactement deux fois" in out
    assert "8 matchs, 4 par joueur" in out
    calendar = read_calendar(path)
    assert len(calendar) == 32 and set(Counter(r["Joueur"] for r in calendar).values()) == {4}
    # Three players cannot play a match of four: refused.
    path = workbook(tmp_path, [(f"J{i}", 1500, 1, 1) for i in range(3)])
    assert main(["schedule", str(path)]) == 1
    assert "3 joueurs" in capsys.readouterr().err


def test_default_seed_comes_from_the_season_name(tmp_path, capsys):
    joueurs = [(f"J{i}", 1500, 1, 1) for i in range(10)]
    path = workbook(tmp_path, joueurs, parametres=[("Saison", "été 2026"), ("Graine", None)])
    assert main(["schedule", str(path)]) == 0
    # zlib.crc32 of the season's name in UTF-8, a documented default.
    assert f"graine du tirage : {zlib.crc32('été 2026'.encode())}" in capsys.readouterr().out


# --- the Classements sheet: one table per group -------------------------------------------------


GROUP_HEADERS = ["Rang", "Joueur", "Statut", "Matchs", "Points de victoire", "Différence", "Points particuliers",
                 "Elo", "Mouvement"]
EXAMPLE_GROUPS = ["Classement_D1_G1", "Classement_D2_G1", "Classement_D2_G2", "Classement_D3_G1",
                  "Classement_D3_G2", "Classement_D3_G3", "Classement_D3_G4"]


def group_tables(ws) -> list[tuple[str, tuple[int, int, int, int]]]:
    """The group tables of the Classements sheet, top to bottom, with their bounds."""
    tables = [(name, range_boundaries(ref)) for name, ref in ws.tables.items()]  # items() gives refs
    return sorted(tables, key=lambda t: (t[1][1], t[1][0]))


def filled_cells(ws) -> dict[str, object]:
    return {c.coordinate: c.value for row in ws.iter_rows() for c in row if c.value is not None}


def test_classements_has_one_table_per_group_under_its_title(filled):
    wb, summary = filled
    ws = wb["Classements"]
    tables = group_tables(ws)
    assert [name for name, _ in tables] == EXAMPLE_GROUPS
    general = table_dicts(wb["Classement général"], "ClassementGeneral")
    breaks = [b.id for b in ws.row_breaks.brk]
    previous_end = 0
    for name, (min_col, min_row, max_col, max_row) in tables:
        d, g = (int(part[1:]) for part in name.split("_")[1:])
        assert min_col == 1 and min_row > previous_end + 2  # stacked, a title and blank rows between
        heading = ws.cell(min_row - 2, min_col)
        where = "division 1" if d == 1 else f"division {d}, groupe {g}"
        assert heading.value.startswith(f"Championnat TORRES printemps 2026 — {where} au ")
        assert heading.font.bold
        rows = table_rows(ws, name)
        assert rows[0] == GROUP_HEADERS
        # Every tie-breaker of the group, as in the general table (which adds Division and Groupe).
        assert rows[1:] == [[r[h] for h in GROUP_HEADERS] for r in general if (r["Division"], r["Groupe"]) == (d, g)]
        # Each group but the first starts on a new page; its data bars are its own.
        assert (heading.row - 1 in breaks) == (name != EXAMPLE_GROUPS[0])
        bars = [str(cf.sqref) for cf in ws.conditional_formatting]
        assert f"E{min_row + 1}:E{max_row}" in bars
        previous_end = max_row
    assert len(breaks) == len(EXAMPLE_GROUPS) - 1
    assert not ws.sheet_properties.pageSetUpPr.fitToPage  # Excel ignores page breaks under fit-to-page
    assert ws.page_setup.orientation == "landscape" and ws.freeze_panes is None
    # The same colours as the general table: champion, ups, downs, forfeits.
    colour = {name: {ws.cell(r, 2).value: ws.cell(r, 1).fill.fgColor.rgb for r in range(b[1] + 1, b[3] + 1)}
              for name, b in tables}
    assert colour["Classement_D1_G1"]["Igor"].endswith(torres_book.COLOURS["champion"])
    assert colour["Classement_D1_G1"]["Gaspard"].endswith(torres_book.COLOURS["leaves"])
    assert colour["Classement_D1_G1"]["Jeanne"].endswith(torres_book.COLOURS["down"])
    assert colour["Classement_D2_G1"]["Tiphaine"].endswith(torres_book.COLOURS["up"])
    assert colour["Classement_D1_G1"]["Éloïse"] == "00000000"  # stays: no colour


def output_parts(path: Path) -> dict[str, bytes]:
    """Every part of a saved workbook but its modification date."""
    with zipfile.ZipFile(path) as archive:
        return {n: archive.read(n) for n in archive.namelist() if n != "docProps/core.xml"}


def fill_file(path: Path) -> Path:
    book = Book(path)
    torres_book.fill(book)
    return book.save()


def retype_players(path: Path, joueurs) -> None:
    wb = openpyxl.load_workbook(path)
    type_rows(wb, torres_book.JOUEURS, [tuple(row) + (None,) * (6 - len(row)) for row in joueurs])
    save_atomic(wb, path)


def test_refilling_keeps_the_organisers_notes_and_changes_not_a_byte(tmp_path):
    path = fill_file(example(tmp_path))
    wb = openpyxl.load_workbook(path)
    wb["Classements"]["T5"] = "note de l'organisateur"
    wb["Classements"]["K200"] = 42
    save_atomic(wb, path)
    once = output_parts(fill_file(path))
    twice = output_parts(fill_file(path))
    assert once == twice
    ws = openpyxl.load_workbook(path)["Classements"]
    assert (ws["T5"].value, ws["K200"].value) == ("note de l'organisateur", 42)
    assert [name for name, _ in group_tables(ws)] == EXAMPLE_GROUPS


def test_group_tables_are_laid_out_afresh_when_groups_change(tmp_path):
    d1 = [(f"Un{i}", 1500 + i, 1, 1) for i in range(10)]
    path = workbook(tmp_path, d1[:5])
    fill_file(path)
    wb = openpyxl.load_workbook(path)
    wb["Classements"]["T5"] = "note"
    save_atomic(wb, path)
    assert [name for name, _ in group_tables(wb["Classements"])] == ["Classement_D1_G1"]
    # The single group grows, then two groups of D2 appear under it: nothing collides.
    retype_players(path, d1)
    fill_file(path)
    d2 = [(f"Deux{i}", 1400 + i, 2, 1 + i % 2) for i in range(11)]
    retype_players(path, d1 + d2)
    fill_file(path)
    ws = openpyxl.load_workbook(path)["Classements"]
    tables = group_tables(ws)
    assert [(name, b[3] - b[1]) for name, b in tables] == [
        ("Classement_D1_G1", 10), ("Classement_D2_G1", 6), ("Classement_D2_G2", 5)]
    # Back to one group of five: the other tables, their titles, colours, data bars and page breaks go;
    # the note stays.
    retype_players(path, d1[:5])
    fill_file(path)
    ws = openpyxl.load_workbook(path)["Classements"]
    (name, (min_col, min_row, max_col, max_row)), = group_tables(ws)
    assert (name, min_row, max_row) == ("Classement_D1_G1", 3, 8)
    left = filled_cells(ws)
    assert left.pop("T5") == "note"
    assert left.pop("A1").startswith("Championnat TORRES — division 1 au ")
    assert all(range_boundaries(f"{c}:{c}")[1] in range(3, 9) for c in left)
    assert not [c.coordinate for row in ws.iter_rows(min_row=9) for c in row if c.fill.fill_type is not None]
    assert [str(cf.sqref) for cf in ws.conditional_formatting] == ["E4:E8"]
    assert not ws.row_breaks.brk
    assert ws.row_dimensions[18].height is None  # the header height of D2 G1's table is gone too


def test_group_tables_never_cover_the_organisers_cells(tmp_path, capsys):
    d1 = [(f"Un{i}", 1500 + i, 1, 1) for i in range(10)]
    path = workbook(tmp_path, d1[:5])
    fill_file(path)
    wb = openpyxl.load_workbook(path)
    wb["Classements"]["B12"] = "à garder"  # where the single group's table will grow
    save_atomic(wb, path)
    retype_players(path, d1)
    before = path.read_bytes()
    assert main(["fill", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Classements!B12" in err and "Classement_D1_G1" in err
    assert path.read_bytes() == before


def test_a_table_of_the_former_single_standings_is_replaced(tmp_path):
    # Workbooks filled before the groups had their own tables hold one « Classements » table on that sheet.
    path = workbook(tmp_path, [(f"Un{i}", 1500 + i, 1, 1) for i in range(6)])
    wb = openpyxl.load_workbook(path)
    legacy = TableSpec("Classements", "Classements", torres_book.GENERAL.columns)
    write_outputs(wb, [Output(legacy, legacy.columns, [[1, 1, 1, "Un0"] + [None] * 7], "ancien titre")])
    save_atomic(wb, path)
    fill_file(path)
    ws = openpyxl.load_workbook(path)["Classements"]
    assert [name for name, _ in group_tables(ws)] == ["Classement_D1_G1"]
    assert "ancien titre" not in filled_cells(ws).values()


def test_the_group_tables_as_libreoffice_shows_them(tmp_path):
    path = fill_file(example(tmp_path))
    ws = openpyxl.load_workbook(path)["Classements"]
    grid = sheets_as_csv(path, tmp_path / "csv")["Classements"]
    for name, (min_col, min_row, max_col, _) in group_tables(ws):
        title = ws.cell(min_row - 2, min_col).value
        assert grid[min_row - 3][min_col - 1] == title
        for i, row in enumerate(table_rows(ws, name)):
            shown = grid[min_row - 1 + i][min_col - 1:max_col]
            expected = ["" if v is None else v for v in row]
            read = [float(text) if isinstance(v, (int, float)) else text for text, v in zip(shown, expected)]
            assert read == [pytest.approx(v) if isinstance(v, (int, float)) else v for v in expected], (name, i)


def test_each_group_prints_on_a_page_of_its_own(tmp_path):
    need_libreoffice()
    wb = openpyxl.load_workbook(fill_file(example(tmp_path)))
    for name in wb.sheetnames[:]:
        if name != "Classements":
            del wb[name]
    only = save_atomic(wb, tmp_path / "groupes.xlsx")
    pdf = libreoffice.convert(only, tmp_path / "pdf", "pdf")[0].read_bytes()
    # Seven groups, seven pages: the page breaks hold, and the scale keeps the nine columns on one page.
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == len(EXAMPLE_GROUPS)


# --- what the workbook reads is bounded: the core never refuses it --------------------------------


TEN = [(n, 1500, 1, 1) for n in "ABCDEFGHIJ"]


def match_of(points) -> list[tuple]:
    return [(1, 1, 1, name, p, None) for name, p in zip("ABCD", points)]


@pytest.mark.parametrize("elo, found", [(1e300, "1e+300"), (-2e9, "-2000000000"), ("1e300", "« 1e300 »"),
                                        ("inf", "« inf »"), ("haut", "« haut »")])
def test_an_elo_out_of_bounds_is_a_located_problem(tmp_path, elo, found):
    path = workbook(tmp_path, [("A", elo, 1, 1)] + TEN[1:])
    with pytest.raises(WorkbookProblems) as caught:
        torres_book.compute(Book(path))
    (problem,) = caught.value.problems
    assert (problem.sheet, problem.cell, problem.column) == ("Joueurs", "B2", "Elo")
    assert problem.message == f"Elo attendu : un nombre de -1 000 000 000 à 1 000 000 000 ; trouvé {found}"
    assert main(["schedule", str(path)]) == 1  # the calendar reads the same table


@pytest.mark.parametrize("points, found", [(1e300, "1e+300"), (-5, "-5"), ("1e10", "« 1e10 »"), ("nan", "« nan »")])
def test_points_out_of_bounds_are_a_located_problem(tmp_path, points, found):
    path = workbook(tmp_path, TEN, match_of([points, 10, 20, 30]))
    with pytest.raises(WorkbookProblems) as caught:
        torres_book.compute(Book(path))
    problem = caught.value.problems[0]  # then: the match has three good lines
    assert (problem.sheet, problem.cell, problem.column) == ("Matchs", "E2", "Points")
    assert problem.message == f"points particuliers attendus : un nombre de 0 à 1 000 000 000 ; trouvé {found}"


def test_the_bounds_themselves_are_taken(tmp_path):
    path = workbook(tmp_path, [("A", torres.MAX_NUMBER, 1, 1), ("B", -torres.MAX_NUMBER, 1, 1)] + TEN[2:],
                    match_of([torres.MAX_NUMBER, 0, 20, 30]))
    summary = torres_book.compute(Book(path))
    assert summary.standings[1, 1][0].player.name == "A"


@pytest.mark.parametrize("division", [40, 1e300, 11])
def test_a_division_too_deep_is_a_located_problem_not_a_hang(tmp_path, division):
    # Division d has 2 ** (d - 1) groups: D40 would have the check walk half a trillion groups.
    path = workbook(tmp_path, TEN + [("K", 1500, division, 1)], [(division, 1, 1, "A", 10, None)])
    with pytest.raises(WorkbookProblems) as caught:
        torres_book.compute(Book(path))
    found = {(p.cell, p.message) for p in caught.value.problems}
    expected = f"numéro de division attendu : un entier de 1 à {torres_book.MAX_DIVISION} ; trouvé {division}"
    assert {("C12", expected), ("A2", expected)} <= found


def test_where_players_are_is_checked_by_the_core_and_located_in_joueurs(tmp_path):
    # torres.md §1: D1 one group of ten; D2 two groups (the lowest: 4 to 10 each).
    joueurs = ([(f"A{i}", 1500, 1, 1) for i in range(9)]  # D1 with 9: rows 2-10
               + [(f"B{i}", 1500, 2, 1) for i in range(4)]  # rows 11-14; D2 group 2 left empty
               + [("Cid", 1500, 2, 3), ("Dee", 1500, None, 1, "actif"), ("Eve", 1500, 2, None, "nouveau"),
                  ("Fay", 1500, None, None, "retour")])  # rows 15-18
    path = workbook(tmp_path, joueurs)
    with pytest.raises(WorkbookProblems) as caught:
        torres_book.fill(Book(path))
    assert [str(p) for p in caught.value.problems] == [
        "Joueurs!D15 (colonne « Groupe ») : la D2 a 2 groupes ; trouvé le groupe 3",
        "Joueurs!C16 (colonne « Division ») : division manquant : un joueur actif joue cette saison dans une "
        "division et un groupe (sinon : nouveau, retour ou parti)",
        "Joueurs!C17 (colonne « Division ») : un nouveau joueur n'a ni division ni groupe cette saison : videz ces "
        "cellules (il entrera en division la plus basse)",
        "Joueurs!C18 (colonne « Division ») : division manquante : celle où le joueur revient",
        "Joueurs!D2 (colonne « Groupe ») : D1 groupe 1 : 9 joueurs ; 10 attendus hors de la division la plus basse",
        "Joueurs (colonne « Division ») : la D2 n'a aucun joueur dans son groupe 2 : la division 2 a 2 groupes (la "
        "plus basse ici est la D2)",
    ]
