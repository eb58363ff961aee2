"""Every command's output on a Windows console: cp850 (France's console default) and cp1252, redirected to a
file or a pipe, never ends in a traceback; what the code page cannot show is written in plain ASCII."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_season

from xlcircuit import cli


def run(args: list[str], encoding: str, cwd: Path) -> tuple[int, str, str]:
    """``xlcircuit ARGS`` with its output piped, as Windows encodes a redirected console in ``encoding``."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run([sys.executable, "-m", "xlcircuit.cli", *args], capture_output=True, cwd=cwd, env=env,
                          timeout=300)
    # Decoding in the console's code page never fails: nothing was written that it cannot show.
    return done.returncode, done.stdout.decode(encoding), done.stderr.decode(encoding)


@pytest.fixture(scope="module")
def season(tmp_path_factory) -> Path:
    """A season whose names no code page has (Ł, œ), with warnings (« À vérifier ») and a long dash."""
    folder = tmp_path_factory.mktemp("console")
    return write_season(folder / "Saison Œuvre 2025.xlsx",
                        [("Open — Łódź", dt.date(2025, 10, 1), "normal", None),
                         ("France", dt.date(2026, 5, 1), "majeur", None)],
                        [("Open — Łódź", "Łukasz Nowak", 1, None, None), ("Open — Łódź", "Chloé Cœur", 2, None, None),
                         ("Open — Łódź", "chloé cœur", 3, None, None), ("France", "Łukasz Nowak", 2, None, None),
                         ("France", "Chloé Cœur", 1, None, None)])


@pytest.mark.parametrize("encoding", ["cp850", "cp1252"])
def test_every_command_writes_to_a_windows_console(season, tmp_path, encoding):
    name = str(season)
    commands = [
        (["--help"], 0), (["fill", "--help"], 0), (["fil", name], 2),
        (["new", "tdf", str(tmp_path / "Nouvelle œuvre.xlsx")], 0),
        (["check", name], 0), (["fill", name, "-o", str(tmp_path / "rempli Œ.xlsx")], 0),
        (["explain", name, "Łukasz Nowak"], 0), (["explain", name, "Personne"], 1),
        (["share", name, "--csv", str(tmp_path / "csv")], 0),
        (["excel", "docs"], 0), (["excel", "lite"], 0),
        (["demo", str(tmp_path / "démo")], 0),
    ]
    for args, status in commands:
        code, out, err = run(args, encoding, tmp_path)
        assert "Traceback" not in err and "UnicodeEncodeError" not in err, (args, err)
        assert code == status, (args, code, out, err)
    code, out, err = run(["fill", name, "-o", str(tmp_path / "r2.xlsx")], encoding, tmp_path)
    assert "Lukasz Nowak" in out  # Ł, in no code page, written as L: the name still reads
    assert "Chloé C" in out + err  # é is in both code pages: kept
    code, out, err = run(["explain", name, "Łukasz Nowak"], encoding, tmp_path)
    dash = "-" if encoding == "cp850" else "—"  # cp1252 has « — », cp850 does not
    assert f"Lukasz Nowak {dash} Tour de France" in out and "-> " in out  # « → » in neither


def test_the_handler_writes_plain_ascii_for_what_a_code_page_lacks():
    assert "… — → Ł ᵉ œ «".encode("cp850", errors=cli.CONSOLE_ERRORS) == b'... - -> L e oe \xae'
    assert "… — → Ł ᵉ œ".encode("cp1252", errors=cli.CONSOLE_ERRORS) == "… — -> L e œ".encode("cp1252")
