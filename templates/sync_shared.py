#!/usr/bin/env python3
"""Copy templates/_shared/ into every template, or check that they are identical.

Each template is a complete, self-contained app (it becomes its own git repo), yet the
tokens stylesheet, the vendored libraries, the i18n runtime, the backend helper and the
test fixtures must be one thing, not five. _shared/ is the one source; this script
writes the copies and `--check` (run by macaron's tests) fails when one has drifted.

    python templates/sync_shared.py          # write the copies
    python templates/sync_shared.py --check  # exit 1 and name the files that differ
"""

from __future__ import annotations

import sys
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent
SHARED = TEMPLATES / "_shared"


def template_dirs() -> list[Path]:
    return sorted(p for p in TEMPLATES.iterdir() if p.is_dir() and (p / "macaron.json").is_file())


def shared_files() -> list[Path]:
    return sorted(p.relative_to(SHARED) for p in SHARED.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def drifted() -> list[tuple[Path, Path]]:
    """(template, shared file) for every copy that is missing or differs from _shared/."""
    return [(template, rel) for template in template_dirs() for rel in shared_files()
            if not (template / rel).is_file() or (template / rel).read_bytes() != (SHARED / rel).read_bytes()]


def sync() -> list[Path]:
    changed = []
    for template, rel in drifted():
        target = template / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((SHARED / rel).read_bytes())
        changed.append(target)
    return changed


def main(argv: list[str]) -> int:
    if "--check" in argv:
        stale = drifted()
        for template, rel in stale:
            print(f"differs from _shared/: {template.name}/{rel}")
        if stale:
            print("run: python templates/sync_shared.py")
        return 1 if stale else 0
    for path in sync():
        print(f"updated {path.relative_to(TEMPLATES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
