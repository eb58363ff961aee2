"""Published numbers that add up and are never negative (issue: a set-aside result printed « -0,1 »).

A set-aside or zero-weight result shows 0 everywhere (Classement, Points, CSV, explain, PDF), no displayed value
is negative, and every standings row still adds up as printed. The season below is checked by hand with the
rules (tdf.md §1, §2); the invariants by hypothesis over random seasons."""

from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal

import openpyxl
import pytest
from conftest import need_libreoffice, table_dicts, write_season
from hypothesis import given
from hypothesis import strategies as st

from xlcircuit.cli import main
from xlcircuit.rules import tdf
from xlcircuit.rules.mechanics import round_half_up, rounded_parts

# --- the rules core --------------------------------------------------------------------------


@given(st.lists(st.floats(min_value=0, max_value=5000, allow_nan=False), max_size=30), st.integers(0, 2),
       st.data())
def test_a_value_that_prints_exactly_never_moves_and_no_part_is_negative(values, digits, data):
    values = values + [0.0] * data.draw(st.integers(0, 3))  # zero-weight results
    adjustable = data.draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    parts = rounded_parts(values, digits, adjustable)
    unit = Decimal(1).scaleb(-digits)
    assert sum(Decimal(repr(p)) for p in parts) == Decimal(repr(round_half_up(sum(values), digits))).quantize(unit)
    for part, value in zip(parts, values):
        assert part >= 0
        exact = Decimal(repr(value))
        if exact == exact.quantize(unit):
            assert Decimal(repr(part)) == exact  # 0, or 80.0 counted at 100 %, prints as it is
        assert abs(Decimal(repr(part)) - exact) < unit


outing = st.builds(tdf.Outing, st.floats(min_value=0, max_value=1100, allow_nan=False), st.sampled_from(list(tdf.Kind)),
                   st.booleans())


@given(st.lists(outing, max_size=9))
def test_counted_parts_show_0_for_a_set_aside_result_and_add_up(outings):
    season = tdf.season(outings)
    parts = tdf.counted_parts(season)
    assert all(p >= 0 for p in parts)
    for part, weight, aside in zip(parts, season.weights, season.set_aside):
        if aside or weight == 0:
            assert part == 0
    shown = sum(Decimal(repr(p)) for p in parts)
    assert shown == Decimal(repr(round_half_up(season.total, 1))).quantize(Decimal("0.1"))


# --- what the organiser sees ------------------------------------------------------------------

#: Zoé's season (tdf.md §1): Open A 8th of 9 = 1000 / 10^(7/8) = 133.352; Open B 2nd of 4 = 1000 / 10^(1/3)
#: = 464.159; Web 1 1st of 10 online = 1010; Web 2 1st of 26 online = 1026; France (major) 12th of 13 =
#: 1000 / 10^(11/12) = 121.153. §2: keeping both normal ones gives 464.159 + 0.8 × 133.352 + 0.4 × 1026
#: + 0.2 × 1010 = 1183.2; keeping Open B only: 464.159 + 0.8 × 1026 + 0.4 × 1010 = 1688.959, so Open A is set
#: aside; total 121.153 + 1688.959 = 1810.111, printed 1810,1. Rounded half up, the cells give 464,2 + 820,8
#: + 404,0 + 121,2 = 1810,2: one tenth must go, and it must not go on Open A (printed -0,1 before the fix).
ZOE = {"Open A": (8, 9), "Open B": (2, 4), "Web 1": (1, 10), "Web 2": (1, 26), "France": (12, 13)}
KINDS = {"Open A": "normal", "Open B": "normal", "Web 1": "en ligne", "Web 2": "en ligne", "France": "majeur"}


@pytest.fixture
def zoe(tmp_path):
    tournaments = [(name, dt.date(2025, 7 + i, 1), KINDS[name], None) for i, name in enumerate(ZOE)]
    results = []
    for name, (place, size) in ZOE.items():
        others = iter(p for p in range(1, size + 1) if p != place)
        results += [(name, "Zoé", place, None, None)] + [(name, f"{name} {p}", next(others), None, None)
                                                          for p in range(1, size)]
    return write_season(tmp_path / "zoe.xlsx", tournaments, results)


def test_a_set_aside_result_shows_0_everywhere_and_the_row_adds_up(zoe, tmp_path, capsys):
    assert main(["fill", str(zoe)]) == 0
    wb = openpyxl.load_workbook(zoe)
    row = next(r for r in table_dicts(wb["Classement"], "Classement") if r["Joueur"] == "Zoé")
    assert {name: row[name] for name in ZOE} == {"Open A": 0, "Open B": 464.2, "Web 1": 404, "Web 2": 820.8,
                                                 "France": 121.1}
    assert round_half_up(row["Total"], 1) == 1810.1
    assert sum(Decimal(str(row[name])) for name in ZOE) == Decimal("1810.1")
    points = {r["Tournoi"]: r for r in table_dicts(wb["Points"], "Points") if r["Joueur"] == "Zoé"}
    assert points["Open A"]["Poids"] == 0 and points["Open A"]["Points comptés"] == 0
    every = [v for r in table_dicts(wb["Classement"], "Classement") for v in list(r.values())[3:] if v is not None]
    every += [r["Points comptés"] for r in table_dicts(wb["Points"], "Points") if r["Points comptés"] is not None]
    assert min(every) >= 0

    capsys.readouterr()
    assert main(["share", str(zoe), "--csv", str(tmp_path / "csv")]) == 0
    with (tmp_path / "csv" / "zoe-Classement.csv").open(encoding="utf-8-sig", newline="") as handle:
        table = list(csv.reader(handle, delimiter=";"))
    line = dict(zip(table[0], next(r for r in table if r[1] == "Zoé")))
    assert [line[name] for name in ZOE] == ["0,0", "464,2", "404,0", "820,8", "121,1"]
    assert not any(cell.startswith("-") for r in table[1:] for cell in r)

    capsys.readouterr()
    assert main(["explain", str(zoe), "Zoé"]) == 0
    out = capsys.readouterr().out
    assert "133,4 points × 0 % (écarté : la décote ferait perdre des points (règle de non-perte), compte 0) = 0,0" in out
    assert "Somme : 0,0 + 464,2 + 404,0 + 820,8 + 121,1 = 1810,1" in out
    assert "- 0,1" not in out and "-0,1" not in out


def test_the_pdf_standings_show_no_negative_number(zoe, tmp_path):
    need_libreoffice()
    from pypdf import PdfReader

    assert main(["share", str(zoe), "--pdf", str(tmp_path / "pdf")]) == 0
    text = "\n".join(page.extract_text() for page in PdfReader(tmp_path / "pdf" / "zoe-classement.pdf").pages)
    assert "1810,1" in text and "464,2" in text
    assert "-0,1" not in text and "−0,1" not in text
