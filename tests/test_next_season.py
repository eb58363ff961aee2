"""Next season from the last: ``xlcircuit new FED SUIVANTE.xlsx --depuis PRECEDENTE.xlsx`` writes a workbook
``check`` accepts with nothing retyped, for the five federations: the register, the palmarès, and what each
federation's rules carry over (DBM's classes and thresholds, Elo's ratings and games, TORRES' groups)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from conftest import example, table_dicts, table_rows

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS
from xlcircuit.rules.text import fold

CODES = list(ADAPTERS)


def of(name: str) -> str:
    """« de Nicolas », « d'Yves »: French elides « de » before a vowel."""
    return f"d'{name}" if fold(name[0]) in "aeiouy" else f"de {name}"


def filled(code: str, folder: Path) -> Path:
    path = example(ADAPTERS[code], folder)
    assert main(["fill", str(path)]) == 0
    return path


def next_season(code: str, previous: Path, capsys) -> tuple[Path, list[str]]:
    target = previous.with_name("suivante.xlsx")
    capsys.readouterr()
    assert main(["new", code, str(target), "--depuis", str(previous)]) == 0
    return target, capsys.readouterr().out.splitlines()


def rows(path: Path, sheet: str, table: str) -> list[dict[str, object]]:
    """A table's data rows, its blank row left out (a table keeps one)."""
    return [row for row in table_dicts(openpyxl.load_workbook(path)[sheet], table) if any(row.values())]


@pytest.mark.parametrize("code", CODES)
def test_next_season_is_accepted_by_check_with_nothing_retyped(code, tmp_path, capsys):
    adapter = ADAPTERS[code]
    previous = filled(code, tmp_path)
    target, out = next_season(code, previous, capsys)
    assert out[0] == f"Classeur créé : {target}, saison suivante de {previous.name}."
    assert out[-1].startswith(f"Vérifiez-le (xlcircuit check {target})")
    assert main(["check", str(target)]) == 0
    checked = capsys.readouterr()
    assert f"{target.name} est correct" in checked.out and "problème" not in checked.err
    # The palmarès: the season's champion is the first of the standings the organiser published.
    first = table_dicts(openpyxl.load_workbook(previous)[adapter.standings.sheet], adapter.standings.name)[0]
    (season,) = rows(target, "Palmarès", "Palmares")
    assert season["Champion"] == first["Joueur"]
    # The register: every player of last season's Joueurs table, with his club.
    before = {r["Joueur"]: r.get("Club") for r in rows(previous, "Joueurs", "Joueurs")}
    after = {r["Joueur"]: r.get("Club") for r in rows(target, "Joueurs", "Joueurs")}
    assert {name: club for name, club in before.items() if name in after} == before or code == "torres"
    assert main(["fill", str(target)]) == 0  # and it fills


def test_tdf_carries_the_register_and_names_the_season_a_year_on(tmp_path, capsys):
    previous = filled("tdf", tmp_path)
    target, out = next_season("tdf", previous, capsys)
    assert out[1] == ("Repris : 84 joueurs dans « Joueurs » (club, identifiant, alias) ; palmarès de 1 saison, "
                      "« 2025-2026 » ajoutée (Malcolm, Camille Roux, Julien Morel).")
    assert table_rows(openpyxl.load_workbook(target)["Saison"], "Parametres")[1] == ["Saison", "2026-2027"]
    people = {r["Joueur"] for r in rows(previous, "Classement", "Classement")}
    assert {r["Joueur"] for r in rows(target, "Joueurs", "Joueurs")} == people  # everyone who had a result
    assert rows(target, "Tournois", "Tournois") == [] and rows(target, "Résultats", "Resultats") == []


def test_the_palmares_grows_by_one_season_each_season(tmp_path, capsys):
    first = filled("tdf", tmp_path)
    second, _ = next_season("tdf", first, capsys)
    wb = openpyxl.load_workbook(second)
    from xlcircuit.federations import tdf as tdf_book
    from xlcircuit.workbook.write import type_rows

    type_rows(wb, tdf_book.TOURNOIS, [("Open", "2026-10-01", "normal", None), ("Coupe", "2026-11-01", "normal", None)])
    type_rows(wb, tdf_book.RESULTATS, [("Open", "Camille Roux", 1, None, None), ("Open", "Malcolm", 2, None, None),
                                       ("Coupe", "Camille Roux", 1, None, None), ("Coupe", "Malcolm", 2, None, None)])
    wb.save(second)
    assert main(["fill", str(second)]) == 0
    third = tmp_path / "troisième.xlsx"
    assert main(["new", "tdf", str(third), "--depuis", str(second)]) == 0
    assert [(r["Saison"], r["Champion"], r["Deuxième"]) for r in rows(third, "Palmarès", "Palmares")] == [
        ("2025-2026", "Malcolm", "Camille Roux"), ("2026-2027", "Camille Roux", "Malcolm")]
    assert table_rows(openpyxl.load_workbook(third)["Saison"], "Parametres")[1] == ["Saison", "2027-2028"]


def test_dbm_carries_the_end_of_season_classes_and_the_thresholds_with_their_players(tmp_path, capsys):
    previous = filled("dbm", tmp_path)
    target, out = next_season("dbm", previous, capsys)
    table1 = rows(previous, "Tableau 1", "Tableau1")
    means = {r["Joueur"]: r["Moyenne"] for r in rows(previous, "Tableau 2", "Tableau2")}
    active = len(table1)
    # RÉPARTITION PAR CLASSES: X+S are the first 25 % (rounded half up), X+S+O the first 50 %.
    last_s = table1[int(active * 25 / 100 + 0.5) - 1]
    last_o = table1[int(active * 50 / 100 + 0.5) - 1]
    assert (active, last_s["Place"], last_o["Place"]) == (75, 19, 38)
    parameters = {r["Paramètre"]: r for r in rows(target, "Saison", "Parametres")}
    assert parameters["Saison"]["Valeur"] == "2026-2027"
    assert parameters["seuil_S"]["Valeur"] == pytest.approx(means[last_s["Joueur"]])
    assert f"{parameters['seuil_S']['Valeur']:.2f}" == "70.22"  # the figure for this example
    assert parameters["seuil_O"]["Valeur"] == pytest.approx(means[last_o["Joueur"]])
    assert parameters["seuil_S"]["Commentaire"] == (f"moyenne finale {of(last_s['Joueur'])}, dernier joueur actif (S) "
                                                    "en fin de saison 2025-2026 (19e du tableau 1) : 70,22")
    assert parameters["seuil_O"]["Commentaire"].startswith(f"moyenne finale {of(last_o['Joueur'])}, dernier joueur "
                                                           "actif (O) en fin de saison 2025-2026 (38e du tableau 1)")
    ws = openpyxl.load_workbook(target)["Saison"]
    assert [c.number_format for c in ws["B"] if isinstance(c.value, float)] == ["0.00", "0.00"]
    assert out[2] == f"seuil_S : {parameters['seuil_S']['Commentaire']}."
    end = {r["Joueur"]: r["Classe fin"] for r in rows(previous, "Classes", "Classes")}
    carried = {r["Joueur"]: r["Classe"] for r in rows(target, "Joueurs", "Joueurs")}
    assert {p: carried[p] for p in end} == end


def test_dbm_without_an_active_s_leaves_seuil_s_blank_and_says_why(tmp_path, capsys):
    from xlcircuit.federations import dbm as dbm_book
    from xlcircuit.workbook.write import type_rows
    from xlcircuit.xlsx import save_atomic

    wb = dbm_book.new_workbook()
    type_rows(wb, dbm_book.PARAMETRES, [("Saison", "2025"), ("seuil_S", None), ("seuil_O", None)])
    type_rows(wb, dbm_book.TOURNOIS, [(f"P{i}", f"2025-0{i}-01", 4, None, None) for i in (1, 2, 3)])
    type_rows(wb, dbm_book.RESULTATS, [(f"P{i}", name, None, place, None) for i in (1, 2, 3)
                                       for place, name in enumerate(("Ana", "Bob"), start=1)])
    previous = save_atomic(wb, tmp_path / "2025.xlsx")
    target, out = next_season("dbm", previous, capsys)
    parameters = {r["Paramètre"]: r for r in rows(target, "Saison", "Parametres")}
    # Two active players: 10 % → 0 X, 25 % of 2 = 0.5 → 1 (S), 50 % → 1: Ana is S, nobody is O.
    assert parameters["Saison"]["Valeur"] == "2026"
    assert parameters["seuil_S"]["Valeur"] is not None
    assert parameters["seuil_S"]["Commentaire"].startswith("moyenne finale d'Ana, dernier joueur actif (S)")
    assert parameters["seuil_O"]["Valeur"] is None
    assert parameters["seuil_O"]["Commentaire"] == ("aucun joueur actif (O) en fin de saison 2025 : vide, aucun "
                                                    "passage en (O) en cours de saison")
    assert main(["check", str(target)]) == 0


def test_elo_carries_each_players_rating_and_games(tmp_path, capsys):
    previous = filled("elo", tmp_path)
    target, _ = next_season("elo", previous, capsys)
    final = {r["Joueur"]: (r["Elo"], r["Parties"]) for r in rows(previous, "Classement", "Classement")}
    carried = {r["Joueur"]: (r["Elo"], r["Parties"]) for r in rows(target, "Joueurs", "Joueurs")}
    assert carried == final
    assert main(["fill", str(target)]) == 0
    standings = {r["Joueur"]: r for r in rows(target, "Classement", "Classement")}
    assert {p: (r["Elo"], r["Parties"]) for p, r in standings.items()} == final  # nobody restarts at 1000
    assert all(not str(r["Palier"]).startswith("Placement") for p, r in standings.items() if final[p][1] >= 5)


def test_torres_carries_next_seasons_groups_and_the_players_who_left(tmp_path, capsys):
    previous = filled("torres", tmp_path)
    target, out = next_season("torres", previous, capsys)
    suivante = [(r["Division"], r["Groupe"], r["Joueur"], r["Elo"]) for r in rows(previous, "Saison suivante",
                                                                                    "SaisonSuivante")]
    joueurs = rows(target, "Joueurs", "Joueurs")
    playing = [(r["Division"], r["Groupe"], r["Joueur"], r["Elo"]) for r in joueurs if r["Groupe"] is not None]
    assert playing == suivante and all(r["Statut"] == "actif" for r in joueurs if r["Groupe"] is not None)
    left = {r["Joueur"]: (r["Division"], r["Statut"]) for r in joueurs if r["Groupe"] is None}
    typed = {r["Joueur"]: r for r in rows(previous, "Joueurs", "Joueurs")}
    general = {r["Joueur"]: r for r in rows(previous, "Classement général", "ClassementGeneral")}
    forfeit = next(p for p, r in typed.items() if r["Statut"] == "forfait")
    withdrawn = next(p for p, r in typed.items() if r["Statut"] == "retrait")
    assert left[forfeit] == (None, "parti")  # « y accèdera par la division la plus basse »: back as « nouveau »
    d, rank = general[withdrawn]["Division"], general[withdrawn]["Rang"]
    # « la division dans laquelle il se serait trouvé »: the 2 best of a group below D1 move up.
    assert left[withdrawn] == (d - 1 if rank <= 2 and d > 1 else d, "parti")
    assert out[2].startswith(f"Divisions et groupes : ceux de « Saison suivante », {len(suivante)} joueurs en 3 "
                             "divisions ; 2 partis")
    assert out[3].startswith("Elo : celui du début de la saison qui s'achève, reporté")
    assert main(["schedule", str(target)]) == 0  # next season's calendar draws from it at once


def test_torres_a_player_who_left_comes_back_by_changing_only_his_status(tmp_path, capsys):
    previous = filled("torres", tmp_path)
    target, _ = next_season("torres", previous, capsys)
    wb = openpyxl.load_workbook(target)
    ws = wb["Joueurs"]
    for row in ws.iter_rows(min_row=2):
        if row[4].value == "parti" and row[2].value is not None:
            row[4].value = "retour"
            back = row[0].value, row[2].value
    wb.save(target)
    assert main(["fill", str(target)]) == 0
    moves = {r["Joueur"]: r for r in rows(target, "Mouvements", "Mouvements")}
    assert moves[back[0]]["Mouvement"] == "retour" and moves[back[0]]["Division suivante"] is not None
    provenance = {r["Joueur"]: r["Provenance"] for r in rows(target, "Saison suivante", "SaisonSuivante")}
    assert provenance[back[0]] == f"retour (D{back[1]} demandée)"  # placed where a place is vacant (the rules)


def test_cdf_carries_births_and_nationality_but_not_teams_or_bonuses(tmp_path, capsys):
    previous = filled("cdf", tmp_path)
    target, _ = next_season("cdf", previous, capsys)
    before = {r["Joueur"]: r for r in rows(previous, "Joueurs", "Joueurs")}
    after = {r["Joueur"]: r for r in rows(target, "Joueurs", "Joueurs")}
    assert set(after) == set(before)
    for name, row in after.items():
        assert (row["Naissance"], row["Étranger"], row["Club"]) == (before[name]["Naissance"],
                                                                    before[name]["Étranger"], before[name]["Club"])
        assert row["Équipe"] is None and row["Bonus"] is None
    parameters = {r["Paramètre"]: r["Valeur"] for r in rows(target, "Tournoi", "Parametres")}
    assert parameters == {"Championnat": "Championnat de France 2015", "Table finale": "oui",
                          "Tables incomplètes": "non"}
    (honours,) = rows(target, "Palmarès", "Palmares")
    teams = rows(previous, "Équipes", "Equipes")
    assert f"équipe : {teams[0]['Équipe']} ({teams[0]['Membres']})" in str(honours["Titres"])


def test_the_register_of_identifiers_and_aliases_is_carried_over(tmp_path, capsys):
    path = example(ADAPTERS["tdf"], tmp_path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Joueurs"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "Camille Roux":
            row[2].value, row[3].value = "FR-0042", "C. Roux ; ROUX Camille"
    wb.save(path)
    assert main(["fill", str(path)]) == 0
    target, _ = next_season("tdf", path, capsys)
    camille = next(r for r in rows(target, "Joueurs", "Joueurs") if r["Joueur"] == "Camille Roux")
    assert (camille["Identifiant"], camille["Alias"]) == ("FR-0042", "C. Roux; ROUX Camille")


def test_next_season_refuses_another_federations_workbook_or_one_with_problems(tmp_path, capsys):
    previous = filled("elo", tmp_path)
    target = tmp_path / "suivante.xlsx"
    capsys.readouterr()
    assert main(["new", "tdf", str(target), "--depuis", str(previous)]) == 1
    assert capsys.readouterr().err.strip() == (f"{previous.name} est un classeur « Note de classé (Elo multijoueur) » "
                                               f"(elo) : sa saison suivante se crée avec xlcircuit new elo {target} "
                                               f"--depuis {previous}.")
    wb = openpyxl.load_workbook(previous)
    wb["Parties"]["D2"] = "beaucoup"
    wb.save(previous)
    assert main(["new", "elo", str(target), "--depuis", str(previous)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"1 problème dans {previous.name}, la saison précédente (rien n'a été écrit) :\n"
                          "  - Parties!D2 (colonne « Total ») : total (un nombre) attendu ; trouvé « beaucoup »")
    assert not target.exists()
    target.write_bytes(b"")
    assert main(["new", "elo", str(target), "--depuis", str(previous)]) == 1
    assert "existe déjà" in capsys.readouterr().err


def test_new_help_documents_depuis_in_french(capsys):
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--depuis PRÉCÉDENT le classeur de la saison précédente" in text
    assert fold("TORRES : divisions et groupes") in fold(text)


def test_a_season_the_palmares_already_has_is_kept_as_the_organiser_typed_it(tmp_path, capsys):
    path = example(ADAPTERS["tdf"], tmp_path)
    from xlcircuit.federations import tdf as tdf_book
    from xlcircuit.workbook.seasons import PALMARES
    from xlcircuit.workbook.write import type_rows

    wb = openpyxl.load_workbook(path)
    type_rows(wb, PALMARES, [("2024-2025", "Christophe", None, None, None),
                             ("2025-2026", "Malcolm", "Camille Roux", None, "tapé à la main")])
    wb.save(path)
    target, out = next_season(tdf_book.FEDERATION, path, capsys)
    assert out[1].endswith("palmarès de 2 saisons (« 2025-2026 » y figurait déjà, gardée telle quelle).")
    assert [(r["Saison"], r["Champion"], r["Titres"]) for r in rows(target, "Palmarès", "Palmares")] == [
        ("2024-2025", "Christophe", None), ("2025-2026", "Malcolm", "tapé à la main")]
