"""The coder's shell holds none of the person's variables and never the model key, and what the
coder's CLI writes (its transcripts, its settings, the key) lies outside the app, gone when the
run ends (issue 50, routes 3 and 7; maker/coder_home.py, untrusted/environment.py).

Through the real `macaron make` and `change`, the Agent SDK's bundled CLI and bubblewrap; the
model is scripted. Every home and store lies outside /tmp, so no wall hides them by location."""

from __future__ import annotations

import base64
import json
import shutil
import tempfile
from pathlib import Path

import pytest

from macaron_cli.maker import coder_home
from macaron_cli.maker.coder_home import CoderHome
from tests.support.model_server import ModelServer, Reply
from tests.test_coder_containment import _committed, _files

# The person's variables, as a shell profile or a CI runner sets them.
PLANTED = {
    "GITHUB_TOKEN": "ghp_GITHUBMARK5Q8ZK2W7",
    "AWS_SECRET_ACCESS_KEY": "AWSMARK-wJalrXUtnFEMI9K7MDENG",
    "OPENAI_API_KEY": "sk-proj-OPENAIMARK-3V6JP0T4",
}
MODEL_KEY = "sk-ant-api03-MODELKEYMARK-9C1TB5X2"
MARKS = (*PLANTED.values(), MODEL_KEY)
MEMORY_MARK = "BOTTLEMARK-4H8WD1"
MEMORY = f"I drink my water from the blue bottle engraved {MEMORY_MARK}"


@pytest.fixture
def outside_tmp(monkeypatch):
    """The person's home, macaron's home and the apps folder, all under /var/tmp."""
    root = Path(tempfile.mkdtemp(prefix="macaron-env-", dir="/var/tmp"))
    home = root / "person"
    home.mkdir()
    for name, value in (("HOME", home), ("MACARON_HOME", home / ".macaron"), ("MACARON_APPS_DIR", home / "apps")):
        monkeypatch.setenv(name, str(value))
    yield home
    shutil.rmtree(root, ignore_errors=True)


def _steps(replies: list[Reply]):
    def responder(req) -> Reply:
        if not req.body.get("tools"):
            return Reply.text("ok")
        return replies[min(req.assistant_turns(), len(replies) - 1)]

    return responder


def _bash(command: str) -> Reply:
    return Reply.tool("Bash", {"command": command})


def _read_everything(mac: Path) -> list[Reply]:
    """Every way a shell shows its environment, and where the key might be kept."""
    code = "import os, json; print(json.dumps(dict(os.environ)))"
    return [
        _bash("env"),
        _bash("cat /proc/self/environ; for p in /proc/[0-9]*; do echo; cat $p/environ; done 2>&1 | tr '\\0' '\\n'"),
        _bash(f"python3 -c {json.dumps(code)}"),
        Reply.tool("Read", {"file_path": "/proc/self/environ"}),
        _bash(
            f'cat "$CLAUDE_CONFIG_DIR/../key" {mac}/coder/*/key {mac}/coder/*/*.json; ls -la "$CLAUDE_CONFIG_DIR/.."'
        ),
        # Packed into the app, reversed and in base64: the next checkpoint commits them.
        _bash(
            "env > static/env.txt; cat /proc/self/environ > static/environ.bin; env | base64 > static/env.b64; "
            'env | rev > static/env.rev; cat "$CLAUDE_CONFIG_DIR"/../key > static/key.txt'
        ),
        Reply.text("Built."),
    ]


def _spellings(data: bytes) -> bytes:
    """The bytes as they are, reversed, and base64-decoded where they are base64."""
    decoded = b""
    try:
        decoded = base64.b64decode(b"".join(data.split()), validate=True)
    except ValueError:
        pass
    return b"\n".join([data, data[::-1], decoded])


@pytest.mark.slow
@pytest.mark.parametrize("variable", ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"])
def test_the_coders_shell_sees_none_of_the_persons_variables_nor_the_key(
    macaron, outside_tmp, monkeypatch, tmp_path, variable
):
    for name, value in PLANTED.items():
        monkeypatch.setenv(name, value)
    mac = outside_tmp / ".macaron"
    with ModelServer(_steps(_read_everything(mac))) as server:
        run = macaron(
            "make",
            "a water tracker",
            "--yes",
            "--json",
            env={"ANTHROPIC_BASE_URL": server.url, variable: MODEL_KEY},
            timeout=900,
        )
        requests = list(server.requests)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    app = Path(out["path"])
    assert out["tests"] == "passed"  # the make still works end to end

    # Every attempt ran and its answer went back to the model: the shell showed an environment
    # (macaron's own variables are in it), just not the person's.
    results = "\n".join(max((r.tool_results() for r in requests), key=len))
    assert "CLAUDE_CONFIG_DIR=" in results and "MACARON_APP_DATA=" in results
    everything = "\n".join(r.raw for r in requests)
    for mark in MARKS:
        assert mark not in everything and mark[::-1] not in everything, f"{mark} reached the model"
    # The CLI still reached the model with the key or the token, from outside its shell.
    sent = {
        "ANTHROPIC_API_KEY": ("x-api-key", MODEL_KEY),
        "ANTHROPIC_AUTH_TOKEN": ("Authorization", f"Bearer {MODEL_KEY}"),
    }
    header, value = sent[variable]
    assert all(r.headers.get(header) == value for r in requests)

    # Nothing of it was committed, left in the app, or put in a share bundle.
    shared = tmp_path / "shared"
    shared.mkdir()
    assert macaron("share", out["app"], cwd=shared).returncode == 0
    for where, files in (("committed", _committed(app)), ("in the app", _files(app)), ("shared", _files(shared))):
        for name, data in files.items():
            for mark in MARKS:
                assert mark.encode() not in _spellings(data), f"{mark} {where}: {name}"

    # The CLI's config, transcripts and walls are not in the app, and went with the run.
    assert not (app / ".macaron" / "claude").exists() and not (app / ".macaron" / "coder-walls.json").exists()
    assert not any((mac / "coder").iterdir())


def _make_steps() -> list[Reply]:
    return [Reply.tool("Read", {"file_path": ".macaron/brief.md"}), Reply.text("Built.")]


def _change_steps(mac: Path) -> list[Reply]:
    """A later coder looks for an earlier session's transcript wherever it was kept."""
    return [
        _bash("cat .macaron/claude/projects/*/*.jsonl | grep -o 'engraved [A-Z0-9-]*'; ls -laR .macaron"),
        _bash('grep -rho "engraved [A-Z0-9-]*" "$CLAUDE_CONFIG_DIR" "$CLAUDE_CONFIG_DIR/.." ' + f"{mac}/coder"),
        _bash("find / -name '*.jsonl' -path '*projects*' 2>/dev/null | xargs grep -ho 'engraved [A-Z0-9-]*'"),
        Reply.text("Changed."),
    ]


@pytest.mark.slow
def test_a_memory_made_private_after_a_make_stays_out_of_a_later_change(macaron, outside_tmp):
    from macaron_cli.memory import MemoryStore

    added = json.loads(macaron("memory", "add", MEMORY, "--domain", "health", "--json").stdout)
    mac = outside_tmp / ".macaron"
    env = {"ANTHROPIC_API_KEY": "test-key"}
    with ModelServer(_steps(_make_steps())) as server:
        made = macaron("make", "a water tracker", "--yes", "--json", env={**env, "ANTHROPIC_BASE_URL": server.url})
        sent = "\n".join(r.raw for r in server.requests)
    assert made.returncode == 0, made.stdout + made.stderr
    assert MEMORY_MARK in sent  # personal then: the make's coder was told (its transcript holds it)

    MemoryStore.open().update(added["id"], privacy="private")  # the person thinks again
    app = Path(json.loads(made.stdout)["path"])
    spec = json.loads((app / "macaron.json").read_text(encoding="utf-8"))["spec"]
    answer = json.dumps({"title": "Water", "spec": spec})
    with ModelServer(_steps(_change_steps(mac)), spec=lambda req: Reply.text(answer)) as server:
        changed = macaron(
            "change", app.name, "show the goal in cups", "--yes", env={**env, "ANTHROPIC_BASE_URL": server.url}
        )
        requests, everything = list(server.requests), server.all_bytes()
    assert changed.returncode in (0, 1), changed.stdout + changed.stderr
    assert max(len(r.tool_results()) for r in requests) >= 3  # every search ran and was answered
    assert MEMORY_MARK not in everything


def test_the_cli_starts_with_only_the_variables_macaron_named(macaron_home, tmp_path, monkeypatch):
    import os
    import subprocess

    # The launcher's CLI replaced by `env`, which prints what the CLI would be started with.
    monkeypatch.setattr(coder_home, "_cli", lambda: shutil.which("env"))
    home = CoderHome.fresh(tmp_path / "app")
    launcher = home.launcher(["PATH", "HOME", "ANTHROPIC_BASE_URL"])
    given = {**os.environ, **PLANTED, "ANTHROPIC_API_KEY": MODEL_KEY, "HOME": "/coder/home"}
    given |= {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "CLAUDE_CODE_ENTRYPOINT": "sdk-py"}
    seen = subprocess.run([str(launcher)], env=given, capture_output=True, text=True, check=True).stdout
    names = {line.split("=", 1)[0] for line in seen.splitlines()}
    assert names == {"PATH", "HOME", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_ENTRYPOINT", "PWD"}
    assert "HOME=/coder/home" in seen.splitlines()
    assert not any(mark in seen for mark in MARKS)


def test_the_key_is_the_persons_alone_outside_the_app_and_gone_with_the_run(macaron_home, tmp_path):
    import stat

    app = tmp_path / "apps" / "water"
    app.mkdir(parents=True)
    home = CoderHome.fresh(app)
    settings = json.loads(home.settings_file({"sandbox": {"enabled": True}}, MODEL_KEY).read_text())
    assert home.key_file.read_text() == MODEL_KEY and MODEL_KEY not in json.dumps(settings)
    assert settings["sandbox"] == {"enabled": True} and str(home.key_file) in settings["apiKeyHelper"]
    assert stat.S_IMODE(home.key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.root.stat().st_mode) == 0o700
    assert home.root.is_relative_to(macaron_home) and not home.root.is_relative_to(app)
    # Two apps of one name keep their sessions apart.
    assert CoderHome.of(tmp_path / "elsewhere" / "water").root != home.root
    home.close()
    assert not home.root.exists()
