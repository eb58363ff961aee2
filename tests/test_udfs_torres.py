"""The TORRES Excel functions (TORRES_VP, TORRES_DIFF) called as Excel calls them: floats, blanks as None,
ranges as lists of rows. Expected values by hand from torres.md §2 and its source."""

from __future__ import annotations

import pytest

from xlcircuit.udfs import TORRES_DIFF, TORRES_VP

SOURCE = [[115.0], [130.0], [123.0], [110.0]]  # torres-championnat.txt « Classement », note **


def test_diff_of_the_source_example():
    assert TORRES_DIFF(SOURCE) == [[-18.0], [42.0], [14.0], [-38.0]]


def test_vp_by_place_and_shape():
    assert TORRES_VP(SOURCE) == [[2.0], [8.0], [4.0], [1.0]]
    assert TORRES_VP([[115.0, 130.0, 123.0, 110.0]]) == [[2.0, 8.0, 4.0, 1.0]]  # a row stays a row
    assert TORRES_VP([[120.0], [120.0], [100.0], [90.0]]) == [[6.0], [6.0], [2.0], [1.0]]  # (8 + 4) / 2


def test_the_fictitious_player_is_typed_like_anyone_and_takes_his_place():
    # Source « Classement »: victory points « suivant la place obtenue dans la partie »; the fictitious player
    # « a de fortes chances d'être dernier », no more. A 100, Forfait 95, B 90, C 80: A 8, B 2, C 1.
    assert TORRES_VP([[100.0], [95.0], [90.0], [80.0]]) == [[8.0], [4.0], [2.0], [1.0]]


def test_vp_with_delayed_players():
    # Source « Durée du championnat »: who delayed an unfinished match « ne marquent aucun point de victoire,
    # le classement des joueurs restants étant déterminé par le dernier décompte ».
    # B flagged: 0; C 123, A 115, D 110 take 8, 4, 2.
    assert TORRES_VP(SOURCE, [[False], [True], [None], [0.0]]) == [[4.0], [0.0], [8.0], [2.0]]
    assert TORRES_VP(SOURCE, None) == TORRES_VP(SOURCE)  # omitted


@pytest.mark.parametrize("call", [
    lambda: TORRES_VP([[115.0], [None], [123.0], [110.0]]),
    lambda: TORRES_VP([[1.0], [2.0], [3.0], [4.0], [5.0]]),
    lambda: TORRES_VP(SOURCE, [[True], [False]]),
    lambda: TORRES_VP(SOURCE, [["oui"], [False], [False], [False]]),
    lambda: TORRES_VP([["cent"], [1.0]]),
    lambda: TORRES_DIFF([[True], [1.0]]),
    lambda: TORRES_DIFF([[1.0, 2.0], [3.0]]),
    # points are ranked to 9 decimals: a huge one used to escape as decimal.InvalidOperation (VP) or give nan (DIFF)
    lambda: TORRES_VP([[1e20], [2.0], [3.0], [4.0]]),
    lambda: TORRES_VP([[1e308], [-1e308], [3.0], [4.0]]),
    lambda: TORRES_DIFF([[1e308], [1e308], [3.0], [4.0]]),
])  # fmt: skip
def test_bad_input_gives_a_message_not_an_exception(call):
    out = call()
    assert isinstance(out, str) and out.startswith("#")


def test_messages_say_where_and_what():
    assert TORRES_VP([[115.0], [None], [123.0], [110.0]]) == "#points, cellule 2 : nombre attendu, trouvé une cellule vide"
    assert TORRES_VP(SOURCE, [[True], [False]]) == "#points et forfeit : autant de cellules attendues, trouvé 4 et 2"
    # in-game points are never negative (the Matchs table refuses them too)
    assert TORRES_DIFF([[115.0], [-5.0]]) == "#points, cellule 2 : nombre de 0 à 1000000000 attendu, trouvé -5"
