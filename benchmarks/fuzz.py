"""Fuzzing whole workbooks: the zip, the XML of every part and the cells' values, over the five federations.

Each case takes one federation's example (as ``xlcircuit new`` + the example typed in, or as ``xlcircuit
demo`` leaves it, filled), applies one to three mutations, then runs what an organiser runs: ``check``, then
``fill`` in place. A case ends in one of:

- ``accepted``: checked and filled; the filled workbook reopens with openpyxl, passes the package validator
  (``xlcircuit.xlsx.package.package_problems``: what Excel would repair) with no problem the mutant did not
  already have, and holds no zip entry with ``..`` or an absolute name;
- ``refused``: ``check`` and ``fill`` both refuse it in French (one sentence or located problems), and the
  workbook on disk is the mutant, byte for byte;

and the findings are:

- ``traceback``: an exception other than xlcircuit's own left ``check`` or ``fill`` (what the command line and
  the window would show as a traceback), by kind and place;
- ``hang``: a case past its time limit (the long run, in a worker process that is then replaced);
- ``damaged``: filled, but the result no longer reopens, or has problems the mutant had not, or keeps a
  dangerous name; or refused and the workbook on disk changed;
- ``disagreement``: ``check`` says the workbook is correct and ``fill`` refuses it, or the reverse;
- ``wrong``: a mutation that keeps the meaning (quotes, namespace prefixes, white space, entry order…) filled
  with standings other than the original's;
- ``unread`` (soft: reported, not a failure): such a sound file refused.

The suite runs a short run (``tests/test_fuzz_package.py``: each example cut to its first few events,
``small_example``, and the cases of its seed that bring a kind of mutation, a part or a federation seen fewer than
twice, ``covering``); the long run, on the whole examples, is by hand:

    python benchmarks/fuzz.py --cases 20000 --seed 1 --jobs 2 --log run.jsonl   # figures, one example a finding
    python benchmarks/fuzz.py --cases 20000 --seed 1 --log run.jsonl --resume   # go on with a stopped run
    python benchmarks/fuzz.py --summary run.jsonl                     # the figures of a run, from its log
    python benchmarks/fuzz.py --seed 1 --replay 1234                  # one case, its traceback shown
    python benchmarks/fuzz.py --seed 1 --save 1234 --to mutant.xlsx   # one case's mutant, to look at

A case is made from ``(seed, case)`` alone, so any case is replayed without the ones before it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import struct
import sys
import tempfile
import time
import traceback
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

CODES = ("tdf", "dbm", "cdf", "elo", "torres")
#: Seconds of processor time a case may take in the long run before it is a hang (a sound example takes well under
#: one); on the clock, ten times that (a loaded machine makes cases wait their turn).
TIMEOUT = 30.0

# --- the zip, entry by entry ------------------------------------------------------------------------------


@dataclass
class Entry:
    """A zip entry as written: its central and local names, its data and what its headers declare."""

    name: str
    data: bytes
    method: int = zipfile.ZIP_DEFLATED  # the method the headers declare
    packed_with: int | None = None  # the method the data is really packed with (None: ``method``)
    flags: int = 0
    local_name: str | None = None  # None: the central name
    local_flags: int | None = None
    crc: int | None = None  # None: the data's
    local_crc: int | None = None
    size: int | None = None  # the uncompressed size declared (None: the data's)
    extra: bytes = b""
    raw: bytes | None = None  # the packed bytes (None: ``data`` packed)


@dataclass
class Archive:
    entries: list[Entry]
    prefix: bytes = b""  # bytes before the first entry (a self-extracting archive's stub)
    comment: bytes = b""
    count: int | None = None  # the entry count the end record declares (None: the real one)
    cut: int | None = None  # the file truncated to this many bytes
    relative: bool = False  # offsets counted from the end of ``prefix`` (a stub put before a zip)


_ENTRIES: dict[bytes, list[tuple[str, bytes, int]]] = {}


def entries_of(data: bytes) -> list[Entry]:
    """The entries of a zip, read once per original (a case mutates its own copies)."""
    import hashlib
    import io

    key = hashlib.sha256(data).digest()
    if key not in _ENTRIES:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _ENTRIES[key] = [(i.filename, archive.read(i), i.compress_type) for i in archive.infolist()]
    return [Entry(name, content, method) for name, content, method in _ENTRIES[key]]


def _pack(data: bytes, method: int) -> bytes:
    if method == zipfile.ZIP_STORED:
        return data
    if method == zipfile.ZIP_BZIP2:
        import bz2

        return bz2.compress(data)
    if method == zipfile.ZIP_LZMA:
        compressor = zipfile._get_compressor(zipfile.ZIP_LZMA)  # type: ignore[attr-defined]
        return compressor.compress(data) + compressor.flush()
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def build(archive: Archive) -> bytes:
    """The bytes of a zip written entry by entry, each header saying what it is told to say."""
    out = bytearray(archive.prefix)
    central = bytearray()
    stamp = (0, 33)  # 1980-01-01 00:00
    for entry in archive.entries:
        raw = entry.raw if entry.raw is not None else _pack(entry.data, entry.packed_with
                                                            if entry.packed_with is not None else entry.method)
        crc = zlib.crc32(entry.data) if entry.crc is None else entry.crc
        size = len(entry.data) if entry.size is None else entry.size
        name = entry.name.encode("utf-8", "surrogateescape")
        local = (entry.name if entry.local_name is None else entry.local_name).encode("utf-8", "surrogateescape")
        flags = entry.flags | (0x800 if not entry.name.isascii() else 0)
        local_flags = flags if entry.local_flags is None else entry.local_flags
        offset = len(out) - len(archive.prefix) if archive.relative else len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, local_flags, entry.method, *stamp,
                           crc if entry.local_crc is None else entry.local_crc, len(raw), size, len(local),
                           len(entry.extra)) + local + entry.extra + raw
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, entry.method, *stamp, crc,
                               len(raw), size, len(name), len(entry.extra), 0, 0, 0, 0, offset) + name + entry.extra
    start = len(out) - len(archive.prefix) if archive.relative else len(out)
    out += central
    count = len(archive.entries) if archive.count is None else archive.count
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count & 0xFFFF, count & 0xFFFF, len(central), start,
                       len(archive.comment)) + archive.comment
    return bytes(out if archive.cut is None else out[:archive.cut])


# --- mutations ------------------------------------------------------------------------------------------

#: Values a hostile or broken file holds where a number, a reference or a name is expected.
HOSTILE = ["", " ", "-1", "0", "1", "2147483648", "4294967296", "9" * 400, "1e20", "1e308", "-0", "NaN", "inf",
           "a", "A1:XFD1048576", "A1:E1048576", "XFD1048576", "A0", "ZZZZ1", "1:1", "$A$1", "A1:A1:A1",
           "Feuil1!A1", "&amp;", "&#0;", "&#xD800;", "&#27;", "é", "\u202e", "x" * 300, "true", "#REF!", "#N/A",
           "classement", "rId999", "../../etc/passwd", "..\\..\\Startup\\x.exe", "/xl/worksheets/sheet1.xml",
           "s", "str", "inlineStr", "e", "n", "b", "d", "1.5", "-2147483649", "0x10"]
#: What a name or a number cell may hold instead of what was typed.
HOSTILE_CELLS = [
    '<c r="{r}" t="e"><v>#N/A</v></c>', '<c r="{r}" t="e"><v>#REF!</v></c>', '<c r="{r}" t="e"><v>#VALUE!</v></c>',
    '<c r="{r}" t="e"><v>#DIV/0!</v></c>', '<c r="{r}" t="e"><v>#NAME?</v></c>', '<c r="{r}" t="e"><v>#SPILL!</v></c>',
    '<c r="{r}" t="e"><f>VLOOKUP(A1,Z:Z,2,0)</f><v>#N/A</v></c>', '<c r="{r}" t="str"><f>NA()</f><v>#N/A</v></c>',
    '<c r="{r}" t="inlineStr"><is><t>&#27;]0;pwned&#7;&#27;[2K</t></is></c>',
    '<c r="{r}" t="inlineStr"><is><t>Eve\u009b31m\u202eevil</t></is></c>',
    '<c r="{r}" t="inlineStr"><is><t>_x001B_[2J</t></is></c>',
    '<c r="{r}" t="inlineStr"><is><t>a\nb\rc\td</t></is></c>',
    '<c r="{r}" t="inlineStr"><is><t>=HYPERLINK("http://x","y")</t></is></c>',
    '<c r="{r}" t="inlineStr"><is><t>' + "W" * 40000 + "</t></is></c>",
    '<c r="{r}" t="inlineStr"><is><t>  </t></is></c>', '<c r="{r}"><v>' + "9" * 400 + "</v></c>",
    '<c r="{r}"><v>1e400</v></c>', '<c r="{r}"><v>-1e400</v></c>', '<c r="{r}"><v>NaN</v></c>',
    '<c r="{r}"><v>1e-400</v></c>', '<c r="{r}"><v>2958466</v></c>', '<c r="{r}" s="99999"><v>1</v></c>',
    '<c r="{r}" t="s"><v>999999</v></c>', '<c r="{r}" t="s"><v>-1</v></c>', '<c r="{r}" t="b"><v>2</v></c>',
    '<c r="{r}" t="d"><v>2025-13-45</v></c>', '<c r="{r}" t="n"><v>abc</v></c>', '<c r="{r}" t="zz"><v>1</v></c>',
    '<c r="{r}"><f>1/0</f></c>', '<c r="{r}" t="inlineStr"/>', "<c/>",
]
ENCODINGS = [b"UTF-16", b"x-unknown-42", b"ISO-8859-1", b"ascii", b"utf-32", b"UTF8", b"", b"cp1252", b"EBCDIC-US"]
_DECL = re.compile(rb"^\s*<\?xml[^>]*\?>\s*")
_ATTRIBUTE = re.compile(rb'([\w:.-]+)="([^"<]*)"')
_NUMBER_ATTRIBUTE = re.compile(rb'([\w:.-]+)="(-?\d+(?:\.\d+)?)"')
_TEXT = re.compile(rb">([^<]+)<")
_START = re.compile(rb"<([A-Za-z_][\w.-]*(?::[\w.-]+)?)((?:\s[^<>]*?)?)(/?)>")
_UNPREFIXED = re.compile(rb"<(/?)([A-Za-z_][\w.-]*)(?=[\s/>])")
_CELL = re.compile(rb'<c\b[^>]*?\br="([A-Z]+\d+)"[^>]*?(?:/>|>.*?</c>)', re.S)
_REFERENCE_ATTRIBUTES = (b"r", b"ref", b"sqref", b"Id", b"r:id", b"Target", b"sheetId", b"s", b"numFmtId", b"xfId",
                         b"fontId", b"fillId", b"borderId", b"count", b"id", b"spans", b"localSheetId", b"cellXfs",
                         b"PartName", b"headerRowCount", b"totalsRowCount", b"dxfId", b"activeTab", b"tabSelected")


@dataclass
class Mutant:
    archive: Archive
    said: list[str] = field(default_factory=list)  # what was done, for the report
    sound: bool = True  # every mutation kept the workbook's meaning
    kinds: list[str] = field(default_factory=list)  # the mutations' kinds and the parts they changed (``covering``)


def _element(data: bytes, rng: random.Random) -> tuple[int, int] | None:
    """The span of one whole element of ``data`` (its start tag to its end tag), the root left out."""
    starts = list(_START.finditer(data))[1:]
    if not starts:
        return None
    for _ in range(5):
        match = rng.choice(starts)
        if match.group(3):
            return match.start(), match.end()
        name = re.escape(match.group(1))
        depth, at = 1, match.end()
        for found in re.finditer(rb"<(/?)" + name + rb"(?=[\s/>])[^>]*?(/?)>", data[match.end():]):
            if found.group(1):
                depth -= 1
            elif not found.group(2):
                depth += 1
            if depth == 0:
                at = match.end() + found.end()
                return match.start(), at
    return None


def _with_declaration(data: bytes, declaration: bytes) -> bytes:
    return declaration + _DECL.sub(b"", data, count=1)


def xml_encoding(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    choice = rng.randrange(6)
    if choice == 0:  # a sound re-encoding: UTF-16 with its mark and its declaration
        body = _DECL.sub(b"", data, count=1).decode("utf-8")
        return (('<?xml version="1.0" encoding="UTF-16" standalone="yes"?>\n' + body).encode("utf-16")), \
            "UTF-16 réel", True
    if choice == 1:
        return b"\xef\xbb\xbf" + data, "marque UTF-8", True
    if choice == 2:
        return _DECL.sub(b"", data, count=1), "sans déclaration", True
    encoding = rng.choice(ENCODINGS)
    return (_with_declaration(data, b'<?xml version="1.0" encoding="' + encoding + b'"?>\n'),
            f"encodage déclaré {encoding.decode()!r}", False)


def xml_doctype(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    body = _DECL.sub(b"", data, count=1)
    root = _START.search(body)
    at = root.end() if root and not root.group(3) else 0
    kinds = [
        (b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>', b"&b;"),
        (b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', b"&e;"),
        (b'<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>', b""),
        (b'<!DOCTYPE x SYSTEM "http://127.0.0.1:9/x.dtd">', b""),
        (b"<!-- " + b"<a " * 1700 + b"-->" + b'<!DOCTYPE x [<!ENTITY a "x">]>', b"&a;"),
        (b"<!DOCTYPE x>", b""),
    ]
    doctype, use = rng.choice(kinds)
    if at:
        body = body[:at] + use + body[at:]
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + doctype + body, "DOCTYPE", False


def xml_number(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    found = list(_NUMBER_ATTRIBUTE.finditer(data)) + list(re.finditer(rb"<v>(-?[\d.E+-]+)</v>", data))
    if not found:
        return data, "nombre (aucun)", True
    match = rng.choice(found)
    value = rng.choice([b"9" * 400, b"1e20", b"-1", b"1e308", b"4294967296", b"-2147483649", b"1.5", b"0",
                        b"99999999999"])
    group = match.lastindex or 1
    return data[:match.start(group)] + value + data[match.end(group):], \
        f"nombre {match.group(0)[:30]!r} -> {value[:12]!r}", False


def xml_nesting(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    root = _START.search(_DECL.sub(b"", data, count=1))
    depth = rng.choice([100, 5000, 200_000])
    tag = rng.choice([b"x", b"row", b"c", b"is", b"r", b"sheetData"])
    nest = b"<" + tag + b">" * 1
    block = (nest) * depth + (b"</" + tag + b">") * depth
    if root is None:
        return block + data, f"imbrication {depth}", False
    at = data.find(root.group(0)) + len(root.group(0))
    return data[:at] + block + data[at:], f"imbrication {depth} <{tag.decode()}>", False


def xml_prefix(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    """The default namespace given a prefix, every unprefixed element named with it: the same XML."""
    head = _DECL.match(data)
    start = head.end() if head else 0
    root = _START.search(data, start)
    if root is None or b'xmlns="' not in root.group(0):
        return data, "préfixe (aucun)", True
    prefix = rng.choice([b"x", b"main", b"ns0", b"s"])
    taken = set(re.findall(rb"xmlns:([\w.-]+)=", root.group(0)))
    if prefix in taken:
        return data, "préfixe (pris)", True
    body = _UNPREFIXED.sub(lambda m: b"<" + m.group(1) + prefix + b":" + m.group(2), data[start:])
    body = body.replace(b'xmlns="', b"xmlns:" + prefix + b'="', 1)
    return data[:start] + body, f"préfixe {prefix.decode()}:", True


def xml_quotes(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    every = rng.random() < 0.5

    def quoted(match: re.Match) -> bytes:
        if b"'" in match.group(2) or (not every and rng.random() < 0.5):
            return match.group(0)
        return match.group(1) + b"='" + match.group(2) + b"'"

    return _ATTRIBUTE.sub(quoted, data), "apostrophes", True


def xml_spaces(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    space = rng.choice([b" ", b"\n", b"\t", b"\r\n  ", b"  "])

    def spaced(match: re.Match) -> bytes:
        return match.group(1) + space + b"=" + space + b'"' + match.group(2) + b'"' + space

    data = _ATTRIBUTE.sub(spaced, data)
    return data.replace(b"/>", space + b"/>"), f"blancs {space!r}", True


def xml_order(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    def shuffled(match: re.Match) -> bytes:
        attributes = _ATTRIBUTE.findall(match.group(2))
        if len(attributes) < 2 or b"<" in match.group(2):
            return match.group(0)
        rng.shuffle(attributes)
        return (b"<" + match.group(1) + b" " + b" ".join(k + b'="' + v + b'"' for k, v in attributes)
                + match.group(3) + b">")

    return _START.sub(shuffled, data), "attributs dans un autre ordre", True


def xml_references(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    """Text written as character references, CDATA sections, comments and processing instructions: the same XML."""
    choice = rng.randrange(3)
    if choice == 0:
        def referenced(match: re.Match) -> bytes:
            pieces = re.split(r"(&[^;&]*;)", match.group(1).decode("utf-8"))  # references there already kept whole
            return b">" + "".join(piece if piece.startswith("&") else "".join(
                f"&#{ord(c)};" if c.isalnum() and rng.random() < 0.5 else c for c in piece)
                for piece in pieces).encode() + b"<"
        return _TEXT.sub(referenced, data), "références de caractères", True
    if choice == 1:
        def cdata(match: re.Match) -> bytes:
            text = match.group(1)
            if b"&" in text or b"]]>" in text or not text.strip():
                return match.group(0)
            return b"><![CDATA[" + text + b"]]><"
        return _TEXT.sub(cdata, data), "CDATA", True
    spans = [m.end() for m in re.finditer(rb"(?<!\?)>(?=<)", data)]
    for at in sorted(rng.sample(spans, min(len(spans), 5)), reverse=True):
        data = data[:at] + rng.choice([b"<!-- x -->", b"<?pi x?>", b"<!---->"]) + data[at:]
    return data, "commentaires", True


def xml_drop(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    span = _element(data, rng)
    if span is None:
        return data, "élément (aucun)", True
    return data[:span[0]] + data[span[1]:], f"élément ôté {data[span[0]:span[0] + 30]!r}", False


def xml_duplicate(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    span = _element(data, rng)
    if span is None:
        return data, "élément (aucun)", True
    piece = data[span[0]:span[1]]
    return data[:span[1]] + piece * rng.randint(1, 3) + data[span[1]:], f"élément doublé {piece[:30]!r}", False


def xml_reference(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    found = [m for m in _ATTRIBUTE.finditer(data) if m.group(1) in _REFERENCE_ATTRIBUTES]
    if not found:
        found = list(_ATTRIBUTE.finditer(data))
    if not found:
        return data, "référence (aucune)", True
    match = rng.choice(found)
    value = rng.choice(HOSTILE).encode()
    if match.group(1) in (b"r", b"ref", b"sqref") and rng.random() < 0.5:
        value = rng.choice([b"A1", b"B2", b"A1:B2", b"C3:A1", b"AA100000", b"A1048577", b"XFE1", b"A1:XFD1"])
    return (data[:match.start(2)] + value + data[match.end(2):],
            f"{match.group(1).decode()}={match.group(2)[:20]!r} -> {value[:20]!r}", False)


def xml_attribute(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    found = list(_ATTRIBUTE.finditer(data))
    if not found:
        return data, "attribut (aucun)", True
    match = rng.choice(found)
    if rng.random() < 0.3:  # a case changed (a table renamed « classement »)
        value = match.group(2).lower()
    else:
        value = rng.choice(HOSTILE).encode()
    return data[:match.start(2)] + value + data[match.end(2):], f"attribut {match.group(1).decode()}", False


def xml_text(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    found = list(_TEXT.finditer(data))
    if not found:
        return data, "texte (aucun)", True
    match = rng.choice(found)
    return data[:match.start(1)] + rng.choice(HOSTILE).encode() + data[match.end(1):], "texte", False


def xml_tag(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    found = list(re.finditer(rb"<(/?)([A-Za-z_][\w.:-]*)", data))
    if not found:
        return data, "balise (aucune)", True
    match = rng.choice(found)
    tag = rng.choice([b"c", b"row", b"x", b"v", b"f", b"is", b"t", b"sheet", b"table", b"mergeCell", b"col",
                      b"Override", b"Relationship", b"xf", b"si"])
    return data[:match.start(2)] + tag + data[match.end(2):], f"balise -> {tag.decode()}", False


def xml_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    choice = rng.randrange(4)
    if choice == 0 and data:
        buffer = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            buffer[rng.randrange(len(buffer))] = rng.randrange(256)
        return bytes(buffer), "octets changés", False
    if choice == 1:
        return data[:rng.randrange(len(data) + 1)], "partie tronquée", False
    at = rng.randrange(len(data) + 1)
    if choice == 2:
        return data[:at] + data[at + rng.randint(1, 400):], "passage ôté", False
    return data[:at] + data[at:at + rng.randint(1, 400)] * rng.randint(2, 5) + data[at:], "passage répété", False


def xml_namespace(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    old = re.search(rb'xmlns="([^"]*)"', data)
    if old is None:
        return data, "espace de noms (aucun)", True
    new = rng.choice([b"http://purl.oclc.org/ooxml/spreadsheetml/main", b"", b"urn:x",
                      b"http://schemas.microsoft.com/office/excel/2006/main"])
    return data.replace(old.group(0), b'xmlns="' + new + b'"', 1), "espace de noms changé", False


def value_cell(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    """A cell of a sheet replaced by what a broken or hostile workbook holds there."""
    found = list(_CELL.finditer(data))
    if not found:
        return data, "cellule (aucune)", True
    # Cells under a header row (the data of the input tables) rather than headers and titles.
    data_cells = [m for m in found if int(re.search(rb"\d+", m.group(1)).group(0)) > 1] or found
    match = rng.choice(data_cells)
    new = rng.choice(HOSTILE_CELLS).format(r=match.group(1).decode()).encode()
    return data[:match.start()] + new + data[match.end():], f"cellule {match.group(1).decode()} -> {new[:40]!r}", False


def value_string(data: bytes, rng: random.Random) -> tuple[bytes, str, bool]:
    """A shared string changed (every cell using it changes)."""
    found = list(re.finditer(rb"<t(?: [^>]*)?>([^<]*)</t>", data))
    if not found:
        return data, "chaîne (aucune)", True
    match = rng.choice(found)
    value = rng.choice(["#N/A", "#REF!", "&#27;[31mrouge&#27;[0m", "\u202eevil", "\u009b2J", "", " ", "x" * 33000,
                        "=1+1", "#VALUE!", "Alice", "alice "]).encode()
    return data[:match.start(1)] + value + data[match.end(1):], f"chaîne -> {value[:20]!r}", False


XML_MUTATIONS: dict[str, Callable[[bytes, random.Random], tuple[bytes, str, bool]]] = {
    "encodage": xml_encoding, "doctype": xml_doctype, "nombre": xml_number, "imbrication": xml_nesting,
    "préfixe": xml_prefix, "apostrophes": xml_quotes, "blancs": xml_spaces, "ordre": xml_order,
    "références": xml_references, "ôté": xml_drop, "doublé": xml_duplicate, "référence": xml_reference,
    "attribut": xml_attribute, "texte": xml_text, "balise": xml_tag, "octets": xml_bytes,
    "espace": xml_namespace,
}


def _xml_entry(mutant: Mutant, rng: random.Random, sheets: bool = False) -> Entry | None:
    entries = [e for e in mutant.archive.entries if e.name.endswith((".xml", ".rels"))
               and (not sheets or e.name.startswith(("xl/worksheets/sheet", "xl/sharedStrings")))]
    return rng.choice(entries) if entries else None


def mutate_xml(mutant: Mutant, rng: random.Random) -> None:
    entry = _xml_entry(mutant, rng)
    if entry is None:
        return
    name = rng.choice(list(XML_MUTATIONS))
    entry.data, said, sound = XML_MUTATIONS[name](entry.data, rng)
    mutant.said.append(f"{entry.name}: {said}")
    mutant.sound &= sound
    mutant.kinds += [f"xml {name}", f"partie {_part(entry.name)}"]


def mutate_value(mutant: Mutant, rng: random.Random) -> None:
    entry = _xml_entry(mutant, rng, sheets=True)
    if entry is None:
        return
    change = value_string if entry.name.startswith("xl/sharedStrings") else value_cell
    entry.data, said, sound = change(entry.data, rng)
    mutant.said.append(f"{entry.name}: {said}")
    mutant.sound &= sound
    mutant.kinds.append(f"valeur {change.__name__}")


def _part(name: str) -> str:
    """A part's kind: its name, numbers left out (``xl/worksheets/sheet#.xml``)."""
    return re.sub(r"\d+", "#", name)


def _pick(mutant: Mutant, rng: random.Random) -> Entry:
    return rng.choice(mutant.archive.entries)


#: A zip-level mutation: what it did, and whether the workbook keeps its meaning.
Done = tuple[str, bool]


def zip_crc(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    if rng.random() < 0.7:
        entry.crc = zlib.crc32(entry.data) ^ (1 << rng.randrange(32))
        return f"CRC faux {entry.name}", False
    entry.local_crc = 0xDEADBEEF
    return f"CRC local faux {entry.name}", False


def zip_local_name(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    entry.local_name = rng.choice([entry.name.upper(), entry.name + "x", "../" + entry.name, "a", entry.name[:-1]])
    return f"nom local {entry.local_name!r} != {entry.name!r}", False


def zip_flags(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    flag = rng.choice([0x1, 0x8, 0x40, 0x2000, 0x1 | 0x40, 0x800])
    if rng.random() < 0.5:
        entry.flags |= flag
    else:
        entry.local_flags = entry.flags | flag
    return f"drapeaux {flag:#x} {entry.name}", flag == 0x800


def zip_method(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    choice = rng.randrange(4)
    if choice == 0:  # declared otherwise than packed
        entry.packed_with = entry.method
        entry.method = rng.choice([0, 1, 6, 9, 12, 14, 93, 95, 98, 99])
        return f"méthode {entry.method} déclarée, données {entry.packed_with} : {entry.name}", False
    if choice == 1:  # packed with another method zipfile knows (sound, if unusual)
        entry.method = rng.choice([zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
        return f"méthode {entry.method} : {entry.name}", True
    if choice == 2:  # stored: sound
        entry.method = zipfile.ZIP_STORED
        return f"non compressé : {entry.name}", True
    entry.method = zipfile.ZIP_DEFLATED
    entry.raw = _pack(entry.data, zipfile.ZIP_DEFLATED)[:-rng.randint(1, 20)]  # the deflate stream cut
    return f"flux deflate tronqué : {entry.name}", False


def zip_size(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    entry.size = rng.choice([0, 1, max(0, len(entry.data) - 1), len(entry.data) + 1, 0xFFFFFFFF, 1 << 31])
    return f"taille déclarée {entry.size} : {entry.name}", entry.size == len(entry.data)


def zip_truncate(m: Mutant, rng: random.Random) -> Done:
    total = len(build(m.archive))
    m.archive.cut = rng.choice([rng.randrange(total), total - rng.randint(1, 22), total - rng.randint(23, 200)])
    return f"zip tronqué à {m.archive.cut}/{total}", False


def zip_duplicate(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    copy = replace(entry)
    if entry.name.endswith((".xml", ".rels")) and rng.random() < 0.7:
        copy.data, _, _ = rng.choice(list(XML_MUTATIONS.values()))(entry.data, rng)
    at = m.archive.entries.index(entry)
    m.archive.entries.insert(at + 1 if rng.random() < 0.5 else rng.randrange(len(m.archive.entries) + 1), copy)
    return f"entrée en double {entry.name}", False


def zip_dangerous(m: Mutant, rng: random.Random) -> Done:
    """An entry out of the package (``../``, ``..\\``, absolute), and maybe a relationship toward it."""
    name = rng.choice(["../evil.txt", "..\\evil.txt", "xl/../../evil.xml", "/etc/evil", "C:/evil.txt",
                       "xl/media/../../../AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/x.bat",
                       "xl\\..\\..\\evil.bat"])
    m.archive.entries.append(Entry(name, b"@echo pwned\r\n"))
    said = f"entrée dangereuse {name!r}"
    if rng.random() < 0.6:
        target = rng.choice(["../../evil.txt", "/" + name.lstrip("/"), "..\\..\\evil.bat"])
        relation = (b'<Relationship Id="rIdEvil" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                    b'relationships/oleObject" Target="' + target.encode() + b'"/></Relationships>')
        for entry in m.archive.entries:
            if entry.name.endswith(".rels") and rng.random() < 0.5:
                entry.data = entry.data.replace(b"</Relationships>", relation)
                said += f", relation vers {target!r} dans {entry.name}"
                break
    return said, False


def zip_drop(m: Mutant, rng: random.Random) -> Done:
    important = [e for e in m.archive.entries if e.name in ("[Content_Types].xml", "_rels/.rels", "xl/workbook.xml",
                                                            "xl/_rels/workbook.xml.rels", "xl/styles.xml")]
    entry = rng.choice(important) if important and rng.random() < 0.5 else _pick(m, rng)
    m.archive.entries.remove(entry)
    return f"entrée ôtée {entry.name}", False


def zip_order(m: Mutant, rng: random.Random) -> Done:
    rng.shuffle(m.archive.entries)
    return "entrées dans un autre ordre", True


def zip_names(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    entry.name = rng.choice([entry.name.upper(), entry.name.replace("/", "\\"), "/" + entry.name,
                             entry.name + "/", entry.name.replace("/", "//", 1), entry.name + "\x00"])
    return f"nom changé {entry.name!r}", False


def zip_frame(m: Mutant, rng: random.Random) -> Done:
    choice = rng.randrange(5)
    if choice == 0:
        m.archive.prefix = b"MZ" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 500)))
        m.archive.relative = rng.random() < 0.5
        return "octets avant le zip", False
    if choice == 1:
        m.archive.comment = bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))
        return "commentaire du zip", True
    if choice == 2:
        m.archive.count = rng.choice([0, 1, len(m.archive.entries) + 5, 0xFFFF])
        return f"nombre d'entrées déclaré {m.archive.count}", False
    if choice == 3:
        folder = rng.choice(["xl/", "xl/worksheets/", "docProps/"])
        m.archive.entries.insert(rng.randrange(len(m.archive.entries) + 1), Entry(folder, b""))
        return f"entrée de dossier {folder}", False
    entry = _pick(m, rng)
    entry.extra = rng.choice([b"\x01\x00\x08\x00" + b"\xff" * 8, b"\x01\x00\x20\x00", b"\xff\xff",
                              b"\x55\x54\x05\x00\x01\x00\x00\x00\x00"])
    return f"champ extra {entry.extra[:4]!r} : {entry.name}", False


def zip_bomb(m: Mutant, rng: random.Random) -> Done:
    entry = _pick(m, rng)
    size = rng.choice([60, 300]) << 20
    entry.raw, entry.data = _zeros(size), b""
    entry.crc, entry.size = 0, size
    if rng.random() < 0.5:
        entry.size = 1000  # a size that lies
    return f"bombe {size >> 20} Mo (taille déclarée {entry.size}) : {entry.name}", False


_ZEROS: dict[int, bytes] = {}


def _zeros(size: int) -> bytes:
    """``size`` bytes of zeros, deflated: one megabyte packed once (a full flush makes each alike), repeated."""
    if size not in _ZEROS:
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        chunk = packer.compress(bytes(1 << 20)) + packer.flush(zlib.Z_FULL_FLUSH)
        _ZEROS[size] = chunk * (size >> 20) + zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    return _ZEROS[size]


ZIP_MUTATIONS: dict[str, Callable[[Mutant, random.Random], Done]] = {
    "crc": zip_crc, "nom local": zip_local_name, "drapeaux": zip_flags, "méthode": zip_method,
    "taille": zip_size, "tronqué": zip_truncate, "double": zip_duplicate, "dangereux": zip_dangerous,
    "ôté": zip_drop, "ordre": zip_order, "noms": zip_names, "cadre": zip_frame, "bombe": zip_bomb,
}


def mutant(original: bytes, seed: int, case: int) -> Mutant:
    """Case ``case`` of the run of ``seed``: one to three mutations of ``original``, at the zip, XML or value level."""
    rng = random.Random(f"{seed}:{case}")
    m = Mutant(Archive(entries_of(original)))
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        level = rng.random()
        if level < 0.3:
            name = rng.choice(list(ZIP_MUTATIONS))
            said, sound = ZIP_MUTATIONS[name](m, rng)
            m.said.append(said)
            m.sound &= sound
            m.kinds.append(f"zip {name}")
        elif level < 0.8:
            mutate_xml(m, rng)
        else:
            mutate_value(m, rng)
    return m


def every_kind(parts: list[str]) -> set[str]:
    """The kinds of mutation ``mutant`` makes, and the parts (``parts``, by ``_part`` kind) it may change."""
    return ({f"zip {name}" for name in ZIP_MUTATIONS} | {f"xml {name}" for name in XML_MUTATIONS}
            | {"valeur value_cell"} | {"valeur value_string" for part in parts if part.startswith("xl/sharedStrings")}
            | {f"partie {part}" for part in parts})


def covering(seed: int, cases: range, times: int, files: dict[tuple[str, bool], bytes]) -> list[int]:
    """The cases of ``cases`` (in order) that each bring a kind of mutation, a part mutated or a federation not yet
    seen ``times`` times: a short run of a seed that still reaches every kind (the suite's)."""
    seen: Counter[str] = Counter()
    chosen = []
    for case in cases:
        code, filled = choose_original(seed, case)
        kinds = set(mutant(files[code, filled], seed, case).kinds) | {f"fédération {code}{' rempli' * filled}"}
        if any(seen[kind] < times for kind in kinds):
            chosen.append(case)
            seen.update(kinds)
    return chosen


def choose_original(seed: int, case: int) -> tuple[str, bool]:
    """The federation and whether the example is filled (as ``demo`` leaves it) for a case."""
    rng = random.Random(f"{seed}:{case}:original")
    return rng.choice(CODES), rng.random() < 0.5


# --- running a case ------------------------------------------------------------------------------------


@dataclass
class Result:
    outcome: str  # accepted, refused, or a finding: traceback, damaged, disagreement, wrong, unread, hang
    detail: str = ""
    said: str = ""
    module: str = ""  # a traceback's innermost module of xlcircuit (``xlcircuit/xlsx/package.py``)

    @property
    def finding(self) -> bool:
        return self.outcome not in ("accepted", "refused", "unread")


#: Each federation's example cut to its first few events (the suite's originals): the main table, how many of
#: its first columns make an event (a tournament, a round's table, a game, a match), and how many events kept.
SMALL = {"tdf": ("RESULTATS", 1, 2), "dbm": ("RESULTATS", 1, 6), "cdf": ("PARTIES", 2, 2),
         "elo": ("PARTIES", 2, 4), "torres": ("MATCHS", 3, 3)}


def small_example(code: str) -> object:
    """The bundled example of ``code`` cut to its first events (``SMALL``), with the tournaments, votes, players
    and preferences they name: a smaller season of the same federation, that fills without a problem."""
    from types import SimpleNamespace

    from xlcircuit.federations.examples import load

    full = vars(load(code))
    table, width, events = SMALL[code]
    keys = list(dict.fromkeys(tuple(row[:width]) for row in full[table]))[:events]
    kept = [row for row in full[table] if tuple(row[:width]) in keys]
    names = {value for row in kept for value in row if isinstance(value, str)}
    cut = dict(full, **{table: kept})
    for name, rows in full.items():
        if name in (table, "PARAMETRES") or name.endswith("HEADERS") or not isinstance(rows, list):
            continue
        if name == "VOTES":
            cut[name] = [row for row in rows if tuple(row[:width]) in keys]
        else:  # tournaments and players by their name; preferences by both names
            cut[name] = [row for row in rows if all(v in names for v in row[:2 if name == "PREFERES" else 1])]
    return SimpleNamespace(**cut)


class Originals:
    """Each federation's example, typed in and filled, written once in ``folder``; and the standings each fills to.
    ``small``: each example cut to its first few events (``small_example``), for the suite."""

    def __init__(self, folder: Path, small: bool = False):
        from unittest import mock

        from xlcircuit.federations import ADAPTERS
        from xlcircuit.xlsx import Book, save_atomic

        self.folder = folder
        self.files: dict[tuple[str, bool], bytes] = {}
        self.standings: dict[str, list] = {}
        for code in CODES:
            adapter = ADAPTERS[code]
            wb = adapter.new_workbook()
            if small:
                with mock.patch.object(sys.modules[type(adapter).__module__], "load", small_example):
                    adapter.put_example(wb)
            else:
                adapter.put_example(wb)
            path = save_atomic(wb, folder / f"{code}.xlsx")
            self.files[code, False] = path.read_bytes()
            book = Book(path)
            adapter.fill(book)
            book.save()
            self.files[code, True] = path.read_bytes()
            self.standings[code] = standings(path, code)


_SMALL_ORIGINALS: list[Originals] = []


def small_originals() -> Originals:
    """The examples cut small (``small_example``), typed in and filled: made once a process (the suite's)."""
    if not _SMALL_ORIGINALS:
        with tempfile.TemporaryDirectory() as folder:
            _SMALL_ORIGINALS.append(Originals(Path(folder), small=True))
    return _SMALL_ORIGINALS[0]


def standings(path: Path, code: str) -> list:
    """The rows of the standings table of a filled workbook, as openpyxl reads them."""
    import openpyxl

    return _table_rows(openpyxl.load_workbook(path), code)


def _table_rows(wb, code: str) -> list:
    from xlcircuit.federations import ADAPTERS

    name = ADAPTERS[code].standings.name
    for ws in wb.worksheets:
        for table in ws.tables.values():
            if str(table.displayName).casefold() == name.casefold():
                return [[c.value for c in row] for row in ws[table.ref]]
    return []


def _place(exc: BaseException) -> str:
    """A traceback's kind and innermost frame of xlcircuit (else the innermost), as ``Kind at file:line``."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "xlcircuit" in f.filename] or frames
    last = ours[-1] if ours else None
    return f"{type(exc).__name__} at {Path(last.filename).name}:{last.lineno}" if last else type(exc).__name__


def _module(exc: BaseException) -> str:
    """The innermost module of the xlcircuit package a traceback went through, from the package's folder."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        parts = Path(frame.filename).parts
        if "xlcircuit" in parts:
            return "/".join(parts[len(parts) - parts[::-1].index("xlcircuit") - 1:])
    return ""


def _show(exc: BaseException) -> None:
    """A replayed case's traceback, printed (``--replay``)."""
    if os.environ.get("XLCIRCUIT_FUZZ_SHOW"):
        traceback.print_exception(type(exc), exc, exc.__traceback__)


#: What the validators said of files already judged, by their bytes' digest: a mutation of a part a fill
#: rewrites often gives the very file another case gave.
_JUDGED: dict[bytes, Judged] = {}


@dataclass(frozen=True)
class Judged:
    broken: str | None  # why openpyxl does not reopen the workbook; None when it does
    problems: frozenset[str]  # what the package validator says
    standings: tuple[tuple[object, ...], ...] = ()  # the federation's standings, as openpyxl reads them


def validated(path: Path, code: str) -> Judged:
    """Whether openpyxl reopens a workbook, the package validator's problems, and its standings."""
    import hashlib
    import warnings

    import openpyxl

    key = hashlib.sha256(path.read_bytes()).digest() + code.encode()
    if key in _JUDGED:
        return _JUDGED[key]
    broken, rows = None, []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows = _table_rows(openpyxl.load_workbook(path), code)
    except Exception as exc:
        broken = f"{type(exc).__name__}: {str(exc)[:80]}"
    try:
        with _parsed_once():
            problems = frozenset(_validator()(path))
    except Exception as exc:
        problems = frozenset({f"validateur : {type(exc).__name__}"})
    if len(_JUDGED) > 5000:
        _JUDGED.clear()
    _JUDGED[key] = judged = Judged(broken, problems, tuple(tuple(row) for row in rows))
    return judged


_PARSED: dict[bytes, object] = {}


def _validator() -> Callable[[Path], list[str]]:
    """The engine's package validator, ``package_problems``, wherever the engine keeps it."""
    import importlib

    for name in ("xlcircuit.xlsx.validate", "xlcircuit.xlsx.package"):
        try:
            found: Callable[[Path], list[str]] = importlib.import_module(name).package_problems
        except (ImportError, AttributeError):
            continue
        return found
    raise ImportError("xlcircuit.xlsx has no package_problems")


@contextlib.contextmanager
def _parsed_once() -> Iterator[None]:
    """The package validator's XML parses, remembered by the bytes parsed: most parts of a case are those of
    the original, parsed already. Only for the validator (``check`` and ``fill`` parse as they do)."""
    import hashlib

    package = sys.modules[_validator().__module__]
    real = getattr(package, "SafeET", None)
    if real is None:
        yield
        return

    class Remembering:
        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

        @staticmethod
        def fromstring(data: bytes, *args: object, **kwargs: object) -> object:
            key = hashlib.sha256(data).digest()
            if key not in _PARSED:
                try:
                    _PARSED[key] = real.fromstring(data, *args, **kwargs)
                except Exception as exc:
                    _PARSED[key] = exc
            if len(_PARSED) > 20000:
                _PARSED.clear()
            found = _PARSED.get(key)
            if isinstance(found, Exception):
                raise found
            return found

    package.SafeET = Remembering()  # type: ignore[attr-defined]
    try:
        yield
    finally:
        package.SafeET = real  # type: ignore[attr-defined]


def _normalised(problems: frozenset[str]) -> set[str]:
    """Problems as compared before and after a fill: counts in parentheses left out (a style index past the
    list is the same problem whether the list has 18 styles or the 19 of the filled workbook)."""
    return {re.sub(r"\(\d+\)", "(…)", problem) for problem in problems}


def _outside(name: str) -> bool:
    return name.startswith(("/", "\\")) or ".." in re.split(r"[/\\]", name) or re.match(r"[A-Za-z]:", name) is not None


def _dangerous(path: Path) -> list[str]:
    """Entries named out of the package, and internal relationships whose target resolves out of it."""
    import posixpath

    found = []
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if _outside(name):
                found.append(name)
            elif name.endswith(".rels"):
                base = posixpath.dirname(posixpath.dirname(name))
                for target, mode in re.findall(rb'Target\s*=\s*["\']([^"\']*)["\'](?:[^>]*TargetMode\s*=\s*'
                                               rb'["\'](\w+))?', archive.read(name)):
                    text = target.decode("utf-8", "replace")
                    if mode == b"External" or "://" in text:
                        continue
                    resolved = posixpath.normpath(posixpath.join(base, text)) if not text.startswith("/") else text
                    if "\\" in text or resolved.startswith("..") or resolved.startswith("//"):
                        found.append(f"{name} -> {text}")
    return found


def _leftovers(folder: Path) -> list[str]:
    """Files a run left beside the workbook other than the workbook and its backups."""
    return sorted(p.name for p in folder.iterdir() if p.name not in ("classeur.xlsx", "avant.xlsx")
                  and not p.name.startswith("classeur (avant xlcircuit"))


def evaluate(data: bytes, code: str, folder: Path, originals: Originals, sound: bool) -> Result:
    """Run ``check`` then ``fill`` (in place) on the mutant ``data``, and judge what they did."""
    from xlcircuit.app import run
    from xlcircuit.app.check import check
    from xlcircuit.app.fill import fill

    path = folder / "classeur.xlsx"
    path.write_bytes(data)
    old = time.time() - 3600  # an e-mailed file, not one being written
    os.utime(path, (old, old))
    try:
        checked = run(lambda: check(path))
    except Exception as exc:
        _show(exc)
        return Result("traceback", f"check: {_place(exc)}: {str(exc)[:120]}", module=_module(exc))
    try:
        filled = run(lambda: fill(path))
    except Exception as exc:
        _show(exc)
        return Result("traceback", f"fill: {_place(exc)}: {str(exc)[:120]}", module=_module(exc))
    for outcome in (checked, filled):
        if "Traceback" in (outcome.error or ""):
            return Result("traceback", f"a traceback in the message: {outcome.error[:120]}")
    if _leftovers(folder):
        return Result("damaged", f"files left beside the workbook: {_leftovers(folder)[:3]}")
    if filled.failed:
        if path.read_bytes() != data:
            return Result("damaged", f"refused and changed on disk: {filled.error or ''}"[:200])
        if not checked.failed:
            return Result("disagreement", f"check accepts, fill refuses: {(filled.error or '')[:150]}"
                          + (f" / {filled.problems[0]}" if filled.problems else ""))
        return Result("unread" if sound else "refused", (checked.error or "")[:150])
    if checked.failed:
        return Result("disagreement", f"check refuses, fill fills: {(checked.error or '')[:150]}"
                      + (f" / {checked.problems[0]}" if checked.problems else ""))
    return _judge_filled(data, path, code, folder, originals, sound)


def _judge_filled(data: bytes, path: Path, code: str, folder: Path, originals: Originals, sound: bool) -> Result:
    judged = validated(path, code)
    if judged.broken is not None or judged.problems:
        source = folder / "avant.xlsx"
        source.write_bytes(data)
        before = validated(source, code)
        if judged.broken is not None and before.broken is None:
            return Result("damaged", f"filled, no longer opens in openpyxl: {judged.broken}")
        added = _normalised(judged.problems) - _normalised(before.problems)
        if added:
            return Result("damaged", f"filled, new package problems: {'; '.join(sorted(added))[:200]}")
    dangerous = _dangerous(path)
    if dangerous:
        return Result("damaged", f"filled, dangerous names kept: {dangerous[:3]}")
    if sound and judged.broken is None and [list(row) for row in judged.standings] != originals.standings[code]:
        return Result("wrong", "a mutation that keeps the meaning, filled with other standings")
    return Result("accepted")


def attempt(seed: int, case: int, folder: Path, originals: Originals) -> Result:
    code, filled = choose_original(seed, case)
    m = mutant(originals.files[code, filled], seed, case)
    said = f"{code}{' rempli' if filled else ''}: {' | '.join(m.said)}"
    work = folder / f"case-{case}"
    work.mkdir()
    try:
        result = evaluate(build(m.archive), code, work, originals, m.sound)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result.said = said
    return result


#: The findings the workbook engine answers for (``xlcircuit/xlsx/``: the package read through one guarded layer,
#: the surgical copy and the save): everything but a traceback elsewhere and wrong standings.
def engine_finding(result: Result) -> bool:
    if result.outcome == "traceback":
        return result.module.startswith("xlcircuit/xlsx/")
    return result.outcome in ("damaged", "hang", "disagreement")


# --- the long run: worker processes, each case under a time limit ---------------------------------------


def _worker(connection, seed: int, memory: int) -> None:
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory << 30, resource.RLIM_INFINITY))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with tempfile.TemporaryDirectory() as scratch:
        originals = Originals(Path(scratch))
        connection.send("ready")
        while True:
            case = connection.recv()
            if case is None:
                return
            try:
                result = attempt(seed, case, Path(scratch), originals)
            except BaseException as exc:  # the harness's own failure, or a MemoryError outside the app
                result = Result("traceback", f"harness: {_place(exc)}: {str(exc)[:120]}")
            connection.send((case, result.outcome, result.detail, result.said))


class Worker:
    def __init__(self, context, seed: int, memory: int):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child, seed, memory), daemon=True)
        self.process.start()
        child.close()
        if not self.connection.poll(120) or self.connection.recv() != "ready":
            raise RuntimeError("a fuzz worker did not start")
        self.case: int | None = None
        self.since = 0.0
        self.cpu = 0.0

    def give(self, case: int) -> None:
        self.case, self.since, self.cpu = case, time.monotonic(), self.cpu_seconds() or 0.0
        self.connection.send(case)

    def cpu_seconds(self) -> float | None:
        """The processor time the worker has used (Linux's /proc; None elsewhere)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError, AttributeError):
            return None

    def over(self, timeout: float) -> str | None:
        """Why the case given is a hang: over ``timeout`` seconds of processor time (a bomb let through), or, on a
        loaded machine where a case waits its turn, over ten times that long on the clock (a file read without end,
        a pipe); None: not yet. Without processor times, over ``timeout`` on the clock."""
        elapsed, cpu = time.monotonic() - self.since, self.cpu_seconds()
        if cpu is None:
            return f"over {timeout:.0f} s" if elapsed > timeout else None
        if cpu - self.cpu > timeout:
            return f"over {timeout:.0f} s of processor time"
        return f"over {10 * timeout:.0f} s" if elapsed > 10 * timeout else None

    def stop(self) -> None:
        self.process.kill()
        self.process.join()


def long_run(cases: list[int] | range, seed: int, jobs: int, timeout: float, memory: int,
             report: Callable[[int, Result], None]) -> None:
    """Every case of ``cases`` in ``jobs`` worker processes; a case past ``timeout`` seconds is a hang (its
    worker killed and replaced); ``report`` is told each case's result."""
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    pending: Iterator[int] = iter(cases)
    workers = [Worker(context, seed, memory) for _ in range(max(1, min(jobs, len(cases))))]
    for worker in workers:
        case = next(pending, None)
        if case is not None:
            worker.give(case)
    while any(w.case is not None for w in workers):
        wait([w.connection for w in workers if w.case is not None], timeout=1.0)
        for index, worker in enumerate(workers):
            if worker.case is None:
                continue
            message = None
            if worker.connection.poll(0):
                with contextlib.suppress(EOFError, OSError):
                    message = worker.connection.recv()
            if message is not None:
                case, outcome, detail, said = message
                report(case, Result(outcome, detail, said))
                worker.case = None
            elif not worker.process.is_alive() or worker.over(timeout) is not None:
                hang = worker.over(timeout) if worker.process.is_alive() else None
                report(worker.case, Result("hang", hang) if hang is not None else Result(
                    "traceback", f"the worker process died (exit {worker.process.exitcode})"))
                worker.stop()
                worker = workers[index] = Worker(context, seed, memory)
            if worker.case is None:
                case = next(pending, None)
                if case is not None:
                    worker.give(case)
    for worker in workers:
        with contextlib.suppress(OSError):
            worker.connection.send(None)
        worker.process.join(5)
        if worker.process.is_alive():
            worker.stop()


def _kind(result: Result) -> str:
    """A finding's kind for counting: tracebacks by exception and place, the others by their first words."""
    if result.outcome == "traceback":
        return result.detail.split(": ", 2)[1] if result.detail.count(": ") >= 2 else result.detail
    return re.sub(r"[:(].*", "", result.detail).strip()[:70]


def figures(results: dict[int, Result], title: str) -> int:
    """Print the figures of a run (each case's result): outcomes, findings by kind with an example; the findings."""
    outcomes = Counter(result.outcome for result in results.values())
    kinds: dict[str, Counter[str]] = {}
    examples: dict[tuple[str, str], str] = {}
    for case, result in sorted(results.items()):
        if result.outcome not in ("accepted", "refused"):
            kind = _kind(result)
            kinds.setdefault(result.outcome, Counter())[kind] += 1
            examples.setdefault((result.outcome, kind), f"case {case}: {result.said[:200]} => {result.detail[:200]}")
    print(f"{len(results)} cases ({title})")
    for outcome in ("accepted", "refused", "unread", "traceback", "hang", "damaged", "disagreement", "wrong"):
        print(f"  {outcome}: {outcomes[outcome]}")
        for kind, count in sorted(kinds.get(outcome, Counter()).items(), key=lambda item: -item[1]):
            print(f"    {count:>5}  {kind}")
            print(f"           e.g. {examples[outcome, kind]}")
    return sum(outcomes[o] for o in ("traceback", "hang", "damaged", "disagreement", "wrong"))


def read_log(paths: list[Path]) -> dict[int, Result]:
    """Each case's result in run logs (the last line of a case wins)."""
    results = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            results[entry["case"]] = Result(entry["outcome"], entry.get("detail", ""), entry.get("said", ""))
    return results


def log_seeds(paths: list[Path]) -> set[int | None]:
    """The seeds of the runs the logs hold (each line says its run's seed; None: a line of an older log, without)."""
    return {json.loads(line).get("seed") for path in paths for line in path.read_text(encoding="utf-8").splitlines()}


def _seed_of_logs(paths: list[Path], given: int | None) -> str:
    """The seed a summary is of, as its title says it: the logs', else the one given, else unknown. Logs of
    different seeds are not summed up together (their case numbers are different cases)."""
    seeds = log_seeds(paths) - {None}
    if len(seeds) > 1 or (seeds and given is not None and given not in seeds):
        sys.exit(f"these logs are of seeds {sorted(seeds)}" + (f", not {given}" if given is not None else "")
                 + ": summarise one seed at a time")
    if seeds:
        return f"seed {seeds.pop()}"
    return f"seed {given}" if given is not None else "seed not in the log (an older log: give it with --seed)"


def _one(args: argparse.Namespace) -> None:
    """``--save`` or ``--replay``: one case."""
    case = args.save if args.save is not None else args.replay
    with tempfile.TemporaryDirectory() as scratch:
        originals = Originals(Path(scratch))
        code, filled = choose_original(args.seed, case)
        m = mutant(originals.files[code, filled], args.seed, case)
        print(f"case {case}: {code}{' rempli' if filled else ''}: {' | '.join(m.said)}")
        if args.save is not None:
            args.to.write_bytes(build(m.archive))
            print(f"written: {args.to}")
            return
        os.environ["XLCIRCUIT_FUZZ_SHOW"] = "1"
        result = attempt(args.seed, case, Path(scratch), originals)
        print(f"{result.outcome}: {result.detail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--start", type=int, default=0, help="the first case")
    parser.add_argument("--seed", type=int, help="the run's seed (default 1; for --summary, the log's)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds before a case is a hang")
    parser.add_argument("--memory", type=int, default=3, help="address-space limit of a worker, in GiB")
    parser.add_argument("--replay", type=int, help="run only this case, in this process, its traceback shown")
    parser.add_argument("--save", type=int, help="write this case's mutant (see --to) and say what it is")
    parser.add_argument("--to", type=Path, default=Path("mutant.xlsx"))
    parser.add_argument("--log", type=Path, help="write each case's result there, one JSON line each (appended)")
    parser.add_argument("--resume", action="store_true", help="leave out the cases --log already has")
    parser.add_argument("--summary", type=Path, nargs="+", help="only print the figures of these logs")
    args = parser.parse_args()
    if args.summary:
        title = f"{_seed_of_logs(args.summary, args.seed)}, from {', '.join(map(str, args.summary))}"
        results = read_log(args.summary)
        if args.cases:
            results = {c: r for c, r in results.items() if args.start <= c < args.start + args.cases}
        sys.exit(1 if figures(results, title) else 0)
    args.seed = 1 if args.seed is None else args.seed
    if args.save is not None or args.replay is not None:
        _one(args)
        return
    if args.resume and args.log and args.log.exists() and log_seeds([args.log]) - {None, args.seed}:
        sys.exit(f"{args.log} holds a run of seed {sorted(log_seeds([args.log]) - {None})}, not {args.seed}")
    cases = range(args.start, args.start + args.cases)
    done = set(read_log([args.log])) if args.resume and args.log and args.log.exists() else set()
    results: dict[int, Result] = {}
    log = args.log.open("a", encoding="utf-8") if args.log else None
    start = time.monotonic()

    def report(case: int, result: Result) -> None:
        results[case] = result
        if log:
            entry = {"seed": args.seed, "case": case, "outcome": result.outcome}
            if result.outcome not in ("accepted", "refused"):
                entry |= {"detail": result.detail, "said": result.said}
            log.write(json.dumps(entry, ensure_ascii=False) + "\n")
            log.flush()
        if len(results) % 500 == 0:
            print(f"… {len(results)} cases, {time.monotonic() - start:.0f} s: "
                  f"{dict(Counter(r.outcome for r in results.values()))}", file=sys.stderr, flush=True)

    long_run([c for c in cases if c not in done], args.seed, args.jobs, args.timeout, args.memory, report)
    if log:
        log.close()
    if done:
        results = {**read_log([args.log]), **results}
    title = f"seed {args.seed}, cases {args.start}-{args.start + args.cases - 1}, {time.monotonic() - start:.0f} s"
    sys.exit(1 if figures(results, title) else 0)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
