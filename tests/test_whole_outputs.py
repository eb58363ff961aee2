"""Every file a share or an explanation writes (CSV, club workbooks, PDF, text) is whole or absent, never cut
short by a full disk; a share says which files it wrote and which it could not, and why; names from the workbook
(a club's, the workbook's own) become file names every file system takes, without invisible characters."""

from __future__ import annotations

import builtins
import datetime as dt
import errno
import io
import os
import re
import tempfile
from pathlib import Path

import openpyxl
import pytest
from conftest import need_libreoffice, table_dicts, write_season

from xlcircuit.cli import main
from xlcircuit.federations import tdf as tdf_book
from xlcircuit.workbook.write import type_rows


class FullDisk:
    """A disk with ``free`` bytes left for the files written under ``root``: the write that would pass them
    writes what fits, then fails with ENOSPC (as a real full disk does); deleting gives no room back."""

    def __init__(self, root: Path, free: int):
        self.root, self.free = str(root), free
        self.failed: list[str] = []


class _Stream:
    def __init__(self, stream, disk: FullDisk, name: str):
        self._stream, self._disk, self._name = stream, disk, name

    def write(self, data):
        size = len(data)
        if size > self._disk.free:
            fits = self._disk.free
            self._stream.write(data[:fits])
            self._stream.flush()
            self._disk.free = 0
            self._disk.failed.append(self._name)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._disk.free -= size
        return self._stream.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._stream.close()

    def __iter__(self):
        return iter(self._stream)

    def __getattr__(self, name):
        return getattr(self._stream, name)


@pytest.fixture
def full_disk(monkeypatch, tmp_path):
    """``full_disk(free, root)``: from now on, files opened for writing under ``root`` (default ``tmp_path``) have
    ``free`` bytes in all."""
    real_open = builtins.open

    def arm(free: int, root: Path | None = None) -> FullDisk:
        disk = FullDisk(root or tmp_path, free)

        def limited_open(file, mode="r", *args, **kwargs):
            stream = real_open(file, mode, *args, **kwargs)
            writing = any(c in mode for c in "wxa+")
            if writing and "b" in mode and isinstance(file, (str, os.PathLike)) and \
                    os.path.abspath(os.fspath(file)).startswith(disk.root):
                return _Stream(stream, disk, os.path.basename(os.fspath(file)))
            return stream

        monkeypatch.setattr(builtins, "open", limited_open)
        monkeypatch.setattr(io, "open", limited_open)
        return disk

    return arm


def season(tmp_path: Path, clubs: list[str], name: str = "saison.xlsx") -> Path:
    """Two tournaments, a player per club (``Joueur 1`` of the first club…)."""
    players = [f"Joueur {i + 1}" for i in range(len(clubs))]
    path = write_season(tmp_path / name,
                        [("Open A", dt.date(2025, 10, 1), "normal", None), ("France", dt.date(2026, 5, 1), "majeur", None)],
                        [(t, p, i + 1, None, None) for t in ("Open A", "France") for i, p in enumerate(players)])
    wb = openpyxl.load_workbook(path)
    type_rows(wb, tdf_book.JOUEURS, list(zip(players, clubs)))
    wb.save(path)
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*"))


def written_lines(out: str, start: str) -> list[Path]:
    return [Path(line[len(start):]) for line in out.splitlines() if line.startswith(start)]


# --- CSV ---------------------------------------------------------------------------------------------------


def test_csv_on_a_full_disk_leaves_whole_files_or_none_and_says_which(tmp_path, capsys, full_disk):
    path = season(tmp_path, ["Club A", "Club B"])
    assert main(["share", str(path), "--csv", str(tmp_path / "témoin")]) == 0
    reference = written_lines(capsys.readouterr().out, "CSV écrit : ")
    assert [p.name for p in reference] == ["saison-Points.csv", "saison-Classement.csv"]
    sizes = [p.stat().st_size for p in reference]
    folder = tmp_path / "partage"
    full_disk(sizes[0] + sizes[1] // 2)  # room for the first table and half the second
    assert main(["share", str(path), "--csv", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert written_lines(out, "CSV écrit : ") == [folder / reference[0].name]
    assert err.strip() == f"CSV : 1 fichier CSV non écrit : {reference[1].name} (disque plein)."
    assert sorted(p.name for p in folder.iterdir()) == [reference[0].name]  # no half table, no temporary file
    assert (folder / reference[0].name).read_bytes() == reference[0].read_bytes()


def test_a_csv_rewritten_on_a_full_disk_keeps_its_previous_version(tmp_path, capsys, full_disk):
    path = season(tmp_path, ["Club A"])
    folder = tmp_path / "partage"
    assert main(["share", str(path), "--csv", str(folder)]) == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    capsys.readouterr()
    full_disk(10)
    assert main(["share", str(path), "--csv", str(folder)]) == 1
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert "(disque plein)" in capsys.readouterr().err


# --- club workbooks ------------------------------------------------------------------------------------------


def test_a_club_name_too_long_for_a_file_name_still_gets_its_workbook(tmp_path, capsys):
    """32 clubs, one named with 200 characters of four bytes each (800 bytes: file systems take 255)."""
    long = "\U0001d507" * 200
    clubs = [f"Club {i:02}" for i in range(31)] + [long]
    path = season(tmp_path, clubs)
    assert main(["share", str(path), "--clubs", str(tmp_path / "clubs")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"32 classeurs de club écrits dans {tmp_path / 'clubs'} :"
    files = sorted((tmp_path / "clubs").iterdir())
    assert len(files) == 32 and all(len(p.name.encode()) <= 255 for p in files)
    mine = [p for p in files if "\U0001d507" in p.name]
    assert len(mine) == 1
    assert table_dicts(openpyxl.load_workbook(mine[0])["Mon club"], "MonClub")[0]["Joueur"] == "Joueur 32"


def test_clubs_on_a_full_disk_are_each_whole_or_absent_and_the_share_says_which(tmp_path, capsys, full_disk):
    path = season(tmp_path, ["Club A", "Club B", "Club C"])
    assert main(["share", str(path), "--clubs", str(tmp_path / "témoin")]) == 0
    capsys.readouterr()
    first = tmp_path / "témoin" / "Classement - Club A.xlsx"
    folder = tmp_path / "clubs"
    disk = full_disk(first.stat().st_size * 3 // 2)  # room for one workbook, not two
    assert main(["share", str(path), "--clubs", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"1 classeur de club écrit dans {folder} :", "  Club A : Classement - Club A.xlsx"]
    assert err.strip() == ("clubs : 2 classeurs de club non écrits : Club B (Impossible d'enregistrer Classement - "
                           "Club B.xlsx (No space left on device) : l'original n'a pas été modifié) ; Club C "
                           "(Impossible d'enregistrer Classement - Club C.xlsx (No space left on device) : l'original "
                           "n'a pas été modifié).")
    assert disk.failed
    assert sorted(p.name for p in folder.iterdir()) == ["Classement - Club A.xlsx"]
    assert table_dicts(openpyxl.load_workbook(folder / "Classement - Club A.xlsx")["Mon club"], "MonClub")


@pytest.mark.parametrize("club, shown", [
    ("Evil\u202egpj.exe", "Classement - Evilgpj.exe.xlsx"),  # a right-to-left override: « exe.jpg » on screen
    ("A\u009bB\u200fC\u2066D", "Classement - A_BCD.xlsx"),  # C1 control, right-to-left mark, isolate
    ("Les\u200bStratèges\ufeff", "Classement - LesStratèges.xlsx"),  # zero-width space, byte-order mark
])  # fmt: skip
def test_invisible_characters_of_a_club_name_are_not_kept_in_its_file_name(tmp_path, capsys, club, shown):
    path = season(tmp_path, [club])
    assert main(["share", str(path), "--clubs", str(tmp_path / "clubs")]) == 0
    assert [p.name for p in (tmp_path / "clubs").iterdir()] == [shown]


def test_a_workbook_name_with_a_right_to_left_override_gives_csv_names_without_it(tmp_path, capsys):
    path = season(tmp_path, ["Club A"], name="saison\u202exslx.xlsx")
    assert main(["share", str(path), "--csv", str(tmp_path / "csv")]) == 0
    names = [p.name for p in (tmp_path / "csv").iterdir()]
    assert names and all(name.startswith("saisonxslx-") and "\u202e" not in name for name in names)


# --- explain -------------------------------------------------------------------------------------------------


def test_an_explanation_on_a_full_disk_is_not_left_cut_short(tmp_path, capsys, full_disk):
    path = season(tmp_path, ["Club A", "Club B"])
    target = tmp_path / "explication.txt"
    target.write_text("l'ancienne explication\n", encoding="utf-8")
    full_disk(40)
    assert main(["explain", str(path), "Joueur 1", "-o", str(target)]) == 1
    assert target.read_text(encoding="utf-8") == "l'ancienne explication\n"
    assert "disque plein" in capsys.readouterr().err
    assert leftovers(tmp_path) == []


# --- PDF: made in the system's temporary folder, maybe another disk ----------------------------------------------


@pytest.fixture
def temp_on_another_disk(tmp_path, monkeypatch) -> Path:
    """The system's temporary folder as another disk: renames from it fail (EXDEV), a move becomes a copy."""
    system = tmp_path / "système"
    system.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system))

    def crossing(source, target) -> bool:
        inside = [os.path.realpath(os.fspath(p)).startswith(str(system.resolve())) for p in (source, target)]
        return inside[0] and not inside[1]

    for name in ("rename", "replace"):
        real = getattr(os, name)

        def moved(source, target, *args, real=real, **kwargs):
            if crossing(source, target):
                raise OSError(errno.EXDEV, os.strerror(errno.EXDEV), os.fspath(source))
            return real(source, target, *args, **kwargs)

        monkeypatch.setattr(os, name, moved)
    return system


def test_the_pdf_is_whole_or_absent_when_the_disk_fills(tmp_path, capsys, full_disk, temp_on_another_disk):
    need_libreoffice()
    path = season(tmp_path, ["Club A"])
    full_disk(2000, root=tmp_path / "pdf")  # the share's disk is nearly full; the system's temporary folder is not
    assert main(["share", str(path), "--pdf", str(tmp_path / "pdf")]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(r"PDF : .*disque plein.*\n", err), err
    assert list((tmp_path / "pdf").iterdir()) == []


def test_explain_writes_its_pdf_when_the_temporary_folder_is_on_another_disk(tmp_path, capsys, temp_on_another_disk):
    need_libreoffice()
    path = season(tmp_path, ["Club A"])
    target = tmp_path / "joueur.pdf"
    assert main(["explain", str(path), "Joueur 1", "-o", str(target)]) == 0
    assert target.read_bytes().startswith(b"%PDF") and leftovers(tmp_path) == []
