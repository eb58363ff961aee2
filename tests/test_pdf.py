"""What a club prints: the PDFs LibreOffice makes of the published tables, read back with pypdf.

Every page A4, every piece of text at least 8 points high (the size the PDF draws it at, scale included),
French decimals whatever the machine's locale, names and header repeated on the pages columns spill onto.
Needs ``soffice`` (``libreoffice-calc-nogui``); skips without it, except under CI.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
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


#: The tokens of a page's content stream: strings (literal, with one level of nested parentheses, or hex),
#: array brackets, names, numbers, operators. Read at C speed; only the operators that set the text's size
#: are interpreted.
_TOKEN = re.compile(rb"""\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\)|<[0-9A-Fa-f\s]*>|\[|\]|/[^\s/\[\]()<>{}%]*"""
                    rb"""|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'"*]+|<<|>>""", re.S)
_SHOW = {b"Tj", b"TJ", b"'", b'"'}
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _times(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    """The product of two PDF matrices (a b c d e f)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def smallest_text(content: bytes) -> float:
    """The smallest height at which a page draws text, in points: at each text-showing operator, the font
    size (``Tf``) times the vertical scale of the text matrix (``Tm``, reset by ``BT``) and of the current
    transformation matrix (``cm``, saved by ``q`` and restored by ``Q``), as the PDF specification composes
    them (§9.4.4)."""
    ctm, saved, tm, size, smallest = _IDENTITY, [], _IDENTITY, 0.0, float("inf")
    operands: list[bytes] = []
    for token in _TOKEN.findall(content):
        if not (token[:1].isalpha() or token in (b"'", b'"')):
            operands.append(token)
            continue
        if token == b"cm" and len(operands) >= 6:
            ctm = _times(tuple(map(float, operands[-6:])), ctm)
        elif token == b"q":
            saved.append(ctm)
        elif token == b"Q" and saved:
            ctm = saved.pop()
        elif token == b"BT":
            tm = _IDENTITY
        elif token == b"Tm" and len(operands) >= 6:
            tm = tuple(map(float, operands[-6:]))
        elif token == b"Tf" and operands:
            size = float(operands[-1])
        elif token in _SHOW and any(t[:1] in (b"(", b"<") and len(t) > 2 for t in operands):
            c, d = tm[2] * ctm[0] + tm[3] * ctm[2], tm[2] * ctm[1] + tm[3] * ctm[3]
            smallest = min(smallest, size * (c * c + d * d) ** 0.5)
        operands = []
    return smallest


def text_sizes(pdf: Path) -> list[float]:
    """The smallest text height of each page (pypdf inflates the content streams; :func:`smallest_text`
    reads them: ten times faster than pypdf's own text extraction, with the same figures)."""
    import pypdf

    return [smallest_text(page.get_contents().get_data()) if page.get_contents() else float("inf")
            for page in pypdf.PdfReader(pdf).pages]


def page_sizes(pdf: Path) -> set[tuple[int, int]]:
    import pypdf

    return {tuple(sorted((round(float(p.mediabox.width)), round(float(p.mediabox.height)))))
            for p in pypdf.PdfReader(pdf).pages}


def pdf_text(pdf: Path) -> list[str]:
    """Each page's text, as poppler's pdftotext reads it, white space collapsed (wrapped headers joined)."""
    if shutil.which("pdftotext") is None:
        if os.environ.get("CI"):
            pytest.fail("pdftotext required in CI: .ci/run must install poppler-utils")
        pytest.skip("pdftotext not installed (apt-get install poppler-utils)")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, check=True).stdout
    return [" ".join(page.decode("utf-8").split()) for page in text.split(b"\f")[:-1]]


def assert_readable(pdf: Path) -> None:
    small = [(n, size) for n, size in enumerate(text_sizes(pdf), start=1) if size < MIN_TEXT]
    assert small == [], f"{pdf.name}: text under {MIN_TEXT} pt (page, size)"
    assert page_sizes(pdf) == {A4}, pdf.name


@pytest.fixture(autouse=True)
def _libreoffice():
    need_libreoffice()


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """Each federation's bundled example, filled once for the module's tests (they only read it)."""
    made: dict[str, Path] = {}

    def get(code: str) -> Path:
        if code not in made:
            made[code] = filled_example(FEDERATIONS[code], tmp_path_factory.mktemp(code))
        return made[code]

    return get


@pytest.mark.parametrize("code", list(FEDERATIONS))
def test_the_shared_standings_pdf_is_a4_and_readable(code, filled, tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "C")  # an English machine: the PDF still has French decimals
    monkeypatch.setenv("LC_ALL", "C")
    module = FEDERATIONS[code]
    book = Book(filled(code))
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
def test_the_whole_filled_workbook_prints_readable(code, filled, tmp_path):
    """Every sheet, inputs and charts included, as « Fichier > Imprimer » would print it."""
    assert_readable(libreoffice.convert(filled(code), tmp_path / "pdf", "pdf")[0])


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
