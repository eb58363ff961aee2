"""A blank cell is never read as a value without a word: a required field left blank is a located problem;
where a default is documented, a located warning that names the default (every input table of the five
federations; readings in docs/regles/decisions.md)."""

from __future__ import annotations

import datetime as dt
import json

from conftest import write_season

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS
from xlcircuit.federations import cdf as cdf_book
from xlcircuit.federations import dbm as dbm_book
from xlcircuit.federations import elo as elo_book
from xlcircuit.federations import torres as torres_book
from xlcircuit.federations.examples import load
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, save_atomic


def test_a_blank_tdf_type_or_date_is_a_located_problem_and_nothing_is_written(tmp_path, capsys):
    path = write_season(tmp_path / "s.xlsx", [("Coupe web", dt.date(2025, 10, 1), None, None),
                                               ("Open", None, "normal", None)],
                        [("Coupe web", "Ana", 1, None, None), ("Coupe web", "Bob", 2, None, None),
                         ("Open", "Ana", 2, None, None), ("Open", "Bob", 1, None, None)])
    before = path.read_bytes()
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert ("Tournois!C2 (colonne « Type ») : type manquant : normal, majeur, en ligne, majeur en ligne (le poids "
            "du tournoi dans la saison en dépend)") in err
    assert ("Tournois!B3 (colonne « Date ») : date manquante : les tournois sont rangés par date (colonnes du "
            "classement, nom de la saison) ; tapez-la (jj/mm/aaaa)") in err
    assert main(["fill", str(path)]) == 1
    assert path.read_bytes() == before


def _warnings(adapter, wb, tmp_path) -> list[str]:
    return adapter.compute(Book(save_atomic(wb, tmp_path / f"{adapter.code}.xlsx"))).warnings


def test_dbm_blank_class_is_a_newcomer_said_at_its_cell(tmp_path):
    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "2025-2026"), ("seuil_S", 60), ("seuil_O", 40)])
    type_rows(wb, dbm_book.JOUEURS, [("Ana", "Club", "O"), ("Zoé", "Club", None)])
    type_rows(wb, dbm_book.TOURNOIS, [("P1", dt.date(2025, 10, 1), 4, "oui", None)])
    type_rows(wb, dbm_book.RESULTATS, [("P1", "Ana", "Bob", 1, None), ("P1", "Zoé", None, 2, None)])
    warnings = _warnings(dbm_book.ADAPTER, wb, tmp_path)
    assert "2 joueurs sans classe dans la table Joueurs, classés F (nouveaux joueurs) : Bob, Zoé (Joueurs!C3)." \
        in warnings
    assert ("« P1 » est en double mais Zoé (Résultats!C3) n'a pas d'équipier : compté comme une équipe d'un "
            "joueur.") in warnings


def test_elo_blank_winner_rule_is_the_lowest_total_said_at_its_cell(tmp_path):
    day = dt.date(2025, 9, 1)
    wb = elo_book.new_workbook()
    type_rows(wb, elo_book.REGLAGES, [("Nom", None), ("Vainqueur", None)])
    type_rows(wb, elo_book.PARTIES, [(day, 1, "Ana", 10), (day, 1, "Bob", 20)])
    assert ("Réglages!B5 (colonne « Valeur ») : Vainqueur vide : « plus petit total » par défaut (le plus petit "
            "total gagne, comme au jeu du règlement) ; tapez « plus petit total » ou « plus grand total »") \
        in _warnings(elo_book.ADAPTER, wb, tmp_path)
    type_rows(wb, elo_book.REGLAGES, [("Nom", None), ("Vainqueur", "plus petit total")])
    assert not any("Vainqueur" in w for w in _warnings(elo_book.ADAPTER, wb, tmp_path))


def test_cdf_blank_top_board_is_yes_said_at_its_cell(tmp_path):
    wb = cdf_book.new_workbook()
    type_rows(wb, cdf_book.PARAMETRES, [("Championnat", "CdF"), ("Table finale", None), ("Tables incomplètes", "non")])
    type_rows(wb, cdf_book.JOUEURS, load("cdf").JOUEURS)
    type_rows(wb, cdf_book.PARTIES, load("cdf").PARTIES)
    assert ("Tournoi!B5 (colonne « Valeur ») : Table finale vide : « oui » par défaut (une table finale, ses "
            "joueurs ont le bonus de 15 %) ; tapez oui ou non") in _warnings(cdf_book.ADAPTER, wb, tmp_path)


def test_torres_blank_status_without_a_group_is_new_said_at_its_cell(tmp_path):
    joueurs = [tuple(row) + (None,) for row in json.loads(json.dumps(load("torres").JOUEURS))]
    row = next(i for i, r in enumerate(joueurs) if r[4] == "nouveau")
    joueurs[row] = joueurs[row][:4] + (None, None)
    wb = torres_book.new_workbook()
    type_rows(wb, torres_book.PARAMETRES, [("Saison", load("torres").SAISON), ("Graine", load("torres").GRAINE)])
    type_rows(wb, torres_book.JOUEURS, joueurs)
    type_rows(wb, torres_book.MATCHS, [tuple(r) for r in load("torres").MATCHS])
    assert (f"Joueurs!E{row + 2} (colonne « Statut ») : Statut vide, ni division ni groupe : {joueurs[row][0]} est "
            "compté « nouveau » (il entre la saison prochaine en division la plus basse) ; tapez « nouveau », ou "
            "sa division et son groupe") in _warnings(torres_book.ADAPTER, wb, tmp_path)


def test_the_templates_as_made_raise_no_default_warning(tmp_path):
    """The defaults warned of are blanks an organiser made: a new workbook types its parameters."""
    for adapter in ADAPTERS.values():
        wb = adapter.new_workbook()
        warnings = _warnings(adapter, wb, tmp_path)
        assert not any("par défaut" in w for w in warnings), (adapter.code, warnings)


def test_cdf_a_blank_birth_date_deciding_a_tie_is_said_at_its_cell(tmp_path):
    """cdf.md: the youngest breaks the last tie, an unknown date after every known one: a blank decides a place."""
    wb = cdf_book.new_workbook()
    type_rows(wb, cdf_book.PARAMETRES, [("Championnat", "CdF"), ("Table finale", "non"), ("Tables incomplètes", "oui")])
    type_rows(wb, cdf_book.JOUEURS, [("L", None, None, None, None, None), ("M", None, None, None, None, None),
                                     ("A", None, None, dt.date(1990, 5, 1), None, None),
                                     ("B", None, None, None, None, None)])
    type_rows(wb, cdf_book.PARTIES, [(1, 1, "L", "Allemagne", 9, None, None, None),
                                     (1, 1, "A", "Italie", 5, None, None, None),
                                     (1, 2, "M", "Allemagne", 9, None, None, None),
                                     (1, 2, "B", "Italie", 5, None, None, None)])
    warnings = _warnings(cdf_book.ADAPTER, wb, tmp_path)
    assert ("Joueurs!D5 : Naissance vide : B, à égalité de total avec A, est départagé au plus jeune comme s'il "
            "était le plus âgé (une date inconnue vient après toutes les dates connues) ; tapez sa date de "
            "naissance.") in warnings


def test_cdf_a_mistyped_line_of_a_board_of_seven_makes_no_follow_on_problem(tmp_path, capsys):
    """A board of seven with one line to fix: that line is the problem; « 6 joueurs … autorisez les tables
    incomplètes » would send the organiser the wrong way."""
    parties = [list(row) for row in load("cdf").PARTIES]
    parties[0][3] = "Alemagne"  # round 1, board 1: a typo in a country
    eliminated = next(i for i, row in enumerate(parties) if row[4] == 0)
    parties[eliminated][5] = None  # a player without a centre whose elimination year is blank
    wb = cdf_book.new_workbook()
    type_rows(wb, cdf_book.JOUEURS, load("cdf").JOUEURS)
    type_rows(wb, cdf_book.PARTIES, [tuple(row) for row in parties])
    path = save_atomic(wb, tmp_path / "cdf.xlsx")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Parties!D2 (colonne « Pays ») : pays attendu" in err
    assert f"Parties!F{eliminated + 2} (colonne « Éliminé après ») :" in err
    assert "joueurs attendus sur une table" not in err and "incomplète" not in err
    assert err.count("\n  - ") == 2, err
