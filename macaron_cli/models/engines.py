"""The inference engines `macaron draft serve` can start, and their flags for DeepSeek models.

macaron never serves a model itself: it starts an existing engine as a child process.
For more than one GPU the engine's own tensor parallelism does the work (vLLM, SGLang),
and for more than one machine the person runs the engine's multi-node mode and attaches
(`macaron draft serve --attach URL`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from macaron_cli import endpoints
from macaron_cli.errors import UserError

ENGINES = ("vllm", "sglang", "llama-server", "ollama", "llama-cpp")


@dataclass(frozen=True)
class Launch:
    """How to start one engine: the command, extra environment, and what to do once it is up."""

    argv: list[str]
    env: dict
    served_model: str  # the name requests must carry
    after_start: list[list[str]]  # commands to run once healthy (ollama pull)


def context_length() -> int:
    """Tokens of context to ask for: enough for a brief plus a template's files."""
    return endpoints.local_context()


def deepseek_family(model: str) -> str | None:
    """'r1', 'v3.1', 'v3', 'coder' or None, from a model name or path (for parser flags)."""
    name = model.lower().replace("_", "-")
    if "deepseek" not in name and "r1-distill" not in name:
        return None
    if re.search(r"\br1\b|-r1-|r1-distill|-r1$", name):
        return "r1"
    if re.search(r"v3[.-]?[12]", name):
        return "v3.1"
    if "v3" in name:
        return "v3"
    if "coder" in name:
        return "coder"
    return None


def check_installed(engine: str) -> None:
    """Raise one line with the fix when `engine` cannot be started on this machine."""
    found = {
        "vllm": lambda: shutil.which("vllm") or importlib.util.find_spec("vllm"),
        "sglang": lambda: importlib.util.find_spec("sglang"),
        "llama-server": lambda: shutil.which("llama-server"),
        "ollama": lambda: shutil.which("ollama"),
        "llama-cpp": lambda: (
            importlib.util.find_spec("llama_cpp")
            and importlib.util.find_spec("uvicorn")
            and importlib.util.find_spec("sse_starlette")
        ),
    }[engine]()
    if found:
        return
    fix = {
        "vllm": "pip install vllm (needs an NVIDIA GPU and CUDA)",
        "sglang": "pip install 'sglang[all]' (needs an NVIDIA GPU and CUDA)",
        "llama-server": "install llama.cpp so `llama-server` is on PATH (e.g. `brew install llama.cpp`, or build "
        "https://github.com/ggml-org/llama.cpp)",
        "ollama": "install Ollama from https://ollama.com/download",
        "llama-cpp": "pip install 'macaron[llama-cpp]' (compiles llama-cpp-python: several minutes)",
    }[engine]
    raise UserError(f"{engine} is not installed; {fix}")


def gpu_count() -> int:
    """NVIDIA GPUs visible here (0 without a driver)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([d for d in visible.split(",") if d.strip() and d.strip() != "-1"])
    return len(list(Path("/dev").glob("nvidia[0-9]*")))


def check_gpus(engine: str, gpus: int) -> None:
    """vLLM and SGLang need GPUs; the llama.cpp family and Ollama also run on a CPU."""
    if gpus < 1:
        raise UserError(f"--gpus must be at least 1 (got {gpus})")
    if engine not in ("vllm", "sglang"):
        return
    have = gpu_count()
    if have == 0:
        raise UserError(
            f"no NVIDIA GPU found for {engine}; on this machine use --engine llama-cpp, "
            "llama-server or ollama with a small GGUF model (see README: Local draft model)"
        )
    if gpus > have:
        raise UserError(
            f"--gpus {gpus} but only {have} GPU(s) are visible; use --gpus {have} "
            "(or attach to a multi-node server with --attach URL)"
        )


def launch(engine: str, model: str, gpus: int, port: int, host: str = "127.0.0.1") -> Launch:
    """The command line that serves `model` with `engine` on host:port."""
    ctx = context_length()
    family = deepseek_family(model)
    if engine == "vllm":
        argv = (
            ["vllm", "serve", model]
            if shutil.which("vllm")
            else [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", model]
        )
        argv += [
            "--host",
            host,
            "--port",
            str(port),
            "--served-model-name",
            model,
            "--tensor-parallel-size",
            str(gpus),
            "--max-model-len",
            str(ctx),
            "--trust-remote-code",
        ]
        if family == "r1":
            argv += ["--reasoning-parser", "deepseek_r1"]
        elif family in ("v3", "v3.1"):
            argv += [
                "--enable-auto-tool-choice",
                "--tool-call-parser",
                "deepseek_v31" if family == "v3.1" else "deepseek_v3",
            ]
        return Launch(argv, {}, model, [])
    if engine == "sglang":
        argv = [
            sys.executable,
            "-m",
            "sglang.launch_server",
            "--model-path",
            model,
            "--served-model-name",
            model,
            "--host",
            host,
            "--port",
            str(port),
            "--tp",
            str(gpus),
            "--context-length",
            str(ctx),
            "--trust-remote-code",
        ]
        if family == "r1":
            argv += ["--reasoning-parser", "deepseek-r1"]
        elif family in ("v3", "v3.1"):
            argv += ["--tool-call-parser", "deepseekv31" if family == "v3.1" else "deepseekv3"]
        return Launch(argv, {}, model, [])
    if engine == "llama-server":
        source = ["-m", model] if model.endswith(".gguf") or Path(model).exists() else ["-hf", model]
        # --jinja: the model's own chat template (needed for tool calls); -ngl 999: every
        # layer on the GPU(s) when there are any, llama.cpp splits layers across them.
        argv = [
            "llama-server",
            *source,
            "--host",
            host,
            "--port",
            str(port),
            "-c",
            str(ctx),
            "--jinja",
            "-ngl",
            "999",
            "--alias",
            _alias(model),
        ]
        return Launch(argv, {}, _alias(model), [])
    if engine == "ollama":
        env = {"OLLAMA_HOST": f"{host}:{port}", "OLLAMA_CONTEXT_LENGTH": str(ctx)}
        return Launch(["ollama", "serve"], env, model, [["ollama", "pull", model]])
    if engine == "llama-cpp":
        if not Path(model).is_file():
            raise UserError(
                f"--engine llama-cpp needs a .gguf file; {model} is not one (give the path to a GGUF model)"
            )
        argv = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            model,
            "--model_alias",
            _alias(model),
            "--host",
            host,
            "--port",
            str(port),
            "--n_ctx",
            str(ctx),
            "--n_gpu_layers",
            "-1" if gpu_count() else "0",
        ]
        return Launch(argv, {}, _alias(model), [])
    raise UserError(f"unknown engine {engine!r}; use one of: {', '.join(ENGINES)}")


def _alias(model: str) -> str:
    """A short served name for a model given as a file path."""
    return Path(model).name.removesuffix(".gguf") if model.endswith(".gguf") else model
