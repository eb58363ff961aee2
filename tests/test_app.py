"""The use cases (``xlcircuit/app/``), each asserted by what the organiser is told: the lines, the warnings
(« À vérifier »), the located problems, the files written, the path a fill took. The command line prints
these outcomes as they are (``cli.show``) and the window draws them (``tests/test_gui.py`` checks both say
the same for the same workbook).

Expected figures are those of the bundled TdF example as its README shows them (11 tournaments, 84 people,
61 ranked; Malcolm first with 3600.0 points), typed here, not computed by xlcircuit.
"""

from __future__ import annotations

import datetime as dt

import openpyxl
import pytest
from conftest import write_season

from xlcircuit.app import Outcome, run
from xlcircuit.app.check import check
from xlcircuit.app.demo import demo
from xlcircuit.app.explain import explain
from xlcircuit.app.fill import fill
from xlcircuit.app.new import new
from xlcircuit.app.outcome import FULL, SURGICAL
from xlcircuit.app.schedule import schedule
from xlcircuit.app.share import share
from xlcircuit.federations import ADAPTERS
from xlcircuit.rules.errors import XlcircuitError

DOUBLON = "Doublon dans « Tournoi de Toulouse » : Julien Morel a plusieurs lignes"


def test_new_names_the_tables_to_fill_and_the_next_command(tmp_path):
    target = tmp_path / "saison.xlsx"
    outcome = new("tdf", target)
    assert outcome.lines == [f"Classeur créé : {target}. Remplissez les tables « Tournois » et « Résultats », "
                             f"puis lancez : xlcircuit fill {target}"]
    assert outcome.result == target and target.exists() and outcome.status == 0
    refused = run(lambda: new("tdf", target))
    assert refused.status == 1 and refused.error == (
        f"{target} existe déjà : choisissez un autre nom ou ajoutez --force pour l'écraser.")


def test_check_gives_the_verdict_the_top_of_the_standings_and_the_warnings(demo_path):
    before = demo_path.read_bytes()
    outcome = check(demo_path)
    assert outcome.lines[0] == ("saison.xlsx est correct, avec 1 point à vérifier (ci-dessous) : 11 tournois, "
                                "84 personnes, 61 classées.")
    assert outcome.lines[1].split() == ["1.", "Malcolm", "3600,0"]
    assert len(outcome.warnings) == 1 and outcome.warnings[0].startswith(DOUBLON)
    assert outcome.status == 0 and not outcome.problems and outcome.route is None
    assert demo_path.read_bytes() == before  # nothing written


def test_check_lists_every_problem_with_its_cell(tmp_path):
    path = write_season(tmp_path / "f.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Alice", "premier", None, None), ("Ailleurs", "Bob", 2, None, None)])
    outcome = run(lambda: check(path))
    assert outcome.status == 1 and outcome.error == "2 problèmes dans le classeur"
    assert [str(p) for p in outcome.problems] == [
        "Résultats!C2 (colonne « Place ») : place attendue : un entier positif (1, 2, 3…) ; trouvé « premier »",
        "Résultats!A3 (colonne « Tournoi ») : tournoi « Ailleurs » absent de la table Tournois",
    ]


def test_fill_says_what_it_wrote_and_the_path_it_took(demo_path):
    outcome = fill(demo_path)
    assert outcome.lines[0] == f"Classeur rempli : {demo_path} : 11 tournois, 84 personnes, 61 classées."
    assert outcome.route == SURGICAL and outcome.result == demo_path and outcome.status == 0
    assert [w for w in outcome.warnings if w.startswith(DOUBLON)]
    standings = openpyxl.load_workbook(demo_path)["Classement"]
    assert standings["B4"].value == "Malcolm"


def test_fill_names_the_organisers_cells_on_an_output_sheet(demo_path):
    fill(demo_path)
    wb = openpyxl.load_workbook(demo_path)
    wb["Classement"]["Z1"] = "ma note"
    wb.save(demo_path)
    outcome = fill(demo_path)
    assert outcome.route in (SURGICAL, FULL)
    assert any("« Classement »" in w and "cellules à vous" in w for w in outcome.warnings), outcome.warnings


def test_share_writes_each_kind_and_says_which_files(demo_path, tmp_path):
    outcome = share(demo_path, csv_folder=tmp_path / "csv", clubs=tmp_path / "clubs")
    assert outcome.status == 0 and outcome.error is None
    assert outcome.lines[0] == f"8 classeurs de club écrits dans {tmp_path / 'clubs'} :"
    assert f"CSV écrit : {tmp_path / 'csv' / 'saison-Classement.csv'}" in outcome.lines
    assert (tmp_path / "csv" / "saison-Classement.csv").exists()


def test_share_goes_on_with_the_other_kinds_when_one_cannot_be_made(small_season, tmp_path):
    outcome = share(small_season, clubs=tmp_path / "clubs", csv_folder=tmp_path / "csv")
    assert outcome.status == 1
    assert outcome.error.startswith("clubs : petite.xlsx ne dit le club de personne")
    assert f"CSV écrit : {tmp_path / 'csv' / 'petite-Classement.csv'}" in outcome.lines


def test_explain_ends_on_the_published_total(demo_path, tmp_path):
    outcome = explain(demo_path, "malcolm")
    assert outcome.lines[0].startswith("Malcolm — Tour de France de Diplomatie")
    assert outcome.lines[-1] == "Total au classement : 3600,0"
    written = explain(demo_path, "Malcolm", output=tmp_path / "m.txt")
    assert written.lines == [f"Explication écrite : {tmp_path / 'm.txt'}"]
    assert (tmp_path / "m.txt").read_text(encoding="utf-8").splitlines() == outcome.lines


def test_explain_of_an_unknown_player_names_the_close_ones(demo_path):
    outcome = run(lambda: explain(demo_path, "Malcom"))
    assert outcome.status == 1 and "« Malcom » n'est pas dans ce classeur" in outcome.error
    assert "« Malcolm »" in outcome.error


def test_schedule_refuses_a_federation_without_a_calendar_in_one_sentence(small_season):
    outcome = run(lambda: schedule(small_season))
    assert outcome.status == 1 and outcome.error == (
        "petite.xlsx est un classeur « Tour de France de Diplomatie » : il n'a pas de calendrier à tirer "
        "(seul le championnat TORRES en a un).")


def test_demo_fills_every_example_and_prefixes_warnings_with_the_federation(tmp_path):
    outcome = demo(tmp_path / "demo")
    for adapter in ADAPTERS.values():
        assert f"{adapter.title}, exemple rempli : {tmp_path / 'demo' / adapter.example}" in " ".join(outcome.lines)
        assert (tmp_path / "demo" / adapter.example).exists()
    assert any(w.startswith("Tour de France de Diplomatie : " + DOUBLON) for w in outcome.warnings)


def test_run_turns_deliberate_errors_into_one_sentence_and_lets_bugs_through():
    def fails() -> Outcome:
        raise XlcircuitError("une phrase")

    assert run(fails) == Outcome(error="une phrase", status=1)

    def bug() -> Outcome:
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        run(bug)


def test_new_from_last_season_says_what_it_carried_over(demo_path, tmp_path):
    fill(demo_path)
    target = tmp_path / "2026-2027.xlsx"
    outcome = new(None, target, previous=demo_path)  # the federation: the previous workbook's
    assert outcome.status == 0 and outcome.result == target
    assert outcome.lines == [
        f"Classeur créé : {target}, saison suivante de saison.xlsx.",
        "Repris : 84 joueurs dans « Joueurs » (club, identifiant, alias) ; palmarès de 1 saison, « 2025-2026 » "
        "ajoutée (Malcolm, Camille Roux, Julien Morel).",
        f"Vérifiez-le (xlcircuit check {target}), remplissez les tables « Tournois » et « Résultats », puis lancez : "
        f"xlcircuit fill {target}"]
    assert check(target).status == 0


def test_fusion_writes_the_alias_and_nothing_else(demo_path):
    from xlcircuit.app.fusion import fusion

    outcome = fusion(demo_path, "Malcolm", "MALCOLM X")
    assert outcome.status == 0 and outcome.result == demo_path
    assert outcome.lines[0].startswith("« MALCOLM X » est maintenant un alias de « Malcolm » (Joueurs!")
    assert outcome.lines[1] == f"Relancez le remplissage : xlcircuit fill {demo_path}"
    again = fusion(demo_path, "Malcolm", "malcolm x")
    assert again.lines[0].startswith("« malcolm x » désigne déjà « Malcolm »")


def test_diff_gives_the_changes_as_lines(demo_path, tmp_path):
    import shutil

    from xlcircuit.app.diff import diff

    fill(demo_path)
    before = tmp_path / "avant.xlsx"
    shutil.copy(demo_path, before)
    outcome = diff(before, demo_path)
    assert outcome.lines == ["Tour de France de Diplomatie : ce qui a changé de avant.xlsx à saison.xlsx", "",
                             "Aucun résultat ni classement n'a changé."]
    refused = run(lambda: diff(tmp_path / "absent.xlsx", demo_path))
    assert refused.status == 1 and refused.error


def test_import_tells_what_it_added_and_what_is_left_to_type(tmp_path):
    from xlcircuit.app.importing import import_results

    season = write_season(tmp_path / "saison.xlsx", [], [])
    source = tmp_path / "Open de Lyon.csv"
    source.write_text("Clt;NOM;Prénom\n1;MARTIN;Alice\n2 ex;DURAND;Bob\n", encoding="utf-8")
    trial = import_results(season, [source], trial=True)
    assert trial.lines[0] == "Essai : rien n'est écrit dans saison.xlsx." and trial.status == 0
    assert trial.lines[-1] == "À importer : 2 lignes, 1 tournoi. Pour l'écrire : la même commande sans --essai."
    outcome = import_results(season, [source])
    assert outcome.lines[:4] == [
        f"Import dans {season} : 2 lignes de 1 source.",
        "  tournoi « Open de Lyon » : 2 lignes ajoutées",
        "  Feuille « Tournois », ligne 2 ajoutée : tournoi « Open de Lyon » ; à compléter : Date (Tournois!B2), "
        "Type (Tournois!C2)",
        "Les tables de saisie sont écrites par une réécriture complète du classeur (openpyxl), comme pour schedule : "
        "vos formules sont recalculées à l'ouverture.",
    ]
    assert outcome.result == season and outcome.status == 0 and not outcome.warnings
    refused = run(lambda: import_results(season, [tmp_path / "absent.csv"]))
    assert refused.status == 1 and refused.error == "1 problème dans les sources"
    assert [str(p) for p in refused.problems] == [f"{tmp_path / 'absent.csv'} : fichier ou dossier introuvable"]
