"""What normalised matching (macaron_cli/quotes.py) costs over the exact byte search it replaced.

`forget` scrubs every text file under MACARON_HOME and each app's `.macaron/`, and `share`
and `feedback export` check every file against every memory that may not leave. This
times, on the same generated files in the same run:

- baseline: the old check, exact bytes (plain and both JSON escapings) `in` the file;
- miss: quotes.holds when the file lacks the quote's longest ASCII word (the cheap look);
- hit: quotes.holds when it must normalise the whole file (the quote is in it, escaped);
- cjk: quotes.holds for a Japanese quote (no ASCII word: always a full normalisation);
- scrub: quotes.scrub on a file that holds the quote (spans mapped a character at a time).

    python3 bench/quotes_scan.py [--mb 4] [--repeat 5] [--memories 10000]

It also times a forget's plan over a store's memories, with the quote search beside the
`derived_from` links alone.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from macaron_cli import quotes

QUOTE = "Kidney condition: drink 3 litres of water a day"
CJK = "腎臓の病気のため毎日3リットルの水を飲む"
WORDS = "the a water tracker goal bottle habit reminder morning evening note app day week".split()


def transcript(size: int, seed: int) -> str:
    """JSON lines like an agent's transcript, with some non-ASCII text, about `size` bytes."""
    rnd, lines, total = random.Random(seed), [], 0
    while total < size:
        said = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(5, 30)))
        if rnd.random() < 0.1:
            said += " 水を飲む café"
        line = json.dumps({"role": rnd.choice(["user", "assistant"]), "text": said}, ensure_ascii=rnd.random() < 0.5)
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def old_check(data: bytes, text: str) -> bool:
    needles = {text.encode(), json.dumps(text, ensure_ascii=False)[1:-1].encode(), json.dumps(text)[1:-1].encode()}
    return any(n in data for n in needles)


def timed(fn, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        runs.append(time.process_time() - start)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args()
    size = int(args.mb * 1_000_000)
    plain = transcript(size, 1)
    escaped = plain + "\n" + json.dumps({"text": html.escape(QUOTE.upper())}, ensure_ascii=True)
    data = plain.encode()
    rows = [
        ("baseline: exact bytes", timed(lambda: old_check(data, QUOTE), args.repeat), old_check(data, QUOTE)),
        ("miss: no ASCII anchor in file", timed(lambda: quotes.holds(plain, QUOTE), args.repeat), False),
        ("hit: normalise the whole file", timed(lambda: quotes.holds(escaped, QUOTE), args.repeat), True),
        ("cjk: no anchor, full pass", timed(lambda: quotes.holds(plain, CJK), args.repeat), False),
        ("scrub: map spans (a hit only)", timed(lambda: quotes.scrub(escaped, [QUOTE], "x"), args.repeat), True),
    ]
    print(f"file: {len(data) / 1e6:.1f} MB of JSON lines; CPU time, median of {args.repeat}")
    for name, seconds, found in rows:
        print(f"  {name:32s} {seconds * 1000:8.1f} ms  {len(data) / 1e6 / seconds:8.1f} MB/s  found={found}")
    print(f"exact-bytes check misses the escaped copy: found={old_check(escaped.encode(), QUOTE)}")
    forget_rows(args.memories, args.repeat)


def forget_rows(count: int, repeat: int) -> None:
    """What finding quotes adds to a forget's plan: every memory's text asked once."""
    from macaron_cli.memory import derived
    from macaron_cli.memory.records import Memory

    rnd = random.Random(2)
    memories = [Memory(text=" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(4, 25)))) for _ in range(count)]
    links = timed(lambda: [m for m in memories if derived.sources(m) & {"x"}], repeat)
    quoted = timed(lambda: derived.with_quotes(derived.ForgetPlan("x", ["x"], [QUOTE]), memories), repeat)
    print(f"forget plan over {count} memories: links only {links * 1000:.1f} ms, with quotes {quoted * 1000:.1f} ms")


if __name__ == "__main__":
    main()
