"""What a change request is told by the rules (what the app already does, what they cannot do)
is said in the request's own language: written only by reading/change_ask.py's Asked, from
lang's lines, never a sentence a rule module writes itself."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from macaron_cli import lang
from macaron_cli.reading.change_ask import Asked

READING = Path(__file__).resolve().parents[1] / "macaron_cli" / "reading"
TOLD = ("held", "already", "missing")  # Asked's lists of what the request is told
SAID_BY = ("already", "cannot")  # Asked's ways of saying it, by a line's key
KEY = re.compile(r"[a-z_]+(\.[a-z_]+)*\.?")  # "goal", "units.", "language." before a code


def _writes_a_told_list(node: ast.AST) -> bool:
    """`ask.held.append(…)`, `ask.already.append(…)`, `ask.missing.extend(…)`, `ask.missing += …`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        target = node.func.value
        return node.func.attr in ("append", "extend", "insert") and getattr(target, "attr", "") in TOLD
    return isinstance(node, ast.AugAssign) and getattr(node.target, "attr", "") in TOLD


def _a_key(node: ast.expr) -> bool:
    """A line's key: "goal", f"units.{system}" (its constant parts keys) or a name holding one
    (lang.line refuses a key not declared), never a sentence."""
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(KEY.fullmatch(node.value))
    if isinstance(node, ast.JoinedStr):
        parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
        return all(isinstance(p, str) and KEY.fullmatch(p) for p in parts)
    return False


def told_outside_asked(root: Path) -> list[str]:
    """Each place in the rule modules that writes what a request is told itself (a list of
    Asked's appended to), or says it by anything but a line's key, as file:line."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "change_ask.py":
            continue
        lines = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            said_by = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SAID_BY
            if _writes_a_told_list(node) or (said_by and not (node.args and _a_key(node.args[0]))):  # type: ignore[attr-defined]
                lines.add(node.lineno)  # type: ignore[attr-defined]
        found += [f"{path.name}:{line}" for line in sorted(lines)]
    return found


def test_no_rule_module_writes_what_a_request_is_told_itself():
    assert told_outside_asked(READING) == []


def test_the_scan_finds_a_sentence_written_past_asked(tmp_path):
    (tmp_path / "rule.py").write_text(
        'def rule(ask):\n    ask.already.append(f"{x} already in this app")\n'
        '    ask.held += ["the units are already metric"]\n    ask.already("the timer is already 25")\n'
        '    ask.cannot(f"units.{x}")\n'
    )
    assert told_outside_asked(tmp_path) == ["rule.py:2", "rule.py:3", "rule.py:4"]


def _holes(line: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(line) if name}


ALREADY = [key for key in lang.SAYINGS if key.startswith("already.")]
assert len(ALREADY) >= 10, ALREADY  # one line a way the rules find the app already does it


@pytest.mark.parametrize("language", ["ja", "ko", "zh"])
def test_each_already_line_is_in_its_language_with_no_english_word(language):
    """Only what is filled in (a unit, a currency code) may be Latin letters in Japanese, Korean
    and Chinese; Tagalog's lines are its own, never English's."""
    for key in ALREADY:
        line = lang.lines(language)[key]
        bare = re.sub(r"\{\w+\}", "", line)
        assert not re.search(r"[A-Za-z]{2,}", bare), (key, line)
        assert _holes(line) == _holes(lang.line(key, "en")), (key, line)


def test_tagalog_says_each_already_line_its_own_way():
    for key in ALREADY:
        line = lang.lines("tl")[key]
        assert line != lang.line(key, "en") and "already" not in line, (key, line)
        assert _holes(line) == _holes(lang.line(key, "en")), (key, line)


def test_already_is_said_in_the_requests_language_and_english_stays_as_it_was():
    def asked(language: str) -> Asked:
        return Asked("", None, False, None, {}, None, [], [], set(), language=language)  # type: ignore[arg-type]

    english, korean, japanese = asked("en"), asked("ko"), asked("ja")
    for ask in (english, korean, japanese):
        ask.already("people", names=ask.listed(["민수", "지영"]))
        ask.already("timer", work="25", rest="5")
    timer = "the timer is already 25 minutes of work, then 5 of break"
    assert english.held == ["민수, 지영 already in this app", timer]
    assert korean.held == ["민수, 지영 님은 이미 이 앱에 있어요", "타이머는 이미 25분 집중, 5분 휴식이에요"]
    assert japanese.held[0] == "민수、지영はもうこのアプリにいます"  # joined as Japanese joins a list
