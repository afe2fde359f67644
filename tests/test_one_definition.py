"""Each definition lives in one module; the others import it (so they cannot drift apart)."""

from __future__ import annotations

import ast
from pathlib import Path

from macaron_cli import privacy

PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"


def _collections_naming(names: set[str], skip: str) -> list[str]:
    """Each tuple, list, set or dict key list in the package (outside `skip`) that spells two
    or more of `names` as string literals, as file:line."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
            if not isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict) or items is None:
                continue
            spelled = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
            if len(spelled & names) >= 2:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_only_the_privacy_gate_spells_out_the_privacy_levels():
    assert _collections_naming(set(privacy.LEVELS), skip="privacy.py") == []
