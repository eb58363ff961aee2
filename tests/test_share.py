"""Results that clubs want to open: the look of a filled workbook, per-club workbooks, CSV."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from conftest import table_dicts, write_season

from xlcircuit.app import share
from xlcircuit.cli import main
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.federations.examples import load
from xlcircuit.rules.errors import XlcircuitError
from xlcircuit.workbook import layout
from xlcircuit.workbook.layout import chart_title
from xlcircuit.workbook.sheets import CLUB_COLOUR
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book


@pytest.fixture
def filled_demo(demo_path: Path) -> openpyxl.Workbook:
    book = Book(demo_path)
    tdf_book.fill(book)
    book.save()
    return openpyxl.load_workbook(demo_path)


# --- the look of the filled workbook ---------------------------------------------------------


@pytest.mark.parametrize("sheet, name, ref_start", [("Classement", "Classement", "A3"), ("Points", "Points", "A3")])
def test_output_tables_are_framed_for_reading_and_printing(filled_demo, sheet, name, ref_start):
    ws = filled_demo[sheet]
    table = ws.tables[name]
    assert table.ref.startswith(ref_start + ":")
    assert table.autoFilter.ref == table.ref  # filter buttons
    assert ws.freeze_panes == "A4"  # title and header stay in view
    assert ws["A1"].value.startswith("Tour de France de Diplomatie 2025-2026 — ")
    assert ws["A1"].value.endswith(f" au {dt.date.today():%d/%m/%Y}")
    assert ws.print_title_rows == "$3:$3"
    assert ws.page_setup.orientation == "landscape"
    assert int(ws.page_setup.paperSize) == 9  # A4, not the program's US Letter
    # A fixed scale, never a fit-to-page that would shrink 11-point text under 8 points: the columns
    # that do not fit go on the next pages, read across then down, repeating the first columns.
    assert not ws.sheet_properties.pageSetUpPr.fitToPage
    assert layout.MIN_SCALE <= int(ws.page_setup.scale) <= 100
    assert ws.page_setup.pageOrder == "overThenDown"
    assert ws.print_title_cols == {"Classement": "$A:$B", "Points": "$A:$C"}[sheet]
    # Columns spill over pages: the title is printed whole at the top of every page (the page header), not
    # from its cell, which each continuation page would print cut; the table and its legend, no chart.
    assert ws.print_area.startswith(f"'{sheet}'!$A$3:")
    assert ws.oddHeader.center.text == ws["A1"].value
    assert ws.oddFooter.center.text == "Page &P / &N"


def test_podium_rows_are_highlighted_and_totals_have_data_bars(filled_demo):
    ws = filled_demo["Classement"]
    colours = {row: ws.cell(row, 1).fill.fgColor.rgb[-6:] for row in range(4, 8)}
    # Ranks 1, 2, 3 in the first three data rows (the example has no tie on the podium), row 7 plain.
    assert [ws.cell(row, 1).value for row in range(4, 7)] == [1, 2, 3]
    assert colours == {4: "FFE699", 5: "E7E6E6", 6: "F8CBAD", 7: "000000"}
    ranges = [str(cf.sqref) for cf in ws.conditional_formatting]
    last = 3 + len(table_dicts(ws, "Classement"))
    assert ranges == [f"D4:D{last}"]
    assert [rule.type for cf in ws.conditional_formatting for rule in cf.rules] == ["dataBar"]


@pytest.mark.parametrize("sheet", ["Classement", "Courbes"])
def test_the_top_chart_points_at_the_first_fifteen_totals(filled_demo, sheet):
    """Beside the standings on screen; printed on a page of its own, the first of Courbes."""
    ws = filled_demo[sheet]
    charts = [c for c in ws._charts if chart_title(c) == "Les 15 premiers"]
    assert len(charts) == 1
    series = charts[0].series[0]
    assert series.val.numRef.f == "'Classement'!$D$4:$D$18"
    assert (series.cat.strRef or series.cat.numRef).f == "'Classement'!$B$4:$B$18"
    assert series.tx.strRef.f == "'Classement'!D3"


def test_the_charts_sheet_prints_in_reading_order(filled_demo):
    ws = filled_demo["Courbes"]
    assert int(ws.page_setup.paperSize) == 9 and ws.page_setup.orientation == "portrait"
    assert ws.print_area.startswith("'Courbes'!$A$1:$I$")
    rows = [c.anchor._from.row for c in ws._charts]
    assert rows == sorted(rows) and len(set(rows)) == len(rows)  # one column, in date order
    assert {c.anchor._from.col for c in ws._charts} == {0}
    # A page break after the top chart, then after every third curve: no chart cut by a page.
    breaks = [b.id for b in ws.row_breaks.brk]
    assert breaks and all(not any(r < b < r + 13 for r in rows) for b in breaks)
    assert len(breaks) == 1 + (len(rows) - 2) // tdf_book.CURVES_A_PAGE


def test_each_tournament_has_its_curve_pointing_at_its_points(filled_demo):
    ws = filled_demo["Courbes"]
    points = filled_demo["Points"]
    titles = [chart_title(c) for c in ws._charts][1:]  # after the top chart
    expected = []
    for name, *_ in sorted(load("tdf").TOURNOIS, key=lambda t: t[1]):
        rows = [r for r in range(4, points.max_row + 1)
                if points.cell(r, 1).value == name and points.cell(r, 5).value == "classé"]
        if rows:
            expected.append((name, rows[0], rows[-1]))
    assert titles == [f"{name} ({last - first + 1} classés)" for name, first, last in expected]
    for chart, (_, first, last) in zip(ws._charts[1:], expected):
        series = chart.series[0]
        assert series.yVal.numRef.f == f"'Points'!$H${first}:$H${last}"
        assert series.xVal.numRef.f == f"'Points'!$F${first}:$F${last}"
        assert chart.y_axis.scaling.logBase == 10


def test_refilling_replaces_the_charts_instead_of_adding_more(filled_demo, demo_path):
    book = Book(demo_path)
    tdf_book.fill(book)
    book.save()
    again = openpyxl.load_workbook(demo_path)
    assert len(again["Classement"]._charts) == 1
    assert len(again["Courbes"]._charts) == len(filled_demo["Courbes"]._charts)


# --- per-club workbooks ----------------------------------------------------------------------


def test_every_club_gets_exactly_its_players(demo_path, tmp_path):
    written = share.share_clubs(Book(demo_path), tdf_book.ADAPTER, tmp_path / "clubs")
    clubs = {club for _, club in load("tdf").JOUEURS}
    assert set(written) == clubs
    for club, path in written.items():
        members = {player for player, c in load("tdf").JOUEURS if c == club}
        wb = openpyxl.load_workbook(path)
        assert wb.sheetnames == ["Classement", "Mon club", "Points du club"]
        mine = table_dicts(wb["Mon club"], "MonClub")
        assert {row["Joueur"] for row in mine} == members
        assert {row["Joueur"] for row in table_dicts(wb["Points du club"], "PointsClub")} == members
        ws = wb["Classement"]
        highlighted = {ws.cell(r, 2).value for r in range(4, ws.max_row + 1)
                       if ws.cell(r, 2).fill.fgColor.rgb.endswith(CLUB_COLOUR)}
        assert highlighted == members
        assert len(table_dicts(ws, "Classement")) == len({row[1] for row in load("tdf").RESULTATS})


@pytest.mark.parametrize("club, expected", [
    ('A/B: "C"', 'A_B_ _C_'),
    ("Les Stratèges de Paris", "Les Stratèges de Paris"),
    ("CON", "_CON"),
    ("...", "club"),
    ("Club. ", "Club"),
    ("x" * 200, "x" * 80),
    ("é" * 100, "é" * 60),  # at most 120 bytes: file systems count bytes, « é » takes two
    ("\U0001d507" * 100, "\U0001d507" * 30),
    ("Evil\u202egpj.exe", "Evilgpj.exe"),  # the right-to-left override that shows « exe.jpg » dropped
    ("a\x1bb\x9bc", "a_b_c"),
    ("CON.txt", "_CON.txt"),
])
def test_club_names_become_safe_file_names(club, expected):
    assert share.safe_filename(club) == expected


def test_a_club_with_a_hostile_name_still_gets_its_workbook(tmp_path):
    path = write_season(tmp_path / "s.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Alice", 1, None, None), ("Open", "Bruno", 2, None, None)])
    wb = openpyxl.load_workbook(path)
    type_rows(wb, tdf_book.JOUEURS, [("Alice", 'A/B: "C"'), ("Bruno", "a/b: \"c\"")])
    wb.save(path)
    written = share.share_clubs(Book(path), tdf_book.ADAPTER, tmp_path / "clubs")
    names = sorted(p.name for p in written.values())
    assert names == ['Classement - A_B_ _C_.xlsx', 'Classement - a_b_ _c_ (2).xlsx']
    for p in written.values():
        assert p.exists() and not set(p.name) & set('<>:"/\\|?*')
        assert table_dicts(openpyxl.load_workbook(p)["Mon club"], "MonClub")


def test_sharing_by_club_needs_the_clubs(small_season):
    with pytest.raises(XlcircuitError, match="table « Joueurs »"):
        share.share_clubs(Book(small_season), tdf_book.ADAPTER, small_season.parent / "clubs")


# --- CSV -------------------------------------------------------------------------------------


def test_csv_tables_have_a_header_and_protect_formula_like_values(tmp_path):
    evil = '=HYPERLINK("http://x","y")'
    path = write_season(tmp_path / "s.xlsx",
                        [("Open", dt.date(2025, 10, 1), "normal", None), ("@Web", dt.date(2025, 11, 1), "en ligne", None)],
                        [("Open", evil, 1, None, None), ("Open", "-Bob", 2, None, None), ("Open", "Chloé", 3, None, None),
                         ("@Web", evil, 2, None, None), ("@Web", "-Bob", 1, None, None)])
    assert main(["share", str(path), "--csv", str(tmp_path / "csv")]) == 0
    raw = (tmp_path / "csv" / "s-Classement.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbfRang;Joueur;")  # UTF-8 with its mark: a French Excel reads Chloé
    with (tmp_path / "csv" / "s-Classement.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle, delimiter=";"))
    assert rows[0] == ["Rang", "Joueur", "Tournois classés", "Total", "Open", "'@Web"]
    # Open: x = 3, r = sqrt(10): 1003, 316.2..., 100. @Web (online, after the tabletop one, 80 %): 1002 and 100.
    # Bob: 316.2277... + 0.8 * 1002 = 316.2 + 801.6 = 1117.8; the evil name: 1003 + 0.8 * 100 = 1083.
    assert rows[1] == ["1", "'-Bob", "2", "1117,8", "316,2", "801,6"]
    assert rows[2] == ["2", "'" + evil, "2", "1083,0", "1003,0", "80,0"]
    with (tmp_path / "csv" / "s-Points.csv").open(encoding="utf-8-sig", newline="") as handle:
        points = list(csv.DictReader(handle, delimiter=";"))
    assert (points[0]["Tournoi"], points[0]["Date"], points[0]["Poids"]) == ("Open", "01/10/2025", "1,00")


def test_csv_for_a_program_keeps_commas_and_iso_dates(tmp_path):
    path = write_season(tmp_path / "s.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Ana", 1, None, None), ("Open", "Bob", 2, None, None)])
    share.share_csv(Book(path), tdf_book.ADAPTER, tmp_path / "csv", french=False)
    raw = (tmp_path / "csv" / "s-Points.csv").read_bytes()
    assert raw.startswith(b"Tournoi,Date,")
    points = list(csv.DictReader(raw.decode("utf-8").splitlines()))
    assert (points[0]["Date"], points[0]["Points"], points[1]["Points"]) == ("2025-10-01", "1002.0", "100.0")


def test_torres_groups_are_shared_as_csv_too(tmp_path):
    from xlcircuit.federations import torres as torres_book

    wb = torres_book.new_workbook()
    torres_book.put_example(wb)
    path = tmp_path / "t.xlsx"
    wb.save(path)
    book = Book(path)
    summary = torres_book.compute(book)
    written = {p.name for p in share.share_csv(book, torres_book.ADAPTER, tmp_path / "csv")}
    groups = {f"t-Classement_D{d}_G{g}.csv" for d, g in summary.standings}
    assert len(groups) == 7 and groups <= written
    with (tmp_path / "csv" / "t-Classement_D1_G1.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle, delimiter=";"))
    assert rows[0][:2] == ["Rang", "Joueur"]
    assert [r[1] for r in rows[1:]] == [s.player.name for s in summary.standings[(1, 1)]]


def test_share_asks_what_to_share(small_season, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["share", str(small_season)])
    assert exit.value.code == 2  # a usage error (issue 17)
    assert "--clubs" in capsys.readouterr().err


def test_pdf_without_libreoffice_says_how_to_install_it(small_season, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no soffice there
    with pytest.raises(XlcircuitError, match="apt-get install libreoffice-calc-nogui"):
        share.share_pdf(Book(small_season), tdf_book.ADAPTER, tmp_path / "pdf")


@pytest.mark.parametrize("number_format, value, shown", [
    ("0", 184.5, "185"), ("0.0", 2.25, "2.3"), ("0.00", 128.625, "128.63"), ("0%", 0.8, "0.80"),
    ("+0;-0;0", 185.0, "185"), ("+0;-0;0", -17.5, "-18"), ("0.0000", 0.57151, "0.5715"), (None, 1 / 3, "0.333333"),
])
def test_csv_numbers_follow_the_decimals_their_format_shows(number_format, value, shown):
    assert share._csv_value(value, number_format) == shown
