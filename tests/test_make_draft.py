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
from macaron_cli.maker.local_model import AnswerFile, apply_files, ask_local_model
from macaron_cli.models.client import Endpoint
from macaron_cli.models.failures import ContextExceeded
from tests.support.model_server import ModelServer, Reply


# ── the draft phase on its own ──────────────────────────────────────────────────────────
def _brief(idea: str, url: str) -> Brief:
    """A brief with no memories, cleared for the draft model at `url`."""
    return Brief(
        idea=idea,
        language="en",
        accent="#B5EAD7",
        app_settings={"units": "metric", "currency": "EUR"},
        memories=privacy.nothing(privacy.local_model(url, Settings())),
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
        outcome = ask_local_model(
            app,
            _brief("The person wants a water tracker; goal 2 litres.", server.url),
            Endpoint(server.url, "deepseek", api),
            Settings(),
        )
    assert (app / "static" / "index.html").read_text() == INDEX
    assert outcome.written == ["static/index.html"]
    # A bold file name and a path in a fence's info string are talk, never files.
    assert (app / "server" / "main.py").read_text() == "print('starter server')\n"
    assert (app / "data" / "app.db").read_text() == "the person's data"
    assert not (app.parent / "outside.txt").exists()
    assert json.loads((app / "macaron.json").read_text())["name"] == "water"
    assert not (app / "static" / "app.js").exists(), "a file cut short is never written"
    assert sorted(s["path"] for s in outcome.skipped) == ["../outside.txt", "macaron.json", "static/app.js"]
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
        outcome = ask_local_model(
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
        outcome = ask_local_model(
            app, _brief("water tracker", server.url), Endpoint(server.url, "m", "anthropic"), Settings()
        )
    assert outcome.written == [] and outcome.problem().startswith("no whole files were found")
    assert (app / "static" / "index.html").read_text() == "<main id=app>starter</main>\n"


def test_apply_refuses_a_symlink_that_leads_out_of_the_app(app, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (app / "static" / "link").symlink_to(outside)
    written, skipped = apply_files(app, [AnswerFile("static/link/x.js", "bad")])
    assert written == [] and skipped == [{"path": "static/link/x.js", "why": "outside the app"}]
    assert not (outside / "x.js").exists()


# ── the local model as it really answers (what a small model on a CPU did) ─────────────────
def _draft(app, server, api="openai", **kw):
    return ask_local_model(app, _brief("water tracker", server.url), Endpoint(server.url, "m", api), Settings(), **kw)


def test_an_echo_of_the_prompt_with_no_file_writes_nothing_and_says_why(app):
    echo = "# The brief\nThe person wants a water tracker.\n\nAlso in the app: static/index.html, server/main.py\n"
    with ModelServer([Reply.text(echo)]) as server:
        outcome = _draft(app, server)
    assert outcome.written == [] and outcome.skipped == []
    assert outcome.problem() == "no whole files were found in the answer"


def test_an_echo_of_the_files_as_they_are_is_not_a_write(app):
    def echo(req):
        return Reply.text(req.last_user_text())  # the prompt back, files and all

    with ModelServer(echo) as server:
        outcome = _draft(app, server)
    assert outcome.written == []
    assert {s["why"] for s in outcome.skipped} == {"unchanged: printed as it already was"}
    assert outcome.problem().startswith("every file it printed was skipped")


def test_an_empty_answer_from_a_server_without_usage_is_nothing_written_and_estimated(app):
    with ModelServer([Reply.text("", usage=False)]) as server:
        outcome = _draft(app, server)
    assert outcome.written == [] and outcome.problem() == "the answer was empty"
    # The server read the prompt though it said nothing of it: an estimate, marked so.
    assert outcome.usage.estimated and outcome.usage.input_tokens > 100 and outcome.usage.output_tokens == 0


def test_usage_from_the_server_is_taken_as_it_is(app):
    with ModelServer([Reply.text("### FILE: static/app.js\n```js\nx\n```\n", input_tokens=6013)]) as server:
        outcome = _draft(app, server)
    assert (outcome.usage.input_tokens, outcome.usage.estimated) == (6013, False)


def test_a_bare_path_line_before_a_fence_writes_no_junk(app):
    answer = (
        "The app:\n.config/app/config.json\n```json\n# The brief\nThe person wants a water tracker.\n```\n"
        "```\n.config/app/config.json\n```\n"
    )
    with ModelServer([Reply.text(answer, usage=False)]) as server:
        outcome = _draft(app, server)
    assert outcome.written == [] and not (app / ".config").exists()
    assert "no whole files were found" in outcome.problem()


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_an_answer_cut_at_max_tokens_says_so_and_keeps_only_whole_files(app, api):
    cut = "### FILE: static/index.html\n```html\n" + INDEX + "```\n### FILE: static/app.js\n```js\nconst half ="
    with ModelServer([Reply.text(cut, stop_reason="max_tokens", output_tokens=512)]) as server:
        outcome = _draft(app, server, api, max_tokens=512)
    assert outcome.written == ["static/index.html"] and not (app / "static" / "app.js").exists()
    [note] = outcome.notes
    assert note.startswith("the answer was cut at 512 tokens") and "MACARON_DRAFT_MAX_TOKENS" in note


def test_an_answer_cut_by_a_full_context_names_the_context(app):
    props = {"default_generation_settings": {"n_ctx": 4096}}
    with ModelServer(
        [Reply.text("### FILE: a.js\n```js\nconst a", stop_reason="max_tokens", usage=False)], routes={"/props": props}
    ) as server:
        outcome = _draft(app, server)
    [request] = server.requests
    prompt = len(request.messages[0]["content"]) + len(request.last_user_text())
    assert prompt // 3 + request.body["max_tokens"] <= 4096, "the prompt and the answer fit the server's context"
    assert any("the answer was cut at about" in n and "4,096 tokens" in n for n in outcome.notes)


CONTEXT_ERROR = {
    "code": 400,
    "message": "the request exceeds the available context size, try increasing it",
    "type": "exceed_context_size_error",
    "n_prompt_tokens": 9000,
    "n_ctx": 8192,
}


@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_a_context_error_inside_the_stream_names_the_size_and_the_setting(app, api):
    props = {"default_generation_settings": {"n_ctx": 8192}}  # the server said it: no second try
    with (
        ModelServer([Reply.text("", stream_error=CONTEXT_ERROR)], routes={"/props": props}) as server,
        pytest.raises(ContextExceeded) as refused,
    ):
        _draft(app, server, api)
    message = str(refused.value)
    assert "8,192 tokens" in message and "try again" not in message
    assert "though macaron fitted it to that size; start the server with a larger context" in message
    assert len(server.requests) == 1


def test_a_context_smaller_than_assumed_is_learnt_from_the_refusal_and_the_draft_fitted(app):
    (app / "static" / "app.js").write_text("// the app\n" + "const x = 1;\n" * 1200)  # ~16 KB
    subprocess.run(["git", "-C", str(app), "add", "-A"], check=True)

    def llama_cpp_python(req):
        """A 4096-token server that says its size nowhere and refuses a longer prompt silently
        in a stream (it cuts max_tokens to fit by itself)."""
        prompt = (len(req.messages[0]["content"]) + len(req.last_user_text())) // 3
        if prompt >= 4096:
            return Reply.context_refusal(4096, prompt, req.body["max_tokens"])
        return Reply.text("### FILE: static/app.js\n```js\nconst y = 2;\n```\n", usage=False)

    with ModelServer(llama_cpp_python) as server:
        outcome = _draft(app, server)
    streamed = [r for r in server.requests if r.body.get("stream")]
    refitted = streamed[1]
    assert len(streamed) == 2
    assert (len(refitted.messages[0]["content"]) + len(refitted.last_user_text())) // 3 + refitted.body[
        "max_tokens"
    ] <= 4096
    assert outcome.written == ["static/app.js"]
    assert outcome.notes == [
        "the server's context is 4,096 tokens, not the 16,384 macaron assumed: the prompt was fitted "
        "again (set MACARON_DRAFT_CONTEXT=4096)"
    ]


def test_a_long_verification_report_is_cut_to_fit_the_context(app):
    report = "Verification failed:\n- test_home expects <main id=app>\n" + "    E   assert False\n" * 2000
    props = {"default_generation_settings": {"n_ctx": 4096}}
    with ModelServer([Reply.text("")], routes={"/props": props}) as server:
        _draft(app, server, feedback=report)
    [request] = server.requests
    prompt = request.last_user_text()
    assert "test_home expects <main id=app>" in prompt and "the rest is left out to fit the model's context" in prompt
    assert (len(request.messages[0]["content"]) + len(prompt)) // 3 + request.body["max_tokens"] <= 4096


def test_the_prompt_carries_the_code_to_change_not_configuration_within_the_context(app):
    app_js = "// the app's UI\n" + "render(habit);\n" * 300
    (app / "static" / "app.js").write_text(app_js)
    (app / "pytest.ini").write_text("[pytest]\naddopts = -q\n")
    (app / "requirements.txt").write_text("fastapi\n")
    subprocess.run(["git", "-C", str(app), "add", "-A"], check=True)
    card = {"max_model_len": 8192}  # as vLLM says it
    with ModelServer([Reply.text("")], model="m", model_card=card) as server:
        outcome = _draft(app, server)
    [request] = server.requests
    prompt = request.last_user_text()
    assert "### FILE: static/app.js" in prompt and app_js.strip() in prompt
    assert "### FILE: server/main.py" in prompt and "### FILE: static/index.html" in prompt
    for config in (".gitignore", "pytest.ini", "requirements.txt"):
        assert f"### FILE: {config}" not in prompt and config in prompt  # named, not shown
    assert "addopts" not in prompt
    whole = len(request.messages[0]["content"]) + len(prompt)
    assert whole // 3 + request.body["max_tokens"] <= 8192
    assert outcome.limits.to_json() == {
        "context": 8192,
        "context_source": "max_model_len in /v1/models",
        "context_said": True,
    }


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
    spec, draft, refine = out["phases"]  # the draft model said what the app tracks first (test_model_spec.py)
    assert (spec["phase"], spec["where"], spec["cost_usd"]) == ("spec", "local", 0.0)
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
    assert [p["phase"] for p in out["phases"]] == ["spec", "draft", "refine"]


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
        child.expect("May your friend's cloud model")  # a water tracker is a health app: asked once
        child.sendline("n")
        child.expect("what to change: ")  # what the make understood, before anything is written
        child.sendline("yes")
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


# ── a draft that writes nothing is not a success ────────────────────────────────────────
ECHO = "# The brief\nThe person wants a water tracker.\n\nstatic/app.js\n```js\n// as it was\n```\n"


def echo_then_files(req) -> Reply:
    """A small model: first an echo with no file (and no usage figures); told why, it answers."""
    if "no whole files were found" in req.last_user_text():
        return Reply.text(files_answer("Drafted on the second try.", PASSING), usage=False)
    return Reply.text(ECHO, usage=False)


@pytest.mark.slow
def test_local_only_a_draft_with_no_file_is_said_and_the_fix_round_told_why(macaron):
    with ModelServer(echo_then_files) as local:
        run = macaron(
            "make",
            "a water tracker",
            "--local-only",
            "--yes",
            "--json",
            env={"MACARON_DRAFT_URL": local.url, "MACARON_DRAFT_API": "openai"},  # like llama-cpp-python
            timeout=600,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        asked = [r.last_user_text() for r in local.requests if r.body.get("stream")]
    out = json.loads(run.stdout)
    spec, draft, fix = out["phases"]  # the spec, asked first, writes no file by design
    # The scripted server's spec is empty: the rules wrote it, and the notes say so first.
    assert spec["name"] == "spec" and out["notes"][0] == "spec: the model's spec was empty; the rules wrote it"
    assert (draft["name"], draft["by"], draft["local"], draft["written"]) == ("draft", "draft", True, [])
    assert (fix["name"], fix["written"]) == ("fix-1", sorted([NOTE, TEST_FILE]))
    assert out["notes"][1].startswith("draft: the local model wrote no file (no whole files were found")
    # The template passed verification, yet the fix round ran, told what was wrong with the answer.
    assert len(asked) == 2 and "no whole files were found" in asked[1]
    assert [c["message"].splitlines()[0] for c in out["checkpoints"]][1:] == [
        "the local model wrote no file: the app is as it was",
        "local fix round 1",
    ]
    assert out["status"] == "done" and (Path(out["path"]) / NOTE).read_text() == "Drafted on the second try.\n"
    # No usage from the server: the tokens are estimates, and say so.
    assert draft["estimated"] and out["tokens"]["estimated"] is True and draft["input_tokens"] > 0
    why = macaron("why", out["app"]).stdout
    assert "tokens (estimated for draft, fix-1: the model server gave no usage)" in why


@pytest.mark.slow
def test_local_only_when_no_answer_writes_a_file_the_make_says_the_app_is_the_template(macaron):
    with ModelServer([Reply.text("")]) as local:
        run = macaron(
            "make",
            "a water tracker",
            "--local-only",
            "--max-rounds",
            "1",
            "--yes",
            env={"MACARON_DRAFT_URL": local.url},
            timeout=600,
        )
        answers = len([r for r in local.requests if r.body.get("stream")])
    assert run.returncode == 1, run.stdout + run.stderr
    assert answers == 2, "the draft and one fix round (--max-rounds 1)"
    assert "✓" not in run.stdout and "No model changed the app: it is the template" in run.stdout
    assert "draft: the local model wrote no file (the answer was empty)" in run.stdout
    assert "fix-1: the local model wrote no file (the answer was empty)" in run.stdout
    assert json.loads(macaron("apps", "--json").stdout)[0]["tests"] == "passed"  # the template, kept and runnable


@pytest.mark.slow
def test_draft_with_an_empty_local_answer_tells_claude_to_build_it(macaron):
    with ModelServer([Reply.text("")]) as local, ModelServer(claude) as cloud:
        env = {"MACARON_DRAFT_URL": local.url, "ANTHROPIC_BASE_URL": cloud.url, "ANTHROPIC_API_KEY": "test-key"}
        run = macaron("make", "a water tracker", "--draft", "--yes", "--json", env=env, timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
        told = any("the local model changed no file: the answer was empty" in r.raw for r in cloud.requests)
    out = json.loads(run.stdout)
    assert told, "Claude never heard that the draft wrote nothing"
    _, draft, refine = out["phases"]  # the first: the spec, asked of the draft model
    assert draft["written"] == [] and refine["written"] == [TEST_FILE] and refine["local"] is False
    assert out["notes"] == [
        "spec: the model's spec was empty; the rules wrote it",  # the scripted server's spec
        "draft: the local model wrote no file (the answer was empty)",
    ]
    assert out["status"] == "done"
