"""The background upkeep: `python -m macaron_cli.memory.upkeep_worker FD STORE WORK…` (quiet).

Started by upkeep.start_worker, which hands it descriptor FD already holding the store's
upkeep lock: one worker at a time, and forget (which takes that lock too) waits for it.
It waits for a quiet moment between writes, then does the work it was given, niced. It
takes no write lock, so writes go on meanwhile: LanceDB rebases their appends over its
compaction, and an update that lands first makes its compaction commit fail, to be tried
again. Killed at any point (kill -9 included), it leaves the store as it was or with its
last commit done, and the kernel drops the lock; the next write that finds upkeep due
starts another."""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from pathlib import Path

from macaron_cli.memory import remote, upkeep
from macaron_cli.memory.lance import lancedb
from macaron_cli.memory.opening import private_files
from macaron_cli.memory.schema import TABLE

NICENESS = 10
# A burst of writes (an agent adding memory after memory) goes first: the compaction waits
# until the table has not changed for QUIET, but no longer than QUIET_AT_MOST.
QUIET = 1.0
QUIET_AT_MOST = 30.0


def main(argv: list[str]) -> int:
    fd, store, words = int(argv[0]), Path(argv[1]), argv[2:]
    # Second to whatever the person is doing now (the writes that go on, a search), and
    # before LanceDB starts its threads, which take this niceness with them.
    os.nice(NICENESS)
    try:
        with private_files():
            table = lancedb().connect(str(store), read_consistency_interval=timedelta(0)).open_table(TABLE)
            _quiet(table)
            remote.retrying(lambda: upkeep.run(table, upkeep.Work.from_words(words), shared=False))
            upkeep.finished(store)
    except Exception:  # nobody is watching; the next write that finds upkeep due starts another
        return 1
    finally:
        os.close(fd)
    return 0


def _quiet(table) -> None:
    """Return once no write has landed for QUIET seconds (or QUIET_AT_MOST have passed)."""
    deadline = time.monotonic() + QUIET_AT_MOST
    version = table.version
    while time.monotonic() < deadline:
        time.sleep(QUIET)
        if table.version == version:
            return
        version = table.version


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
