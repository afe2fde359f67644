"""Drafting with a local model: the draft phase on its own (prompt, whole files parsed,
applied inside the app only), then `macaron make --draft / --local-only / --variants` end
to end (marked slow): the real CLI, Agent SDK, git, sandbox and browser; the local draft
model and Claude are scripted servers, the draft one in each wire format."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from macaron_cli import privacy
from macaron_cli.config import Settings
from macaron_cli.maker.brief import Brief
from macaron_cli.maker.draft import DraftFile, apply_files, draft, parse_files
from macaron_cli.models.client import Endpoint
from tests.support.model_server import ModelServer, Reply


# ── the draft phase on its own ──────────────────────────────────────────────────────────
def _brief(idea: str, url: str) -> Brief:
    """A brief with no memories, cleared for the draft model at `url`."""
    return Brief(
        idea=idea,
        language="en",
        accent="#B5EAD7",
        app_settings={"units": "metric", "currency": "EUR"},
        memories=privacy.nothing(privacy.draft(url, Settings())),
    )


INDEX = '<!doctype html>\n<html><body><main id="app"><h1>Water</h1></main></body></html>\n'


@pytest.fixture
def app(tmp_path):
    """A tiny app repo shaped like a template: manifest, UI, server, data."""
    root = tmp_path / "water"
    (root / "static").mkdir(parents=True)
    (root / "server").mkdir()
    (root / "data").mkdir()
    (root / ".macaron").mkdir()
    (root / "macaron.json").write_text(json.dumps({"name": "water", "data_files": ["data/app.db"]}))
    (root / "static" / "index.html").write_text("<main id=app>starter</main>\n")
    (root / "server" / "main.py").write_text("print('starter server')\n")
    (root / "data" / "app.db").write_text("the person's data")
    (root / ".gitignore").write_text(".macaron/\ndata/\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    return root


SCRIPTED = f"""Sure! Here is the water tracker.

### FILE: static/index.html
```html
{INDEX.rstrip()}
```

**server/main.py**
```python
print('water server')
```

### FILE: ../outside.txt
```
escape
```

### FILE: macaron.json
```json
{{"run": ["rm", "-rf", "/"]}}
```

```text data/app.db
overwritten
```

### FILE: static/app.js
```js
const half = "this file is cut off
"""


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_a_draft_writes_whole_files_inside_the_app_only(app, api):
    with ModelServer([Reply.text(SCRIPTED, input_tokens=900, output_tokens=300)]) as server:
        outcome = draft(
            app,
            _brief("The person wants a water tracker; goal 2 litres.", server.url),
            Endpoint(server.url, "deepseek", api),
            Settings(),
        )
    assert (app / "static" / "index.html").read_text() == INDEX
    assert (app / "server" / "main.py").read_text() == "print('water server')\n"
    assert outcome.written == ["static/index.html", "server/main.py"]
    assert not (app.parent / "outside.txt").exists()
    assert json.loads((app / "macaron.json").read_text())["name"] == "water"
    assert (app / "data" / "app.db").read_text() == "the person's data"
    assert not (app / "static" / "app.js").exists(), "a file cut short is never written"
    assert sorted(r.split(":")[0] for r in outcome.rejected) == ["../outside.txt", "data/app.db", "macaron.json"]
    # Usage and cost: tokens from the server; a model on this machine costs its GPU time only.
    assert (outcome.usage.input_tokens, outcome.usage.output_tokens) == (900, 300)
    assert outcome.cost_usd == 0.0 and outcome.model == "deepseek"
    # The model saw the brief and the app's code, never the person's data file.
    [request] = server.requests
    assert request.api == api
    prompt = request.last_user_text()
    assert "goal 2 litres" in prompt and "starter server" in prompt and "the person's data" not in prompt
    assert "### FILE:" in (request.system if api == "anthropic" else request.messages[0]["content"])


def test_a_fix_round_carries_the_verification_report(app):
    with ModelServer([Reply.text("### FILE: static/index.html\n```html\n" + INDEX + "```\n")]) as server:
        outcome = draft(
            app,
            _brief("water tracker", server.url),
            Endpoint(server.url, "m", "openai"),
            Settings(),
            feedback="tests failed: test_home expects <main id=app>",
        )
    assert outcome.written == ["static/index.html"]
    assert "test_home expects" in server.requests[0].last_user_text()


def test_an_answer_without_files_changes_nothing_and_says_so(app):
    with ModelServer([Reply.text("I cannot help with that.")]) as server:
        outcome = draft(app, _brief("water tracker", server.url), Endpoint(server.url, "m", "anthropic"), Settings())
    assert outcome.written == [] and "no whole files" in outcome.rejected[0]
    assert (app / "static" / "index.html").read_text() == "<main id=app>starter</main>\n"


def test_parse_accepts_the_header_styles_weak_models_write():
    text = (
        "<think>maybe ```js\nnot this```</think>\n"
        "`static/style.css`:\n```css\nbody{}\n```\n"
        "```js static/app.js\nlet a = 1;\n```\n"
        "File: server/main.py\n\n```python\nx = 1\n```\n"
        "```python\nno name: ignored\n```\n"
        "### FILE: static/style.css\n````css\n/* ```not a fence end``` */\nbody{color:red}\n````\n"
    )
    files = {f.path: f.content for f in parse_files(text)}
    assert files == {
        "static/style.css": "/* ```not a fence end``` */\nbody{color:red}\n",  # the later copy wins
        "static/app.js": "let a = 1;\n",
        "server/main.py": "x = 1\n",
    }


def test_apply_refuses_a_symlink_that_leads_out_of_the_app(app, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (app / "static" / "link").symlink_to(outside)
    written, rejected = apply_files(app, [DraftFile("static/link/x.js", "bad")])
    assert written == [] and rejected == ["static/link/x.js: outside the app"]
    assert not (outside / "x.js").exists()


# ── make --draft end to end ─────────────────────────────────────────────────────────────
NOTE = "static/draft-note.txt"
TEST_FILE = "tests/test_drafted.py"
BROKEN = "BROKEN_IN_THE_DRAFT"
FAILING = f"def test_drafted():\n    assert 1 + 1 == 3, '{BROKEN}'\n"
PASSING = "def test_drafted():\n    assert 1 + 1 == 2\n"


def files_answer(note: str, test: str) -> str:
    """What a local model answers: whole files in fenced blocks with a path header."""
    return (
        f"Here is the draft.\n\n### FILE: {NOTE}\n```text\n{note}\n```\n\n### FILE: {TEST_FILE}\n```python\n{test}```\n"
    )


def local_model(req) -> Reply:
    """Drafts with a failing test; fixes it when the verification report comes back."""
    if "# What verification found" in req.last_user_text():
        return Reply.text(files_answer("Drafted locally, then fixed.", PASSING), input_tokens=3000, output_tokens=200)
    return Reply.text(files_answer("Drafted locally.", FAILING), input_tokens=4000, output_tokens=500)


def claude(req) -> Reply:
    """The refine session: rewrite the failing test, then say it is done."""
    if req.assistant_turns() == 0:
        return Reply.tool("Write", {"file_path": TEST_FILE, "content": PASSING})
    return Reply.text("Refined the draft.")


def _git(app: Path, *args) -> str:
    return subprocess.run(["git", "-C", str(app), *args], capture_output=True, text=True).stdout


@pytest.mark.slow
def test_draft_then_refine(macaron):
    api = "anthropic"  # the openai wire: test_local_only_sends_nothing_to_the_cloud
    with ModelServer(local_model, model="deepseek-coder") as local, ModelServer(claude) as cloud:
        env = {
            "MACARON_DRAFT_URL": local.url,
            "MACARON_DRAFT_API": api,
            "ANTHROPIC_BASE_URL": cloud.url,
            "ANTHROPIC_API_KEY": "test-key",
        }
        run = macaron("make", "a water tracker", "--draft", "--yes", "--json", env=env, timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
        out = json.loads(run.stdout)
        drafts, refines = list(local.requests), list(cloud.requests)
    app = Path(out["path"])
    # The draft's files were applied and kept; Claude's refine fixed the failing test.
    assert (app / NOTE).read_text() == "Drafted locally.\n"
    assert (app / TEST_FILE).read_text() == PASSING
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "draft", "refine"]
    assert [c["tests"] for c in out["checkpoints"]][1:] == ["failed", "passed"]
    assert out["tests"] == "passed" and out["opened"] is True and out["mode"] == "draft"
    # One draft request in the chosen wire; the verification report reached Claude.
    assert [r.api for r in drafts] == [api]
    assert "water tracker" in drafts[0].last_user_text()
    assert any(BROKEN in r.raw for r in refines), "the draft's verification report never reached Claude"
    # Costs per phase: the local draft from our table (GPU time, 0 by default), the refine
    # at Claude prices; the totals add up.
    draft, refine = out["phases"]
    assert (draft["phase"], draft["where"], draft["model"]) == ("draft", "local", "deepseek-coder")
    assert (draft["input_tokens"], draft["output_tokens"], draft["cost_usd"]) == (4000, 500, 0.0)
    assert (refine["phase"], refine["where"]) == ("refine", "cloud") and refine["cost_usd"] > 0
    assert out["cost_usd"] == pytest.approx(refine["cost_usd"], abs=1e-6)
    assert out["checkpoints"][1]["cost_usd"] == 0.0 and out["checkpoints"][2]["cost_usd"] > 0
    assert _git(app, "status", "--porcelain").strip() == ""


@pytest.mark.slow
def test_local_only_sends_nothing_to_the_cloud(macaron):
    macaron("memory", "add", "My kidney condition limits how much water I drink", "--privacy", "private")
    with ModelServer(local_model, model="deepseek-r1") as local, ModelServer(claude) as cloud:
        env = {
            "MACARON_DRAFT_URL": local.url,
            "MACARON_DRAFT_API": "openai",
            "ANTHROPIC_BASE_URL": cloud.url,
            "ANTHROPIC_API_KEY": "test-key",
        }
        run = macaron("make", "a water tracker", "--local-only", "--yes", env=env, timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
        assert cloud.requests == [], "--local-only must not send a single request to the cloud"
        drafts = list(local.requests)
    # Draft, then one local fix round with the verification report.
    assert len(drafts) == 2 and BROKEN in drafts[1].last_user_text()
    # The model is on this machine, so the private memory may shape the app.
    assert "kidney" in drafts[0].last_user_text()
    apps = json.loads(macaron("apps", "--json").stdout)
    app = Path(apps[0]["path"])
    checkpoints = json.loads(macaron("checkpoints", apps[0]["app"], "--json").stdout)
    assert [c["phase"] for c in checkpoints] == ["scaffold", "draft", "fix-1"]
    assert (app / NOTE).read_text() == "Drafted locally, then fixed.\n" and apps[0]["tests"] == "passed"
    # The summary names each phase with its tokens, time and cost.
    assert "draft" in run.stdout and "local deepseek-r1" in run.stdout and "fix-1" in run.stdout
    assert "$0.0000" in run.stdout


def designs(req) -> Reply:
    """A local model that drafts whichever design the variant's brief asks for."""
    text = req.last_user_text()
    name = "bold" if "bold cards" in text else "minimal" if "clean and minimal" in text else "other"
    return Reply.text(files_answer(f"design {name}", PASSING))


@pytest.mark.slow
def test_variants_verified_screenshotted_picked_and_remembered(macaron):
    with ModelServer(designs) as local:
        env = {"MACARON_DRAFT_URL": local.url}
        run = macaron(
            "make",
            "a water tracker",
            "--local-only",
            "--variants",
            "2",
            "--pick",
            "2",
            "--yes",
            "--json",
            env=env,
            timeout=600,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert len(local.requests) == 2
    out = json.loads(run.stdout)
    app = Path(out["path"])
    assert (app / NOTE).read_text() == "design bold\n"  # design 2: bold cards
    for n in (1, 2):
        assert (app / ".macaron" / "variants" / str(n) / ".macaron" / "screenshot.png").exists()
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "draft"]
    prefs = [m for m in json.loads(macaron("memory", "list", "--json").stdout) if m["kind"] == "preference"]
    assert len(prefs) == 1 and "bold cards" in prefs[0]["text"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, message",
    [
        (["--draft"], "no draft model is set up"),
        (["--variants", "3"], "--variants needs a local draft model"),
        (["--local-only", "--variants", "2", "--pick", "5"], "--pick must be between 1 and 2"),
        (["--local-only", "--offline"], "--offline uses no model"),
    ],
)
def test_bad_draft_options_are_refused_before_anything_is_written(macaron, macaron_home, args, message):
    run = macaron("make", "a water tracker", *args, "--yes", env={"ANTHROPIC_API_KEY": "k"})
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert json.loads(macaron("apps", "--json").stdout) == []


@pytest.mark.slow
def test_no_draft_server_is_one_line_and_nothing_written(macaron):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    run = macaron("make", "a water tracker", "--local-only", "--yes", env={"MACARON_DRAFT_URL": url})
    assert run.returncode == 2 and f"no draft server at {url}" in run.stderr
    assert json.loads(macaron("apps", "--json").stdout) == []


@pytest.mark.slow
def test_draft_interrupted_at_refine_resumes_with_claude_alone(macaron):
    with ModelServer(local_model, model="deepseek-coder") as local, ModelServer(lambda req: Reply.error(529)) as cloud:
        env = {"MACARON_DRAFT_URL": local.url, "ANTHROPIC_BASE_URL": cloud.url, "ANTHROPIC_API_KEY": "test-key"}
        run = macaron("make", "a water tracker", "--draft", "--yes", env=env, timeout=600)
        drafts = len(local.requests)
    assert run.returncode == 1 and "--resume" in run.stdout + run.stderr and "Traceback" not in run.stderr
    apps = json.loads(macaron("apps", "--json").stdout)
    app = Path(apps[0]["path"])
    assert [c["phase"] for c in json.loads(macaron("checkpoints", app, "--json").stdout)] == ["scaffold", "draft"]
    assert drafts == 1 and _git(app, "status", "--porcelain").strip() == ""

    # The draft is kept: resuming needs Claude only, not the local model that drafted it.
    with ModelServer(claude) as cloud:
        again = macaron(
            "make",
            "--resume",
            apps[0]["app"],
            "--yes",
            "--json",
            timeout=600,
            env={"ANTHROPIC_BASE_URL": cloud.url, "ANTHROPIC_API_KEY": "test-key"},
        )
        assert again.returncode == 0, again.stdout + again.stderr
        assert any(BROKEN in r.raw for r in cloud.requests), "the draft's verification report never reached Claude"
    out = json.loads(again.stdout)
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "draft", "refine"]
    assert (app / NOTE).read_text() == "Drafted locally.\n" and (app / TEST_FILE).read_text() == PASSING
    assert out["tests"] == "passed" and out["mode"] == "draft"
    assert [p["phase"] for p in out["phases"]] == ["draft", "refine"]


@pytest.mark.slow
def test_variants_are_offered_to_pick_in_a_terminal(macaron):
    import os

    import pexpect

    from tests.conftest import REPO, macaron_command

    command = macaron_command()
    env = dict(os.environ)
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":  # as the `macaron` fixture does
        env["PYTHONPATH"] = str(REPO)
    with ModelServer(designs) as local:
        env["MACARON_DRAFT_URL"] = local.url
        child = pexpect.spawn(
            command[0],
            [*command[1:], "make", "a water tracker", "--local-only", "--variants", "2"],
            env=env,
            encoding="utf-8",
            timeout=600,
            dimensions=(50, 160),
        )
        child.expect("Which one shall macaron keep")
        assert "1. " in child.before and "2. " in child.before and "bold cards" in child.before  # both listed
        child.sendline("2")
        child.expect("Did it fit you")
        child.sendline("y")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0
    apps = json.loads(macaron("apps", "--json").stdout)
    assert (Path(apps[0]["path"]) / NOTE).read_text() == "design bold\n"
