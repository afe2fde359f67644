"""What the files in an archive hold, read in memory: tar (plain, gzip, bzip2, xz), zip, and
a single gzip, bzip2 or xz stream, nested inside one another as deep as MAX_DEPTH.

A file that leaves this machine (a share bundle, a feedback export) is checked with
everything inside it: a packed `~/.macaron` in `static/notes.tgz` is the person's memory
however it is wrapped. What cannot be looked into (encrypted, damaged, nested too deep,
larger than MAX_BYTES unpacked) is `Unreadable`, so the caller refuses it rather than
vouch for what it cannot see. An archive is known by its first bytes, never its name.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile
from collections.abc import Callable, Iterator

MAX_DEPTH = 4
MAX_BYTES = 256 * 1024 * 1024  # unpacked, all layers of one file together: a zip bomb stops here


class Unreadable(Exception):
    """An archive whose contents cannot be read (the message says why)."""


# Each opens a file object (GzipFile takes it by keyword, the others as the first argument).
_STREAMS: dict[str, Callable[[io.BytesIO], io.BufferedIOBase]] = {
    "gzip": lambda raw: gzip.GzipFile(fileobj=raw),
    "bzip2": bz2.BZ2File,
    "xz": lzma.LZMAFile,
}


def kind(data: bytes) -> str | None:
    """Which archive or compressed stream `data` is, by its magic bytes; None for a plain file."""
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    if data[:3] == b"BZh":
        return "bzip2"
    if data[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if data[257:262] == b"ustar":
        return "tar"
    return None


def walk(name: str, data: bytes) -> Iterator[tuple[str, bytes]]:
    """`(name, data)` itself, then every file inside it at any depth, named by the path
    through the archives ("static/notes.tgz:memory/memories.lance/data/0.lance")."""
    yield from _walk(name, data, 0, [MAX_BYTES])


def _walk(name: str, data: bytes, depth: int, budget: list[int]) -> Iterator[tuple[str, bytes]]:
    yield name, data
    found = kind(data)
    if found is None:
        return
    if depth >= MAX_DEPTH:
        raise Unreadable(f"archives nested more than {MAX_DEPTH} deep")
    if found in _STREAMS:
        yield from _walk(name, _stream(found, data, budget), depth + 1, budget)
        return
    for inner, content in (_zip if found == "zip" else _tar)(data, budget):
        yield from _walk(f"{name}:{inner}", content, depth + 1, budget)


def _take(read, budget: list[int]) -> bytes:
    """Read at most what is left of the budget; one byte more means too large."""
    data = read(budget[0] + 1)
    if len(data) > budget[0]:
        raise Unreadable(f"more than {MAX_BYTES // (1024 * 1024)} MB unpacked")
    budget[0] -= len(data)
    return data


def _stream(found: str, data: bytes, budget: list[int]) -> bytes:
    try:
        with _STREAMS[found](io.BytesIO(data)) as stream:
            return _take(stream.read, budget)
    except (OSError, EOFError, lzma.LZMAError, ValueError) as exc:
        raise Unreadable(f"a damaged {found} stream ({exc})") from None


def _tar(data: bytes, budget: list[int]) -> Iterator[tuple[str, bytes]]:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for member in tar:
                if member.isfile():
                    content = tar.extractfile(member)
                    yield member.name, _take(content.read, budget) if content else b""
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise Unreadable(f"a damaged tar archive ({exc})") from None


def _zip(data: bytes, budget: list[int]) -> Iterator[tuple[str, bytes]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                if info.flag_bits & 0x1:
                    raise Unreadable(f"{info.filename} is encrypted")
                with archive.open(info) as content:
                    yield info.filename, _take(content.read, budget)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError) as exc:
        raise Unreadable(f"a damaged zip archive ({exc})") from None
