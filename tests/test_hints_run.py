"""Every command macaron tells a person to type runs as printed, in a scratch home."""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pexpect
import pytest

from tests.conftest import REPO, macaron_command

pytestmark = pytest.mark.slow


def hints(text: str) -> list[str]:
    """The `macaron …` commands a message tells the person to type."""
    return list(re.findall(r"`(macaron [^`]+)`", text))


def run_hint(hint: str) -> tuple[int, str]:
    """Type the hint in a terminal, as the person would, saying yes to what it asks."""
    words = shlex.split(hint)
    assert words[0] == "macaron" and "…" not in hint and "APP" not in words, f"not runnable as printed: {hint}"
    env = dict(os.environ)
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO)
    cmd = macaron_command()
    child = pexpect.spawn(cmd[0], [*cmd[1:], *words[1:]], env=env, encoding="utf-8", timeout=120)
    said = ""
    while child.expect([r"\[y/N\]|\(y/n\)|\[Y/n\]|what to change: ", pexpect.EOF]) == 0:
        said += child.before + child.after
        child.sendline("y")
    said += child.before
    child.close()
    return child.exitstatus, said


def test_refresh_and_privacy_hints_run_as_printed(macaron):
    made = macaron("make", "--offline", "track how much water I drink", "--yes", "--json", timeout=300)
    assert made.returncode == 0, made.stderr
    slug, app = json.loads(made.stdout)["app"], Path(json.loads(made.stdout)["path"])
    config = app / "config" / "app.json"
    assert json.loads(config.read_text())["units"] == "metric"

    assert macaron("memory", "add", "I switched to ounces for everything I drink").returncode == 0
    refreshed = macaron("apps", "refresh", slug)
    assert refreshed.returncode == 0 and json.loads(config.read_text())["units"] == "imperial"
    latest = json.loads(macaron("checkpoints", slug, "--json").stdout)[-1]
    assert latest["phase"] == "refresh" and "units metric → imperial" in latest["message"]
    assert "{" not in latest["message"] and "[" not in latest["message"]  # words, not a Python dict

    (undo,) = hints(refreshed.stdout)
    code, said = run_hint(undo)
    assert code == 0, said
    assert json.loads(config.read_text())["units"] == "metric"

    shown = macaron("apps", "privacy", slug)
    assert shown.returncode == 0 and f"{slug} is private" in shown.stdout  # a health app, by default
    (change,) = hints(shown.stdout)
    assert run_hint(change)[0] == 0
    assert f"{slug} is personal" in macaron("apps", "privacy", slug).stdout


def test_the_share_hint_runs_as_printed_where_the_friend_keeps_the_bundle(macaron, tmp_path):
    made = macaron("make", "--offline", "track how much water I drink", "--yes", "--json", timeout=300)
    assert made.returncode == 0, made.stderr
    mine = tmp_path / "mine"
    mine.mkdir()
    shared = macaron("share", json.loads(made.stdout)["app"], cwd=mine)
    assert shared.returncode == 0, shared.stderr
    (hint,) = hints(shared.stdout)
    friend = tmp_path / "friend"
    friend.mkdir()
    for bundle in mine.iterdir():
        bundle.rename(friend / bundle.name)
    env = {"MACARON_HOME": str(tmp_path / "friend-home"), "MACARON_APPS_DIR": str(tmp_path / "friend-apps")}
    ran = macaron(*shlex.split(hint)[1:], env=env, cwd=friend, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert list((tmp_path / "friend-apps").iterdir()), "the friend's make made no app"
