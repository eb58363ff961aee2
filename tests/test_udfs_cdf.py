"""The Championnat de France's Excel functions (xlcircuit.udfs), called the way Excel calls them.

Expected values are typed by hand from docs/regles/cdf.md; nothing here asks the core.
Excel passes every number as a float, blanks as None, one cell as a scalar, ranges as lists of rows.
"""

from __future__ import annotations

import pytest

from xlcircuit.udfs import CDF_FINAL, CDF_QUALIF, CDF_SIMUL, PASTIS


def column(values):
    return [[v] for v in values]


def test_pastis_hand_checked_game():
    # cdf.md: 67, 38, 30, 20, 16, 14, 5 (the last eliminated after 5 years).
    out = PASTIS(column([9.0, 8.0, 7.0, 5.0, 3.0, 2.0, 0.0]), column([None] * 6 + [5.0]))
    assert out == column([67.0, 38.0, 30.0, 20.0, 16.0, 14.0, 5.0])


def test_pastis_tied_leaders_and_a_row():
    out = PASTIS([[8.0, 8.0, 7.0, 6.0, 5.0, 0.0, 0.0]], [[None, None, None, None, "", 4.0, 6.0]])
    assert out == [[50.0, 50.0, 30.0, 25.0, 21.5, 4.0, 6.0]]  # a row stays a row


def test_pastis_solo_and_years_played():
    # Solo after 5 years (vote): 102; survivors 5 each; eliminated 3 and 4.
    out = PASTIS(column([18.0, 5.0, 4.0, 4.0, 3.0, 0.0, 0.0]), column([None] * 5 + [3.0, 4.0]), 5.0)
    assert out == column([102.0, 5.0, 5.0, 5.0, 5.0, 3.0, 4.0])


def test_pastis_blank_cell_is_a_power_without_player():
    out = PASTIS(column([10.0, 5.0, None, 4.0, 4.0, 3.0, 3.0]))
    assert out == column([81.0, 20.0, "", 18.0, 18.0, 16.0, 16.0])  # 10 -> 20+10+51


@pytest.mark.parametrize("centres, survived, years, message", [
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], [0.0]], None, 7, "éliminé"),  # 0 centres: when?
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], [2.5]], None, 7, "entier de 0 à 34"),
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], ["sept"]], None, 7, "centres, cellule 7"),
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [6.0], [1.0]], None, 7, "39 centres"),
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], [0.0]], [[None], [None]], 7, "autant de cellules"),
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], [0.0]], [[None]] * 6 + [[6.0]], 5.0, "years_survived, cellule 7"),
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [2.0], [0.0]], [[None]] * 6 + [[3.0]], 8.0, "years_played"),
    ([[0.0]] * 7, [[3.0]] * 7, 7, "aucun centre"),  # nobody has a centre: not a board
    # a board is a range of 7 cells (cdf.md: seven players; blank cells for powers without a player):
    # a range one row short would silently score six players and drop a pursuer's bonus.
    ([[1.0]] * 8, None, 7, "7 cellules"),
    ([[9.0], [8.0], [7.0], [5.0], [3.0], [2.0]], None, 7, "7 cellules"),
    (5.0, None, 7, "7 cellules"),
    ([[9.0, 8.0], [7.0, 5.0]], None, 7, "7 cellules"),
])
def test_pastis_bad_input_is_a_message(centres, survived, years, message):
    out = PASTIS(centres, survived, years)
    assert isinstance(out, str) and out.startswith("#") and message in out


def test_simul():
    assert CDF_SIMUL(50.0, 40.0) == pytest.approx(56.0)  # 40 + 16 beats 50
    assert CDF_SIMUL(18.0, 81.0) == 81.0  # 64.8 + 7.2 = 72 < 81
    assert CDF_SIMUL("x", 3.0).startswith("#score1")
    assert CDF_SIMUL(-1.0, 3.0).startswith("#score1")


def test_qualif():
    assert CDF_QUALIF([[67.0, 30.0, 50.0]]) == pytest.approx(119.0)  # 67 + 40 + 12
    assert CDF_QUALIF([[67.0, None, 30.0]]) == 97.0  # two rounds: the sum
    assert CDF_QUALIF([[None, None, None]]) == 0.0
    assert CDF_QUALIF([[1.0, 2.0, 3.0, 4.0]]).startswith("#round_scores")
    assert CDF_QUALIF([[1.0, "abs", 3.0]]).startswith("#round_scores, cellule 2")


def test_final():
    rounds = [[67.0, 30.0, 50.0, 20.0]]
    assert CDF_FINAL(rounds) == pytest.approx(149.0)  # 67 + 50 + 24 + 8
    assert CDF_FINAL(rounds, True) == pytest.approx(171.35)  # x 1.15
    assert CDF_FINAL(rounds, True, 5.0) == pytest.approx(176.35)
    assert CDF_FINAL(rounds, None, None) == pytest.approx(149.0)
    assert CDF_FINAL([[67.0, 30.0, 50.0, None]]) == pytest.approx(141.0)  # three rounds: 100/100/80
    assert CDF_FINAL(rounds, "peut-être").startswith("#top_board")
    assert CDF_FINAL([[1.0] * 5]).startswith("#round_scores")
