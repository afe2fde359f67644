"""One life, end to end: what the person logs in an app reaches the memory and the friend,
with the app's privacy, and the app keeps up with what the person tells the friend."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import urllib.request
from pathlib import Path

import pytest

from macaron_cli.memory import MemoryStore
from tests.conftest import REPO, macaron_command
from tests.friend_support import (
    PROMPT,
    SUMMARY_MARK,
    chat_env,
    chat_requests,
    leave,
    meet_friend_already,
    responder,
    say,
    spawn_chat,
)
from tests.support.model_server import ModelServer, Reply

pytestmark = pytest.mark.slow  # a made app served for real, chats in a real terminal

QUESTION = "How much water did I drink this week?"


def serve(slug: str) -> tuple[subprocess.Popen, str]:
    """`macaron run APP` as the person starts it; its URL once it answers."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [*macaron_command(), "run", slug], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "is running at" in line:
            return proc, line.split("is running at ")[1].split()[0]
    raise AssertionError(f"macaron run did not serve {slug}")


def post(url: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        url.rstrip("/") + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def get(url: str, path: str) -> dict:
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=10) as answer:
        return json.loads(answer.read())


def ask(server, model: str, question: str = QUESTION, *lines: str) -> str:
    child = spawn_chat(chat_env(server, model), "--model", "claude" if model == "claude" else "local")
    child.expect_exact(PROMPT)
    shown = "".join(say(child, line) for line in [question, *lines])
    leave(child)
    return shown


def test_what_i_log_in_my_tracker_reaches_the_friend_with_the_apps_privacy(macaron, macaron_home):
    made = macaron("make", "--offline", "track how much water I drink", "--yes", "--json", timeout=300)
    assert made.returncode == 0, made.stderr
    slug, app = json.loads(made.stdout)["app"], Path(json.loads(made.stdout)["path"])
    today = dt.date.today().isoformat()
    proc, url = serve(slug)
    try:
        for _ in range(3):
            post(url, "/api/entries", {"habit": "water", "amount": 250, "day": today})
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    data_before = (app / "data" / "app.db").read_bytes()

    digest = json.loads(macaron("apps", "digest", slug, "--json").stdout)
    assert digest["facts"]["water"]["today"] == 750 and digest["privacy"] == "private"  # a health app
    memory = MemoryStore.open().get(digest["memory"])
    assert memory.kind == "app" and memory.source == f"app:{slug}" and memory.domain == "health"

    meet_friend_already()
    assert macaron("apps", "privacy", slug, "personal").returncode == 0
    with ModelServer(responder("You drank 750 mL, says your water app.")) as cloud:
        ask(cloud, "claude")
    asked = [r for r in chat_requests(cloud) if QUESTION in r.last_user_text()]
    assert asked and "750 mL" in asked[0].system and slug in asked[0].system

    marked = macaron("apps", "privacy", slug, "private")
    assert marked.returncode == 0 and "private" in marked.stdout
    with ModelServer(responder("I can't see that.")) as cloud:
        ask(cloud, "claude")
    assert "750 mL" not in cloud.all_bytes(), "a private app's digest never reaches Claude"
    with ModelServer(responder("750 mL so far.")) as local:
        shown = ask(local, "local", QUESTION, f"/run {slug}")
    asked = [r for r in chat_requests(local) if QUESTION in r.last_user_text()]
    assert asked and "750 mL" in asked[0].system, "a local model may hear it"
    assert "is open at http://127.0.0.1:" in shown

    why = macaron("why", memory.id)
    assert why.returncode == 0 and f"the digest of your app {slug}" in why.stdout

    # "I switched to ounces" → refresh → the app shows ounces, the data is what it was.
    assert macaron("memory", "add", "I switched to ounces for everything I drink").returncode == 0
    refreshed = macaron("apps", "refresh", slug)
    assert refreshed.returncode == 0 and "units metric → imperial" in refreshed.stdout, refreshed.stdout
    assert (app / "data" / "app.db").read_bytes() == data_before
    proc, url = serve(slug)
    try:
        assert get(url, "/api/config")["units"] == "imperial"
        assert get(url, f"/api/days/{today}")["figures"]["water"]["values"] == [750]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    again = json.loads(macaron("apps", "digest", slug, "--json").stdout)
    assert "25.4 fl oz" in again["lines"][0]
    phases = [c["phase"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout)]
    assert phases[-1] == "refresh", "rollback covers the refresh"

    forgot = macaron("memory", "forget", again["memory"])
    assert forgot.returncode == 0 and f"The records themselves stay in the app {slug}" in forgot.stdout


def test_open_my_water_tracker_in_every_language_serves_it(macaron, macaron_home):
    made = macaron("make", "--offline", "track how much water I drink", "--yes", "--json", timeout=300)
    slug = json.loads(made.stdout)["app"]
    meet_friend_already()
    with ModelServer(responder("Sure.")) as server:
        child = spawn_chat(chat_env(server))
        child.expect_exact(PROMPT)
        for line in [
            "open my water tracker",
            "水分アプリを開いて",
            "물 앱 열어줘",
            "打开喝水应用",
            "buksan mo ang water app",
        ]:
            shown = say(child, line)
            assert "is open at http://127.0.0.1:" in shown, (line, shown)
        url = shown.split("is open at ")[1].split()[0]
        assert urllib.request.urlopen(url, timeout=10).status == 200
        listed = say(child, "/apps")
        assert slug in listed and "nothing recorded yet" in listed  # one line of its digest
        leave(child)
    assert not [r for r in chat_requests(server) if "open" in r.last_user_text()], "opening needs no model"


def test_the_person_sees_their_own_private_records_and_claude_never_hears_them(macaron, macaron_home):
    made = macaron("make", "--offline", "track how much water I drink", "--yes", "--json", timeout=300)
    assert made.returncode == 0, made.stderr
    slug = json.loads(made.stdout)["app"]
    today = dt.date.today().isoformat()
    proc, url = serve(slug)
    try:
        for amount in (500, 800):
            post(url, "/api/entries", {"habit": "water", "amount": amount, "day": today})
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    meet_friend_already()

    # A health app is private by default, and the friend talks through Claude.
    with ModelServer(responder("Nice, keep it up!")) as cloud:
        shown = " ".join(ask(cloud, "claude", QUESTION, "And yesterday, how much water?").split())
    assert f"from your app {slug} (shown here only)" in shown and "1,300 mL" in shown
    assert shown.count(f"macaron apps privacy {slug} personal") == 1, "the way to share it is said once"
    assert "1,300" not in cloud.all_bytes() and "1300" not in cloud.all_bytes(), "no request carries the figure"
    asked = [r for r in chat_requests(cloud) if QUESTION in r.last_user_text()]
    assert asked and "just shown, on their own screen" in asked[0].system

    # Marked personal, Claude may hear it: the figure goes in its request, and nothing is shown
    # apart. The chat's summary, written now, carries the figure too.
    assert macaron("apps", "privacy", slug, "personal").returncode == 0

    def summarising(req):
        if SUMMARY_MARK in req.system:
            return Reply.text("They drank 1,300 mL of water today and felt good about it.")
        return responder("You drank 1,300 mL today.")(req)

    with ModelServer(summarising) as cloud:
        shown = " ".join(ask(cloud, "claude").split())
    asked = [r for r in chat_requests(cloud) if QUESTION in r.last_user_text()]
    assert asked and "1,300 mL" in asked[0].system and "(shown here only)" not in shown
    summaries = [m for m in MemoryStore.open().list(limit=None) if "1,300 mL of water" in m.text]
    assert summaries and summaries[0].kind == "episode"

    # Marked private again: neither the digest nor the summary written while it was personal
    # goes to Claude; the person still sees their records.
    assert macaron("apps", "privacy", slug, "private").returncode == 0
    with ModelServer(responder("Glad to hear it.")) as cloud:
        shown = " ".join(ask(cloud, "claude", "What did we say about water last time?", QUESTION).split())
    assert "1,300" not in cloud.all_bytes(), "a summary follows its source's label when read"
    assert "1,300 mL" in shown
