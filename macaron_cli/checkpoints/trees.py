"""Git trees read straight from the object store: a tree's entries (each tree read once),
what differs between two trees and what one has that the other lacks, walking only the
subtrees whose ids differ, so a small change in a big repo reads few trees."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import git

TREE_CACHE = 4096  # trees kept in memory per AppRepo
SUBMODULE = 0o160000  # a nested repo's link to its commit: not an object of this repo

Entry = tuple[str, int, bool]  # (object id, mode, is a tree)
Entries = Callable[[str], dict[str, Entry]]


class Trees:
    """The trees of one repo, each read once (commits and trees never change)."""

    def __init__(self, repo: git.Repo):
        self.repo = repo
        self._read: dict[str, dict[str, Entry]] = {}

    def entries(self, tree: str) -> dict[str, Entry]:
        """A tree's entries, {name: (id, mode, is a tree)}."""
        if tree not in self._read:
            if len(self._read) > TREE_CACHE:
                self._read.clear()
            self._read[tree] = parse_tree(self.repo.odb.stream(bytes.fromhex(tree)).read())
        return self._read[tree]

    def changed_since(self, parent: str | None, tree: str) -> int:
        """How many files `tree` changed against commit `parent`'s tree (0 when the parent
        is damaged: nothing to count against)."""
        try:
            before = git.Commit(self.repo, bytes.fromhex(parent)).tree.hexsha if parent else None
            return sum(1 for _ in diff_files(self.entries, before, tree))
        except (ValueError, OSError):
            return 0


def parse_tree(data: bytes) -> dict[str, Entry]:
    """A raw git tree object as {name: (id, mode, is a tree)}. Parsed here rather than by
    GitPython's Tree, which cannot list a nested repo's link without a .gitmodules."""
    entries, i = {}, 0
    while i < len(data):
        space = data.index(b" ", i)
        nul = data.index(b"\0", space)
        mode = int(data[i:space], 8)
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        entries[name] = (data[nul + 1 : nul + 21].hex(), mode, mode == 0o40000)
        i = nul + 21
    return entries


def diff_files(entries: Entries, a: str | None, b: str | None, prefix: str = "") -> Iterator[tuple[str, bool, bool]]:
    """(path, in a, in b) for every file that differs between trees a and b, as
    `git diff -r --name-only` lists them. `entries(tree)` lists a tree."""
    left = entries(a) if a else {}
    right = entries(b) if b else {}
    for name in sorted(left.keys() | right.keys()):
        x, y = left.get(name), right.get(name)
        if x == y:
            continue
        xt, yt = (o[0] if o and o[2] else None for o in (x, y))
        xf, yf = (o if o and not o[2] else None for o in (x, y))
        if xt or yt:
            yield from diff_files(entries, xt, yt, f"{prefix}{name}/")
        if (xf or yf) and xf != yf:
            yield f"{prefix}{name}", xf is not None, yf is not None


def new_objects(entries: Entries, a: str | None, b: str) -> Iterator[str]:
    """The ids of the files in tree b that tree a lacks (a nested repo's link is none)."""
    left = entries(a) if a else {}
    for name, entry in entries(b).items():
        if left.get(name) == entry or entry[1] == SUBMODULE:
            continue
        if entry[2]:
            other = left.get(name)
            yield from new_objects(entries, other[0] if other and other[2] else None, entry[0])
        else:
            yield entry[0]


def stat_files(diffstat: str) -> int:
    """The file count from `git diff --stat`'s summary line (0 when there is none)."""
    found = re.search(r"(\d+) files? changed", diffstat.rsplit("\n", 1)[-1])
    return int(found.group(1)) if found else 0
