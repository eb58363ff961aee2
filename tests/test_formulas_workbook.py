"""The native-formulas workbook (``xlcircuit excel formulas``), recalculated by LibreOffice headless and compared,
value by value, with the rules core: TdF tournament points, DBM tournament values and RFJ, TORRES victory points
and differences, Elo expectations, over seeded random tournaments with ties, vacancies, roles, blanks, forfeits.

Needs LibreOffice (skips with a reason without it, fails under ``CI``): one conversion, a few seconds.
"""

from __future__ import annotations

import random
from collections import defaultdict

import openpyxl
import pytest
from conftest import sheets_as_csv

from xlcircuit.cli import main
from xlcircuit.excel import formulas, native
from xlcircuit.rules import dbm, elo, tdf, torres
from xlcircuit.rules.errors import InvalidInput
from xlcircuit.rules.mechanics import effective_places, tie_sizes
from xlcircuit.xlsx import save_atomic

ROLES = ("organisateur", "Aide", "annulé")
CODES = ("I", "F", "O", "S", "X", "o", "x", "0", "(S)", 1, 2, 3, 4, 5, 0)


def official_places(rng: random.Random, count: int) -> list[int]:
    """Official places of ``count`` classified players as organisers type them: ties (1, 1, 3) and vacancies."""
    places, place = [], 1
    while len(places) < count:
        tied = min(rng.choice((1, 1, 1, 2, 3)), count - len(places))
        places += [place] * tied
        place += tied + (1 if rng.random() < 0.1 else 0)  # now and then a vacant place
    rng.shuffle(places)
    return places


def season(seed: int = 16):
    rng = random.Random(seed)
    tdf_rows, interrupted = [], []
    for t in range(14):
        name = f"T{t}"
        places = official_places(rng, 1 if t == 0 else rng.randint(2, 16))
        cells = places + [rng.choice(ROLES) for _ in range(rng.randint(0, 2))] + [None] * rng.randint(0, 1)
        rng.shuffle(cells)
        tdf_rows += [(name, f"J{i}", cell) for i, cell in enumerate(cells)]
        if rng.random() < 0.3:
            interrupted.append(name)
    tournaments, players = [], []
    for t in range(7):
        name, rounds = f"P{t}", rng.choice((4, 5))
        count = (3, 12, 24, 25, 31, 40, 6)[t]
        tournaments.append((name, rounds))
        players += [(name, f"J{i}", rng.choice(CODES), place) for i, place in enumerate(official_places(rng, count))]
    matches = []
    for m in range(30):
        size = rng.choice((1, 2, 3, 4, 4, 4))
        points = [rng.choice((100, 110, 115, 120, 123, 130)) for _ in range(size)]
        forfeits = [rng.random() < 0.15 for _ in range(size)]
        matches += [(f"M{m}", f"J{i}", p, True if f else None) for i, (p, f) in enumerate(zip(points, forfeits))]
    duels = [(f"J{i}", rng.randint(100, 2500), rng.randint(100, 2500)) for i in range(40)]
    return tdf_rows, interrupted, tournaments, players, matches, duels


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory):
    data = season()
    wb = formulas.formulas_workbook(*data, lines=max(len(data[0]), len(data[3]), len(data[4])) + 5)
    path = save_atomic(wb, tmp_path_factory.mktemp("formules") / "formules.xlsx")
    return data, sheets_as_csv(path, path.parent / "csv")


def lines(rows, count):
    return rows[formulas.FIRST - 1: formulas.FIRST - 1 + count]


class Compared:
    """Counts the values compared and the largest difference."""

    def __init__(self):
        self.count, self.largest = 0, 0.0

    def check(self, shown: str, expected: float, what):
        value = float(shown)
        difference = abs(value - expected)
        assert difference <= 1e-9 * max(1.0, abs(expected)), (what, shown, expected)
        self.count += 1
        self.largest = max(self.largest, difference)


def test_every_formula_value_is_the_cores(recalculated):
    (tdf_rows, interrupted, tournaments, players, matches, duels), sheets = recalculated
    compared = Compared()

    # Tour de France: each tournament's column of places through tdf.tournament_points
    shown = lines(sheets[formulas.TDF_SHEET], len(tdf_rows))
    by_tournament = defaultdict(list)
    for i, (name, _, _) in enumerate(tdf_rows):
        by_tournament[name].append(i)
    for name, indexes in by_tournament.items():
        parsed = [tdf.Role.parse(c) if isinstance(c, str) else c for c in (tdf_rows[i][2] for i in indexes)]
        if any(isinstance(c, int) for c in parsed) and tdf.Role.CANCELLED in parsed:
            # « annulé » beside places: the core refuses it (§1), the formula shows #N/A on those lines
            with pytest.raises(InvalidInput):
                tdf.tournament_points(parsed, name in interrupted)
            for i, cell in zip(indexes, parsed):
                if cell is tdf.Role.CANCELLED:
                    assert shown[i][6] == "#N/A", (name, tdf_rows[i], shown[i][6])
            kept = [(i, c) for i, c in zip(indexes, parsed) if c is not tdf.Role.CANCELLED]
            indexes, parsed = [i for i, _ in kept], [c for _, c in kept]
        points = tdf.tournament_points(parsed, name in interrupted)
        for i, expected in zip(indexes, points):
            if expected is None:
                assert shown[i][6] == "", (name, i)
            else:
                compared.check(shown[i][6], expected, (name, tdf_rows[i]))

    # DBM: each tournament's VFT (ABRA) from its players' classes, then each player's RFJ (CADABRA)
    values = {}
    table = lines(sheets[formulas.DBM_TOURNAMENTS], len(tournaments))
    for row, (name, rounds) in zip(table, tournaments):
        classes = [dbm.class_value(p[2]) for p in players if p[0] == name]
        values[name] = dbm.tournament_value(classes, rounds).vft
        compared.check(row[7], values[name], name)
    shown = lines(sheets[formulas.DBM_PLAYERS], len(players))
    for name, _ in tournaments:
        indexes = [i for i, p in enumerate(players) if p[0] == name]
        official = [players[i][3] for i in indexes]
        for i, place, tied in zip(indexes, effective_places(official), tie_sizes(official)):
            compared.check(shown[i][3], dbm.class_value(players[i][2]), players[i])
            compared.check(shown[i][11], dbm.tied_points(values[name], place, len(official), tied), players[i])

    # TORRES: each match's victory points and differences
    shown = lines(sheets[formulas.TORRES_SHEET], len(matches))
    by_match = defaultdict(list)
    for i, row in enumerate(matches):
        by_match[row[0]].append(i)
    for indexes in by_match.values():
        points = [float(matches[i][2]) for i in indexes]
        flags = [bool(matches[i][3]) for i in indexes]
        for i, vp, diff in zip(indexes, torres.victory_points(points, flags), torres.particular_differences(points)):
            compared.check(shown[i][6], vp, matches[i])
            compared.check(shown[i][7], diff, matches[i])

    # Elo: each duel's expectation
    for row, (_, rating, opponent) in zip(lines(sheets[formulas.ELO_SHEET], len(duels)), duels):
        compared.check(row[3], elo.expected(rating, opponent), (rating, opponent))

    print(f"\nnative formulas: {compared.count} values compared with the core, largest difference "
          f"{compared.largest:.3g}")
    assert compared.count > 500


def test_formulas_are_plain_formulas_of_any_spreadsheet(recalculated, tmp_path):
    assert main(["excel", "formulas", str(tmp_path / "f.xlsx")]) == 0
    assert main(["excel", "formulas", str(tmp_path / "f.xlsx")]) == 1  # no overwrite without --force
    wb = openpyxl.load_workbook(tmp_path / "f.xlsx")
    found = [c.value for ws in wb for row in ws.iter_rows() for c in row if c.data_type == "f"]
    assert len(found) > 1000
    for formula in found:
        upper = formula.upper()
        for modern in ("LAMBDA", "LET(", "FILTER(", "SORT(", "SEQUENCE(", "XLOOKUP(", "_XLFN", "AGGREGATE("):
            assert modern not in upper, formula
    for sheet, _, formula in native.formulas():
        assert sheet in wb.sheetnames and formula.startswith("=")
    (_, _, _, _, _, _), sheets = recalculated
    for name, rows in sheets.items():  # LibreOffice computed every formula: no error left in the random season
        errors = [row for row in rows if any(cell.startswith(("#", "Err:")) for cell in row)]
        if name == formulas.TDF_SHEET:  # but « annulé » beside places, refused as the core refuses it
            errors = [row for row in errors if row[2].casefold() != "annulé"]
        assert not errors


def test_the_example_workbook_gives_the_rules_worked_examples(tmp_path):
    path = save_atomic(formulas.formulas_workbook(), tmp_path / "exemple.xlsx")
    sheets = sheets_as_csv(path, tmp_path / "csv")
    tdf_points = [round(float(r[6])) for r in lines(sheets[formulas.TDF_SHEET], 12)]
    assert tdf_points == [912, 912, 658, 534, 433, 351, 285, 231, 141, 141, 141, 141]  # tdf.md §1, example 2
    assert lines(sheets[formulas.DBM_TOURNAMENTS], 1)[0][7] == "120"  # dbm.md, worked example 1
    assert float(lines(sheets[formulas.DBM_PLAYERS], 6)[5][11]) == pytest.approx(42.710, abs=5e-4)
    torres_rows = lines(sheets[formulas.TORRES_SHEET], 8)
    assert [r[6] for r in torres_rows] == ["2", "8", "4", "1", "4", "0", "8", "2"]  # torres.md §2
    assert [r[7] for r in torres_rows[:4]] == ["-18", "42", "14", "-38"]
    assert float(lines(sheets[formulas.ELO_SHEET], 1)[0][3]) == pytest.approx(0.6401, abs=5e-5)
