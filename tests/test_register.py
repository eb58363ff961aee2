"""The register of players (every federation's ``Joueurs`` table): identifiers and aliases, case and accent
variants of a registered name, homonyms kept apart, names resolved in every input table, and ``xlcircuit
fusion``, which adds an alias and never rewrites a result line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from conftest import example, table_dicts, table_rows

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS
from xlcircuit.federations import cdf as cdf_book
from xlcircuit.federations import dbm as dbm_book
from xlcircuit.federations import elo as elo_book
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.federations import torres as torres_book
from xlcircuit.rules.errors import WorkbookProblems
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, save_atomic

OPEN, CLOSE = dt.date(2025, 10, 1), dt.date(2025, 11, 1)


def tdf_season(path: Path, joueurs, resultats, tournois=(("Open", OPEN, "normal", None), ("Coupe", CLOSE, "normal", None))):
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.JOUEURS, joueurs)
    type_rows(wb, tdf_book.TOURNOIS, tournois)
    type_rows(wb, tdf_book.RESULTATS, resultats)
    return save_atomic(wb, path)


def filled(path: Path):
    book = Book(path)
    summary = tdf_book.fill(book)
    book.save()
    return summary, openpyxl.load_workbook(path)


def standings(wb) -> dict[str, dict[str, object]]:
    return {row["Joueur"]: row for row in table_dicts(wb["Classement"], "Classement")}


# --- names resolved through the register ---------------------------------------------------------------------


def test_aliases_case_and_accent_variants_designate_the_registered_player(tmp_path):
    """« MULLER Jean » and « Jean Muller » are one person once the register says so: his results add up, the
    published tables use the register's name, and nothing is flagged."""
    path = tdf_season(tmp_path / "s.xlsx", [("Jean Müller", "Club A", None, "MULLER Jean ; J. Muller")], [
        ("Open", "MULLER Jean", 1, None, None), ("Open", "Ana", 2, None, None),
        ("Coupe", "jean muller", 2, None, None), ("Coupe", "Ana", 1, None, None),
    ])
    summary, wb = filled(path)
    table = standings(wb)
    assert set(table) == {"Jean Müller", "Ana"}
    assert table["Jean Müller"]["Tournois classés"] == 2 and table["Jean Müller"]["Rang"] in (1, 2)
    assert {row["Joueur"] for row in table_dicts(wb["Points"], "Points")} == {"Jean Müller", "Ana"}
    assert not [w for w in summary.warnings if "même personne" in w]
    assert summary.clubs == {"Jean Müller": "Club A"}


def test_without_the_register_two_spellings_are_two_people_and_the_flag_offers_the_alias(tmp_path, capsys):
    path = tdf_season(tmp_path / "ma saison.xlsx", [], [
        ("Open", "Jean Muller", 1, None, None), ("Open", "Ana", 2, None, None),
        ("Coupe", "jean muller", 2, None, None), ("Coupe", "Ana", 1, None, None),
    ])
    assert main(["check", str(path)]) == 0
    err = capsys.readouterr().err
    assert ("« Jean Muller » (Résultats!B2) et « jean muller » (Résultats!B4) sont-ils la même personne (ne "
            "diffèrent que par les majuscules ou les accents) ? Si oui, "
            f"ajoutez « jean muller » comme alias de « Jean Muller » : xlcircuit fusion \"{path}\" \"Jean Muller\" "
            "\"jean muller\"") in err


def test_homonyms_are_kept_apart_by_their_identifiers(tmp_path):
    """Two « Jean Martin »: each line of the register has its identifier; a result line names him by his
    identifier, or « Jean Martin (identifiant) »; the tables show both apart."""
    path = tdf_season(tmp_path / "s.xlsx", [("Jean Martin", "Club A", "FR-101", None),
                                            ("Jean Martin", "Club B", "FR-202", None)], [
        ("Open", "FR-101", 1, None, None), ("Open", "Jean Martin (FR-202)", 2, None, None),
        ("Coupe", "fr-202", 1, None, None), ("Coupe", "Jean Martin (FR-101)", 2, None, None),
    ])
    summary, wb = filled(path)
    table = standings(wb)
    assert set(table) == {"Jean Martin (FR-101)", "Jean Martin (FR-202)"}
    assert all(row["Tournois classés"] == 2 for row in table.values())
    assert summary.clubs == {"Jean Martin (FR-101)": "Club A", "Jean Martin (FR-202)": "Club B"}


def test_a_name_two_homonyms_share_is_a_problem_at_its_cell(tmp_path):
    path = tdf_season(tmp_path / "s.xlsx", [("Jean Martin", None, "101", None), ("Jean Martin", None, "202", None)],
                      [("Open", "Jean Martin", 1, None, None), ("Open", "Ana", 2, None, None)])
    with pytest.raises(WorkbookProblems) as caught:
        tdf_book.compute(Book(path))
    (problem,) = caught.value.problems
    assert (problem.sheet, problem.cell) == ("Résultats", "B2")
    assert problem.message == ("« Jean Martin » peut désigner 2 joueurs de la table Joueurs (Joueurs!A2, identifiant "
                               "101 ; Joueurs!A3, identifiant 202) : tapez son identifiant (par exemple « 101 ») ou "
                               "« Jean Martin (101) »")


@pytest.mark.parametrize("joueurs, cell, message", [
    ([("Ana", None, None, None), ("Ana", None, None, None)], "A3",
     "Ana figure déjà ligne 2 : une ligne par joueur (deux personnes de ce nom : donnez à chacune son identifiant, "
     "colonne « Identifiant »)"),
    ([("Ana", None, None, None), ("ANA", None, None, None)], "A3",
     "ANA ne diffère de « Ana » que par les majuscules, les accents ou les espaces, qui figure ligne 2 : une ligne par "
     "joueur (deux personnes de ce nom : donnez à chacune son identifiant, colonne « Identifiant »)"),
    ([("Ana", None, "7", None), ("Ana", None, "7", None)], "A3",
     "la ligne 2 porte le même nom : une ligne par joueur ; deux personnes de ce nom : donnez à chacune son "
     "identifiant (colonne « Identifiant »), différent"),
    ([("Ana", None, "7", None), ("Bob", None, "7", None)], "C3",
     "identifiant « 7 » déjà pris par Ana (Joueurs!A2) : chacun désigne un seul joueur"),
    ([("Ana", None, None, "Annie"), ("Bob", None, None, "annie")], "D3",
     "alias « annie » déjà pris par Ana (Joueurs!A2) : chacun désigne un seul joueur"),
    ([("Ana", None, None, "Bob"), ("Bob", None, None, None)], "D2",
     "alias « Bob » : c'est le nom de Bob (Joueurs!A3) ; un alias désigne un seul joueur"),
])
def test_a_register_that_designates_a_name_twice_is_a_located_problem(tmp_path, joueurs, cell, message):
    path = tdf_season(tmp_path / "s.xlsx", joueurs, [("Open", "Ana", 1, None, None)])
    with pytest.raises(WorkbookProblems) as caught:
        tdf_book.compute(Book(path))
    assert [(p.sheet, p.cell, p.message) for p in caught.value.problems] == [("Joueurs", cell, message)]


def test_a_registered_player_without_results_is_no_typo_unless_a_close_name_has_results(tmp_path):
    """A register carried from last season names players who have not played yet: said only when a close name
    has results (a typo), with the alias that would merge them."""
    path = tdf_season(tmp_path / "s.xlsx", [("Alise Martin", None, None, None), ("Zoé Absente", None, None, None)],
                      [("Open", "Alice Martin", 1, None, None), ("Open", "Ana", 2, None, None)])
    warnings = tdf_book.compute(Book(path)).warnings
    assert [w for w in warnings if "Joueurs!" in w] == [
        "Joueurs!A2 : « Alise Martin », de la table « Joueurs », n'a aucun résultat ; faute de frappe pour « Alice "
        "Martin » ? (il ne figure donc dans aucun classeur de club). Si c'est la même personne : xlcircuit fusion "
        'CLASSEUR.xlsx "Alise Martin" "Alice Martin"']


def test_a_joueurs_column_another_federation_reads_is_never_ignored_without_a_word(tmp_path):
    wb = tdf_book.new_workbook()
    ws = wb["Joueurs"]
    for col, header in ((5, "Elo"), (6, "Allias"), (7, "Téléphone")):
        ws.cell(1, col, header)
    table = ws.tables["Joueurs"]
    table.ref = table.autoFilter.ref = "A1:G2"
    from openpyxl.worksheet.table import TableColumn
    table.tableColumns += [TableColumn(id=5 + i, name=h) for i, h in enumerate(("Elo", "Allias", "Téléphone"))]
    type_rows(wb, tdf_book.TOURNOIS, [("Open", OPEN, "normal", None)])
    type_rows(wb, tdf_book.RESULTATS, [("Open", "Ana", 1, None, None)])
    path = save_atomic(wb, tmp_path / "s.xlsx")
    book = Book(path)
    tdf_book.compute(book)
    assert book.warnings == [
        "Joueurs!E1 : la colonne « Elo » de la table « Joueurs » n'est pas lue par ce classeur (colonnes lues : "
        "Joueur, Club, Identifiant, Alias).",
        "Joueurs!F1 : la colonne « Allias » de la table « Joueurs » n'est pas lue par ce classeur ; vouliez-vous dire "
        "« Alias » ? (colonnes lues : Joueur, Club, Identifiant, Alias).",
    ]  # « Téléphone » is the organiser's own column: kept, and not read


# --- every federation's input tables resolve names ---------------------------------------------------------


def test_dbm_results_and_partners_resolve_through_the_register(tmp_path):
    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "2025"), ("seuil_S", 60), ("seuil_O", 40)])
    type_rows(wb, dbm_book.JOUEURS, [("Éric Fournier", "Club", "S", "DBM-1", "FOURNIER Eric")])
    type_rows(wb, dbm_book.TOURNOIS, [("Furor", OPEN, 4, "oui", None)])
    type_rows(wb, dbm_book.RESULTATS, [("Furor", "Ana", "fournier eric", 1, None), ("Furor", "Bob", None, 2, None)])
    summary = dbm_book.compute(Book(save_atomic(wb, tmp_path / "d.xlsx")))
    (first, *_) = summary.report.results["Furor"]
    assert (first.player, first.partner, first.team_value) == ("Ana", "Éric Fournier", 4)  # the S partner's value


def test_elo_games_resolve_names_and_start_from_the_registers_rating(tmp_path):
    wb = elo_book.new_workbook()
    type_rows(wb, elo_book.JOUEURS, [("Louis", None, 1109, 12, "BAJ-9", "Loulou"), ("Zoé", None, None, None, None, None)])
    type_rows(wb, elo_book.PARTIES, [(OPEN, "1", "loulou", 50), (OPEN, "1", "zoe", 60)])
    book = Book(save_atomic(wb, tmp_path / "e.xlsx"))
    summary = elo_book.fill(book)
    book.save()
    rows = {r["Joueur"]: r for r in table_dicts(openpyxl.load_workbook(book.path)["Classement"], "Classement")}
    assert set(rows) == {"Louis", "Zoé"}
    assert rows["Louis"]["Parties"] == 13 and rows["Louis"]["Palier"] == "Or" and rows["Louis"]["Elo"] > 1109
    assert rows["Zoé"]["Palier"] == "Placement (encore 4 parties)"
    history = table_dicts(openpyxl.load_workbook(book.path)["Historique"], "Historique")
    assert [(h["Joueur"], h["Elo avant"], h["K"]) for h in history] == [("Louis", 1109, 28), ("Zoé", 1000, 48)]
    assert elo_book.explain(summary, "Louis")[1].startswith("Départ : 1109, de la table Joueurs (12 parties classées "
                                                            "déjà jouées).")


@pytest.mark.parametrize("elo, parties, cell, message", [
    (50, None, "C2", "Elo attendu : un entier de 100 (le plancher) à 1000000 ; trouvé 50"),
    ("beaucoup", None, "C2", "Elo attendu ; trouvé « beaucoup »"),
    (1000, -3, "D2", "nombre de parties déjà jouées attendu : un entier de 0 à 1000000 ; trouvé -3"),
])
def test_an_elo_starting_state_out_of_the_rules_is_a_problem_at_its_cell(tmp_path, elo, parties, cell, message):
    wb = elo_book.new_workbook()
    type_rows(wb, elo_book.JOUEURS, [("Louis", None, elo, parties)])
    with pytest.raises(WorkbookProblems) as caught:
        elo_book.compute(Book(save_atomic(wb, tmp_path / "e.xlsx")))
    assert [(p.cell, p.message) for p in caught.value.problems] == [(cell, message)]


def test_cdf_boards_votes_and_favourites_resolve_through_the_register(tmp_path):
    from test_workbook_cdf import SMALL  # a small championship of seven players

    rows = {spec: [list(row) for row in table] for spec, table in SMALL.items()}
    rows[cdf_book.JOUEURS][0][-1] = "A. Nonyme"  # Ana's alias
    rows[cdf_book.PARTIES][0][2] = "a. nonyme"  # her first game, typed by her alias
    rows[cdf_book.VOTES][1][4] = "A. Nonyme"
    rows[cdf_book.PREFERES][1][1] = "ANA"
    wb = cdf_book.new_workbook()
    for spec, table in rows.items():
        type_rows(wb, spec, table)
    summary = cdf_book.compute(Book(save_atomic(wb, tmp_path / "c.xlsx")))
    assert [s.player for s in summary.championship.standings][:2] == ["Ana", "Bob"]
    assert "Ana" in {a.player for a in summary.championship.favourites}


def test_torres_matches_resolve_through_the_register(tmp_path):
    path = example(torres_book.ADAPTER, tmp_path)
    wb = openpyxl.load_workbook(path)
    joueurs, matchs = wb["Joueurs"], wb["Matchs"]
    first = joueurs["A2"].value
    joueurs["H2"] = f"{first} (BàJ)"  # an alias
    renamed = [row for row in matchs.iter_rows(min_row=2) if row[3].value == first]
    for row in renamed:
        row[3].value = f"{first} (BàJ)".upper()
    wb.save(path)
    summary = torres_book.compute(Book(path))
    assert sum(s.seat.player == first for seats in summary.scored.values() for s in seats) == len(renamed) > 0


# --- xlcircuit fusion ----------------------------------------------------------------------------------------


def result_lines(path: Path) -> list[list[object]]:
    return table_rows(openpyxl.load_workbook(path)["Résultats"], "Resultats")


def test_fusion_adds_the_alias_and_never_touches_a_result_line(tmp_path, capsys):
    path = tdf_season(tmp_path / "s.xlsx", [("Jean Muller", "Club A", None, None), ("Ana", None, None, None)], [
        ("Open", "Jean Muller", 1, None, None), ("Open", "Ana", 2, None, None),
        ("Coupe", "MULLER Jean", 2, None, None), ("Coupe", "Ana", 1, None, None),
    ])
    filled(path)
    before = result_lines(path)
    assert standings(openpyxl.load_workbook(path))["Jean Muller"]["Tournois classés"] == 1
    assert main(["fusion", str(path), "Jean Muller", "MULLER Jean"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("« MULLER Jean » est maintenant un alias de « Jean Muller » (Joueurs!D2) : les résultats "
                          "tapés « MULLER Jean » comptent pour « Jean Muller ». Les lignes de résultats ne sont pas "
                          "modifiées.\n")
    assert result_lines(path) == before
    assert table_rows(openpyxl.load_workbook(path)["Joueurs"], "Joueurs")[1] == ["Jean Muller", "Club A", None,
                                                                                "MULLER Jean"]
    assert main(["fill", str(path)]) == 0
    table = standings(openpyxl.load_workbook(path))
    assert set(table) == {"Jean Muller", "Ana"} and table["Jean Muller"]["Tournois classés"] == 2
    assert main(["fusion", str(path), "jean muller", "Muller Jean"]) == 0  # already his: nothing written
    assert "désigne déjà « Jean Muller »" in capsys.readouterr().out


def test_fusion_of_a_name_nobody_registered_adds_his_line(tmp_path, capsys):
    path = tdf_season(tmp_path / "s.xlsx", [], [("Open", "Alice Martin", 1, None, None)])
    assert main(["fusion", str(path), "Alice Martin", "A. Martin"]) == 0
    assert table_rows(openpyxl.load_workbook(path)["Joueurs"], "Joueurs")[1] == ["Alice Martin", None, None,
                                                                                "A. Martin"]
    assert "« Alice Martin » ajouté à la table Joueurs, avec l'alias « A. Martin »" in capsys.readouterr().out


def test_fusion_into_a_joueurs_table_without_an_alias_column_adds_the_column(tmp_path):
    """A workbook made before the register: its Joueurs table has only Joueur and Club."""
    wb = tdf_book.new_workbook()
    type_rows(wb, tdf_book.JOUEURS, [("Ana", "Club A")])
    ws = wb["Joueurs"]
    table = ws.tables["Joueurs"]
    for col in (3, 4):
        ws.cell(1, col).value = None
    table.ref = table.autoFilter.ref = "A1:B2"
    table.tableColumns = table.tableColumns[:2]
    path = save_atomic(wb, tmp_path / "ancien.xlsx")
    assert main(["fusion", str(path), "Ana", "Annie"]) == 0
    assert table_rows(openpyxl.load_workbook(path)["Joueurs"], "Joueurs") == [["Joueur", "Club", "Alias"],
                                                                             ["Ana", "Club A", "Annie"]]


@pytest.mark.parametrize("module, name, alias, message", [
    (tdf_book, "Ana", "Bob", "« Bob » désigne déjà Bob (Joueurs!A3) dans la table Joueurs : pour en faire un alias de "
                             "« Ana », retirez-le d'abord de cette ligne (ou de ses alias)."),
    (torres_book, "Inconnu", "Autre", "« Inconnu » n'est pas dans la table Joueurs, qui demande pour chaque joueur Elo, "
                                      "Division, Groupe : ajoutez-y sa ligne, puis relancez."),
])
def test_fusion_refuses_what_would_merge_two_players_or_make_a_line_the_table_cannot_take(
        tmp_path, capsys, module, name, alias, message):
    if module is tdf_book:
        path = tdf_season(tmp_path / "s.xlsx", [("Ana", None, None, None), ("Bob", None, None, None)],
                          [("Open", "Ana", 1, None, None)])
    else:
        path = example(module.ADAPTER, tmp_path)
    before = path.read_bytes()
    assert main(["fusion", str(path), name, alias]) == 1
    assert capsys.readouterr().err.strip() == message
    assert path.read_bytes() == before


def test_every_federations_joueurs_table_has_the_register_columns():
    for adapter in ADAPTERS.values():
        headers = [c.header for c in adapter.players.columns]
        assert headers[0] == "Joueur" and headers[-2:] == ["Identifiant", "Alias"], adapter.code
