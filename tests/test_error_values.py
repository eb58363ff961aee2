"""Excel's error values (``#N/A``, ``#REF!``…) in an input cell: a located problem, never a player, a place or a
club; the same in ``check`` and ``fill``, in every federation."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from conftest import example, write_season

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS
from xlcircuit.workbook.read import find_table

#: The error values a file stores (ECMA-376 and Excel 365's newer ones).
ERRORS = ["#N/A", "#REF!", "#VALUE!", "#DIV/0!", "#NAME?", "#NUM!", "#NULL!", "#SPILL!", "#CALC!", "#GETTING_DATA"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def set_cells(path: Path, sheet: str, cells: dict[str, str]) -> Path:
    """Replace cells of a saved workbook by raw XML (what Excel writes for an error cell or a formula whose
    last value is an error: openpyxl writes neither)."""
    index = openpyxl.load_workbook(path).sheetnames.index(sheet) + 1
    part = f"xl/worksheets/sheet{index}.xml"
    with zipfile.ZipFile(path) as old:
        parts = {info.filename: old.read(info) for info in old.infolist()}
    xml = parts[part].decode()
    for ref, cell in cells.items():
        xml, count = re.subn(rf'<c r="{ref}"[^>]*?(?:/>|>.*?</c>)', cell.replace("{r}", ref), xml, count=1, flags=re.S)
        assert count == 1, ref
    parts[part] = xml.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for name, data in parts.items():
            new.writestr(name, data)
    return path


ERROR_CELL = '<c r="{r}" t="e"><v>%s</v></c>'
LOOKUP_CELL = '<c r="{r}" t="e"><f>VLOOKUP(Z1,Joueurs!A:B,2,FALSE)</f><v>%s</v></c>'


def season(tmp_path: Path) -> Path:
    """Three players at two tournaments: Alice wins both."""
    return write_season(tmp_path / "saison.xlsx",
                        [("Open A", dt.date(2025, 10, 1), "normal", None), ("Open B", dt.date(2025, 11, 1), "normal", None)],
                        [("Open A", "Alice", 1, None, None), ("Open A", "Bruno", 2, None, None),
                         ("Open A", "Chloé", 3, None, None), ("Open B", "Alice", 1, None, None),
                         ("Open B", "Bruno", 2, None, None), ("Open B", "Chloé", 3, None, None)])


def test_two_failed_lookups_in_the_name_column_are_located_problems_not_a_winner(tmp_path, capsys):
    path = set_cells(season(tmp_path), "Résultats", {"B2": ERROR_CELL % "#N/A", "B5": LOOKUP_CELL % "#N/A"})
    before = digest(path)
    assert main(["check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "est correct" not in out
    lines = err.splitlines()
    assert lines[0] == "2 problèmes dans le classeur :"
    assert lines[1].startswith("  - Résultats!B2 (colonne « Joueur ») : la cellule contient l'erreur #N/A (valeur non "
                               "disponible : souvent une recherche (RECHERCHEV, INDEX/EQUIV) qui n'a rien trouvé)")
    assert lines[2].startswith("  - Résultats!B5 (colonne « Joueur ») : la formule de cette cellule donne l'erreur #N/A")
    assert "corrigez la formule" in lines[2]
    assert main(["fill", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "Classeur rempli" not in out and "Résultats!B2" in err and "Résultats!B5" in err
    assert digest(path) == before


@pytest.mark.parametrize("error", ERRORS)
def test_every_error_value_in_a_place_is_named_with_its_french_spelling(tmp_path, capsys, error):
    path = set_cells(season(tmp_path), "Résultats", {"C3": ERROR_CELL % error})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    problems = [line for line in err.splitlines() if line.startswith("  - ")]
    assert problems == [problems[0]]  # one problem at that cell, not a second « place attendue »
    assert problems[0].startswith(f"  - Résultats!C3 (colonne « Place ») : la cellule contient l'erreur {error}")
    french = {"#VALUE!": "#VALEUR!", "#NAME?": "#NOM?", "#NUM!": "#NOMBRE!", "#NULL!": "#NUL!",
              "#SPILL!": "#PROPAGATION!", "#GETTING_DATA": "#OBTENTION_DONNEES"}
    if error in french:
        assert f"(« {french[error]} » dans Excel en français)" in problems[0]


def test_an_error_pasted_as_text_and_a_libreoffice_error_are_problems_too(tmp_path, capsys):
    path = set_cells(season(tmp_path), "Résultats",
                     {"B3": '<c r="{r}" t="inlineStr"><is><t>#REF!</t></is></c>',
                      "A4": '<c r="{r}" t="e"><v>Err:502</v></c>'})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Résultats!B3 (colonne « Joueur ») : la cellule contient l'erreur #REF! (référence à des cellules " \
           "supprimées)" in err
    assert "Résultats!A4 (colonne « Tournoi ») : la cellule contient l'erreur Err:502 (erreur du tableur)" in err


def test_a_line_whose_every_cell_is_an_error_is_not_taken_for_a_blank_line(tmp_path, capsys):
    path = set_cells(season(tmp_path), "Résultats", {f"{c}7": ERROR_CELL % "#REF!" for c in "ABC"})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert [line[4:16] for line in err.splitlines() if line.startswith("  - ")] == \
        ["Résultats!A7", "Résultats!B7", "Résultats!C7"]


@pytest.mark.parametrize("code", list(ADAPTERS))
def test_an_error_value_in_any_input_table_of_any_federation_is_a_located_problem(tmp_path, capsys, code):
    """The first data cell of each input table that has rows, made ``#N/A``: one problem each, at that cell."""
    adapter = ADAPTERS[code]
    path = example(adapter, tmp_path)
    wb = openpyxl.load_workbook(path)
    wanted: dict[str, dict[str, str]] = {}
    for spec in adapter.inputs:
        found = find_table(wb, spec.name)
        if found is None:
            continue
        ws, table = found
        first = openpyxl.utils.range_boundaries(table.ref)
        ref = f"{openpyxl.utils.get_column_letter(first[0])}{first[1] + 1}"
        if ws[ref].value is not None:
            wanted.setdefault(ws.title, {})[ref] = ERROR_CELL % "#N/A"
    assert wanted
    for sheet, cells in wanted.items():
        set_cells(path, sheet, cells)
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    located = {line[4:].split(" ", 1)[0] for line in err.splitlines() if "l'erreur #N/A" in line}
    assert located == {f"{sheet}!{ref}" for sheet, cells in wanted.items() for ref in cells}
    assert main(["fill", str(path)]) == 1


# --- numbers no spreadsheet makes, digits no place is made of ------------------------------------------------

HUGE = '<c r="{r}"><v>' + "9" * 400 + "</v></c>"


def input_cells(adapter, path: Path) -> dict[str, list[str]]:
    """Every cell holding a value in the first data row of every input table, by sheet."""
    wb = openpyxl.load_workbook(path)
    cells: dict[str, list[str]] = {}
    for spec in adapter.inputs:
        found = find_table(wb, spec.name)
        if found is None:
            continue
        ws, table = found
        first_col, first_row, last_col, last_row = openpyxl.utils.range_boundaries(table.ref)
        cells.setdefault(ws.title, []).extend(f"{openpyxl.utils.get_column_letter(c)}{first_row + 1}"
                                              for c in range(first_col, last_col + 1)
                                              if ws.cell(first_row + 1, c).value is not None)
    return cells


@pytest.mark.parametrize("code", list(ADAPTERS))
def test_a_number_of_400_digits_in_every_input_cell_is_a_located_problem_not_a_traceback(tmp_path, capsys, code):
    """What a damaged file or a paste from a program holds where a count, a place, a date, a class is expected."""
    adapter = ADAPTERS[code]
    path = example(adapter, tmp_path)
    for sheet, refs in input_cells(adapter, path).items():
        set_cells(path, sheet, dict.fromkeys(refs, HUGE))
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith(tuple(f"{n} problème" for n in range(1, 1000))), err


@pytest.mark.parametrize("cell, found", [
    ('<c r="{r}" t="inlineStr"><is><t>' + "9" * 5000 + "e</t></is></c>", "place attendue"),  # past int()'s 4300 digits
    ('<c r="{r}" t="inlineStr"><is><t>²</t></is></c>', "place attendue"),  # a superscript is no place
])
def test_a_place_written_with_odd_digits_is_refused_in_one_sentence(tmp_path, capsys, cell, found):
    path = set_cells(season(tmp_path), "Résultats", {"C3": cell})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"Résultats!C3 (colonne « Place ») : {found}" in err and "Traceback" not in err


def test_a_cdf_table_named_by_a_superscript_is_a_name(tmp_path, capsys):
    """Table 1 renamed « ² » in every table that names it: a name like « A », published as typed."""
    adapter = ADAPTERS["cdf"]
    path = example(adapter, tmp_path)
    wb = openpyxl.load_workbook(path)
    renamed = {}
    for spec in adapter.inputs:
        found = find_table(wb, spec.name)
        if found is None:
            continue
        ws, table = found
        first_col, first_row, last_col, last_row = openpyxl.utils.range_boundaries(table.ref)
        for col in range(first_col, last_col + 1):
            if ws.cell(first_row, col).value == "Table":
                letter = openpyxl.utils.get_column_letter(col)
                renamed.setdefault(ws.title, {}).update({f"{letter}{r}": '<c r="{r}" t="inlineStr"><is><t>²</t></is></c>'
                                                         for r in range(first_row + 1, last_row + 1)
                                                         if ws.cell(r, col).value in (1, "1")})
    assert renamed
    for sheet, cells in renamed.items():
        set_cells(path, sheet, cells)
    assert main(["fill", str(path)]) == 0, capsys.readouterr().err
    wb = openpyxl.load_workbook(path)
    published = [ws for ws in wb.worksheets if ws.title not in {spec.sheet for spec in adapter.inputs}]
    assert any("²" in row for ws in published for row in ws.iter_rows(values_only=True))
