"""Workbooks saved by real Excel (``tests/excel_made/``, from XlsxWriter's comparison files), filled through the
engine as a season is: a fill that owns a table on a sheet it adds, and one that owns one of Excel's sheets whole.
Every part of the organiser's is copied byte for byte (compressed bytes included); the parts a fill changes stay
right: the calc chain (every Excel workbook with formulas has one), the defined names, the calculation properties,
the custom properties. Each file is also tried as other programs write them: with every element of the
spreadsheet namespace prefixed (``<x:workbook>``), and without ``calcPr``."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Font
from openpyxl.worksheet.table import Table
from test_package import raw_members

from xlcircuit.xlsx import Book, Owned, mark_federation
from xlcircuit.xlsx.parts import calc_chain, custom, workbook
from xlcircuit.xlsx.validate import package_problems

FILES = Path(__file__).resolve().parent / "excel_made"
#: The six of them that carry a calc chain, custom properties, array formulas, outlines (see the folder's README).
EXCEL = ["array_formula01.xlsx", "outline01.xlsx", "properties04.xlsx", "quote_name05.xlsx", "table08.xlsx",
         "tutorial02.xlsx"]
MAIN = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"
#: The parts a fill may change; every other part of the package is copied as it is.
CHANGED = {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[Content_Types].xml", "docProps/app.xml", "xl/styles.xml",
           "_rels/.rels", "docProps/custom.xml"}
_UNPREFIXED = re.compile(rb"<(/?)(?=[A-Za-z_][\w.-]*[\s/>])")


def _prefixed(data: bytes) -> bytes:
    """A part of the spreadsheet namespace as tools built on the Open XML SDK write it: ``<x:workbook xmlns:x=…>``."""
    if b'xmlns="' + MAIN + b'"' not in data:
        return data
    return _UNPREFIXED.sub(rb"<\1x:", data.replace(b'xmlns="' + MAIN + b'"', b'xmlns:x="' + MAIN + b'"', 1))


def _without_calc_pr(name: str, data: bytes) -> bytes:
    return re.sub(rb"<calcPr\b[^>]*/>", b"", data) if name == "xl/workbook.xml" else data


def variant(name: str, kind: str, folder: Path) -> Path:
    """The Excel file ``name``, as Excel saved it, or rewritten as another program would (``kind``)."""
    source = FILES / name
    if kind == "excel":
        return source
    target = folder / f"{kind}-{name}"
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            data = _prefixed(data) if kind == "prefixed" else _without_calc_pr(info.filename, data)
            new.writestr(info, data)
    return target


def fill(source: Path, target: Path, owned: Owned) -> Book:
    """What a federation's fill does through the engine: own, write an output table, mark, save."""
    book = Book(source)
    book.own(owned, "tdf")
    ws = book.wb["Sortie"] if "Sortie" in book.wb.sheetnames else book.wb.create_sheet("Sortie")
    if "Sortie" in ws.tables:  # a refill: the table is written anew, as the federations' fills do
        del ws.tables["Sortie"]
    for r, row in enumerate((["Joueur", "Points"], ["Alice", 12.5], ["Bruno", 7]), start=1):
        for c, value in enumerate(row, start=1):
            ws.cell(r, c, value)
    ws["A1"].font = Font(bold=True, color="FF0000")  # a style the workbook does not have yet
    ws.add_table(Table(displayName="Sortie", ref="A1:B3"))
    ws.print_title_rows = "1:1"
    mark_federation(book.wb, "tdf")
    book.save(target)
    return book


def names(xml: bytes) -> list[tuple[str | None, str | None, str]]:
    """The defined names of a workbook part: (name, localSheetId, text) each."""
    located = workbook._workbook(xml, "xl/workbook.xml")[0]
    return [(n.attrs.get("name"), n.attrs.get("localSheetId"), located.text(n)) for n in located.nodes
            if n.name == "definedName"]


def read(path: Path, part: str) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read(part)


@pytest.mark.parametrize("kind", ["excel", "prefixed", "no calcPr"])
@pytest.mark.parametrize("name", EXCEL)
def test_a_fill_adding_its_sheet_copies_excels_parts_and_keeps_the_chain_the_names_and_the_calculation(
        name, kind, tmp_path):
    source = variant(name, kind, tmp_path)
    target = tmp_path / "rempli.xlsx"
    book = fill(source, target, Owned({"Sortie": "Sortie"}))
    assert book.route.kind == "surgical", book.route
    before, after = raw_members(source), raw_members(target)
    assert {part: after.get(part) for part in before if part not in CHANGED} == \
        {part: raw for part, raw in before.items() if part not in CHANGED}
    assert package_problems(target) == []
    old_book, new_book = read(source, "xl/workbook.xml"), read(target, "xl/workbook.xml")
    # The organiser's names kept, the new sheet's print titles added (its position: after Excel's sheet).
    assert names(new_book) == names(old_book) + [("_xlnm.Print_Titles", "1", "'Sortie'!$1:$1")]
    # Recalculated on opening, once, Excel's calcId kept; inserted where the schema puts it when absent.
    calc = re.findall(rb"<(?:x:)?calcPr\b[^>]*>", new_book)
    assert len(calc) == 1 and b'fullCalcOnLoad="1"' in calc[0]
    assert (b'calcId="124519"' in calc[0]) == (kind != "no calcPr")
    assert workbook.sheet_ids(new_book)[-1] == ("Sortie", 2)
    if kind == "prefixed":
        assert new_book.startswith(read(source, "xl/workbook.xml")[:60]) and b"<x:sheet " in new_book
    if "xl/calcChain.xml" in before:  # the chain: the same bytes, still related and typed
        assert b"calcChain" in read(target, "xl/_rels/workbook.xml.rels")
        assert b"/xl/calcChain.xml" in read(target, "[Content_Types].xml")
    filled = openpyxl.load_workbook(target)
    assert filled.sheetnames[-1] == "Sortie" and filled["Sortie"]["A2"].value == "Alice"
    assert custom.value(read(target, "docProps/custom.xml"), "xlcircuit") == "tdf"


@pytest.mark.parametrize("name", EXCEL)
def test_a_refill_of_an_excel_workbook_writes_the_same_bytes(name, tmp_path):
    first, second = tmp_path / "1.xlsx", tmp_path / "2.xlsx"
    fill(FILES / name, first, Owned({"Sortie": "Sortie"}))
    assert fill(first, second, Owned({"Sortie": "Sortie"})).route.kind == "surgical"
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("name", [n for n in EXCEL if "xl/calcChain.xml" in zipfile.ZipFile(FILES / n).namelist()])
def test_owning_excels_sheet_whole_takes_its_cells_out_of_the_chain(name, tmp_path):
    """Excel's only sheet rewritten by the fill: its formulas go, so do their chain entries; the emptied chain
    leaves with its relationship and its content type (Excel would repair a chain naming cells with no formula)."""
    target = tmp_path / "rempli.xlsx"
    sheet = openpyxl.load_workbook(FILES / name).sheetnames[0]
    assert calc_chain.without_sheets(read(FILES / name, "xl/calcChain.xml"), {1}) is None
    book = fill(FILES / name, target, Owned({"Sortie": sheet}, (sheet,)))
    assert book.route.kind == "surgical", book.route
    with zipfile.ZipFile(target) as archive:
        assert "xl/calcChain.xml" not in archive.namelist()
        assert b"calcChain" not in archive.read("xl/_rels/workbook.xml.rels")
        assert b"calcChain" not in archive.read("[Content_Types].xml")
    assert package_problems(target) == []


def test_a_prefixed_sheet_the_fill_owns_takes_the_full_rewrite_and_says_why(tmp_path):
    source = variant("table08.xlsx", "prefixed", tmp_path)
    book = fill(source, tmp_path / "rempli.xlsx", Owned({"Sortie": "Sheet1"}, ("Sheet1",)))
    assert (book.route.kind, book.route.reason) == (
        "full", "la feuille « Sheet1 » : ses cellules sont écrites avec des préfixes XML")
    assert package_problems(tmp_path / "rempli.xlsx") == []


def test_excels_custom_properties_are_kept_and_the_mark_added(tmp_path):
    source, target = FILES / "properties04.xlsx", tmp_path / "rempli.xlsx"
    fill(source, target, Owned({"Sortie": "Sortie"}))
    old, new = read(source, "docProps/custom.xml"), read(target, "docProps/custom.xml")
    assert new.startswith(old[:old.rindex(b"</Properties>")])  # every property of Excel's, byte for byte
    assert custom.value(new, "xlcircuit") == "tdf"
    assert re.findall(rb'pid="(\d+)"', new)[-1] == str(len(re.findall(rb"<property\b", old)) + 2).encode()
