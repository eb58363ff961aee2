"""What changed: the ``Journal`` table every fill appends to (when its inputs changed), and ``xlcircuit diff``
between two filled workbooks; both say, per tournament, the results added, changed or removed, and the players
whose rank or total moved, old → new."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import openpyxl
import pytest
from conftest import example, need_libreoffice, table_dicts

from xlcircuit.cli import main
from xlcircuit.federations import ADAPTERS
from xlcircuit.xlsx import Book

JOURNAL_HEADERS = ["Date", "Empreinte", "Rubrique", "Objet", "Détail"]


def fill(path: Path) -> None:
    assert main(["fill", str(path)]) == 0


def journal(path: Path) -> list[dict[str, object]]:
    return table_dicts(openpyxl.load_workbook(path)["Journal"], "Journal")


def standings(path: Path, adapter) -> dict[str, dict[str, object]]:
    ws = openpyxl.load_workbook(path)[adapter.standings.sheet]
    return {str(row["Joueur"]): row for row in table_dicts(ws, adapter.standings.name)}


def edit_results(path: Path, sheet: str, change) -> None:
    """Change the typed lines of an input sheet as an organiser would in a spreadsheet, and save."""
    wb = openpyxl.load_workbook(path)
    change(wb[sheet])
    wb.save(path)


@pytest.fixture
def season(tmp_path: Path) -> Path:
    path = example(ADAPTERS["tdf"], tmp_path)
    fill(path)
    return path


def test_the_first_fill_is_journaled_and_a_refill_of_the_same_inputs_adds_nothing(season):
    rows = journal(season)
    assert [r["Rubrique"] for r in rows] == ["remplissage", "à vérifier"]
    first = rows[0]
    assert isinstance(first["Date"], dt.datetime) and re.fullmatch(r"[0-9a-f]{12}", str(first["Empreinte"]))
    assert first["Détail"] == "11 tournois, 84 personnes, 61 classées. Premier remplissage."
    assert str(rows[1]["Détail"]).startswith("Doublon dans « Tournoi de Toulouse » : Julien Morel")
    assert rows[1]["Empreinte"] == first["Empreinte"]
    fill(season)
    assert journal(season) == rows


def test_a_late_result_is_journaled_with_the_results_and_the_players_that_moved(season):
    tdf = ADAPTERS["tdf"]
    before = standings(season, tdf)

    def late(ws) -> None:
        for row in ws.iter_rows(min_row=2):
            if row[0].value == "Tournoi de Lyon" and row[1].value == "Maurice":
                row[2].value = 4  # was 3rd: a correction
        ws.append(["Tournoi de Lyon", "Jean Nouveau", 13, None, None])  # a late line, typed under the table

    edit_results(season, "Résultats", late)
    fill(season)
    after = standings(season, tdf)
    rows = journal(season)
    this = [r for r in rows if r["Empreinte"] == rows[-1]["Empreinte"]]
    assert this[0]["Rubrique"] == "remplissage" and this[0]["Détail"] == "11 tournois, 85 personnes, 61 classées."
    results = [(r["Objet"], r["Détail"]) for r in this if r["Rubrique"] == "résultats"]
    assert results == [("Tournoi de Lyon", "1 ajouté : Jean Nouveau (place 13, statut classé) ; 1 modifié : Maurice "
                                           "(place 3 → 4)")]
    moved = {r["Objet"]: r["Détail"] for r in this if r["Rubrique"] == "classement"}
    # A 13th classified: everyone of Lyon gets other points; the last gets 100 (règlement, §1).
    assert moved["Jean Nouveau"] == "entre au classement : sans rang, total 100,0"
    maurice_old, maurice_new = before["Maurice"], after["Maurice"]
    assert moved["Maurice"] == (f"rang {maurice_old['Rang']} → {maurice_new['Rang']} ; total "
                                f"{maurice_old['Total']:.1f} → {maurice_new['Total']:.1f}".replace(".", ","))
    unchanged = [p for p in after if p in before and (before[p]["Rang"], round(before[p]["Total"], 1))
                 == (after[p]["Rang"], round(after[p]["Total"], 1))]
    assert unchanged and not set(unchanged) & set(moved)
    warned = [r["Détail"] for r in this if r["Rubrique"] == "à vérifier"]
    assert any("la ligne 188, tapée sous la table « Resultats »" in str(w) for w in warned)
    assert rows[:2] == journal_first_fill(rows)  # the earlier fill's rows survive


def journal_first_fill(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [r for r in rows if r["Empreinte"] == rows[0]["Empreinte"]]


def test_earlier_rows_survive_every_fill_and_a_removed_result_is_said(season):
    edit_results(season, "Résultats", lambda ws: ws.append(["Tournoi de Paris", "Invité", 22, None, None]))
    fill(season)
    after_second = journal(season)

    def remove(ws) -> None:
        for row in ws.iter_rows(min_row=2):
            if row[1].value == "Invité":
                for cell in row:
                    cell.value = None

    edit_results(season, "Résultats", remove)
    fill(season)
    rows = journal(season)
    assert rows[:len(after_second)] == after_second
    heads = [i for i, r in enumerate(rows) if r["Rubrique"] == "remplissage"]
    assert len(heads) == 3  # the inputs are the first fill's again: a change from the last fill all the same
    last = rows[heads[-1]:]
    assert ("Tournoi de Paris", "1 retiré : Invité") in [(r["Objet"], r["Détail"]) for r in last]
    assert ("Invité", "sort du classement (était : sans rang, total 100,0)") in [(r["Objet"], r["Détail"])
                                                                               for r in last]


#: For each federation, a correction of one typed line: (sheet, the change, the tournament and player it touches).
def _first(ws, test):
    return next(row for row in ws.iter_rows(min_row=2) if test(row))


def _dbm(ws):
    row = _first(ws, lambda r: r[3].value == 2)
    row[3].value = 3
    return "Tournoi", row[0].value, row[1].value, "place 2 → 3"


def _elo(ws):
    row = _first(ws, lambda r: r[3].value is not None)
    old = row[3].value
    row[3].value = old + 1000
    return "Partie", f"Partie {row[1].value}", row[2].value, f"total {old:g} → {old + 1000:g}"


def _torres(ws):
    row = _first(ws, lambda r: r[4].value is not None and r[3].value != "Forfait")
    old = row[4].value
    row[4].value = old + 1
    return ("Match", f"Division {row[0].value}, Groupe {row[1].value}, Match {row[2].value}", row[3].value,
            f"points particuliers {old:g} → {old + 1:g}")


def _cdf(ws):
    row = _first(ws, lambda r: (r[4].value or 0) >= 3 and r[5].value is None)
    old = row[4].value
    row[4].value = old - 1
    return "Table", f"Ronde {row[0].value}, Table {row[1].value}", row[2].value, f"centres {old} → {old - 1}"


CHANGES = {"dbm": ("Résultats", _dbm), "elo": ("Parties", _elo), "torres": ("Matchs", _torres),
           "cdf": ("Parties", _cdf)}


@pytest.mark.parametrize("code", sorted(CHANGES))
def test_every_federation_journals_a_corrected_result(tmp_path, code):
    adapter = ADAPTERS[code]
    path = example(adapter, tmp_path)
    fill(path)
    sheet, change = CHANGES[code]
    said: list[tuple] = []
    edit_results(path, sheet, lambda ws: said.append(change(ws)))
    _, group, player, what = said[0]
    fill(path)
    rows = journal(path)
    last = [r for r in rows if r["Empreinte"] == rows[-1]["Empreinte"]]
    results = {r["Objet"]: r["Détail"] for r in last if r["Rubrique"] == "résultats"}
    assert f"1 modifié : {player} ({what})" in str(results[group])
    assert [r["Rubrique"] for r in last].count("remplissage") == 1


# --- xlcircuit diff ----------------------------------------------------------------------------------------


def test_diff_says_what_the_journal_says_between_two_filled_workbooks(season, tmp_path, capsys):
    published = tmp_path / "publié.xlsx"
    shutil.copy(season, published)

    def late(ws) -> None:
        ws.append(["Tournoi de Lyon", "Jean Nouveau", 13, None, None])

    edit_results(season, "Résultats", late)
    fill(season)
    capsys.readouterr()
    assert main(["diff", str(published), str(season)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"Tour de France de Diplomatie : ce qui a changé de publié.xlsx à {season.name}"
    assert out[2] == "Résultats (1 tournoi) :"
    assert out[3] == "  Tournoi de Lyon : 1 ajouté : Jean Nouveau (place 13, statut classé)"
    rows = journal(season)
    moved = [f"  {r['Objet']} : {r['Détail']}" for r in rows if r["Empreinte"] == rows[-1]["Empreinte"]
             and r["Rubrique"] == "classement"]
    assert out[4] == f"Classement ({len(moved)} joueurs) :" and out[5:] == moved

    assert main(["diff", str(published), str(season), "-o", str(tmp_path / "note.txt")]) == 0
    assert (tmp_path / "note.txt").read_text(encoding="utf-8").splitlines() == out
    assert main(["diff", str(published), str(season), "-o", str(tmp_path / "note.xlsx")]) == 0
    sheet = openpyxl.load_workbook(tmp_path / "note.xlsx")["Changements"]
    assert [c.value for c in sheet["A"] if c.value][:3] == [out[0], out[2], out[3].strip()]
    capsys.readouterr()
    assert main(["diff", str(published), str(published)]) == 0
    assert capsys.readouterr().out.splitlines()[2] == "Aucun résultat ni classement n'a changé."


def test_diff_writes_a_pdf_for_the_note_to_the_clubs(season, tmp_path, capsys):
    need_libreoffice()
    from pypdf import PdfReader

    published = tmp_path / "publié.xlsx"
    shutil.copy(season, published)
    edit_results(season, "Résultats", lambda ws: ws.append(["Tournoi de Lyon", "Jean Nouveau", 13, None, None]))
    fill(season)
    assert main(["diff", str(published), str(season), "-o", str(tmp_path / "note.pdf")]) == 0
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "note.pdf").pages)
    assert "Tournoi de Lyon : 1 ajouté : Jean Nouveau" in " ".join(text.split())


def test_diff_refuses_an_unfilled_workbook_or_two_federations(season, tmp_path, capsys):
    (tmp_path / "frais").mkdir()
    fresh = example(ADAPTERS["tdf"], tmp_path / "frais")
    assert main(["diff", str(fresh), str(season)]) == 1
    assert capsys.readouterr().err.strip() == (f"{fresh.name} n'a pas de table « Points » remplie : remplissez-le "
                                               f"d'abord (xlcircuit fill {fresh}), puis relancez.")
    other = example(ADAPTERS["elo"], tmp_path)
    fill(other)
    assert main(["diff", str(season), str(other)]) == 1
    assert "comparez deux remplissages d'une même saison" in capsys.readouterr().err


def test_a_journal_entry_is_written_by_the_surgical_fill(season):
    """The journal reads the tables the fill is about to rewrite from the file itself (the surgical fill never
    loads them): appended in place, the organiser's other sheets copied as they were."""
    edit_results(season, "Résultats", lambda ws: ws.append(["Tournoi de Lyon", "Jean Nouveau", 13, None, None]))
    book = Book(season)
    ADAPTERS["tdf"].fill(book)
    assert book.surgical
    book.save()
    assert any(r["Objet"] == "Tournoi de Lyon" for r in journal(season))


def test_the_compared_columns_are_read_alone_and_the_same_as_the_whole_table(season, tmp_path):
    """The journal reads only the columns it compares, by a pattern that skips the others; a cell written
    another way (attributes in another order, as another program may) makes it read the whole table."""
    import zipfile

    from xlcircuit.xlsx import table_values

    headers = ["Tournoi", "Joueur", "Place", "Statut"]
    whole = table_values(season, "Points")
    assert whole is not None and whole[0][:5] == ["Tournoi", "Date", "Joueur", "Place", "Statut"]
    picked = [[row[i] for i in (0, 2, 3, 4)] for row in whole]
    some = table_values(season, "Points", headers)
    assert [[row[i] for i in (0, 2, 3, 4)] for row in some] == picked
    assert all(row[1] is None for row in some[1:])  # the Date column is not read
    # The same sheet, one cell of the Joueur column written with its attributes in another order.
    other = tmp_path / "autre.xlsx"
    with zipfile.ZipFile(season) as source, zipfile.ZipFile(other, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename.startswith("xl/worksheets/sheet"):  # every sheet's C5: the Points sheet's among them
                data = re.sub(rb'<c r="C5"([^>]*?)>', rb'<c\1 r="C5">', data, count=1)
            target.writestr(info, data)
    assert [[row[i] for i in (0, 2, 3, 4)] for row in table_values(other, "Points", headers)] == picked
