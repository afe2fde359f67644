"""A change travels as one typed `Change` (reading/change.py), never as a dict: no module
reads one of its parts by key, and a change's record (`.macaron/change.json`) written before
it was typed is read back whole and written again with the same keys."""

from __future__ import annotations

import ast
import json
from dataclasses import fields
from pathlib import Path

from macaron_cli.reading.change import Change

REPO = Path(__file__).resolve().parents[1]
PARTS = {f.name for f in fields(Change)}


def _names_a_change(node: ast.expr) -> bool:
    """`change`, `plan.change`, `state.change`, `planned_change`…: an expression that holds a change."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return "change" in name and not name.startswith("changed")


def _part_named(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and node.value in PARTS else None


def _subscripted(node: ast.AST) -> bool:
    return isinstance(node, ast.Subscript) and _names_a_change(node.value) and bool(_part_named(node.slice))


def _asked_by_key(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
        return False
    method, key = node.func, _part_named(node.args[0])
    return method.attr in ("get", "setdefault", "pop") and _names_a_change(method.value) and bool(key)


def reads_by_key(root: Path) -> list[str]:
    """Each `change["request"]`, `change.get("checkpoint")`, `state.change.setdefault("page", …)`
    under `root`, as file:line: a part of a change read or written by its key."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _subscripted(node) or _asked_by_key(node):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    return found


def test_no_module_reads_a_change_by_its_keys():
    assert reads_by_key(REPO / "macaron_cli") + reads_by_key(REPO / "bench") == []


# A stopped change by a model, as its record has always been written.
RECORD = {
    "request": "use cups, not ml",
    "checkpoint": "change-2",
    "before": {"version": 1, "measures": [{"key": "water", "name": "water", "unit": "milliliter", "goal": 2000.0}]},
    "after": {"version": 1, "measures": [{"key": "water", "name": "water", "unit": "cups", "goal": 8.0}]},
    "config": {"title": "Water", "units": "metric", "language": "en"},
    "spec_by": "model",
    "app_cost_usd": 0.42,
    "files": ["server/main.py", "static/index.html"],
    "page": {"title": "Water", "fields": ["water (ml)"]},
    "page_difference": ["+ water (cups)", "− water (ml)"],
    "tests_reused": False,
    "reviewed_by": "a later macaron",  # a key this one does not know: kept as it was
}


def test_a_changes_record_is_read_back_typed_and_written_with_the_same_keys(tmp_path):
    from macaron_cli.maker import state as make_state

    record = {"idea": "a change", "slug": "water", "template": "habit-tracker", "mode": "change", "change": RECORD}
    folder = make_state.path(tmp_path, make_state.CHANGE_FILE)
    folder.parent.mkdir(parents=True)
    folder.write_text(json.dumps(record), encoding="utf-8")

    state = make_state.load(tmp_path, make_state.CHANGE_FILE)
    assert state is not None and isinstance(state.change, Change)
    change = state.change
    assert (change.request, change.checkpoint) == ("use cups, not ml", "change-2")
    assert (change.by, change.spec_by) == ("model", "model")
    assert change.before is not None and change.before.measures[0].unit == "milliliter"
    assert change.after is not None and change.after.measures[0].goal == 8.0
    assert change.files == ("server/main.py", "static/index.html")
    make_state.save(tmp_path, state)
    again = json.loads(folder.read_text(encoding="utf-8"))["change"]
    assert sorted(again) == sorted(RECORD) and again["reviewed_by"] == "a later macaron"
    assert again == json.loads(json.dumps(change.to_record()))
    assert again["before"]["measures"][0]["unit"] == "milliliter" and again["files"] == RECORD["files"]
