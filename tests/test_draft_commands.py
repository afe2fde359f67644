"""`macaron draft serve|status` through the real CLI, against the scripted server."""

import json
import socket

import pytest

from macaron_cli.errors import UserError
from macaron_cli.models import engines
from tests.support.model_server import ModelServer, Reply


def _openai_only(req):
    """Like llama-cpp-python's server: no /v1/messages route."""
    if req.api == "anthropic":
        return Reply.error(404, "not_found_error", "Not Found")
    return Reply.text("1 2 3 4 5 6 7 8 9 10", output_tokens=20)


def test_attach_records_the_endpoint_and_status_probes_it(macaron, macaron_home):
    with ModelServer(_openai_only, model="deepseek-coder-v2-lite") as server:
        attached = macaron("draft", "serve", "--attach", server.url + "/v1")
        assert attached.returncode == 0, attached.stderr
        assert "deepseek-coder-v2-lite" in attached.stdout and "openai wire" in attached.stdout
        config = (macaron_home / "config.toml").read_text()
        assert server.url in config and "deepseek-coder-v2-lite" in config

        status = macaron("draft", "status", "--json")
        assert status.returncode == 0, status.stderr
        report = json.loads(status.stdout)
        assert report["url"] == server.url and report["model"] == "deepseek-coder-v2-lite"
        assert report["api"] == "openai" and report["reachable"] is True
        assert report["local"] is True and report["private_memories"] is True
        assert report["tokens_per_second"] > 0

        human = macaron("draft", "status")
        assert "deepseek-coder-v2-lite" in human.stdout and "tokens/s" in human.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_attach_to_nothing_is_one_clear_line(macaron, macaron_home):
    url = f"http://127.0.0.1:{_free_port()}"
    result = macaron("draft", "serve", "--attach", url)
    assert result.returncode == 2
    assert (
        result.stderr.strip() == f"macaron: no draft server at {url}; start one with `macaron draft serve "
        "--engine … --model …` or set MACARON_DRAFT_URL"
    )
    assert not (macaron_home / "config.toml").exists(), "nothing recorded for a server that is not there"


def test_status_without_an_endpoint_says_how_to_get_one(macaron):
    result = macaron("draft", "status")
    assert result.returncode == 2 and "macaron draft serve" in result.stderr
    assert "Traceback" not in result.stderr


def test_status_json_reports_an_unreachable_endpoint(macaron):
    url = f"http://127.0.0.1:{_free_port()}"
    result = macaron("draft", "status", "--json", env={"MACARON_DRAFT_URL": url})
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert report["reachable"] is False and "no draft server" in report["error"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--model", "m"], "--engine"),
        (["--engine", "tgi", "--model", "m"], "unknown engine 'tgi'"),
        (["--engine", "vllm"], "--model"),
    ],
)
def test_serve_rejects_bad_input_before_starting_anything(macaron, args, message):
    result = macaron("draft", "serve", *args)
    assert result.returncode == 2 and message in result.stderr


def test_a_missing_engine_names_the_install_command(macaron, monkeypatch):
    monkeypatch.setattr(engines.shutil, "which", lambda name: None)
    monkeypatch.setattr(engines.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match=r"vllm is not installed; pip install vllm"):
        engines.check_installed("vllm")
    with pytest.raises(UserError, match=r"pip install 'macaron\[llama-cpp\]'"):
        engines.check_installed("llama-cpp")


def test_gpu_engines_need_a_gpu_and_enough_of_them(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    with pytest.raises(UserError, match="no NVIDIA GPU found for vllm; on this machine use --engine llama-cpp"):
        engines.check_gpus("vllm", 1)
    engines.check_gpus("llama-server", 1)  # the llama.cpp family runs on a CPU too
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    engines.check_gpus("sglang", 2)
    with pytest.raises(UserError, match="--gpus 4 but only 2 GPU"):
        engines.check_gpus("sglang", 4)


def test_deepseek_flags_per_engine_and_family(monkeypatch):
    monkeypatch.setenv("MACARON_DRAFT_CONTEXT", "32768")
    vllm = engines.launch("vllm", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", 2, 8001).argv
    assert vllm[vllm.index("--tensor-parallel-size") + 1] == "2"
    assert vllm[vllm.index("--max-model-len") + 1] == "32768"
    assert vllm[vllm.index("--reasoning-parser") + 1] == "deepseek_r1"
    sglang = engines.launch("sglang", "deepseek-ai/DeepSeek-V3-0324", 8, 8002).argv
    assert sglang[sglang.index("--tp") + 1] == "8" and sglang[sglang.index("--tool-call-parser") + 1] == "deepseekv3"
    v31 = engines.launch("vllm", "deepseek-ai/DeepSeek-V3.1", 8, 8003).argv
    assert v31[v31.index("--tool-call-parser") + 1] == "deepseek_v31"
    lite = engines.launch("vllm", "deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct", 1, 8004).argv
    assert "--tool-call-parser" not in lite and "--reasoning-parser" not in lite
    server = engines.launch("llama-server", "/models/deepseek-coder-v2-lite.Q4_K_M.gguf", 1, 8005)
    assert "--jinja" in server.argv and server.served_model == "deepseek-coder-v2-lite.Q4_K_M"
    ollama = engines.launch("ollama", "deepseek-r1:14b", 1, 8006)
    assert ollama.env["OLLAMA_HOST"] == "127.0.0.1:8006" and ollama.after_start == [
        ["ollama", "pull", "deepseek-r1:14b"]
    ]


def test_status_shows_the_servers_context_and_the_answer_a_draft_asks_for(macaron):
    props = {"default_generation_settings": {"n_ctx": 8192}}  # llama.cpp's llama-server
    with ModelServer(_openai_only, routes={"/props": props}) as server:
        env = {"MACARON_DRAFT_URL": server.url, "MACARON_DRAFT_API": "openai"}
        report = json.loads(macaron("draft", "status", "--json", env=env).stdout)
        human = macaron("draft", "status", env=env).stdout
    assert (report["context"], report["context_source"], report["context_said"]) == (8192, "n_ctx in /props", True)
    assert report["max_tokens"] == 4096  # half the context: the other half carries the app's files
    assert "context   8,192 tokens (n_ctx in /props)" in human and "at most 4,096 tokens" in human


def test_status_says_when_the_context_is_only_assumed(macaron):
    with ModelServer(_openai_only) as server:  # llama-cpp-python says its context nowhere
        env = {"MACARON_DRAFT_URL": server.url, "MACARON_DRAFT_API": "openai", "MACARON_DRAFT_CONTEXT": "8192"}
        human = macaron("draft", "status", env=env).stdout
        report = json.loads(macaron("draft", "status", "--json", env=env).stdout)
    assert "8,192 tokens (assumed: the server does not say; MACARON_DRAFT_CONTEXT sets it)" in human
    assert report["context_said"] is False and report["probe_tokens_estimated"] is False
