"""One set of walls for every process that runs app code (sandbox/walls.py): verification's
tests, digests and `macaron run` see no more than the coder does, a memory store kept
elsewhere and an app registered elsewhere included (placed outside /tmp, so the sandbox's
private /tmp cannot hide them by location); `run` serves with no network of its own; and
where no sandbox can run, code the person did not write runs only when they accept it."""

from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from macaron_cli.sandbox import BACKENDS, SandboxUnavailable
from macaron_cli.sandbox.bubblewrap import BubblewrapSandbox
from tests.support import scripted_make as script
from tests.support.fixture_apps import copy_app
from tests.support.model_server import Reply
from tests.support.outside_tmp import outside_tmp
from tests.test_coder_containment import NET_MARK, _Listener, _path_without

STORE_MARK = "STOREMARK-5K2VQ7"  # a private memory, in a store kept outside macaron's home
OTHER_MARK = "OTHERAPPMARK-8D3WN4"  # another app's data, registered outside the apps folder
MARKS = (STORE_MARK, OTHER_MARK)


def _has_bwrap() -> bool:
    try:
        BACKENDS["bubblewrap"].check_available()
    except SandboxUnavailable:
        return False
    return True


needs_bwrap = pytest.mark.skipif(not _has_bwrap(), reason="bubblewrap unavailable")


@pytest.fixture
def away():
    """A folder outside /tmp for the store and the other app."""
    with outside_tmp() as folder:
        yield folder


def _peek(*roots: Path) -> str:
    """Python that reads every file under `roots` and names the marks it found ("nothing")."""
    return (
        "import pathlib, re\n"
        "def peek():\n"
        "    found = set()\n"
        f"    for root in {[str(r) for r in roots]!r}:\n"
        "        for p in pathlib.Path(root).rglob('*'):\n"
        "            try:\n"
        "                found.update(re.findall(rb'[A-Z]+MARK-[0-9A-Z]{6}', p.read_bytes()))\n"
        "            except OSError:\n"
        "                pass\n"
        "    return b' '.join(sorted(found)).decode() or 'nothing'\n"
    )


def _place_elsewhere(macaron, away: Path) -> tuple[Path, Path]:
    """A private memory in a store under `away` (MACARON_MEMORY_URI must point there) and a
    diary made and registered under `away`, its data holding OTHER_MARK."""
    store = away / "store"
    added = macaron("memory", "add", f"My diagnosis code is {STORE_MARK}", "--privacy", "private")
    assert added.returncode == 0, added.stderr
    assert any(STORE_MARK.encode() in f.read_bytes() for f in store.rglob("*") if f.is_file())
    made = macaron("make", "a mood diary", "--offline", "--yes", "--json", env={"MACARON_APPS_DIR": str(away / "apps")})
    assert made.returncode == 0, made.stdout + made.stderr
    other = Path(json.loads(made.stdout)["path"])
    (other / "data").mkdir(exist_ok=True)
    (other / "data" / "rows.json").write_text(json.dumps([{"mood": OTHER_MARK}]))
    return store, other


@needs_bwrap
@pytest.mark.parametrize("where", ["environment", "config.toml"])
def test_bubblewrap_hides_a_store_kept_elsewhere_and_an_app_registered_elsewhere(
    where, tmp_path, macaron_home, monkeypatch, away
):
    store, other = away / "store", away / "elsewhere" / "diary"
    for folder, mark in ((store, STORE_MARK), (other, OTHER_MARK)):
        folder.mkdir(parents=True)
        (folder / "rows.json").write_text(mark)
    macaron_home.mkdir(parents=True)
    if where == "environment":
        monkeypatch.setenv("MACARON_MEMORY_URI", str(store))
    else:
        (macaron_home / "config.toml").write_text(f'[memory]\nuri = "{store}"\n')
    (macaron_home / "apps.json").write_text(json.dumps({"diary": {"path": str(other)}}))
    app = tmp_path / "apps" / "mine"
    app.mkdir(parents=True)
    peek = _peek(store, other) + "print(peek())"
    result = BubblewrapSandbox().run([sys.executable, "-c", peek], app, timeout=30)
    assert result.ok, result.stderr
    assert result.stdout == "nothing\n"


@needs_bwrap
@pytest.mark.slow
def test_an_apps_tests_and_digest_see_no_store_nor_app_kept_elsewhere(macaron, monkeypatch, away):
    monkeypatch.setenv("MACARON_MEMORY_URI", str(away / "store"))
    store, other = _place_elsewhere(macaron, away)
    peeking_test = _peek(store, other) + "\ndef test_made_for_you():\n    assert False, 'peeked: ' + peek()\n"

    def responder(req) -> Reply:
        if not req.body.get("tools"):
            return Reply.text("ok")
        if script.FIX_PROMPT_MARK in req.raw:
            passing = Reply.tool("Write", {"file_path": script.TEST_FILE, "content": script.PASSING_TEST})
            fix = [passing, Reply.text("Fixed.")]
            return fix[min(script._turns_since(req, script.FIX_PROMPT_MARK), 1)]
        steps = [Reply.tool("Write", {"file_path": script.TEST_FILE, "content": peeking_test}), Reply.text("Built.")]
        return steps[min(req.assistant_turns(), 1)]

    run, requests = script.cloud_make_answered(macaron, responder, "a water tracker")
    assert run.returncode == 0, run.stdout + run.stderr
    app = Path(json.loads(run.stdout)["path"])
    everything = "\n".join(r.raw for r in requests)
    for mark in MARKS:
        assert mark not in everything, f"{mark} reached the model"
    # The app's test ran and failed, and its message reached the fix prompt: without a mark.
    fix_prompts = [r.raw for r in requests if script.FIX_PROMPT_MARK in r.raw]
    assert fix_prompts and "peeked: nothing" in fix_prompts[0]

    # The app's digest, rewritten as its coder could, peeks the same way: it sees nothing.
    (app / "server" / "macaron_life.py").write_text(_peek(store, other) + "raise SystemExit('peeked: ' + peek())\n")
    digest = macaron("apps", "digest", str(app))
    assert digest.returncode != 0 and "peeked: nothing" in digest.stderr, digest.stdout + digest.stderr
    for mark in MARKS:
        assert mark not in digest.stdout + digest.stderr


def _reach_route(url: str) -> str:
    """A route app code could add: it fetches `url` from the server's side and says what came."""
    return (
        "\n\n@app.get('/api/reach')\n"
        "def reach():\n"
        "    import urllib.request\n"
        "    try:\n"
        f"        return {{'got': urllib.request.urlopen({url!r}, timeout=5).read().decode()}}\n"
        "    except Exception as exc:\n"
        "        return {'error': str(exc)}\n"
    )


def _get(url: str, data: dict | None = None) -> tuple[int, bytes]:
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


@needs_bwrap
@pytest.mark.slow
def test_run_serves_the_page_but_app_code_cannot_reach_this_machine(tmp_path, macaron_home):
    from tests.test_run_command import _start, _url_from

    app = copy_app("good", tmp_path / "app", git=True)
    listener = _Listener("127.0.0.1")
    with (app / "server" / "main.py").open("a") as f:
        f.write(_reach_route(listener.url))
    proc = _start(app)
    try:
        url = _url_from(proc)
        status, page = _get(url)
        assert status == 200 and b'id="app"' in page
        assert _get(url + "static/app.js")[0] == 200
        # Recorded and read back through 127.0.0.1:PORT.
        assert _get(url + "api/notes", {"text": "water the plants"})[0] == 200
        assert b"water the plants" in _get(url + "api/notes")[1]
        # The app's own request to a listener on this machine goes nowhere.
        reached = json.loads(_get(url + "api/reach")[1])
        assert "error" in reached and NET_MARK not in json.dumps(reached)
        assert listener.hits == []
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        listener.close()
    assert proc.returncode == 0, out + err
    assert (app / "data" / "notes.json").read_text() == '["water the plants"]'


def _refused(run: subprocess.CompletedProcess) -> None:
    assert run.returncode == 2, run.stdout + run.stderr
    line = run.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert "no sandbox can run here" in line and "--accept-unsandboxed" in line


@pytest.mark.slow
def test_without_bubblewrap_a_strangers_code_is_refused_but_macarons_own_runs(macaron, tmp_path):
    made = macaron("make", "a mood diary", "--offline", "--yes", "--json", timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    own = json.loads(made.stdout)["path"]
    assert macaron("share", own, cwd=tmp_path).returncode == 0
    bundle = next(tmp_path.glob("*.macaron.tar.gz"))
    no_bwrap = {"PATH": _path_without(tmp_path, "bwrap")}
    apps_dir = Path(os.environ["MACARON_APPS_DIR"])
    before = sorted(p.name for p in apps_dir.iterdir())

    # A bundle's tests would run unconfined: refused, nothing written.
    run = macaron("make", "my diary", "--from", str(bundle), "--offline", "--yes", env=no_bwrap, timeout=300)
    _refused(run)
    assert "the shared bundle's code" in run.stderr
    assert sorted(p.name for p in apps_dir.iterdir()) == before
    assert [a["app"] for a in json.loads(macaron("apps", "--json").stdout)] == [Path(own).name]

    # Made from the bundle where bubblewrap runs, its code still is not macaron's own.
    from_bundle = macaron("make", "my diary", "--from", str(bundle), "--offline", "--yes", "--json", timeout=300)
    assert from_bundle.returncode == 0, from_bundle.stdout + from_bundle.stderr
    theirs = json.loads(from_bundle.stdout)["path"]
    _refused(macaron("apps", "digest", theirs, env=no_bwrap))
    _refused(macaron("run", theirs, env=no_bwrap))
    accepted = macaron("apps", "digest", theirs, "--json", "--accept-unsandboxed", env=no_bwrap)
    assert accepted.returncode == 0, accepted.stderr
    # An app made from macaron's own template, with no model, still runs.
    assert macaron("apps", "digest", own, "--json", env=no_bwrap).returncode == 0


PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"


def _network_grants(package: Path) -> list[str]:
    """Each call in `package` that starts code with this machine's network (`network=True`),
    as file:line, but the one in Sandbox.serve (the backend without walls)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and any(
                k.arg == "network" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in node.keywords
            ):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    return [f for f in found if not f.startswith("sandbox/base.py:")]


def test_no_app_code_is_given_the_network_but_where_no_sandbox_has_walls(tmp_path):
    assert _network_grants(PACKAGE) == []
    # The check finds one planted.
    (tmp_path / "serve.py").write_text("sandbox.spawn(cmd, app, network=True)\n")
    assert _network_grants(tmp_path) == ["serve.py:1"]
