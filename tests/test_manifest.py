"""The template contract: every template's macaron.json is the declared Manifest
(templates/_shared/server/app_manifest.py), templates/README.md documents every template
and every key of it, a broken manifest is refused in one line naming the key, and only
macaron_cli/manifest.py opens the file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from macaron_cli.manifest import KEYS, MANIFEST, PERIODS, Manifest, template_manifests
from macaron_cli.resources import templates_dir
from tests.support.app_dirs import make_app_dir

TEMPLATES = templates_dir()
NAMES = sorted(p.name for p in TEMPLATES.iterdir() if (p / MANIFEST).is_file())
PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"
APP_KEYS = {"template", "from", "idea", "spec"}  # what make adds to an app's copy


def is_capability(name: str) -> bool:
    """Whether `name` is one a spec can need (AppSpec.needs: "measures", "money.debts",
    "conversions.pace", "journal.mood"…): what a template may say it renders."""
    from dataclasses import fields

    from macaron_cli import spec

    shapes = {
        "measures": spec.Measure, "money": spec.Money, "items": spec.Items, "tasks": spec.Tasks,
        "conversions": spec.Conversion, "journal": spec.Journal, "timer": spec.Timer, "deck": spec.Deck,
        "plan": spec.Plan,
    }  # fmt: skip
    shape, _, detail = name.partition(".")
    if shape not in shapes:
        return False
    details = {f.name for f in fields(shapes[shape])} | set(spec.CONVERSION_FAMILIES if shape == "conversions" else ())
    return not detail or detail in details | ({"mood", "food", "notes"} if shape == "journal" else set())


@pytest.mark.parametrize("name", NAMES)
def test_every_template_manifest_is_the_declared_one(name):
    manifest = Manifest.load(TEMPLATES / name)  # raises on a key of the wrong type
    assert manifest.name == name
    assert set(manifest.raw) <= set(KEYS) - APP_KEYS, f"undeclared keys: {set(manifest.raw) - set(KEYS)}"
    assert manifest.title and manifest.description and manifest.examples and manifest.keywords
    assert manifest.run and manifest.test and manifest.digest
    assert manifest.records.period in PERIODS and manifest.records.kind and manifest.records.meaning
    assert all(is_capability(r) for r in manifest.renders), manifest.renders
    assert set(manifest.requires) <= set(manifest.renders)
    for key, path in manifest.fit.items():
        assert key in manifest.parameters, key
        shape = path.partition("@")[0].split(".")[0]
        assert any(r.split(".")[0] == shape for r in manifest.renders), (key, path)


def test_the_templates_readme_lists_every_template_and_documents_every_key():
    readme = (TEMPLATES / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", readme, re.MULTILINE))
    assert listed == set(NAMES)
    documented = set(re.findall(r"^- `([a-z_]+)`", readme, re.MULTILINE))
    assert documented == set(KEYS)


def test_every_template_is_read_through_the_one_loader():
    assert [m.name for m in template_manifests()] == NAMES


def test_an_app_keeps_the_keys_it_added_when_macaron_rewrites_its_manifest(tmp_path):
    from macaron_cli.manifest import read_manifest, write_manifest

    app = make_app_dir(tmp_path / "water")
    data = json.loads((app / MANIFEST).read_text(encoding="utf-8"))
    (app / MANIFEST).write_text(json.dumps({**data, "coder_note": "kept"}), encoding="utf-8")
    write_manifest(app, read_manifest(app).updated(title="Water", spec={"measures": []}))
    again = json.loads((app / MANIFEST).read_text(encoding="utf-8"))
    assert again["coder_note"] == "kept" and again["title"] == "Water" and again["data_files"] == data["data_files"]


def test_a_broken_manifest_is_refused_in_one_line_naming_the_key(tmp_path, macaron):
    app = make_app_dir(tmp_path / "water")
    manifest = {
        "name": "water",
        "run": ["{python}", "-m", "http.server", "{port}"],
        "digest": ["{python}", "-m", "server.macaron_life", "--since", "{since}"],
        "records": {"domain": "health", "period": "fortnight"},
    }
    (app / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    done = macaron("apps", "digest", str(app))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and '"records.period"' in lines[0] and "day, week, month" in lines[0], done.stderr
    assert "Traceback" not in done.stderr


# ── only macaron_cli/manifest.py opens macaron.json ─────────────────────────────────────
_OPENERS = {"read_text", "read_bytes", "open", "load", "loads", "read_json", "glob", "rglob"}


def raw_reads(source: str) -> list[str]:
    """The calls in `source` that open a macaron.json themselves: a read (read_text, open,
    json.load, glob…) of a path naming the file, as they are written."""
    import ast

    tree = ast.parse(source)
    ours = {  # MANIFEST means macaron.json only where it comes from macaron_cli.manifest
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in ("macaron_cli.manifest", "macaron_cli.apps")
        for alias in node.names
        if alias.name in ("MANIFEST", "APP_MANIFEST")
    }

    def names_the_file(node: ast.AST) -> bool:
        for part in ast.walk(node):
            if isinstance(part, ast.Constant) and str(part.value).endswith(("/macaron.json", "macaron.json")):
                return True
            if isinstance(part, ast.Name) and (part.id in ours or part.id == "APP_MANIFEST"):
                return True
        return False

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in _OPENERS and names_the_file(node):
                found.append(ast.get_source_segment(source, node) or name)
    return found


def test_a_raw_read_is_found():
    planted = 'manifest = json.loads((app / "macaron.json").read_text(encoding="utf-8"))\n'
    assert raw_reads(planted)
    assert raw_reads("from macaron_cli.apps import APP_MANIFEST\ndata = read_json(app / APP_MANIFEST)\n")
    assert raw_reads('for path in sorted(root.glob("*/macaron.json")):\n    pass\n')
    assert not raw_reads("from macaron_cli.apps import APP_MANIFEST\nok = (app / APP_MANIFEST).is_file()\n")
    assert not raw_reads('MANIFEST = "manifest.json"\ndata = json.loads((root / MANIFEST).read_text())\n')


def test_only_the_manifest_module_opens_macaron_json():
    found = {
        str(path.relative_to(PACKAGE)): reads
        for path in PACKAGE.rglob("*.py")
        if "_bundled" not in path.parts and path != PACKAGE / "manifest.py"
        if (reads := raw_reads(path.read_text(encoding="utf-8")))
    }
    assert not found, f"read macaron.json through macaron_cli/manifest.py instead: {found}"
