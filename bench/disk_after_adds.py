"""Disk used by the memory store after N small adds, one at a time (as chat learns them).

Every LanceDB commit writes a new table version (a manifest, a small data file, index
updates); old versions stay on disk until they are cleaned up.

    python3 bench/disk_after_adds.py [N]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main(n: int = 600) -> None:
    from macaron_cli.memory import MemoryStore

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "memory"
        store = MemoryStore.open(root)
        started = time.perf_counter()
        for i in range(n):
            store.add(f"Small fact number {i}: had green tea with lunch on day {i}", domain="food")
        took = time.perf_counter() - started
        files = [p for p in root.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        versions = len(list((root / "memories.lance" / "_versions").glob("*")))
        print(f"{n} adds: {size / 1e6:.1f} MB in {len(files)} files, {versions} table versions kept, "
              f"{took:.1f} s ({took / n * 1000:.0f} ms per add); vectors: {store.vectors}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 600)
