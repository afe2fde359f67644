"""A module's tests can be found from its name: by the test file's name, or by CLAUDE.md's
tests map, whose every row names a module (or package) that exists and test files that do."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "macaron_cli"
TESTS = REPO / "tests"


def map_rows(text: str) -> dict[str, list[str]]:
    """CLAUDE.md's tests map: module path (or package/) -> its test files (globs allowed)."""
    block = re.search(r"^Tests map:.*?```\n(.*?)```", text, re.S | re.M)
    assert block, "CLAUDE.md has no tests map"
    rows = [line.split() for line in block.group(1).splitlines() if line.strip()]
    return {row[0]: row[1:] for row in rows}


def modules(package: Path) -> list[str]:
    skip = {"__init__.py", "__main__.py"}
    return sorted(
        str(p.relative_to(package)) for p in package.rglob("*.py") if p.name not in skip and "_bundled" not in p.parts
    )


def named_tests(module: str, tests: Path) -> list[Path]:
    """The test files named after `module` (e.g. memory/store.py: test_store.py,
    test_memory_store.py, test_memory.py)."""
    parts = module.removesuffix(".py").split("/")
    names = {f"test_{parts[-1]}.py", f"test_{'_'.join(parts)}.py", f"test_{parts[0]}.py"}
    return [tests / n for n in names if (tests / n).exists()]


def unfound(package: Path, tests: Path, mapped: dict[str, list[str]]) -> list[str]:
    """Modules with neither a test named after them nor a row (theirs or their package's)."""
    missing = []
    for module in modules(package):
        keys = [module] + [f"{'/'.join(module.split('/')[:i])}/" for i in range(1, module.count("/") + 1)]
        if not named_tests(module, tests) and not any(k in mapped for k in keys):
            missing.append(module)
    return missing


def stale(package: Path, tests: Path, mapped: dict[str, list[str]]) -> list[str]:
    """Rows naming a module that is gone, or a test file (pattern) that matches nothing."""
    wrong = [key for key in mapped if not (package / key).exists()]
    wrong += [f"{key}: {name}" for key, names in mapped.items() for name in names if not list(tests.glob(name))]
    wrong += [key for key, names in mapped.items() if not names]
    return wrong


def test_every_module_has_tests_found_from_its_name():
    mapped = map_rows((REPO / "CLAUDE.md").read_text(encoding="utf-8"))
    assert unfound(PACKAGE, TESTS, mapped) == [], "add a row to CLAUDE.md's tests map (or name the test after it)"
    assert stale(PACKAGE, TESTS, mapped) == []


def test_the_check_finds_a_new_module_without_tests_and_a_stale_row(tmp_path):
    package, tests = tmp_path / "macaron_cli", tmp_path / "tests"
    (package / "memory").mkdir(parents=True)
    tests.mkdir()
    for name in ("memory/store.py", "memory/turns.py", "memory/lance.py", "quotes.py", "nudges.py"):
        (package / name).write_text("")
    for name in ("test_memory_store.py", "test_quotes.py", "test_memory_recall.py"):
        (tests / name).write_text("")
    rows = ["memory/turns.py  test_memory_*.py", "memory/lance.py  test_lance.py", "gone.py  test_quotes.py"]
    mapped = map_rows("Tests map: …\n```\n" + "\n".join(rows) + "\n```\n")
    assert unfound(package, tests, mapped) == ["nudges.py"]
    assert stale(package, tests, mapped) == ["gone.py", "memory/lance.py: test_lance.py"]
