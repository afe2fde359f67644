"""Ledger cost per event (make and chat) and `why` over a million events.

    python3 bench/ledger.py [--events 1000000]

Targets: recording ≤ 5 ms per event; `why` ≤ 100 ms at 1M events. The baseline in the
same run is a bare SQLite insert of one row, the floor any ledger write pays.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from macaron_cli import privacy
from macaron_cli.ledger import Ledger, node, signals
from macaron_cli.ledger.why import explain
from macaron_cli.memory.records import Memory

CLOUD = privacy.Destination("claude", "https://api.anthropic.com", False, "Claude is a cloud model")


def ms(samples):
    samples = sorted(samples)
    return f"p50 {statistics.median(samples) * 1000:.2f} ms, p95 {samples[int(len(samples) * 0.95)] * 1000:.2f} ms"


def bench_recording(home: Path, n: int = 300) -> None:
    ledger = Ledger.open(home)
    memories = [Memory(text=f"memory {i}", id=f"m_{i:06d}") for i in range(8)]
    make, chat, floor = [], [], []
    for i in range(n):
        t = time.perf_counter()
        signals.brief_made(f"app-{i}", privacy.release(memories, CLOUD), template="diary", domain="food", ledger=ledger)
        make.append(time.perf_counter() - t)
        t = time.perf_counter()
        signals.answer_given(memories[:5], CLOUD, ledger=ledger)
        chat.append(time.perf_counter() - t)
    raw = sqlite3.connect(home / "floor.db", isolation_level=None)
    raw.execute("PRAGMA journal_mode=WAL")
    raw.execute("PRAGMA synchronous=NORMAL")
    raw.execute("CREATE TABLE t (a TEXT, b TEXT)")
    for _ in range(n):
        t = time.perf_counter()
        raw.execute("INSERT INTO t VALUES (?, ?)", ("x", "y"))
        floor.append(time.perf_counter() - t)
    print(f"record a make brief (8 memories):   {ms(make)}")
    print(f"record a chat answer (5 memories):  {ms(chat)}")
    print(f"baseline: one bare SQLite insert:   {ms(floor)}")


def bench_why(home: Path, events: int) -> None:
    path = home / "big" / "ledger.db"
    path.parent.mkdir()
    Ledger.open(path.parent).close()
    db = sqlite3.connect(path, isolation_level=None)
    rng = random.Random(7)
    t0 = time.perf_counter()
    db.execute("BEGIN")
    event_rows, link_rows, send_rows = [], [], []
    memory_ids = [f"m_{i:06d}" for i in range(20000)]
    for i in range(1, events + 1):
        kind = rng.choice(("request", "answer", "run", "rate", "checkpoint"))
        subject = node("answer" if kind in ("request", "answer") else "app", f"x{i // 3}")
        data = json.dumps(
            {"endpoint": "https://api.anthropic.com", "purpose": "chat", "cloud": True} if kind == "request" else {}
        )
        event_rows.append((i, "2026-12-02T10:00:00+00:00", kind, subject, None, data))
        if kind == "request":
            for m in rng.sample(memory_ids, 3):
                link_rows.append((node("memory", m), subject, i))
                send_rows.append((i, m, "https://api.anthropic.com", 1, "personal"))
    db.executemany("INSERT INTO events(id, time, kind, subject, value, data) VALUES (?, ?, ?, ?, ?, ?)", event_rows)
    db.executemany("INSERT INTO links(src, dst, event_id) VALUES (?, ?, ?)", link_rows)
    db.executemany("INSERT INTO sends(event_id, memory_id, endpoint, cloud, privacy) VALUES (?, ?, ?, ?, ?)", send_rows)
    db.execute("COMMIT")
    db.close()
    print(f"built {events:,} events in {time.perf_counter() - t0:.1f} s ({os.path.getsize(path) / 1e6:.0f} MB)")
    ledger = Ledger.open(path.parent)
    signals.brief_made(
        "tea-log",
        privacy.release([Memory(text="t", id=memory_ids[0])], CLOUD),
        template="habit-tracker",
        domain="food",
        ledger=ledger,
    )
    for target in (memory_ids[0], "tea-log", "last"):
        samples = []
        for _ in range(20):
            t = time.perf_counter()
            explain(target, ledger)
            samples.append(time.perf_counter() - t)
        print(f"why {target:<10} at {events:,} events: {ms(samples)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench_recording(Path(tmp))
        bench_why(Path(tmp), args.events)


if __name__ == "__main__":
    main()
