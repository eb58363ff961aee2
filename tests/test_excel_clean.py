"""Every workbook xlcircuit writes looks like what Excel writes: no finding of ``excel_check`` (openxml-audit and
the structural rules) of a kind that workbooks saved by Excel never have, on every path that writes one, from
workbooks xlcircuit made, LibreOffice saved and Excel saved (``tests/excel_made/``), filled, saved again by
another program and filled again.
"""

from __future__ import annotations

import posixpath
import re
import shutil
import zipfile
from pathlib import Path

import excel_check
import openpyxl
import pytest
from conftest import example, filled_example, leader, need_libreoffice, table_rows
from defusedxml import ElementTree as SafeET
from excel_check import MAIN, OFFICE_RELS, column_findings
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.dimensions import ColumnDimension

from xlcircuit import app, cli
from xlcircuit.app.explain import explain
from xlcircuit.app.fill import fill as fill_app
from xlcircuit.app.new import new
from xlcircuit.app.outcome import FULL, SURGICAL, Outcome
from xlcircuit.app.share import share_clubs
from xlcircuit.federations import ADAPTERS
from xlcircuit.workbook.layout import column_width, print_readable, set_column_width
from xlcircuit.xlsx import Book, libreoffice, save_atomic

PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"

# --- column widths over the ranges Excel and LibreOffice write --------------------------------------


@st.composite
def column_ranges(draw) -> list[tuple[int, int, float]]:
    """Sorted, disjoint column ranges (first, last, width), as a spreadsheet program saves them."""
    bounds = sorted(draw(st.sets(st.integers(1, 40), min_size=0, max_size=12)))
    pairs = [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds) - 1, 2)]
    return [(low, high, draw(st.sampled_from([5.0, 9.5, 20.0]))) for low, high in pairs]


def sheet_with(ranges: list[tuple[int, int, float]]):
    wb = openpyxl.Workbook()
    ws = wb.active
    for low, high, width in ranges:
        letter = get_column_letter(low)
        ws.column_dimensions[letter] = ColumnDimension(ws, index=letter, width=width, min=low, max=high, hidden=False)
        ws.column_dimensions[letter]._style = openpyxl.styles.cell_style.StyleArray([0, 1, 0, 0, 0, 0, 0, 0, 0])
    return ws


def written_cols(ws) -> list[tuple[int, int, float, int]]:
    """The ``<col>`` elements openpyxl writes for the sheet: (min, max, width, font id of the style)."""
    tree = ws.column_dimensions.to_tree()
    if tree is None:
        return []
    return [(int(c.get("min")), int(c.get("max")), float(c.get("width")), int(c.get("style", "0"))) for c in tree]


@settings(max_examples=60, deadline=None)
@given(column_ranges(), st.dictionaries(st.integers(1, 45), st.sampled_from([7.0, 12.0, 33.0]), max_size=8))
def test_a_width_set_inside_a_range_splits_it_and_the_ranges_stay_sorted_and_disjoint(ranges, widths):
    ws = sheet_with(ranges)
    before = {col: (width, 1) for low, high, width in ranges for col in range(low, high + 1)}
    for col, width in widths.items():
        set_column_width(ws, col, width)
    cols = written_cols(ws)
    assert all(low <= high for low, high, _, _ in cols)
    assert all(a[1] < b[0] for a, b in zip(cols, cols[1:])), cols  # sorted, no overlap
    after = {col: (width, style) for low, high, width, style in cols for col in range(low, high + 1)}
    for col in range(1, 46):
        if col in widths:
            assert after[col][0] == widths[col] and column_width(ws, col) == widths[col]
        elif col in before:
            assert after[col] == before[col]  # the rest of a split range keeps its width and look
        else:
            assert col not in after
    # A range no width touched is left whole, as the organiser's program wrote it.
    for low, high, width in ranges:
        if not any(low <= col <= high for col in widths):
            assert (low, high, width, 1) in cols


def test_reading_a_width_inside_a_range_adds_no_column():
    ws = sheet_with([(5, 9, 9.5)])
    assert column_width(ws, 7) == 9.5 and column_width(ws, 12) is None
    assert written_cols(ws) == [(5, 9, 9.5, 1)]


def test_the_check_finds_overlapping_column_ranges():
    ws = sheet_with([(5, 9, 9.5)])
    ws.column_dimensions["F"].width = 20  # what openpyxl does by itself: a second <col> inside the range
    root = openpyxl.xml.functions.Element("{http://schemas.openxmlformats.org/spreadsheetml/2006/main}worksheet")
    cols = ws.column_dimensions.to_tree()
    cols.tag = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}cols"
    for col in cols:
        col.tag = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}col"
    root.append(cols)
    assert [f.kind for f in column_findings("sheet1.xml", root)] == ["col ranges overlap"]


def test_columns_repeated_by_an_earlier_fill_go_when_the_table_fits_one_page():
    ws = openpyxl.Workbook().active
    for col in range(1, 30):
        set_column_width(ws, col, 20)
    print_readable(ws, 3, 1, 29, repeat_columns=2)
    assert ws.print_title_cols == "$A:$B"
    print_readable(ws, 3, 1, 3, repeat_columns=2)
    assert ws.print_title_cols is None and ws.print_titles.endswith("$3:$3")


# --- workbooks as other programs leave them -------------------------------------------------------

EXCEL_MADE = Path(__file__).resolve().parent / "excel_made"
CONTENT_TYPES = "[Content_Types].xml"


def read_zip(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def write_zip(path: Path, parts: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def sheet_part(parts: dict[str, bytes], name: str) -> str:
    """The part of the sheet ``name`` (read with the standard library: a test must not lean on the engine)."""
    book = SafeET.fromstring(parts["xl/workbook.xml"])
    rid = next(s.get(f"{{{OFFICE_RELS}}}id") for s in book.iter(f"{{{MAIN}}}sheet") if s.get("name") == name)
    rels = SafeET.fromstring(parts["xl/_rels/workbook.xml.rels"])
    target = next(r.get("Target") for r in rels if r.get("Id") == rid)
    return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))


def rels_of(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def graft(book: Path, excel: Path, onto: str | None = None, sheet_name: str = "Excel") -> dict[str, bytes]:
    """Put the first sheet of a workbook saved by Excel into ``book``, its parts byte for byte (renamed): as a
    sheet of its own (``onto`` None), or only its drawing and comments, onto the sheet ``onto`` of ``book``.
    Returns the grafted parts under their new names."""
    parts, excel_parts = read_zip(book), read_zip(excel)
    source = "xl/worksheets/sheet1.xml"
    renamed: dict[str, str] = {}
    todo = [source]
    while todo:  # the sheet and every part it reaches, each given a name of its own in ``book``
        part = todo.pop()
        folder, name = posixpath.split(part)
        renamed[part] = posixpath.join(folder, "excel_" + name)
        if rels_of(part) in excel_parts:
            for rel in SafeET.fromstring(excel_parts[rels_of(part)]):
                target = posixpath.normpath(posixpath.join(folder, rel.get("Target")))
                if rel.get("TargetMode") != "External" and target not in renamed:
                    todo.append(target)
    types = SafeET.fromstring(excel_parts[CONTENT_TYPES])
    overrides = {n.get("PartName").lstrip("/"): n.get("ContentType") for n in types if n.tag.endswith("Override")}
    defaults = {n.get("Extension"): n.get("ContentType") for n in types if n.tag.endswith("Default")}
    added_types = []
    grafted = {}
    for old, name in renamed.items():
        if old == source and onto is not None:
            continue
        grafted[name] = excel_parts[old]
        if old in overrides:
            added_types.append(f'<Override PartName="/{name}" ContentType="{overrides[old]}"/>')
        extension = old.rsplit(".", 1)[-1]
        if f'Extension="{extension}"' not in parts[CONTENT_TYPES].decode() and extension in defaults:
            added_types.insert(0, f'<Default Extension="{extension}" ContentType="{defaults[extension]}"/>')
        if rels_of(old) in excel_parts:
            grafted[rels_of(name)] = _renamed_rels(excel_parts[rels_of(old)], old, renamed)
    if onto is None:
        _add_sheet(parts, renamed[source], sheet_name)
    else:
        _attach(parts, sheet_part(parts, onto), excel_parts[rels_of(source)], source, renamed)
    types_xml = parts[CONTENT_TYPES].decode()
    defaults_added = [t for t in added_types if t.startswith("<Default")]
    overrides_added = [t for t in added_types if not t.startswith("<Default")]
    opening = re.search(r"<Types\b[^>]*>", types_xml).end()
    types_xml = types_xml[:opening] + "".join(dict.fromkeys(defaults_added)) + types_xml[opening:]
    types_xml = types_xml.replace("</Types>", "".join(overrides_added) + "</Types>")
    parts[CONTENT_TYPES] = types_xml.encode()
    parts.update(grafted)
    write_zip(book, parts)
    return grafted


def _renamed_rels(xml: bytes, part: str, renamed: dict[str, str]) -> bytes:
    """A relationships part with its internal targets pointing to the renamed parts (absolute names)."""
    def target(match: re.Match) -> str:
        old = posixpath.normpath(posixpath.join(posixpath.dirname(part), match.group(1)))
        return f'Target="/{renamed[old]}"' if old in renamed else match.group(0)

    return re.sub(r'Target="([^"]+)"(?! TargetMode="External")', target, xml.decode()).encode()


def _add_sheet(parts: dict[str, bytes], part: str, name: str) -> None:
    book = parts["xl/workbook.xml"].decode()
    number = max(int(n) for n in re.findall(r'sheetId="(\d+)"', book)) + 1
    book = book.replace("</sheets>", f'<sheet name="{name}" sheetId="{number}" r:id="rIdExcel"/></sheets>')
    parts["xl/workbook.xml"] = book.encode()
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    parts["xl/_rels/workbook.xml.rels"] = rels.replace("</Relationships>", (
        f'<Relationship Id="rIdExcel" Type="{OFFICE_RELS}/worksheet" Target="/{part}"/></Relationships>')).encode()


def _attach(parts: dict[str, bytes], sheet: str, excel_rels: bytes, source: str, renamed: dict[str, str]) -> None:
    """The drawing and comments of the Excel-made sheet, related to ``sheet`` of the book."""
    elements = {"drawing": "drawing", "vmlDrawing": "legacyDrawing"}
    rels = parts.get(rels_of(sheet), f'<Relationships xmlns="{PACKAGE_RELS}"></Relationships>'.encode()).decode()
    xml = parts[sheet].decode()
    for rel in SafeET.fromstring(excel_rels):
        kind = rel.get("Type").rsplit("/", 1)[-1]
        target = renamed[posixpath.normpath(posixpath.join("xl/worksheets", rel.get("Target")))]
        rid = f"rIdExcel{kind}"
        rels = rels.replace("</Relationships>", f'<Relationship Id="{rid}" Type="{rel.get("Type")}" '
                                                f'Target="/{target}"/></Relationships>')
        if kind in elements:  # drawing, then legacyDrawing, before the table parts
            at = min((xml.find(f"<{tag}") for tag in ("legacyDrawing", "legacyDrawingHF", "picture", "oleObjects",
                                                      "controls", "tableParts", "extLst") if f"<{tag}" in xml),
                     default=xml.rindex("</worksheet>"))
            if not re.search(r'xmlns:r="', xml[:200]):
                xml = xml.replace("<worksheet ", f'<worksheet xmlns:r="{OFFICE_RELS}" ', 1)
                at = xml.find("<tableParts") if "<tableParts" in xml else xml.rindex("</worksheet>")
            xml = xml[:at] + f'<{elements[kind]} r:id="{rid}"/>' + xml[at:]
    parts[sheet], parts[rels_of(sheet)] = xml.encode(), rels.encode()


def excel_columns(book: Path, sheet: str, excel: Path) -> None:
    """The ``<cols>`` of the Excel-made workbook's first sheet put on the sheet ``sheet`` of ``book``."""
    parts = read_zip(book)
    cols = re.search(rb"<cols>.*?</cols>", read_zip(excel)["xl/worksheets/sheet1.xml"]).group(0)
    part = sheet_part(parts, sheet)
    xml = re.sub(rb"<cols>.*?</cols>", b"", parts[part])
    at = xml.index(b"<sheetData")
    parts[part] = xml[:at] + cols + xml[at:]
    write_zip(book, parts)


def prefixed(book: Path) -> None:
    """``workbook.xml`` written with a namespace prefix (``<x:workbook>``), as some programs write it, without the
    calculation settings and defined names a fill then has to add."""
    parts = read_zip(book)
    xml = parts["xl/workbook.xml"].decode()
    xml = re.sub(r"<definedNames>.*?</definedNames>|<definedNames/>|<calcPr\b[^>]*/>", "", xml, flags=re.S)
    xml = re.sub(r"<(/?)([A-Za-z]\w*)(?=[\s/>])", r"<\1x:\2", xml).replace(f'xmlns="{MAIN}"', f'xmlns:x="{MAIN}"')
    parts["xl/workbook.xml"] = xml.encode()
    write_zip(book, parts)


def column_ranges_in(path: Path) -> int:
    """How many ``<col>`` elements of the workbook's sheets span more than one column."""
    parts = read_zip(path)
    return sum(1 for name, xml in parts.items() if name.startswith("xl/worksheets/sheet")
               for low, high in re.findall(rb'<col\b[^>]*?\bmin="(\d+)"[^>]*?\bmax="(\d+)"', xml) + [
                   (b, a) for a, b in re.findall(rb'<col\b[^>]*?\bmax="(\d+)"[^>]*?\bmin="(\d+)"', xml)]
               if low != high)


def libreoffice_saved(path: Path, folder: Path) -> Path:
    """The workbook as LibreOffice saves it (``soffice --convert-to xlsx``)."""
    need_libreoffice()
    (saved,) = libreoffice.convert(path, folder, "xlsx")
    return saved


def defects(path: Path, inherited: Path | None = None) -> list[str]:
    """The findings of ``path`` of kinds workbooks saved by Excel never have, but those ``inherited`` (the
    workbook it was made from, saved by another program) has too: the organiser's parts are copied as they are."""
    kinds = {f.kind for f in excel_check.defects(inherited)} if inherited is not None else set()
    return [str(f) for f in excel_check.defects(path) if f.kind not in kinds]


def fill(path: Path) -> Outcome:
    outcome = app.run(lambda: fill_app(path))
    assert outcome.error is None, outcome.error
    return outcome


# --- every path, every federation -------------------------------------------------------------------


@pytest.mark.parametrize("code", list(ADAPTERS))
def test_each_federation_new_filled_saved_by_libreoffice_and_filled_again_is_like_excel(code, tmp_path):
    adapter = ADAPTERS[code]
    fresh = tmp_path / "neuf.xlsx"
    assert app.run(lambda: new(code, fresh)).error is None
    typed = example(adapter, tmp_path)
    filled = tmp_path / "rempli.xlsx"
    shutil.copy(typed, filled)
    assert fill(filled).route == SURGICAL
    assert defects(fresh) == [] and defects(filled) == []
    # The organiser opens it in LibreOffice and saves it: identical columns become ranges; xlcircuit fills again.
    resaved = libreoffice_saved(filled, tmp_path / "lo")
    if code == "tdf":  # its standings have identical adjacent columns: one range the refill must split
        assert column_ranges_in(resaved)
    again = tmp_path / "encore.xlsx"
    shutil.copy(resaved, again)
    fill(again)
    assert defects(again, inherited=resaved) == []
    assert excel_check.structural_defects(again) == []
    # LibreOffice shared every text; the refill points to those shared strings, as Excel writes text, and leaves
    # the part (the organiser's sheets' too) as it was.
    before, after = read_zip(resaved), read_zip(again)
    assert after["xl/sharedStrings.xml"] == before["xl/sharedStrings.xml"]
    assert [n for n, xml in after.items() if n.startswith("xl/worksheets/") and b'"inlineStr"' in xml] == []
    standings = adapter.standings
    assert table_rows(openpyxl.load_workbook(again)[standings.sheet], standings.name) == \
        table_rows(openpyxl.load_workbook(filled)[standings.sheet], standings.name)


def excel_made_season(folder: Path) -> Path:
    """The TdF example as an organiser whose Excel saved parts of it has it: Excel's column ranges on the two
    output tables' sheets, a picture Excel saved on the results sheet, and a sheet of the organiser's with a
    picture, all of Excel's bytes."""
    path = filled_example(ADAPTERS["tdf"], folder)
    excel_columns(path, "Classement", EXCEL_MADE / "table02.xlsx")
    excel_columns(path, "Points", EXCEL_MADE / "set_column09.xlsx")
    graft(path, EXCEL_MADE / "image01.xlsx", onto="Points")
    graft(path, EXCEL_MADE / "image01.xlsx", sheet_name="Photo")
    return path


def test_a_workbook_with_what_excel_saved_fills_like_excel_and_again_after_libreoffice(tmp_path):
    path = excel_made_season(tmp_path)
    before = read_zip(path)
    assert b'<col min="6" max="8"' in before[sheet_part(before, "Points")]
    assert fill(path).route == SURGICAL
    after = read_zip(path)
    kept = [p for p in before if p.startswith(("xl/drawings/excel_", "xl/worksheets/excel_", "xl/media/excel_"))]
    assert kept and all(after[p] == before[p] for p in kept)  # the organiser's picture sheet, byte for byte
    assert defects(path) == []
    cols = excel_check.column_findings("", SafeET.fromstring(after[sheet_part(after, "Points")]))
    assert cols == []
    resaved = libreoffice_saved(path, tmp_path / "lo")
    again = tmp_path / "encore.xlsx"
    shutil.copy(resaved, again)
    fill(again)
    assert defects(again, inherited=resaved) == []


def test_a_comment_on_an_output_sheet_takes_the_full_rewrite_and_its_pictures_stay_like_excel(tmp_path):
    path = filled_example(ADAPTERS["tdf"], tmp_path)
    graft(path, EXCEL_MADE / "comment01.xlsx", onto="Points")
    graft(path, EXCEL_MADE / "image01.xlsx", sheet_name="Photo")
    excel_columns(path, "Classement", EXCEL_MADE / "table02.xlsx")
    outcome = fill(path)
    assert outcome.route == FULL
    # Said in one line, in the organiser's words: why, and what the full rewrite cannot keep.
    why = "le classeur est réécrit en entier (la feuille « Points », réécrite par le remplissage, contient des " \
          "commentaires) : cette réécriture ne garde pas"
    assert [w for w in outcome.warnings if w.startswith(why)] == outcome.warnings[:1]
    assert defects(path) == []
    wb = openpyxl.load_workbook(path)
    assert wb["Points"]["B2"].comment.text == "Some text" and len(wb["Photo"]._images) == 1


def test_a_workbook_part_written_with_a_namespace_prefix_gets_its_sheets_and_names_in_that_namespace(tmp_path):
    adapter = ADAPTERS["tdf"]
    wb = adapter.new_workbook()
    adapter.put_example(wb)
    del wb["Courbes"]
    path = save_atomic(wb, tmp_path / "prefixe.xlsx")
    prefixed(path)
    assert fill(path).route == SURGICAL
    assert defects(path) == []
    book = SafeET.fromstring(read_zip(path)["xl/workbook.xml"])
    sheets = [s.get("name") for s in book.iter(f"{{{MAIN}}}sheet")]
    assert sheets[-1] == "Courbes"
    names = {(n.get("name"), int(n.get("localSheetId"))) for n in book.iter(f"{{{MAIN}}}definedName")}
    assert ("_xlnm.Print_Area", len(sheets) - 1) in names
    assert book.find(f"{{{MAIN}}}calcPr").get("fullCalcOnLoad") == "1"
    assert openpyxl.load_workbook(path).sheetnames[-1] == "Courbes"


def test_every_other_workbook_xlcircuit_writes_is_like_excel(tmp_path):
    """Share per club, explain as a workbook, the native formulas workbook, the starter workbook."""
    adapter = ADAPTERS["tdf"]
    path = filled_example(adapter, tmp_path)
    book = Book(path)
    clubs = share_clubs(book, adapter, tmp_path / "clubs")
    explained = tmp_path / "explication.xlsx"
    player = leader(path)
    assert app.run(lambda: explain(path, player, output=explained)).error is None
    assert cli.main(["excel", "formulas", str(tmp_path / "formules.xlsx")]) == 0
    assert cli.main(["excel", "init", str(tmp_path / "demarrage")]) == 0
    written = [*sorted(clubs.values())[:1], explained, tmp_path / "formules.xlsx",
               *(tmp_path / "demarrage").glob("*.xls*")]
    assert len(written) == 4
    assert {p.name: defects(p) for p in written} == {p.name: [] for p in written}
    for club in clubs.values():
        assert excel_check.structural_defects(club) == []
