"""How sources head their columns: the words the framework knows for what every federation shares (a place, a
player, his surname and first name, his club, a role, a tournament, a date), in French and English with the
usual abbreviations, and the key a heading is compared by (any case, accents optional, ``Clt.`` = ``clt``,
``Place (finale)`` = ``place``). A federation adds its own words in its declaration (:class:`.mapping.Field`)."""

from __future__ import annotations

import re

from ...rules.text import clean, fold

#: A player's full name in one column (« NOM Prénom » or « Prénom Nom »).
PLAYER = ("joueur", "joueuse", "joueur/joueuse", "joueurs", "nom prenom", "nom et prenom", "prenom nom",
          "prenom et nom", "nom complet", "participant", "participante", "concurrent", "player", "full name",
          "player name", "nom du joueur", "pseudo")
#: A surname, when a first-name column stands beside it (alone, it is the full name).
SURNAME = ("nom", "nom de famille", "name", "last name", "lastname", "surname", "family name")
FIRST_NAME = ("prenom", "first name", "firstname", "given name", "forename")
PLACE = ("place", "pl", "plc", "rang", "rg", "classement", "clt", "classt", "class final", "classement final",
         "place finale", "position", "pos", "rank", "ranking", "final rank", "final place", "final standing",
         "standing")
CLUB = ("club", "association", "asso", "club association", "club d'appartenance", "club/association")
ROLE = ("role", "fonction", "qualite")
TOURNAMENT = ("tournoi", "tournament", "competition", "epreuve", "event", "nom du tournoi", "tournoi / poule")
DATE = ("date", "jour", "date du tournoi", "day")
YES_NO = ("oui", "non")


_PARENTHESES = re.compile(r"\([^)]*\)")
_PUNCTUATION = re.compile(r"[._:*/\\\-–—'’\"]+")


def heading_key(text: object) -> str:
    """The key a heading is recognised by: folded (case, accents), what stands in parentheses left out,
    punctuation read as a space (``N°``'s degree sign kept): ``Clt.`` → ``clt``, ``Nom-Prénom`` → ``nom prenom``."""
    if text is None:
        return ""
    folded = fold(str(text)).replace("\u00a0", " ")
    key = clean(_PUNCTUATION.sub(" ", _PARENTHESES.sub(" ", folded)))
    return key or clean(_PUNCTUATION.sub(" ", folded))


def label_key(text: object) -> tuple[str, str | None]:
    """A cell read as « label : value » (a fact above a table): the label's key and the value typed after the
    colon (None when the cell is the label alone, its value in the next cell)."""
    if not isinstance(text, str):
        return "", None
    label, colon, rest = text.partition(":")
    if colon:
        return heading_key(label), rest.strip() or None
    return heading_key(text), None
