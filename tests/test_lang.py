"""Languages in one place (issue 39): every concept a rule reads has its words in every
language, a language is one file that the rules pick up, and no module outside
macaron_cli/lang/ holds a concept's word list."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from macaron_cli import lang
from macaron_cli.maker.slots import read

PACKAGE = Path(lang.__file__).resolve().parents[1]

# Modules that still hold words of a concept, until their words move to lang/ (the list
# only shrinks: a module here that no longer holds any fails too, so it is taken off).
NOT_YET_MOVED = {
    "friend/changes.py", "friend/onboarding.py", "friend/router.py", "friend/topics.py", "lifelog/refresh.py",
    "maker/change_rules.py", "maker/fit.py", "maker/personal.py", "maker/slots.py", "maker/spec_rules.py",
    "memory/expansion.py",
}  # fmt: skip


def test_every_concept_has_its_words_in_every_language():
    assert set(lang.languages()) >= {"en", "ja", "ko", "zh", "tl"}
    assert lang.missing() == []


ESPERANTO = """WORDS = {"unit.steps": r"\\bpaŝoj\\b", "period.daily": r"\\bĉiutage\\b"}\n"""


@pytest.fixture
def esperanto(tmp_path, monkeypatch):
    """Esperanto added as one file in lang/ (a folder on the package's path)."""
    (tmp_path / "eo.py").write_text(ESPERANTO, encoding="utf-8")
    monkeypatch.setattr(lang, "__path__", [*lang.__path__, str(tmp_path)])
    lang.reread()
    yield
    monkeypatch.undo()
    sys.modules.pop("macaron_cli.lang.eo", None)
    lang.reread()


def test_a_language_added_as_one_file_is_read_by_the_rules(esperanto):
    said = read("10000 paŝoj ĉiutage")
    assert said.units == ("steps",) and said.period == "daily"
    assert [a.value for a in said.amounts] == [10000]
    # the file is partial: the completeness test names what it lacks
    assert ("eo", "saving") in lang.missing() and ("eo", "unit.steps") not in lang.missing()


def test_without_the_file_the_words_mean_nothing():
    said = read("10000 paŝoj ĉiutage")
    assert said.units == () and said.period is None


def _alternatives(pattern: str) -> list[str]:
    """A pattern's alternatives at its top level (not those inside a group)."""
    out, depth, start = [], 0, 0
    for at, char in enumerate(pattern):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "|" and depth == 0:
            out.append(pattern[start:at])
            start = at + 1
    return [*out, pattern[start:]]


def _literals(concept: str) -> set[str]:
    """A concept's plain words (no pattern syntax), long enough to mean something alone."""
    out = set()
    for code in lang.languages():
        for alternative in _alternatives(lang.words(concept, code)):
            word = alternative.replace(r"\b", "").strip()
            if re.fullmatch(r"[^\W\d_]+(?: [^\W\d_]+)*", word) and len(word) >= (4 if word.isascii() else 2):
                out.add(word)
    return out


def _strings(source: str) -> list[str]:
    """The string literals of a module's code (its docstrings left out: examples, not rules)."""
    tree = ast.parse(source)
    docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def holding_words(source: str) -> list[str]:
    """The concepts whose word list `source` writes in its strings: three of its words or more."""
    strings = " ".join(_strings(source))
    held = []
    for concept in lang.CONCEPTS:
        words = _literals(concept)
        hits = [
            w
            for w in words
            if re.search(rf"(?<![^\W\d_]){re.escape(w)}(?![^\W\d_])" if w.isascii() else re.escape(w), strings)
        ]
        if len(hits) >= 3:
            held.append(concept)
    return held


def test_a_word_list_planted_outside_lang_is_found():
    planted = 'SAVING = r"\\bsavings\\b|貯金|저축|攒钱|\\bipon\\b"\n'
    assert "saving" in holding_words(planted)
    assert holding_words('TITLE = "Savings"\n') == []


def test_no_module_outside_lang_holds_a_concepts_words():
    holders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module.startswith(("lang/", "_bundled/")):
            continue
        if held := holding_words(path.read_text(encoding="utf-8")):
            holders[module] = held
    assert set(holders) - NOT_YET_MOVED == set(), holders
    assert NOT_YET_MOVED - set(holders) == set(), "these hold no words now: take them off NOT_YET_MOVED"
