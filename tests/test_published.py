"""The published tables as a player reads them: rows that add up as printed, marks and a legend for what is
weighted or set aside, one rounding per quantity, widths that fit, French plurals, warnings after the summary."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from conftest import filled_example, table_dicts, write_season
from hypothesis import given
from hypothesis import strategies as st

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS as FEDERATIONS
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.rules.mechanics import round_half_up, rounded_parts
from xlcircuit.workbook import layout, wording, write
from xlcircuit.xlsx import Book

# --- rounding that adds up -------------------------------------------------------------------


@given(st.lists(st.floats(min_value=0, max_value=5000, allow_nan=False), max_size=30), st.integers(0, 2))
def test_rounded_parts_add_up_to_the_rounded_sum(values, digits):
    parts = rounded_parts(values, digits)
    unit = Decimal(1).scaleb(-digits)
    assert sum(Decimal(repr(p)) for p in parts) == Decimal(repr(round_half_up(sum(values), digits))).quantize(unit)
    assert all(abs(Decimal(repr(p)) - Decimal(repr(v))) <= unit for p, v in zip(parts, values))


def test_rounded_parts_are_the_half_up_roundings_when_these_add_up():
    assert rounded_parts([805.6, 1007.04, 0.0, 252.45], 1) == [805.6, 1007.0, 0.0, 252.5]
    # 911.56 + 100.06 + 50.01 = 1061.63 -> 1061.6, but each half up: 911.6 + 100.1 + 50.0 = 1061.7; the
    # adjustable one (a weighted result) moves, not the 100 % one the Points sheet shows as 911.6 too.
    assert rounded_parts([911.56, 100.06, 50.01], 1, [False, True, True]) == [911.6, 100.0, 50.0]


# --- the filled examples -----------------------------------------------------------------------


def _filled(module, folder: Path) -> openpyxl.Workbook:
    return openpyxl.load_workbook(filled_example(module, folder))


#: Federation -> (standings sheet and table, the cells that add up, their sum's column, decimals shown).
ADDS_UP = {
    "tdf": ("Classement", "Classement", None, "Total", 1),
    "dbm": ("Tableau 1", "Tableau1", ["Résultat 1", "Résultat 2", "Résultat 3", "Résultat 4"], "Total", 2),
    "cdf": ("Classement", "Classement", ["Ronde 1", "Ronde 2", "Ronde 3", "Ronde 4"], "Score final", 2),
}


@pytest.mark.parametrize("code", list(ADDS_UP))
def test_every_standings_row_adds_up_as_printed(code, tmp_path):
    sheet, name, cells, total, digits = ADDS_UP[code]
    rows = table_dicts(_filled(FEDERATIONS[code], tmp_path)[sheet], name)
    cells = cells or [h for h in rows[0] if h not in ("Rang", "Joueur", "Tournois classés", "Total")]
    for row in rows:
        shown = sum(Decimal(str(round_half_up(row[c], digits))) for c in cells if row[c] is not None)
        assert shown == Decimal(str(round_half_up(row[total], digits))), row["Joueur"]


def test_the_tdf_standings_show_counted_points_with_marks_and_a_legend(tmp_path):
    wb = _filled(tdf_book.ADAPTER, tmp_path)
    ws = wb["Classement"]
    rows = table_dicts(ws, "Classement")
    headers = list(rows[0])
    points = table_dicts(wb["Points"], "Points")
    by = {(p["Joueur"], p["Tournoi"]): p for p in points if p["Statut"] != "doublon"}
    for i, row in enumerate(rows):
        for header in headers[4:]:
            if row[header] is None:
                continue
            line = by[(row["Joueur"], header)]
            assert row[header] == line["Points comptés"]  # the same number in both sheets
            cell = ws.cell(4 + i, 1 + headers.index(header))
            if line["Poids"] == 0:
                assert cell.font.strike and cell.fill.fgColor.rgb.endswith("EDEDED")
            elif line["Poids"] < 1:
                assert cell.font.i and cell.fill.fgColor.rgb.endswith("FFF2CC")
            else:
                assert not cell.font.i and not cell.font.strike
    # Thomas Girard's Marseille is set aside (tests/test_workbook_tdf.py): struck, counting 0.
    thomas = next(i for i, r in enumerate(rows) if r["Joueur"] == "Thomas Girard")
    assert rows[thomas]["Tournoi de Marseille"] == 0
    unranked = [i for i, r in enumerate(rows) if r["Rang"] is None]
    assert unranked and all(ws.cell(4 + i, 2).font.i for i in unranked)
    last = 3 + len(rows)
    # The columns spill over pages: the legend stands after the repeated rank and name (C), wrapped to what
    # page 1 prints whole.
    lines = [ws.cell(r, 3).value for r in range(last + 2, last + 40) if layout.is_note(ws.cell(r, 3))]
    legend = " ".join(lines)
    assert not any(ws.cell(r, 1).value for r in range(last + 1, last + 40))
    assert legend.startswith("Chaque case : les points que le tournoi apporte au total")
    assert "Sans rang, en gris après les classés" in legend and "écarté par la règle de non-perte" in legend
    assert ws.print_area.endswith(f"${last + len(lines) + 1}")  # the legend is printed


def test_points_shows_each_quantity_with_one_rounding(tmp_path):
    ws = _filled(tdf_book.ADAPTER, tmp_path)["Points"]
    header = [c.value for c in ws[3]]
    formats = {h: ws.cell(4, 1 + header.index(h)).number_format for h in ("Points", "Points comptés")}
    assert formats == {"Points": "0.0", "Points comptés": "0.0"}  # not 912 beside a counted 911.6


def test_a_refill_with_more_people_grows_the_table_over_its_old_legend(tmp_path):
    few = [("Open", "Ana", 1, None, None), ("Open", "Bob", 2, None, None)]
    path = write_season(tmp_path / "s.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)], few)
    book = Book(path)
    tdf_book.fill(book)
    book.save()
    wb = openpyxl.load_workbook(path)
    more = few + [("Open", f"Joueur {i}", i, None, None) for i in range(3, 12)]
    write.type_rows(wb, tdf_book.RESULTATS, more)
    wb.save(path)
    book = Book(path)
    tdf_book.fill(book)
    book.save()
    ws = openpyxl.load_workbook(path)["Classement"]
    assert ws.tables["Classement"].ref == "A3:E14"
    notes = [r for r in range(1, 60) if layout.is_note(ws.cell(r, 1))]
    # The old legend (from row 7, under the two-line table) is gone; the new one stands under the new table.
    assert notes == list(range(16, 16 + len(notes))) and len(notes) >= 3
    assert ws.cell(16, 1).value.startswith("Chaque case")


def test_columns_fit_what_they_show(tmp_path):
    ws = _filled(FEDERATIONS["elo"], tmp_path)["Classement"]
    header = [c.value for c in ws[3]]
    tier = header.index("Palier") + 1
    longest = max(len(str(ws.cell(r, tier).value or "")) for r in range(4, ws.max_row + 1))
    assert longest >= len("Placement (encore 3 parties)")
    assert ws.column_dimensions[openpyxl.utils.get_column_letter(tier)].width >= longest + 1
    remarks = _filled(FEDERATIONS["cdf"], tmp_path)["Qualification"]
    header = [c.value for c in remarks[3]]
    col = header.index("Table finale") + 1
    long = [r for r in range(4, remarks.max_row + 1) if len(str(remarks.cell(r, col).value or "")) > layout.MAX_WIDTH]
    assert all(remarks.cell(r, col).alignment.wrap_text for r in long)


@pytest.mark.parametrize("n, word, expected", [(0, "tournoi", "0 tournoi"), (1, "personne", "1 personne"),
                                                (2, "tournoi", "2 tournois"), (2, "nouveau joueur", "2 nouveaux joueurs")])
def test_french_plurals(n, word, expected):
    plural = "nouveaux joueurs" if word == "nouveau joueur" else None
    assert wording.count(n, word, plural) == expected


def test_a_one_tournament_season_reports_in_the_singular(tmp_path):
    path = write_season(tmp_path / "s.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Ana", 1, None, None)])
    summary = tdf_book.compute(Book(path))
    assert tdf_book.report(summary)[0] == "1 tournoi, 1 personne, 0 classée."


def test_dbm_explains_its_asterisk(tmp_path):
    ws = _filled(FEDERATIONS["dbm"], tmp_path)["Tableau 1"]
    texts = [c.value for c in ws["A"] if isinstance(c.value, str)]
    assert "* : n'a participé qu'à trois tournois recensés (la somme porte sur ses trois résultats)." in texts


def test_check_prints_what_to_verify_after_the_summary(demo_path, capfd):
    assert main(["check", str(demo_path)]) == 0
    out, err = capfd.readouterr()
    assert out.startswith(f"{demo_path.name} est correct, avec 1 point à vérifier (ci-dessous) : 11 tournois")
    assert err.startswith("\nÀ vérifier (1) :\n  - Doublon dans « Tournoi de Toulouse »")
