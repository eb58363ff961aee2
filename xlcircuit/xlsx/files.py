"""Files on disk: who else is writing them, locks, read-only, temporary files and their leftovers, backups,
and the atomic save."""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import re
import shutil
import socket
import stat
import sys
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from ..rules.errors import WorkbookError
from .ooxml import Unsupported


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


def save_atomic(wb, target: str | os.PathLike[str], before_replace: Callable[[], None] | None = None,
                expected: str | None = None, check: Callable[[Path], None] | None = None) -> Path:
    """Write ``wb`` (a workbook, or anything with its ``save(path)``) to a temporary file beside ``target``,
    check it is a sound zip, then put it in ``target``'s place (:func:`_put_in_place`).

    Through a symbolic link, the file it points to is written (the link stays a link). ``before_replace`` runs
    last, just before the replacement (it may refuse it by raising). ``expected``: the digest ``target`` must still
    have (what was read), checked on what the replacement took away; if it is not, that is put back. ``check`` is
    given the file written, and may refuse it by raising. If anything fails, ``target`` is left as it was.
    Leftovers of killed runs are removed first.
    """
    target = Path(target)
    real = Path(os.path.realpath(target))
    folder = real.parent
    remove_leftovers(folder)
    tmp = _temp_beside(real)
    try:
        _write(wb, tmp, target.name)
        with zipfile.ZipFile(tmp) as archive:
            broken = archive.testzip()
        if broken is not None:
            raise WorkbookError(f"L'enregistrement de {target.name} a produit un fichier abîmé ({broken}) : "
                                "l'original n'a pas été modifié.")
        if check is not None:
            check(tmp)
        os.chmod(tmp, real.stat().st_mode & 0o777 if real.exists() else 0o666 & ~_umask())
        if before_replace is not None:
            before_replace()
        _put_in_place(tmp, real, expected, target.name)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _digits_as_text(wb) -> None:
    """A whole number beyond any spreadsheet's numbers (a cell of hundreds of digits) as its digits, in text:
    openpyxl cannot write it as a number (the surgical writer does the same)."""
    for ws in getattr(wb, "worksheets", ()):
        for cell in getattr(ws, "_cells", {}).values():
            value = cell._value
            if value.__class__ is int and abs(value) > sys.float_info.max:
                cell.value = str(value)


def _write(wb, tmp: Path, name: str) -> None:
    """``wb.save(tmp)``, flushed to the disk; anything failing is one sentence, the original untouched."""
    try:
        with _own_system_temp():
            if hasattr(wb, "worksheets"):  # an openpyxl workbook (the surgical writer has its own)
                _digits_as_text(wb)
            wb.save(tmp)
        with tmp.open("rb+") as written:
            os.fsync(written.fileno())  # on disk before it replaces the original
    except OSError as exc:
        raise WorkbookError(f"Impossible d'enregistrer {name} ({exc.strerror or exc}) : l'original n'a pas été "
                            "modifié.") from None
    except MemoryError:
        raise WorkbookError(f"Impossible d'enregistrer {name} : la mémoire de cet ordinateur n'y suffit pas ; "
                            "l'original n'a pas été modifié.") from None
    except (Unsupported, ValueError, TypeError, KeyError, AttributeError, IndexError, zipfile.BadZipFile,
            zlib.error, EOFError) as exc:
        # openpyxl's writer meeting what its reader let through from a damaged file, or a member of the
        # original that cannot be copied
        what = str(exc) if isinstance(exc, Unsupported) else type(exc).__name__
        raise WorkbookError(f"Impossible d'enregistrer {name}, une partie du classeur lu est abîmée ({what}) : "
                            "l'original n'a pas été modifié ; ouvrez-le dans votre tableur, enregistrez-le sous un "
                            "autre nom, puis relancez.") from None


# --- putting a written file in place: an atomic exchange where the system has one --------------------


def changed_meanwhile(name: str) -> WorkbookError:
    return WorkbookError(f"{name} a été modifié par un autre programme pendant le travail de xlcircuit : rien n'a "
                         "été écrit (l'autre enregistrement est intact), relancez.")


def _locked(name: str) -> WorkbookError:
    return WorkbookError(f"{name} est ouvert dans un autre programme (Excel ?) : fermez-le et relancez.")


def _put_in_place(tmp: Path, target: Path, expected: str | None, name: str) -> None:
    """Put the file written at ``tmp`` in ``target``'s place, atomically.

    Where the system exchanges two names atomically (Linux, macOS, Windows' ReplaceFile), the exchange is made,
    then what it took away is compared with ``expected``: another program that saved ``target`` in between (a
    temporary file renamed onto it, as Excel and LibreOffice save) gets its save put back, and nothing is
    written. Elsewhere ``target`` is compared just before a plain replacement."""
    try:
        if not os.path.lexists(target):
            _new_file(tmp, target, name)
            return
        previous = _exchange(tmp, target)
        if previous is None:  # no atomic exchange here: compared, then replaced
            if expected is not None and file_digest(target) != expected:
                raise changed_meanwhile(name)
            os.replace(tmp, target)
            return
        if expected is not None and file_digest(previous) != expected:
            _put_back(previous, target, name)
            raise changed_meanwhile(name)
        previous.unlink(missing_ok=True)
    except PermissionError:
        raise _locked(name) from None
    except OSError as exc:
        raise WorkbookError(f"Impossible d'enregistrer {name} ({exc.strerror or exc}) : l'original n'a pas été "
                            "modifié.") from None


def _new_file(tmp: Path, target: Path, name: str) -> None:
    """``tmp`` given the name ``target``, which must still be free (a file that appeared meanwhile is kept)."""
    try:
        os.link(tmp, target)  # fails if the name is taken, instead of replacing it
    except FileExistsError:
        raise WorkbookError(f"{name} a été créé par un autre programme pendant l'enregistrement : rien n'a été "
                            "écrit (ce fichier est intact), relancez.") from None
    except OSError:  # a file system without hard links
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        os.replace(tmp, target)
        return
    tmp.unlink()


def _put_back(previous: Path, target: Path, name: str) -> None:
    """Put back in ``target``'s place the other program's save, which the exchange moved to ``previous``; if
    the system refuses, keep it beside, under a name no file has."""
    try:
        ours = _exchange(previous, target)
        if ours is not None:
            if ours != previous:  # Windows: the fill, kept as ReplaceFile's backup
                ours.unlink(missing_ok=True)
            return
    except OSError:
        pass
    kept = _copy_new(previous, _names_beside(target, "enregistré par un autre programme"))
    raise WorkbookError(f"{name} a été enregistré par un autre programme pendant le remplissage : cet "
                        f"enregistrement est gardé dans « {kept.name} », à côté du classeur rempli ; comparez-les, "
                        "puis relancez.")


def _names_beside(path: Path, words: str) -> Iterator[Path]:
    """``NOM (words[ N]).xlsx``, N = 2, 3... after the first."""
    n = 1
    while True:
        yield path.with_name(f"{path.stem} ({words}{'' if n == 1 else f' {n}'}){path.suffix}")
        n += 1


def file_digest(path: Path) -> str | None:
    """The SHA-256 of a file's bytes (None: it cannot be read)."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def _exchange(tmp: Path, target: Path) -> Path | None:
    """``tmp`` put in ``target``'s place in one step; returns where the file it replaced now is (None: this
    system cannot, and nothing was done)."""
    swap = _system_exchange()
    if swap is None:
        return None
    return swap(tmp, target)


@functools.cache
def _system_exchange() -> Callable[[Path, Path], Path | None] | None:
    """The system's atomic exchange of two names: Linux ``renameat2(RENAME_EXCHANGE)``, macOS
    ``renamex_np(RENAME_SWAP)``, Windows ``ReplaceFileW`` (the replaced file kept as a backup)."""
    import ctypes

    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = getattr(libc, "renameat2", None)
        if renameat2 is None:
            return None
        renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        at_cwd, exchange = -100, 2
        return lambda a, b: _swapped(renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), exchange), a, b)
    if sys.platform == "darwin":
        libc = ctypes.CDLL(None, use_errno=True)
        renamex_np = getattr(libc, "renamex_np", None)
        if renamex_np is None:
            return None
        renamex_np.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        return lambda a, b: _swapped(renamex_np(os.fsencode(a), os.fsencode(b), 2), a, b)
    if sys.platform == "win32":
        return _windows_replace
    return None


def _swapped(result: int, a: Path, b: Path) -> Path | None:
    """A swap's outcome: ``a`` now holds what ``b`` held; None where the file system cannot swap."""
    if result == 0:
        return a
    import ctypes

    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):  # this file system cannot
        return None
    raise OSError(code, os.strerror(code), str(b))


def _windows_replace(tmp: Path, target: Path) -> Path | None:
    """Windows: ``ReplaceFileW`` puts ``tmp`` in ``target``'s place and keeps what it replaced as a backup."""
    import ctypes
    from ctypes import wintypes

    kernel = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    replace = kernel.ReplaceFileW
    replace.argtypes = [wintypes.LPCWSTR, wintypes.LPCWSTR, wintypes.LPCWSTR, wintypes.DWORD, wintypes.LPVOID,
                        wintypes.LPVOID]
    replace.restype = wintypes.BOOL
    backup = tmp.with_name(tmp.stem + "-avant.tmp")  # a leftover the next run removes
    if replace(str(target), str(tmp), str(backup), 0x2, None, None):  # REPLACEFILE_IGNORE_MERGE_ERRORS
        return backup
    code = ctypes.get_last_error()  # type: ignore[attr-defined]
    if code in (5, 32, 33):  # access denied, sharing violation, lock violation: open elsewhere
        raise PermissionError(13, "fichier verrouillé", str(target))
    if code == 1:  # ERROR_INVALID_FUNCTION: the file system cannot
        return None
    raise OSError(code, f"ReplaceFileW : erreur {code}", str(target))
