"""How long from pressing Enter to the first streamed token in `macaron chat`, and what memory adds.

Runs the friend's real turn path (recall with query expansion over a 10k-memory LanceDB
store, the stale check, the request with recalled memories, background extraction of
the previous turn competing for the CPU) against the scripted model server, and compares
it in the same run with the same turn with memory work disabled (no recall, no
extraction: the bare request). Turns alternate between the two so machine load hits
both alike.

    python3 bench/chat_latency.py [--memories 10000] [--turns 30] [--apps 20]
    MACARON_EMBEDDINGS=off python3 bench/chat_latency.py    (full-text only)

With --apps N, the person also has N apps (habit trackers with records): every turn keeps
their digests' memories up to date first (the friend's real path; an unchanged app costs
a few `stat` calls), and the first turn runs every digest in the sandbox (shown apart).

Each turn with memory is split by stage (keeping the apps' digests current, the recall
search and, within it, the searches by meaning, the person's own records held back from
the model, looked up beside the recall, and the request until its first token), so a
slower turn says where it went; `--profile` adds the functions that took the time
(cProfile, the chat's main thread only).

Target: memory adds at most 150 ms (median) to the time to first token.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_MS = 150
TOPICS = {
    "food": ["ramen", "peanuts", "sushi", "pasta", "coffee", "tea", "tacos", "curry", "salad", "cake"],
    "fitness": ["running", "swimming", "yoga", "cycling", "the gym", "hiking", "tennis", "climbing"],
    "travel": ["Kyoto", "Lisbon", "Seoul", "Manila", "Berlin", "Oaxaca", "Hanoi", "Reykjavik"],
    "family": ["my sister", "my dad", "Mia", "my cousin", "grandma", "my partner", "the kids"],
    "work": ["the quarterly report", "my manager", "the launch", "standup", "the new client"],
    "hobby": ["the cello", "watercolours", "chess", "gardening", "photography", "knitting"],
}
VERBS = [
    "loves",
    "is trying",
    "talked about",
    "wants to plan",
    "worries about",
    "enjoys",
    "is learning about",
    "had dinner with",
    "went on a trip with",
    "bought a gift for",
]
QUESTIONS = [
    "Any ideas for dinner tonight?",
    "How should I train for my next race?",
    "What should I pack for the trip?",
    "What could I get my sister for her birthday?",
    "I'm stressed about work, any advice?",
    "Suggest a weekend hobby plan",
    "Can you suggest a snack for my hike?",
    "What was I learning on the cello?",
]


def synthetic_memories(n: int, seed: int = 7):
    rng = random.Random(seed)
    domains = list(TOPICS)
    for i in range(n):
        domain = rng.choice(domains)
        thing = rng.choice(TOPICS[domain])
        yield {
            "text": f"{rng.choice(VERBS).capitalize()} {thing}, about {domain} (note {i})",
            "domain": domain,
            "kind": rng.choice(["fact", "preference", "episode"]),
            "source": "import",
            "privacy": rng.choice(["public", "personal", "personal", "private"]),
        }


def make_apps(count: int, root: Path) -> None:
    """`count` habit trackers with a week of records each, in the app registry."""
    from macaron_cli.apps import register
    from tests.support.app_records import DAY, bulk_load, make_template_app

    for n in range(count):
        app = make_template_app("habit-tracker", root / f"tracker-{n}")
        bulk_load(app, "habit-tracker", 50, ["2026-11-30", "2026-12-01", "2026-12-02", DAY])
        register(
            app.name, path=str(app), idea=f"tracker {n}", template="habit-tracker", created_at=f"2026-12-01T{n:02}"
        )


class Stages:
    """Wall time of the stages of a turn, on the chat's threads (the extraction thread's calls
    of the same functions are its own business)."""

    def __init__(self) -> None:
        self.turn: dict[str, float] = defaultdict(float)
        self.turns: list[dict[str, float]] = []

    def wrap(self, owner, name: str, stage: str) -> None:
        """Time every call of `owner.name` as `stage`, but the extraction thread's (a missing
        one: nothing)."""
        fn = getattr(owner, name, None)
        if fn is None:
            return

        def timed(*args, **kwargs):
            if threading.current_thread().name == EXTRACTION_THREAD:
                return fn(*args, **kwargs)
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.turn[stage] += (time.perf_counter() - t0) * 1000

        setattr(owner, name, timed)

    def end_turn(self, total_ms: float) -> None:
        self.turn["total"] = total_ms
        self.turns.append(dict(self.turn))
        self.turn.clear()

    def report(self) -> list[str]:
        names = [n for n in STAGES if any(n in t for t in self.turns)]
        return [
            f"  {label:<48} p50 {statistics.median(t.get(n, 0.0) for t in self.turns):6.1f} ms"
            for n, label in STAGES.items()
            if n in names
        ]


EXTRACTION_THREAD = "macaron-extract"  # friend/extract.py's worker: learning, behind the chat
# The stages of a turn with memory, in the order they run (a name: its line in the output).
STAGES = {
    "apps": "keeping the apps' digests current",
    "recall": "recall (the search for the turn)",
    "meaning": "  of which searching by meaning (all lookups)",
    "own": "the person's own records (beside the recall)",
    "request": "the request, until its first token",
    "total": "the turn, until its first token",
}


def staged(conv) -> Stages:
    """A Stages that times `conv`'s turn path (the functions it calls, by the names it uses)."""
    from macaron_cli.friend import conversation
    from macaron_cli.memory import candidates

    stages = Stages()
    stages.wrap(conv.apps, "refresh", "apps")
    stages.wrap(conversation, "recall", "recall")
    stages.wrap(candidates, "nearest", "meaning")
    stages.wrap(conversation, "own_records", "own")  # absent before the person's records were shown
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--apps", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print where the turns with memory spent their time")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="macaron-bench-chat-"))
    os.environ["MACARON_HOME"] = str(home)
    from macaron_cli import privacy
    from macaron_cli.config import Settings
    from macaron_cli.friend.conversation import GUIDE, Conversation
    from macaron_cli.friend.persona import Persona
    from macaron_cli.friend.recall import RecallRecord
    from macaron_cli.memory import MemoryStore
    from macaron_cli.models.chat import AnthropicWireModel
    from tests.support.model_server import ModelServer, Reply

    started = time.perf_counter()
    store = MemoryStore.open()
    store.add_many(synthetic_memories(args.memories))
    if args.apps:
        make_apps(args.apps, home / "apps")
    print(
        f"store: {store.count()} memories written in {time.perf_counter() - started:.1f}s; "
        f"vectors {'on' if store.vectors else 'off (MACARON_EMBEDDINGS=off or the extra is not installed)'}"
    )

    def respond(req):
        if "You extract memories" in req.system:
            return Reply.text('{"memories": [{"text": "Mentioned a plan", "kind": "fact"}]}')
        return Reply.text("Here is a thought for you. " * 4)

    with ModelServer(respond) as server:
        model = AnthropicWireModel("claude", server.url, "bench", "k", None, privacy.claude(Settings(), server.url))
        persona = Persona()
        conv = Conversation(store, model, persona)

        started = time.perf_counter()
        conv.recall_for("warm up the index")
        first_search_ms = (time.perf_counter() - started) * 1000

        stages = staged(conv)
        profile = cProfile.Profile() if args.profile else None

        def with_memory(text: str) -> float:
            t0 = time.perf_counter()
            if profile:
                profile.enable()
            record = conv.recall_for(text)
            conv.stale_memory(record)
            asked = time.perf_counter()
            stream = conv.reply(text, record)
            next(stream)
            elapsed = time.perf_counter() - t0
            if profile:
                profile.disable()
            stages.turn["request"] += (time.perf_counter() - asked) * 1000
            stages.end_turn(elapsed * 1000)
            for _ in stream:
                pass
            return elapsed

        def without_memory(text: str) -> float:
            t0 = time.perf_counter()
            record = RecallRecord(text, model.destination, privacy.nothing(model.destination))
            stream = model.stream(f"{persona.voice()}\n{GUIDE}", [{"role": "user", "content": text}])
            next(stream)
            elapsed = time.perf_counter() - t0
            for _ in stream:
                pass
            del record
            return elapsed

        with_ms, without_ms, recalled = [], [], []
        for n in range(args.turns):
            text = QUESTIONS[n % len(QUESTIONS)]
            order = (with_memory, without_memory) if n % 2 == 0 else (without_memory, with_memory)
            for fn in order:
                seconds = fn(text)
                (with_ms if fn is with_memory else without_ms).append(seconds * 1000)
            recalled.append(len(conv.last.hits))
        conv.extractor.drain()
        learned = len(conv.extractor.saved)
        apps_ms = []
        for _ in range(args.turns):
            t0 = time.perf_counter()
            conv.apps.refresh()
            apps_ms.append((time.perf_counter() - t0) * 1000)

    def p(values, q):
        return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]

    added = statistics.median(with_ms) - statistics.median(without_ms)
    print(
        f"turns: {args.turns} each way; memories recalled per turn: {statistics.mean(recalled):.1f}; "
        f"learned in the background meanwhile: {learned}"
    )
    cold = f"cold, {args.apps} digests run in the sandbox" if args.apps else "cold"
    print(f"first recall of the session ({cold}): {first_search_ms:.0f} ms")
    if args.apps:
        print(f"of which keeping {args.apps} apps' digests current, per turn: p50 {statistics.median(apps_ms):.1f} ms")
    print(
        f"time to first token, memory work disabled: p50 {statistics.median(without_ms):.0f} ms, "
        f"p95 {p(without_ms, 95):.0f} ms"
    )
    print(
        f"time to first token, with memory:          p50 {statistics.median(with_ms):.0f} ms, "
        f"p95 {p(with_ms, 95):.0f} ms"
    )
    print(f"memory adds (p50): {added:.0f} ms  (target ≤ {TARGET_MS} ms: {'met' if added <= TARGET_MS else 'NOT met'})")
    print("the turn with memory by stage (each stage's own median; they need not add up):")
    print("\n".join(stages.report()))
    if profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats("macaron_cli", 30)
        print(out.getvalue())


if __name__ == "__main__":
    main()
