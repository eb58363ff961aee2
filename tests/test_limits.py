"""One place holds the input limits (``xlcircuit.limits``): each bound is taken, and the next value is
refused, by the rules core, the Excel functions and the workbook layer alike."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from xlcircuit.federations import cdf as cdf_book
from xlcircuit.federations import dbm as dbm_book
from xlcircuit.federations import elo as elo_book
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.federations import torres as torres_book
from xlcircuit.rules import cdf, dbm, elo, limits, tdf, torres
from xlcircuit.rules.errors import InvalidInput, WorkbookProblems
from xlcircuit.udfs import DBM_POINTS, DBM_VALUE, ELO_CHANGE, TDF_POINTS, TORRES_DIFF
from xlcircuit.workbook.cells import as_positive_int
from xlcircuit.workbook.sheets import tournament_name
from xlcircuit.workbook.spec import Problems, Record
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, save_atomic


def test_the_limits_module_is_pure_data():
    tree = ast.parse(Path(limits.__file__).read_text(encoding="utf-8"))
    imported = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [getattr(n, "module", None) for n in imported] == ["__future__"]
    bounds = {name: value for name, value in vars(limits).items() if name.isupper()}
    assert set(bounds) == set(limits.__all__)
    assert all(isinstance(v, (int, float)) and v > 0 for v in bounds.values())


# --- places and counts --------------------------------------------------------------------------


def test_places_up_to_the_limit_in_the_workbook_layer():
    assert as_positive_int(limits.MAX_PLACE) == limits.MAX_PLACE
    with pytest.raises(InvalidInput, match=f"un entier de 1 à {limits.MAX_PLACE} ; trouvé {limits.MAX_PLACE + 1}"):
        as_positive_int(limits.MAX_PLACE + 1)


@pytest.mark.parametrize("function", [TDF_POINTS, lambda place, n: DBM_POINTS(120.0, place, n)],
                         ids=["TDF_POINTS", "DBM_POINTS"])
def test_player_counts_up_to_the_limit_in_the_excel_functions(function):
    assert isinstance(function(1.0, float(limits.MAX_PLACE)), float)
    out = function(1.0, float(limits.MAX_PLACE + 1))
    assert out == f"#n : entier de 1 à {limits.MAX_PLACE} attendu, trouvé {limits.MAX_PLACE + 1}"


def test_tournament_names_up_to_the_limit():
    for length, refused in ((limits.MAX_TOURNAMENT_NAME, False), (limits.MAX_TOURNAMENT_NAME + 1, True)):
        problems = Problems()
        record = Record("Tournois", 2, {"Tournoi": "T" * length}, {"Tournoi": "A2"})
        assert (tournament_name(record, problems, {}, "tournoi") is None) == refused
        assert [p.message for p in problems.items] == (
            [f"nom de {length} caractères : {limits.MAX_TOURNAMENT_NAME} au plus"] if refused else [])


def test_imposed_points_up_to_the_limit():
    # The bound is the core's (tdf.line_violations); the workbook only parses the number.
    assert tdf_book._imposed(limits.MAX_IMPOSED + 1) == (limits.MAX_IMPOSED + 1, None)
    assert tdf.line_violations(tdf.Line("A", 1, imposed_points=limits.MAX_IMPOSED)) == []
    assert [v.message for v in tdf.line_violations(tdf.Line("A", 1, imposed_points=limits.MAX_IMPOSED + 1))] == [
        f"nombre de points entre 0 et {limits.MAX_IMPOSED} attendu ; trouvé {limits.MAX_IMPOSED + 1}"]
    with pytest.raises(InvalidInput, match=f"entre 0 et {limits.MAX_IMPOSED} attendu"):
        tdf.score_tournament([tdf.Line("A", 1, imposed_points=limits.MAX_IMPOSED + 1)])


# --- DBM rounds: one bound, the workbook's and DBM_VALUE's ------------------------------------------


def test_dbm_rounds_up_to_the_limit_in_the_core_and_the_excel_function():
    # Twelve (O) players: VFT = 3 x 10 (CMM of 3.00) x NRJ ("EXEMPLES 1)" with four rounds: 120).
    assert dbm.tournament_value([3] * 12, limits.DBM_MAX_ROUNDS).vft == 30 * limits.DBM_MAX_ROUNDS
    assert DBM_VALUE([["O"]] * 12, float(limits.DBM_MAX_ROUNDS)) == 30 * limits.DBM_MAX_ROUNDS
    with pytest.raises(InvalidInput, match=f"de 1 à {limits.DBM_MAX_ROUNDS} ; trouvé {limits.DBM_MAX_ROUNDS + 1}"):
        dbm.tournament_value([3] * 12, limits.DBM_MAX_ROUNDS + 1)
    assert DBM_VALUE([["O"]] * 12, limits.DBM_MAX_ROUNDS + 1.0).startswith(
        f"#rounds : entier de 1 à {limits.DBM_MAX_ROUNDS} attendu")


def _dbm_season(tmp_path: Path, rounds: int) -> Path:
    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "2025"), ("seuil_S", 60), ("seuil_O", 40)])
    type_rows(wb, dbm_book.JOUEURS, [("A", "Club", "O"), ("B", "Club", "O")])
    type_rows(wb, dbm_book.TOURNOIS, [("P", dt.date(2025, 10, 1), rounds, None, None)])
    type_rows(wb, dbm_book.RESULTATS, [("P", "A", None, 1, None), ("P", "B", None, 2, None)])
    return save_atomic(wb, tmp_path / f"rondes-{rounds}.xlsx")


def test_dbm_rounds_up_to_the_limit_in_the_workbook(tmp_path):
    summary = dbm_book.compute(Book(_dbm_season(tmp_path, limits.DBM_MAX_ROUNDS)))
    assert summary.report.values["P"].nrj == limits.DBM_MAX_ROUNDS
    assert any(f"joué en {limits.DBM_MAX_ROUNDS} rondes" in w for w in summary.warnings)  # not 4 or 5
    with pytest.raises(WorkbookProblems) as caught:
        dbm_book.compute(Book(_dbm_season(tmp_path, limits.DBM_MAX_ROUNDS + 1)))
    assert [(p.cell, p.message) for p in caught.value.problems] == [
        ("C2", f"nombre de rondes attendu : de 1 à {limits.DBM_MAX_ROUNDS} ; trouvé {limits.DBM_MAX_ROUNDS + 1}")]


# --- CdF bonus ------------------------------------------------------------------------------------


def _cdf_players(tmp_path: Path, bonus: float) -> Path:
    wb = cdf_book.new_workbook()
    type_rows(wb, cdf_book.PARAMETRES, [("Championnat", "Test"), ("Table finale", "non"),
                                        ("Tables incomplètes", "oui")])
    type_rows(wb, cdf_book.JOUEURS, [("A", None, None, None, None, bonus), ("B", None, None, None, None, None)])
    type_rows(wb, cdf_book.PARTIES, [(1, 1, "A", "France", 5, None, None, None),
                                     (1, 1, "B", "Italie", 3, None, None, None)])
    return save_atomic(wb, tmp_path / "bonus.xlsx")


def test_cdf_bonus_up_to_the_limit(tmp_path):
    for bonus in (limits.CDF_MAX_BONUS, -limits.CDF_MAX_BONUS):
        summary = cdf_book.compute(Book(_cdf_players(tmp_path, bonus)))
        assert next(s.bonus for s in summary.championship.standings if s.player == "A") == bonus
    with pytest.raises(WorkbookProblems) as caught:
        cdf_book.compute(Book(_cdf_players(tmp_path, limits.CDF_MAX_BONUS + 1)))
    assert [(p.column, p.message) for p in caught.value.problems] == [
        ("Bonus", f"bonus entre -{limits.CDF_MAX_BONUS} et {limits.CDF_MAX_BONUS} attendu ; "
                  f"trouvé {float(limits.CDF_MAX_BONUS + 1)}")]
    assert cdf.Player("A", bonus=limits.CDF_MAX_BONUS).bonus == limits.CDF_MAX_BONUS
    # The bound is the core's: the workbook only locates its violation.
    players = [cdf.Player("A", bonus=-limits.CDF_MAX_BONUS), cdf.Player("B", bonus=-limits.CDF_MAX_BONUS - 0.5)]
    assert [(v.index, v.field, v.message) for v in cdf.bonus_violations(players)] == [
        (1, "bonus", f"bonus entre -{limits.CDF_MAX_BONUS} et {limits.CDF_MAX_BONUS} attendu ; "
                     f"trouvé {-limits.CDF_MAX_BONUS - 0.5}")]
    with pytest.raises(InvalidInput, match="bonus entre"):
        cdf.run_championship({p.name: p for p in players}, [])


# --- Elo totals -----------------------------------------------------------------------------------


def test_elo_totals_up_to_the_limit():
    top = limits.ELO_MAX_TOTAL
    changes = elo.rate_game([1000, 1000], [top, -top], [1, 1])
    assert [c.rank for c in changes] == [2, 1]  # the lowest total wins
    with pytest.raises(InvalidInput, match="total attendu"):
        elo.rate_game([1000, 1000], [top * 1.5, 0], [1, 1])
    assert ELO_CHANGE([[1000], [1000]], [[top * 1.5], [0]], [[1], [1]]).startswith("#totals")
    assert elo_book._total(top) == top
    with pytest.raises(InvalidInput, match="total entre"):
        elo_book._total(top * 1.5)


# --- TORRES numbers and divisions --------------------------------------------------------------------


def test_torres_numbers_and_divisions_up_to_the_limit():
    top = limits.TORRES_MAX_NUMBER
    assert torres.match_places([top, 0]) == [1, 2]
    with pytest.raises(InvalidInput, match="points particuliers attendus"):
        torres.match_places([top * 1.5, 0])
    assert isinstance(TORRES_DIFF([[top * 1.5], [0.0]]), str)
    assert torres_book._division(limits.TORRES_MAX_DIVISION) == limits.TORRES_MAX_DIVISION
    with pytest.raises(InvalidInput, match=f"de 1 à {limits.TORRES_MAX_DIVISION}"):
        torres_book._division(limits.TORRES_MAX_DIVISION + 1)
