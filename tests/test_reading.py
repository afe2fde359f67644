"""Reading what people say is one room (macaron_cli/reading/): an idea is read once, into one
frozen Reading, and a make chooses its template and writes its spec from that."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from macaron_cli.reading.idea import read_idea

PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"

# The rules that read people's words: each lives in reading/, none in a feature or the store.
RULES = ("slots", "spec_rules", "change_rules", "fit", "spec_families", "japanese", "personal", "advice")
RULES += ("when", "units")


def test_an_idea_read_once_holds_its_people_period_and_numbers():
    reading = read_idea("  chores for me, Tom and Lily every week  ")
    assert reading.idea == "chores for me, Tom and Lily every week"
    assert reading.said.people == ("me", "Tom", "Lily")
    assert reading.said.period == "weekly"
    assert reading.language == "en"
    water = read_idea("毎日の水分補給、2リットルが目標").said
    assert water.goal is not None and (water.goal.value, water.goal.unit) == (2, "liter")
    with pytest.raises(dataclasses.FrozenInstanceError):
        reading.idea = "something else"  # type: ignore[misc]


def test_no_rule_module_is_left_in_maker_or_memory():
    for rule in RULES:
        assert (PACKAGE / "reading" / f"{rule}.py").exists(), rule
        assert not (PACKAGE / "maker" / f"{rule}.py").exists(), rule
        assert not (PACKAGE / "memory" / f"{rule}.py").exists(), rule


# Who in maker/ may read an idea or write a spec by rules: the plan (once per make), the
# spec the model is asked beside it, and the fallbacks of a template chosen or an app
# scaffolded with no spec given (a test's, a bench's, an app made before specs).
_READERS = {"read", "read_idea", "write_spec"}
_MAY_READ = {("plan.py", "chosen_for"), ("plan.py", "plan_make"), ("plan.py", "_asked_spec")}
_MAY_READ |= {("scaffold.py", "app_spec_for"), ("choose.py", "choose_template")}  # asked alone: a test, a bench


def _readers(path: Path) -> list[str]:
    """Each function of `path` that calls a reader of ideas itself, as file:function."""
    found = []
    for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(function, ast.FunctionDef):
            continue
        for call in ast.walk(function):
            called = getattr(call, "func", None)
            name = getattr(called, "id", None) or getattr(called, "attr", None)
            if isinstance(call, ast.Call) and name in _READERS and (path.name, function.name) not in _MAY_READ:
                found.append(f"{path.name}:{function.name}")
    return found


def test_a_make_reads_its_idea_only_in_its_plan():
    """A template chosen on one reading and a spec written from another is how one make came
    to read its idea four times and write two specs: maker/ reads only where the plan does."""
    found = [where for path in sorted((PACKAGE / "maker").glob("*.py")) for where in _readers(path)]
    assert found == [], "read the idea in plan.py and carry its Reading (plan.reading)"
