"""Nothing the organiser typed or saved is ignored or overwritten: rows under tables, workbooks open in a
spreadsheet program or changed meanwhile, backups, temporary files, Ctrl-C; names that may be typos."""

from __future__ import annotations

import datetime as dt
import errno
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import generate  # benchmarks/generate.py, on the path by conftest
import openpyxl
import pytest
from conftest import table_dicts, table_rows, write_season
from openpyxl.utils import get_column_letter, range_boundaries

from xlcircuit.cli import main
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.rules.errors import WorkbookError, WorkbookProblems
from xlcircuit.workbook.read import row_list
from xlcircuit.xlsx import Book, files, safe, save_atomic
from xlcircuit.xlsx.surgery import Surgery


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    return err


# --- rows typed under an input table -----------------------------------------------------------


def test_results_typed_under_a_one_row_table_after_a_blank_row_are_all_taken_in(tmp_path, capsys):
    """The issue's case: LibreOffice does not grow tables; 46 of 47 result rows stood after a blank row."""
    tournois, resultats = generate.tdf(1, players=46)  # 46 classified players and an organiser
    path = write_season(tmp_path / "saison.xlsx", tournois, resultats[:1])
    wb = openpyxl.load_workbook(path)
    ws = wb["Résultats"]
    assert ws.tables["Resultats"].ref == "A1:F2"
    for row, values in enumerate(resultats[1:], start=4):  # row 3 left blank
        for col, value in enumerate(values, start=1):
            ws.cell(row, col, value)
    wb.save(path)
    assert main(["check", str(path)]) == 0
    captured = capsys.readouterr()
    assert "est correct, avec 1 point à vérifier (ci-dessous) : 1 tournoi, 47 personnes" in captured.out
    assert ("Résultats : les lignes 4 à 49, tapées sous la table « Resultats », sont prises dans la table"
            in captured.err)
    assert main(["fill", str(path)]) == 0
    filled = openpyxl.load_workbook(path)
    assert filled["Résultats"].tables["Resultats"].ref == "A1:F49"
    assert len(table_dicts(filled["Points"], "Points")) == 47


def test_a_row_under_the_parameters_table_is_reported_and_the_guide_under_it_is_not_read(tmp_path):
    path = write_season(tmp_path / "saison.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                       [("Open", "Alice", 1, None, None)])
    wb = openpyxl.load_workbook(path)
    ws = wb["Saison"]
    last = int(ws.tables["Parametres"].ref.split(":")[1][1:])
    assert ws.cell(last + 3, 1).value  # the guide, two rows down
    ws.cell(last + 1, 1, "Saison")
    ws.cell(last + 1, 2, "2025-2026")
    wb.save(path)
    with pytest.raises(WorkbookProblems) as caught:
        tdf_book.compute(Book(path))
    assert [str(p) for p in caught.value.problems] == [
        f"Saison!A{last + 1} : la ligne {last + 1}, sous la table « Parametres », n'en fait pas partie : "
        "insérez-la dans la table (clic droit > Insérer des lignes)"]


def test_rows_under_a_table_stop_at_the_next_table_below_it(tmp_path):
    path = write_season(tmp_path / "saison.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                       [("Open", "Alice", 1, None, None)])
    wb = openpyxl.load_workbook(path)
    ws = wb["Résultats"]
    for col, value in enumerate(("Open", "Bruno", 2), start=1):
        ws.cell(4, col, value)
    notes = openpyxl.worksheet.table.Table(displayName="MesNotes", ref="A10:B11")
    ws["A10"], ws["B10"], ws["A11"], ws["B11"] = "Note", "Date", "à voir", "demain"
    ws.add_table(notes)
    wb.save(path)
    book = Book(path)
    summary = tdf_book.compute(book)
    assert sorted(e.line.player for e in summary.entries) == ["Alice", "Bruno"]
    assert book.wb["Résultats"].tables["Resultats"].ref == "A1:F4"


def test_a_table_over_whole_columns_costs_what_its_data_costs(tmp_path):
    path = write_season(tmp_path / "saison.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                       [("Open", "Alice", 1, None, None), ("Open", "Bruno", 2, None, None)])
    wb = openpyxl.load_workbook(path)
    wb["Résultats"].tables["Resultats"].ref = "A1:F1048576"  # Excel allows it
    wb["Résultats"].tables["Resultats"].autoFilter.ref = "A1:F1048576"
    wb.save(path)
    book = Book(path)
    cells = len(book.wb["Résultats"]._cells)
    summary = tdf_book.compute(book)
    assert [e.line.player for e in summary.entries] == ["Alice", "Bruno"]
    assert len(book.wb["Résultats"]._cells) == cells  # no cell made for the million blank rows


def test_row_lists_read_as_french_runs():
    assert row_list([5]) == "5"
    assert row_list([5, 6]) == "5, 6"
    assert row_list([5, 6, 7, 9, 12, 13, 14]) == "5 à 7, 9 et 12 à 14"


# --- a workbook open in a spreadsheet program, or changed meanwhile -----------------------------------


@pytest.mark.parametrize("lock, program", [(".~lock.petite.xlsx#", "LibreOffice"), ("~$petite.xlsx", "Excel")])
def test_a_workbook_open_in_a_spreadsheet_program_is_not_filled(small_season, lock, program, capsys):
    (small_season.parent / lock).write_text("Alice,machine,alice,01.12.2026 10:00,file:///…;")
    before = digest(small_season)
    assert main(["fill", str(small_season)]) == 1
    assert one_line_error(capsys) == (
        f"petite.xlsx est ouvert dans {program} : son fichier verrou « {lock} » (un fichier caché, à côté du "
        f"classeur) le dit ; rien n'a été écrit. Fermez petite.xlsx dans {program}, puis relancez : sinon, votre "
        f"prochain enregistrement dans {program} effacerait le remplissage. Si {program} s'est fermé sur une panne, "
        "le verrou est resté alors que le classeur n'est plus ouvert : passez outre (« Remplir quand même » dans la "
        "fenêtre, --force en ligne de commande).")
    assert digest(small_season) == before


def test_force_passes_over_a_stale_lock_and_says_so(small_season, capsys):
    (small_season.parent / ".~lock.petite.xlsx#").write_text("stale")
    assert main(["fill", str(small_season), "--force"]) == 0
    err = capsys.readouterr().err
    assert "  - --force : le verrou « .~lock.petite.xlsx# » de LibreOffice est passé outre ; si petite.xlsx" in err
    assert openpyxl.load_workbook(small_season)["Points"].tables["Points"].ref != "A3:K4"


def test_a_save_made_by_another_program_while_a_fill_runs_is_not_overwritten(small_season):
    book = Book(small_season)
    tdf_book.fill(book)
    theirs = openpyxl.load_workbook(small_season)
    theirs["Résultats"]["G1"] = "enregistré par LibreOffice pendant le remplissage"
    theirs.save(small_season)
    saved = digest(small_season)
    with pytest.raises(WorkbookError, match="a été modifié par un autre programme pendant le travail de xlcircuit"):
        book.save()
    assert digest(small_season) == saved
    assert [p.name for p in small_season.parent.iterdir() if p.name.startswith(".")] == []


def test_a_save_made_between_the_check_and_the_replacement_is_not_overwritten(small_season, monkeypatch):
    book = Book(small_season)
    tdf_book.fill(book)
    real_save = openpyxl.Workbook.save

    def slow_save(wb, filename):  # the other program saves while ours is being written
        real_save(wb, filename)
        small_season.write_bytes(small_season.read_bytes() + b"")  # same bytes: not a change
        other = openpyxl.load_workbook(small_season)
        other["Tournois"]["H1"] = "autre"
        real_save(other, small_season)

    monkeypatch.setattr(openpyxl.Workbook, "save", slow_save)
    real_surgery = Surgery.save

    def slow_surgery(surgery, filename):  # the same, for the surgical writer a fill saves with
        real_surgery(surgery, filename)
        other = openpyxl.load_workbook(small_season)
        other["Tournois"]["H1"] = "autre"
        real_save(other, small_season)

    monkeypatch.setattr(Surgery, "save", slow_surgery)
    with pytest.raises(WorkbookError, match="modifié par un autre programme"):
        book.save()
    assert openpyxl.load_workbook(small_season)["Tournois"]["H1"].value == "autre"


def test_a_read_only_workbook_is_not_replaced(small_season, capsys):
    before = digest(small_season)
    small_season.chmod(0o444)
    try:
        assert main(["fill", str(small_season)]) == 1
        assert one_line_error(capsys) == ("petite.xlsx est en lecture seule : rien n'a été écrit (enlevez la lecture "
                                          "seule dans les propriétés du fichier, ou écrivez ailleurs avec -o).")
    finally:
        small_season.chmod(0o644)
    assert digest(small_season) == before


def test_a_file_without_read_permission_is_not_said_locked(small_season, monkeypatch, capsys):
    real_open = os.open

    def denied(path, *args, **kwargs):
        if Path(path) == small_season:
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path) != small_season)
    assert main(["check", str(small_season)]) == 1
    assert "vous n'avez pas le droit de le lire" in one_line_error(capsys)


def test_a_file_being_rewritten_is_not_said_damaged(small_season, capsys):
    whole = small_season.read_bytes()
    small_season.write_bytes(whole[: len(whole) // 3])  # another program is writing it

    def finish():
        time.sleep(0.2)
        small_season.write_bytes(whole)

    writer = threading.Thread(target=finish)
    writer.start()
    try:
        assert main(["check", str(small_season)]) == 1
    finally:
        writer.join()
    assert one_line_error(capsys) == ("petite.xlsx est en cours d'écriture par un autre programme : attendez qu'il "
                                      "ait fini (ou fermez-le), puis relancez.")


def test_an_old_truncated_file_is_said_damaged(small_season, capsys):
    small_season.write_bytes(small_season.read_bytes()[:2000])
    old = time.time() - 3600
    os.utime(small_season, (old, old))
    assert main(["check", str(small_season)]) == 1
    assert "n'est pas un classeur .xlsx lisible (fichier tronqué" in one_line_error(capsys)


# --- backups ---------------------------------------------------------------------------------


def _with_a_sparkline(path: Path) -> Path:
    """The workbook with a sparkline on its Classement sheet (an output sheet, rewritten by openpyxl, which
    drops it: the fill takes the full rewrite and makes a backup; on the organiser's sheets it is kept)."""
    sparkline = (b'<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" '
                 b'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
                 b'<x14:sparklineGroups xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
                 b'<x14:sparklineGroup><x14:sparklines><x14:sparkline><xm:f>Tournois!A1:A2</xm:f>'
                 b'<xm:sqref>H1</xm:sqref></x14:sparkline></x14:sparklines></x14:sparklineGroup>'
                 b'</x14:sparklineGroups></ext></extLst>')
    sheet = f"xl/worksheets/sheet{openpyxl.load_workbook(path).sheetnames.index('Classement') + 1}.xml"
    copy = path.with_name("copie.tmpzip")
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            new.writestr(info.filename, data.replace(b"</worksheet>", sparkline + b"</worksheet>")
                         if info.filename == sheet else data)
    os.replace(copy, path)
    return path


def _with_an_excel_2010_format(path: Path, sqref: str, kind: bytes) -> Path:
    """The filled workbook's Classement sheet with an Excel 2010 conditional format (``kind``: dataBar as Excel
    writes the data bars of a fill when it saves, iconSet as an organiser adds one) on ``sqref``."""
    rule = (b'<x14:dataBar minLength="0" maxLength="100"><x14:cfvo type="autoMin"/><x14:cfvo type="autoMax"/>'
            b'</x14:dataBar>' if kind == b"dataBar" else
            b'<x14:iconSet iconSet="3Arrows"><x14:cfvo type="percent"><xm:f>0</xm:f></x14:cfvo>'
            b'<x14:cfvo type="percent"><xm:f>33</xm:f></x14:cfvo><x14:cfvo type="percent"><xm:f>67</xm:f>'
            b'</x14:cfvo></x14:iconSet>')
    ext = (b'<extLst><ext uri="{78C0D931-6437-407d-A8EE-F0AAD7539E65}" '
           b'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
           b'<x14:conditionalFormattings><x14:conditionalFormatting '
           b'xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><x14:cfRule type="' + kind +
           b'" priority="9" id="{00000000-0000-0000-0000-000000000009}">' + rule + b'</x14:cfRule><xm:sqref>' +
           sqref.encode() + b'</xm:sqref></x14:conditionalFormatting></x14:conditionalFormattings></ext></extLst>')
    sheet = f"xl/worksheets/sheet{openpyxl.load_workbook(path).sheetnames.index('Classement') + 1}.xml"
    copy = path.with_name("copie.tmpzip")
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info.filename)
            new.writestr(info.filename, data.replace(b"</worksheet>", ext + b"</worksheet>")
                         if info.filename == sheet else data)
    os.replace(copy, path)
    return path


def test_an_organisers_excel_2010_format_on_a_published_table_is_said_and_excels_data_bars_are_not(
        small_season, capsys):
    assert main(["fill", str(small_season)]) == 0
    capsys.readouterr()
    ws = openpyxl.load_workbook(small_season)["Classement"]
    first, top, _, bottom = range_boundaries(ws.tables["Classement"].ref)
    total = get_column_letter(first + table_rows(ws, "Classement")[0].index("Total"))
    rank = get_column_letter(first)
    bars, ranks = f"{total}{top + 1}:{total}{bottom}", f"{rank}{top + 1}:{rank}{bottom}"
    _with_an_excel_2010_format(small_season, bars, b"dataBar")  # Excel re-saved the fill's data bars
    assert main(["fill", str(small_season)]) == 0
    assert "Excel 2010" not in capsys.readouterr().err
    _with_an_excel_2010_format(small_season, ranks, b"iconSet")  # the organiser's arrows beside the ranks
    assert main(["fill", str(small_season)]) == 0
    assert "mises en forme conditionnelles propres à Excel 2010+ (feuille « Classement »)" in capsys.readouterr().err


def test_backups_are_numbered_never_overwritten(small_season, capsys):
    _with_a_sparkline(small_season)
    first = digest(small_season)
    assert main(["fill", str(small_season)]) == 0
    assert "l'original est gardé dans « petite (avant xlcircuit).xlsx »" in capsys.readouterr().err
    _with_a_sparkline(small_season)  # the organiser adds it again in Excel and saves
    second = digest(small_season)
    assert main(["fill", str(small_season)]) == 0
    assert "l'original est gardé dans « petite (avant xlcircuit 2).xlsx »" in capsys.readouterr().err
    assert digest(small_season.with_name("petite (avant xlcircuit).xlsx")) == first
    assert digest(small_season.with_name("petite (avant xlcircuit 2).xlsx")) == second


def test_a_failed_backup_leaves_no_half_file_and_writes_nothing(small_season, monkeypatch, capsys):
    _with_a_sparkline(small_season)
    before = digest(small_season)

    def disk_full(source, target, **kwargs):
        Path(target).write_bytes(Path(source).read_bytes()[:1000])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copy2", disk_full)
    assert main(["fill", str(small_season)]) == 1
    assert one_line_error(capsys) == ("Impossible de garder une copie de petite.xlsx (No space left on device) : rien "
                                      "n'a été écrit.")
    assert digest(small_season) == before
    assert sorted(p.name for p in small_season.parent.iterdir()) == ["petite.xlsx"]


# --- temporary files, kills and Ctrl-C ---------------------------------------------------------------


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_next_run_removes_what_a_killed_run_left(small_season):
    pid = _dead_pid()
    host = files._HOST
    beside = small_season.parent / f".petite.xlsx.xlcircuit-{host}-{pid}-abcd.tmp"
    beside.write_bytes(b"PK half")
    system = Path(tempfile.gettempdir()) / f"xlcircuit-{host}-{pid}-abcd"
    system.mkdir()
    (system / "openpyxl.x.xml").write_text("<half")
    running = small_season.parent / f".petite.xlsx.xlcircuit-{host}-{os.getpid()}-live.tmp"
    running.write_bytes(b"a save under way")  # a live process's: kept
    other = small_season.parent / ".autre-fichier.tmp"
    other.write_bytes(b"not ours")
    assert main(["fill", str(small_season)]) == 0
    assert not beside.exists() and not system.exists()
    assert running.exists() and other.exists()
    running.unlink()


def test_openpyxl_writes_its_temporary_files_in_a_folder_of_the_run(small_season, monkeypatch):
    seen = []
    real = tempfile.NamedTemporaryFile

    def spy(*args, **kwargs):
        handle = real(*args, **kwargs)
        seen.append(handle.name)
        return handle

    monkeypatch.setattr("openpyxl.worksheet._writer.NamedTemporaryFile", spy)
    book = Book(small_season)
    assert book.wb is not None  # the full rewrite, where openpyxl writes temporary files (the surgical one does not)
    tdf_book.fill(book)
    book.save()
    assert seen and all(f"xlcircuit-{files._HOST}-{os.getpid()}-" in name for name in seen)
    assert not any(Path(name).parent.exists() for name in seen)  # the run's folder is removed


def test_kills_at_any_moment_leave_the_original_intact_and_the_next_run_cleans_up(tmp_path):
    tournois, resultats = generate.tdf(30)
    path = write_season(tmp_path / "grande.xlsx", tournois, resultats)
    original = table_rows(openpyxl.load_workbook(path)["Résultats"], "Resultats")
    killed = []
    for delay in (0.3, 0.7, 1.0, 1.3, 1.6, 2.0):
        run = subprocess.Popen([sys.executable, "-m", "xlcircuit", "fill", str(path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        run.send_signal(signal.SIGKILL)
        run.wait()
        killed.append(run.pid)
        assert table_rows(openpyxl.load_workbook(path)["Résultats"], "Resultats") == original
    assert main(["fill", str(path)]) == 0
    assert sorted(tmp_path.glob(".*.tmp")) == []
    assert not [p for p in Path(tempfile.gettempdir()).glob("xlcircuit-*")
                if any(f"-{pid}-" in p.name for pid in killed)]


#: The console script (``xlcircuit.cli:main``), paused at a stage of its run until the test's Ctrl-C: ``starting``
#: (importing what a command needs), ``before`` and ``after`` the replacement of the workbook, ``shutdown`` (the
#: interpreter exiting, the work done). Each pause writes ``MARKER`` and waits for ``GO``: the Ctrl-C is sent
#: once the marker is there, so it arrives at that stage, whatever the machine's load. ``started`` only writes
#: the marker, once the command handles Ctrl-C itself, and goes on.
CHILD = """
import os, signal, sys, time
stage, marker, go = sys.argv[1:4]

def reached():
    open(marker, "w").close()
    deadline = time.monotonic() + 60
    while not os.path.exists(go) and time.monotonic() < deadline:
        time.sleep(0.005)

if stage == "starting":
    class Slow:
        def find_spec(self, name, path=None, target=None):
            if name == "openpyxl":
                reached()
            return None
    sys.meta_path.insert(0, Slow())
elif stage in ("before", "after"):
    # The engine's one step putting a save in place (an atomic exchange where the system has one, else os.replace).
    from xlcircuit.xlsx import files
    real = files._put_in_place
    def put_in_place(tmp, target, *args, **kwargs):
        workbook = str(target).endswith(".xlsx")
        if workbook and stage == "before":
            reached()
        real(tmp, target, *args, **kwargs)
        if workbook and stage == "after":
            reached()
    files._put_in_place = put_in_place
elif stage == "shutdown":
    import atexit
    atexit.register(reached)
else:  # started: the command's first import under its own Ctrl-C handling (before, it is Python's business)
    class Started:
        def find_spec(self, name, path=None, target=None):
            if signal.getsignal(signal.SIGINT) is not signal.default_int_handler and not os.path.exists(marker):
                open(marker, "w").close()
            return None
    sys.meta_path.insert(0, Started())
sys.argv = ["xlcircuit", *sys.argv[4:]]
from xlcircuit.cli import main
sys.exit(main())
"""


def ctrl_c_at(stage: str, folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``xlcircuit ARGS`` given a Ctrl-C at ``stage``, in a child whose Ctrl-C is that of a terminal (the default
    action restored, whatever this test's shell ignores)."""
    marker, go = folder / f"{stage}.reached", folder / f"{stage}.go"
    child = subprocess.Popen([sys.executable, "-c", CHILD, stage, str(marker), str(go), *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert child.poll() is None and time.monotonic() < deadline, child.communicate()
            time.sleep(0.01)
        child.send_signal(signal.SIGINT)
        go.touch()  # the pause ends: a Ctrl-C ignored lets the command go on (and the test see it)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("stage, status, said, filled", [
    ("starting", 130, "Interrompu (Ctrl-C) au démarrage : rien n'a été lu ni écrit.", False),
    ("before", 130, "Interrompu (Ctrl-C) avant l'enregistrement : {path} n'a pas été modifié.", False),
    ("after", 130, "Interrompu (Ctrl-C) après l'enregistrement : {path} est bien enregistré, en entier "
                   "(seul le compte rendu manque).", True),
    ("shutdown", 0, "", True),
])  # fmt: skip
def test_ctrl_c_at_any_stage_says_truly_whether_the_workbook_was_filled(small_season, stage, status, said, filled):
    before = digest(small_season)
    run = ctrl_c_at(stage, small_season.parent, "fill", str(small_season))
    assert run.returncode == status, run.stderr
    assert run.stderr.strip() == said.format(path=small_season)
    assert ("Classeur rempli" in run.stdout) == (stage == "shutdown")
    assert (digest(small_season) != before) == filled
    if filled:  # the standings written, whole
        assert standings_names(small_season) == {"Alice", "Bruno", "Chloé", "Denis"}
    assert sorted(small_season.parent.glob(".*.tmp")) == []


def standings_names(path: Path) -> set[str]:
    return {row["Joueur"] for row in table_dicts(openpyxl.load_workbook(path)["Classement"], "Classement")}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_at_a_random_moment_says_the_truth_either_way(tmp_path):
    """Wherever a Ctrl-C falls in a fill, the sentence matches the workbook on disk: filled and whole, or as it was."""
    tournois, resultats = generate.tdf(60)
    for delay in (0.0, 0.3, 0.8, 1.5, 2.5):
        path = write_season(tmp_path / "grande.xlsx", tournois, resultats)
        before = digest(path)
        marker = tmp_path / "started"
        marker.unlink(missing_ok=True)
        child = subprocess.Popen([sys.executable, "-c", CHILD, "started", str(marker), "-", "fill", str(path)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        while not marker.exists() and child.poll() is None:
            time.sleep(0.005)
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
        assert "Traceback" not in err, err
        changed = digest(path) != before
        if child.returncode == 0:
            assert changed and "Classeur rempli" in out
        else:
            assert child.returncode == 130 and err.count("\n") == 1, err
            assert ("après l'enregistrement" in err) == changed, err
        assert sorted(tmp_path.glob(".*.tmp")) == []


# --- bombs and damaged files -----------------------------------------------------------------


def _rezip(source: Path, target: Path, change) -> Path:
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = change(info.filename, old.read(info.filename))
            if data is not None:
                new.writestr(info.filename, data)
    old = time.time() - 3600
    os.utime(target, (old, old))
    return target


def test_a_merged_range_over_the_whole_sheet_is_refused_before_it_costs(small_season, tmp_path):
    merge = b'<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>'
    path = _rezip(small_season, tmp_path / "fusion.xlsx", lambda name, data: data.replace(
        b"</sheetData>", b"</sheetData>" + merge) if name == "xl/worksheets/sheet1.xml" else data)
    with pytest.raises(WorkbookError, match=r"déclare plus de 2 000 000 cellules .xl/worksheets/sheet1.xml. : "
                                            r"fichier piégé ou bien trop gros"):
        Book(path)


def test_millions_of_declared_cells_are_refused_before_parsing(small_season, tmp_path, monkeypatch):
    monkeypatch.setattr(safe, "MAX_CELLS", 50)
    with pytest.raises(WorkbookError, match="déclare plus de 50 cellules"):
        Book(small_season)


def _sheet_of(path: Path, name: str) -> str:
    return f"xl/worksheets/sheet{openpyxl.load_workbook(path).sheetnames.index(name) + 1}.xml"


DAMAGES = {
    "entités dans un .rels": (lambda n, d: b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "x">]><Relationships>&a;'
                              b'</Relationships>' if n == "xl/_rels/workbook.xml.rels" else d, "entités"),
    "XML cassé dans un .rels de feuille": (lambda n, d: d[:-20] if n.startswith("xl/worksheets/_rels/") else d,
                                           "endommagé"),
    "styles tronqués": (lambda n, d: d[: len(d) // 2] if n == "xl/styles.xml" else d, "endommagé"),
    "type de cellule inconnu": (lambda n, d: d.replace(b't="s"', b't="zz"', 1) if n.startswith("xl/worksheets/s")
                                else d, "endommagé"),
    "table sans nom": (lambda n, d: d.replace(b'displayName="Points"', b'displayName=""') if n.startswith(
        "xl/tables/") else d, None),
    "partie du classeur absente": (lambda n, d: None if n == "xl/styles.xml" else d, None),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_damaged_files_get_one_sentence_and_status_1(damage, small_season, tmp_path, capsys):
    change, expected = DAMAGES[damage]
    path = _rezip(small_season, tmp_path / "abime.xlsx", change)
    status = main(["fill", str(path), "-o", str(tmp_path / "sortie.xlsx")])
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    if status:
        assert status == 1 and err and (expected is None or expected in err), err
        assert err.count("\n") == 0 or err.startswith(("1 problème", f"{err.split()[0]} problèmes"))


def test_an_output_table_renamed_in_lower_case_is_still_the_output_table(small_season, tmp_path, capsys):
    book = Book(small_season)
    tdf_book.fill(book)
    book.save()
    path = _rezip(small_season, tmp_path / "minuscules.xlsx", lambda n, d: d.replace(
        b'displayName="Classement"', b'displayName="classement"').replace(b'name="Classement"', b'name="classement"')
        if n.startswith("xl/tables/") else d)
    assert main(["fill", str(path)]) == 0
    assert [r["Joueur"] for r in table_dicts(openpyxl.load_workbook(path)["Classement"], "classement")][:1] == ["Alice"]


def test_a_text_cell_saying_sparklinegroup_is_no_sparkline(small_season):
    wb = openpyxl.load_workbook(small_season)
    wb["Tournois"]["H1"] = "<x14:sparklineGroup> et sparklineGroup"
    wb.save(small_season)
    assert Book(small_season).unkept == []


# --- names that may be typos -----------------------------------------------------------------


def test_name_variants_are_warned_with_their_cells(tmp_path):
    path = write_season(tmp_path / "noms.xlsx", [("Open", dt.date(2025, 10, 1), "normal", None)],
                        [("Open", "Alice Martin", 1, None, None), ("Open", "alice martin", 2, None, None)])
    summary = tdf_book.compute(Book(path))
    assert "« Alice Martin » (Résultats!B2) et « alice martin » (Résultats!B3) sont-ils la même personne (ne " \
           "diffèrent que par les majuscules ou les accents) ?" in " ".join(summary.warnings)


def test_a_joueurs_entry_matching_no_result_is_warned_with_its_cell(tmp_path):
    wb = tdf_book.new_workbook()
    from xlcircuit.workbook.write import type_rows
    type_rows(wb, tdf_book.JOUEURS, [("Alise Martin", "Club A"), ("Bruno", "Club B")])
    type_rows(wb, tdf_book.TOURNOIS, [("Open", dt.date(2025, 10, 1), "normal", None)])
    type_rows(wb, tdf_book.RESULTATS, [("Open", "Alice Martin", 1, None, None), ("Open", "Bruno", 2, None, None)])
    path = save_atomic(wb, tmp_path / "clubs.xlsx")
    summary = tdf_book.compute(Book(path))
    assert ("Joueurs!A2 : « Alise Martin », de la table « Joueurs », n'a aucun résultat ; faute de frappe pour "
            "« Alice Martin » ? (il ne figure donc dans aucun classeur de club). Si c'est la même personne : "
            'xlcircuit fusion CLASSEUR.xlsx "Alise Martin" "Alice Martin"') in summary.warnings


def test_share_by_club_lists_the_players_without_a_club(tmp_path, capsys):
    wb = tdf_book.new_workbook()
    from xlcircuit.workbook.write import type_rows
    type_rows(wb, tdf_book.JOUEURS, [("Bruno", "Club B")])
    type_rows(wb, tdf_book.TOURNOIS, [("Open", dt.date(2025, 10, 1), "normal", None)])
    type_rows(wb, tdf_book.RESULTATS, [("Open", "Alice", 1, None, None), ("Open", "Bruno", 2, None, None),
                                       ("Open", "Chloé", 3, None, None)])
    path = save_atomic(wb, tmp_path / "clubs.xlsx")
    assert main(["share", str(path), "--clubs", str(tmp_path / "clubs")]) == 0
    assert ("  - 2 joueurs sans club, dans aucun classeur de club (ajoutez-les à la table « Joueurs » si "
            "c'est un oubli) : Alice, Chloé.") in capsys.readouterr().err
