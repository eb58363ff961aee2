"""The save of a surgical fill: the owned sheets of openpyxl's model written anew into a copy of the original
package, every other part copied as its raw compressed bytes."""

from __future__ import annotations

import io
import re
import struct
import zipfile
from collections.abc import Collection, Iterable
from pathlib import Path

from defusedxml import ElementTree as SafeET
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.xml.functions import tostring

from .ooxml import (
    _ATTR,
    _P,
    MAIN,
    OFFICE_RELS,
    WORKSHEET_TYPE,
    Unsupported,
    _insert_before_any,
    escape,
    quoteattr,
    rels_part,
)
from .package import Package, SheetInfo
from .plan import Plan
from .writer import _SheetWriter

#: Zip entries written anew carry this time, so that a refill writes the same bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_COMPRESS_LEVEL = 1  # the output sheets are large and rewritten at each fill: fast deflate
_TYPES = {
    "worksheet": "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml",
    "table": "application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml",
    "drawing": "application/vnd.openxmlformats-officedocument.drawing+xml",
    "chart": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
    "custom": "application/vnd.openxmlformats-officedocument.custom-properties+xml",
}
_IMAGE_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "gif": "image/gif", "bmp": "image/bmp",
                "tiff": "image/tiff", "emf": "image/x-emf", "wmf": "image/x-wmf"}


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


_CALC_PR = re.compile(rb"<(" + _P + rb")calcPr\b([^>]*?)(/?)>")
_AFTER_CALC = [rb"oleSize", rb"customWorkbookViews", rb"pivotCaches", rb"smartTagPr", rb"smartTagTypes",
               rb"webPublishing", rb"fileRecoveryPr", rb"webPublishObjects", rb"extLst"]
_DEFINED_NAME = re.compile(rb"<" + _P + rb"definedName\b([^>]*)>(.*?)</" + _P + rb"definedName>", re.S)
_OVERRIDE = re.compile(rb"<" + _P + rb"Override\b[^>]*?PartName\s*=\s*[\"']([^\"']+)[\"'][^>]*?/>")
#: The lists of a workbook's parts in docProps/app.xml (sheet names, with their headings).
_SHEET_LISTS = re.compile(rb"<(\w+:)?(HeadingPairs|TitlesOfParts)\b[^>]*?(?:/>|>.*?</(?:\1)?\2>)", re.S)


def _main_prefix(xml: bytes) -> bytes:
    """The prefix a workbook part gives its own elements (``x:`` for ``<x:workbook>``, which some programs write;
    mostly none): an element put in without it would be in no namespace, unseen by Excel."""
    root = re.search(rb"<([A-Za-z_][\w.-]*:)?workbook\b", xml)
    return (root.group(1) or b"") if root else b""


class Surgery:
    """The filled workbook: the owned sheets of ``wb`` written anew into a copy of the original package."""

    def __init__(self, the_plan: Plan, wb: Workbook, federation_property: str, federation: str):
        self.plan = the_plan
        self.wb = wb
        self.property = (federation_property, federation)
        self.counts = _style_counts(the_plan.package)
        # Every relationship the save follows is read now: a broken one sends the fill down the full path.
        package = the_plan.package
        original = {s.name: s for s in package.sheets}
        self.owned_parts = {original[name].part for name in the_plan.owned if name in original}
        self.kept = package.reachable([r.part for r in package.rels("")], skip=self.owned_parts)
        self.old = set().union(*(package.reachable([p]) for p in self.owned_parts))

    def save(self, target) -> None:
        """Write the new package to ``target`` (a path): kept parts as raw compressed bytes, the rest anew.

        Kept parts go first, then each output sheet as soon as it is serialised (one at a time in memory),
        then the entries that depend on them (styles, workbook, content types), copied raw when unchanged."""
        package = self.plan.package
        original = {s.name: s for s in package.sheets}
        owned = [ws for ws in self.wb.worksheets if ws.title in self.plan.owned or ws.title not in original]
        owned_parts = self.owned_parts
        kept, old = self.kept, self.old
        dropped = (old - kept) | {rels_part(p) for p in owned_parts if rels_part(p) in package.names}
        names = Names(package.names - dropped)
        kept_table_ids = {t.id for ts in package.tables.values() for t in ts if t.part not in dropped}
        later = {self.counts["part"], package.workbook, rels_part(package.workbook), "_rels/.rels",
                 "[Content_Types].xml", "docProps/custom.xml"}
        if any(ws.title not in original for ws in owned):  # new sheets: the list of sheets in app.xml changes
            later |= {r.part for r in package.rels("") if r.type.endswith("/extended-properties")}
        later |= {r.part for r in package.rels(package.workbook) if r.type.endswith("/calcChain")}
        grown = self._grown_tables(owned)  # input tables a fill grew over rows typed under them
        later |= set(grown)
        types: dict[str, str] = {}  # new part -> content type
        added_sheets: list[tuple[str, str]] = []  # (name, part) of sheets the fill created
        written: list[str] = []
        with open(package.path, "rb") as source, zipfile.ZipFile(Path(target), "w", zipfile.ZIP_DEFLATED,
                                                                 compresslevel=_COMPRESS_LEVEL) as out:

            def emit(name: str, data: bytes | Iterable[bytes]) -> None:
                _write_new(out, name, data)
                written.append(name)

            for info in package.infos:
                if info.filename not in dropped and info.filename not in owned_parts and info.filename not in later:
                    _copy_raw(source, info, out)
            for ws in owned:
                if ws.title in original:
                    part = original[ws.title].part
                else:
                    part = f"xl/worksheets/sheet{names.free('xl/worksheets/sheet{}.xml')}.xml"
                    added_sheets.append((ws.title, part))
                    types[part] = _TYPES["worksheet"]
                self._write_sheet(ws, part, names, kept_table_ids, types, emit)
            changed = self._changed(owned, original, added_sheets, types, dropped)
            changed.update(grown)
            changed["[Content_Types].xml"] = self._content_types(types, dropped, written)
            _write_later(source, out, package.infos, later, dropped, changed)

    def _changed(self, owned: list[Worksheet], original: dict[str, SheetInfo], added_sheets: list[tuple[str, str]],
                 types: dict[str, str], dropped: set[str]) -> dict[str, bytes]:
        """The parts the output sheets change (styles, calc chain, workbook, custom); an emptied chain is dropped."""
        package = self.plan.package
        changed: dict[str, bytes] = {}
        styles = self._styles()
        if styles is not None:
            changed[styles[0]] = styles[1]
        calc_chain = self._calc_chain([original[ws.title].sheet_id for ws in owned if ws.title in original])
        if calc_chain is not None:
            if calc_chain[1] is None:
                dropped.add(calc_chain[0])
            else:
                changed[calc_chain[0]] = calc_chain[1]
        drop_chain = calc_chain is not None and calc_chain[1] is None
        book_rels, book_xml = self._workbook(owned, added_sheets, drop_chain)
        changed.update(book_rels)
        changed[package.workbook] = book_xml
        changed.update(self._custom(types))
        changed.update(self._app(added_sheets))
        return changed

    def _write_sheet(self, ws: Worksheet, part: str, names: Names, table_ids: set[int], types: dict[str, str],
                     emit) -> None:
        """An output sheet with its tables, drawing, charts and images, each part given a free name."""
        writer = _SheetWriter(ws, io.BytesIO())
        xml = writer.serialised()
        rels = writer._rels
        for table in ws.tables.values():
            table.id = names.free("xl/tables/table{}.xml", table_ids)
            table_ids.add(table.id)
            rels.get(table._rel_id).Target = table.path
            emit(table.path[1:], tostring(table.to_tree()))
            types[table.path[1:]] = _TYPES["table"]
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
            emit(drawing.path[1:], tostring(drawing._write()))
            emit(rels_part(drawing.path[1:]), tostring(drawing._write_rels()))
            types[drawing.path[1:]] = _TYPES["drawing"]
            for chart in drawing.charts:
                emit(chart.path[1:], tostring(chart._write()))
                types[chart.path[1:]] = _TYPES["chart"]
            for image in drawing.images:
                emit(image.path[1:], image._data())
        emit(part, xml)
        if len(rels):
            emit(rels_part(part), tostring(rels.to_tree()))

    # -- the entries that must change --

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
                if model is None or model.ref == info.ref:
                    continue
                xml = package.read(info.part)
                grown[info.part] = xml.replace(f'ref="{info.ref}"'.encode(), f'ref="{model.ref}"'.encode())
        return grown

    def _styles(self) -> tuple[str, bytes] | None:
        """styles.xml with what the owned sheets added to openpyxl's lists appended (None: nothing added)."""
        wb, counts = self.wb, self.counts
        part, xml = counts["part"], counts["xml"]
        lists = {"fonts": wb._fonts, "fills": wb._fills, "borders": wb._borders, "dxfs": wb._differential_styles.dxf,
                 "cellXfs": wb._cell_styles}
        if all(len(lists[k]) == counts[k] for k in lists):
            return None
        if any(len(lists[k]) < counts[k] for k in lists):
            raise Unsupported("styles")
        formats = dict(counts["numFmts"])  # format code -> its id in the file
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

        from openpyxl.styles.cell_style import CellStyle

        xfs = []
        for style in wb._cell_styles[counts["cellXfs"]:]:
            xf = CellStyle.from_array(style)
            xf.numFmtId = format_id(style.numFmtId)
            if style.alignmentId:
                xf.alignment = wb._alignments[style.alignmentId]
            if style.protectionId:
                xf.protection = wb._protections[style.protectionId]
            xfs.append(tostring(xf.to_tree()))
        for name, items in (("fonts", [tostring(f.to_tree()) for f in wb._fonts[counts["fonts"]:]]),
                            ("fills", [tostring(f.to_tree()) for f in wb._fills[counts["fills"]:]]),
                            ("borders", [tostring(b.to_tree()) for b in wb._borders[counts["borders"]:]]),
                            ("cellXfs", xfs),
                            ("dxfs", [tostring(d.to_tree("dxf"))
                                      for d in wb._differential_styles.dxf[counts["dxfs"]:]])):
            if items:
                xml = _append_children(xml, name.encode(), items, counts[name])
        if added_formats:
            items = [f'<numFmt numFmtId="{i}" formatCode={quoteattr(code)}/>'.encode() for i, code in added_formats]
            xml = _append_children(xml, b"numFmts", items, len(counts["numFmts"]))
        return part, xml

    def _calc_chain(self, sheet_ids: list[int]) -> tuple[str, bytes | None] | None:
        """calcChain.xml without the owned sheets' cells (None as bytes: nothing left, drop it)."""
        package = self.plan.package
        parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/calcChain")]
        if not parts or parts[0] not in package.names:
            return None
        root = SafeET.fromstring(package.read(parts[0]))
        current, kept, dropped = 0, [], False
        for cell in root:
            current = int(cell.get("i", current))
            if current in sheet_ids:
                dropped = True
                continue
            kept.append((current, cell))
        if not dropped:
            return None
        if not kept:
            return parts[0], None
        body = "".join("<c" + "".join(f" {k}={quoteattr(v)}" for k, v in {**c.attrib, "i": str(i)}.items()) + "/>"
                       for i, c in kept)
        return parts[0], (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                          f'<calcChain xmlns="{MAIN}">{body}</calcChain>').encode()

    def _workbook(self, owned: list[Worksheet], added: list[tuple[str, str]],
                  drop_calc_chain: bool) -> tuple[dict[str, bytes], bytes]:
        package = self.plan.package
        xml = package.read(package.workbook)
        original = xml
        x = _main_prefix(xml)  # what the elements put in take, as the part's own do
        # Recalculate on opening: the organiser's formulas that read the outputs see the new values.
        calc = _CALC_PR.search(xml)
        if calc is None:
            xml = _insert_before_any(xml, _AFTER_CALC, b"</", b"<" + x + b'calcPr fullCalcOnLoad="1"/>')
        elif not re.search(rb'fullCalcOnLoad\s*=\s*["\'](1|true)["\']', calc.group(2)):
            attrs = re.sub(rb'\s*fullCalcOnLoad\s*=\s*["\'][^"\']*["\']', b"", calc.group(2))
            xml = xml[:calc.start()] + b"<" + calc.group(1) + b"calcPr" + attrs + b' fullCalcOnLoad="1"' + \
                calc.group(3) + b">" + xml[calc.end():]
        rels_changes: dict[str, bytes] = {}
        rels = package.rels(package.workbook)
        if added:
            prefix = re.search(rb'xmlns:(\w+)\s*=\s*["\']' + re.escape(OFFICE_RELS.encode()), xml)
            r = prefix.group(1).decode() if prefix else None
            if r is None:
                raise Unsupported("workbook.xml")
            ids = {rel.id for rel in rels}
            next_sheet = max([s.sheet_id for s in package.sheets] + [0]) + 1
            entries, new_rels = [], []
            for name, part in added:
                n = 1
                while f"rId{n}" in ids:
                    n += 1
                ids.add(f"rId{n}")
                entries.append(f'<{x.decode()}sheet name={quoteattr(name)} sheetId="{next_sheet}" {r}:id="rId{n}"/>')
                new_rels.append(f'<Relationship Id="rId{n}" Type="{WORKSHEET_TYPE}" Target="/{part}"/>')
                next_sheet += 1
            end = re.search(rb"</" + _P + rb"sheets>", xml)
            if end is None:
                raise Unsupported("workbook.xml")
            xml = xml[:end.start()] + "".join(entries).encode() + xml[end.start():]
            rels_changes[rels_part(package.workbook)] = self._rels_with(new_rels, drop_calc_chain)
        elif drop_calc_chain:
            rels_changes[rels_part(package.workbook)] = self._rels_with([], True)
        xml = self._names(xml, owned, x)
        return rels_changes, xml if xml != original else original

    def _rels_with(self, added: list[str], drop_calc_chain: bool) -> bytes:
        package = self.plan.package
        xml = package.read(rels_part(package.workbook))
        if drop_calc_chain:
            xml = re.sub(rb"<" + _P + rb"Relationship\b[^>]*?/calcChain[\"'][^>]*?/>", b"", xml)
        end = xml.rindex(b"</")
        return xml[:end] + "".join(added).encode() + xml[end:]

    def _names(self, xml: bytes, owned: list[Worksheet], x: bytes = b"") -> bytes:
        """The print titles and print areas of the owned sheets, as openpyxl's model now says (new elements
        with the prefix ``x`` of the part's own)."""
        index = {ws.title: i for i, ws in enumerate(self.wb.worksheets)}
        wanted: list[bytes] = []
        ours = set()
        for ws in owned:
            i = index[ws.title]
            ours.add(i)
            for name, value in (("_xlnm.Print_Titles", ws.print_titles), ("_xlnm.Print_Area", ws.print_area)):
                if value:
                    wanted.append(f'<definedName name="{name}" localSheetId="{i}">{escape(value)}'
                                  '</definedName>'.encode())

        def mine(match: re.Match) -> bool:
            attrs = {k: v1 or v2 for k, v1, v2 in _ATTR.findall(match.group(1))}
            local = attrs.get(b"localSheetId")
            return attrs.get(b"name") in (b"_xlnm.Print_Titles", b"_xlnm.Print_Area") and local is not None \
                and int(local) in ours

        block = re.search(rb"<(" + _P + rb")definedNames\b[^>]*?(/?)>", xml)
        prefix = block.group(1) if block is not None else x
        if prefix:
            wanted = [w.replace(b"<definedName", b"<" + prefix + b"definedName").replace(
                b"</definedName", b"</" + prefix + b"definedName") for w in wanted]
        found = [m for m in _DEFINED_NAME.finditer(xml) if mine(m)]
        if [m.group(0) for m in found] == wanted:
            return xml
        for match in reversed(found):
            xml = xml[:match.start()] + xml[match.end():]
        if not wanted:
            return xml
        block = re.search(rb"<(" + _P + rb")definedNames\b[^>]*?(/?)>", xml)
        if block is None:
            text = b"<" + x + b"definedNames>" + b"".join(wanted) + b"</" + x + b"definedNames>"
            return _insert_before_any(xml, [rb"calcPr", *_AFTER_CALC], b"</", text)
        if block.group(2):  # <definedNames/>
            return xml[:block.start()] + b"<" + prefix + b"definedNames>" + b"".join(wanted) + \
                b"</" + prefix + b"definedNames>" + xml[block.end():]
        end = xml.index(b"</" + prefix + b"definedNames>")
        return xml[:end] + b"".join(wanted) + xml[end:]

    def _app(self, added_sheets: list[tuple[str, str]]) -> dict[str, bytes]:
        """The extended properties (docProps/app.xml) without their list of sheets when the fill added sheets:
        the list, which Excel writes and reads for information only, would leave them out. Both elements are
        optional; Excel writes them afresh at its next save."""
        part = next((r.part for r in self.plan.package.rels("") if r.type.endswith("/extended-properties")), None)
        if not added_sheets or part is None or part not in self.plan.package.names:
            return {}
        xml = self.plan.package.read(part)
        stripped = _SHEET_LISTS.sub(b"", xml)
        return {part: stripped} if stripped != xml else {}

    def _custom(self, types: dict[str, str]) -> dict[str, bytes]:
        """docProps/custom.xml, when the federation's mark is not already there as it should be."""
        package = self.plan.package
        name, value = self.property
        props = self.wb.custom_doc_props
        part = next((r.part for r in package.rels("") if r.type.endswith("/custom-properties")), None)
        if part is not None and part in package.names:
            node = SafeET.fromstring(package.read(part))
            for prop in node:
                if prop.get("name") == name and [c.text for c in prop] == [value]:
                    return {}
        xml = tostring(props.to_tree())
        if part is None:
            part = "docProps/custom.xml"
            types[part] = _TYPES["custom"]
            rels = package.read("_rels/.rels")
            end = rels.rindex(b"</")
            ids = {r.id for r in package.rels("")}
            n = 1
            while f"rId{n}" in ids:
                n += 1
            rel = (f'<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                   f'relationships/custom-properties" Target="docProps/custom.xml"/>').encode()
            return {part: xml, "_rels/.rels": rels[:end] + rel + rels[end:]}
        return {part: xml}

    def _content_types(self, types: dict[str, str], dropped: set[str], new: list[str]) -> bytes:
        package = self.plan.package
        xml = package.read("[Content_Types].xml")
        gone = {"/" + p for p in dropped}
        xml = _OVERRIDE.sub(lambda m: b"" if m.group(1).decode() in gone else m.group(0), xml)
        present = {m.group(1).decode() for m in _OVERRIDE.finditer(xml)}
        defaults = {m.group(1).decode().lower() for m in re.finditer(
            rb"<" + _P + rb"Default\b[^>]*?Extension\s*=\s*[\"']([^\"']+)[\"']", xml)}
        added = []
        for part, kind in types.items():
            if "/" + part not in present:
                added.append(f'<Override PartName="/{part}" ContentType="{kind}"/>')
        for part in new:
            ext = part.rsplit(".", 1)[-1].lower()
            if part.startswith("xl/media/") and ext not in defaults:
                defaults.add(ext)
                kind = _IMAGE_TYPES.get(ext, "application/octet-stream")
                added.append(f'<Default Extension="{ext}" ContentType="{kind}"/>')
        if added:
            # Defaults first: they must precede the Overrides
            first = [a for a in added if a.startswith("<Default")]
            rest = [a for a in added if not a.startswith("<Default")]
            if first:
                types_tag = re.search(rb"<" + _P + rb"Types\b[^>]*>", xml)
                if types_tag is None:
                    raise Unsupported("[Content_Types].xml")
                start = types_tag.end()
                xml = xml[:start] + "".join(first).encode() + xml[start:]
            end = xml.rindex(b"</")
            xml = xml[:end] + "".join(rest).encode() + xml[end:]
        return xml


def _write_later(source, out: zipfile.ZipFile, infos: list[zipfile.ZipInfo], later: set[str], dropped: set[str],
                 changed: dict[str, bytes]) -> None:
    """The entries written last, in the package's order: new when changed, else copied raw; then new parts."""
    for info in infos:
        name = info.filename
        if name in later and name not in dropped:
            if name in changed:
                _write_new(out, name, changed.pop(name))
            else:
                _copy_raw(source, info, out)
    for name, data in changed.items():
        _write_new(out, name, data)


def _write_new(out: zipfile.ZipFile, name: str, data: bytes | Iterable[bytes]) -> None:
    info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o600 << 16
    if isinstance(data, bytes):
        out.writestr(info, data, compresslevel=_COMPRESS_LEVEL)
        return
    info._compresslevel = _COMPRESS_LEVEL  # type: ignore[attr-defined]  # what ZipFile.open(info, "w") reads
    with out.open(info, "w") as handle:
        for piece in data:
            handle.write(piece)


def _copy_raw(source, info: zipfile.ZipInfo, out: zipfile.ZipFile) -> None:
    """Copy a member's compressed bytes as they are: no inflating, no deflating."""
    source.seek(info.header_offset)
    header = source.read(30)
    if header[:4] != b"PK\x03\x04":
        raise Unsupported("zip")
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    source.seek(info.header_offset + 30 + name_length + extra_length)
    data = source.read(info.compress_size)
    copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
    copy.compress_type = info.compress_type
    copy.CRC, copy.compress_size, copy.file_size = info.CRC, info.compress_size, info.file_size
    copy.external_attr, copy.create_system = info.external_attr, info.create_system
    copy.flag_bits = info.flag_bits & ~0x08 & 0x800  # sizes in the header, no data descriptor; keep UTF-8 names
    copy.extra = b""
    fp = out.fp
    assert fp is not None
    copy.header_offset = fp.tell()
    zip64 = copy.file_size > zipfile.ZIP64_LIMIT or copy.compress_size > zipfile.ZIP64_LIMIT
    fp.write(copy.FileHeader(zip64))
    fp.write(data)
    out.filelist.append(copy)
    out.NameToInfo[copy.filename] = copy
    out.start_dir = fp.tell()
    out._didModify = True  # type: ignore[attr-defined]  # so that closing writes the central directory


def _style_counts(package: Package) -> dict:
    parts = [r.part for r in package.rels(package.workbook) if r.type.endswith("/styles")]
    if not parts or parts[0] not in package.names:
        raise Unsupported("pas de styles")
    xml = package.read(parts[0])
    if not re.match(rb"(?:<\?xml[^>]*\?>\s*)?<styleSheet\b", xml.lstrip()):
        raise Unsupported("styles.xml")
    root = SafeET.fromstring(xml)
    counts: dict = {"part": parts[0], "xml": xml}
    for name in ("fonts", "fills", "borders", "cellXfs", "dxfs"):
        node = root.find(f"{{{MAIN}}}{name}")
        counts[name] = 0 if node is None else len(node)
    formats = root.find(f"{{{MAIN}}}numFmts")
    counts["numFmts"] = [] if formats is None else [(f.get("formatCode", ""), int(f.get("numFmtId", "0")))
                                                      for f in formats]
    return counts


_STYLE_ORDER = [b"numFmts", b"fonts", b"fills", b"borders", b"cellStyleXfs", b"cellXfs", b"cellStyles", b"dxfs",
                b"tableStyles", b"colors", b"extLst"]


def _append_children(xml: bytes, name: bytes, items: list[bytes], before: int) -> bytes:
    """``items`` appended to the element ``name`` of styles.xml, its count updated (created where it belongs)."""
    count = before + len(items)
    element = re.search(rb"<" + name + rb"\b([^>]*?)(/?)>", xml)
    body = b"".join(items)
    if element is None:
        later = _STYLE_ORDER[_STYLE_ORDER.index(name) + 1:]
        text = b"<" + name + b' count="%d">' % count + body + b"</" + name + b">"
        return _insert_before_any(xml, later, b"</styleSheet>", text)
    attrs = re.sub(rb'\s*count\s*=\s*["\'][^"\']*["\']', b"", element.group(1))
    opening = b"<" + name + attrs + b' count="%d">' % count
    if element.group(2):  # <dxfs count="0"/>
        return xml[:element.start()] + opening + body + b"</" + name + b">" + xml[element.end():]
    end = xml.index(b"</" + name + b">", element.end())
    return xml[:element.start()] + opening + xml[element.end():end] + body + xml[end:]

