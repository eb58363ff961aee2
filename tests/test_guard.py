"""The guarded reader (``xlcircuit/xlsx/safe.py``) and the save (``xlcircuit/xlsx/files.py``): every file that is
not a workbook xlcircuit can fill is one French sentence, the same for ``check`` and ``fill`` (exit 1), read
without a traceback, a hang or a bomb going off; a save by another program is never lost.

The damaged files are the kinds a fuzz of 5,000 mutated workbooks found ending in a traceback (issue 28): zip
members whose CRC, local header, flags or compression are wrong, encodings XML parsers do not know, ids and ranges
that are no numbers or ranges, bombs spelled the ways the former byte counts missed.
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from conftest import filled_example

from xlcircuit.cli import main
from xlcircuit.federations import tdf
from xlcircuit.rules.errors import WorkbookError
from xlcircuit.xlsx import Book, files, safe
from xlcircuit.xlsx.ooxml import rels_part
from xlcircuit.xlsx.package import Package
from xlcircuit.xlsx.validate import package_problems


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rezip(source: Path, target: Path, change=lambda name, data: data, extra=()) -> Path:
    """A copy of a workbook with parts changed (``change(name, data)``, None drops it) and ``extra`` members
    (name, data, compression) added; dated an hour ago (an e-mailed file, not one being written)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = change(info.filename, old.read(info.filename))
            if data is not None:
                new.writestr(info.filename, data)
        for name, data, method in extra:
            new.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data, compress_type=method)
    old_enough = time.time() - 3600
    os.utime(target, (old_enough, old_enough))
    return target


def central_entries(data: bytes) -> dict[str, int]:
    """Where each member's central directory entry starts, by name."""
    end = data.rindex(b"PK\x05\x06")
    count, _, start = struct.unpack("<HII", data[end + 10:end + 20])
    offsets = {}
    at = start
    for _ in range(count):
        name_length, extra_length, comment_length = struct.unpack("<HHH", data[at + 28:at + 34])
        offsets[data[at + 46:at + 46 + name_length].decode()] = at
        at += 46 + name_length + extra_length + comment_length
    return offsets


def patched(path: Path, target: Path, member: str, how: str) -> Path:
    """``path`` with the zip structure of ``member`` damaged ``how``."""
    data = bytearray(path.read_bytes())
    info = zipfile.ZipFile(path).getinfo(member)
    local, central = info.header_offset, central_entries(bytes(data))[member]
    name_length, extra_length = struct.unpack("<HH", data[local + 26:local + 30])
    start = local + 30 + name_length + extra_length
    if how == "crc":  # a byte of a stored member's data changed: its CRC no longer matches
        data[start] ^= 0xFF
    elif how == "local name":  # the local header names another part than the central directory
        data[local + 30] = ord("Y")
    elif how == "signature":  # the local header's signature damaged
        data[local:local + 4] = b"PK\x00\x00"
    elif how == "encrypted":  # the encryption flag, as a password-protected zip has it
        data[local + 6] |= 1
        data[central + 8] |= 1
    elif how in ("bzip2", "method 99"):  # a compression Excel never writes
        method = 12 if how == "bzip2" else 99
        data[local + 8:local + 10] = struct.pack("<H", method)
        data[central + 10:central + 12] = struct.pack("<H", method)
    elif how == "deflate stream":  # the compressed bytes of a deflated member damaged
        data[start:start + 4] = b"\xff\xff\xff\xff"
    target.write_bytes(bytes(data))
    old_enough = time.time() - 3600
    os.utime(target, (old_enough, old_enough))
    return target


@pytest.fixture
def filled(small_season: Path) -> Path:
    """A small TdF season, filled once (every part a fill reads and writes is there)."""
    book = Book(small_season)
    tdf.fill(book)
    book.save()
    return small_season


def one_sentence(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


def refused_alike(path: Path, expected: str, capsys, at_open: bool = True) -> None:
    """``check`` and ``fill`` both refuse ``path`` in the same one sentence, exit 1 (``at_open``: as soon as it is
    opened); the file is untouched."""
    before = digest(path)
    if at_open:
        with pytest.raises(WorkbookError, match=re.escape(expected)):
            Book(path)
    assert main(["check", str(path)]) == 1
    checked = one_sentence(capsys)
    assert main(["fill", str(path)]) == 1
    assert one_sentence(capsys) == checked and expected in checked
    assert digest(path) == before


# --- the zip ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("how, member, expected", [
    ("crc", "xl/media/extra.bin", "n'est pas un classeur .xlsx lisible (fichier tronqué ou abîmé : partie "
                                  "xl/media/extra.bin)"),
    ("local name", "xl/styles.xml", "(fichier tronqué ou abîmé : partie xl/styles.xml)"),
    ("signature", "xl/media/extra.bin", "(fichier tronqué ou abîmé : partie xl/media/extra.bin)"),
    ("encrypted", "xl/styles.xml", "contient une partie chiffrée (xl/styles.xml)"),
    ("bzip2", "xl/styles.xml", "la partie xl/styles.xml est compressée d'une façon qu'Excel n'écrit pas, méthode 12"),
    ("method 99", "xl/media/extra.bin", "compressée d'une façon qu'Excel n'écrit pas, méthode 99"),
    ("deflate stream", "xl/worksheets/sheet1.xml", "(fichier tronqué ou abîmé : partie xl/worksheets/sheet1.xml)"),
])  # fmt: skip
def test_a_damaged_zip_member_is_one_sentence_for_check_and_fill(filled, tmp_path, capsys, how, member, expected):
    extra = rezip(filled, tmp_path / "extra.xlsx", extra=[("xl/media/extra.bin", b"0123456789" * 10,
                                                           zipfile.ZIP_STORED)])
    assert main(["check", str(extra)]) == 0  # the extra part alone is no damage
    capsys.readouterr()
    refused_alike(patched(extra, tmp_path / "abime.xlsx", member, how), expected, capsys)


def test_a_part_twice_in_the_zip_is_one_sentence(filled, tmp_path, capsys):
    with pytest.warns(UserWarning, match="Duplicate name"):
        twice = rezip(filled, tmp_path / "double.xlsx", extra=[("xl/styles.xml", b"<styleSheet/>", zipfile.ZIP_DEFLATED)])
    refused_alike(twice, "la partie xl/styles.xml y est deux fois", capsys)


def test_members_named_outside_the_package_are_dropped_with_a_warning(filled, tmp_path, capsys):
    """A member ``../../Startup/x`` (or with backslashes) is never read, nor written into the filled workbook."""
    path = rezip(filled, tmp_path / "sortie.xlsx", extra=[
        ("../../AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/x.vbs", b"MsgBox 1", zipfile.ZIP_STORED),
        ("xl\\..\\..\\evil.xml", b"<a/>", zipfile.ZIP_DEFLATED)])
    assert main(["fill", str(path)]) == 0
    err = capsys.readouterr().err
    assert "2 partie(s) du fichier portent un nom qui sort du classeur (« ../../AppData/Roaming/Microsoft/Windows/" \
           "Start Menu/Programs/Startup/x.vbs », « xl\\..\\..\\evil.xml ») : elles ne sont pas recopiées" in err
    names = zipfile.ZipFile(path).namelist()
    assert not [n for n in names if ".." in n] and "xl/styles.xml" in names
    assert package_problems(path) == []


def test_an_unsupported_failure_during_the_save_is_one_sentence_and_the_original_intact(filled, monkeypatch, capsys):
    """The surgical writer meeting, at the save, a member it cannot copy (another program damaged the file under
    it, say): one sentence, nothing written; it was a traceback."""
    from xlcircuit.xlsx import surgery
    from xlcircuit.xlsx.ooxml import Unsupported

    def damaged(source, info, out):
        raise Unsupported(f"l'en-tête de la partie {info.filename} est abîmé")

    monkeypatch.setattr(surgery, "copy_raw", damaged)
    before = digest(filled)
    assert main(["fill", str(filled)]) == 1
    assert one_sentence(capsys).startswith("Impossible d'enregistrer petite.xlsx, une partie du classeur lu est abîmée "
                                           "(l'en-tête de la partie ")
    assert digest(filled) == before
    assert sorted(p.name for p in filled.parent.iterdir()) == ["petite.xlsx"]


# --- the XML and the package's map -------------------------------------------------------------------------------


def test_an_encoding_xml_parsers_do_not_know_is_one_sentence(filled, tmp_path, capsys):
    path = rezip(filled, tmp_path / "utf7.xlsx", lambda n, d: b'<?xml version="1.0" encoding="UTF-7"?>' + d
                 if n == "xl/tables/table2.xml" else d)
    refused_alike(path, "XML invalide dans xl/tables/table2.xml : encodage « UTF-7 » non pris en charge", capsys)


@pytest.mark.parametrize("part", ["docProps/app.xml", "xl/theme/theme1.xml", "xl/worksheets/sheet3.xml"])
def test_a_document_type_hidden_behind_a_long_comment_is_refused(filled, tmp_path, capsys, part):
    """The former check looked at a part's first 4 KB; a comment of 5,000 bytes (holding ``<a``, which looked like
    the root) put the entity declarations past it, and a part openpyxl does not read (the properties, the theme)
    was filled and copied into the workbook written."""
    prolog = (b'<?xml version="1.0"?><!--' + b"<a " * 1700 + b'--><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
              b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>')
    path = rezip(filled, tmp_path / "doctype.xlsx",
                 lambda name, data: prolog + re.sub(rb"^<\?xml[^>]*\?>", b"", data) if name == part else data)
    refused_alike(path, "constructions XML interdites (entités)", capsys)


@pytest.mark.parametrize("change, expected", [
    (lambda n, d: re.sub(rb'ref="A1:[A-Z]+\d+"', b'ref="A0"', d) if n == "xl/tables/table2.xml" else d,
     "la table « Joueurs » (xl/tables/table2.xml) a pour plage « A0 », qui n'en est pas une"),
    (lambda n, d: re.sub(rb'\bid="\d+"', b'id="1e20"', d, count=1) if n == "xl/tables/table2.xml" else d,
     "la table « Joueurs » (xl/tables/table2.xml) a pour numéro « 1e20 »"),
    (lambda n, d: re.sub(rb'sheetId="2"', b'sheetId="9' + b"9" * 400 + b'"', d) if n == "xl/workbook.xml" else d,
     "la feuille « Joueurs » a pour numéro « 9999"),
    (lambda n, d: re.sub(rb'borderId="0"', b'borderId="1e20"', d, count=2) if n == "xl/styles.xml" else d,
     "abime.xlsx est endommagé et ne peut pas être lu (contenu inattendu)"),
    (lambda n, d: None if n == "xl/worksheets/sheet2.xml" else d, "la feuille « Joueurs » n'a pas de partie"),
])  # fmt: skip
def test_ids_and_ranges_that_are_none_are_one_sentence(filled, tmp_path, capsys, change, expected):
    refused_alike(rezip(filled, tmp_path / "abime.xlsx", change), expected, capsys, at_open="contenu" not in expected)


def test_a_cell_no_spreadsheet_writes_in_an_input_table_is_one_sentence_with_its_place(filled, tmp_path, capsys):
    sheet = f"xl/worksheets/sheet{openpyxl.load_workbook(filled).sheetnames.index('Résultats') + 1}.xml"
    path = rezip(filled, tmp_path / "chaine.xlsx", lambda n, d: re.sub(
        rb'<c r="B2"([^>]*) t="inlineStr"><is><t>[^<]*</t></is></c>', rb'<c r="B2"\1 t="s"><v>99</v></c>', d)
        if n == sheet else d)
    refused_alike(path, "(feuille « Résultats » : la chaîne partagée n° 99 n'existe pas)", capsys, at_open=False)


def test_a_drawing_without_its_relationships_is_one_sentence(filled, tmp_path, capsys):
    """Its chart points nowhere (a traceback, found by the fuzz): Excel would repair the file, xlcircuit says so."""
    from openpyxl.chart import BarChart, Reference

    wb = openpyxl.load_workbook(filled)
    notes = wb.create_sheet("Notes")
    notes["A1"], notes["A2"] = 1, 2
    chart = BarChart()
    chart.add_data(Reference(notes, min_col=1, min_row=1, max_row=2))
    notes.add_chart(chart, "C3")
    wb.save(filled)
    package = Package(filled)
    notes_part = next(sheet.part for sheet in package.sheets if sheet.name == "Notes")
    drawing = next(r.part for r in package.rels(notes_part) if r.type.endswith("/drawing"))
    package.close()
    path = rezip(filled, tmp_path / "dessin.xlsx", lambda n, d: None if n == rels_part(drawing) else d)
    refused_alike(path, f"({drawing} renvoie à la relation « rId1 », absente de ses relations)", capsys)


def test_a_sheet_pointing_to_a_table_its_relationships_do_not_have_is_one_sentence(filled, tmp_path, capsys):
    path = rezip(filled, tmp_path / "table.xlsx", lambda n, d: d.replace(b'Id="rId1"', b'Id="rId7"')
                 if n == "xl/worksheets/_rels/sheet2.xml.rels" else d)
    refused_alike(path, "(xl/worksheets/sheet2.xml renvoie à la relation « rId1 », absente de ses relations)", capsys)


def test_a_member_longer_than_the_room_it_has_is_one_sentence(filled, tmp_path, capsys):
    """Its size in the central directory runs over the next member: copied raw, it would not be what was read."""
    data = bytearray(filled.read_bytes())
    entry = central_entries(bytes(data))["xl/styles.xml"]
    size = struct.unpack("<I", data[entry + 20:entry + 24])[0]
    data[entry + 20:entry + 24] = struct.pack("<I", size + 5000)
    path = tmp_path / "taille.xlsx"
    path.write_bytes(bytes(data))
    refused_alike(path, "(fichier tronqué ou abîmé : partie xl/styles.xml)", capsys)


# --- bombs ----------------------------------------------------------------------------------------------------


def test_a_merged_range_quoted_with_single_quotes_is_counted(filled, tmp_path, capsys):
    """``<mergeCell ref='A1:XFD1048576'/>`` took 3.4 GB and 112 s, then a MemoryError: the former count read
    double quotes only."""
    merge = b"<mergeCells count='1'><mergeCell  ref = 'A1:XFD1048576' /></mergeCells>"
    path = rezip(filled, tmp_path / "fusion.xlsx", lambda n, d: d.replace(b"</sheetData>", b"</sheetData>" + merge)
                 if n == "xl/worksheets/sheet1.xml" else d)
    start = time.perf_counter()
    refused_alike(path, "déclare plus de 2 000 000 cellules (xl/worksheets/sheet1.xml)", capsys)
    assert time.perf_counter() - start < 60


def test_styles_each_followed_by_a_new_line_are_counted(filled, tmp_path, capsys, monkeypatch):
    """A 200 KB styles.xml of 3 million ``<xf`` each followed by a new line took 169 s and 2.35 GB: the former count
    read ``<xf `` and ``<xf>`` only. The limit is lowered so that the bomb is small."""
    monkeypatch.setattr(safe, "MAX_CELLS", 5000)
    path = rezip(filled, tmp_path / "styles.xlsx", lambda n, d: d.replace(b"</cellXfs>", b"<xf\n/>" * 6000 + b"</cellXfs>")
                 if n == "xl/styles.xml" else d)
    refused_alike(path, "déclare plus de 5 000 cellules (xl/styles.xml)", capsys)


def test_a_count_that_would_refuse_a_file_is_made_again_by_the_xml_parser(filled, tmp_path, monkeypatch, capsys):
    """Comments holding tags make the byte count too high: the parser's count, exact, lets the file through."""
    monkeypatch.setattr(safe, "MAX_CELLS", 5000)
    path = rezip(filled, tmp_path / "commentaires.xlsx", lambda n, d: d.replace(
        b"</cellXfs>", b"<!--" + b"<xf/>" * 6000 + b"--></cellXfs>") if n == "xl/styles.xml" else d)
    assert main(["check", str(path)]) == 0


def test_a_merged_cell_bomb_on_an_output_sheet_is_one_sentence_and_nothing_after(filled, tmp_path):
    """1,000 merged ranges of 1,000 cells on the Points sheet (rewritten by the fill): openpyxl would spend minutes
    on their borders, then the save failed and a closed stream's error followed the sentence."""
    from openpyxl.utils import get_column_letter

    sheet = f"xl/worksheets/sheet{openpyxl.load_workbook(filled).sheetnames.index('Points') + 1}.xml"
    merges = "".join(f'<mergeCell ref="A{r}:{get_column_letter(1000)}{r}"/>' for r in range(100, 1100))
    block = f'<mergeCells count="1000">{merges}</mergeCells>'.encode()
    path = rezip(filled, tmp_path / "fusions.xlsx", lambda n, d: d.replace(b"</sheetData>", b"</sheetData>" + block, 1)
                 if n == sheet else d)
    run = subprocess.run([sys.executable, "-m", "xlcircuit", "fill", str(path)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 1
    assert run.stderr.strip() == (f"fusions.xlsx déclare plus de 2 000 000 cellules ({sheet}) : fichier piégé ou bien "
                                  "trop gros, il n'est pas lu.")


def test_merged_cells_the_organiser_made_on_an_output_sheet_are_kept(filled, capsys):
    """A title merged over three columns beside the tables: the save failed (« MergedCell has no _hyperlink »)."""
    from openpyxl.styles import Border, Side

    wb = openpyxl.load_workbook(filled)
    wb["Points"]["N1"] = "Note du comité"
    wb["Points"]["N1"].border = Border(*(Side("thin"),) * 4)  # the merged cells get their share of the border
    wb["Points"].merge_cells("N1:P2")
    wb.save(filled)
    assert main(["fill", str(filled)]) == 0
    ws = openpyxl.load_workbook(filled)["Points"]
    assert [str(r) for r in ws.merged_cells.ranges] == ["N1:P2"] and ws["N1"].value == "Note du comité"


# --- files that are not regular files -----------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_and_a_device_are_refused_without_being_read(tmp_path):
    """``/dev/zero`` was read without end, a pipe blocked until someone wrote to it: run apart, with a time limit."""
    fifo = tmp_path / "tube.xlsx"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        run = subprocess.run([sys.executable, "-m", "xlcircuit", "check", str(path)], capture_output=True, text=True,
                             timeout=60)
        assert run.returncode == 1
        assert run.stderr.strip() == (f"{path.name} n'est pas un fichier ordinaire (un périphérique ou un tube, par "
                                      "exemple) : ce n'est pas un classeur, il n'est pas lu.")


# --- the save ---------------------------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")
def test_a_fill_through_a_link_fills_the_workbook_and_keeps_the_link(small_season, tmp_path):
    real = small_season
    link = tmp_path / "lien" / "saison.xlsx"
    link.parent.mkdir()
    link.symlink_to(real)
    before = digest(real)
    assert main(["fill", str(link)]) == 0
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert digest(real) != before
    assert [p.name for p in link.parent.iterdir()] == ["saison.xlsx"]  # no temporary file left beside the link


@pytest.mark.parametrize("lock", [".~lock.petite.xlsx#", "~$petite.xlsx"])
def test_a_lock_appearing_during_the_save_is_honoured(filled, monkeypatch, capsys, lock):
    """A spreadsheet program opens the workbook while the fill writes: nothing is replaced."""
    from xlcircuit.xlsx.surgery import Surgery

    real_save = Surgery.save

    def opened_meanwhile(surgery, target):
        real_save(surgery, target)
        (filled.parent / lock).write_text("Alice,machine,alice,01.12.2026 10:00,file:///…;")

    monkeypatch.setattr(Surgery, "save", opened_meanwhile)
    before = digest(filled)
    assert main(["fill", str(filled)]) == 1
    program = "LibreOffice" if lock.startswith(".~") else "Excel"
    assert one_sentence(capsys) == (f"petite.xlsx est ouvert dans {program} (verrou « {lock} ») : rien n'a été écrit ; "
                                    "fermez-le, puis relancez (--force si le verrou est resté après une panne).")
    assert digest(filled) == before


def _rename_save(path: Path, note: str) -> None:
    """What Excel and LibreOffice do when they save: write a temporary file beside, then rename it onto the
    workbook."""
    wb = openpyxl.load_workbook(path)
    wb["Tournois"]["H1"] = note
    temporary = path.with_name("~tmp-excel.xlsx")
    wb.save(temporary)
    os.replace(temporary, path)


def test_a_save_by_another_program_at_the_moment_of_the_replacement_is_never_lost(filled, monkeypatch, capsys):
    """The other program renames its save onto the workbook just after xlcircuit compared it with what it read and
    just before the replacement: the exchange takes it away, sees it is not what was read, and puts it back."""
    if files._system_exchange() is None:
        pytest.skip("no atomic exchange of two names on this system")
    real_exchange = files._exchange
    raced = []

    def racing(tmp, target):
        if not raced:  # the first exchange only: the one that puts the filled workbook in place
            raced.append(target)
            _rename_save(filled, "enregistré par LibreOffice pendant le remplissage")
        return real_exchange(tmp, target)

    monkeypatch.setattr(files, "_exchange", racing)
    assert main(["fill", str(filled)]) == 1
    assert one_sentence(capsys) == ("petite.xlsx a été modifié par un autre programme pendant le travail de xlcircuit : "
                                    "rien n'a été écrit (l'autre enregistrement est intact), relancez.")
    assert raced == [filled.resolve()]
    assert openpyxl.load_workbook(filled)["Tournois"]["H1"].value == "enregistré par LibreOffice pendant le remplissage"
    assert sorted(p.name for p in filled.parent.iterdir()) == ["petite.xlsx"]


def test_without_an_atomic_exchange_the_workbook_is_compared_just_before_the_replacement(filled, monkeypatch, capsys):
    monkeypatch.setattr(files, "_system_exchange", lambda: None)
    real_digest = files.file_digest

    def saved_meanwhile(path):  # the comparison just before the plain replacement
        _rename_save(filled, "autre")
        return real_digest(path)

    monkeypatch.setattr(files, "file_digest", saved_meanwhile)
    assert main(["fill", str(filled)]) == 1
    assert "a été modifié par un autre programme" in one_sentence(capsys)
    assert openpyxl.load_workbook(filled)["Tournois"]["H1"].value == "autre"


def test_a_save_that_would_damage_the_workbook_more_than_it_came_writes_nothing(filled, tmp_path, monkeypatch, capsys):
    """Never an output more damaged than its input: a fill whose new parts would lack their content type (Excel
    would repair the file: here a chart typed as plain XML) is refused before it takes the workbook's place."""
    from xlcircuit.xlsx.parts import content_types

    monkeypatch.setattr(content_types, "patched", lambda xml, *args, **kwargs: xml)
    wb = openpyxl.load_workbook(filled)
    del wb["Courbes"]  # the fill adds it back: a new sheet, which needs its content type
    wb.save(filled)
    before = digest(filled)
    assert main(["fill", str(filled)]) == 1
    sentence = one_sentence(capsys)
    assert sentence.startswith("L'enregistrement de petite.xlsx aurait abîmé le classeur (xl/charts/chart")
    assert sentence.endswith(": type « application/xml », attendu « application/vnd.openxmlformats-officedocument."
                             "drawingml.chart+xml ») : rien n'a été écrit, l'original n'a pas été modifié.")
    assert digest(filled) == before


def test_content_types_without_their_defaults_are_filled_into_a_workbook_excel_opens(filled, tmp_path, capsys):
    """Its relationship parts untyped (Excel would repair it): the fill writes every part it adds with its type,
    and the organiser's parts as they came; what it writes is no more damaged, and openpyxl reopens it."""
    path = rezip(filled, tmp_path / "types.xlsx", lambda n, d: re.sub(rb"<Default [^>]*/>", b"", d)
                 if n == "[Content_Types].xml" else d)
    assert any("partie sans type" in p for p in package_problems(path))
    assert main(["fill", str(path), "-o", str(tmp_path / "rempli.xlsx")]) == 0
    assert openpyxl.load_workbook(tmp_path / "rempli.xlsx")["Classement"].tables
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(tmp_path / "rempli.xlsx") as new:
        from xlcircuit.xlsx.validate import structure_problems

        assert structure_problems(new) <= structure_problems(old)


# --- what a fill copies as it is must open again (issue 28, the fuzz's findings) ---------------------------------

_EVIL = (b'<Relationship Id="rIdEvil" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
         b'oleObject" Target="..\\..\\evil.bat"/></Relationships>')


def test_relationships_pointing_outside_the_workbook_are_dropped_with_a_warning(filled, tmp_path, capsys):
    """A relationship toward ``..\\..\\evil.bat`` (in a sheet copied as it is, and in the package's own, which a
    fill patches) is left out of the filled workbook, and said; it was copied as it came."""
    evil = {"xl/worksheets/_rels/sheet3.xml.rels", "_rels/.rels"}
    path = rezip(filled, tmp_path / "relation.xlsx",
                 lambda name, data: data.replace(b"</Relationships>", _EVIL) if name in evil else data)
    assert main(["fill", str(path)]) == 0
    assert "2 relation(s) du fichier pointent hors du classeur (« ..\\..\\evil.bat », « ..\\..\\evil.bat ») : elles " \
           "ne sont pas recopiées dans le classeur écrit." in capsys.readouterr().err
    with zipfile.ZipFile(path) as archive:
        assert not [n for n in archive.namelist() if n.endswith(".rels") and b"evil" in archive.read(n)]
    assert package_problems(path) == []


def test_a_relationship_pointing_outside_that_its_part_uses_is_one_sentence(filled, tmp_path, capsys):
    """Left out, the sheet would point to nothing (Excel repairs such a file): refused instead."""
    path = rezip(filled, tmp_path / "relation.xlsx", lambda name, data: (
        data.replace(b"</Relationships>", _EVIL) if name == "xl/worksheets/_rels/sheet3.xml.rels" else
        data.replace(b"</worksheet>", b'<legacyDrawing xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
                                      b'2006/relationships" r:id="rIdEvil"/></worksheet>')
        if name == "xl/worksheets/sheet3.xml" else data))
    refused_alike(path, "(xl/worksheets/sheet3.xml renvoie à « ..\\..\\evil.bat », hors du classeur)", capsys)


def test_a_table_part_missing_gives_no_table_twice_in_the_filled_workbook(tmp_path):
    """A sheet copied as it is keeps pointing to its missing table: the fill's new tables take other names (one
    took that name, and Excel saw one table twice)."""
    from xlcircuit.federations import ADAPTERS

    source = filled_example(ADAPTERS["cdf"], tmp_path)
    kept = next(t for t in Package(source).tables["Préférés"])
    path = rezip(source, tmp_path / "sans-table.xlsx", lambda name, data: None if name == kept.part else data)
    before = set(package_problems(path))
    assert main(["fill", str(path)]) == 0
    assert set(package_problems(path)) <= before
    assert not [p for p in package_problems(path) if "en double" in p]
    path.unlink()  # it keeps the defects of its input, made on purpose (the suite's check of written workbooks)


@pytest.mark.parametrize("part, old, new, expected", [
    ("xl/worksheets/sheet3.xml", b'<col width="36"', b'<col width="large"',
     "(feuille « Tournois » : valeur illisible"),
    ("xl/worksheets/sheet7.xml", b"<sheetData", b'<sheetData><row r="XFD1048577"/></sheetData><x',
     "XML invalide dans xl/worksheets/sheet7.xml"),
    ("xl/worksheets/sheet1.xml", b"</sheetData>", b'<row r="XFD1048577"><c r="Z1"/></row></sheetData>',
     "(feuille « Saison » : une ligne a pour numéro « XFD1048577 »)"),
    ("xl/worksheets/sheet6.xml", b'defaultRowHeight="15"', b'defaultRowHeight="' + b"9" * 400 + b'"',
     "(feuille « Classement » : nombre hors limites dans sheetFormatPr (defaultRowHeight))"),
])  # fmt: skip
def test_a_sheet_whose_filled_copy_would_not_open_again_is_one_sentence(filled, tmp_path, capsys, part, old, new,
                                                                         expected):
    """A sheet copied as it is holding what openpyxl cannot read (a column width that is no number, a row number
    that is a cell's reference, XML that is not well-formed), or a sheet a fill rewrites holding a number openpyxl
    writes back empty: the fill left a workbook that no longer opened."""
    path = rezip(filled, tmp_path / "illisible.xlsx", lambda name, data: data.replace(old, new, 1) if name == part
                 else data)
    refused_alike(path, expected, capsys, at_open=False)


# --- a file check accepts is one fill fills, and the reverse (the package fuzz's disagreements) -------------------


def agreed_and_filled(path: Path, capsys) -> None:
    """``check`` accepts ``path`` and ``fill`` fills it into a workbook openpyxl reopens with its standings, no more
    damaged than it came (what Excel would repair in it, it had already)."""
    from xlcircuit.xlsx.validate import structure_problems

    source = path.with_name("avant.xlsx")
    source.write_bytes(path.read_bytes())
    assert main(["check", str(path)]) == 0, capsys.readouterr().err
    assert main(["fill", str(path)]) == 0, capsys.readouterr().err
    assert "Classeur rempli" in capsys.readouterr().out
    assert openpyxl.load_workbook(path)["Classement"].tables
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path) as new:
        assert structure_problems(new) <= structure_problems(old)
    path.unlink()  # it keeps the defects of its input, made on purpose (the suite's check of written workbooks)
    source.unlink()


def test_a_workbook_its_package_relationships_do_not_name_is_filled_with_its_sheets_typed(filled, tmp_path, capsys):
    """``_rels/.rels`` without its relationship to the workbook (xl/workbook.xml is then read, as openpyxl reads it):
    check accepted it, and fill refused it, saying its save would have left the rewritten sheets untyped."""
    path = rezip(filled, tmp_path / "sans-lien.xlsx", lambda name, data: re.sub(
        rb'<Relationship [^>]*officeDocument"[^>]*/>', b"", data) if name == "_rels/.rels" else data)
    assert b"workbook.xml" not in zipfile.ZipFile(path).read("_rels/.rels")
    agreed_and_filled(path, capsys)


@pytest.mark.parametrize("part, namespace", [
    ("[Content_Types].xml", b"http://purl.oclc.org/ooxml/spreadsheetml/main"),
    ("xl/worksheets/_rels/sheet3.xml.rels", b""),
])  # fmt: skip
def test_a_package_part_in_another_namespace_is_one_sentence_for_check_and_fill(filled, tmp_path, capsys, part,
                                                                                namespace):
    """Content types or relationships in another namespace (Excel reads no such package): check accepted them and
    fill refused them, vaguely (« une partie du classeur lu est abîmée »); both now say which part and why."""
    path = rezip(filled, tmp_path / "espace.xlsx", lambda name, data: re.sub(
        rb'xmlns="[^"]*"', b'xmlns="' + namespace + b'"', data, count=1) if name == part else data)
    found = "Types" if part.startswith("[") else "Relationships"
    refused_alike(path, f"(la racine de {part} est « {found} » de l'espace de noms « {namespace.decode()} », attendu "
                        f"« {found} » de l'espace de noms", capsys)


def test_a_relationship_toward_a_drive_is_left_out_like_a_member_so_named(filled, tmp_path, capsys):
    """A member ``C:/evil.txt`` and a relationship toward ``/C:/evil.txt``: the member was left out, and the
    relationship kept pointing to it, so check accepted and fill refused; both are now left out, and said."""
    relation = (b'<Relationship Id="rIdEvil" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                b'relationships/oleObject" Target="/C:/evil.txt"/></Relationships>')
    path = rezip(filled, tmp_path / "lecteur.xlsx", lambda name, data: data.replace(b"</Relationships>", relation)
                 if name == "_rels/.rels" else data, extra=[("C:/evil.txt", b"@echo pwned\r\n", zipfile.ZIP_DEFLATED)])
    agreed_and_filled(path, capsys)


def test_a_number_of_hundreds_of_digits_in_the_journal_is_kept_as_its_digits_and_the_refill_opens(tmp_path, capsys):
    """The Journal's earlier rows are written back by every fill: a cell of 400 digits there (no spreadsheet number
    holds it) is kept as its digits, written as text, and the refilled workbook opens (found by the long fuzz)."""
    from xlcircuit.federations import ADAPTERS

    path = filled_example(ADAPTERS["tdf"], tmp_path)
    wb = openpyxl.load_workbook(path)
    part = f"xl/worksheets/sheet{wb.sheetnames.index('Journal') + 1}.xml"
    journal = wb["Journal"]
    top = int(re.sub(r"\D", "", journal.tables["Journal"].ref.split(":")[0]))
    digits = "9" * 400
    copy = path.with_name("copie.tmpzip")
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename == part:
                data, count = re.subn(rf'<c r="C{top + 1}"[^>]*?(/>|>.*?</c>)'.encode(),
                                      f'<c r="C{top + 1}"><v>{digits}</v></c>'.encode(), data, count=1, flags=re.S)
                assert count == 1
            new.writestr(info, data)
    os.replace(copy, path)
    assert main(["fill", str(path)]) == 0, capsys.readouterr().err
    assert package_problems(path) == []
    cells = [c.value for row in openpyxl.load_workbook(path)["Journal"].iter_rows() for c in row]
    assert digits in cells


def test_an_output_table_declaring_an_absurd_header_row_count_is_rewritten_as_the_fill_lays_it_out(tmp_path, capsys):
    """A published table part saying headerRowCount="999999999999" (found by the long fuzz, seed 2027 case 201): the
    fill's table has one header row and no totals row, whatever the file said; never a traceback."""
    from xlcircuit.federations import ADAPTERS

    path = filled_example(ADAPTERS["tdf"], tmp_path)
    copy = path.with_name("copie.tmpzip")
    changed = 0
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            if info.filename.startswith("xl/tables/") and b'displayName="Classement"' in data:
                data = re.sub(rb'\s(?:headerRowCount|totalsRowCount)="[^"]*"', b"", data)
                data = data.replace(b"<table ", b'<table headerRowCount="999999999999" totalsRowCount="7" ', 1)
                changed += 1
            new.writestr(info, data)
    os.replace(copy, path)
    assert changed == 1
    assert main(["fill", str(path)]) == 0, capsys.readouterr().err
    table = openpyxl.load_workbook(path)["Classement"].tables["Classement"]
    assert (table.headerRowCount, table.totalsRowCount) == (1, None)
    assert package_problems(path) == []


def test_a_number_of_hundreds_of_digits_is_saved_as_its_digits_on_the_full_rewrite_too(tmp_path):
    """openpyxl cannot write a whole number beyond a double's range (found by the long fuzz, seed 2028 case 1497,
    on a fill taking the full rewrite): the save keeps it as its digits, in text, and the workbook opens."""
    from xlcircuit.xlsx import save_atomic

    wb = openpyxl.Workbook()
    wb.active["D1"] = int("9" * 400)
    wb.active["D2"] = 12
    path = save_atomic(wb, tmp_path / "grand.xlsx")
    ws = openpyxl.load_workbook(path).active
    assert (ws["D1"].value, ws["D2"].value) == ("9" * 400, 12)
    assert package_problems(path) == []
