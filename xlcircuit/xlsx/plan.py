"""What a fill owns (its output tables and sheets), and the plan of what it rewrites in a given workbook."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .ooxml import Unsupported
from .package import Package, SheetInfo, TableInfo


@dataclass
class Owned:
    """What a fill owns: its output tables (by name) and the sheets it rewrites whole (by name)."""

    tables: dict[str, str]  # table name -> the sheet that takes it when the workbook does not have it yet
    sheets: tuple[str, ...] = ()  # sheets rewritten whole (charts only, for instance)
    pattern: re.Pattern | None = None  # more output tables: those whose name matches
    pattern_sheet: str | None = None  # where they go when the workbook has none

    @classmethod
    def of(cls, specs: Iterable, sheets: Iterable[str] = (), pattern: re.Pattern | None = None,
           pattern_sheet: str | None = None) -> Owned:
        """What a fill owns, from its output tables' specs (each with its ``name`` and ``sheet``)."""
        return cls({spec.name: spec.sheet for spec in specs}, tuple(sheets), pattern, pattern_sheet)


@dataclass
class Plan:
    """Which sheets a fill rewrites and what it must clear on them, for a given workbook."""

    package: Package
    owned: dict[str, list[tuple[int, int, int, int]] | None]  # sheet name -> the areas it owns (None: all)

    @property
    def sheets(self) -> list[SheetInfo]:
        return [s for s in self.package.sheets if s.name in self.owned]


def plan(package: Package, owned: Owned) -> Plan:
    """The sheets the fill will rewrite: those holding an output table, else those it puts them on."""
    names = {s.name for s in package.sheets}
    areas: dict[str, list[tuple[int, int, int, int]] | None] = {}

    def own(sheet: str, table: TableInfo | None) -> None:
        current = areas.get(sheet, [])
        if sheet not in names or current is None:
            return
        area = areas[sheet] = current
        if table is not None:
            b = table.bounds
            area.append(b)
            if b[1] > 2:
                area.append((b[0], b[1] - 2, b[0], b[1] - 2))  # the title two rows above

    for name, sheet in owned.tables.items():
        table = package.table(name)
        own(table.sheet if table else sheet, table)
    if owned.pattern is not None:
        matched = [t for ts in package.tables.values() for t in ts if owned.pattern.fullmatch(t.name)]
        for table in matched:
            own(table.sheet, table)
        if not matched and owned.pattern_sheet:
            own(owned.pattern_sheet, None)
    for sheet in owned.sheets:
        if sheet in names:
            areas[sheet] = None
    return Plan(package, areas)


#: What a sheet xlcircuit rewrites may point to: what openpyxl reads and writes back whole.
_OWNABLE = ("/table", "/drawing", "/hyperlink", "/printerSettings")


def _check_ownable(package: Package, the_plan: Plan) -> None:
    for sheet in the_plan.sheets:
        if sheet.kind != "worksheet":
            raise Unsupported(f"« {sheet.name} » n'est pas une feuille de calcul")
        for rel in package.rels(sheet.part):
            if not rel.type.endswith(_OWNABLE):
                raise Unsupported(f"« {sheet.name} » contient des {rel.type.rsplit('/', 1)[-1]}")

