"""Safe open: the one guarded reader of a workbook file. Every use of a workbook (check, fill, share, explain...)
opens it here, once, and reads its parts through what this returns; nothing else opens the file.

Before any part is given to openpyxl or to the engine's own readers, the whole file is checked, so that a file
``check`` accepts is one ``fill`` fills, and any other file is one French sentence:

- the file itself: a regular file (a device or a pipe is not read), not empty, not an old .xls, a zip;
- the zip: every member's local header agreeing with the central directory, no encryption, compressions Excel
  writes (stored, deflated), no name twice, sizes and compression ratios of a workbook, every member read
  through to its end (its CRC checked);
- the XML of every part, read by a real XML parser (expat), streaming: well-formed, in an encoding it knows,
  with no document type declaration (where entities are declared);
- what the parts declare (cells, rows, shared strings, styles, merged cells...), counted before openpyxl builds
  any of it, within limits of count, size and time;
- the package's map (:class:`.package.Package`): its sheets, relationships and tables, with their ids and ranges.

Members named outside the package (``../``, ``..\\``, an absolute path) are left out, with a warning.
"""

from __future__ import annotations

import functools
import hashlib
import html
import os
import posixpath
import re
import stat
import time
import warnings
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO
from xml.parsers import expat

import openpyxl
from defusedxml import ElementTree as SafeET
from openpyxl.utils import range_boundaries
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.workbook.workbook import Workbook

from ..rules.errors import WorkbookError
from .files import _being_written, _being_written_error, _damaged
from .unkept import Unkept, _find_markers, lost_features
from .zipio import data_offset

#: Largest total uncompressed size of a workbook's parts, and largest compression ratio of one
#: part, before anything is parsed: e-mailed files may be zip bombs.
MAX_UNCOMPRESSED = 1 << 30
MAX_RATIO = 500
_RATIO_MIN_SIZE = 1 << 20  # small parts may compress well; only a large one is suspect
#: Largest number of cells (and rows, shared strings, styles, merged cells, comments, drawn objects) a workbook
#: declares, counted in its XML before openpyxl parses it: each costs openpyxl about a kilobyte, and a tiny file
#: may declare millions. The largest season of the benchmarks (1,000 TdF tournaments, filled) declares about
#: 1 million.
MAX_CELLS = 2_000_000
#: What a merged cell costs, in cells: openpyxl gives each cell of a merged range its own object and borders,
#: about ten times what a cell costs it; and each range is one more object.
MERGED_WEIGHT = 10
#: Longest time the checks may take: a file taking longer is a trap (or far too big).
MAX_SECONDS = 120.0
#: Longest start tag (a real one is a few hundred bytes; a long list of ranges a few kilobytes).
MAX_TAG = 4 << 20
#: What each kind of part declares, by its elements.
_COUNTED = {"xl/worksheets/": (b"c", b"row"), "xl/sharedStrings": (b"si",), "xl/styles": (b"xf", b"dxf"),
            "xl/comments": (b"comment",), "xl/drawings/": (b"twoCellAnchor", b"oneCellAnchor", b"absoluteAnchor")}
#: After a start tag's name: white space, '/' or '>' (XML 1.0, §3.1).
_AFTER_NAME = (b" ", b"\t", b"\n", b"\r", b"/", b">")
_PREFIX = rb"(?:[^\s<>/!?=\"':]+:)?"  # an optional namespace prefix (names may hold any letter)
_MERGE = re.compile(rb"<" + _PREFIX + rb"mergeCell((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*/?>")
_REF = re.compile(rb"""(?:^|\s)ref\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_CHUNK = 1 << 20
#: A part's references to its relationships: ``r:id="rId1"``, ``r:embed=…`` (any prefix bound to their namespace).
_RELATIONS_PREFIX = re.compile(rb"""xmlns:([\w.-]+)\s*=\s*["']http://schemas\.openxmlformats\.org/officeDocument/2006/"""
                               rb"""relationships["']""")
_REFERENCE = re.compile(rb"""(?<![\w.:-])([\w.-]+):(?:id|embed|link|pict)\s*=\s*["']([^"']*)["']""")
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED = "EncryptedPackage".encode("utf-16-le")
_XML = (".xml", ".rels", ".vml")


class _Refused(Exception):
    """What the XML reader refuses in a part: a sentence's end (its beginning names the file)."""


def _sentence(name: str, what: str) -> WorkbookError:
    return WorkbookError(f"{name} est endommagé et ne peut pas être lu ({what}) : ouvrez-le dans votre tableur, "
                         "enregistrez-le sous un autre nom, puis relancez.")


def _entities(name: str) -> WorkbookError:
    return WorkbookError(f"{name} contient des constructions XML interdites (entités) : fichier piégé ou abîmé, il "
                         "n'est pas lu.")


def _too_many(name: str, part: str) -> WorkbookError:
    return WorkbookError(f"{name} déclare plus de {MAX_CELLS:,} cellules".replace(",", " ")
                         + f" ({part}) : fichier piégé ou bien trop gros, il n'est pas lu.")


class Opened:
    """A workbook file opened once and checked whole: its bytes' digest, its zip, its package's map, what openpyxl
    would drop. The file stays open (its parts are read from it, never from the path again) until :meth:`close`.
    """

    def __init__(self, path: str | os.PathLike[str], name: str | None = None):
        self.path = Path(path)
        #: How messages name it (the name the organiser gave, even through a link).
        self.name = name or self.path.name
        #: Member names left out (outside the package), for a warning.
        self.outside: list[str] = []
        #: Parts not in UTF-8 (the engine's byte-level readers take those through openpyxl only).
        self.encodings: dict[str, str] = {}
        #: The relationship ids each part refers to (``r:id``, ``r:embed``...), checked against its relationships.
        self.references: dict[str, set[str]] = {}
        self.handle = _open_regular(self.path, self.name)
        try:
            status = os.fstat(self.handle.fileno())
            self.stamp = (status.st_size, status.st_mtime_ns)
            self._check_head()
            self.digest = _digest(self.handle)
            self.zip = self._zip()
            self.infos = self._members()
            self.names = {info.filename for info in self.infos}
            markers = self._scan()
            #: Relationships whose target is named outside the package, by relationship part: (id, target) each.
            #: Left out of the map, and of the relationship parts a fill writes (a warning says so).
            self.outside_relations = self._outside_relations()
            from .package import Package  # the map reads its parts through this

            self.package = Package(self)
            self._check_references()
            self.unkept: list[Unkept] = lost_features(self.package, markers)
        except BaseException:
            self.handle.close()
            raise

    def close(self) -> None:
        self.handle.close()

    def _outside_relations(self) -> dict[str, list[tuple[str, str]]]:
        """The internal relationships whose target leaves the package (``..\\..\\evil.bat``, ``../../x``, a drive),
        by relationship part. One its part refers to cannot be left out without Excel repairing the file: one
        sentence."""
        found: dict[str, list[tuple[str, str]]] = {}
        for rels in sorted(self.names):
            if not rels.endswith(".rels"):
                continue
            source = _source_of(rels)
            try:
                root = SafeET.fromstring(self.read(rels))
            except Exception:  # not well-formed: refused where the map reads it
                continue
            for node in root:
                target = node.get("Target", "")
                if node.get("TargetMode") == "External" or "://" in target or _stays_inside(source, target):
                    continue
                rid = node.get("Id", "")
                if rid in self.references.get(source, ()):
                    raise _sentence(self.name, f"{source or 'le paquet'} renvoie à « {target[:60]} », hors du "
                                               "classeur")
                found.setdefault(rels, []).append((rid, target))
        return found

    def _check_references(self) -> None:
        """Every relationship id a part refers to is one of its relationships (Excel repairs a file where a sheet
        points to a table, a drawing to a picture, that is not there)."""
        for part, references in self.references.items():
            missing = references - {rel.id for rel in self.package.rels(part)}
            if missing:
                raise _sentence(self.name, f"{part} renvoie à la relation « {sorted(missing)[0][:40]} », absente de "
                                           "ses relations")

    def read(self, part: str) -> bytes:
        """A part's bytes (checked when the file was opened)."""
        return self.zip.read(part)

    def damaged(self, sentence: str) -> WorkbookError:
        """The error for a file that cannot be read: damaged, unless another program is rewriting it."""
        return _damaged(self.path, self.stamp, sentence)

    # -- the file and its zip --

    def _check_head(self) -> None:
        name = self.name
        head = self.handle.read(8)
        self.handle.seek(0)
        if not head:
            if _being_written(self.path, self.stamp):
                raise _being_written_error(name)
            raise WorkbookError(f"{name} est vide (0 octet) : ce n'est pas un classeur.")
        if head == _OLE2:
            if _ENCRYPTED in self.handle.read(MAX_UNCOMPRESSED):
                raise WorkbookError(f"{name} est protégé par mot de passe : enregistrez-le sans mot de passe, "
                                    "puis relancez.")
            raise WorkbookError(f"{name} est au format .xls (Excel 97-2003) : ouvrez-le dans votre tableur et "
                                "enregistrez-le au format .xlsx.")
        if not zipfile.is_zipfile(self.handle):
            if self.path.suffix.lower() in (".csv", ".txt", ".tsv"):
                raise WorkbookError(f"{name} est un fichier texte : ouvrez-le dans votre tableur et enregistrez-le "
                                    "au format .xlsx.")
            raise self.damaged(f"{name} n'est pas un classeur .xlsx lisible (fichier tronqué, abîmé ou d'un autre "
                               "format).")

    def _unreadable(self, part: str | None = None) -> WorkbookError:
        where = f" : partie {part}" if part else ""
        return self.damaged(f"{self.name} n'est pas un classeur .xlsx lisible (fichier tronqué ou abîmé{where}).")

    def _zip(self) -> zipfile.ZipFile:
        try:
            return zipfile.ZipFile(self.handle)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError, NotImplementedError):
            raise self._unreadable() from None

    def _members(self) -> list[zipfile.ZipInfo]:
        """The zip's members, each checked; those named outside the package left out (:attr:`outside`)."""
        name = self.name
        infos = []
        seen: set[str] = set()
        bounds = _bounds(self.zip, self.handle)
        for info in self.zip.infolist():
            if not _inside(info.filename):
                self.outside.append(info.filename)
                continue
            if info.filename.casefold() in seen:
                raise _sentence(name, f"la partie {info.filename} y est deux fois")
            seen.add(info.filename.casefold())
            if info.flag_bits & 0x1:
                raise WorkbookError(f"{name} contient une partie chiffrée ({info.filename}) : enregistrez-le sans mot "
                                    "de passe dans votre tableur, puis relancez.")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise _sentence(name, f"la partie {info.filename} est compressée d'une façon qu'Excel n'écrit pas, "
                                      f"méthode {info.compress_type}")
            try:
                start = data_offset(self.handle, info)
            except Exception:  # Unsupported, or a header past the end of the file
                raise self._unreadable(info.filename) from None
            # Its data must end before the next member starts: what is copied raw is what was read.
            if start + info.compress_size > bounds.get(info.header_offset, 0):
                raise self._unreadable(info.filename)
            infos.append(info)
        if "xl/workbook.xml" not in seen:
            if "content.xml" in seen:  # OpenDocument, LibreOffice's own format: say how to get an .xlsx
                quoted = f'"{name}"' if " " in name else name
                raise WorkbookError(f"{name} est un classeur LibreOffice (OpenDocument), pas un classeur Excel : "
                                    "enregistrez-le au format .xlsx (Fichier > Enregistrer sous, type « Excel "
                                    f"2007-365 ») ou convertissez-le (soffice --headless --convert-to xlsx "
                                    f"{quoted}), puis relancez sur le .xlsx.")
            raise WorkbookError(f"{name} est une archive zip qui ne contient pas de classeur Excel.")
        _check_sizes(name, infos)
        return infos

    # -- every member read through, the XML parts by a real parser --

    def _scan(self) -> dict[str, set[str]]:
        """Read every member to its end (CRC checked), each XML part through :class:`_Scanner`; returns, by sheet
        part, the labels of what openpyxl drops found in it."""
        deadline = time.monotonic() + MAX_SECONDS
        total = 0
        markers: dict[str, set[str]] = {}
        for info in self.infos:
            scanner = _Scanner(info.filename) if info.filename.lower().endswith(_XML) else None
            try:
                with self.zip.open(info) as member:
                    while chunk := member.read(_CHUNK):
                        if scanner is not None:
                            scanner.feed(chunk)
                        _in_time(self.name, deadline)
                if scanner is None:
                    continue
                scanner.close()
                count = scanner.count
                if scanner.unsure or total + count > MAX_CELLS:  # counted again, element by element
                    count = _exact_count(self.zip, info, scanner.tags, deadline, self.name)
            except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, ValueError):
                raise self._unreadable(info.filename) from None
            except _Refused as refused:
                if refused.args[0] == "entities":
                    raise _entities(self.name) from None
                raise _sentence(self.name, f"XML invalide dans {info.filename} : {refused.args[0]}") from None
            total += count
            if total > MAX_CELLS:
                raise _too_many(self.name, info.filename)
            if scanner.encoding is not None:
                self.encodings[info.filename] = scanner.encoding
            if scanner.markers:
                markers[info.filename] = scanner.markers
            if scanner.references:
                self.references[info.filename] = scanner.references
        return markers


def _bounds(archive: zipfile.ZipFile, handle: BinaryIO) -> dict[int, int]:
    """For each member (by its header's offset), where the next member, or the central directory, starts."""
    handle.seek(0, os.SEEK_END)
    end = min(handle.tell(), getattr(archive, "start_dir", handle.tell()))
    starts = sorted({info.header_offset for info in archive.infolist()})
    return dict(zip(starts, [*starts[1:], end]))


def _in_time(name: str, deadline: float) -> None:
    if time.monotonic() > deadline:
        raise WorkbookError(f"{name} est trop long à lire (plus de {MAX_SECONDS:.0f} s) : fichier piégé ou bien trop "
                            "gros, il n'est pas lu.")


def _open_regular(path: Path, name: str) -> BinaryIO:
    """The file at ``path`` opened for reading, if it is a regular file (a device or a pipe is never read:
    ``/dev/zero`` has no end, a pipe blocks until someone writes to it)."""
    try:
        status = path.stat()
    except FileNotFoundError:
        raise WorkbookError(f"Fichier introuvable : {path}") from None
    except OSError as exc:
        raise WorkbookError(f"{name} ne peut pas être lu ({exc.strerror or exc}).") from None
    if stat.S_ISDIR(status.st_mode):
        raise WorkbookError(f"{path} est un dossier, pas un classeur.")
    if not stat.S_ISREG(status.st_mode):
        raise _not_regular(name)
    try:
        # Not blocking: if a pipe took the file's place meanwhile, opening it does not wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except PermissionError:
        if not os.access(path, os.R_OK):
            raise WorkbookError(f"{name} ne peut pas être lu : vous n'avez pas le droit de le lire (demandez ce droit, "
                                "ou copiez le fichier ailleurs), puis relancez.") from None
        raise WorkbookError(f"{name} est verrouillé par un autre programme (Excel ?) : fermez-le et relancez.") \
            from None
    except OSError as exc:
        raise WorkbookError(f"{name} ne peut pas être lu ({exc.strerror or exc}).") from None
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        handle.close()
        raise _not_regular(name)
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return handle


def _not_regular(name: str) -> WorkbookError:
    return WorkbookError(f"{name} n'est pas un fichier ordinaire (un périphérique ou un tube, par exemple) : ce n'est "
                         "pas un classeur, il n'est pas lu.")


def _digest(handle: BinaryIO) -> str:
    """The SHA-256 of the whole file (what was read, to tell it from another program's save later)."""
    handle.seek(0)
    digest = hashlib.sha256()
    while chunk := handle.read(_CHUNK):
        digest.update(chunk)
    handle.seek(0)
    return digest.hexdigest()


def _inside(member: str) -> bool:
    """Whether a member's name stays inside the package: no '..' segment, no absolute path, no drive."""
    parts = member.replace("\\", "/").split("/")
    return not (member.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]))


def _source_of(rels: str) -> str:
    """The part whose relationships ``rels`` holds ('' for the package's own, ``_rels/.rels``)."""
    folder, _, name = rels.rpartition("_rels/")
    return folder + name[: -len(".rels")]


def _stays_inside(source: str, target: str) -> bool:
    """Whether a relationship's target names a part inside the package: no backslash, no drive, no '..' above
    its root."""
    if "\\" in target or re.match(r"[A-Za-z]:", target) or target.startswith("//"):
        return False
    path = target if target.startswith("/") else posixpath.dirname(source) + "/" + target
    if ":" in path.lstrip("/").split("/")[0]:  # a drive (``/C:/x``), as a member's name would be left out
        return False
    depth = 0
    for segment in path.split("/"):
        if segment == "..":
            depth -= 1
            if depth < 0:
                return False
        elif segment not in ("", "."):
            depth += 1
    return True


def _check_sizes(name: str, infos: list[zipfile.ZipInfo]) -> None:
    total = sum(i.file_size for i in infos)
    if total > MAX_UNCOMPRESSED:
        raise WorkbookError(f"{name} est trop gros une fois décompressé ({total >> 20} Mio, "
                            f"{MAX_UNCOMPRESSED >> 20} Mio au plus) : il n'est pas lu.")
    for info in infos:
        if info.file_size > _RATIO_MIN_SIZE and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise WorkbookError(f"{name} contient une partie anormalement compressée ({info.filename} : "
                                f"{info.file_size // max(info.compress_size, 1)} fois, {MAX_RATIO} au plus) : "
                                "fichier piégé ou abîmé, il n'est pas lu.")


class _Scanner:
    """One XML part, read as it is decompressed: its prolog by a real XML parser (expat), its elements counted.

    - The prolog (what precedes the root element: the XML declaration, comments, processing instructions, and the
      document type declaration, where entities are declared) is read by expat, streaming: a document type is
      refused wherever it hides (behind a long comment...), an encoding expat does not know is refused, one that
      is not UTF-8 is noted. A document type cannot come after the root element's start in XML.
    - The elements are counted on the bytes, at the speed of a byte search, by the XML grammar (§3.1): a start
      tag is ``<`` then a name, ``c`` or, with a prefix, ``x:c``; so every start tag of an element ``c`` holds
      ``<c`` or ``:c``, whatever the white space after the name or the quotes of its attributes. Counting those
      gives at least as many elements as any XML parser builds (``<col``, a comment or a text holding ``:c`` count
      too many, never too few). Merged ranges are read from their ``ref``, quoted either way, entities decoded.
    - The whole part is then read by the same parser, with no handler left (at C speed): a part that is not
      well-formed XML is refused, whether or not a fill reads it (a part copied as it is must open again).
    - Where that count could refuse a file, or cannot be trusted (a part in UTF-16, a merged-range tag the
      pattern does not read), the part is counted again by expat, element by element (:func:`_exact_count`).
    """

    def __init__(self, part: str):
        self.part = part
        self.tags = next((tags for prefix, tags in _COUNTED.items() if part.startswith(prefix)), ())
        self.sheet = part.startswith("xl/worksheets/")
        self.markers: set[str] = set()
        self.candidates: set[tuple[bytes, bytes]] = set()  # (prefix, value) of attributes that may be relationship ids
        self.prefixes: set[bytes] = set()  # the prefixes bound to the relationships' namespace
        self.encoding: str | None = None  # when not UTF-8
        self.declaration: str | None = None  # the encoding declared
        self.count = 0
        self.unsure = False
        self.parser: expat.XMLParserType | None = _prolog_parser(self)
        self.prolog = 0  # bytes of prolog read
        self.in_prolog = True
        self.carry = b""

    def declared(self, encoding: str | None) -> None:
        self.declaration = encoding
        if encoding is not None and encoding.lower().replace("_", "-") not in ("utf-8", "utf8"):
            self.encoding = encoding

    def feed(self, chunk: bytes) -> None:
        """Read a piece of the part."""
        if self.parser is not None:
            self._prolog(chunk, False)
        if self.unsure:  # counted by expat after the pass
            return
        data = self.carry + chunk
        cut = data.rfind(b"<")  # every tag is whole in data[:cut]: a tag holds no '<'
        if cut <= 0:
            if cut == 0 and len(data) > MAX_TAG:
                raise _Refused("balise démesurée")
            self.carry = data if cut == 0 else b""
            return
        data, self.carry = data[:cut], data[cut:]
        self._count(data)

    def close(self) -> None:
        if self.parser is not None:
            self._prolog(b"", True)
        if not self.unsure:
            self._count(self.carry)

    def _prolog(self, data: bytes, final: bool) -> None:
        if self.prolog == 0 and (data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:4]):
            self.unsure = True  # UTF-16: no byte count
        if self.in_prolog:
            self.prolog += len(data)
        assert self.parser is not None
        try:
            self.parser.Parse(data, final)
        except expat.ExpatError as exc:
            raise _Refused(_expat_message(exc)) from None
        except (ValueError, LookupError):  # an encoding expat cannot read (multi-byte ones but UTF-8 and UTF-16)
            declared = re.search(rb"""encoding\s*=\s*["']([^"']{1,40})""", data[:200])
            encoding = declared.group(1).decode("ascii", "replace") if declared else self.declaration or "?"
            raise _Refused(f"encodage « {encoding} » non pris en charge") from None
        if self.in_prolog and self.prolog > MAX_TAG:
            raise _Refused("prologue démesuré avant le premier élément")

    @property
    def references(self) -> set[str]:
        """The relationship ids the part refers to."""
        return {value.decode("utf-8", "replace") for prefix, value in self.candidates if prefix in self.prefixes}

    def _count(self, data: bytes) -> None:
        if b"/officeDocument/2006/relationships" in data:
            self.prefixes.update(_RELATIONS_PREFIX.findall(data))
        if b":id" in data or b":embed" in data or b":link" in data or b":pict" in data:
            self.candidates.update(_REFERENCE.findall(data))
        count = 0
        for tag in self.tags:  # "<c" is in every start tag of a c element, "<x:c" in a prefixed one ("<col" too)
            count += data.count(b"<" + tag) + data.count(b":" + tag)
        if self.sheet:
            if b"mergeCell" in data:
                count += self._merged(data)
            _find_markers(data, self.markers)
        self.count += count

    def _merged(self, data: bytes) -> int:
        """The cells the merged ranges of ``data`` cover; unsure when a merged-range tag is not read."""
        count = found = 0
        for attrs in _MERGE.findall(data):
            found += 1
            ref = _REF.search(attrs)
            if ref is not None:
                count += _area(ref.group(1) if ref.group(1) is not None else ref.group(2))
        tags = sum(data.count(b"<mergeCell" + end) + data.count(b":mergeCell" + end) for end in _AFTER_NAME)
        if tags != found:
            self.unsure = True
        return count


def _prolog_parser(scanner: _Scanner) -> expat.XMLParserType:
    """expat, reading a part: its prolog with handlers, then, from the root element's start, with none (the rest
    only checked well-formed, at C speed)."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.XmlDeclHandler = lambda version, encoding, standalone: scanner.declared(encoding)
    parser.StartDoctypeDeclHandler = _doctype
    parser.EntityDeclHandler = _doctype

    def root(*args) -> None:
        scanner.in_prolog = False
        parser.StartElementHandler = None
        parser.XmlDeclHandler = None

    parser.StartElementHandler = root
    return parser


def _doctype(*args) -> None:
    raise _Refused("entities")


def _expat_message(exc: expat.ExpatError) -> str:
    return f"ligne {exc.lineno}, {expat.errors.messages.get(exc.code, str(exc))}"


def _exact_count(archive: zipfile.ZipFile, info: zipfile.ZipInfo, tags: tuple[bytes, ...], deadline: float,
                 name: str) -> int:
    """The elements ``tags`` of a part, and the cells its merged ranges cover, counted by expat element by element
    (streaming). A part that is not well-formed is counted up to its error, where any parser stops."""
    wanted = {tag.decode() for tag in tags}
    count = 0

    def start(element: str, attributes: dict[str, str]) -> None:
        nonlocal count
        local = element.rsplit(":", 1)[-1]
        if local in wanted:
            count += 1
        elif local == "mergeCell":
            count += _area(attributes.get("ref", "").encode())

    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _doctype
    parser.EntityDeclHandler = _doctype
    parser.StartElementHandler = start
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                parser.Parse(chunk, False)
                _in_time(name, deadline)
                if count > MAX_CELLS:
                    break
            parser.Parse(b"", True)
    except expat.ExpatError:
        pass
    return count


def _area(ref: bytes) -> int:
    """What a merged range costs openpyxl, in cells: :data:`MERGED_WEIGHT` for each cell it covers, and one for the
    range (a range openpyxl refuses costs one)."""
    text = html.unescape(ref.decode("utf-8", "replace")).strip()
    try:
        min_col, min_row, max_col, max_row = range_boundaries(text)
    except (ValueError, TypeError):
        return 1
    if None in (min_col, min_row, max_col, max_row):
        return 1
    return MERGED_WEIGHT * (max_col - min_col + 1) * (max_row - min_row + 1) + 1


# --- what the tests use -------------------------------------------------------------------------


def inspect_file(path: Path) -> list[Unkept]:
    """Check a file is a workbook that is safe to load (:class:`Opened`); what openpyxl would drop on saving."""
    opened = Opened(path)
    opened.close()
    return opened.unkept


def declares_entities(path: Path) -> bool:
    """Whether an XML part of the package has a document type declaration (where entities are declared)."""
    try:
        inspect_file(path)
    except WorkbookError as exc:
        return "entités" in str(exc)
    return False



def _parsed_without_comments() -> None:
    """openpyxl's parser, when it reads through lxml (installed on many organisers' machines), set to leave out
    comments and processing instructions, as the standard library's parser does: openpyxl's readers took them for
    elements (a table part with a comment inside was « contenu inattendu »). XML allows both anywhere in an element."""
    from openpyxl.xml import functions

    parse = functions.fromstring
    if functions.LXML and isinstance(parse, functools.partial) and "parser" in parse.keywords:
        parser = type(parse.keywords["parser"])  # lxml's XMLParser, without importing lxml here
        parse.keywords["parser"] = parser(resolve_entities=False, remove_comments=True, remove_pis=True)


_parsed_without_comments()


def load_workbook(opened: Opened, data: BinaryIO | None = None, data_only: bool = False) -> Workbook:
    """openpyxl's model of the workbook ``opened`` (or of ``data``, a reduced copy of it), whatever openpyxl
    raises on what it cannot read turned into one French sentence.

    Every part was checked when the file was opened: what remains is a value openpyxl refuses (a style index that
    is no number...), a damaged file; a file another program rewrites meanwhile is said to be one."""
    name = opened.name
    try:
        with warnings.catch_warnings():
            # openpyxl warns, in English, of the extensions it drops: the engine names them in French.
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(opened.handle if data is None else data, data_only=data_only,
                                          keep_vba=opened.path.suffix.lower() == ".xlsm")
    except InvalidFileException:
        raise WorkbookError(f"{name} n'est pas un classeur .xlsx : ouvrez-le dans votre tableur et enregistrez-le au "
                            "format .xlsx.") from None
    except MemoryError:
        raise WorkbookError(f"{name} est trop gros pour la mémoire de cet ordinateur : il n'est pas lu.") from None
    except RecursionError:
        raise WorkbookError(f"{name} est endommagé (XML imbriqué à l'excès) et ne peut pas être lu.") from None
    except Exception as exc:  # openpyxl's readers raise anything on a value they do not expect
        if isinstance(exc, KeyError) and not _being_written(opened.path, opened.stamp):
            raise WorkbookError(f"{name} est une archive zip à laquelle il manque une partie du classeur "
                                f"({exc.args[0] if exc.args else '?'}) : fichier abîmé, il ne peut pas être lu.") \
                from None
        raise opened.damaged(f"{name} est endommagé et ne peut pas être lu ({_what(exc)}) : ouvrez-le dans votre "
                             "tableur, enregistrez-le sous un autre nom, puis relancez.") from None


def _what(exc: BaseException) -> str:
    """A short, French name of what broke in a file."""
    while exc is not None:
        if isinstance(exc, SyntaxError):  # the XML parsers' errors (the standard library's, lxml's)
            return "XML invalide"
        if isinstance(exc, (zipfile.BadZipFile, zlib.error, EOFError)):
            return "compression abîmée"
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return "contenu inattendu"
