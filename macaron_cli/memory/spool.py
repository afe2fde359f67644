"""What an import says of each record, kept on disk until it is said: an export of years of
chats is hundreds of thousands of records, and `--json` (or a dry run) lists every one, so
holding them in memory until the end would grow with the file.

The file is unnamed (gone when closed, or when the process dies) and lies in macaron's
private home, never the shared temporary folder: a dry run's lines hold the person's words.
The folders it had to make for it are removed when it closes: a dry run on a new home says
"Nothing was written", and leaves nothing.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterator
from typing import Any

from macaron_cli import config


class Spool:
    """Items appended in order and read back in that order, as often as asked."""

    def __init__(self) -> None:
        folder = config.cache_path()
        self._made = [f for f in (folder, *folder.parents) if not f.exists()]  # deepest first
        self._file = tempfile.TemporaryFile(dir=config.cache_dir())  # noqa: SIM115 (closed by close())
        self.count = 0

    def append(self, item: Any) -> None:
        pickle.dump(item, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self.count += 1

    def __iter__(self) -> Iterator[Any]:
        end = self._file.tell()
        self._file.seek(0)
        try:
            # only this process wrote the file (unnamed, in a private folder): its own items
            for _ in range(self.count):
                yield pickle.load(self._file)
        finally:
            self._file.seek(end)

    def close(self) -> None:
        self._file.close()
        for made in self._made:
            try:
                made.rmdir()  # only while empty: what else came to be written there stays
            except OSError:
                return
