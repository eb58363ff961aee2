"""The parts of the xlwings Lite scripts that need no Pyodide (``xlcircuit.excel.openbook`` and ``.scripts``):
how cells become areas, how a value is given to Excel, how the federation is found from the tables, and what the
scripts say when Lite lacks a package or something breaks. The scripts themselves run in Pyodide in
``test_lite_scripts.py``.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import openpyxl
import pytest

from xlcircuit import excel
from xlcircuit.excel import lite, openbook, scripts
from xlcircuit.federations import ADAPTERS, CODES
from xlcircuit.rules.errors import WorkbookError
from xlcircuit.workbook.write import add_input_table
from xlcircuit.xlsx import Book

ROOT = Path(__file__).parent.parent


def test_cells_become_row_runs_merged_downwards():
    cells = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 5), (4, 5), (4, 7), (6, 5)]
    assert sorted(openbook.runs(cells)) == [(1, 1, 2, 2), (5, 3, 5, 4), (5, 6, 5, 6), (7, 4, 7, 4)]
    assert openbook.runs([]) == []


def test_equal_neighbours_become_column_runs():
    assert list(openbook.column_runs([10, 10, None, 8, 8, 8])) == [(0, 1, 10), (2, 2, None), (3, 5, 8)]


def test_a_value_is_given_to_excel_as_typed_text_or_an_iso_date():
    assert openbook.typed("=HYPERLINK(1)") == "'=HYPERLINK(1)"  # an apostrophe: Excel keeps the text as text
    assert openbook.typed("1/2") == "'1/2"
    assert openbook.typed(None) == ""
    assert openbook.typed(dt.date(2025, 10, 4)) == "2025-10-04"
    assert openbook.typed(dt.datetime(2025, 10, 4)) == "2025-10-04"
    assert openbook.typed(dt.datetime(2025, 10, 4, 18, 30)) == "2025-10-04 18:30:00"
    assert openbook.typed(3.5) == 3.5 and openbook.typed(True) is True


@pytest.mark.parametrize("code", CODES)
def test_the_federation_is_found_from_its_template_tables(code):
    book = Book.in_memory(ADAPTERS[code].new_workbook(), "saison.xlsx")
    assert openbook.adapter_of(book).code == code


def test_a_workbook_missing_a_table_is_the_closest_federations_and_its_check_names_the_table():
    wb = ADAPTERS["tdf"].new_workbook()
    del wb["Tournois"].tables["Tournois"]
    book = Book.in_memory(wb, "saison.xlsx")
    assert openbook.adapter_of(book).code == "tdf"
    with pytest.raises(Exception, match="table « Tournois » introuvable"):
        openbook.adapter_of(book).compute(book)


def test_no_tables_or_two_federations_tables_alike_are_one_sentence():
    with pytest.raises(WorkbookError, match=r"vide\.xlsx n'a aucune table d'un classeur xlcircuit"):
        openbook.adapter_of(Book.in_memory(openpyxl.Workbook(), "vide.xlsx"))
    wb = openpyxl.Workbook()
    for code in ("tdf", "torres"):  # each one's two input tables, whole: nothing tells them apart
        for spec in ADAPTERS[code].inputs:
            wb.create_sheet(f"{code} {spec.sheet}")
            add_input_table(wb, spec.__class__(f"{code} {spec.sheet}", spec.name, spec.columns))
    with pytest.raises(WorkbookError, match=r"deux\.xlsx a les tables de plusieurs fédérations "
                                            r"\(« Tour de France de Diplomatie » et « Championnat TORRES »\)"):
        openbook.adapter_of(Book.in_memory(wb, "deux.xlsx"))


def test_an_in_memory_workbook_is_never_saved(tmp_path):
    book = Book.in_memory(openpyxl.Workbook(), "classeur.xlsx")
    with pytest.raises(WorkbookError, match="c'est Excel qui l'enregistre"):
        book.save(tmp_path / "classeur.xlsx")
    assert not (tmp_path / "classeur.xlsx").exists()


class Recorded:
    """What a script is given, as far as these tests need: the actions recorded so far."""

    name = "saison.xlsx"

    def __init__(self):
        self.actions = [{"func": "setValues"}]

    def json(self):
        return {"actions": self.actions}


def test_without_openpyxl_the_scripts_say_what_to_add_to_requirements(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "xlcircuit.excel.openbook", None)  # as if Lite had not installed openpyxl
    monkeypatch.delattr(excel, "openbook")
    scripts._run(Recorded(), "verify")
    said = capsys.readouterr().out
    assert "ajoutez les lignes « openpyxl » et « defusedxml » à l'onglet requirements.txt" in said


def test_a_failure_that_is_no_deliberate_error_writes_nothing_and_says_so_in_one_sentence(monkeypatch):
    def broken(book):
        raise KeyError("bug")

    monkeypatch.setattr(openbook, "fill", broken)
    book = Recorded()
    with pytest.raises(RuntimeError, match=r"^xlcircuit : erreur inattendue \(KeyError : 'bug'\) ; rien n'a été écrit"):
        scripts._run(book, "fill")
    assert book.actions == []  # nothing recorded reaches Excel


def test_the_readme_shows_the_files_lite_needs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Dans Excel, sans rien installer (xlwings Lite)\n", 1)[1].split("\n## ", 1)[0]
    assert lite.main(published=True).rstrip("\n") in section  # the three-line main.py, as the generator writes it
    for line in lite.requirements().splitlines():
        assert f"`{line}`" in section
    for step in ("Compléments", "xlwings", "requirements.txt", "main.py", "Restart", "Vérifier", "Remplir",
                 "« À vérifier »", "100 tournois", "xlcircuit share", "pip wheel --no-deps"):
        assert step in section, step
