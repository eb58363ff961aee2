"""What a club prints: the PDFs LibreOffice makes of the published tables, read back with pypdf.

Every page A4, every piece of text at least 8 points high (the size the PDF draws it at, scale included),
French decimals whatever the machine's locale, names and header repeated on the pages columns spill onto.
Needs ``soffice`` (``libreoffice-calc-nogui``); skips without it, except under CI.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import filled_example, need_libreoffice, write_season

from xlcircuit.app import share
from xlcircuit.federations import ADAPTERS as FEDERATIONS
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.xlsx import Book, libreoffice

A4 = (595, 842)  # points, portrait
MIN_TEXT = 8.0


def text_sizes(pdf: Path) -> list[tuple[float, str]]:
    """(smallest text height in points, a sample of it) of each page: the font size times the text and
    current transformation matrices' vertical scale, as the page draws it."""
    import pypdf

    pages = []
    for page in pypdf.PdfReader(pdf).pages:
        found: list[tuple[float, str]] = []

        def visit(text, cm, tm, font, size, found=found):
            if text.strip():
                c, d = tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]
                found.append((size * (c * c + d * d) ** 0.5, text.strip()[:40]))

        page.extract_text(visitor_text=visit)
        pages.append(min(found) if found else (float("inf"), ""))
    return pages


def page_sizes(pdf: Path) -> set[tuple[int, int]]:
    import pypdf

    return {tuple(sorted((round(float(p.mediabox.width)), round(float(p.mediabox.height)))))
            for p in pypdf.PdfReader(pdf).pages}


def pdf_text(pdf: Path) -> list[str]:
    import pypdf

    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(pdf).pages]  # wrapped headers joined


def assert_readable(pdf: Path) -> None:
    small = [(n, size, sample) for n, (size, sample) in enumerate(text_sizes(pdf), start=1) if size < MIN_TEXT]
    assert small == [], f"{pdf.name}: text under {MIN_TEXT} pt (page, size, text)"
    assert page_sizes(pdf) == {A4}, pdf.name


@pytest.fixture(autouse=True)
def _libreoffice():
    need_libreoffice()


@pytest.mark.parametrize("code", list(FEDERATIONS))
def test_the_shared_standings_pdf_is_a4_and_readable(code, tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "C")  # an English machine: the PDF still has French decimals
    monkeypatch.setenv("LC_ALL", "C")
    module = FEDERATIONS[code]
    book = Book(filled_example(module, tmp_path))
    pdf = share.share_pdf(book, module, tmp_path / "pdf")
    assert_readable(pdf)
    pages = pdf_text(pdf)
    text = "\n".join(pages)
    decimals = {"tdf": "3600,0", "dbm": "485,60", "cdf": "199,41", "torres": "31,0"}
    if code in decimals:  # the example's leader (Elo ratings are whole numbers)
        assert decimals[code] in text and decimals[code].replace(",", ".") not in text
    if code == "torres":  # every group's table too, each under its title
        summary = module.compute(book)
        for (d, g), table in summary.standings.items():
            what = f"division {d}" + (f", groupe {g}" if (d, 2) in summary.standings else "")
            holding = " ".join(page for page in pages if what in page)
            assert holding and all(s.player.name in holding for s in table), what


@pytest.mark.parametrize("code", list(FEDERATIONS))
def test_the_whole_filled_workbook_prints_readable(code, tmp_path):
    """Every sheet, inputs and charts included, as « Fichier > Imprimer » would print it."""
    module = FEDERATIONS[code]
    assert_readable(libreoffice.convert(filled_example(module, tmp_path), tmp_path / "pdf", "pdf")[0])


def test_a_season_of_30_tournaments_and_300_players_prints_readable(tmp_path):
    """Columns spill over pages, read across then down; each page repeats the rank and the name."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import generate

    tournois, resultats = generate.tdf(30, players=150)  # 150 of a pool of 300 players at each tournament
    path = write_season(tmp_path / "grande.xlsx", tournois, resultats)
    book = Book(path)
    summary = tdf_book.compute(book)
    assert len(summary.report.standings) == 300
    pdf = share.share_pdf(book, tdf_book.ADAPTER, tmp_path / "pdf")
    assert_readable(pdf)
    pages = pdf_text(pdf)
    leader, last = summary.report.standings[0].player, summary.report.standings[-1].player
    # Reading order: page 1 has the first tournaments, the next page the same players and the next ones.
    assert "Tournoi 0001" in pages[0] and "Tournoi 0030" not in pages[0]
    assert leader in pages[1] and "Tournoi 0001" not in pages[1]
    assert all("Rang" in page and "Joueur" in page for page in pages)
    assert last in pages[-1] or last in pages[-2]
