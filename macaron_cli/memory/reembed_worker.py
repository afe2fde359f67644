"""The background re-embedder: `python -m macaron_cli.memory.reembed_worker URI` (quiet).

Started by reembed.start_in_background. A module of its own because it opens a store, and
reembed.py (which retrieval calls) must not import the store that imports retrieval."""

from __future__ import annotations

import sys

from macaron_cli import config
from macaron_cli.memory import reembed
from macaron_cli.memory.store import MemoryStore


def main(argv: list[str]) -> int:
    try:
        # The person's settings, as the process that started it was given them: the same model.
        reembed.run(MemoryStore.open(argv[0], config.load_settings()))
    except Exception:  # nobody is watching; the next search starts another
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
