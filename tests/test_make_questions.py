"""Every question is asked with the live display stopped: a make in a real terminal (a pty)
shows its questions (the privacy of a health app's records, what it understood, corrected in
words before anything is written) and takes the answers, and no prompt anywhere in macaron_cli
is asked except through asking.question."""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pexpect
import pytest

from tests.conftest import REPO, macaron_command

QUIET = 3  # seconds a waiting question is watched for a panel drawn over it
PROMPTERS = {"Confirm", "Prompt", "IntPrompt", "FloatPrompt", "typer", "click"}  # Confirm.ask, typer.confirm…


@pytest.mark.slow
def test_a_health_app_made_in_a_terminal_shows_its_question_and_takes_the_answer(macaron, macaron_home):
    apps = macaron_home.parent / "apps"
    child = _make_in_a_terminal("track my weight every morning, goal 62 kg")
    try:
        child.expect(_words("May your friend's cloud model (Claude) hear it too"))
        child.expect(r"\[y/n\][^:]*: ")
        # While the question waits, nothing is drawn over it: the live panel (redrawn many
        # times a second while it runs) is stopped until the answer.
        assert child.expect([r"so far", pexpect.TIMEOUT], timeout=QUIET) == 1, "the panel is drawn over the question"
        child.sendline("y")
        # What was understood, before anything is written; corrected in words.
        child.expect(r"(\S*) in kg, goal 62\. Go ahead, or tell me what to change\.")
        assert child.expect([r"so far", r"what to change: "]) == 1, "the panel is drawn over the summary"
        assert _nothing_made(apps, macaron_home)
        child.sendline("no, in pounds")
        child.expect(r"in lb, goal 136\.7\. Go ahead, or tell me what to change\.")
        child.expect(r"what to change: ")
        assert _nothing_made(apps, macaron_home)
        child.sendline("yes")
        child.expect(r"Did it fit you\?")
        child.sendline("skip")
        child.expect(pexpect.EOF, timeout=120)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    (slug,) = json.loads((macaron_home / "apps.json").read_text(encoding="utf-8"))
    said = macaron("apps", "privacy", slug)
    assert f"{slug} is personal" in said.stdout, said.stdout + said.stderr  # the answer was taken
    assert _config(apps / slug)["units"] == "imperial"  # the page shows pounds


@pytest.mark.slow
def test_what_a_make_understood_is_corrected_in_japanese_and_a_no_writes_nothing(macaron_home):
    apps = macaron_home.parent / "apps"
    child = _make_in_a_terminal("毎日の体重を記録したい、目標62kg", "--yes")  # --yes: no question at all
    child.expect(pexpect.EOF, timeout=120)
    child.close()
    assert "目標" not in child.before and child.exitstatus == 0, child.before
    (made,) = [p for p in apps.iterdir() if not p.name.startswith(".")]
    assert _config(made)["units"] == "metric"

    child = _make_in_a_terminal("毎週の体重を記録したい、目標62kg")
    try:
        child.expect(r"\[y/n\][^:]*: ")
        child.sendline("n")
        child.expect(r"（kg）、目標 62。これで作りますか？")
        child.expect(r"変えたいこと: ")
        child.sendline("いいえ、ポンドで")
        child.expect(r"（lb）、目標 136\.7。これで作りますか？")
        child.expect(r"変えたいこと: ")
        assert [p.name for p in apps.iterdir() if not p.name.startswith(".")] == [made.name]
        child.sendline("いいえ")
        child.expect(pexpect.EOF, timeout=60)
    finally:
        child.close()
    assert "何も作りませんでした。" in child.before
    assert child.exitstatus == 2, child.before  # as a declined change: nothing written
    assert [p.name for p in apps.iterdir() if not p.name.startswith(".")] == [made.name]


def _make_in_a_terminal(idea: str, *options: str) -> pexpect.spawn:
    env = {**os.environ, "COLUMNS": "120", "LINES": "40"}
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO)
    for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "MACARON_DRAFT_URL"):
        env.pop(key, None)
    cmd = macaron_command()
    words = ["make", "--offline", *options, idea]
    return pexpect.spawn(cmd[0], [*cmd[1:], *words], env=env, encoding="utf-8", timeout=90, dimensions=(40, 120))


def _nothing_made(apps: Path, home: Path) -> bool:
    return not (apps.exists() and any(apps.iterdir())) and not (home / "apps.json").exists()


def _config(app: Path) -> dict:
    return json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))


def _words(text: str) -> str:
    """`text` as a pattern that a terminal may wrap between any two words."""
    return r"\s+".join(map(re.escape, text.split()))


def _prompting(function: ast.FunctionDef) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "input":
                return True
            prompter = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            if prompter and func.value.id in PROMPTERS and func.attr in ("ask", "confirm", "prompt"):
                return True
    return False


def test_every_prompt_anywhere_stops_the_live_display():
    unwrapped = []
    for path in sorted((REPO / "macaron_cli").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and _prompting(node):
                decorators = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in node.decorator_list}
                if "question" not in decorators:
                    unwrapped.append(f"{Path(path).name}:{node.lineno} {node.name}")
    assert unwrapped == [], "ask through @asking.question (the live display stopped): " + ", ".join(unwrapped)
