"""Reading git refs from their files: a loose ref file, else its line in `packed-refs`.

Checkpoint listing reads every checkpoint ref this way (no git process per ref), and the
branch check reads what a damaged branch holds when git itself cannot resolve it.
"""

from __future__ import annotations

from pathlib import Path


def packed(common_dir: Path) -> dict[str, str]:
    """Ref name → what `packed-refs` says it holds (peeled `^` lines and comments skipped)."""
    path = common_dir / "packed-refs"
    if not path.is_file():
        return {}
    found = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        sha, _, name = line.partition(" ")
        if name and not line.startswith(("#", "^")):
            found[name] = sha
    return found


def read(common_dir: Path, name: str) -> str | None:
    """What ref `name` (e.g. refs/heads/main) holds, as written: None when it does not exist."""
    loose = common_dir / name
    if loose.is_file():
        return loose.read_text(encoding="utf-8", errors="replace").strip()
    return packed(common_dir).get(name)


def numbered(common_dir: Path, prefix: str) -> dict[int, str]:
    """n → what `<prefix><n>` holds, for every numbered ref under `prefix` (a loose ref wins
    over its packed line, as in git)."""
    found = {
        int(name[len(prefix) :]): sha
        for name, sha in packed(common_dir).items()
        if name.startswith(prefix) and name[len(prefix) :].isdigit()
    }
    loose = common_dir / prefix
    if loose.is_dir():
        for ref in loose.iterdir():
            if ref.name.isdigit():
                found[int(ref.name)] = ref.read_text(encoding="utf-8").strip()
    return found
