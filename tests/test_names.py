"""One person split in two: spellings that are probably one person are flagged, with both cells and how to fix
it, by every federation that reads names; a flag never merges (:mod:`xlcircuit.rules.names`)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from conftest import write_season
from hypothesis import given
from hypothesis import strategies as st

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS
from xlcircuit.federations.examples import load
from xlcircuit.rules import names
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, save_atomic

# --- the rules core --------------------------------------------------------------------------


@pytest.mark.parametrize("a, b, reason", [
    ("Alice Martin", "alice martin", names.CASE),
    ("Hélène Roux", "Helene Roux", names.CASE),
    ("Jean-Pierre Morel", "Jean Pierre Morel", names.PUNCTUATION),
    ("Jean-Marie Roux", "Jeanmarie Roux", names.PUNCTUATION),
    ("J. Morel", "J Morel", names.PUNCTUATION),
    ("MULLER Jean", "Jean Muller", names.ORDER),  # the way many rankings write names
    ("Muller Jean", "jean muller", names.ORDER),
    ("DUPONT Jean-Pierre", "Jean Pierre Dupont", names.ORDER),
    ("Philippe Durand", "Phillipe Durand", names.DOUBLED),
    ("Ana Bel", "Anna Bel", names.DOUBLED),  # doubled letters, however short the name
    ("J. Morel", "Julien Morel", names.INITIAL),
    ("MOREL J.", "Julien Morel", names.INITIAL),
    ("J.-P. Morel", "Jean-Pierre Morel", names.INITIAL),
    ("Christophe Lecointre", "Christophe Lecointe", names.TYPO),  # one removed
    ("Christophe Lecointre", "Christophe Lecoimtre", names.TYPO),  # one changed
    ("Christophe Lecointre", "Christophe Lecoitnre", names.TYPO),  # two neighbours swapped
    ("Christophe Lecointre", "Christophe Lecointres", names.TYPO),  # one added
])
def test_each_likeness_pairs_the_two_spellings_with_its_reason(a, b, reason):
    assert names.probable_duplicates([a, b]) == [(a, b, reason)]


@pytest.mark.parametrize("spellings", [
    ["Jean Bon", "Jean Don"],  # one letter apart, but short: as likely two people
    ["Joueur 00012", "Joueur 00013"],  # a digit is no typo
    ["Christophe Lecointre", "Christophe Lecointre"],  # the same name twice is one name
    ["J. Morel", "Julien Morel", "Jacques Morel"],  # two full names fit the initial: no guess
    ["Camille Roux", "Sophie Martin"],
    ["Christophe Lecointre", "Christophe Lacontre"],  # two letters apart
])
def test_unlike_names_make_no_pair(spellings):
    assert names.probable_duplicates(spellings) == []


def test_three_spellings_make_two_pairs_with_the_first_and_keep_their_order():
    found = names.probable_duplicates(["alice martin", "Jean Muller", "ALICE MARTIN", "MULLER Jean", "Alice Martin"])
    assert found == [("alice martin", "ALICE MARTIN", names.CASE), ("alice martin", "Alice Martin", names.CASE),
                     ("Jean Muller", "MULLER Jean", names.ORDER)]


def test_the_key_is_what_two_spellings_of_one_person_share():
    assert names.key("MULLER Jean") == names.key("Jean Müller") == names.key(" jean   muller ") == "jean muller"
    assert names.key("Jean-Pierre") == "jean pierre"


name = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéèABCDEF -.'", min_size=1, max_size=25)


@given(st.lists(name, max_size=12))
def test_pairs_are_distinct_spellings_in_the_order_given(spellings):
    order = {n: i for i, n in reversed(list(enumerate(spellings)))}
    for a, b, reason in names.probable_duplicates(spellings):
        assert a != b and order[a] < order[b]
        assert reason in (names.CASE, names.PUNCTUATION, names.ORDER, names.DOUBLED, names.INITIAL, names.TYPO)


@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10), min_size=2, max_size=3))
def test_a_name_with_its_words_reversed_and_upper_case_is_always_found(parts):
    typed = " ".join(w.capitalize() for w in parts)
    swapped = " ".join(w.upper() for w in reversed(parts))
    if typed.casefold() == swapped.casefold():
        return
    found = names.probable_duplicates([typed, swapped])
    assert found and found[0][:2] == (typed, swapped)


# --- what the organiser sees ------------------------------------------------------------------


def test_check_names_both_cells_of_muller_jean_and_jean_muller(tmp_path, capsys):
    path = write_season(tmp_path / "s.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None),
                                               ("France", dt.date(2026, 5, 1), "majeur", None)],
                        [("Open", "MULLER Jean", 1, None, None), ("Open", "Camille Roux", 2, None, None),
                         ("France", "Camille Roux", 1, None, None), ("France", "Jean Muller", 2, None, None)])
    assert main(["check", str(path)]) == 0
    err = capsys.readouterr().err
    assert ("« MULLER Jean » (Résultats!B2) et « Jean Muller » (Résultats!B5) sont-ils la même personne (nom et "
            "prénom dans un autre ordre) ? Si oui, ajoutez « MULLER Jean » comme alias de « Jean Muller » : "
            f'xlcircuit fusion {path} "Jean Muller" "MULLER Jean" (ou corrigez l\'orthographe) ; si ce sont deux '
            "personnes, donnez à chacune son identifiant dans la table « Joueurs » (colonne « Identifiant ») et cet "
            "avertissement ne reviendra plus.") in err
    # Nothing merged: two people still, each with one tournament.
    assert main(["fill", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 tournois, 3 personnes, 1 classée." in out


def test_a_joueurs_line_spelled_otherwise_gets_the_likely_name(tmp_path):
    from xlcircuit.federations import tdf as tdf_book

    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.JOUEURS, [("MULLER Jean", "Club A")])
    type_rows(wb, tdf_book.TOURNOIS, [("Open", dt.date(2025, 10, 1), "normal", None)])
    type_rows(wb, tdf_book.RESULTATS, [("Open", "Jean Muller", 1, None, None)])
    summary = tdf_book.compute(Book(save_atomic(wb, tmp_path / "s.xlsx")))
    assert ("Joueurs!A2 : « MULLER Jean », de la table « Joueurs », n'a aucun résultat ; faute de frappe pour "
            "« Jean Muller » ?") in " ".join(summary.warnings)


def _warnings(code: str, wb, tmp_path) -> str:
    adapter = ADAPTERS[code]
    return " ".join(adapter.compute(Book(save_atomic(wb, tmp_path / f"{code}.xlsx"))).warnings)


def test_dbm_flags_a_class_listed_under_another_spelling(tmp_path):
    from xlcircuit.federations import dbm as dbm_book

    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "2025-2026"), ("seuil_S", 60), ("seuil_O", 40)])
    type_rows(wb, dbm_book.JOUEURS, [("Jean Muller", "Club", "S"), ("Ana", "Club", "O")])
    type_rows(wb, dbm_book.TOURNOIS, [("P1", dt.date(2025, 10, 1), 4, None, None)])
    type_rows(wb, dbm_book.RESULTATS, [("P1", "MULLER Jean", None, 1, None), ("P1", "Ana", None, 2, None)])
    text = _warnings("dbm", wb, tmp_path)
    assert "« Jean Muller » (Joueurs!A2) et « MULLER Jean » (Résultats!B2) sont-ils la même personne (nom et " \
           "prénom dans un autre ordre) ?" in text


def test_cdf_flags_a_hyphen(tmp_path):
    from xlcircuit.federations import cdf as cdf_book

    parties = [list(row) for row in load("cdf").PARTIES]
    wanted = parties[0][2]  # round 1, board 1
    later = next(row for row in parties if row[2] == wanted and row[0] > 1)
    later[2] = wanted.replace(" ", "-")
    wb = cdf_book.new_workbook()
    type_rows(wb, cdf_book.JOUEURS, [])
    type_rows(wb, cdf_book.PARTIES, [tuple(row) for row in parties])
    text = _warnings("cdf", wb, tmp_path)
    assert f"« {wanted} » (Parties!C2) et « {later[2]} »" in text and "trait d'union" in text


def test_elo_flags_a_one_letter_typo(tmp_path):
    from xlcircuit.federations import elo as elo_book

    day = dt.date(2025, 9, 1)
    wb = elo_book.new_workbook()
    type_rows(wb, elo_book.PARTIES, [(day, 1, "Christophe Lecointre", 10), (day, 1, "Bruno", 20),
                                     (day, 2, "Christophe Lecointe", 10), (day, 2, "Bruno", 20)])
    assert ("« Christophe Lecointre » (Parties!C2) et « Christophe Lecointe » (Parties!C4) sont-ils la même "
            "personne (une lettre de différence) ?") in _warnings("elo", wb, tmp_path)


def test_torres_flags_a_doubled_letter(tmp_path):
    from xlcircuit.federations import torres as torres_book

    example = json.loads(json.dumps(load("torres").JOUEURS))
    joueurs = [tuple(row) + (None,) for row in example] + [("Matthis", 1500, None, None, "nouveau", None)]
    wb = torres_book.new_workbook()
    type_rows(wb, torres_book.PARAMETRES, [("Saison", load("torres").SAISON), ("Graine", load("torres").GRAINE)])
    type_rows(wb, torres_book.JOUEURS, joueurs)
    type_rows(wb, torres_book.MATCHS, [tuple(row) for row in load("torres").MATCHS])
    text = _warnings("torres", wb, tmp_path)
    assert "« Mathis » (Joueurs!A" in text and "« Matthis » (Joueurs!A" in text
    assert "une lettre doublée en plus ou en moins" in text
