"""Weeks of use, through the real CLI: outcomes reach the memories and the choice of base."""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import pytest

from macaron_cli.ledger import Ledger, node

pytestmark = pytest.mark.slow  # weeks of use through the real CLI, dozens of processes

MATCHA = "I drink matcha every morning before work"
ESPRESSO = "I drink espresso every evening after work"
PRIVATE = "matcha calms my panic attacks"


def _make(macaron, idea: str) -> dict:
    result = macaron("make", idea, "--offline", "--yes", "--json", timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


def _ids(macaron) -> dict[str, str]:
    rows = json.loads(macaron("memory", "list", "--json", "--limit", "100").stdout)
    return {r["text"]: r["id"] for r in rows}


def test_weeks_of_use_shift_memory_and_lineage(macaron, macaron_home, tmp_path):
    for text, privacy in ((MATCHA, "personal"), (ESPRESSO, "personal"), (PRIVATE, "private")):
        assert macaron("memory", "add", text, "--domain", "food", "--privacy", privacy).returncode == 0
    ids = _ids(macaron)

    loved = _make(macaron, "a matcha tracker for my mornings")
    regretted = _make(macaron, "an espresso tracker for my evenings")
    ledger = Ledger.open(macaron_home)
    assert node("memory", ids[MATCHA]) in ledger.sources_of(node("brief", loved["app"]))
    assert node("memory", ids[ESPRESSO]) in ledger.sources_of(node("brief", regretted["app"]))

    # Weeks pass: the matcha tracker is opened on many days and rated well; the espresso
    # tracker is rolled back and then deleted.
    for day in range(3, 24):
        ledger.record("run", node("app", loved["app"]), time=f"2026-12-{day:02d}T07:30:00+00:00")
    (Path(regretted["path"]) / "static" / "tweak.css").write_text("body { color: brown }\n")
    assert macaron("checkpoint", regretted["app"], "-m", "a darker look").returncode == 0
    assert macaron("rollback", regretted["app"], "--steps", "1", "--yes").returncode == 0
    shutil.rmtree(regretted["path"])
    assert macaron("apps").returncode == 0  # notices the deletion
    assert macaron("rate", loved["app"], "5").returncode == 0

    hits = json.loads(macaron("memory", "search", "what do I drink every day", "--json").stdout)
    order = [h["id"] for h in hits]
    assert order.index(ids[MATCHA]) < order.index(ids[ESPRESSO])

    # A similar idea now starts from the app that served the person well, and says so.
    result = macaron("make", "a hojicha tracker for my mornings", "--offline", "--yes", timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    said = " ".join((result.stdout + result.stderr).split())  # rich wraps long lines
    assert f"your app {loved['app']} from habit-tracker served you well" in said
    registry = json.loads((macaron_home / "apps.json").read_text())
    newest = max(registry.values(), key=lambda e: e["created_at"])
    assert newest["from"] == loved["app"]

    # `why` tells the whole chain, for the memory and for the app.
    why_memory = macaron("why", ids[MATCHA]).stdout
    assert f"app:{loved['app']}" in why_memory and "brief:" in why_memory
    why_app = macaron("why", loved["app"]).stdout
    assert ids[MATCHA] in why_app and "habit-tracker" in why_app

    # The audit: no private memory ever went to a cloud endpoint.
    assert ledger.private_sent_to_cloud() == []

    # Sharing: code and lineage only — no data, no brief, no private memory.
    app_dir = Path(loved["path"])
    (app_dir / "data").mkdir(exist_ok=True)
    (app_dir / "data" / "app.db").write_bytes(b"ROW 350ml matcha at 07:30")
    share = macaron("share", loved["app"], cwd=tmp_path)
    assert share.returncode == 0, share.stderr
    bundle = next(tmp_path.glob("*.macaron.tar.gz"))
    with tarfile.open(bundle) as tar:
        names = tar.getnames()
        raw = b"".join(tar.extractfile(m).read() for m in tar.getmembers() if m.isfile())
    assert not any(".macaron/" in n or n.endswith("app.db") for n in names)
    for secret in (b"350ml matcha", PRIVATE.encode(), MATCHA.encode()):
        assert secret not in raw

    # ...and the other person turns the bundle into their own app.
    made = macaron("make", "my own matcha log", "--from", str(bundle), "--offline", "--yes", "--json", timeout=300)
    assert made.returncode == 0, made.stderr[-2000:]
    assert json.loads(made.stdout)["template"] == "habit-tracker"
