"""Results that clubs want to open: the look of a filled workbook, per-club workbooks, CSV."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from conftest import table_dicts, write_season
from xlcircuit.workbook.examples import load
from xlcircuit.cli import main
from xlcircuit.errors import XlcircuitError
from xlcircuit.workbook import Book, share
from xlcircuit.workbook import tdf as tdf_book
from xlcircuit.workbook.sheets import CLUB_COLOUR
from xlcircuit.workbook.tables import chart_title, type_rows


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
    assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0)
    assert ws.sheet_properties.pageSetUpPr.fitToPage
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


def test_the_top_chart_points_at_the_first_fifteen_totals(filled_demo):
    ws = filled_demo["Classement"]
    charts = [c for c in ws._charts if chart_title(c) == "Les 15 premiers"]
    assert len(charts) == 1
    series = charts[0].series[0]
    assert series.val.numRef.f == "'Classement'!$D$4:$D$18"
    assert (series.cat.strRef or series.cat.numRef).f == "'Classement'!$B$4:$B$18"
    assert series.tx.strRef.f == "'Classement'!D3"


def test_each_tournament_has_its_curve_pointing_at_its_points(filled_demo):
    ws = filled_demo["Courbes"]
    points = filled_demo["Points"]
    titles = [chart_title(c) for c in ws._charts]
    expected = []
    for name, *_ in sorted(load("tdf").TOURNOIS, key=lambda t: t[1]):
        rows = [r for r in range(4, points.max_row + 1)
                if points.cell(r, 1).value == name and points.cell(r, 5).value == "classé"]
        if rows:
            expected.append((name, rows[0], rows[-1]))
    assert titles == [f"{name} ({last - first + 1} classés)" for name, first, last in expected]
    for chart, (_, first, last) in zip(ws._charts, expected):
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
    written = share.share_clubs(Book(demo_path), tdf_book, tmp_path / "clubs")
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
])
def test_club_names_become_safe_file_names(club, expected):
    assert share.safe_filename(club) == expected


def test_a_club_with_a_hostile_name_still_gets_its_workbook(tmp_path):
    path = write_season(tmp_path / "s.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Alice", 1, None, None), ("Open", "Bruno", 2, None, None)])
    wb = openpyxl.load_workbook(path)
    type_rows(wb, tdf_book.JOUEURS, [("Alice", 'A/B: "C"'), ("Bruno", "a/b: \"c\"")])
    wb.save(path)
    written = share.share_clubs(Book(path), tdf_book, tmp_path / "clubs")
    names = sorted(p.name for p in written.values())
    assert names == ['Classement - A_B_ _C_.xlsx', 'Classement - a_b_ _c_ (2).xlsx']
    for p in written.values():
        assert p.exists() and not set(p.name) & set('<>:"/\\|?*')
        assert table_dicts(openpyxl.load_workbook(p)["Mon club"], "MonClub")


def test_sharing_by_club_needs_the_clubs(small_season):
    with pytest.raises(XlcircuitError, match="table « Joueurs »"):
        share.share_clubs(Book(small_season), tdf_book, small_season.parent / "clubs")


# --- CSV -------------------------------------------------------------------------------------


def test_csv_tables_have_a_header_and_protect_formula_like_values(tmp_path):
    evil = '=HYPERLINK("http://x","y")'
    path = write_season(tmp_path / "s.xlsx",
                        [("Open", dt.date(2025, 10, 1), "normal", None), ("@Web", dt.date(2025, 11, 1), "en ligne", None)],
                        [("Open", evil, 1, None, None), ("Open", "-Bob", 2, None, None), ("Open", "Chloé", 3, None, None),
                         ("@Web", evil, 2, None, None), ("@Web", "-Bob", 1, None, None)])
    assert main(["share", str(path), "--csv", str(tmp_path / "csv")]) == 0
    with (tmp_path / "csv" / "s-Classement.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["Rang", "Joueur", "Tournois classés", "Total", "Open", "'@Web"]
    # Open: x = 3, r = sqrt(10): 1003, 316.2..., 100. @Web (online): x = 2: 1002 and 100.
    # Bob: 316.2277... + 0.8 * 1002 = 1117.83 -> 1117.8; the evil name: 1003 + 0.8 * 100 = 1083.
    assert rows[1] == ["1", "'-Bob", "2", "1117.8", "316", "1002"]
    assert rows[2] == ["2", "'" + evil, "2", "1083.0", "1003", "100"]
    with (tmp_path / "csv" / "s-Points.csv").open(encoding="utf-8", newline="") as handle:
        points = list(csv.DictReader(handle))
    assert (points[0]["Tournoi"], points[0]["Date"], points[0]["Poids"]) == ("Open", "2025-10-01", "1.00")


def test_share_asks_what_to_share(small_season, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["share", str(small_season)])
    assert exit.value.code == 2  # a usage error (issue 17)
    assert "--clubs" in capsys.readouterr().err


def test_pdf_without_libreoffice_says_how_to_install_it(small_season, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no soffice there
    with pytest.raises(XlcircuitError, match="apt-get install libreoffice-calc-nogui"):
        share.share_pdf(Book(small_season), tdf_book, tmp_path / "pdf")


@pytest.mark.parametrize("number_format, value, shown", [
    ("0", 184.5, "185"), ("0.0", 2.25, "2.3"), ("0.00", 128.625, "128.63"), ("0%", 0.8, "0.80"),
    ("+0;-0;0", 185.0, "185"), ("+0;-0;0", -17.5, "-18"), ("0.0000", 0.57151, "0.5715"), (None, 1 / 3, "0.333333"),
])
def test_csv_numbers_follow_the_decimals_their_format_shows(number_format, value, shown):
    assert share._csv_value(value, number_format) == shown
