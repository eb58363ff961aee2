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
from xlcircuit.workbook.cells import as_positive_int
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


def as_typed(rng: random.Random, place: int) -> object:
    """A place as organisers type it: a number, or a French ordinal (which ``fill`` accepts)."""
    return rng.choice([place, place, f"{place}e", f"{place}ème", f"{place} e"] + (["1er", "1re"] if place == 1 else [])
                      + (["2nd"] if place == 2 else []))


#: Places no rule reads: the whole tournament is left uncomputed (#N/A), never a plausible number.
UNREADABLE = ("3er", "premier", 0, 2.5, "1e2", "joueur", "5nd")


def season(seed: int = 16):
    rng = random.Random(seed)
    tdf_rows, interrupted = [], []
    for t in range(24):
        name = f"T{t}"
        places = official_places(rng, 1 if t == 0 else rng.randint(2, 16))
        cells = [as_typed(rng, p) for p in places]
        cells += [rng.choice(ROLES) for _ in range(rng.randint(0, 2))] + [None] * rng.randint(0, 1)
        players = [f"J{i}" for i in range(len(cells))]
        for _ in range(rng.choice((0, 0, 1, 2))):  # doublons: a player's second line (two boards)
            players.append(rng.choice(players[:len(places)]))
            cells.append(as_typed(rng, rng.randint(1, len(places) + 1)))
        if t % 7 == 3:
            cells[rng.randrange(len(cells))] = rng.choice(UNREADABLE)
        lines = list(zip(players, cells))
        rng.shuffle(lines)
        tdf_rows += [(name, player, cell) for player, cell in lines]
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


def tdf_scores(rows, interrupted: bool) -> list[float | None] | None:
    """The points of a tournament's lines (None: not classified, or a doublon), as ``fill`` reads and the core
    scores them; None when a line cannot be read or the core refuses the tournament."""
    entries = []
    for _, player, cell in rows:
        try:
            if cell is None:
                entries.append(None)
            elif isinstance(cell, str) and not cell.strip()[0].isdigit():
                role = tdf.Role.parse(cell)
                if role is None:  # « joueur »: a player needs his place
                    return None
                entries.append(tdf.Line(player, role=role))
            else:
                entries.append(tdf.Line(player, place=as_positive_int(cell)))
        except InvalidInput:
            return None
    try:
        scored = iter(tdf.score_tournament([e for e in entries if e is not None], interrupted))
    except InvalidInput:
        return None
    points = []
    for entry in entries:
        s = None if entry is None else next(scored)
        points.append(None if s is None or s.status is tdf.Status.DUPLICATE else s.points)
    return points


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

    # Tour de France: each tournament's lines, read as a fill reads them, scored by tdf.score_tournament
    shown = lines(sheets[formulas.TDF_SHEET], len(tdf_rows))
    by_tournament = defaultdict(list)
    for i, (name, _, _) in enumerate(tdf_rows):
        by_tournament[name].append(i)
    uncomputed = 0
    for name, indexes in by_tournament.items():
        scored = tdf_scores([tdf_rows[i] for i in indexes], name in interrupted)
        if scored is None:  # a line the rules cannot read: the whole tournament shows #N/A, with the reason
            uncomputed += 1
            assert all(shown[i][9] == "#N/A" for i in indexes), name
            assert all(shown[i][10] or shown[i][11].startswith("tournoi non calculé : ligne ") for i in indexes)
            continue
        for i, expected in zip(indexes, scored):
            if expected is None:  # not classified, or a doublon
                assert shown[i][9] == "", (name, tdf_rows[i], shown[i][9])
            else:
                compared.check(shown[i][9], expected, (name, tdf_rows[i]))
    assert uncomputed >= 3

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
        if name == formulas.TDF_SHEET:  # but the tournaments with a line the rules refuse, each with its reason
            errors = [row for row in errors if not (row[9] == "#N/A" and (row[10] or row[11]))]
        assert not errors


def test_the_example_workbook_gives_the_rules_worked_examples(tmp_path):
    path = save_atomic(formulas.formulas_workbook(), tmp_path / "exemple.xlsx")
    sheets = sheets_as_csv(path, tmp_path / "csv")
    tdf_points = [round(float(r[9])) for r in lines(sheets[formulas.TDF_SHEET], 12)]
    assert tdf_points == [912, 912, 658, 534, 433, 351, 285, 231, 141, 141, 141, 141]  # tdf.md §1, example 2
    assert lines(sheets[formulas.DBM_TOURNAMENTS], 1)[0][7] == "120"  # dbm.md, worked example 1
    assert float(lines(sheets[formulas.DBM_PLAYERS], 6)[5][11]) == pytest.approx(42.710, abs=5e-4)
    torres_rows = lines(sheets[formulas.TORRES_SHEET], 8)
    assert [r[6] for r in torres_rows] == ["2", "8", "4", "1", "4", "0", "8", "2"]  # torres.md §2
    assert [r[7] for r in torres_rows[:4]] == ["-18", "42", "14", "-38"]
    assert float(lines(sheets[formulas.ELO_SHEET], 1)[0][3]) == pytest.approx(0.6401, abs=5e-5)


def test_ordinals_and_a_doublon_are_computed_as_the_rules_do(tmp_path):
    """The issue's cases. Places typed « 1er », « 2e », « 3ème »: as 1, 2, 3 (tdf.md §1 example 2, typed as
    ordinals: 912, 912, 658…). A 1, B 2, A 3, C 4: A's second line is a doublon (§1: « les joueurs classés à la
    suite de cette place sont considérés … comme classés un rang au dessus »), so x = 3: A 1000 + 3 = 1003,
    B 1000 / 10^(1/2) = 316.23, C (3rd) 100. Before: A 1004 and 464.16 for B."""
    ordinal = {1: "1er", 3: "3ème", 9: "9e"}
    places = [1, 1, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]
    example = [("Lyon", f"Joueur {i + 1}", ordinal.get(p, f"{p}e")) for i, p in enumerate(places)]
    doublon = [("Paris", "A", 1), ("Paris", "B", 2), ("Paris", "A", 3), ("Paris", "C", 4)]
    path = save_atomic(formulas.formulas_workbook(example + doublon, (), lines=20), tmp_path / "f.xlsx")
    rows = lines(sheets_as_csv(path, tmp_path / "csv")[formulas.TDF_SHEET], 16)
    assert [round(float(r[9])) for r in rows[:12]] == [912, 912, 658, 534, 433, 351, 285, 231, 141, 141, 141, 141]
    paris = rows[12:]
    assert [r[9] and round(float(r[9]), 2) for r in paris] == [1003, 316.23, "", 100]
    assert paris[2][11].startswith("doublon : sa meilleure ligne compte")


def test_an_unreadable_place_leaves_its_whole_tournament_uncomputed_with_the_reason(tmp_path):
    rows = [("Open", "A", "1er"), ("Open", "B", "3er"), ("Open", "C", 3), ("Open", "D", 4), ("Autre", "A", 1)]
    path = save_atomic(formulas.formulas_workbook(rows, (), lines=10), tmp_path / "f.xlsx")
    shown = lines(sheets_as_csv(path, tmp_path / "csv")[formulas.TDF_SHEET], 5)
    assert [r[9] for r in shown] == ["#N/A", "#N/A", "#N/A", "#N/A", "1001"]  # never 1004 / 215 / 100 for A, C, D
    reason = "place illisible : « 3er » (un entier de 1 à 100000 : 3, 3e, 1er ; ou organisateur, aide, annulé)"
    assert shown[1][10] == reason
    assert shown[0][11] == shown[2][11] == shown[3][11] == f"tournoi non calculé : ligne 6 : {reason}"
