"""Disk used by the memory store after N small adds, one at a time (as chat learns them).

Every LanceDB commit writes a new table version (a manifest, a small data file, index
updates); old versions stay on disk until they are cleaned up.

    python3 bench/disk_after_adds.py [N]

Prints the disk use right after N adds in a tight loop, and after one more add a pause later.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAUSE = 12  # seconds: longer than the store keeps old versions (KEEP_VERSIONS)
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
        print(f"{n} adds, {took:.1f} s ({took / n * 1000:.0f} ms per add); vectors: {store.vectors}")
        print(f"  right after:                  {_disk(root)}")
        time.sleep(PAUSE)
        store.add("one more, after a pause")
        print(f"  one more add {PAUSE} s later:     {_disk(root)}")


def _disk(root: Path) -> str:
    files = [p for p in root.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    versions = len(list((root / "memories.lance" / "_versions").glob("*")))
    return f"{size / 1e6:.1f} MB in {len(files)} files, {versions} table versions kept"


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 600)
