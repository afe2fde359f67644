"""The app's macaron.json is the coder's to write, so it decides neither where the person's
data is nor how private its records are (untrusted/pinned.py, untrusted/data_paths.py).

The last test's coder rewrites macaron.json itself, a scripted model through the real
Agent SDK CLI and its sandbox; the others make a real app offline and then write into it
what that coder could (its macaron.json, a link), and use the real CLI, git and LanceDB.
Homes and stores lie under /var/tmp: outside /tmp, so no sandbox that happens to hide /tmp
can make a test pass."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest

from macaron_cli.memory import MemoryStore
from tests.friend_support import meet_friend_already, responder
from tests.support import scripted_make as script
from tests.support.model_server import ModelServer, Reply
from tests.test_one_life import ask, post, serve

pytestmark = pytest.mark.slow  # real makes, served apps, chats in a terminal

SECRET = "the spare key hides under the blue flowerpot by the shed"
OTHER_APP_ROW = "other app diary row: saw dr kim about the rash"
LINKED = "a note in the person's own folder, not the app's"


@pytest.fixture
def far_home(macaron_home, monkeypatch):
    """MACARON_HOME and the apps folder under /var/tmp (the memory store is in the home)."""
    root = Path(tempfile.mkdtemp(prefix="macaron-untrusted-", dir="/var/tmp"))
    monkeypatch.setenv("MACARON_HOME", str(root / "home"))
    monkeypatch.setenv("MACARON_APPS_DIR", str(root / "apps"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


def made(macaron, idea: str) -> tuple[str, Path]:
    result = macaron("make", "--offline", idea, "--yes", "--json", timeout=300)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    return answer["app"], Path(answer["path"])


def rewrite_manifest(app: Path, **keys) -> None:
    """What the coder's Write tool can do to macaron.json."""
    manifest = json.loads((app / "macaron.json").read_text(encoding="utf-8"))
    (app / "macaron.json").write_text(json.dumps({**manifest, **keys}), encoding="utf-8")


def database_with(path: Path, *texts: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS notes (text TEXT)")
        conn.execute("DELETE FROM notes")
        conn.executemany("INSERT INTO notes VALUES (?)", [(t,) for t in texts])
    with sqlite3.connect(path) as conn:
        conn.execute("VACUUM")  # a deleted row's bytes leave the file


def holding(root: Path, *texts: str) -> list[str]:
    """Every file under `root` (links not followed) whose bytes hold one of `texts`."""
    found = []
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if path.is_symlink():
                continue
            content = path.read_bytes()
            found += [f"{path}: {t}" for t in texts if t.encode() in content]
    return found


def git_blobs(app: Path) -> bytes:
    objects = subprocess.run(
        ["git", "-C", str(app), "cat-file", "--batch-all-objects", "--batch"], capture_output=True, check=True
    )
    return objects.stdout


def latest_checkpoint(macaron, slug: str) -> int:
    return max(c["id"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout))


def memory_texts() -> str:
    return " ".join(m.text for m in MemoryStore.open().list(limit=None))


def test_data_files_the_coder_writes_reach_neither_the_store_nor_another_app_nor_a_link(macaron, far_home):
    slug, app = made(macaron, "track how much water I drink")
    _, other = made(macaron, "a mood diary")
    database_with(other / "data" / "app.db", OTHER_APP_ROW)
    assert macaron("memory", "add", SECRET, "--privacy", "secret").returncode == 0
    elsewhere = far_home / "person" / "notes"
    database_with(elsewhere / "app.db", LINKED)
    elsewhere.joinpath("app.db").chmod(0o644)
    store = far_home / "home" / "memory"
    assert store.is_dir()

    # The coder points data_files at the store and at the other app, and makes data/ a link.
    rewrite_manifest(app, data_files=[os.path.relpath(store, app), os.path.relpath(other / "data", app), "data/app.db"])
    shutil.rmtree(app / "data", ignore_errors=True)
    (app / "data").symlink_to(elsewhere)
    saved = macaron("checkpoint", slug, "-m", "the coder's data files")
    assert saved.returncode == 0, saved.stderr

    assert not holding(app / ".macaron", SECRET, OTHER_APP_ROW, LINKED), "no snapshot copies them"
    blobs = git_blobs(app)
    assert all(t.encode() not in blobs for t in (SECRET, OTHER_APP_ROW, LINKED)), "no commit holds them"

    # Rolling the app's data back touches neither the store nor the other app nor the link.
    back_to = latest_checkpoint(macaron, slug)
    assert macaron("memory", "add", "I started running on Mondays").returncode == 0
    database_with(other / "data" / "app.db", OTHER_APP_ROW, "a later row")
    database_with(elsewhere / "app.db", LINKED, "a later note")
    (app / "static" / "later.txt").write_text("a later change\n", encoding="utf-8")
    assert macaron("checkpoint", slug, "-m", "later").returncode == 0
    rolled = macaron("rollback", slug, "--to", str(back_to), "--with-data", "--yes")
    assert rolled.returncode == 0, rolled.stderr
    assert "running on Mondays" in memory_texts(), "a memory added after the checkpoint survives"
    assert holding(other / "data", "a later row") and holding(elsewhere, "a later note")
    undone = macaron("rollback", slug, "--undo", "--yes")
    assert undone.returncode == 0, undone.stderr
    assert "running on Mondays" in memory_texts() and SECRET in memory_texts()

    # Serving the app makes its own data private, never what a link in it points at.
    served, _ = serve(slug)
    served.terminate()
    served.wait(timeout=30)
    assert (elsewhere / "app.db").stat().st_mode & 0o777 == 0o644, "no chmod through the link"


def test_a_forgotten_memory_never_returns_through_a_rollback(macaron, far_home):
    slug, app = made(macaron, "track how much water I drink")
    allergy = "I am allergic to penicillin since 2019"
    added = macaron("memory", "add", allergy, "--json")
    memory_id = json.loads(added.stdout)["id"]
    # The coder aims data_files at the store; the person also wrote it into the app.
    rewrite_manifest(app, data_files=[os.path.relpath(far_home / "home" / "memory", app), "data/app.db"])
    database_with(app / "data" / "app.db", allergy, "walked 3 km")
    assert macaron("checkpoint", slug, "-m", "with the allergy").returncode == 0
    holds_it = latest_checkpoint(macaron, slug)
    database_with(app / "data" / "app.db", "walked 3 km")  # the person deletes it in the app
    (app / "static" / "later.txt").write_text("a later change\n", encoding="utf-8")
    assert macaron("checkpoint", slug, "-m", "later").returncode == 0

    forgot = macaron("memory", "forget", memory_id)
    assert forgot.returncode == 0, forgot.stderr
    rolled = macaron("rollback", slug, "--to", str(holds_it), "--with-data", "--yes")
    assert rolled.returncode == 0, rolled.stderr
    assert "penicillin" not in memory_texts()
    assert not holding(app / "data", "penicillin") and not holding(app / ".macaron", "penicillin")
    assert holding(app / "data", "walked 3 km"), "the data it did not hold is as it was"
    undone = macaron("rollback", slug, "--undo", "--yes")
    assert undone.returncode == 0 and "penicillin" not in memory_texts()
    assert not holding(app / "data", "penicillin")


def test_a_diary_relabelled_a_hobby_by_its_coder_stays_private_from_the_cloud(macaron, far_home):
    slug, app = made(macaron, "a mood diary")
    proc, url = serve(slug)
    try:
        post(url, "/api/entries", {"mood": 2, "text": "cried after the biopsy call"})
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    manifest = json.loads((app / "macaron.json").read_text(encoding="utf-8"))
    rewrite_manifest(app, records={**manifest["records"], "domain": "hobby"})

    digest = json.loads(macaron("apps", "digest", slug, "--json").stdout)
    assert digest["privacy"] == "private"
    assert MemoryStore.open().get(digest["memory"]).domain == "health"
    meet_friend_already()
    with ModelServer(responder("I hope the week gets lighter.")) as cloud:
        ask(cloud, "claude", "How was my mood this week in my diary?")
    assert "biopsy" not in cloud.all_bytes(), "the diary's entries never reach the cloud model"


def _coder(build: list[Reply], fix: list[Reply]):
    """A scripted coder (through the real SDK CLI): `build` in the build session, `fix` once
    verification sends its report back (tests/support/scripted_make.py's marks)."""

    def responder(req) -> Reply:
        if not req.body.get("tools"):
            return Reply.text("ok")
        if script.FIX_PROMPT_MARK in req.raw:
            return fix[min(script._turns_since(req, script.FIX_PROMPT_MARK), len(fix) - 1)]
        return build[min(req.assistant_turns(), len(build) - 1)]

    return responder


def _session(command: str, test: str, done: str) -> list[Reply]:
    """One coder session: a Bash command, the app's test written, then its last word."""
    return [
        Reply.tool("Bash", {"command": command}),
        Reply.tool("Write", {"file_path": script.TEST_FILE, "content": test}),
        Reply.text(done),
    ]


def test_the_coder_rewriting_macaron_json_reaches_no_store_no_other_app_and_no_cloud(macaron, far_home):
    _, other = made(macaron, "a mood diary")
    database_with(other / "data" / "app.db", OTHER_APP_ROW)
    assert macaron("memory", "add", SECRET, "--privacy", "private").returncode == 0
    store = far_home / "home" / "memory"
    # In the build session the coder widens its data files and relabels its records (the
    # paths written backwards: a hook refuses a command that names the store).
    rewrite = (
        "import json, os\n"
        "m = json.load(open('macaron.json'))\n"
        f"m['data_files'] += [os.path.relpath(p[::-1]) for p in {[str(store)[::-1], str(other / 'data')[::-1]]!r}]\n"
        "m['records']['domain'] = 'hobby'\n"
        "json.dump(m, open('macaron.json', 'w'))"
    )
    # After the build checkpoint, the fix session reads every snapshot it can find.
    strings = (
        "import os, re\n"
        "for root, _, names in os.walk('.macaron/snapshots'):\n"
        "    for n in names:\n"
        "        for run in re.findall(rb'[ -~]{24,}', open(os.path.join(root, n), 'rb').read()):\n"
        "            print(run.decode()[:200])"
    )
    build = _session(f"python3 -c {shlex.quote(rewrite)} && cat macaron.json", script.FAILING_TEST, "Built.")
    fix = _session(f"python3 -c {shlex.quote(strings)} | sort -u | head -c 20000", script.PASSING_TEST, "Fixed.")
    run, seen = script.cloud_make_answered(macaron, _coder(build, fix), "a water tracker")
    requests = "\n".join(r.raw for r in seen)
    said = [r.tool_results() for r in seen]
    assert run.returncode == 0, run.stdout + run.stderr
    answer = json.loads(run.stdout)
    slug, app = answer["app"], Path(answer["path"])
    assert "hobby" in (app / "macaron.json").read_text(), f"the coder did rewrite it: {said}"
    assert [c["phase"] for c in answer["checkpoints"]] == ["scaffold", "build", "fix-1"]

    assert SECRET not in requests and OTHER_APP_ROW not in requests, "no snapshot carried them to the model"
    assert not holding(app / ".macaron", SECRET, OTHER_APP_ROW)
    blobs = git_blobs(app)
    assert SECRET.encode() not in blobs and OTHER_APP_ROW.encode() not in blobs
    digest = json.loads(macaron("apps", "digest", slug, "--json").stdout)
    assert digest["privacy"] == "private", "a water tracker's records stay a health app's"
