"""`macaron draft serve` and `macaron draft status`: the local draft model's endpoint.

serve starts an engine (engines.py) as a child process, waits until it answers, records
the endpoint in config.toml and keeps serving until Ctrl-C; --attach records a server
that is already running. status probes the recorded endpoint.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from macaron_cli import config, endpoints, privacy
from macaron_cli.errors import UserError, WorkFailed
from macaron_cli.models import engines
from macaron_cli.models.client import ModelClient, normalize_base_url
from macaron_cli.models.failures import ModelFailure
from macaron_cli.ports import check_free

PROBE_PROMPT = [{"role": "user", "content": "Count from 1 to 30, separated by spaces."}]


def draft_serve(
    engine: str | None = None, model: str | None = None, gpus: int = 1, port: int = 8000, attach: str | None = None
) -> int:
    if attach:
        url, served, api = _attach(attach, model)
        _say(f"Draft model ready: {served} at {url} ({api} wire), saved in {config.config_path()}.")
        return 0
    if not engine:
        raise UserError(
            f"say which engine to start with --engine ({' | '.join(engines.ENGINES)}), "
            "or use one already running with --attach URL"
        )
    if engine not in engines.ENGINES:
        raise UserError(f"unknown engine {engine!r}; use one of: {', '.join(engines.ENGINES)}")
    if not model:
        raise UserError(
            "say which model to serve with --model (e.g. deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct; "
            "see README: Local draft model)"
        )
    engines.check_installed(engine)
    engines.check_gpus(engine, gpus)
    plan = engines.launch(engine, model, gpus, port)
    check_free(port, otherwise=f"pick another with --port, or use that server with --attach http://127.0.0.1:{port}")
    return _serve(engine, plan, f"http://127.0.0.1:{port}")


def draft_status(json_out: bool = False) -> int:
    settings = config.load_settings()
    from macaron_cli.models.registry import local_endpoint

    endpoint = local_endpoint(settings)
    destination = privacy.local_model(endpoint.url, settings)
    status: dict[str, Any] = {
        "url": endpoint.url,
        "model": endpoint.model,
        "api": endpoint.api,
        "local": destination.local,
        "why": destination.reason,
        "private_memories": privacy.may_carry(privacy.PRIVATE, destination),
    }
    try:
        with endpoint.client() as client:
            status["models"] = client.list_models()
            status.update(_limits(client, settings))
            client.complete(None, PROBE_PROMPT, max_tokens=48, temperature=0)
            usage = client.last_usage
            status.update(
                model=client.model,
                api=client.api,
                reachable=True,
                tokens_per_second=round(usage.tokens_per_second, 1),
                first_token_seconds=round(usage.first_token_seconds or 0.0, 3),
                probe_tokens=usage.output_tokens,
                probe_tokens_estimated=usage.estimated,
            )
    except ModelFailure as exc:
        if not json_out:
            raise
        from macaron_cli.output import print_json

        print_json({**status, "reachable": False, "error": str(exc)})
        return exc.exit_code
    if json_out:
        from macaron_cli.output import print_json

        print_json(status)
        return 0
    where = "this machine" if status["local"] else "remote (counts as cloud)"
    where += f": {destination.reason}"
    _say(f"endpoint  {status['url']}  ({where})")
    _say(f"model     {status['model']}  ({status['api']} wire)")
    _say(f"speed     {status['tokens_per_second']} tokens/s, first token after {status['first_token_seconds']} s")
    _say(f"context   {status['context']:,} tokens ({status['context_source']})")
    _say(f"answers   at most {status['max_tokens']:,} tokens a draft, the app's files in the rest")
    _say(f"private memories {'may' if status['private_memories'] else 'may not'} be sent to it")
    return 0


def _limits(client: ModelClient, settings: config.Settings) -> dict:
    """The server's context as it says it (or as assumed) and the answer a draft asks for in it."""
    from macaron_cli.models.limits import read_limits, split_context, wanted_answer

    limits = read_limits(client, settings)
    return {**limits.to_json(), "max_tokens": split_context(limits, wanted_answer(), 0)[0]}


# ── attaching ───────────────────────────────────────────────────────────────────────────
def _attach(url: str, model: str | None) -> tuple[str, str, str | None]:
    """Check a running server answers, detect its wire, and record it."""
    url = normalize_base_url(url)
    with ModelClient(url, model, api=endpoints.local_api_override()) as client:
        served = client.model  # asks /v1/models when --model was not given
        client.complete(None, [{"role": "user", "content": "Say OK."}], max_tokens=2)
        config.save_settings({"draft_url": url, "draft_model": served, "draft_api": client.api})
        return url, served, client.api


# ── serving ─────────────────────────────────────────────────────────────────────────────
def _serve(engine: str, plan: engines.Launch, url: str) -> int:
    log_path = config.ensure_private_dir(config.home() / "draft") / f"{engine}.log"
    env = {**os.environ, **plan.env}
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            plan.argv,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    previous = signal.signal(signal.SIGTERM, _terminate_as_interrupt)
    try:
        _say(f"Starting {engine} (log: {log_path}) …")
        _wait_until_healthy(url, proc, log_path)
        for command in plan.after_start:
            _say(f"Running {' '.join(command)} …")
            if subprocess.run(command, env=env, stdout=subprocess.DEVNULL).returncode != 0:
                raise WorkFailed(f"`{' '.join(command)}` failed; check the model name")
        _, served, api = _attach(url, plan.served_model)
        # The gate: macaron started this one; and the context it started it with (the
        # llama-cpp-python server says it nowhere).
        config.save_settings({"draft_served_url": url, "draft_served_context": engines.context_length()})
        _say(f"Draft model ready: {served} at {url} ({api} wire), saved in {config.config_path()}. Ctrl-C stops it.")
        code = proc.wait()
        raise WorkFailed(f"{engine} stopped (exit {code}); last lines of {log_path}:\n{_tail(log_path)}")
    except KeyboardInterrupt:
        _say(f"Stopping {engine}.")
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        _stop(proc)


def _wait_until_healthy(url: str, proc: subprocess.Popen, log_path: Path) -> None:
    """Poll /v1/models until it answers 200; big models take minutes to load."""
    deadline = time.monotonic() + float(os.environ.get("MACARON_DRAFT_START_TIMEOUT") or 1800)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise WorkFailed(
                f"the engine exited while starting (exit {proc.returncode}); "
                f"last lines of {log_path}:\n{_tail(log_path)}"
            )
        try:
            if httpx.get(url + "/v1/models", timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise WorkFailed(
        f"the engine did not answer at {url} in time; see {log_path} "
        "(raise MACARON_DRAFT_START_TIMEOUT for very large models)"
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        pass


def _die_with_parent() -> None:
    """Linux: the engine gets SIGTERM if macaron dies without cleaning up (kill -9)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _terminate_as_interrupt(signum, frame):
    raise KeyboardInterrupt


def _tail(path: Path, lines: int = 8) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _say(text: str) -> None:
    print(text, file=sys.stdout, flush=True)
