"""What `macaron make` itself costs, apart from the model and the app's own tests.

With the scripted model server (tests/support/model_server.py) answering at once:
  1. command → first model request (target ≤ 3 s), next to the SDK's own floor measured
     in the same run: a bare one-turn `claude_agent_sdk.query()` to the same server; then
     the same for a person with a few memories (the brief searches them first: by keywords,
     or with vectors unless MACARON_EMBEDDINGS is off);
  2. orchestration time of a whole make excluding model time (and, separately,
     verification time, which is the app's tests and the browser);
  3. an offline make from idea to verified app (target ≤ 15 s including verification),
     next to verification alone on the same app.

Run: python3 bench/make_overhead.py [--runs N]

macaron runs as installed, with its bytecode compiled (as `pip install` leaves it): the
bench compiles it first and lets the runs read the caches even where the caller's
environment says PYTHONDONTWRITEBYTECODE. The load average is printed before and after:
on two cores, other work changes every figure; compare only runs under the same load.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.model_server import ModelServer, Reply  # noqa: E402


class TimedServer(ModelServer):
    """Records when each request arrived and how long each reply took to decide."""

    def __init__(self, responder):
        self.arrivals: list[float] = []
        super().__init__(self._timed(responder))

    def _timed(self, responder):
        def respond(req):
            self.arrivals.append(time.time())
            return responder(req)

        return respond


MEMORIES = [
    "I wake at six and stretch before my first coffee",
    "I drink two litres of water a day",
    "My morning run is five kilometres",
]


def _env(home: Path, server=None) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ANTHROPIC_", "MACARON_")) and k != "PYTHONDONTWRITEBYTECODE"
    }
    if "MACARON_EMBEDDINGS" in os.environ:  # a choice about this machine, not about a home
        env["MACARON_EMBEDDINGS"] = os.environ["MACARON_EMBEDDINGS"]
    env.update(
        MACARON_HOME=str(home / "home"),
        MACARON_APPS_DIR=str(home / "apps"),
        PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
    )
    if server:
        env.update(ANTHROPIC_BASE_URL=server.url, ANTHROPIC_API_KEY="bench")
    return env


def _make(args: list[str], env: dict) -> tuple[float, dict, Path]:
    start = time.time()
    run = subprocess.run(
        [sys.executable, "-m", "macaron_cli", "make", *args, "--yes", "--json"], env=env, capture_output=True, text=True
    )
    wall = time.time() - start
    try:
        out = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"make failed ({run.returncode}): {run.stderr[-500:]}") from None
    if out["tests"] != "passed":
        print(f"  note: the app did not pass verification (tests {out['tests']}); timings still count", file=sys.stderr)
    app = Path(out["path"])
    return start, {"wall": wall, **json.loads((app / ".macaron" / "make.json").read_text())}, app


def first_request_and_orchestration(work: Path) -> dict:
    with TimedServer(lambda req: Reply.text("Built.")) as server:
        start, state, _app = _make(["a habit tracker for my mornings", "--max-rounds", "0"], _env(work, server))
    timings = state["timings"]
    model_s = 0.0  # the scripted server answers at once; its time is inside `agent`
    return {
        "first_request_s": server.arrivals[0] - start,
        "total_s": state["wall"],
        "verify_s": timings.get("verify", 0.0),
        "orchestration_s": state["wall"] - timings.get("verify", 0.0) - model_s,
        "requests": len(server.arrivals),
    }


def first_request_with_memories(work: Path) -> float:
    with TimedServer(lambda req: Reply.text("Built.")) as server:
        env = _env(work, server)
        remember = (
            "import sys\nfrom macaron_cli.memory import MemoryStore\ns = MemoryStore.open()\n"
            "for text in sys.argv[1:]:\n    s.add(text)\n"
        )
        subprocess.run([sys.executable, "-c", remember, *MEMORIES], env=env, check=True)
        start, _, _ = _make(["a habit tracker for my mornings", "--max-rounds", "0"], env)
    return server.arrivals[0] - start


def sdk_floor() -> float:
    """A bare one-turn query() from a fresh Python process to the same server."""
    code = (
        "import asyncio,os,time,sys\n"
        "from claude_agent_sdk import query, ClaudeAgentOptions\n"
        "async def main():\n"
        "    async for m in query(prompt='hi', options=ClaudeAgentOptions(env={k: os.environ[k] for k in "
        "('ANTHROPIC_BASE_URL','ANTHROPIC_API_KEY')} | {'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC':'1',"
        "'CLAUDE_CONFIG_DIR': sys.argv[1]})):\n"
        "        pass\n"
        "asyncio.run(main())\n"
    )
    with TimedServer(lambda req: Reply.text("hi")) as server, tempfile.TemporaryDirectory() as cfg:
        env = {**os.environ, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "bench"}
        start = time.time()
        subprocess.run([sys.executable, "-c", code, cfg], env=env, capture_output=True, cwd=cfg)
        return server.arrivals[0] - start


def offline_make(work: Path) -> dict:
    from macaron_cli.sandbox.verify import verify_app

    _, state, app = _make(["毎日の水分補給を記録したい", "--offline"], _env(work))
    os.environ.update(_env(work))
    start = time.time()
    verify_app(app, screenshot=True)
    return {
        "offline_make_s": state["wall"],
        "verify_alone_s": time.time() - start,
        "verify_in_make_s": state["timings"].get("verify", 0.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    compileall.compile_dir(REPO / "macaron_cli", quiet=1)
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    rows = {
        "first_request_s": [],
        "sdk_floor_s": [],
        "with_memories_s": [],
        "orchestration_s": [],
        "total_s": [],
        "verify_s": [],
        "offline_make_s": [],
        "verify_alone_s": [],
    }
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            a = first_request_and_orchestration(Path(tmp) / "a")
            b = offline_make(Path(tmp) / "b")
            rows["with_memories_s"].append(first_request_with_memories(Path(tmp) / "c"))
        rows["sdk_floor_s"].append(sdk_floor())
        for key in rows:
            if key in a:
                rows[key].append(a[key])
            if key in b:
                rows[key].append(b[key])
    med = {k: statistics.median(v) for k, v in rows.items() if v}
    print(f"runs: {runs} (median of each)")
    print(
        f"command → first model request: {med['first_request_s']:.2f} s   "
        f"(bare SDK query() floor: {med['sdk_floor_s']:.2f} s)   target ≤ 3 s: "
        f"{'OK' if med['first_request_s'] <= 3 else 'MISSED'}"
    )
    from macaron_cli.memory.embeddings import available

    print(
        f"  with memories ({'vector + keyword' if available() else 'keyword'} search): "
        f"{med['with_memories_s']:.2f} s   target ≤ 3 s: {'OK' if med['with_memories_s'] <= 3 else 'MISSED'}"
    )
    print(
        f"agent make, total {med['total_s']:.2f} s = verification {med['verify_s']:.2f} s "
        f"+ orchestration {med['orchestration_s']:.2f} s (scripted model: ~0 s model time)"
    )
    print(
        f"offline make, idea → verified app: {med['offline_make_s']:.2f} s   "
        f"(verification alone: {med['verify_alone_s']:.2f} s)   target ≤ 15 s: "
        f"{'OK' if med['offline_make_s'] <= 15 else 'MISSED'}"
    )
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
