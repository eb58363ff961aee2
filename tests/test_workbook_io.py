"""Files people e-mail around: nothing lost when saving, nothing let in when reading."""

from __future__ import annotations

import hashlib
import io
import os
import random
import time
import zipfile
from pathlib import Path

import openpyxl
import openpyxl.xml
import pytest
from conftest import leader
from openpyxl.chart import BarChart, Reference

from xlcircuit.cli import main
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.federations.examples import load
from xlcircuit.rules.errors import WorkbookError
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, safe, save_atomic
from xlcircuit.xlsx.package import Package
from xlcircuit.xlsx.surgery import Surgery


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rezip(source: Path, target: Path, change) -> Path:
    """A copy of a workbook with some parts changed: ``change(name, data) -> data`` (None drops it)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = change(info.filename, old.read(info.filename))
            if data is not None:
                new.writestr(info.filename, data)
    return target


# --- unreadable files: one sentence each -----------------------------------------------------


def _bad_files(tmp_path: Path, good: Path) -> dict[str, tuple[Path, str]]:
    files = {}

    def make(name: str, content: bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(content)
        return path

    files["vide"] = (make("vide.xlsx", b""), "est vide")
    files["aléatoire"] = (make("bruit.xlsx", bytes(random.Random(1).randrange(256) for _ in range(4000))),
                          "n'est pas un classeur .xlsx lisible")
    files["tronqué"] = (make("tronque.xlsx", good.read_bytes()[: good.stat().st_size // 2]),
                        "n'est pas un classeur .xlsx lisible")
    files["csv"] = (make("resultats.csv", b"Tournoi;Joueur\nOpen;Alice\n"), "est un fichier texte")
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
    files["xls"] = (make("ancien.xls", ole + b"Workbook".ljust(512, b"\0")), "format .xls")
    files["chiffré"] = (make("secret.xlsx", ole + "EncryptedPackage".encode("utf-16-le")), "protégé par mot de passe")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<w/>")
    files["zip sans classeur"] = (make("archive.xlsx", buffer.getvalue()), "ne contient pas de classeur Excel")
    files["absent"] = (tmp_path / "absent.xlsx", "Fichier introuvable")
    files["dossier"] = (tmp_path, "est un dossier")
    return files


@pytest.mark.parametrize("kind", ["vide", "aléatoire", "tronqué", "csv", "xls", "chiffré", "zip sans classeur",
                                  "absent", "dossier"])
def test_unreadable_files_give_one_sentence_and_status_1(kind, tmp_path, small_season, capsys):
    path, expected = _bad_files(tmp_path, small_season)[kind]
    with pytest.raises(WorkbookError, match=expected):
        Book(path)
    assert main(["fill", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert expected in err and "\n" not in err and "Traceback" not in err


def test_defusedxml_is_what_openpyxl_parses_with():
    assert openpyxl.xml.DEFUSEDXML is True


def test_an_entity_expansion_bomb_is_refused_at_once(tmp_path, small_season):
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
            + "".join(f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">' for i in range(1, 10))
            + ']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
            '<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>')
    path = rezip(small_season, tmp_path / "bombe.xlsx",
                 lambda name, data: bomb.encode() if name == "xl/worksheets/sheet1.xml" else data)
    start = time.perf_counter()
    with pytest.raises(WorkbookError, match="entités"):
        Book(path)
    assert time.perf_counter() - start < 5


def test_a_zip_bomb_is_refused_before_parsing(tmp_path, small_season):
    path = rezip(small_season, tmp_path / "zip.xlsx",
                 lambda name, data: data + b" " * (8 << 20) if name == "xl/worksheets/sheet2.xml" else data)
    with pytest.raises(WorkbookError, match="anormalement compressée"):
        Book(path)


def test_the_total_size_limit_is_checked_from_the_zip_directory(small_season, monkeypatch):
    monkeypatch.setattr(safe, "MAX_UNCOMPRESSED", 1000)
    with pytest.raises(WorkbookError, match="trop gros une fois décompressé"):
        Book(small_season)


# --- saving: never half-written --------------------------------------------------------------


def leftovers(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.tmp"))


def test_a_failing_save_leaves_the_original_and_no_temporary_file(small_season, monkeypatch):
    before = digest(small_season)
    book = Book(small_season)
    tdf_book.fill(book)

    def broken_save(self, filename):
        Path(filename).write_bytes(b"PK\x03\x04 half")
        raise OSError("disque plein")

    monkeypatch.setattr(openpyxl.Workbook, "save", broken_save)
    monkeypatch.setattr(Surgery, "save", broken_save)  # the surgical writer (a fill's save)
    with pytest.raises(WorkbookError, match=r"Impossible d'enregistrer petite.xlsx .disque plein. : l'original"):
        book.save()
    assert digest(small_season) == before
    assert leftovers(small_season.parent) == []


def test_a_locked_workbook_is_reported_in_one_sentence(small_season, monkeypatch, capsys):
    before = digest(small_season)

    def locked(src, dst):
        raise PermissionError(13, "The process cannot access the file because it is being used by another process")

    monkeypatch.setattr(os, "replace", locked)
    assert main(["fill", str(small_season)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == "petite.xlsx est ouvert dans un autre programme (Excel ?) : fermez-le et relancez."
    assert digest(small_season) == before
    assert leftovers(small_season.parent) == []


# --- what openpyxl cannot keep ---------------------------------------------------------------

# openpyxl writes its drawings in the default namespace (Excel would write the xdr: prefix).
_SHAPE = (b'<twoCellAnchor><from><col>1</col><colOff>0</colOff><row>1</row><rowOff>0</rowOff></from>'
          b'<to><col>3</col><colOff>0</colOff><row>4</row><rowOff>0</rowOff></to><sp macro="" textlink="">'
          b'<nvSpPr><cNvPr id="9" name="Zone de texte"/><cNvSpPr txBox="1"/></nvSpPr><spPr/></sp>'
          b'<clientData/></twoCellAnchor>')
_SPARKLINES = (b'<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" '
               b'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
               b'<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
               b'<x14:sparklineGroup><x14:sparklines><x14:sparkline><xm:f>Notes!A1:A3</xm:f><xm:sqref>B1</xm:sqref>'
               b'</x14:sparkline></x14:sparklines></x14:sparklineGroup></x14:sparklineGroups></ext></extLst>')


def test_features_openpyxl_cannot_keep_are_named_and_kept_by_the_fill(tmp_path, small_season, capsys):
    wb = openpyxl.load_workbook(small_season)
    notes = wb.create_sheet("Notes")
    for row in range(1, 4):
        notes.cell(row, 1, row)
    chart = BarChart()
    chart.add_data(Reference(notes, min_col=1, min_row=1, max_row=3))
    notes.add_chart(chart, "D2")  # gives the sheet a drawing part
    wb.save(small_season)
    notes_part = f"xl/worksheets/sheet{wb.sheetnames.index('Notes') + 1}.xml"  # openpyxl numbers them in order

    def change(name: str, data: bytes) -> bytes:
        if name.startswith("xl/drawings/drawing") and name.endswith(".xml"):
            assert data.endswith(b"</wsDr>")
            return data.replace(b"</wsDr>", _SHAPE + b"</wsDr>")
        if name == notes_part:
            assert data.endswith(b"</worksheet>")
            return data.replace(b"</worksheet>", _SPARKLINES + b"</worksheet>")
        return data

    rich = rezip(small_season, tmp_path / "riche.xlsx", change)
    with zipfile.ZipFile(rich, "a") as archive:
        archive.writestr("xl/ctrlProps/ctrlProp1.xml", '<formControlPr objectType="CheckBox"/>')
    before = digest(rich)
    book = Book(rich)
    assert sorted(map(str, book.unkept)) == sorted([
        "contrôles de formulaire (classeur)",
        "formes ou zones de texte (feuille « Notes »)",
        "graphiques sparkline (feuille « Notes »)",
    ])
    notes_parts = Package(rich).reachable([notes_part]) | {"xl/ctrlProps/ctrlProp1.xml"}  # its drawing, its chart
    with zipfile.ZipFile(rich) as archive:
        kept = {n: archive.read(n) for n in notes_parts}
    assert main(["fill", str(rich)]) == 0
    err = capsys.readouterr().err
    # The fill rewrites only its own sheets: the organiser's are copied as they are, nothing is lost.
    assert "openpyxl ne sait pas conserver" not in err and not (tmp_path / "riche (avant xlcircuit).xlsx").exists()
    with zipfile.ZipFile(rich) as archive:
        assert {n: archive.read(n) for n in kept} == kept
    assert digest(rich) != before
    assert leader(rich) == "Alice"


def test_a_plain_workbook_has_nothing_unkept(small_season):
    assert Book(small_season).unkept == []


# --- idempotence -----------------------------------------------------------------------------


def output_parts(path: Path) -> dict[str, bytes]:
    """The XML of the output sheets, their tables and charts, as saved."""
    sheets = openpyxl.load_workbook(path).sheetnames
    outputs = tuple(f"xl/worksheets/sheet{sheets.index(name) + 1}.xml" for name in ("Points", "Classement", "Courbes"))
    with zipfile.ZipFile(path) as archive:
        return {n: archive.read(n) for n in archive.namelist()
                if n in outputs or n.startswith(("xl/tables/", "xl/charts/", "xl/drawings/"))}


def test_refilling_gives_byte_for_byte_the_same_output_tables(demo_path, tmp_path):
    first, second = tmp_path / "1.xlsx", tmp_path / "2.xlsx"
    book = Book(demo_path)
    tdf_book.fill(book)
    book.save(first)
    book = Book(first)
    tdf_book.fill(book)
    book.save(second)
    assert output_parts(first) and output_parts(first) == output_parts(second)


def test_input_row_order_does_not_change_a_byte_of_the_output_tables(demo_path, tmp_path):
    rng = random.Random(3)
    shuffled = {name: rng.sample(rows, len(rows)) for name, rows in
                (("joueurs", load("tdf").JOUEURS), ("tournois", load("tdf").TOURNOIS), ("resultats", load("tdf").RESULTATS))}
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.PARAMETRES, [("Saison", load("tdf").SAISON)])
    type_rows(wb, tdf_book.JOUEURS, shuffled["joueurs"])
    type_rows(wb, tdf_book.TOURNOIS, shuffled["tournois"])
    type_rows(wb, tdf_book.RESULTATS, shuffled["resultats"])
    other = save_atomic(wb, tmp_path / "melange.xlsx")
    for path in (demo_path, other):
        book = Book(path)
        tdf_book.fill(book)
        book.save()
    assert output_parts(demo_path) == output_parts(other)


def test_the_output_keeps_the_workbooks_extension(small_season, tmp_path, capsys):
    assert main(["fill", str(small_season), "-o", str(tmp_path / "publie.xlsm")]) == 1
    assert "doit garder l'extension de petite.xlsx (.xlsx)" in capsys.readouterr().err
    assert not (tmp_path / "publie.xlsm").exists()
