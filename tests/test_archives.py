"""Archives among an app's files are read through, however they are wrapped, and what cannot
be read is said so (share and feedback export refuse it: tests/test_labels_wire.py)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile

import pytest

from macaron_cli import archives


def _tar(files: dict[str, bytes], mode: str = "w") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    "wrap",
    [
        lambda d: _tar({"a/note.txt": d}, "w:gz"),
        lambda d: _tar({"a/note.txt": d}, "w:bz2"),
        lambda d: _tar({"a/note.txt": d}, "w:xz"),
        lambda d: _zip({"a/note.txt": d}),
        gzip.compress,
        bz2.compress,
        lzma.compress,
        lambda d: _zip({"inner.tgz": _tar({"deep/note.txt": gzip.compress(d)}, "w:gz")}),
    ],
    ids=["tgz", "tbz", "txz", "zip", "gz", "bz2", "xz", "zip-of-tgz-of-gz"],
)
def test_the_text_inside_any_archive_is_read(wrap):
    inside = [data for _, data in archives.walk("static/x.bin", wrap(b"the hidden note"))]
    assert b"the hidden note" in inside


def test_a_plain_file_is_itself_only():
    assert list(archives.walk("static/app.js", b"console.log(1)")) == [("static/app.js", b"console.log(1)")]


def test_what_cannot_be_looked_into_is_unreadable(monkeypatch):
    nested = b"x"
    for _ in range(archives.MAX_DEPTH + 1):
        nested = gzip.compress(nested)
    with pytest.raises(archives.Unreadable, match="nested"):
        list(archives.walk("a.gz", nested))
    with pytest.raises(archives.Unreadable, match="damaged"):
        list(archives.walk("a.gz", b"\x1f\x8b not a gzip stream at all"))
    monkeypatch.setattr(archives, "MAX_BYTES", 1024 * 1024)
    with pytest.raises(archives.Unreadable, match="MB unpacked"):
        list(archives.walk("bomb.gz", gzip.compress(b"\0" * (2 * 1024 * 1024))))
