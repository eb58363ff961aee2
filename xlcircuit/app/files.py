"""Files the use cases write besides workbooks (CSV, PDF, text), each whole or not at all, with names every file
system takes; and why one could not be written, in French.

A file is written into a temporary file beside it, flushed to disk, then put in its place by one rename, as the
workbook engine saves workbooks (``xlsx.save_atomic``): a full disk, a Ctrl-C or a crash leaves the file as it
was, never cut short. Temporary files are named as the engine names its own (``.NAME.xlcircuit-HOST-PID-XXXX.tmp``),
so that the next run removes what a killed one left.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import socket
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import IO

_HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:20] or "h"


def _short(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8, at a character's boundary."""
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def write_whole(target: Path, write: Callable[[IO[bytes]], None]) -> Path:
    """Write ``target`` whole or not at all: ``write`` fills a temporary file beside it, which then replaces it.

    On any failure (a full disk, a Ctrl-C), ``target`` is as it was and the temporary file is gone."""
    folder = target.parent if str(target.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f".{_short(target.name, 60)}.xlcircuit-{_HOST}-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        with open(temporary, "xb") as stream:  # created with the user's usual permissions (umask)
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        if target.exists():
            os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def write_text_whole(target: Path, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` into ``target``, whole or not at all."""
    data = text.encode(encoding)

    def put(stream: IO[bytes]) -> None:
        stream.write(data)

    return write_whole(target, put)


def copy_whole(source: Path, target: Path) -> Path:
    """Copy ``source`` (a file made elsewhere: a PDF in a temporary folder) to ``target``, whole or not at all."""
    def copy(stream: IO[bytes]) -> None:
        with open(source, "rb") as read:
            shutil.copyfileobj(read, stream)

    return write_whole(target, copy)


#: Characters no file system takes in a name: those Windows refuses, and control characters.
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f-\x9f]+')
#: Names Windows reserves, whatever their extension.
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(1, 10)}
#: The longest name made here, in bytes of UTF-8: file systems take 255, and the temporary file beside it and a
#: « (2) » need room (an accented or Asian name takes two to four bytes a character).
MAX_NAME_BYTES = 120


def safe_filename(name: str, limit: int = 80, fallback: str = "club") -> str:
    """A file name every file system takes, that still reads like ``name`` (``A/B: "C"`` -> ``A_B_ _C_``): control
    characters and those Windows refuses replaced, invisible formatting characters (a right-to-left override
    that would show ``exe.txt`` as ``txt.exe``) dropped, at most ``limit`` characters and
    :data:`MAX_NAME_BYTES` bytes, never a name Windows reserves."""
    text = "".join(c for c in name if unicodedata.category(c) not in ("Cf", "Zl", "Zp"))
    text = _UNSAFE.sub("_", text).strip().rstrip(". ")[:limit]
    text = _short(text, MAX_NAME_BYTES).rstrip(". ")
    if not text or text.strip("_ ") == "":
        text = fallback
    if text.split(".")[0].strip().lower() in _RESERVED:
        text = f"_{text}"
    return text


#: Why a file could not be written, by the system's error number, in French.
_WHY = {
    errno.ENOSPC: "disque plein", getattr(errno, "EDQUOT", -1): "quota du disque dépassé",
    errno.EACCES: "droits insuffisants", errno.EPERM: "droits insuffisants", errno.EROFS: "disque en lecture seule",
    errno.ENAMETOOLONG: "nom trop long", errno.EIO: "erreur du disque", errno.ENOENT: "dossier introuvable",
    errno.ENOTDIR: "dossier introuvable", errno.EISDIR: "un dossier porte déjà ce nom",
}


def why(error: BaseException) -> str:
    """Why a file could not be written, in a few French words."""
    if isinstance(error, OSError):
        return _WHY.get(error.errno or 0, error.strerror or str(error))
    return str(error).rstrip(".")
