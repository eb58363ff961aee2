"""What ``xlcircuit import --essai`` shows, in French: per source sheet, the columns recognised (with their
heading) and ignored, the facts read above the table, the tournaments, and the first lines as they would be
imported."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence

from openpyxl.utils import get_column_letter

from ..wording import count
from .lines import FIRST_NAME_PART, PREVIEW_ROWS, SURNAME_PART, Plan, SheetPlan

#: Widest a previewed value is shown (a longer one ends with « … »).
WIDTH = 40


def preview(plan: Plan, earlier: Mapping[str, int], known: Callable[[tuple[object, ...]], bool]) -> list[str]:
    """The preview lines: each sheet, then what was left aside. ``earlier``: lines already imported from each
    source (replaced); ``known``: whether the season already has a tournament."""
    lines: list[str] = []
    for sheet in plan.sheets:
        lines += _sheet(sheet, plan, earlier, known) + [""]
    lines += [f"Ignoré : {note}" for note in plan.skipped]
    return lines


def _sheet(sheet: SheetPlan, plan: Plan, earlier: Mapping[str, int],
           known: Callable[[tuple[object, ...]], bool]) -> list[str]:
    importer, grid = plan.importer, sheet.grid
    again = earlier.get(grid.label, 0)
    head = (f"{grid.place} : en-tête ligne {sheet.header}, {count(len(sheet.lines), 'ligne')} à importer ; "
            f"Source : « {grid.label} »" + (f" (déjà importée : ses {again} lignes sont remplacées)" if again else ""))
    lines = [head, "  colonnes reconnues : " + _recognised(sheet, plan)]
    if sheet.ignored:
        lines.append("  colonnes ignorées : " + ", ".join(f"« {text} » ({_letter(sheet, i)})" for i, text in sheet.ignored))
    if sheet.facts:
        lines.append("  lu hors du tableau : " + " ; ".join(
            f"{header} : {_text(value)} ({cell})" for header, (value, cell) in sheet.facts.items()))
    keys = list(dict.fromkeys(line.key for line in sheet.lines))
    if keys:
        named = [f"« {importer.describe(key)} »" + ("" if known(key) else " (nouveau)") for key in keys[:10]]
        more = f" et {len(keys) - 10} autres" if len(keys) > 10 else ""
        lines.append(f"  {importer.what}{'s' if len(keys) > 1 else ''} : {', '.join(named)}{more}")
    lines += _first_rows(sheet, plan)
    return lines


def _letter(sheet: SheetPlan, index: int) -> str:
    return get_column_letter(sheet.grid.first_col + index)


def _recognised(sheet: SheetPlan, plan: Plan) -> str:
    importer = plan.importer
    parts: list[str] = []
    names = [c for c in sheet.columns if c.target in (FIRST_NAME_PART, SURNAME_PART)]
    if names:
        parts.append(" + ".join(f"« {c.heading} » ({_letter(sheet, c.index)})"
                                for c in sorted(names, key=lambda c: c.index)) + f" → {importer.player.header} "
                     "(prénom puis nom)")
    tournaments = importer.tournaments.name if importer.tournaments else ""
    players = importer.players.name if importer.players else ""
    for column in sheet.columns:
        if column.target in (FIRST_NAME_PART, SURNAME_PART):
            continue
        where = ""
        if any(f.header == column.target for f in importer.about):
            where = f" (table « {tournaments} »)"
        elif any(f.header == column.target for f in importer.player_fields):
            where = f" (table « {players} »)"
        parts.append(f"« {column.heading} » ({_letter(sheet, column.index)}) → {column.target}{where}")
    return " ; ".join(parts)


def _first_rows(sheet: SheetPlan, plan: Plan) -> list[str]:
    if not sheet.lines:
        return ["  aucune ligne"]
    importer = plan.importer
    headers = [f.header for f in importer.fields if any(line.values.get(f.header) is not None for line in sheet.lines)]
    extra = [f.header for f in importer.player_fields if any(c.target == f.header for c in sheet.columns)]
    rows: list[list[str]] = []
    for line in sheet.lines[:PREVIEW_ROWS]:
        row = []
        for header in headers:
            text = _text(line.values.get(header))
            if header == importer.player.header and line.typed:
                text += f" (« {line.typed} »)"
            row.append(text)
        player = line.values.get(importer.player.header)
        said = plan.players.get(player, {}) if isinstance(player, str) else {}
        row += [_text(said.get(h, (None, ""))[0]) for h in extra]
        rows.append(row)
    table = _table(headers + extra, rows)
    more = len(sheet.lines) - PREVIEW_ROWS
    return ["  premières lignes, telles qu'importées :"] + [f"    {text}" for text in table] + (
        [f"    … et {count(more, 'autre ligne', 'autres lignes')}"] if more > 0 else [])


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [min(WIDTH, max(len(h), *(len(r[i]) for r in rows))) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return " | ".join(_cut(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [line(headers)] + [line(row) for row in rows]


def _cut(text: str) -> str:
    return text if len(text) <= WIDTH else text[:WIDTH - 1] + "…"


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, (dt.datetime, dt.date)):
        return f"{value:%d/%m/%Y}"
    if isinstance(value, float):
        return f"{value:g}".replace(".", ",")
    return str(value)
