"""Zip members written for a package: new ones with a fixed time (a refill writes the same bytes), and kept ones
copied as their raw compressed bytes (no inflating, no deflating: near free)."""

from __future__ import annotations

import struct
import zipfile
from collections.abc import Iterable
from typing import BinaryIO

from .ooxml import Unsupported

#: Zip entries written anew carry this time, so that a refill writes the same bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
COMPRESS_LEVEL = 1  # the output sheets are large and rewritten at each fill: fast deflate
LOCAL_HEADER = struct.Struct("<4s5H3I2H")  # signature, version, flags, method, time, date, CRC, sizes, lengths


def write_new(out: zipfile.ZipFile, name: str, data: bytes | Iterable[bytes]) -> None:
    """A new member ``name``, deflated, from bytes or from pieces (written as they come: never whole in memory)."""
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o600 << 16
    if isinstance(data, bytes):
        out.writestr(info, data, compresslevel=COMPRESS_LEVEL)
        return
    # What ZipFile.open(info, "w") reads: ``compress_level`` from Python 3.13, ``_compresslevel`` before.
    setattr(info, "compress_level" if hasattr(zipfile.ZipInfo, "compress_level") else "_compresslevel", COMPRESS_LEVEL)
    with out.open(info, "w") as handle:
        for piece in data:
            handle.write(piece)


def data_offset(source: BinaryIO, info: zipfile.ZipInfo) -> int:
    """Where the compressed bytes of ``info`` start, read from its local header, which must agree with the
    central directory (its signature, its name); :class:`Unsupported` otherwise."""
    source.seek(info.header_offset)
    header = source.read(LOCAL_HEADER.size)
    if len(header) < LOCAL_HEADER.size or header[:4] != b"PK\x03\x04":
        raise Unsupported(f"l'en-tête de la partie {info.filename} est abîmé")
    name_length, extra_length = LOCAL_HEADER.unpack(header)[-2:]
    name = source.read(name_length)
    if name not in (info.orig_filename.encode("utf-8"), info.orig_filename.encode("cp437", "replace")):
        raise Unsupported(f"l'en-tête de la partie {info.filename} porte un autre nom")
    return info.header_offset + LOCAL_HEADER.size + name_length + extra_length


def copy_raw(source: BinaryIO, info: zipfile.ZipInfo, out: zipfile.ZipFile) -> None:
    """Copy a member's compressed bytes as they are: no inflating, no deflating."""
    source.seek(data_offset(source, info))
    data = source.read(info.compress_size)
    if len(data) != info.compress_size:
        raise Unsupported(f"la partie {info.filename} est tronquée")
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
