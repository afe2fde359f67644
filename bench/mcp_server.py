"""`macaron memory serve`: how soon a client that starts it is answered, and what MCP adds to a search.

Cold start: a fresh `macaron memory serve` process per run, driven by the real `mcp`
client over stdio as Claude Code drives it; times to the initialize answer, to the tool
list, and to the first search's answer, and the CPU seconds the server used until its first
answer. Baseline in the same run: a fresh
`macaron memory search QUERY --json` process (the same store open and search, no MCP).

Search latency: one session, the same queries through MCP and in this process
(`privacy.search` for the same destination, what the tool runs), alternating so machine
load hits both alike.

    python3 bench/mcp_server.py [--memories 2000] [--runs 5] [--queries 100]
    MACARON_EMBEDDINGS=off python3 bench/mcp_server.py    (full-text only)

Target: the first answer (initialize) within 1.5 s of the process starting, on a quiet
machine; on a busy one the CPU seconds it used stand in for that wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

TARGET_S = 1.5
QUERIES = ["coffee", "running", "Kyoto", "my sister", "the launch", "chess", "カフェイン", "여행", "夕食", "hiking"]


def command() -> list[str]:
    return [sys.executable, "-m", "macaron_cli"]


def env() -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def cold_start() -> tuple[float, float, float, float, float]:
    """Seconds from spawning the server to its answers (initialize, tools/list, the first
    search), and the CPU seconds it had used by the first: the wall time a quiet machine
    would see, whatever else this machine is doing. Newline-delimited JSON-RPC, as the
    stdio transport is, so the client costs nothing measurable."""
    started = time.perf_counter()
    server = subprocess.Popen(
        [*command(), "memory", "serve"], env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def ask(ident: int, method: str, params: dict) -> float:
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n")
        server.stdin.flush()
        while True:
            answer = json.loads(server.stdout.readline())
            if answer.get("id") == ident:
                assert "error" not in answer and not answer["result"].get("isError"), answer
                return time.perf_counter() - started

    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    initialized = ask(1, "initialize", hello)
    cpu = cpu_seconds(server.pid)
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    listed = ask(2, "tools/list", {})
    searched = ask(3, "tools/call", {"name": "search", "arguments": {"query": "coffee"}})
    cpu_searched = cpu_seconds(server.pid)
    server.stdin.close()
    server.wait(timeout=60)
    return initialized, listed, searched, cpu, cpu_searched


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cli_search() -> tuple[float, float]:
    """Wall and CPU seconds of a fresh `macaron memory search` process."""
    before, started = children_cpu(), time.perf_counter()
    subprocess.run([*command(), "memory", "search", "coffee", "--json"], env=env(), check=True, capture_output=True)
    return time.perf_counter() - started, children_cpu() - before


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def search_latencies(queries: list[str]) -> tuple[list[float], list[float]]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from macaron_cli import privacy
    from macaron_cli.config import Settings
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    destination = privacy.mcp_client("bench", Settings())
    params = StdioServerParameters(command=command()[0], args=[*command()[1:], "memory", "serve"], env=env())
    through_mcp, in_process = [], []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("search", {"query": "warm up"})
        privacy.search(store, "warm up", destination)
        for query in queries:
            started = time.perf_counter()
            await session.call_tool("search", {"query": query, "k": 5})
            through_mcp.append(time.perf_counter() - started)
            started = time.perf_counter()
            privacy.search(store, query, destination, k=5)
            in_process.append(time.perf_counter() - started)
    return through_mcp, in_process


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="macaron-bench-mcp-") as home:
        os.environ["MACARON_HOME"] = home
        measure(args)


def measure(args) -> None:
    from chat_latency import synthetic_memories

    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    store.add_many(synthetic_memories(args.memories))
    print(f"store: {store.count()} memories; vectors {'on' if store.vectors else 'off'}; {os.cpu_count()} CPUs")

    cold = [cold_start() for _ in range(args.runs)]
    cli = [cli_search() for _ in range(args.runs)]
    print(f"cold start, {args.runs} fresh processes each (median / max, seconds):")
    for label, values in (
        ("  initialize answered", [c[0] for c in cold]),
        ("  tools listed", [c[1] for c in cold]),
        ("  first search answered", [c[2] for c in cold]),
        ("  baseline: `memory search --json` process", [c[0] for c in cli]),
        ("  CPU seconds used by the initialize answer", [c[3] for c in cold]),
        ("  CPU seconds used by the first search answer", [c[4] for c in cold]),
        ("  CPU seconds of the baseline process", [c[1] for c in cli]),
    ):
        print(f"{label:46} {statistics.median(values):6.2f} / {max(values):6.2f}")
    for what, seconds in (
        ("wall", statistics.median(c[0] for c in cold)),
        ("CPU", statistics.median(c[3] for c in cold)),
    ):
        print(f"  target: first answer ≤ {TARGET_S} s ({what}): {'met' if seconds <= TARGET_S else 'MISSED'}")
    print(f"  machine load (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")

    queries = [QUERIES[i % len(QUERIES)] for i in range(args.queries)]
    through_mcp, in_process = asyncio.run(search_latencies(queries))
    print(f"search, {len(queries)} queries, k=5 (p50 / p95, ms):")
    for label, values in (("  through MCP (stdio)", through_mcp), ("  in process (privacy.search)", in_process)):
        print(f"{label:46} {statistics.median(values) * 1000:6.1f} / {p95(values) * 1000:6.1f}")


if __name__ == "__main__":
    main()
