"""Every question is asked with the live display stopped: a make in a real terminal (a pty)
shows its question and takes the answer, and no prompt in the make's or the change's
modules is asked except through progress.question."""

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
    env = {**os.environ, "COLUMNS": "120", "LINES": "40"}
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO)
    for key in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "MACARON_DRAFT_URL"):
        env.pop(key, None)
    cmd = macaron_command()
    words = ["make", "--offline", "track my blood pressure every morning"]
    child = pexpect.spawn(cmd[0], [*cmd[1:], *words], env=env, encoding="utf-8", timeout=90, dimensions=(40, 120))
    try:
        child.expect(_words("May your friend's cloud model (Claude) hear it too"))
        child.expect(r"\[y/n\][^:]*: ")
        # While the question waits, nothing is drawn over it: the live panel (redrawn many
        # times a second while it runs) is stopped until the answer.
        assert child.expect([r"so far", pexpect.TIMEOUT], timeout=QUIET) == 1, "the panel is drawn over the question"
        child.sendline("y")
        child.expect(r"Did it fit you\?")
        child.sendline("skip")
        child.expect(pexpect.EOF, timeout=120)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    (slug,) = json.loads((macaron_home / "apps.json").read_text(encoding="utf-8"))
    said = macaron("apps", "privacy", slug)
    assert f"{slug} is personal" in said.stdout, said.stdout + said.stderr  # the answer was taken


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


def test_every_prompt_of_make_and_change_stops_the_live_display():
    unwrapped = []
    for path in sorted((REPO / "macaron_cli" / "maker").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and _prompting(node):
                decorators = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in node.decorator_list}
                if "question" not in decorators:
                    unwrapped.append(f"{Path(path).name}:{node.lineno} {node.name}")
    assert unwrapped == [], "ask through @progress.question (the live panel stopped): " + ", ".join(unwrapped)
