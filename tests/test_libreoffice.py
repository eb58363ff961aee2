"""What a club sees: the filled workbook opened and recalculated by LibreOffice, a real spreadsheet program.

Needs ``soffice`` (Debian package ``libreoffice-calc-nogui``); ``.ci/run`` installs it. Elsewhere the
tests skip with a reason, but never when ``CI`` is set.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import openpyxl
import pytest
from conftest import need_libreoffice, sheets_as_csv, write_season

from xlcircuit.federations import tdf as tdf_book
from xlcircuit.xlsx import Book, libreoffice


def table(rows: list[list[str]], first_header: str) -> list[list[str]]:
    """The rows of a sheet's table, from its header row (a title stands above it) to the blank row before
    its legend."""
    start = next(i for i, row in enumerate(rows) if row and row[0] == first_header)
    end = next((i for i in range(start, len(rows)) if not any(rows[i])), len(rows))
    return rows[start:end]


def fill(path: Path) -> tdf_book.Summary:
    book = Book(path)
    summary = tdf_book.fill(book)
    book.save()
    return summary


def test_libreoffice_shows_the_standings_the_core_computed(demo_path, tmp_path):
    summary = fill(demo_path)
    sheets = sheets_as_csv(demo_path, tmp_path / "csv")
    header, *rows = table(sheets["Classement"], "Rang")
    assert header[:4] == ["Rang", "Joueur", "Tournois classés", "Total"]
    assert len(rows) == len(summary.report.standings)
    for row, standing in zip(rows, summary.report.standings):
        assert row[0] == ("" if standing.rank is None else str(standing.rank))
        assert row[1] == standing.player
        assert int(row[2]) == standing.season.classified
        assert float(row[3]) == pytest.approx(standing.season.total, abs=1e-6)
    points = table(sheets["Points"], "Tournoi")
    assert points[0][:3] == ["Tournoi", "Date", "Joueur"]
    assert len(points) - 1 == sum(len(v) for v in summary.report.scored.values())


def test_libreoffice_reads_formula_like_names_as_text(tmp_path):
    evil = '=HYPERLINK("http://x","y")'
    path = write_season(tmp_path / "noms.xlsx",
                        [("Open", dt.date(2025, 10, 1), "normal", None), ("Open 2", dt.date(2025, 11, 1), "normal", None)],
                        [("Open", evil, 1, None, None), ("Open", "=1+1", 2, None, None),
                         ("Open 2", evil, 1, None, None), ("Open 2", "=1+1", 2, None, None)])
    fill(path)
    rows = table(sheets_as_csv(path, tmp_path / "csv")["Classement"], "Rang")
    assert [r[1] for r in rows[1:]] == [evil, "=1+1"]


def pdf_pages(path: Path) -> list[str]:
    import pypdf

    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def test_the_standings_pdf_is_one_page_wide_with_the_leader_on_page_one(demo_path, tmp_path):
    need_libreoffice()
    from xlcircuit.app import share

    summary = fill(demo_path)
    pdf = share.share_pdf(Book(demo_path), tdf_book.ADAPTER, tmp_path / "pdf")
    pages = pdf_pages(pdf)
    leader = summary.report.standings[0]
    total = f"{leader.season.total:.1f}"  # 3600.0: no half to round here
    assert leader.player in pages[0] and (total in pages[0] or total.replace(".", ",") in pages[0])
    # One page wide: every page repeats the header row from its first column ("Rang"); a second band
    # of columns would print pages without it.
    assert all("Rang" in page for page in pages)
    assert all(any(st.player in page for page in pages) for st in summary.report.standings)

    # The same table printed at 100 % spreads over more pages, side by side: fit-to-width put them on
    # no more pages than its first column band alone (the pages holding "Rang").
    wide = tmp_path / "wide.xlsx"
    wb = openpyxl.load_workbook(demo_path)
    for name in wb.sheetnames:
        if name != "Classement":
            del wb[name]
    ws = wb["Classement"]
    ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.page_setup.scale = 100
    wb.save(wide)
    unscaled = pdf_pages(libreoffice.convert(wide, tmp_path / "wide-pdf", "pdf")[0])
    first_band = [page for page in unscaled if "Rang" in page and "Joueur" in page]
    assert len(unscaled) > len(pages)
    assert len(pages) <= len(first_band)


def test_a_workbook_saved_by_libreoffice_fills_again_without_loss(demo_path, tmp_path, capsys):
    """An organiser who types in LibreOffice and saves: the tables survive, our data bars come back
    as Excel 2010 extensions, and a refill neither warns about them nor keeps a needless copy."""
    need_libreoffice()
    first = fill(demo_path)
    resaved = libreoffice.convert(demo_path, tmp_path / "lo", "xlsx:Calc MS Excel 2007 XML")[0]
    from xlcircuit.cli import main

    assert main(["fill", str(resaved)]) == 0
    assert "openpyxl ne sait pas conserver" not in capsys.readouterr().err
    assert not (resaved.parent / f"{resaved.stem} (avant xlcircuit).xlsx").exists()
    wb = openpyxl.load_workbook(resaved)
    rows = [[c.value for c in row] for row in wb["Classement"][wb["Classement"].tables["Classement"].ref]][1:]
    assert [(r[0], r[1]) for r in rows] == [(s.rank, s.player) for s in first.report.standings]


# --- finding LibreOffice: never a program beside the workbook ------------------------------------------------


def fake_program(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    return program


@pytest.mark.parametrize("windows", [False, True])
def test_a_soffice_in_the_current_folder_is_never_the_one_run(tmp_path, monkeypatch, windows):
    """A workbook's folder holding a program named soffice (a mail attachment unpacked there): the current
    folder is never searched, even through PATH entries that mean it ("", ".", a relative folder)."""
    monkeypatch.setattr(libreoffice, "WINDOWS", windows)
    folder = tmp_path / "classeurs"
    for name in ("soffice", "soffice.exe", "soffice.com", "libreoffice"):
        fake_program(folder, name)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("PATH", os.pathsep.join([".", "", "classeurs", "./", str(tmp_path / "vide")]))
    monkeypatch.setattr(libreoffice, "_install_folders", lambda: [])
    assert libreoffice.find() is None


def test_on_windows_libreoffice_is_found_in_its_install_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(libreoffice, "WINDOWS", True)
    programs = tmp_path / "Program Files"
    installed = fake_program(programs / "LibreOffice" / "program", "soffice.exe")
    fake_program(tmp_path / "classeurs", "soffice.exe")
    monkeypatch.chdir(tmp_path / "classeurs")
    monkeypatch.setenv("ProgramFiles", str(programs))
    monkeypatch.delenv("ProgramW6432", raising=False)
    monkeypatch.delenv("ProgramFiles(x86)", raising=False)
    monkeypatch.setenv("PATH", ".")
    assert libreoffice.find() == str(installed)


def test_libreoffice_on_an_absolute_path_folder_is_found_first(tmp_path, monkeypatch):
    chosen = fake_program(tmp_path / "bin", "soffice")
    monkeypatch.setenv("PATH", os.pathsep.join([str(tmp_path / "vide"), str(tmp_path / "bin")]))
    assert libreoffice.find() == str(chosen)
