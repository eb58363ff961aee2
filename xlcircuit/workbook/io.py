"""Opening and saving workbooks safely: one clear sentence for a bad file, atomic saves,
and the mark that says which federation a workbook belongs to."""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path
from xml.etree.ElementTree import ParseError

import openpyxl
from openpyxl.packaging.custom import StringProperty
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook

from ..errors import WorkbookError

#: Name of the custom document property holding the federation ("Fichier > Propriétés > Personnalisé").
FEDERATION_PROPERTY = "xlcircuit"


def _load(path: Path, data_only: bool = False) -> Workbook:
    name = path.name
    try:
        return openpyxl.load_workbook(path, data_only=data_only, keep_vba=path.suffix.lower() == ".xlsm")
    except FileNotFoundError:
        raise WorkbookError(f"Fichier introuvable : {path}") from None
    except IsADirectoryError:
        raise WorkbookError(f"{path} est un dossier, pas un classeur.") from None
    except PermissionError:
        raise WorkbookError(f"{name} est verrouillé : fermez-le dans Excel (ou l'autre programme) et relancez.") from None
    except InvalidFileException:
        raise WorkbookError(
            f"{name} n'est pas un classeur .xlsx : ouvrez-le dans votre tableur et enregistrez-le au format .xlsx."
        ) from None
    except zipfile.BadZipFile:
        raise WorkbookError(
            f"{name} n'est pas un classeur .xlsx lisible (fichier vide, tronqué, protégé par mot de passe ou d'un autre format)."
        ) from None
    except KeyError:
        raise WorkbookError(f"{name} est une archive zip qui ne contient pas de classeur Excel.") from None
    except (ParseError, ValueError, TypeError, OSError) as exc:
        raise WorkbookError(f"{name} est endommagé et ne peut pas être lu ({exc}).") from None


class Book:
    """A workbook opened for reading and, maybe, writing back.

    Cells holding a formula are read through their value as last calculated by the spreadsheet
    program (a second, values-only load, made only when a formula is met).
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.wb = _load(self.path)
        self._values: Workbook | None = None

    def value(self, cell) -> object:
        """What a cell shows: its value, or for a formula its last calculated value."""
        if cell.data_type != "f":
            return cell.value
        if self._values is None:
            self._values = _load(self.path, data_only=True)
        return self._values[cell.parent.title][cell.coordinate].value

    @property
    def federation(self) -> str | None:
        """The federation this workbook belongs to, as recorded by ``xlcircuit new``."""
        props = self.wb.custom_doc_props
        return props[FEDERATION_PROPERTY].value if FEDERATION_PROPERTY in props.names else None

    def save(self, target: str | os.PathLike[str] | None = None) -> Path:
        """Save atomically to ``target`` (default: where it was read)."""
        return save_atomic(self.wb, Path(target) if target else self.path)


def mark_federation(wb: Workbook, federation: str) -> None:
    """Record in the workbook which federation it belongs to, so ``fill`` needs no flag."""
    props = wb.custom_doc_props
    if FEDERATION_PROPERTY in props.names:
        props[FEDERATION_PROPERTY].value = federation
    else:
        props.append(StringProperty(name=FEDERATION_PROPERTY, value=federation))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def save_atomic(wb: Workbook, target: Path) -> Path:
    """Write to a temporary file beside ``target``, check it is a sound zip, then replace ``target``.

    If anything fails, ``target`` is left as it was.
    """
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, tmp_name = tempfile.mkstemp(prefix=f".{target.stem}-", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise WorkbookError(f"Dossier introuvable : {folder}") from None
    except PermissionError:
        raise WorkbookError(f"Impossible d'écrire dans le dossier {folder} (droits insuffisants).") from None
    os.close(handle)
    tmp = Path(tmp_name)
    try:
        wb.save(tmp)
        with zipfile.ZipFile(tmp) as archive:
            broken = archive.testzip()
        if broken is not None:
            raise WorkbookError(f"L'enregistrement de {target.name} a produit un fichier abîmé ({broken}).")
        os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~_umask())
        try:
            os.replace(tmp, target)
        except PermissionError:
            raise WorkbookError(
                f"{target.name} est ouvert dans un autre programme (Excel ?) : fermez-le et relancez."
            ) from None
    finally:
        tmp.unlink(missing_ok=True)
    return target
