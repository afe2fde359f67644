"""The coder's walls as macaron writes them for the CLI (maker/containment.py); that the CLI
keeps to them is tests/test_coder_containment.py, with the real SDK."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from macaron_cli.maker.containment import SandboxWatch, Walls, walls
from macaron_cli.sandbox.walls import SHARED_TEMP, hidden_places


def _tree(root: Path, *files: str) -> None:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x")


def test_the_home_is_hidden_but_the_app_and_the_python_in_it(tmp_path):
    home = tmp_path / "home"
    _tree(
        home,
        "notes.txt",
        ".macaron/memory/data.lance",
        "macaron-apps/app/server/main.py",
        "macaron-apps/other/data/rows.json",
        ".pyenv/versions/3.11/bin/python3",
        ".pyenv/shims/python3",
    )
    app, python = home / "macaron-apps" / "app", home / ".pyenv" / "versions" / "3.11"
    w = Walls(app=app, hidden=(home, home / ".macaron", home / "macaron-apps"), shown=(app, python))
    assert w.denied() == [
        home / ".macaron",
        home / ".pyenv" / "shims",
        home / "macaron-apps" / "other",
        home / "notes.txt",
    ]
    settings = w.settings()
    deny = settings["permissions"]["deny"]
    for tool in ("Read", "Edit"):
        assert f"{tool}(/{home}/notes.txt)" in deny and f"{tool}(/{home}/.macaron/**)" in deny
    assert not any(str(app) in rule for rule in deny if rule.startswith("Read"))
    assert f"Edit(/{app}/.macaron/**)" in deny and f"Edit(/{app}/.claude/**)" in deny
    sandbox = settings["sandbox"]
    assert sandbox["enabled"] and not sandbox["allowUnsandboxedCommands"]
    assert sandbox["network"]["allowedDomains"] == []
    assert sandbox["filesystem"]["denyRead"] == [str(home), str(home / ".macaron"), str(home / "macaron-apps")]
    assert sandbox["filesystem"]["allowRead"] == [str(app), str(python)]


def test_glob_characters_in_a_name_are_taken_literally(tmp_path):
    _tree(tmp_path, "we(ird)*[x]/a.txt", "app/x")
    w = Walls(app=tmp_path / "app", hidden=(tmp_path,), shown=(tmp_path / "app",))
    assert f"Read(/{tmp_path}/we(ird)\\*\\[x\\]/**)" in w.settings()["permissions"]["deny"]


def test_walls_hide_the_memory_the_apps_and_every_registered_app(tmp_path, monkeypatch):
    home, mac, apps_dir, store, elsewhere = (tmp_path / n for n in ("home", "mac", "apps", "store", "elsewhere/old"))
    for folder in (home, mac, apps_dir / "app", store, elsewhere):
        folder.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MACARON_HOME", str(mac))
    monkeypatch.setenv("MACARON_APPS_DIR", str(apps_dir))
    registry = {"old": {"path": str(elsewhere)}, "app": {"path": str(apps_dir / "app")}}
    (mac / "apps.json").write_text(json.dumps(registry))
    scratch = tmp_path / "scratch"
    w = walls(apps_dir / "app", str(store), scratch)
    shared_temp = {p.resolve() for p in SHARED_TEMP if p.exists()}
    # A shared temporary folder that holds the app is left out (the CLI's sandbox would make
    # the app read-only): here the app lies under /tmp.
    around = {p for p in shared_temp if tmp_path.is_relative_to(p)}
    assert set(w.hidden) == {home, mac, apps_dir, store, elsewhere, *(shared_temp - around)}
    assert w.shown[:2] == (apps_dir / "app", scratch)  # the app, and the coder's own temporary folder
    # A store in the cloud is no folder here.
    assert store not in hidden_places("s3://bucket/memory", apps_dir / "app")


def _decision(watch: SandboxWatch, tool: str) -> dict:
    return asyncio.run(watch.hook({"tool_name": tool, "tool_input": {"command": "ls"}}, None, None))


def test_the_shell_is_refused_when_the_cli_says_its_sandbox_did_not_start():
    heard = []
    watch = SandboxWatch(accept_risk=False, stderr=heard.append)
    assert _decision(watch, "Bash") == {}
    line = "⚠ Sandbox disabled: sandbox is enabled but dependencies are missing: socat not installed"
    watch.stderr(line)
    assert heard == [line]  # the caller still hears the CLI
    decision = _decision(watch, "Bash")["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny" and "socat not installed" in decision["permissionDecisionReason"]
    assert _decision(watch, "Write") == {}
    accepted = SandboxWatch(accept_risk=True)
    accepted.stderr(line)
    assert _decision(accepted, "Bash") == {}
