"""Smaller losses, each seen once: a LibreOffice .ods, the organiser's conditional formats in the published
tables, the « Mon club » sheet, printed continuation pages, ``explain -o x.docx``, ``share --clubs`` without
clubs. Each through what the organiser sees: the message, the workbook, the PDF text."""

from __future__ import annotations

import openpyxl
import pytest
from conftest import need_libreoffice

from xlcircuit.cli import main
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.workbook import layout
from xlcircuit.xlsx import libreoffice


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    return err


def test_a_libreoffice_ods_says_how_to_get_an_xlsx(demo_path, tmp_path, capsys):
    need_libreoffice()
    named = demo_path.with_name("TdF 2025.xlsx")
    demo_path.rename(named)
    ods = libreoffice.convert(named, tmp_path / "ods", "ods")[0]
    assert main(["check", str(ods)]) == 1
    assert one_line_error(capsys) == (
        "TdF 2025.ods est un classeur LibreOffice (OpenDocument), pas un classeur Excel : enregistrez-le au format "
        ".xlsx (Fichier > Enregistrer sous, type « Excel 2007-365 ») ou convertissez-le (soffice --headless "
        '--convert-to xlsx "TdF 2025.ods"), puis relancez sur le .xlsx.')
    # Done as said, the workbook fills.
    xlsx = libreoffice.convert(ods, tmp_path / "xlsx", "xlsx")[0]
    assert main(["fill", str(xlsx), "--federation", "tdf"]) == 0


def test_continuation_pages_print_the_title_whole_and_no_cut_legend(demo_path, tmp_path, capsys):
    """The standings spill over six pages (columns, then rows). Before: the title and the legend, typed in the
    first column (repeated on every page), were printed cut on each continuation page (« Tour de France de
    Di »), and the legend twice. Now the title heads every page whole, the legend is printed once, whole."""
    need_libreoffice()
    import pypdf

    assert main(["share", str(demo_path), "--pdf", str(tmp_path / "pdf")]) == 0
    pdf = pypdf.PdfReader(tmp_path / "pdf" / "saison-classement.pdf")
    pages = [" ".join(page.extract_text().split()) for page in pdf.pages]
    assert len(pages) > 2
    assert main(["fill", str(demo_path)]) == 0  # the same title as the PDF's, in the workbook
    title = openpyxl.load_workbook(demo_path)["Classement"]["A1"].value
    assert all(page.count(title) == 1 for page in pages), pages
    legend = "Chaque case : les points que le tournoi apporte au total (ses points × son poids) ; le total est la " \
             "somme de la ligne."
    assert sum(legend in page for page in pages) == 1
    assert sum("Chaque case" in page for page in pages) == 1


def test_the_organisers_conditional_formats_in_a_published_table_stay_and_follow_its_rows(demo_path, tmp_path):
    """Before: a fill removed every conditional format inside its published tables without a word."""
    from openpyxl.formatting.rule import CellIsRule, FormulaRule
    from openpyxl.styles import PatternFill

    from xlcircuit.workbook.write import type_rows

    assert main(["fill", str(demo_path)]) == 0
    wb = openpyxl.load_workbook(demo_path)
    ws = wb["Classement"]
    last = int(ws.tables["Classement"].ref.split(":")[1][1:])
    ws.conditional_formatting.add(f"D4:D{last}", CellIsRule(operator="greaterThan", formula=["2000"],
                                                            fill=PatternFill("solid", fgColor="C6EFCE")))
    ws.conditional_formatting.add("B4:B10", FormulaRule(formula=["$A4<=3"], fill=PatternFill("solid", fgColor="FFC7CE")))
    rows = [tuple(r) for r in load_rows(demo_path)] + [("Tournoi de Lyon", "Nouvelle Venue", None, "aide", None)]
    type_rows(wb, tdf_book.RESULTATS, rows)  # one more person: the standings grow by a row
    wb.save(demo_path)
    assert main(["fill", str(demo_path)]) == 0
    assert main(["fill", str(demo_path)]) == 0  # and again: nothing doubles
    ws = openpyxl.load_workbook(demo_path)["Classement"]
    rules = {str(cf.sqref): sorted(rule.type for rule in cf.rules) for cf in ws.conditional_formatting}
    assert rules == {f"D4:D{last + 1}": ["cellIs", "dataBar"], "B4:B10": ["expression"]}


def load_rows(path):
    from conftest import table_rows

    return table_rows(openpyxl.load_workbook(path)["Résultats"], "Resultats")[1:]


def test_mon_club_keeps_the_marks_and_the_legend(demo_path, tmp_path):
    """Before: the « Mon club » sheet had the club's rows without their look (weighted, set aside) nor legend."""
    assert main(["share", str(demo_path), "--clubs", str(tmp_path / "clubs")]) == 0
    wb = openpyxl.load_workbook(tmp_path / "clubs" / "Classement - Cercle bordelais de Diplomatie.xlsx")
    standings, mine = wb["Classement"], wb["Mon club"]
    header = [c.value for c in mine[3]]
    column = header.index("Tournoi de Marseille") + 1
    row = next(r for r in range(4, mine.max_row + 1) if mine.cell(r, 2).value == "Thomas Girard")
    cell = mine.cell(row, column)  # set aside by the no-loss rule: struck, on grey, as in the standings
    assert cell.value == 0 and cell.font.strike and cell.fill.fgColor.rgb.endswith("EDEDED")
    original = next(r for r in range(4, standings.max_row + 1) if standings.cell(r, 2).value == "Thomas Girard")
    for c in range(5, len(header) + 1):
        assert (mine.cell(row, c).font.i, mine.cell(row, c).font.strike) == \
            (standings.cell(original, c).font.i, standings.cell(original, c).font.strike)
    legend = " ".join(str(c.value) for r in mine.iter_rows(min_row=4) for c in r
                      if c.value and layout.is_note(c))
    assert "Barré sur fond gris : écarté par la règle de non-perte" in legend
    assert "En italique sur fond jaune : compté moins de 100 %" in legend


def test_explain_writes_only_what_its_extension_says(demo_path, tmp_path, capsys):
    """Before: ``-o x.docx`` wrote plain text under a .docx name (Word then refused it)."""
    for name in ("x.docx", "x.odt", "x"):
        with pytest.raises(SystemExit) as stopped:  # a command mistyped: status 2, nothing done
            main(["explain", str(demo_path), "Camille Roux", "-o", str(tmp_path / name)])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert "explain écrit un fichier .txt (texte), .xlsx (une feuille) ou .pdf" in err, err
        assert not (tmp_path / name).exists()
    assert main(["explain", str(demo_path), "Camille Roux", "-o", str(tmp_path / "x.txt")]) == 0
    assert (tmp_path / "x.txt").read_text(encoding="utf-8").startswith("Camille Roux — Tour de France")


def test_share_writes_what_it_can_and_says_what_failed(small_season, tmp_path, capsys):
    """No player has a club: the club workbooks fail, the CSV (and the PDF) are still written."""
    kinds = ["--clubs", str(tmp_path / "clubs"), "--csv", str(tmp_path / "csv")]
    if libreoffice.find() is not None:
        kinds += ["--pdf", str(tmp_path / "pdf")]
    assert main(["share", str(small_season), *kinds]) == 1
    out, err = capsys.readouterr()
    assert "CSV écrit : " in out and (tmp_path / "csv" / "petite-Classement.csv").exists()
    if "--pdf" in kinds:
        assert "PDF écrit : " in out and (tmp_path / "pdf" / "petite-classement.pdf").exists()
    assert err.startswith("clubs : petite.xlsx ne dit le club de personne : remplissez la table « Joueurs » "
                          "(Joueur, Club), puis relancez.")
    assert not (tmp_path / "clubs").exists() or not list((tmp_path / "clubs").iterdir())
