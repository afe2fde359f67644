"""The search declared: its numbers in one Tuning that a caller (bench/) may vary, its stages in
one PIPELINE, and the parts "Why this result" and /why explain read from that declaration."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from macaron_cli.errors import UserError
from macaron_cli.memory import MemoryStore
from macaron_cli.memory.retrieval import PARTS, PIPELINE
from macaron_cli.memory.score_parts import BOUNDED_PARTS, PART_MEANING, leading_reason
from macaron_cli.memory.tuning import TUNING, Tuning, tuned

MEMORY = Path(__file__).resolve().parents[1] / "macaron_cli" / "memory"
# The modules of the search: none may hold a number of its own (memory/tuning.py holds them).
SEARCH_MODULES = ("retrieval.py", "candidates.py", "retrievers.py", "rerankers.py", "score_parts.py", "expansion.py")


NEUTRAL = {"0", "0.0", "1", "1.0", "-1", "-1.0"}


def numeric_constants(source: str) -> list[str]:
    """Names bound to a number at module or class level: True and False are no numbers, and
    0 or ±1 is where a sum or product starts or a sentinel (a dataclass field's default), not
    a tuning."""

    def numeric(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, int | float) and not isinstance(node.value, bool)
        if isinstance(node, ast.UnaryOp | ast.BinOp):
            return all(numeric(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr))
        if isinstance(node, ast.Tuple):
            return any(numeric(element) for element in node.elts)
        return False

    found = []
    tree = ast.parse(source)
    bodies = [tree.body] + [node.body for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    for body in bodies:
        for statement in body:
            value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
            if value is not None and numeric(value) and ast.unparse(value) not in NEUTRAL:
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                found += [ast.unparse(target) for target in targets]
    return found


def test_no_module_of_the_search_holds_a_number_of_its_own():
    for name in SEARCH_MODULES:
        assert numeric_constants((MEMORY / name).read_text(encoding="utf-8")) == [], name


def test_the_check_finds_a_planted_number():
    planted = "\n".join(
        [
            "WEIGHT = 0.4",
            "LOW, HIGH = 1.0 - 0.1, 1.15",
            "class Stage:",
            "    depth: int = 40",
            "    on = True",
            "    score = 0.0",
        ]
    )
    assert numeric_constants(planted) == ["WEIGHT", "(LOW, HIGH)", "depth"]


def test_the_search_imports_no_number_from_elsewhere():
    """A number imported from another module is a tuning number outside the Tuning."""
    import importlib

    for name in SEARCH_MODULES:
        tree = ast.parse((MEMORY / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("macaron_cli"):
                module = importlib.import_module(node.module)
                for alias in node.names:
                    value = getattr(module, alias.name, None)
                    assert not (isinstance(value, int | float) and not isinstance(value, bool)), (name, alias.name)


def test_bench_tuning_pairs_replace_the_named_numbers():
    changed = tuned(["boost=0.3", "guesses=5"])
    assert (changed.boost, changed.guesses) == (0.3, 5) and isinstance(changed.guesses, int)
    assert replace(changed, boost=TUNING.boost, guesses=TUNING.guesses) == TUNING
    with pytest.raises(UserError, match="unknown tuning 'bost'"):
        tuned(["bost=0.3"])
    with pytest.raises(UserError, match="takes a number"):
        tuned(["guesses=many"])
    with pytest.raises(AttributeError):
        TUNING.boost = 1.0  # type: ignore[misc]  # frozen: one search's tuning never leaks into the next


def test_a_search_weighs_importance_by_the_tuning_it_is_given(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    store.add("dentist appointment on Friday", id="pinned", pinned=True)
    store.add("dentist appointment on Friday, the old clinic", id="plain", created_at="2020-01-01T00:00:00Z")
    default = store.search("dentist appointment", k=2, mmr=False)
    assert default[0].memory.id == "pinned" and default[0].parts["boost"] > 1.0
    flat = store.search("dentist appointment", k=2, mmr=False, tuning=Tuning(boost=0.0))
    assert all(hit.parts["boost"] == 1.0 for hit in flat)
    assert flat[0].score == pytest.approx(flat[0].parts["relevance"] * flat[0].parts["gate"])


def test_every_part_a_search_writes_is_declared_and_explained(tmp_path):
    """What "Why this result" shows comes from the stages' own declaration: each name once."""
    names = [part.name for part in PARTS]
    assert len(names) == len(set(names))
    assert set(PART_MEANING) == set(names) and set(names) >= BOUNDED_PARTS
    assert len(PIPELINE) >= 15  # retrievers, rerankers and factors: one loop runs them all
    store = MemoryStore.open(tmp_path / "memory")
    store.add("Mina: How tall is your sister?", id="q", kind="episode", created_at="2026-05-01T10:00:00Z")
    store.add("Jo: My sister is 152cm and plays piano", id="a", kind="episode", created_at="2026-05-01T10:00:00Z")
    store.add("an old fact", id="old", valid_until="2020-01-01T00:00:00Z")
    for query in ("how tall is my sister", "piano", "old fact", "what did Jo say on May 1?"):
        for hit in store.search(query, k=5):
            assert set(hit.parts) <= set(PART_MEANING), (query, hit.parts)
    assert leading_reason({"bm25": 0.2, "vector": 0.9, "relevance": 1.0}) == "closeness in meaning"
