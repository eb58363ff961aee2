"""LibreOffice headless, the spreadsheet program that turns a workbook into PDF or CSV here."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from ..rules.errors import XlcircuitError

#: Every sheet to UTF-8 CSV, comma-separated, one file per sheet (``NAME-Sheet.csv``).
CSV_ALL_SHEETS = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
TIMEOUT = 300  # seconds; a conversion usually takes two
#: The private profile's settings for a French print: the locale (decimal comma, dd/mm/yyyy) whatever the
#: machine's, since LibreOffice formats numbers in the process locale (LANG=C gives dot decimals).
FRENCH_PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Setup/L10N">
 <prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>fr-FR</value></prop></item>
<item oor:path="/org.openoffice.Office.Linguistic/General">
 <prop oor:name="DefaultLocale" oor:op="fuse"><value>fr-FR</value></prop></item>
</oor:items>
"""


#: Whether this is Windows, where programs are ``.exe`` files in their install folder, seldom on the PATH.
WINDOWS = sys.platform == "win32"


def _install_folders() -> list[Path]:
    """Where LibreOffice's installers put its program, on this system."""
    if WINDOWS:
        roots = {os.environ.get(name) for name in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)")}
        return [Path(root) / "LibreOffice" / "program" for root in sorted(r for r in roots if r)]
    if sys.platform == "darwin":
        return [Path("/Applications/LibreOffice.app/Contents/MacOS")]
    return [*sorted(Path("/opt").glob("libreoffice*/program"))]  # libreoffice.org's packages; the system's are on PATH


def _path_folders() -> list[Path]:
    """The PATH's folders, absolute ones only: a relative entry ("", ".") would be the current folder, a
    workbook's folder maybe, where a file named soffice could wait (Windows' own search looks there first)."""
    folders = []
    for entry in os.environ.get("PATH", os.defpath).split(os.pathsep):
        entry = entry.strip().strip('"')
        if entry and os.path.isabs(entry):
            folders.append(Path(entry))
    return folders


def find() -> str | None:
    """The LibreOffice command, if installed: looked for on the PATH's absolute folders, then in the install
    folders; never in the current folder (unlike ``shutil.which`` on Windows)."""
    names = ("soffice.exe", "soffice.com") if WINDOWS else ("soffice", "libreoffice")
    for name in names:
        for folder in (*_path_folders(), *_install_folders()):
            candidate = folder / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    return None


def require() -> str:
    """The LibreOffice command, or a clear message on how to install it."""
    program = find()
    if program is None:
        raise XlcircuitError(
            "Le PDF est fait par LibreOffice, qui n'est pas installé : installez-le (Debian, Ubuntu : "
            "sudo apt-get install libreoffice-calc-nogui ; Windows, Mac : libreoffice.org), puis relancez."
        )
    return program


def convert(source: Path, folder: Path, to: str, french: bool | None = None) -> list[Path]:
    """Convert ``source`` into ``folder`` (``to``: ``pdf``, or a filter such as :data:`CSV_ALL_SHEETS`).

    ``french`` (default: for a PDF) formats numbers and dates the French way whatever the machine's locale.

    A copy is converted, in a private profile: a stale lock file beside the original, or a
    LibreOffice already running, would make the conversion fail silently.
    """
    program = require()
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / source.name
        shutil.copy(source, copy)
        out = Path(work) / "out"
        profile = Path(work) / "profil"
        if french if french is not None else to.startswith("pdf"):
            (profile / "user").mkdir(parents=True)
            (profile / "user" / "registrymodifications.xcu").write_text(FRENCH_PROFILE, encoding="utf-8")
        run = subprocess.run(
            [program, "--headless", "--norestore", f"-env:UserInstallation={profile.as_uri()}",
             "--convert-to", to, "--outdir", str(out), str(copy)],
            capture_output=True, text=True, timeout=TIMEOUT,
        )
        produced = sorted(out.glob(f"{copy.stem}*")) if out.exists() else []
        if run.returncode != 0 or not produced:
            detail = (run.stderr or run.stdout).strip().splitlines()
            raise XlcircuitError(f"LibreOffice n'a pas pu convertir {source.name}"
                                 f"{' (' + detail[-1] + ')' if detail else ''}.")
        return [_put(p, folder / p.name) for p in produced]


_HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:20] or "h"


def _put(source: Path, target: Path) -> Path:
    """Put a converted file in its place whole or not at all (the system's temporary folder may be another disk,
    where a move is a copy): copied beside ``target``, flushed to disk, then renamed. The temporary file is named
    as the engine names its own, so that the next run removes what a killed one left."""
    temporary = target.with_name(f".{target.name[:40]}.xlcircuit-{_HOST}-{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "xb") as stream, source.open("rb") as read:  # the user's usual permissions (umask)
            shutil.copyfileobj(read, stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target
