"""Smaller losses, each seen once: a LibreOffice .ods, the organiser's conditional formats in the published
tables, the « Mon club » sheet, printed continuation pages, ``explain -o x.docx``, ``share --clubs`` without
clubs. Each through what the organiser sees: the message, the workbook, the PDF text."""

from __future__ import annotations

from conftest import need_libreoffice

from xlcircuit.cli import main
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
