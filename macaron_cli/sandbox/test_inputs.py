"""What an app's tests read, as one fingerprint: when it is the fingerprint of a run that
passed, running the same tests on the same inputs again proves nothing new.

The tests run on a copy of the app (verify.py's _copy_app: everything but git, the private
folder and caches; the person's data too), so every such file is in the fingerprint, byte
for byte. One file is read as the tests see it: config/app.json, over which the shared
conftest lays TEST_SETTINGS (title, language, units, currency, date format) so the tests
pass whatever the person chose. That holds only while conftest.py is the one test file that
names config/app.json; otherwise the file counts byte for byte too. A change of language,
units or currency therefore leaves the fingerprint as it was, a change of what the app
tracks (its habits, goals, people) does not.
"""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

from macaron_cli.apps import PRIVATE_DIR

_SKIPPED = {".git", PRIVATE_DIR, "__pycache__", ".pytest_cache"}
CONFIG = "config/app.json"


def read_by_tests(app: Path) -> str:
    """The fingerprint of everything the app's tests read (see the module's words)."""
    pinned = pinned_settings(app)
    digest = hashlib.sha256()
    for path in sorted(_files(app)):
        rel = path.relative_to(app).as_posix()
        data = str(path.readlink()).encode() if path.is_symlink() else path.read_bytes()
        if rel == CONFIG and pinned is not None:
            data = _as_tests_see(data, pinned)
        digest.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def pinned_settings(app: Path) -> dict | None:
    """The settings the app's tests lay over config/app.json (conftest.py's TEST_SETTINGS),
    or None when another test file names config/app.json or there is no such overlay."""
    tests = app / "tests"
    conftest = tests / "conftest.py"
    try:
        if any(_names_config(ast.parse(p.read_text(encoding="utf-8"))) for p in tests.rglob("*.py") if p != conftest):
            return None
        tree = ast.parse(conftest.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "TEST_SETTINGS" for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def _names_config(tree: ast.Module) -> bool:
    """Does the code (its docstrings aside) name the config folder or config/app.json?"""
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return any(
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and (node.value.strip("/") == "config" or "config/app.json" in node.value)
        for node in ast.walk(tree)
    )


def _as_tests_see(data: bytes, pinned: dict) -> bytes:
    try:
        config = json.loads(data)
    except ValueError:
        return data
    if not isinstance(config, dict):
        return data
    return json.dumps({**config, **pinned}, sort_keys=True, ensure_ascii=False).encode()


def _files(folder: Path):
    for path in folder.iterdir():
        if path.name in _SKIPPED:
            continue
        if path.is_dir() and not path.is_symlink():
            yield from _files(path)
        else:
            yield path
