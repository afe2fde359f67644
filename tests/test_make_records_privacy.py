"""A health or money app asks once, at make time in a terminal, whether the friend's cloud
model may hear what it records; --yes and pipes keep it private, and nothing else is asked."""

from __future__ import annotations

import json
import os

import pexpect
import pytest

from tests.conftest import REPO, macaron_command

pytestmark = pytest.mark.slow

QUESTION = "May your friend's cloud model (Claude) hear it too"


def make_in_a_terminal(idea: str, answer: str) -> str:
    env = dict(os.environ)
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO)
    cmd = macaron_command()
    child = pexpect.spawn(cmd[0], [*cmd[1:], "make", idea, "--offline"], env=env, encoding="utf-8", timeout=300)
    child.expect_exact(QUESTION)
    child.sendline(answer)
    while child.expect([r"\(y/n\)|\[y/n\]|what to change: ", r"\(1-5[^)]*\)|stars", pexpect.EOF]) != 2:
        child.sendline("")  # later questions (what was understood, did it fit you?): no answer
    child.close()
    return child.before


def privacy_of(macaron, slug_part: str) -> str:
    apps = json.loads(macaron("apps", "--json").stdout)
    (app,) = [a for a in apps if slug_part in a["app"]]
    return app["privacy"]


def test_asked_in_a_terminal_the_person_may_let_claude_hear_a_health_app(macaron):
    make_in_a_terminal("track how much water I drink", "y")
    assert privacy_of(macaron, "water") == "personal"


def test_with_yes_or_a_pipe_a_health_app_stays_private_and_nothing_is_asked(macaron):
    made = macaron("make", "track my blood pressure every morning", "--offline", "--yes")
    assert made.returncode == 0 and QUESTION not in made.stdout + made.stderr
    assert privacy_of(macaron, "blood") == "private"
    piped = macaron("make", "a budget for my groceries", "--offline", input="y\n")
    assert QUESTION not in piped.stdout + piped.stderr
    assert privacy_of(macaron, "budget") == "private"
