"""The register of players: every federation's ``Joueurs`` table, read once, through which every input table
resolves the names it holds, so that the published tables use the register's name.

A ``Joueurs`` line is a player: his name (``Joueur``), and optionally his identifier (``Identifiant``: a licence
number, a WDD or WDR id…) and his other spellings (``Alias``, separated by « ; »). A name typed in a result
line designates a registered player when it is his name, one of his aliases or his identifier, or one of them
but for case, accents and spaces. Two players of the same name are kept apart by their identifiers: the
tables then name each « Nom (identifiant) », and a result line names him so, or by his identifier. A name
nobody registered stays as typed.

``xlcircuit fusion`` writes an alias into this table (:func:`add_alias`); the result lines are never touched.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from openpyxl.utils import get_column_letter
from openpyxl.worksheet.table import TableColumn

from ..rules.errors import WorkbookProblems, XlcircuitError
from ..rules.names import probable_duplicates
from ..rules.text import clean, fold
from ..xlsx import Book
from .cells import as_text, put
from .read import bounds, find_table, read_table
from .sheets import Clubs, at_cell, club_of
from .spec import Column, Problems, Record, TableSpec
from .wording import typed

IDENTIFIER, ALIAS = "Identifiant", "Alias"
#: The register's own columns, at the end of every federation's ``Joueurs`` table (optional: older workbooks
#: have none).
REGISTER_COLUMNS = (Column(IDENTIFIER, required=False, width=14), Column(ALIAS, required=False, width=30))
#: What separates the aliases of a player in his ``Alias`` cell.
SEPARATOR = ";"
#: The workbook's name in a suggested command: the use cases put the real one in its place (:func:`located`).
WORKBOOK = "CLASSEUR.xlsx"
#: Every column some federation's ``Joueurs`` table reads: one of them in a table whose federation does not read
#: it is said (an ``Elo`` column in a Tour de France workbook would otherwise be ignored without a word).
KNOWN = ("Joueur", "Club", "Classe", "Elo", "Parties", "Division", "Groupe", "Statut", "Équipe", "Naissance",
         "Étranger", "Bonus", IDENTIFIER, ALIAS)


def players_table(*columns: Column, required: bool = True) -> TableSpec:
    """A federation's ``Joueurs`` table: ``Joueur``, its own ``columns``, then the register's columns."""
    return TableSpec("Joueurs", "Joueurs", (Column("Joueur", width=26), *columns, *REGISTER_COLUMNS), required)


def fusion_command(name: str, alias: str, workbook: str = WORKBOOK) -> str:
    """The command that makes ``alias`` another spelling of ``name``, ready to type."""
    return f"xlcircuit fusion {typed(workbook)} {typed(name)} {typed(alias)}"


def located(lines: Iterable[str], workbook: str) -> list[str]:
    """Warnings whose suggested commands name the workbook: :data:`WORKBOOK` replaced by its name."""
    return [line.replace(WORKBOOK, typed(workbook)) for line in lines]


@dataclass
class Entry:
    """A player of the register: his name in the published tables, as typed, identifier, aliases, line."""

    name: str  # the register's name: as typed, or « typed (identifier) » for one of two homonyms
    typed: str
    identifier: str | None
    aliases: tuple[str, ...]
    record: Record

    @property
    def cell(self) -> str:
        return at_cell(self.record, "Joueur")


@dataclass
class Register:
    """The ``Joueurs`` table as read: its players in order, and how a typed name finds one of them."""

    entries: list[Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_name: dict[str, Entry] = {e.name: e for e in self.entries}
        self._exact: dict[str, list[Entry]] = defaultdict(list)
        self._folded: dict[str, list[Entry]] = defaultdict(list)
        self._found: dict[str, list[Entry]] = {}  # typed -> the players it designates, once looked up
        for entry in self.entries:
            spellings = {entry.name, entry.typed, *entry.aliases}
            if entry.identifier is not None:
                spellings.add(entry.identifier)
            for spelling in spellings:
                self._exact[spelling].append(entry)
            for key in {fold(s) for s in spellings}:
                self._folded[key].append(entry)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def find(self, typed: str) -> list[Entry]:
        """The registered players ``typed`` designates: by name, alias or identifier, else the same but for
        case, accents and spaces; none when nobody registered it, several when it is ambiguous."""
        if not self._exact:  # no register: a season's thousands of result lines cost nothing
            return []
        found = self._found.get(typed)
        if found is None:
            match = self._exact.get(typed) or self._folded.get(fold(typed), [])
            found = self._found[typed] = list({id(e): e for e in match}.values())
        return found

    def name(self, typed: str) -> str:
        """The register's name for ``typed`` when it designates one player, else ``typed`` itself."""
        found = self.find(typed)
        return found[0].name if len(found) == 1 else typed

    def resolve(self, problems: Problems, record: Record, header: str) -> str | None:
        """The name a cell of an input table designates: the register's name of the player it names, or the
        text as typed when nobody registered it; None for a blank cell, and None with a problem at the cell
        when it could be two players (two homonyms: type the identifier)."""
        typed = as_text(record.values.get(header))
        if typed is None:
            return None
        found = self.find(typed)
        if len(found) > 1:
            which = " ; ".join(f"{e.cell}{f', identifiant {e.identifier}' if e.identifier else ''}" for e in found)
            example = next((e for e in found if e.identifier), None)
            hint = (f" : tapez son identifiant (par exemple « {example.identifier} ») ou « {example.name} »"
                    if example else " : écrivez le nom comme dans la table Joueurs")
            problems.at(record, header, f"« {typed} » peut désigner {len(found)} joueurs de la table Joueurs "
                                        f"({which}){hint}")
            return None
        return found[0].name if found else typed

    def clubs(self) -> Clubs:
        """Player -> club, for the players who have one; ``cells``: where each player was typed."""
        clubs = Clubs()
        for entry in self.entries:
            clubs.cells[entry.name] = entry.cell
            if club := club_of(entry.record):
                clubs[entry.name] = club
        return clubs

    def row(self, entry: Entry) -> dict[str, object]:
        """The register's own cells of a player, for next season's ``Joueurs`` table."""
        return {"Joueur": entry.typed, "Club": club_of(entry.record), IDENTIFIER: entry.identifier,
                ALIAS: f"{SEPARATOR} ".join(entry.aliases) or None}


def aliases_of(value: object) -> tuple[str, ...]:
    """An ``Alias`` cell's spellings: separated by « ; », each trimmed, blanks left out."""
    text = as_text(value)
    if text is None:
        return ()
    return tuple(dict.fromkeys(clean(part) for part in text.split(SEPARATOR) if clean(part)))


def read_register(book: Book, spec: TableSpec, problems: Problems) -> Register:
    """The ``Joueurs`` table as a register: a problem for a blank name, a player's second line (two players
    of one name but for case and accents need an identifier each), an identifier or an alias taken twice.
    A column of ``Joueurs`` this federation does not read, but another does (or close to one it reads), is
    said in ``book.warnings``."""
    _unread_columns(book, spec)
    typed: list[tuple[str, str | None, tuple[str, ...], Record]] = []
    for record in read_table(book, spec, problems):
        name = as_text(record.values["Joueur"])
        if name is None:
            problems.at(record, "Joueur", "nom du joueur attendu ; trouvé une cellule vide")
            continue
        identifier = as_text(record.values.get(IDENTIFIER))
        typed.append((name, identifier, tuple(a for a in aliases_of(record.values.get(ALIAS)) if a != name), record))
    return Register(_entries(typed, problems))


def _entries(typed: list[tuple[str, str | None, tuple[str, ...], Record]], problems: Problems) -> list[Entry]:
    """The register's players: homonyms (one name but for case, accents and spaces) each need an identifier of
    their own and are then named « nom (identifiant) »; identifiers and aliases designate one player each."""
    by_key: dict[str, list[int]] = defaultdict(list)
    for i, (name, _, _, _) in enumerate(typed):
        by_key[fold(name)].append(i)
    entries: list[Entry] = []
    taken: dict[str, Entry] = {}  # folded alias or identifier -> the player it designates
    for i, (name, identifier, aliases, record) in enumerate(typed):
        shown = _shown_name(i, typed, by_key[fold(name)], problems)
        if shown is None:
            continue
        entry = Entry(shown, name, identifier, aliases, record)
        mark = problems.mark()
        spellings = [(identifier, IDENTIFIER)] * (identifier is not None) + [(a, ALIAS) for a in aliases]
        for spelling, header in spellings:
            owner = taken.get(fold(spelling))
            if owner is not None:
                what = "identifiant" if header == IDENTIFIER else "alias"
                problems.at(record, header, f"{what} « {spelling} » déjà pris par {owner.name} ({owner.cell}) : "
                                            "chacun désigne un seul joueur")
        if problems.since(mark):
            continue
        for spelling, _ in spellings:
            taken[fold(spelling)] = entry
        entries.append(entry)
    names = {fold(e.typed): e for e in entries}
    for entry in entries:  # an alias that is another player's name
        for alias in entry.aliases:
            owner = names.get(fold(alias))
            if owner is not None and owner is not entry:
                problems.at(entry.record, ALIAS, f"alias « {alias} » : c'est le nom de {owner.name} "
                                                 f"({owner.cell}) ; un alias désigne un seul joueur")
    return entries


def _shown_name(i: int, typed: list[tuple[str, str | None, tuple[str, ...], Record]], same: list[int],
                problems: Problems) -> str | None:
    """The register's name of line ``i`` (``same``: the lines of its name but for case, accents and spaces): as
    typed, or « name (identifier) » for one of two homonyms; None, and a problem, for a player's second line
    or a homonym without an identifier of his own."""
    name, identifier, _, record = typed[i]
    if len(same) < 2:
        return name
    if all(typed[j][1] is None for j in same):  # one player typed twice: his first line is him
        if i == same[0]:
            return name
        problems.at(record, "Joueur", _second_line(name, typed[same[0]]))
        return None
    earlier = [typed[j] for j in same if j < i]
    if identifier is None or any(other[1] is not None and fold(other[1]) == fold(identifier) for other in earlier):
        problems.at(record, "Joueur", _homonym(name, typed[same[0] if same[0] != i else same[1]]))
        return None
    return f"{name} ({identifier})"


def _second_line(name: str, first: tuple[str, str | None, tuple[str, ...], Record]) -> str:
    """The problem of a player's second line (no identifier tells two homonyms apart)."""
    same = "figure déjà" if first[0] == name else f"ne diffère de « {first[0]} » que par les majuscules, les " \
                                                  "accents ou les espaces, qui figure"
    return (f"{name} {same} ligne {first[3].row} : une ligne par joueur (deux personnes de ce nom : donnez à "
            f"chacune son identifiant, colonne « {IDENTIFIER} »)")


def _homonym(name: str, other: tuple[str, str | None, tuple[str, ...], Record]) -> str:
    """The problem of a line whose name another line has (but for case, accents and spaces) without an
    identifier telling them apart."""
    same = "le même nom" if other[0] == name else f"le nom « {other[0]} », le même aux majuscules, accents ou " \
                                                   "espaces près,"
    return (f"la ligne {other[3].row} porte {same} : une ligne par joueur ; deux personnes de ce nom : donnez à "
            f"chacune son identifiant (colonne « {IDENTIFIER} »), différent")


def _unread_columns(book: Book, spec: TableSpec) -> None:
    """Say which columns of the table would be ignored though they look like xlcircuit's (nothing is ignored
    without a word): a column another federation reads, or one close to a column this one reads."""
    found = find_table(book.wb, spec.name)
    if found is None:
        return
    ws, table = found
    area = bounds(table)
    if area is None:
        return
    read = {fold(c.header) for c in spec.columns}
    known = {fold(h): h for h in KNOWN}
    ours = [c.header for c in spec.columns]
    for col in range(area[0], area[2] + 1):
        cell = ws._cells.get((area[1], col))
        header = as_text(cell.value) if cell is not None else None
        if header is None or fold(header) in read:
            continue
        close = difflib.get_close_matches(fold(header), [fold(h) for h in ours], n=1, cutoff=0.8)
        if fold(header) not in known and not close:
            continue  # the organiser's own column: kept, and not read
        hint = (f" ; vouliez-vous dire « {next(h for h in ours if fold(h) == close[0])} » ?" if close
                else "")
        book.warnings.append(f"{ws.title}!{get_column_letter(col)}{area[1]} : la colonne « {header} » de la table "
                             f"« {spec.name} » n'est pas lue par ce classeur{hint} (colonnes lues : "
                             f"{', '.join(ours)}).")


# --- flags: names that are probably one person -----------------------------------------------------------


def _kept(spellings: Iterable[str]) -> str:
    """Of spellings of one name, the one to keep: the most words written as names are (« Jean Muller »)."""
    return max(sorted(spellings), key=lambda n: sum(w[:1].isupper() and not w.isupper() for w in n.split()))


def duplicate_warnings(names: Iterable[str | tuple[str, str]], register: Register | None = None) -> list[str]:
    """Names of the input tables that are probably one person (:func:`names.probable_duplicates`: case or accents,
    a hyphen, the surname first, a doubled letter, an initial, a one-letter typo), each with its first cell and the
    ready-to-type alias that would merge them (``names``: names, or (name, cell) pairs). Names the register knows
    are already merged (they come here as the register's name), and two registered players who both have an
    identifier are two people: never flagged. THE call site of the duplicate detection; nothing is merged here."""
    cells: dict[str, str | None] = {}
    for item in names:
        name, where = item if isinstance(item, tuple) else (item, None)
        if cells.get(name) is None:
            cells[name] = where
    apart = {e.name for e in register if e.identifier is not None} if register is not None else set()
    warnings = []
    for a, b, why in probable_duplicates(cells):
        if a in apart and b in apart:
            continue
        kept = _kept((a, b))
        other = b if kept == a else a
        warnings.append(f"{_spelled(a, cells[a])} et {_spelled(b, cells[b])} sont-ils la même personne ({why}) ? "
                        f"Si oui, ajoutez « {other} » comme alias de « {kept} » : {fusion_command(kept, other)} (ou "
                        "corrigez l'orthographe) ; si ce sont deux personnes, donnez à chacune son identifiant dans "
                        f"la table « Joueurs » (colonne « {IDENTIFIER} ») et cet avertissement ne reviendra plus.")
    return warnings


def _spelled(name: str, where: str | None) -> str:
    return f"« {name} »" + (f" ({where})" if where else "")


def unmatched_warnings(register: Register, players: Iterable[str], what: str = "aucun résultat") -> list[str]:
    """A registered player without results whose name is probably a name with results (« MULLER Jean » in
    Joueurs, « Jean Muller » in the results: :func:`names.probable_duplicates`, else a close spelling): a typo
    that would drop him from his club's workbook, said with his cell and the alias that would merge them. A
    registered player without results and no such name is no typo (a register carried over from last season
    names players who have not played yet)."""
    known = set(players)
    idle = [entry for entry in register if entry.name not in known]
    if not idle:
        return []
    likely: dict[str, str] = {}
    idle_names = {entry.name for entry in idle}
    for a, b, _ in probable_duplicates([*idle_names, *sorted(known)]):
        if a in known and b in idle_names:
            a, b = b, a
        if a in idle_names and b in known:
            likely.setdefault(a, b)
    ordered = sorted(known)
    warnings = []
    for entry in idle:
        close = likely.get(entry.name) or next(iter(difflib.get_close_matches(entry.name, ordered, n=1, cutoff=0.75)),
                                               None)
        if close is None:
            continue
        warnings.append(f"{entry.cell} : « {entry.name} », de la table « Joueurs », n'a {what} ; faute de frappe "
                        f"pour « {close} » ? (il ne figure donc dans aucun classeur de club). Si c'est la même "
                        f"personne : {fusion_command(entry.name, close)}")
    return warnings


# --- xlcircuit fusion: an alias written into the register -----------------------------------------------


@dataclass
class Fused:
    """What :func:`add_alias` did: the player's name, the alias, the cell written, and whether it was new."""

    name: str
    alias: str
    cell: str
    added: bool
    new_line: bool = False


def add_alias(book: Book, spec: TableSpec, name: str, alias: str, lines_need: Sequence[str] = ()) -> Fused:
    """Make ``alias`` another spelling of the registered player ``name`` in ``book``'s model: his ``Alias`` cell
    gets it (the column is added to the table when missing); a name nobody registered gets a line of its own
    when the table needs nothing more of a player (``lines_need``: the required columns besides ``Joueur``).
    Result lines are never touched. Raises :class:`XlcircuitError` (a sentence) or :class:`WorkbookProblems`."""
    problems = Problems()
    register = read_register(book, spec, problems)
    if problems:
        raise WorkbookProblems(problems.items)
    name, alias = clean(name), clean(alias)
    if not name or not alias:
        raise XlcircuitError("deux noms attendus : le nom à garder, puis l'autre orthographe.")
    targets = register.find(name)
    if len(targets) > 1:
        raise XlcircuitError(f"« {name} » peut désigner {len(targets)} joueurs de la table Joueurs "
                             f"({', '.join(e.cell for e in targets)}) : donnez son identifiant ou « Nom (identifiant) ».")
    owners = [e for e in register.find(alias) if not targets or e is not targets[0]]
    if owners:
        owner = owners[0]
        raise XlcircuitError(f"« {alias} » désigne déjà {owner.name} ({owner.cell}) dans la table Joueurs : pour en "
                             f"faire un alias de « {name} », retirez-le d'abord de cette ligne (ou de ses alias).")
    found = find_table(book.wb, spec.name)
    if found is None:
        raise XlcircuitError(f"{book.path.name} n'a pas de table « {spec.name} » : créez-la (feuille « {spec.sheet} », "
                             "colonnes Joueur et Alias), puis relancez.")
    ws, table = found
    area = bounds(table)
    if area is None:
        raise XlcircuitError(f"la table « {spec.name} » a une étendue illisible : recréez-la, puis relancez.")
    if targets and fold(alias) in {fold(s) for s in (targets[0].typed, targets[0].name, *targets[0].aliases)}:
        return Fused(targets[0].name, alias, targets[0].cell, added=False)
    column = _alias_column(ws, table, area)
    if targets:
        entry = targets[0]
        row = entry.record.row
        cell = ws.cell(row, column)
        put(cell, f"{SEPARATOR} ".join((*entry.aliases, alias)))
        return Fused(entry.name, alias, f"{ws.title}!{cell.coordinate}", added=True)
    if lines_need:
        raise XlcircuitError(f"« {name} » n'est pas dans la table Joueurs, qui demande pour chaque joueur "
                             f"{', '.join(lines_need)} : ajoutez-y sa ligne, puis relancez.")
    row = _new_row(book, ws, table, area, spec)
    joueur = _column_of(ws, area, "Joueur")
    put(ws.cell(row, joueur), name)
    put(ws.cell(row, column), alias)
    return Fused(name, alias, f"{ws.title}!{ws.cell(row, column).coordinate}", added=True, new_line=True)


def _column_of(ws, area: tuple[int, int, int, int], header: str) -> int:
    for col in range(area[0], area[2] + 1):
        cell = ws._cells.get((area[1], col))
        if cell is not None and cell.value is not None and fold(str(cell.value)) == fold(header):
            return col
    raise XlcircuitError(f"colonne « {header} » absente de la table « Joueurs » : ajoutez-la, puis relancez.")


def _alias_column(ws, table, area: tuple[int, int, int, int]) -> int:
    """The column of ``Alias`` in the table; added at its right (the table grown by one column) when missing."""
    try:
        return _column_of(ws, area, ALIAS)
    except XlcircuitError:
        pass
    min_col, min_row, max_col, max_row = area
    new = max_col + 1
    taken = [c.coordinate for (r, col), c in ws._cells.items()
             if col == new and min_row <= r <= max_row and c.value is not None]
    if taken:
        raise XlcircuitError(f"la table « {table.displayName} » n'a pas de colonne « {ALIAS} » et la colonne à sa "
                             f"droite n'est pas vide ({taken[0]}) : ajoutez la colonne « {ALIAS} » à la table, "
                             "puis relancez.")
    put(ws.cell(min_row, new), ALIAS)
    ref = f"{get_column_letter(min_col)}{min_row}:{get_column_letter(new)}{max_row}"
    table.ref = ref
    if table.autoFilter is not None:
        table.autoFilter.ref = ref
    table.tableColumns.append(TableColumn(id=max(c.id for c in table.tableColumns) + 1, name=ALIAS))
    ws.column_dimensions[get_column_letter(new)].width = REGISTER_COLUMNS[1].width
    return new


def _new_row(book: Book, ws, table, area: tuple[int, int, int, int], spec: TableSpec) -> int:
    """A row for a new player: the table's first blank data row, else one row added under it."""
    min_col, min_row, max_col, max_row = area
    for row in range(min_row + 1, max_row + 1):
        if all(ws._cells.get((row, col)) is None or ws._cells[row, col].value is None
               for col in range(min_col, max_col + 1)):
            return row
    row = max_row + 1
    if any(c.value is not None for (r, col), c in ws._cells.items() if r == row and min_col <= col <= max_col):
        raise XlcircuitError(f"la ligne {row}, sous la table « {spec.name} », n'est pas vide : ajoutez la ligne "
                             "du joueur dans la table, puis relancez.")
    ref = f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{row}"
    table.ref = ref
    if table.autoFilter is not None:
        table.autoFilter.ref = ref
    return row


def rows_for(spec: TableSpec, rows: Iterable[dict[str, object]]) -> list[tuple[object, ...]]:
    """Rows given by header, in the order of ``spec``'s columns (what a fresh table takes)."""
    return [tuple(row.get(c.header) for c in spec.columns) for row in rows]


__all__ = ["ALIAS", "IDENTIFIER", "REGISTER_COLUMNS", "Entry", "Fused", "Register", "add_alias", "aliases_of",
           "duplicate_warnings", "fusion_command", "located", "players_table", "read_register", "rows_for",
           "unmatched_warnings"]
