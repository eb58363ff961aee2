"""The surgical fill (``xlcircuit/workbook/package.py``): the organiser's sheets and everything on them are
copied byte for byte, compressed bytes included; only the output sheets are new; the package stays valid.

The organiser's sheet ``Notes`` below is written by hand, part by part, as Excel writes them: formulas with
their cached values, sparklines, a text box, a shape, an image, a comment, a data validation, conditional
formats (one of Excel 2010's). openpyxl keeps none of the sparklines, shapes, text boxes and cached values.
"""

from __future__ import annotations

import re
import struct
import zipfile
import zlib
from copy import copy
from pathlib import Path

import openpyxl
import pytest
from conftest import filled_example, sheets_as_csv, table_dicts
from hypothesis import given, settings
from hypothesis import strategies as st

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS as FEDERATIONS
from xlcircuit.federations import tdf
from xlcircuit.xlsx import Book, save_atomic
from xlcircuit.xlsx.cells import BadCell, read_cells
from xlcircuit.xlsx.package import Package
from xlcircuit.xlsx.validate import package_problems

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"


def _png() -> bytes:
    """A 2x2 red PNG image, made by hand."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


NOTES_SHEET = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="{MAIN}" xmlns:r="{RELS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" \
xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" mc:Ignorable="x14ac">\
<dimension ref="A1:C4"/><sheetData>\
<row r="1"><c r="A1" t="inlineStr"><is><t>Premier</t></is></c>\
<c r="B1" t="str"><f>Classement!B4</f><v>Ancien premier</v></c></row>\
<row r="2"><c r="A2"><v>1</v></c><c r="B2"><f>A2*10</f><v>10</v></c></row>\
<row r="3"><c r="A3"><v>2</v></c><c r="B3"><f>A3*10</f><v>20</v></c></row>\
<row r="4"><c r="A4"><v>3</v></c><c r="B4"><f>SUM(B2:B3)</f><v>30</v></c></row>\
</sheetData>\
<conditionalFormatting sqref="A2:A4"><cfRule type="colorScale" priority="1"><colorScale><cfvo type="min"/><cfvo type="max"/>\
<color rgb="FFF8696B"/><color rgb="FF63BE7B"/></colorScale></cfRule></conditionalFormatting>\
<dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="C2:C4"><formula1>"oui,non"</formula1>\
</dataValidation></dataValidations>\
<drawing r:id="rId1"/><legacyDrawing r:id="rId3"/>\
<extLst><ext uri="{{78C0D931-6437-407d-A8EE-F0AAD7539E65}}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">\
<x14:conditionalFormattings><x14:conditionalFormatting xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">\
<x14:cfRule type="dataBar" id="{{00000000-0000-0000-0000-000000000001}}"><x14:dataBar minLength="0" maxLength="100">\
<x14:cfvo type="autoMin"/><x14:cfvo type="autoMax"/></x14:dataBar></x14:cfRule><xm:sqref>B2:B4</xm:sqref>\
</x14:conditionalFormatting></x14:conditionalFormattings></ext>\
<ext uri="{{05C60535-1F16-4fd2-B633-F4F36F0B64E0}}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">\
<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><x14:sparklineGroup>\
<x14:sparklines><x14:sparkline><xm:f>Notes!A2:A4</xm:f><xm:sqref>C1</xm:sqref></x14:sparkline></x14:sparklines>\
</x14:sparklineGroup></x14:sparklineGroups></ext></extLst></worksheet>"""

_ANCHOR = ('<xdr:twoCellAnchor><xdr:from><xdr:col>{c0}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>{r0}</xdr:row>'
           '<xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>{c1}</xdr:col><xdr:colOff>0</xdr:colOff>'
           '<xdr:row>{r1}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>{body}<xdr:clientData/></xdr:twoCellAnchor>')
NOTES_DRAWING = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr '
    'xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" '
    f'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="{RELS}">'
    + _ANCHOR.format(c0=4, r0=1, c1=8, r1=4, body=(
        '<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="2" name="Zone de texte 1"/><xdr:cNvSpPr txBox="1"/>'
        '</xdr:nvSpPr><xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2400000" cy="500000"/></a:xfrm>'
        '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr><xdr:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r>'
        "<a:t>Note de l'organisateur</a:t></a:r></a:p></xdr:txBody></xdr:sp>"))
    + _ANCHOR.format(c0=4, r0=5, c1=6, r1=8, body=(
        '<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="3" name="Ellipse 2"/><xdr:cNvSpPr/></xdr:nvSpPr>'
        '<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1200000" cy="500000"/></a:xfrm><a:prstGeom prst="ellipse">'
        '<a:avLst/></a:prstGeom></xdr:spPr></xdr:sp>'))
    + _ANCHOR.format(c0=8, r0=5, c1=9, r1=7, body=(
        '<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="4" name="Image 3"/><xdr:cNvPicPr/></xdr:nvPicPr><xdr:blipFill>'
        '<a:blip r:embed="rId1"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill><xdr:spPr><a:xfrm><a:off x="0" y="0"/>'
        '<a:ext cx="600000" cy="400000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic>'))
    + "</xdr:wsDr>")
NOTES_COMMENTS = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<comments xmlns="{MAIN}"><authors>'
                  '<author>Organisateur</author></authors><commentList><comment ref="A1" authorId="0"><text>'
                  "<t>Le premier du classement, recalculé à l'ouverture</t></text></comment></commentList></comments>")
NOTES_VML = ('<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
             'xmlns:x="urn:schemas-microsoft-com:office:excel"><v:shape id="_x0000_s1025" type="#_x0000_t202" '
             'style="position:absolute;margin-left:60pt;margin-top:2pt;width:100pt;height:50pt;visibility:hidden" '
             'fillcolor="#ffffe1"><v:textbox/><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/>'
             '<x:Row>0</x:Row><x:Column>0</x:Column></x:ClientData></v:shape></xml>')
#: The parts of the organiser's sheet, all of which the fill must copy as they are.
NOTES_PARTS = ("xl/worksheets/notes.xml", "xl/worksheets/_rels/notes.xml.rels", "xl/drawings/notes-drawing.xml",
               "xl/drawings/_rels/notes-drawing.xml.rels", "xl/media/notes-image.png", "xl/notes-comments.xml",
               "xl/drawings/notes-comments.vml")


def _rels(*rels: tuple[str, str, str]) -> str:
    body = "".join(f'<Relationship Id="{i}" Type="{RELS}/{t}" Target="{target}"/>' for i, t, target in rels)
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<Relationships xmlns="{PACKAGE_RELS}">{body}</Relationships>')


def add_notes_sheet(path: Path, target: Path, formula_in_results: bool = True) -> Path:
    """A copy of a workbook with the organiser's sheet ``Notes`` added by hand, and (``formula_in_results``)
    a formula with its cached value typed into the Résultats table."""
    sheets = openpyxl.load_workbook(path).sheetnames
    results = f"xl/worksheets/sheet{sheets.index('Résultats') + 1}.xml"
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == "xl/workbook.xml":
                # The relationships' namespace declared where it is used: openpyxl with lxml declares it on each
                # sheet, not on the root.
                data = data.replace(b"</sheets>", f'<sheet xmlns:r="{RELS}" name="Notes" sheetId="99" '
                                    'r:id="rIdNotes"/></sheets>'.encode())
            elif info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", f'<Relationship Id="rIdNotes" Type="{RELS}/worksheet" '
                                    f'Target="/xl/worksheets/notes.xml"/></Relationships>'.encode())
            elif info.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", (
                    b'<Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>'
                    b'<Override PartName="/xl/worksheets/notes.xml" ContentType="application/vnd.openxmlformats-'
                    b'officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/drawings/notes-drawing.xml" '
                    b'ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/><Override '
                    b'PartName="/xl/notes-comments.xml" ContentType="application/vnd.openxmlformats-officedocument.'
                    b'spreadsheetml.comments+xml"/></Types>'))
                if b'Extension="png"' not in data:
                    data = data.replace(b"<Default ", b'<Default Extension="png" ContentType="image/png"/><Default ', 1)
            elif info.filename == results and formula_in_results:
                # The third line's place (C4 holds a number) becomes a formula the spreadsheet calculated.
                data, count = re.subn(rb'<c r="C4"([^>]*?) t="n"><v>(\d+)</v></c>',
                                      lambda m: b'<c r="C4"' + m.group(1) + b"><f>1+" + str(int(m.group(2)) - 1).encode()
                                      + b"</f><v>" + m.group(2) + b"</v></c>", data)
                assert count == 1
            new.writestr(info, data)
        new.writestr("xl/worksheets/notes.xml", NOTES_SHEET)
        new.writestr("xl/worksheets/_rels/notes.xml.rels", _rels(
            ("rId1", "drawing", "../drawings/notes-drawing.xml"), ("rId2", "comments", "../notes-comments.xml"),
            ("rId3", "vmlDrawing", "../drawings/notes-comments.vml")))
        new.writestr("xl/drawings/notes-drawing.xml", NOTES_DRAWING)
        new.writestr("xl/drawings/_rels/notes-drawing.xml.rels", _rels(("rId1", "image", "../media/notes-image.png")))
        new.writestr("xl/media/notes-image.png", _png())
        new.writestr("xl/notes-comments.xml", NOTES_COMMENTS)
        new.writestr("xl/drawings/notes-comments.vml", NOTES_VML)
    return target


def raw_members(path: Path) -> dict[str, tuple[int, int, bytes]]:
    """Each zip member as stored: (CRC, compressed size, compressed bytes)."""
    members = {}
    with zipfile.ZipFile(path) as archive, path.open("rb") as handle:
        for info in archive.infolist():
            handle.seek(info.header_offset + 26)
            name_length, extra_length = struct.unpack("<HH", handle.read(4))
            handle.seek(info.header_offset + 30 + name_length + extra_length)
            members[info.filename] = (info.CRC, info.compress_size, handle.read(info.compress_size))
    return members


@pytest.fixture
def organised(demo_path: Path, tmp_path: Path) -> Path:
    """The example season, filled once, then given the organiser's sheet Notes and a formula in Résultats."""
    book = Book(demo_path)
    tdf.fill(book)
    book.save(tmp_path / "rempli.xlsx")
    return add_notes_sheet(tmp_path / "rempli.xlsx", tmp_path / "organise.xlsx")


def test_the_fixture_holds_what_openpyxl_cannot_keep(organised):
    assert sorted(map(str, Book(organised).unkept)) == [
        "formes ou zones de texte (feuille « Notes »)",
        "graphiques sparkline (feuille « Notes »)",
        "mises en forme conditionnelles propres à Excel 2010+ (feuille « Notes »)",
    ]
    assert package_problems(organised) == []


def test_the_organisers_sheets_are_copied_byte_for_byte(organised, tmp_path, capsys):
    before = raw_members(organised)
    results = f"xl/worksheets/sheet{openpyxl.load_workbook(organised).sheetnames.index('Résultats') + 1}.xml"
    assert main(["fill", str(organised)]) == 0
    err = capsys.readouterr().err
    assert "openpyxl" not in err and not (tmp_path / "organise (avant xlcircuit).xlsx").exists()
    after = raw_members(organised)
    for part in NOTES_PARTS + (results, "xl/sharedStrings.xml", "xl/theme/theme1.xml", "docProps/core.xml"):
        if part in before:
            assert after[part] == before[part], part  # compressed bytes included
    with zipfile.ZipFile(organised) as archive:
        book = archive.read("xl/workbook.xml")
        notes = archive.read("xl/worksheets/notes.xml")
    assert b'fullCalcOnLoad="1"' in book  # the organiser's formulas reading the outputs recalculate on opening
    assert b"<v>Ancien premier</v>" in notes and b"<v>30</v>" in notes  # cached values kept for viewers
    assert package_problems(organised) == []


def test_a_formula_typed_in_an_input_table_is_read_through_its_cached_value(organised):
    book = Book(organised)
    summary = tdf.fill(book)
    assert book.route.kind == "surgical", book.route
    line = next(e for e in summary.entries if e.record.row == 4)
    assert line.line.place == book.value(book.wb["Résultats"]["C4"]) and line.line.place is not None


def test_the_filled_tables_are_those_of_the_full_rewrite(demo_path, tmp_path):
    """The surgical fill and the former full rewrite write the same cells, styles, tables, charts and print setup."""
    surgical, full = tmp_path / "chirurgical.xlsx", tmp_path / "complet.xlsx"
    book = Book(demo_path)
    tdf.fill(book)
    assert book.route.kind == "surgical", book.route
    book.save(surgical)
    book = Book(demo_path)
    assert book.wb is not None  # loaded whole before the fill: the full rewrite
    tdf.fill(book)
    assert book.route.kind == "full"
    book.save(full)
    a, b = openpyxl.load_workbook(surgical), openpyxl.load_workbook(full)
    assert a.sheetnames == b.sheetnames
    for ws in b.worksheets:
        mine = a[ws.title]
        def look(c):
            return (c.value, c.number_format, copy(c.font), copy(c.fill), copy(c.alignment), c.quotePrefix)
        assert {k: look(c) for k, c in mine._cells.items() if c.value is not None or c.has_style} == \
               {k: look(c) for k, c in ws._cells.items() if c.value is not None or c.has_style}, ws.title
        assert dict(mine.tables.items()) == dict(ws.tables.items())
        assert (mine.freeze_panes, mine.print_titles, mine.page_setup.orientation, mine.oddFooter.center.text) == \
               (ws.freeze_panes, ws.print_titles, ws.page_setup.orientation, ws.oddFooter.center.text)
        assert [str(c.sqref) for c in mine.conditional_formatting] == [str(c.sqref) for c in ws.conditional_formatting]
        assert len(mine._charts) == len(ws._charts)
        assert {k: d.width for k, d in mine.column_dimensions.items()} == \
               {k: d.width for k, d in ws.column_dimensions.items()}
    assert package_problems(surgical) == [] and package_problems(full) == []


def test_refills_copy_the_previous_fill_byte_for_byte(organised, tmp_path):
    first, second = tmp_path / "1.xlsx", tmp_path / "2.xlsx"
    for target, source in ((first, organised), (second, first)):
        book = Book(source)
        tdf.fill(book)
        book.save(target)
    assert first.read_bytes() == second.read_bytes()


def test_the_organisers_cells_on_an_output_sheet_are_kept_and_said(demo_path, tmp_path):
    wb = openpyxl.load_workbook(demo_path)
    wb["Points"]["N1"] = "ma note"
    save_atomic(wb, demo_path)
    book = Book(demo_path)
    tdf.fill(book)
    assert book.route.kind == "surgical", book.route
    assert book.notes == ["La feuille « Points » contient aussi des cellules à vous, hors des tables de xlcircuit : "
                          "elles sont gardées, mais réécrites (leurs formules sont recalculées à l'ouverture)."]
    book.save()
    assert openpyxl.load_workbook(demo_path)["Points"]["N1"].value == "ma note"


@pytest.mark.parametrize("code", list(FEDERATIONS))
def test_a_refill_says_nothing_of_the_legends_an_earlier_fill_wrote_under_its_tables(code, tmp_path):
    module = FEDERATIONS[code]
    book = Book(filled_example(module, tmp_path))
    module.fill(book)
    assert book.route.kind == "surgical", book.route
    assert book.notes == []  # the legends are the fill's own, not the organiser's cells


def test_the_organisers_cell_among_the_legends_is_kept_and_said(demo_path, tmp_path):
    tdf.fill(book := Book(demo_path))
    book.save()
    wb = openpyxl.load_workbook(demo_path)
    ws = wb["Points"]
    legend = max(cell.row for cell in ws["A"] if cell.value is not None)
    ws.cell(legend + 1, 1, "vu par le comité")  # under the legend, in its column: the organiser's
    save_atomic(wb, demo_path)
    tdf.fill(book := Book(demo_path))
    assert book.notes and "« Points »" in book.notes[0]
    book.save()
    assert openpyxl.load_workbook(demo_path)["Points"].cell(legend + 1, 1).value == "vu par le comité"


def test_the_organisers_link_on_an_output_sheet_is_kept(demo_path, tmp_path):
    wb = openpyxl.load_workbook(demo_path)
    wb["Points"]["N1"] = "règlement"
    wb["Points"]["N1"].hyperlink = "https://example.org/reglement.pdf"
    save_atomic(wb, demo_path)
    for _ in range(2):  # the fill, then the refill of what it wrote
        tdf.fill(book := Book(demo_path))
        assert book.route.kind == "surgical", book.route
        book.save()
    cell = openpyxl.load_workbook(demo_path)["Points"]["N1"]
    assert (cell.value, cell.hyperlink.target) == ("règlement", "https://example.org/reglement.pdf")


def test_what_openpyxl_drops_on_an_output_sheet_takes_the_full_rewrite_and_its_warning(demo_path, tmp_path, capsys):
    """Sparklines on the Classement sheet: the surgical writer would rewrite them away, so the fill says so
    and keeps the original aside, as every fill did before."""
    sheet = f"xl/worksheets/sheet{openpyxl.load_workbook(demo_path).sheetnames.index('Classement') + 1}.xml"
    target = tmp_path / "etincelles.xlsx"
    sparklines = NOTES_SHEET[NOTES_SHEET.index("<extLst>"):NOTES_SHEET.index("</worksheet>")]
    sparklines = "<extLst>" + sparklines[sparklines.index('<ext uri="{05C60535'):]
    with zipfile.ZipFile(demo_path) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == sheet:
                data = data.replace(b"</worksheet>", sparklines.encode() + b"</worksheet>")
            new.writestr(info, data)
    assert main(["fill", str(target)]) == 0
    err = capsys.readouterr().err
    assert "graphiques sparkline (feuille « Classement »)" in err and "etincelles (avant xlcircuit).xlsx" in err
    assert (tmp_path / "etincelles (avant xlcircuit).xlsx").exists()


def test_libreoffice_opens_the_surgically_filled_workbook(organised, tmp_path):
    book = Book(organised)
    tdf.fill(book)
    book.save()
    grid = sheets_as_csv(organised, tmp_path / "csv")
    assert [row[:2] for row in grid["Notes"][:4]] == [["Premier", "Ancien premier"], ["1", "10"], ["2", "20"],
                                                     ["3", "30"]]
    standings = table_dicts(openpyxl.load_workbook(organised)["Classement"], "Classement")
    shown = grid["Classement"][3:3 + len(standings)]
    assert [row[1] for row in shown] == [s["Joueur"] for s in standings]


def test_a_workbook_resaved_by_libreoffice_fills_surgically(demo_path, tmp_path):
    """LibreOffice writes shared strings, its own styles and Excel 2010 data bars: the reader and the
    style merge take them, and LibreOffice reads back the same standings."""
    from conftest import need_libreoffice

    from xlcircuit.xlsx import libreoffice

    need_libreoffice()
    book = Book(demo_path)
    tdf.fill(book)
    book.save()
    resaved = libreoffice.convert(demo_path, tmp_path / "lo", "xlsx")[0]
    expected = table_dicts(openpyxl.load_workbook(demo_path)["Classement"], "Classement")
    book = Book(resaved)
    tdf.fill(book)
    assert book.route.kind == "surgical" and book.unkept == []
    book.save()
    assert package_problems(resaved) == []
    got = table_dicts(openpyxl.load_workbook(resaved)["Classement"], "Classement")
    assert [(r["Joueur"], r["Total"]) for r in got] == [(r["Joueur"], r["Total"]) for r in expected]
    grid = sheets_as_csv(resaved, tmp_path / "csv")
    assert [row[1] for row in grid["Classement"][3:3 + len(got)]] == [r["Joueur"] for r in got]


# --- the fast reader against openpyxl -----------------------------------------------------------------------


def test_the_fast_reader_reads_what_openpyxl_reads(organised, tmp_path):
    """Every cell of every sheet: value and type as openpyxl reads them, formulas' cached values as its
    values-only load reads them (on an openpyxl file, and on the same file written by LibreOffice)."""
    from conftest import need_libreoffice

    from xlcircuit.xlsx import libreoffice

    files = [organised]
    if libreoffice.find() is not None or __import__("os").environ.get("CI"):
        need_libreoffice()
        files.append(libreoffice.convert(organised, tmp_path / "lo", "xlsx")[0])
    for path in files:
        wb, values = openpyxl.load_workbook(path), openpyxl.load_workbook(path, data_only=True)
        package = Package(path)
        from xlcircuit.xlsx.cells import shared_strings

        strings = shared_strings(package)
        for sheet in package.sheets:
            ws = wb[sheet.name]
            got = read_cells(package.read(sheet.part), [(1, 1, 16384, 1 << 20)], strings, wb)
            expected = {(c.row, c.column): (c.value, c.data_type) for row in ws.iter_rows() for c in row
                        if c.value is not None}
            assert {(g.row, g.column): (g.value, g.data_type) for g in got} == expected, (path.name, sheet.name)
            for g in got:
                if g.data_type == "f":
                    assert g.cached == values[sheet.name].cell(g.row, g.column).value


def test_the_fast_reader_reads_carriage_returns_as_an_xml_parser_does(tmp_path):
    """A text or a number written with raw CR or CR LF (some programs write them): read as openpyxl reads them
    (XML normalises line ends to LF), whichever of the two readers takes the cell."""
    import re
    import zipfile

    path = tmp_path / "cr.xlsx"
    wb = openpyxl.Workbook()
    wb.active["A1"] = "x"
    wb.save(path)
    with zipfile.ZipFile(path) as source:
        parts = {name: source.read(name) for name in source.namelist()}
    sheet = re.sub(rb"<sheetData>.*</sheetData>", b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a\r\nb</t>'
                   b'</is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">c\rd </t></is></c>'
                   b'<c r="B2"><v>\r\n3</v></c></row></sheetData>', parts["xl/worksheets/sheet1.xml"], flags=re.S)
    parts["xl/worksheets/sheet1.xml"] = sheet
    with zipfile.ZipFile(path, "w") as target:
        for name, data in parts.items():
            target.writestr(name, data)
    wb = openpyxl.load_workbook(path)
    got = {(g.row, g.column): (g.value, g.data_type) for g in read_cells(sheet, [(1, 1, 100, 100)], [], wb)}
    assert got == {(1, 1): ("a\nb", "s"), (2, 1): ("c\nd ", "s"), (2, 2): (3, "n")}
    assert got == {(c.row, c.column): (c.value, c.data_type) for row in wb.active.iter_rows() for c in row
                   if c.value is not None}


# --- the validator can fail ---------------------------------------------------------------------------------


def _broken(path: Path, target: Path, change) -> Path:
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            data = change(info.filename, old.read(info.filename))
            if data is not None:
                new.writestr(info, data)
    return target


@pytest.mark.parametrize("what, change, expected", [
    ("a missing part", lambda n, d: None if n.startswith("xl/tables/table1") else d, "cible absente xl/tables/table1.xml"),
    ("an untyped part", lambda n, d: re.sub(rb'<Override PartName="/xl/tables/table1.xml"[^>]*/>', b"", d)
     if n == "[Content_Types].xml" else d, "xl/tables/table1.xml : type"),
    ("a duplicate table id", lambda n, d: re.sub(rb'\bid="\d+"', b'id="1"', d, count=1)
     if n.startswith("xl/tables/table") else d, "table id 1 en double"),
    ("a style past cellXfs", lambda n, d: re.sub(rb'<c r="A1" s="\d+"', b'<c r="A1" s="999"', d)
     if n == "xl/worksheets/sheet1.xml" else d, "hors de cellXfs"),
    ("a wrong style count", lambda n, d: re.sub(rb'<fonts count="\d+"', b'<fonts count="99"', d)
     if n == "xl/styles.xml" else d, "fonts count=99"),
    ("print titles of a missing sheet", lambda n, d: d.replace(b"'Points'!$3:$3", b"'Pointz'!$3:$3")
     if n == "xl/workbook.xml" else d, "feuille « Pointz » absente"),
    ("a duplicate sheet name", lambda n, d: d.replace(b'name="Joueurs"', b'name="Saison"')
     if n == "xl/workbook.xml" else d, "feuille « Saison » en double"),
])  # fmt: skip
def test_the_validator_finds_what_excel_would_repair(demo_path, tmp_path_factory, what, change, expected):
    folder = tmp_path_factory.mktemp("broken")  # not checked after the test, as every tmp_path workbook is
    broken = _broken(demo_path, folder / "abime.xlsx", change)
    assert any(expected in problem for problem in package_problems(broken)), package_problems(broken)


def test_the_reader_refuses_cells_it_cannot_place(organised):
    """A cell no spreadsheet writes is a damaged file (one sentence); a sheet written with other spellings than
    Excel's (a prefix, attributes in another order, no reference: placed as openpyxl places it) is read."""
    package = Package(organised)
    wb = openpyxl.load_workbook(organised)
    with pytest.raises(BadCell, match="chaîne partagée n° 0 n'existe pas"):
        read_cells(f'<worksheet xmlns="{MAIN}"><sheetData><row><c t="s"><v>0</v></c></row></sheetData></worksheet>'
                   .encode(), [(1, 1, 10, 10)], [], wb)
    with pytest.raises(BadCell, match="référence « 1A »"):
        read_cells(f'<worksheet xmlns="{MAIN}"><sheetData><row><c r="1A"><v>1</v></c></row></sheetData></worksheet>'
                   .encode(), [(1, 1, 10, 10)], [], wb)
    prefixed = (f"<x:worksheet xmlns:x='{MAIN}'><x:sheetData><x:row r='2'><x:c t='s'><x:v>1</x:v></x:c><x:c s='0'\n"
                f" r='C2'><x:v>4.5</x:v></x:c><x:c t='inlineStr'><x:is><x:t><![CDATA[a<b]]></x:t></x:is></x:c></x:row>"
                "</x:sheetData></x:worksheet>").encode()
    got = read_cells(prefixed, [(1, 1, 10, 10)], ["zéro", "un"], wb)
    assert [(c.row, c.column, c.value, c.data_type) for c in got] == [(2, 1, "un", "s"), (2, 3, 4.5, "n"),
                                                                       (2, 4, "a<b", "s")]
    assert package.sheets


def test_an_output_sheet_the_organiser_deleted_is_added_to_the_package(demo_path, tmp_path):
    wb = openpyxl.load_workbook(demo_path)
    del wb["Courbes"]
    save_atomic(wb, demo_path)
    book = Book(demo_path)
    tdf.fill(book)
    assert book.route.kind == "surgical", book.route
    book.save()
    assert package_problems(demo_path) == []
    filled = openpyxl.load_workbook(demo_path)
    assert filled.sheetnames[-1] == "Courbes" and len(filled["Courbes"]._charts) > 0
    with zipfile.ZipFile(demo_path) as archive:
        assert b'name="Courbes"' in archive.read("xl/workbook.xml")


EXCEL_APP = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="http://schemas.openxmlformats.org/'
             'officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/'
             'docPropsVTypes"><Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false'
             '</ScaleCrop><HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Feuilles de calcul'
             '</vt:lpstr></vt:variant><vt:variant><vt:i4>{count}</vt:i4></vt:variant></vt:vector></HeadingPairs>'
             '<TitlesOfParts><vt:vector size="{count}" baseType="lpstr">{titles}</vt:vector></TitlesOfParts>'
             '<Company>Club</Company><AppVersion>16.0300</AppVersion></Properties>')


def _with_excel_app(path: Path, target: Path) -> Path:
    """``path`` with the docProps/app.xml Excel writes: its sheets listed by name."""
    names = openpyxl.load_workbook(path).sheetnames
    app = EXCEL_APP.format(count=len(names), titles="".join(f"<vt:lpstr>{n}</vt:lpstr>" for n in names))
    return _broken(path, target, lambda n, d: app.encode() if n == "docProps/app.xml" else d)


def test_the_list_of_sheets_excel_keeps_in_its_properties_goes_when_a_fill_adds_one(demo_path, tmp_path):
    wb = openpyxl.load_workbook(demo_path)
    del wb["Courbes"]
    save_atomic(wb, demo_path)
    source = _with_excel_app(demo_path, tmp_path / "excel.xlsx")
    book = Book(source)
    tdf.fill(book)
    assert book.route.kind == "surgical", book.route
    book.save(tmp_path / "rempli.xlsx")
    with zipfile.ZipFile(tmp_path / "rempli.xlsx") as archive:
        app = archive.read("docProps/app.xml").decode()
    assert "TitlesOfParts" not in app and "HeadingPairs" not in app  # it would leave « Courbes » out
    assert "<Company>Club</Company>" in app and "<DocSecurity>0</DocSecurity>" in app
    assert package_problems(tmp_path / "rempli.xlsx") == []


def test_the_list_of_sheets_excel_keeps_in_its_properties_is_copied_when_no_sheet_is_added(demo_path, tmp_path):
    source = _with_excel_app(demo_path, tmp_path / "excel.xlsx")
    book = Book(source)
    tdf.fill(book)
    book.save(tmp_path / "rempli.xlsx")
    assert raw_members(tmp_path / "rempli.xlsx")["docProps/app.xml"] == raw_members(source)["docProps/app.xml"]


@settings(deadline=None)  # timing is the benchmarks' business: a loaded machine must not fail it
@given(first=st.integers(1, 16384), span=st.integers(0, 16383), column=st.integers(1, 16384))
def test_the_pattern_of_a_span_of_columns_matches_its_columns_and_no_other(first, span, column):
    from openpyxl.utils import get_column_letter

    from xlcircuit.xlsx.reduced import _letters_between

    last = min(first + span, 16384)
    pattern = re.compile(f"(?:{_letters_between(first, last)})[0-9]")
    assert (pattern.fullmatch(get_column_letter(column) + "1") is not None) == (first <= column <= last)


def test_a_refill_empties_the_rows_of_the_previous_tables_and_keeps_the_organisers(demo_path, tmp_path):
    from xlcircuit.xlsx.reduced import _strip_cells

    wb = openpyxl.load_workbook(demo_path)
    wb["Points"]["N5"] = "à garder"
    wb["Points"].row_dimensions[7].height = 30
    save_atomic(wb, demo_path)
    tdf.fill(book := Book(demo_path))
    book.save()
    package = Package(demo_path)
    sheet = next(s for s in package.sheets if s.name == "Points")
    table = package.table("Points")
    xml, others = _strip_cells(package.read(sheet.part), [table.bounds])
    assert others  # N5
    kept = re.findall(rb'<c r="([A-Z]+\d+)"', xml)
    inside = [ref for ref in kept if re.fullmatch(rb"[A-L]\d+", ref) and table.bounds[1] <= int(ref[1:]) <= table.bounds[3]]
    assert b"N5" in kept and inside == []
    assert re.search(rb"<row r=\"7\"[^>]*\bht=\"30\"[^>]*></row>", xml)  # its height kept, its cells gone


@settings(deadline=None)
@given(st.text())
def test_attributes_and_text_are_escaped_as_the_standard_library_escapes_them(text):
    from xml.sax.saxutils import escape as standard_escape
    from xml.sax.saxutils import quoteattr as standard_quoteattr

    from xlcircuit.xlsx.ooxml import escape, quoteattr

    assert (escape(text), quoteattr(text)) == (standard_escape(text), standard_quoteattr(text))


# --- the path, decided before anything is written --------------------------------------------------------------


def _sparkline_on_the_standings(path: Path, target: Path) -> Path:
    sheet = f"xl/worksheets/sheet{openpyxl.load_workbook(path).sheetnames.index('Classement') + 1}.xml"
    sparklines = NOTES_SHEET[NOTES_SHEET.index("<extLst>"):NOTES_SHEET.index("</worksheet>")]
    sparklines = "<extLst>" + sparklines[sparklines.index('<ext uri="{05C60535'):]
    return _broken(path, target, lambda n, d: d.replace(b"</worksheet>", sparklines.encode() + b"</worksheet>")
                   if n == sheet else d)


def test_the_path_is_public_and_the_full_rewrite_is_said_in_one_line_with_what_it_cannot_keep(demo_path, tmp_path):
    from xlcircuit.app.fill import fill

    outcome = fill(demo_path, output=tmp_path / "chirurgical.xlsx")
    assert outcome.route == "surgical" and not any("réécrit en entier" in w for w in outcome.warnings)
    path = _sparkline_on_the_standings(demo_path, tmp_path / "etincelles.xlsx")
    book = Book(path)
    tdf.fill(book)
    assert (book.route.kind, book.route.reason) == (
        "full", "la feuille « Classement », réécrite par le remplissage, contient des graphiques sparkline")
    outcome = fill(path, output=tmp_path / "complet.xlsx")
    assert outcome.route == "full"
    assert outcome.warnings[0] == (
        "le classeur est réécrit en entier (la feuille « Classement », réécrite par le remplissage, contient des "
        "graphiques sparkline) : cette réécriture ne garde pas les valeurs déjà calculées de ses formules (Excel les "
        "recalcule à l'ouverture), ni graphiques sparkline (feuille « Classement »).")


def test_another_openpyxl_takes_the_full_rewrite_and_says_so(demo_path, tmp_path, monkeypatch, capsys):
    """The surgical fill leans on openpyxl's internals: with another version than the one it was written for, the
    fill goes through openpyxl's public model only, and the organiser is told."""
    monkeypatch.setattr(openpyxl, "__version__", "3.2.0")
    assert main(["fill", str(demo_path), "-o", str(tmp_path / "rempli.xlsx")]) == 0
    assert ("le classeur est réécrit en entier (openpyxl 3.2.0 est installé, et l'écriture ciblée de xlcircuit est "
            "faite pour openpyxl 3.1.5) : cette réécriture ne garde pas") in capsys.readouterr().err
    assert package_problems(tmp_path / "rempli.xlsx") == []
    assert table_dicts(openpyxl.load_workbook(tmp_path / "rempli.xlsx")["Classement"], "Classement")


def test_internals_openpyxl_no_longer_has_take_the_full_rewrite(demo_path, monkeypatch):
    from xlcircuit.xlsx import compat

    assert compat.refusal() is None
    monkeypatch.setattr(compat, "_internals", lambda: [("Worksheet._cells", False)])
    book = Book(demo_path)
    tdf.fill(book)
    assert book.route.reason == "openpyxl 3.1.5 n'a pas les éléments internes attendus (Worksheet._cells)"
