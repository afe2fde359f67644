"""What decides an app's privacy and data is macaron's (untrusted/pinned.py): no module reads
data_files, records or the run/test/digest commands from an app's own macaron.json, and
data paths never leave the app's data folder (untrusted/data_paths.py)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from macaron_cli.untrusted import data_paths
from macaron_cli.untrusted.pinned import PINNED_KEYS

PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"
READERS = {"read_manifest", "manifest_or_none", "load"}  # load: Manifest.load
# Where a manifest read directly is a template's (macaron's own), or is the pinning itself.
ALLOWED = {"manifest.py", "untrusted/pinned.py"}


def _reader_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name in READERS


def pinned_reads(source: str) -> list[str]:
    """`x.records`, `read_manifest(app).data_files`…: a pinned key read off a manifest the
    same function opened itself, with the line it is on."""
    tree = ast.parse(source)
    found = set()
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        # A module's own names are those its top-level statements assign.
        nodes = list(ast.walk(scope)) if scope is not tree else list(ast.iter_child_nodes(tree))
        opened = {
            target.id
            for node in nodes
            if isinstance(node, ast.Assign) and _reader_call(node.value)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        found |= {
            (node.lineno, node.attr)
            for node in ast.walk(scope)
            if isinstance(node, ast.Attribute)
            and node.attr in PINNED_KEYS
            and ((isinstance(node.value, ast.Name) and node.value.id in opened) or _reader_call(node.value))
        }
    return [f"{line}: .{attr}" for line, attr in sorted(found)]


def test_the_scan_finds_a_pinned_key_read_off_an_apps_manifest():
    planted = "m = read_manifest(app)\ndomain = m.records.domain\nfiles = manifest_or_none(app).data_files\n"
    assert pinned_reads(planted) == ["2: .records", "3: .data_files"]
    assert pinned_reads("m = trusted_manifest(app)\nm.records\n") == []


def test_no_module_reads_what_macaron_pins_from_an_apps_own_manifest():
    found = {
        rel: hits
        for path in sorted(PACKAGE.rglob("*.py"))
        if (rel := path.relative_to(PACKAGE).as_posix()) not in ALLOWED
        and (hits := pinned_reads(path.read_text(encoding="utf-8")))
    }
    assert not found, f"read these through apps.pinned or apps.trusted_manifest instead: {found}"


def test_data_paths_stay_in_the_apps_data_folder(tmp_path):
    assert data_paths.declared(["data/app.db", "/data/x", "../../.macaron", "data/../../x", "../b/data", "data/"]) == [
        "data/app.db",
        "data",
    ]
    app, elsewhere = tmp_path / "app", tmp_path / "elsewhere"
    (app / "data").mkdir(parents=True)
    elsewhere.mkdir()
    (elsewhere / "secret.txt").write_text("kept apart")
    (app / "data" / "app.db").write_text("the person's own")
    (app / "data" / "linked").symlink_to(elsewhere)
    assert data_paths.files_under(app, "data") == ["data/app.db"]
    assert not data_paths.inside(app, "data/linked/secret.txt")
    (app / "data" / "app.db").unlink()
    (app / "data" / "app.db").symlink_to(elsewhere / "secret.txt")
    assert data_paths.files_under(app, "data/app.db") == [] and json.dumps(data_paths.files_under(app, "data")) == "[]"


def test_an_app_made_before_pinning_gets_its_templates_values_once(macaron_home, tmp_path, capsys):
    from macaron_cli.apps import load_registry, pinned, register

    app = tmp_path / "apps" / "moods"
    app.mkdir(parents=True)
    (app / "macaron.json").write_text(json.dumps({"records": {"domain": "hobby"}, "data_files": ["../../x"]}))
    register("moods", path=str(app), template="diary")
    values = pinned(app)
    assert values.records.domain == "health" and values.data_files == ("data/app.db",)
    assert load_registry()["moods"]["pinned"]["records"]["domain"] == "health", "kept where the coder cannot write"

    register("gone", path=str(app.with_name("gone")), template="no-such-template")
    app.with_name("gone").mkdir()
    unknown = pinned(app.with_name("gone"))
    assert unknown.privacy == "private" and unknown.data_files == ("data",)
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "no template 'no-such-template'" in said[0]
