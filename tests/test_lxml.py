"""The engine works the same with and without lxml. openpyxl serialises through lxml when it is installed
(openxml-audit pulls it in; many organisers have it): namespaces declared on each element rather than on the root,
``<a/>`` rather than ``<a />``, attributes in another order. The suite runs in whichever environment it is given
(the test extra installs lxml, and ``conftest.py`` keeps openpyxl to the standard library's writer, as on
most organisers' machines); these tests run fills in processes of their own, one with openpyxl writing through
lxml, one where lxml is hidden, on workbooks written by the other."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
from conftest import table_rows

from xlcircuit.cli import main
from xlcircuit.xlsx.validate import package_problems

#: Run first in the child: lxml cannot be imported, so openpyxl serialises with the standard library.
HIDDEN = "import sys\nsys.modules['lxml'] = None\nimport openpyxl\nassert not openpyxl.LXML\n"
#: Run first in the child: openpyxl serialises through lxml (installed by the test extra).
SHOWN = "import openpyxl\nassert openpyxl.LXML, 'lxml is not installed'\n"


def child(code: str, lxml: bool) -> None:
    environment = {**os.environ, "OPENPYXL_LXML": "True" if lxml else "False"}
    run = subprocess.run([sys.executable, "-c", (SHOWN if lxml else HIDDEN) + code], capture_output=True, text=True,
                         timeout=600, env=environment)
    assert run.returncode == 0, run.stderr


def without_lxml(code: str) -> None:
    child(code, lxml=False)


def with_lxml(code: str) -> None:
    child(code, lxml=True)


def tables(path: Path) -> dict[str, list[list[object]]]:
    wb = openpyxl.load_workbook(path)
    return {name: table_rows(ws, name) for ws in wb.worksheets for name in ws.tables}


def fill(source: Path, target: Path) -> Path:
    """A fill through lxml, in a process of its own."""
    with_lxml(FILL.format(source=str(source), target=str(target)))
    return target


FILL = ("from xlcircuit.xlsx import Book\nfrom xlcircuit.federations import tdf\nbook = Book({source!r})\n"
        "tdf.fill(book)\nassert book.route.kind == 'surgical', book.route\nbook.save({target!r})\n")


def test_a_workbook_written_here_is_filled_the_same_without_lxml(demo_path, tmp_path):
    here, there = tmp_path / "ici.xlsx", tmp_path / "sans-lxml.xlsx"
    fill(demo_path, here)
    without_lxml(FILL.format(source=str(demo_path), target=str(there)))
    assert package_problems(there) == [] and package_problems(here) == []
    assert tables(there) == tables(here)


def test_a_workbook_written_without_lxml_is_filled_here_and_refilled_byte_for_byte(tmp_path):
    made = tmp_path / "saison.xlsx"
    without_lxml("from xlcircuit.federations import tdf\nfrom xlcircuit.xlsx import save_atomic\n"
                 f"wb = tdf.new_workbook()\ntdf.put_example(wb)\nwb.create_sheet('Notes')['A1'] = 'à garder'\n"
                 f"save_atomic(wb, {str(made)!r})\n")
    first, second = fill(made, tmp_path / "1.xlsx"), fill(tmp_path / "1.xlsx", tmp_path / "2.xlsx")
    assert package_problems(first) == []
    assert first.read_bytes() == second.read_bytes()
    assert openpyxl.load_workbook(first)["Notes"]["A1"].value == "à garder"


def test_a_fill_that_adds_a_sheet_declares_its_namespaces_whoever_wrote_the_workbook(tmp_path):
    """openpyxl with lxml declares the relationships' namespace on each sheet, not on the root: a sheet the fill
    adds must declare it too (it was written unbound: « XML invalide dans xl/workbook.xml »)."""
    made = tmp_path / "sans-courbes.xlsx"
    with_lxml("from xlcircuit.federations import tdf\nwb = tdf.new_workbook()\ntdf.put_example(wb)\n"
              f"del wb['Courbes']\nwb.save({str(made)!r})\n")
    here = fill(made, tmp_path / "ici.xlsx")
    there = tmp_path / "sans-lxml.xlsx"
    without_lxml(FILL.format(source=str(made), target=str(there)))
    for path in (here, there):
        assert package_problems(path) == []
        assert openpyxl.load_workbook(path).sheetnames[-1] == "Courbes"
        with zipfile.ZipFile(path) as archive:
            book = archive.read("xl/workbook.xml")
        assert b'name="Courbes"' in book



def test_comments_inside_tables_and_relationships_are_read_with_lxml_as_without(small_season, tmp_path):
    """XML comments and processing instructions between the elements of the table parts and of the sheets'
    relationships (valid XML): with lxml, openpyxl took them for elements, and check and fill refused the workbook
    (« contenu inattendu », « Unknown relationship »)."""
    path = tmp_path / "commentaires.xlsx"
    with zipfile.ZipFile(small_season) as old, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename.startswith(("xl/tables/", "xl/worksheets/_rels/")):
                data = re.sub(rb"(?<!\?)>(?=<)", b"><!-- x --><?pi x?>", data)
            new.writestr(info, data)
    os.utime(path, (time.time() - 3600, time.time() - 3600))  # an e-mailed file, not one being written
    filled = {lxml: tmp_path / f"rempli-{lxml}.xlsx" for lxml in (True, False)}
    for lxml, target in filled.items():
        child(f"from xlcircuit.cli import main\nassert main(['check', {str(path)!r}]) == 0\n"
              f"assert main(['fill', {str(path)!r}, '-o', {str(target)!r}]) == 0\n", lxml)
        assert package_problems(target) == []
    assert main(["fill", str(small_season), "-o", str(tmp_path / "sans-commentaires.xlsx")]) == 0
    assert tables(filled[True]) == tables(filled[False]) == tables(tmp_path / "sans-commentaires.xlsx")
