"""Files on disk: who else is writing them, locks, read-only, temporary files and their leftovers, backups,
and the atomic save."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import socket
import stat
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookError


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_size, status.st_mtime_ns


def _being_written(path: Path, before: tuple[int, int] | None) -> bool:
    """Whether another program is writing ``path`` (it changed since ``before``, or changes in a moment)."""
    now = _stamp(path)
    if now != before:
        return True
    if now is not None and time.time() - now[1] / 1e9 < 2:  # just written: is it still being written?
        time.sleep(0.5)
        return _stamp(path) != now
    return False


def _being_written_error(name: str) -> WorkbookError:
    return WorkbookError(f"{name} est en cours d'écriture par un autre programme : attendez qu'il ait fini "
                         "(ou fermez-le), puis relancez.")


def _damaged(path: Path, before: tuple[int, int] | None, sentence: str) -> WorkbookError:
    """The error for a file that cannot be read: damaged, unless another program is rewriting it."""
    return _being_written_error(path.name) if _being_written(path, before) else WorkbookError(sentence)


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


#: Lock files spreadsheet programs leave beside a workbook they have open.
LOCK_FILES = ((".~lock.{}#", "LibreOffice"), ("~${}", "Excel"))


def lock_of(path: Path) -> tuple[Path, str] | None:
    """The lock file beside ``path`` that says a spreadsheet program has it open, and the program."""
    for pattern, program in LOCK_FILES:
        lock = path.with_name(pattern.format(path.name))
        if lock.exists():
            return lock, program
    return None


def _read_only(path: Path) -> bool:
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & stat.S_IWUSR or not os.access(path, os.W_OK)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_HOST = re.sub(r"[^A-Za-z0-9]", "", socket.gethostname())[:20] or "h"
#: ``.NAME.xlcircuit-HOST-PID-XXXX.tmp`` beside the target; ``xlcircuit-HOST-PID-XXXX`` in the system temp.
_LEFTOVER = re.compile(r"xlcircuit-(?P<host>[A-Za-z0-9]*)-(?P<pid>\d+)-")
_STALE_SECONDS = 24 * 3600  # what another computer left (a shared folder) is removed after a day


def _temp_prefix() -> str:
    return f"xlcircuit-{_HOST}-{os.getpid()}-"


def _alive(pid: int) -> bool:
    if os.name != "posix":  # os.kill would end the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _stale(path: Path) -> bool:
    """Whether ``path`` was left by an xlcircuit run that is over (killed, or the computer stopped)."""
    match = _LEFTOVER.search(path.name)
    if match is None:
        return False
    pid = int(match["pid"])
    if match["host"] == _HOST and pid != os.getpid() and not _alive(pid):
        return True
    try:
        return time.time() - path.lstat().st_mtime > _STALE_SECONDS
    except OSError:
        return False


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove what killed xlcircuit runs left in ``folder`` and in the system temp folder; returns it."""
    removed = []
    candidates = [*_glob(folder, ".*.xlcircuit-*.tmp"), *_glob(Path(tempfile.gettempdir()), "xlcircuit-*")]
    for path in candidates:
        if not _stale(path):
            continue
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


def _glob(folder: Path, pattern: str) -> list[Path]:
    try:
        return list(folder.glob(pattern))
    except OSError:
        return []


def _temp_beside(target: Path) -> Path:
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name[:100]}.{_temp_prefix()}", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise WorkbookError(f"Dossier introuvable : {folder}") from None
    except PermissionError:
        raise WorkbookError(f"Impossible d'écrire dans le dossier {folder} (droits insuffisants).") from None
    except OSError as exc:
        raise WorkbookError(f"Impossible d'écrire dans le dossier {folder} ({exc.strerror or exc}).") from None
    os.close(handle)
    return Path(name)


@contextlib.contextmanager
def _own_system_temp() -> Iterator[None]:
    """openpyxl writes each sheet to the system temp folder first: there, in a folder of this run's."""
    folder = tempfile.mkdtemp(prefix=_temp_prefix())
    previous = tempfile.tempdir
    tempfile.tempdir = folder
    try:
        yield
    finally:
        tempfile.tempdir = previous
        shutil.rmtree(folder, ignore_errors=True)


def _copy_new(source: Path, names: Iterator[Path]) -> Path:
    """Copy ``source`` to the first of ``names`` that is free, never replacing a file: whole or not at all."""
    tmp = _temp_beside(source)
    try:
        try:
            shutil.copy2(source, tmp)
            with tmp.open("rb+") as written:
                os.fsync(written.fileno())
        except OSError as exc:
            raise WorkbookError(f"Impossible de garder une copie de {source.name} ({exc.strerror or exc}) : rien "
                                "n'a été écrit.") from None
        for candidate in names:
            try:
                os.link(tmp, candidate)  # fails if the name is taken, instead of replacing it
            except FileExistsError:
                continue
            except OSError:  # a file system without hard links
                try:
                    os.close(os.open(candidate, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    continue
                os.replace(tmp, candidate)
            return candidate
    finally:
        tmp.unlink(missing_ok=True)
    raise AssertionError("unreachable: the names never end")


def save_atomic(wb: Workbook, target: Path, before_replace: Callable[[], None] | None = None) -> Path:
    """Write to a temporary file beside ``target``, check it is a sound zip, then replace ``target``.

    ``before_replace`` runs last, just before the replacement (it may refuse it by raising). If anything
    fails, ``target`` is left as it was. Leftovers of killed runs are removed first.
    """
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    remove_leftovers(folder)
    tmp = _temp_beside(target)
    try:
        try:
            with _own_system_temp():
                wb.save(tmp)
            with tmp.open("rb+") as written:
                os.fsync(written.fileno())  # on disk before it replaces the original
        except OSError as exc:
            raise WorkbookError(f"Impossible d'enregistrer {target.name} ({exc.strerror or exc}) : "
                                "l'original n'a pas été modifié.") from None
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            # openpyxl's writer meeting what its reader let through from a damaged file
            raise WorkbookError(f"Impossible d'enregistrer {target.name}, une partie du classeur lu est abîmée "
                                f"({type(exc).__name__}) : l'original n'a pas été modifié ; ouvrez-le dans votre "
                                "tableur, enregistrez-le sous un autre nom, puis relancez.") from None
        with zipfile.ZipFile(tmp) as archive:
            broken = archive.testzip()
        if broken is not None:
            raise WorkbookError(f"L'enregistrement de {target.name} a produit un fichier abîmé ({broken}).")
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        if before_replace is not None:
            before_replace()
        try:
            os.replace(tmp, target)
        except PermissionError:
            raise WorkbookError(
                f"{target.name} est ouvert dans un autre programme (Excel ?) : fermez-le et relancez."
            ) from None
    finally:
        tmp.unlink(missing_ok=True)
    return target

