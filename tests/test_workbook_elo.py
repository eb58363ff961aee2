"""The ranked Elo workbook: template, fill, checks. The generic contract (committed template, example,
refill, LibreOffice) is in test_workbook.py; expected ratings here are computed by hand."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import openpyxl
import pytest
from conftest import table_rows

from xlcircuit.cli import main
from xlcircuit.federations import elo as elo_book
from xlcircuit.rules.errors import WorkbookProblems
from xlcircuit.workbook.sheets import CLUB_COLOUR
from xlcircuit.workbook.write import type_rows
from xlcircuit.xlsx import Book, save_atomic

D1, D2 = dt.date(2025, 9, 1), dt.date(2025, 9, 8)
#: Game 1: A wins, B and C tie last (equal ratings, K 48): A 48 × (2 - 1) / 2 = +24; B, C 48 × (0.5 - 1) / 2 = -12.
#: Game 2: B (988) beats A (1024), K 48: 48 × (1 - 1 / (1 + 10^(36 / 400))) = 48 × 0.5516 = 26.48 -> +26.
SMALL = [(D1, 1, "A", 10), (D1, 1, "B", 20), (D1, 1, "C", 20), (D2, 2, "B", 5), (D2, 2, "A", 9)]


def workbook(path: Path, parties, winner: str | None = None, joueurs=()) -> Path:
    wb = elo_book.new_workbook()
    if winner is not None:
        type_rows(wb, elo_book.REGLAGES, [("Nom", None), ("Vainqueur", winner)])
    type_rows(wb, elo_book.JOUEURS, list(joueurs))
    type_rows(wb, elo_book.PARTIES, parties)
    return save_atomic(wb, path)


def filled(path: Path) -> openpyxl.Workbook:
    book = Book(path)
    elo_book.fill(book)
    book.save()
    return openpyxl.load_workbook(path)


def as_dicts(ws, name):
    header, *rows = table_rows(ws, name)
    return [dict(zip(header, row)) for row in rows]


def standings(wb) -> list[tuple]:
    return [(r["Rang"], r["Joueur"], r["Elo"], r["Parties"], r["Palier"])
            for r in as_dicts(wb["Classement"], "Classement")]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_new_workbook_has_the_tables_in_french(tmp_path):
    wb = openpyxl.load_workbook(save_atomic(elo_book.new_workbook(), tmp_path / "neuf.xlsx"))
    assert wb.sheetnames == ["Réglages", "Joueurs", "Parties", "Historique", "Classement", "Palmarès", "Journal"]
    assert table_rows(wb["Joueurs"], "Joueurs")[0] == ["Joueur", "Club", "Elo", "Parties", "Identifiant", "Alias"]
    assert table_rows(wb["Parties"], "Parties")[0] == ["Date", "Partie", "Joueur", "Total", "Source"]
    assert table_rows(wb["Réglages"], "Reglages") == [["Paramètre", "Valeur"], ["Nom", None],
                                                       ["Vainqueur", "plus petit total"]]
    assert table_rows(wb["Classement"], "Classement")[0] == ["Rang", "Joueur", "Elo", "Parties", "Palier",
                                                             "Dernière partie"]
    assert Book(tmp_path / "neuf.xlsx").federation == "elo"


def test_an_empty_template_fills_without_error(tmp_path):
    path = save_atomic(elo_book.new_workbook(), tmp_path / "vide.xlsx")
    assert standings(filled(path)) == [(None,) * 5]  # a table keeps one blank row


def test_fill_writes_history_and_standings_computed_by_hand(tmp_path):
    wb = filled(workbook(tmp_path / "petit.xlsx", SMALL))
    lines = as_dicts(wb["Historique"], "Historique")
    assert [(r["Partie"], r["Joueur"], r["Rang"], r["Elo avant"], r["Partie n°"], r["K"], r["Variation"],
             r["Elo après"]) for r in lines] == [
        ("1", "A", 1, 1000, 1, 48, 24, 1024), ("1", "B", 2, 1000, 1, 48, -12, 988),
        ("1", "C", 2, 1000, 1, 48, -12, 988),
        ("2", "B", 1, 988, 2, 48, 26, 1014), ("2", "A", 2, 1024, 2, 48, -26, 998),
    ]
    assert lines[0]["Attendu"] == 0.5 and lines[0]["Obtenu"] == 1
    assert lines[3]["Attendu"] == pytest.approx(0.4484, abs=1e-4)  # 1 / (1 + 10^0.09)
    assert lines[3]["Écart non arrondi"] == pytest.approx(26.48, abs=0.01)
    assert standings(wb) == [(1, "B", 1014, 2, "Placement (encore 3 parties)"),
                             (2, "A", 998, 2, "Placement (encore 3 parties)"),
                             (3, "C", 988, 1, "Placement (encore 4 parties)")]


def test_highest_total_wins_when_the_settings_say_so(tmp_path):
    # Game 1: B and C tie first: 48 × (1.5 - 1) / 2 = +12 each, A -24. Game 2: A (976, 9) beats B (1012, 5):
    # 48 × (1 - 1 / (1 + 10^(36 / 400))) = +26.
    wb = filled(workbook(tmp_path / "grand.xlsx", SMALL, winner="Plus grand total"))
    assert [(r[1], r[2]) for r in standings(wb)] == [("C", 1012), ("A", 1002), ("B", 986)]


def test_output_formats_display_the_published_rounding(tmp_path):
    wb = filled(workbook(tmp_path / "petit.xlsx", SMALL))
    ws = wb["Historique"]
    header = [c.value for c in ws[3]]
    row = ws[4]
    assert row[header.index("Attendu")].number_format == "0.0000"
    assert row[header.index("Variation")].number_format == "+0;-0;0"
    assert row[header.index("Date")].number_format == "dd/mm/yyyy"
    assert wb["Classement"]["A1"].value.startswith("Note de classé (Elo multijoueur) — classement au ")


def test_the_example_holds_the_sources_six_totals(tmp_path):
    wb = elo_book.new_workbook()
    elo_book.put_example(wb)
    wb = filled(save_atomic(wb, tmp_path / "exemple.xlsx"))
    first = [r for r in as_dicts(wb["Historique"], "Historique") if r["Partie"] == "1"]
    # 47, 61, 61, 78, 92, 104 at 1000 in placement (K 48): 24, 9.6, 9.6, -4.8, -14.4, -24
    assert [(r["Total"], r["Rang"], r["Variation"]) for r in first] == [
        (47, 1, 24), (61, 2, 10), (61, 2, 10), (78, 4, -5), (92, 5, -14), (104, 6, -24)]
    table = as_dicts(wb["Classement"], "Classement")
    assert len(table) == 15
    yasmine = next(r for r in table if r["Joueur"] == "Yasmine")
    assert (yasmine["Parties"], yasmine["Palier"]) == (2, "Placement (encore 3 parties)")
    assert wb["Classement"]["A1"].value.startswith(
        "Note de classé (Elo multijoueur) : Ligue des soirées 2025-2026 — classement au ")


def test_the_order_of_lines_within_a_game_changes_nothing(tmp_path):
    shuffled = [SMALL[2], SMALL[4], SMALL[0], SMALL[3], SMALL[1]]
    assert standings(filled(workbook(tmp_path / "a.xlsx", SMALL))) == \
        standings(filled(workbook(tmp_path / "b.xlsx", shuffled)))


def test_games_are_played_in_date_order(tmp_path):
    # Game 2 typed first but dated later: the result is the one of SMALL.
    later_first = [SMALL[3], SMALL[4], SMALL[0], SMALL[1], SMALL[2]]
    assert standings(filled(workbook(tmp_path / "a.xlsx", later_first)))[0][1:3] == ("B", 1014)


def test_every_problem_is_reported_at_once_and_nothing_is_written(tmp_path):
    path = workbook(tmp_path / "fautes.xlsx", [
        (D1, 1, "A", 10),
        (D1, 1, "B", "dix"),  # row 3: a total that is not a number
        ("hier", 2, "A", 3),  # row 4: not a date
        (D1, None, "C", 4),  # row 5: no game
        (D1, 3, None, 4),  # row 6: no player
        (D1, 4, "A", 1),  # row 7: a game of one player
        (D1, 5, "A", 1), (D1, 5, "B", 2), (D1, 5, "A", 3),  # row 10: A twice in game 5
        (D2, 1, "C", 30),  # row 11: game 1 has another date
        (None, 6, "D", None),  # row 12: no date, no total
    ], winner="le premier")
    before = digest(path)
    with pytest.raises(WorkbookProblems) as caught:
        elo_book.fill(Book(path))
    where = {(p.sheet, p.row, p.column) for p in caught.value.problems}
    assert where == {
        ("Réglages", 5, "Valeur"),
        ("Parties", 3, "Total"), ("Parties", 4, "Date"), ("Parties", 5, "Partie"), ("Parties", 6, "Joueur"),
        ("Parties", 7, "Partie"), ("Parties", 10, "Joueur"), ("Parties", 11, "Date"),
        ("Parties", 12, "Date"), ("Parties", 12, "Total"),
    }
    message = str(caught.value)
    assert "Parties!D3 (colonne « Total ») : total (un nombre) attendu ; trouvé « dix »" in message
    assert "la partie « 4 » a 1 joueur : de 2 à 8 attendus" in message
    assert "A figure déjà dans la partie « 5 » ligne 8" in message
    assert "« plus petit total » ou « plus grand total » attendu ; trouvé « le premier »" in message
    assert digest(path) == before


def test_a_game_of_nine_is_refused(tmp_path):
    path = workbook(tmp_path / "neuf.xlsx", [(D1, "Grande table", f"J{i}", i) for i in range(9)])
    with pytest.raises(WorkbookProblems, match="a 9 joueurs : de 2 à 8 attendus"):
        elo_book.compute(Book(path))


def test_formula_like_names_stay_text(tmp_path):
    evil = '=HYPERLINK("http://example.com","x")'
    wb = filled(workbook(tmp_path / "piege.xlsx", [(D1, "=1+1", evil, 1), (D1, "=1+1", "B", 2)]))
    for sheet in ("Historique", "Classement"):
        cells = [c for row in wb[sheet].iter_rows() for c in row if c.value == evil]
        assert cells and all(c.data_type == "s" for c in cells)


def test_names_differing_by_case_are_warned(tmp_path):
    summary = elo_book.compute(Book(workbook(tmp_path / "noms.xlsx", [(D1, 1, "Léa", 1), (D1, 1, "lea", 2)])))
    assert any("« Léa » (Parties!C2) et « lea » (Parties!C3) sont-ils la même personne" in w for w in summary.warnings)


def test_clubs_and_report(tmp_path):
    path = workbook(tmp_path / "clubs.xlsx", SMALL, joueurs=[("A", "Club 1"), ("B", "Club 2")])
    summary = elo_book.compute(Book(path))
    assert summary.clubs == {"A": "Club 1", "B": "Club 2"}
    lines = elo_book.report(summary)
    assert lines[0] == "2 parties, 3 joueurs (3 en placement) ; le plus petit total gagne."
    assert lines[1].split()[:3] == ["1.", "B", "1014"]
    club = elo_book.outputs(summary, club="Club 1")[1]
    assert club.highlights == {1: CLUB_COLOUR}  # A is second


def test_the_command_line_fills_it(tmp_path, capsys):
    target = tmp_path / "classement.xlsx"
    assert main(["new", "elo", str(target)]) == 0
    wb = openpyxl.load_workbook(target)
    type_rows(wb, elo_book.PARTIES, SMALL)
    wb.save(target)
    assert main(["check", str(target)]) == 0
    assert main(["fill", str(target)]) == 0
    out = capsys.readouterr().out
    assert "2 parties, 3 joueurs" in out
    assert standings(openpyxl.load_workbook(target))[0][1:3] == ("B", 1014)
