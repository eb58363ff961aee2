"""Cell values in and out: what an organiser types, parsed (places, numbers, dates, yes/no), each
refusal an :class:`~xlcircuit.rules.errors.InvalidInput` in French; and a value written so that text stays text."""

from __future__ import annotations

import datetime as dt
import math

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from ..rules import limits
from ..rules.errors import InvalidInput
from ..rules.text import clean, fold, place_number, whole_number

#: First characters that make a spreadsheet read text as a formula.
FORMULA_STARTS = ("=", "+", "-", "@")


def shown(value: object) -> str:
    """A typed value as a message quotes it: text between « », anything else as it is."""
    return f"« {value} »" if isinstance(value, str) else str(value)


def as_text(value: object) -> str | None:
    """A name as typed: spaces trimmed and collapsed, accents and case kept; a number as written."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, (dt.datetime, dt.date)):
        value = value.strftime("%d/%m/%Y")
    return clean(str(value)) or None


#: The largest place, count or number a table takes (:mod:`xlcircuit.limits`).
MAX_WHOLE = limits.MAX_PLACE


def as_positive_int(value: object, what: str = "place") -> int | None:
    """A positive whole number up to MAX_WHOLE (``3``, ``3.0`` or the text ``"3"``; for a place, a French
    ordinal too: ``1er``, ``2e``, ``3ème``, and a tie as rankings write it: ``3 ex``, ``ex 3``, ``3=``);
    None for a blank."""
    if value is None:
        return None
    number = place_number(value) if what == "place" else whole_number(value)
    if number is None or number < 1:
        raise InvalidInput(f"{what} attendue : un entier positif (1, 2, 3…) ; trouvé {shown(value)}")
    if number > MAX_WHOLE:
        raise InvalidInput(f"{what} attendue : un entier de 1 à {MAX_WHOLE} ; trouvé {shown(value)}")
    return number


def as_whole(value: object, what: str, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high`` (``3``, ``3.0`` or the text ``"3"``); None for a blank."""
    if value is None:
        return None
    number = whole_number(value)
    if number is None or not low <= number <= high:
        raise InvalidInput(f"{what} attendu : un entier de {low} à {high} ; trouvé {shown(value)}")
    return number


def as_number(value: object, what: str = "nombre") -> float | None:
    """A number (text with a decimal comma accepted); None for a blank."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            number = float(value.replace(",", ".").replace(" ", ""))
        except ValueError:
            pass
        else:
            if math.isfinite(number):  # "nan", "inf" and "1e400" are text, not numbers
                return number
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # a whole number of hundreds of digits: no number a table takes
            number = math.inf
        if math.isfinite(number):
            return number
    raise InvalidInput(f"{what} attendu ; trouvé {shown(value)}")


_YES = {"oui", "o", "x", "vrai", "true", "yes", "1"}


_NO = {"non", "n", "faux", "false", "no", "0"}


def as_yes_no(value: object) -> bool:
    """``oui`` (or x, vrai, TRUE, 1) is True; blank or ``non`` (or faux, FALSE, 0) is False."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    key = fold(str(value))
    if key in _YES:
        return True
    if key in _NO:
        return False
    raise InvalidInput(f"« oui » ou vide attendu ; trouvé {shown(value)}")


def as_date(value: object) -> dt.date | None:
    """A date cell, or a date typed as text (``13/09/2025`` or ``2025-09-13``); None for a blank."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        for pattern in ("%d/%m/%Y", "%Y-%m-%d", "%d/%m/%y", "%d-%m-%Y", "%d.%m.%Y"):
            try:
                return dt.datetime.strptime(value.strip(), pattern).date()
            except ValueError:
                continue
    raise InvalidInput(f"date attendue (jj/mm/aaaa) ; trouvé {shown(value)}")


#: Excel's error values as files store them (in English whatever the language), with what a French Excel
#: shows and what each means. A cell showing one holds no data: a failed lookup, a deleted reference...
ERROR_VALUES = {
    "#N/A": ("#N/A", "valeur non disponible : souvent une recherche (RECHERCHEV, INDEX/EQUIV) qui n'a rien trouvé"),
    "#REF!": ("#REF!", "référence à des cellules supprimées"),
    "#VALUE!": ("#VALEUR!", "formule appliquée à une valeur du mauvais type"),
    "#DIV/0!": ("#DIV/0!", "division par zéro"),
    "#NAME?": ("#NOM?", "nom de fonction ou de plage inconnu"),
    "#NUM!": ("#NOMBRE!", "nombre impossible"),
    "#NULL!": ("#NUL!", "intersection vide de deux plages"),
    "#SPILL!": ("#PROPAGATION!", "résultat matriciel qui ne peut pas s'étendre"),
    "#CALC!": ("#CALC!", "calcul impossible"),
    "#GETTING_DATA": ("#OBTENTION_DONNEES", "données encore en cours de chargement"),
    "#FIELD!": ("#CHAMP!", "champ introuvable"),
    "#BLOCKED!": ("#BLOQUE!", "accès bloqué"),
    "#CONNECT!": ("#CONNEXION!", "connexion impossible"),
    "#BUSY!": ("#OCCUPE!", "calcul en cours"),
    "#UNKNOWN!": ("#INCONNU!", "type de donnée inconnu"),
    "#PYTHON!": ("#PYTHON!", "erreur d'une formule Python"),
    "#EXTERNAL!": ("#EXTERNE!", "erreur d'une source externe"),
}


def error_value(value: object, data_type: str | None = None) -> str | None:
    """The error value a cell shows (``#N/A``, ``#REF!``…), as files store it; None for a value.

    ``data_type`` is the cell's (``e``: an error cell, whatever its text, e.g. LibreOffice's ``Err:502``). An
    error typed as text (a pasted ``#N/A``) is one too: no name or number reads like that."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.upper() in ERROR_VALUES:
        return text.upper()
    return (text or "#N/A") if data_type == "e" else None


def error_message(error: str, formula: bool) -> str:
    """What a located problem says of a cell showing an error value: what it is, and what to do."""
    french, meaning = ERROR_VALUES.get(error, (error, "erreur du tableur"))
    shows = error if french == error else f"{error} (« {french} » dans Excel en français)"
    if formula:
        return (f"la formule de cette cellule donne l'erreur {shows} : {meaning} ; une donnée est attendue : "
                "corrigez la formule (ou remplacez-la par la valeur), enregistrez, puis relancez")
    return (f"la cellule contient l'erreur {shows} ({meaning}), sans doute collée comme valeur ; une donnée est "
            "attendue : tapez la bonne valeur, enregistrez, puis relancez")


def put(cell, value: object, number_format: str | None = None) -> None:
    """Write a value; text always stays text (``=HYPERLINK(…)`` as a name is never a formula)."""
    # The format goes first: a date written into a General cell would get openpyxl's yyyy-mm-dd.
    if number_format and cell.number_format != number_format:
        cell.number_format = number_format
    if isinstance(value, str):
        text = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell.value = text
        cell.data_type = "s"
        quoted = text.startswith(FORMULA_STARTS)
        if cell.quotePrefix != quoted:
            cell.quotePrefix = quoted
    else:
        cell.value = value
        if cell.quotePrefix:
            cell.quotePrefix = False


def clean_text(text: str) -> tuple[str, bool]:
    """A text as a cell takes it (no character XML forbids, at most 32,767 long), and whether it starts like a
    formula (then it is written with a quote prefix: it stays text)."""
    text = ILLEGAL_CHARACTERS_RE.sub("", text)[:32767]
    return text, text.startswith(FORMULA_STARTS)

