"""The save of a surgical fill: the owned sheets of openpyxl's model written anew into a copy of the original
package, every other part copied as its raw compressed bytes, the few parts the new sheets change patched by
their own unit (:mod:`.parts`).

Everything that could refuse the patches is checked when the :class:`Surgery` is made, before the fill writes
anything (:class:`Unsupported`, with its reason in French: the fill then takes the full rewrite and says so);
the save itself only writes."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.styles.cell_style import CellStyle
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.xml.functions import tostring

from .cells import plain_shared_strings
from .ooxml import WORKSHEET_TYPE, Unsupported, quoteattr, rels_part
from .package import Package
from .parts import app, calc_chain, content_types, custom, relationships, styles, table, workbook
from .parts.content_types import IMAGE_TYPES, TYPES
from .plan import Plan
from .writer import _SheetWriter
from .zipio import COMPRESS_LEVEL, copy_raw, write_new


class Names:
    """Part names and ids of a package, to give new parts ones no kept part has."""

    def __init__(self, taken: Iterable[str]):
        self.taken = set(taken)

    def free(self, pattern: str, also: Collection[int] = ()) -> int:
        number = 1
        while pattern.format(number) in self.taken or number in also:
            number += 1
        self.taken.add(pattern.format(number))
        return number


def _target(package: Package, source: str, kind: str) -> str | None:
    """The part ``source`` points to by its first relationship of type ``…/kind``, if that part exists."""
    part = next((r.part for r in package.rels(source) if not r.external and r.type.endswith("/" + kind)), None)
    return part if part in package.names else None


@dataclass
class _Layout:
    """Where a save puts what: worked out from the plan and the model once the fill has written it."""

    owned: list[Worksheet]  # the sheets written anew: the owned ones, and those the fill created
    parts: dict[str, str]  # their parts, by sheet name
    added: list[tuple[str, str]]  # (name, part) of the sheets the fill created
    dropped: set[str]  # parts of the package left out
    later: set[str]  # parts written last (copied raw when unchanged), in the package's order
    grown: dict[str, bytes]  # table parts of input tables the fill grew, with their new range
    names: Names
    table_ids: set[int]
    types: dict[str, str] = field(default_factory=dict)  # new part -> content type
    written: list[str] = field(default_factory=list)  # the new parts, in order


class Surgery:
    """The filled workbook: the owned sheets of ``wb`` written anew into a copy of the original package."""

    def __init__(self, the_plan: Plan, wb: Workbook, federation_property: str, federation: str):
        package = the_plan.package
        self.plan = the_plan
        self.wb = wb
        self.property = (federation_property, federation)
        self.original = {s.name: s for s in package.sheets}
        # Every relationship the save follows is read now, and every part it patches checked.
        self.owned_parts = {self.original[name].part for name in the_plan.owned if name in self.original}
        # The workbook part is kept even when the package's relationships do not name it (the package then reads
        # xl/workbook.xml): its sheets are not parts left behind.
        self.kept = package.reachable([r.part for r in package.rels("")] + [package.workbook], skip=self.owned_parts)
        self.old = set().union(*(package.reachable([p]) for p in self.owned_parts))
        styles_part = _target(package, package.workbook, "styles")
        if styles_part is None:
            raise Unsupported("le classeur n'a pas de partie de styles")
        self.styles_part = styles_part
        self.counts = styles.counts(package.read(styles_part), styles_part)
        workbook.check(package.read(package.workbook), package.workbook)
        content_types.typed(package.read(content_types.PART))
        relationships.check(package.read("_rels/.rels"), "_rels/.rels")
        relationships.check(package.read(rels_part(package.workbook)), rels_part(package.workbook))
        self.chain_part = _target(package, package.workbook, "calcChain")
        #: Text the package already shares (after Excel's or LibreOffice's save, every text an earlier fill
        #: wrote): the output cells point to it; the shared strings part, the organiser's sheets' too, is kept.
        self.strings = plain_shared_strings(package)
        owned_ids = [self.original[name].sheet_id for name in the_plan.owned if name in self.original]
        #: The calc chain without the owned sheets' cells (None: nothing left, the part goes).
        self.chain = None if self.chain_part is None else \
            calc_chain.without_sheets(package.read(self.chain_part), owned_ids, self.chain_part)
        self.app_part = _target(package, "", "extended-properties")
        self.app = None if self.app_part is None else app.without_sheet_lists(package.read(self.app_part), self.app_part)
        #: Relationship parts holding relationships named outside the package, without them (written so).
        self.outside = {rels: {rid for rid, _ in found} for rels, found in package.source_file.outside_relations.items()}
        self.patched = {rels: relationships.without_ids(package.read(rels), ids, rels) for rels, ids in self.outside.items()}
        self.custom_part = _target(package, "", "custom-properties")
        if self.custom_part is not None:
            custom.value(package.read(self.custom_part), federation_property, self.custom_part)

    def save(self, target) -> None:
        """Write the new package to ``target`` (a path): kept parts as raw compressed bytes, the rest anew.

        Kept parts go first, then each output sheet as soon as it is serialised (one at a time in memory),
        then the entries that depend on them (styles, workbook, content types), copied raw when unchanged."""
        package = self.plan.package
        layout = self._layout()
        skipped = layout.dropped | set(layout.parts.values()) | layout.later
        with package.source() as source, zipfile.ZipFile(Path(target), "w", zipfile.ZIP_DEFLATED,
                                                         compresslevel=COMPRESS_LEVEL) as out:
            for info in package.infos:
                if info.filename in skipped:
                    continue
                if info.filename in self.patched:
                    write_new(out, info.filename, self.patched[info.filename])
                else:
                    copy_raw(source, info, out)
            for ws in layout.owned:
                self._write_sheet(ws, layout, out)
            changed = self._changed(layout)
            for info in package.infos:  # the parts written last, in the package's order
                if info.filename in layout.later and info.filename not in layout.dropped:
                    if info.filename in changed:
                        data = changed.pop(info.filename)
                        if info.filename in self.outside:
                            data = relationships.without_ids(data, self.outside[info.filename], info.filename)
                        write_new(out, info.filename, data)
                    elif info.filename in self.patched:
                        write_new(out, info.filename, self.patched[info.filename])
                    else:
                        copy_raw(source, info, out)
            for name, data in changed.items():  # new parts (docProps/custom.xml)
                write_new(out, name, data)

    def _layout(self) -> _Layout:
        package = self.plan.package
        owned = [ws for ws in self.wb.worksheets if ws.title in self.plan.owned or ws.title not in self.original]
        dropped = (self.old - self.kept) | {rels_part(p) for p in self.owned_parts if rels_part(p) in package.names}
        if self.chain_part is not None and self.chain is None:
            dropped.add(self.chain_part)
        names = Names((package.names - dropped) | self._kept_targets())
        parts, added = {}, []
        for ws in owned:
            if ws.title in self.original:
                parts[ws.title] = self.original[ws.title].part
            else:
                parts[ws.title] = f"xl/worksheets/sheet{names.free('xl/worksheets/sheet{}.xml')}.xml"
                added.append((ws.title, parts[ws.title]))
        # The parts a fill may change go last, whether it changes them or not: each part's place in the package
        # depends on what it is, never on what this fill did, so that a refill writes the same bytes.
        later = {self.styles_part, package.workbook, rels_part(package.workbook), "_rels/.rels", content_types.PART,
                 self.custom_part or "docProps/custom.xml"}
        later |= {part for part in (self.app_part, self.chain_part) if part is not None}
        later |= {t.part for name, ts in package.tables.items() if name not in self.plan.owned for t in ts}
        grown = self._grown_tables(owned)  # input tables a fill grew over rows typed under them
        table_ids = {t.id for ts in package.tables.values() for t in ts if t.part not in dropped}
        return _Layout(owned, parts, added, dropped, later, grown, names, table_ids)

    def _kept_targets(self) -> set[str]:
        """The parts the kept parts point to, there or not: a kept relationship to a part the package lacks keeps
        its target, so no new part takes that name."""
        package = self.plan.package
        targets = {r.part for part in self.kept if not part.endswith(".rels") for r in package.rels(part)
                   if not r.external}
        return targets - self.old

    def _write_sheet(self, ws: Worksheet, layout: _Layout, out: zipfile.ZipFile) -> None:
        """An output sheet with its tables, drawing, charts and images, each part given a free name."""
        names, types = layout.names, layout.types

        def emit(name: str, data: bytes | Iterable[bytes], kind: str | None = None) -> None:
            write_new(out, name, data)
            layout.written.append(name)
            if kind is not None:
                types[name] = TYPES[kind]

        part = layout.parts[ws.title]
        if ws.title not in self.original:
            types[part] = TYPES["worksheet"]
        writer = _SheetWriter(ws, io.BytesIO())
        writer.strings = self.strings
        xml = writer.serialised()
        rels = writer._rels
        for table_model in ws.tables.values():
            table_model.id = names.free("xl/tables/table{}.xml", layout.table_ids)
            layout.table_ids.add(table_model.id)
            rels.get(table_model._rel_id).Target = table_model.path
            emit(table_model.path[1:], tostring(table_model.to_tree()), "table")
        if ws._charts or ws._images:
            drawing = SpreadsheetDrawing()
            drawing.charts, drawing.images = ws._charts, ws._images
            drawing._id = names.free("xl/drawings/drawing{}.xml")
            for chart in drawing.charts:
                chart._id = names.free("xl/charts/chart{}.xml")
            for image in drawing.images:
                image._id = names.free("xl/media/image{}." + image.format)
            for rel in rels:
                if rel.Type.endswith("/drawing"):
                    rel.Target = drawing.path
            emit(drawing.path[1:], tostring(drawing._write()), "drawing")
            emit(rels_part(drawing.path[1:]), tostring(drawing._write_rels()))
            for chart in drawing.charts:
                emit(chart.path[1:], tostring(chart._write()), "chart")
            for image in drawing.images:
                emit(image.path[1:], image._data())
        emit(part, xml)
        if len(rels):
            emit(rels_part(part), tostring(rels.to_tree()))

    # -- the entries that must change --

    def _changed(self, layout: _Layout) -> dict[str, bytes]:
        """The parts the output sheets change, new bytes each (styles, calc chain, workbook and its relationships,
        custom and extended properties, grown tables, content types)."""
        package = self.plan.package
        changed = dict(layout.grown)
        new_styles = self._styles()
        if new_styles is not None:
            changed[self.styles_part] = new_styles
        if self.chain_part is not None and self.chain is not None:
            changed[self.chain_part] = self.chain
        changed.update(self._workbook(layout))
        changed.update(self._custom(layout))
        if layout.added and self.app_part is not None and self.app is not None:
            changed[self.app_part] = self.app
        defaults = {}
        for part in layout.written:
            extension = part.rsplit(".", 1)[-1].lower()
            if extension == "rels":
                defaults[extension] = TYPES["rels"]
            elif part.startswith("xl/media/"):
                defaults[extension] = IMAGE_TYPES.get(extension, "application/octet-stream")
        # A part written anew under the name of one dropped keeps its override where it was.
        gone = layout.dropped - set(layout.types)
        changed[content_types.PART] = content_types.patched(package.read(content_types.PART), layout.types, gone,
                                                            defaults)
        return {part: data for part, data in changed.items() if part not in package.names or
                data != package.read(part)}

    def _grown_tables(self, owned: list[Worksheet]) -> dict[str, bytes]:
        """The table parts of the organiser's sheets whose range the fill changed (rows typed under a table,
        taken in), with their new range; the rest of each part as it was."""
        package = self.plan.package
        titles = {ws.title for ws in owned}
        grown = {}
        for sheet in package.sheets:
            if sheet.name in titles or sheet.name not in self.wb.sheetnames:
                continue
            models = {t.displayName.casefold(): t for t in self.wb[sheet.name].tables.values()}
            for info in package.tables[sheet.name]:
                model = models.get(info.name.casefold())
                if model is not None and model.ref != info.ref:
                    grown[info.part] = table.with_ref(package.read(info.part), model.ref, info.part)
        return grown

    def _styles(self) -> bytes | None:
        """styles.xml with what the owned sheets added to openpyxl's lists appended (None: nothing added)."""
        wb, counts = self.wb, self.counts.lists
        formats = dict(self.counts.formats)  # format code -> its id in the file
        next_id = max([163, *formats.values()]) + 1
        added_formats = []

        def format_id(internal: int) -> int:
            nonlocal next_id
            if internal < 164:
                return internal
            code = wb._number_formats[internal - 164]
            if code not in formats:
                formats[code] = next_id
                added_formats.append((next_id, code))
                next_id += 1
            return formats[code]

        xfs = []
        for style in wb._cell_styles[counts["cellXfs"]:]:
            xf = CellStyle.from_array(style)
            xf.numFmtId = format_id(style.numFmtId)
            if style.alignmentId:
                xf.alignment = wb._alignments[style.alignmentId]
            if style.protectionId:
                xf.protection = wb._protections[style.protectionId]
            xfs.append(tostring(xf.to_tree()))
        items = {"numFmts": [f'<numFmt numFmtId="{i}" formatCode={quoteattr(code)}/>'.encode()
                             for i, code in added_formats],
                 "fonts": [tostring(f.to_tree()) for f in wb._fonts[counts["fonts"]:]],
                 "fills": [tostring(f.to_tree()) for f in wb._fills[counts["fills"]:]],
                 "borders": [tostring(b.to_tree()) for b in wb._borders[counts["borders"]:]],
                 "cellXfs": xfs,
                 "dxfs": [tostring(d.to_tree("dxf")) for d in wb._differential_styles.dxf[counts["dxfs"]:]]}
        if not any(items.values()):
            return None
        return styles.appended(self.plan.package.read(self.styles_part), items, self.styles_part)

    def _workbook(self, layout: _Layout) -> dict[str, bytes]:
        """workbook.xml (recalculated on opening, its new sheets listed, the owned sheets' print names as the
        model says) and its relationships (the new sheets', the calc chain's gone with it)."""
        package = self.plan.package
        book, book_rels = package.workbook, rels_part(package.workbook)
        xml = workbook.recalculated(package.read(book), book)
        rels_xml = package.read(book_rels)
        if layout.added:
            ids = {rel.id for rel in package.rels(book)}
            next_sheet = max([s.sheet_id for s in package.sheets] + [0]) + 1
            entries, new_rels = [], []
            for number, (name, part) in enumerate(layout.added, start=next_sheet):
                rid = relationships.free_id(ids)
                ids.add(rid)
                entries.append((name, number, rid))
                new_rels.append((rid, WORKSHEET_TYPE, "/" + part))
            xml = workbook.with_sheets(xml, entries, book)
            rels_xml = relationships.added(rels_xml, new_rels, book_rels)
        if self.chain_part is not None and self.chain is None:
            rels_xml = relationships.without(rels_xml, "/calcChain", book_rels)
        index = {ws.title: i for i, ws in enumerate(self.wb.worksheets)}
        names = {index[ws.title]: [(name, value) for name, value in (("_xlnm.Print_Titles", ws.print_titles),
                                                                     ("_xlnm.Print_Area", ws.print_area)) if value]
                 for ws in layout.owned}
        xml = workbook.with_print_names(xml, names, book)
        return {book: xml, book_rels: rels_xml}

    def _custom(self, layout: _Layout) -> dict[str, bytes]:
        """docProps/custom.xml with the federation's mark (and the package's relationship to it, when new)."""
        package = self.plan.package
        name, value = self.property
        if self.custom_part is not None:
            return {self.custom_part: custom.with_value(package.read(self.custom_part), name, value, self.custom_part)}
        part = "docProps/custom.xml"
        layout.types[part] = TYPES["custom"]
        rid = relationships.free_id({r.id for r in package.rels("")})
        return {part: custom.new(name, value),
                "_rels/.rels": relationships.added(package.read("_rels/.rels"), [(rid, custom.RELATIONSHIP, part)],
                                                   "_rels/.rels")}

