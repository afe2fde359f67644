"""Is everything a sentence says read? The reading-kinds corpus (bench/data/reading-kinds.json,
issue 51) through read_idea, judged kind by kind.

    python3 bench/reading_kinds.py            # figures, then every row with something unread
    python3 bench/reading_kinds.py --quiet    # figures only
    python3 bench/reading_kinds.py --tuned    # figures, and the unread rows one may tune on

Each row is read as a make reads an idea and a change reads its request: read_idea() (with the
corpus's `today`, so dates without a year land on one day). A change row is asked too which
change it is (add, remove, rename, set: the change rules' own words) and whom it names (the
change rules' people_named). A row is "everything read"
when every expectation holds: each thing listed in `listed`, each person in `people`, no name
taken for a thing nor a thing for a name, each number with its unit where one is expected,
the goal, target, budget or rate with its period, the pair in the order said, each date with its
kind of day. The figures come per kind and per language, ideas and changes apart, the
untuned third (never looked at while tuning) apart from the rest.

First run (bench/reading_kinds-first-run.txt), on the rules before this work (d8513a1): all
79/200 read whole; ideas tuned 44/107, untuned 20/53; changes tuned 10/27, untuned 5/13; by
kind: lists 7/25, scale numbers 20/25, units 23/25, pairs 0/25 and dates 0/25 (no slot held
them), rates 2/25, periods 13/25, names 14/25.

After reading by kind (bench/reading_kinds-final-run.txt: lists in five languages with their
glued edges, scale words, pairs in order, a rate beside a target, a count with its period, each
date with its name, names in lists with me): all 184/200; ideas tuned 106/107 (each language
95% or more), untuned 45/53 (en 8/10, ja 10/11, ko 8/11, zh 9/10, tl 10/11); changes tuned
26/27, untuned 7/13. The untuned misses are the report of what reading by kind still lacks.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "bench" / "data" / "reading-kinds.json"
LANGS = ("en", "ja", "ko", "zh", "tl")


def _fold(word: object) -> str:
    return str(word).casefold().strip()


def _same_number(said: float, expected: float) -> bool:
    return abs(said - expected) < 1e-6


def _amount_is(amount: object, expected: list) -> bool:
    """An Amount with the expected value, and the expected unit where one is expected."""
    if amount is None:
        return False
    value, unit = expected
    return _same_number(amount.value, value) and (unit is None or amount.unit == unit)  # type: ignore[attr-defined]


def _day_is(name: str, expected: str) -> bool:
    from macaron_cli.reading.slots import event_kind

    return event_kind(name) == expected or expected in _fold(name)


def _action(text: str) -> str | None:
    """Which change the request asks, by the change rules' own words."""
    from macaron_cli import lang

    for action in ("remove", "rename", "add", "set"):
        if re.search(lang.pattern(f"change.{action}"), text, re.IGNORECASE):
            return action
    return None


def checks(row: dict, today: date) -> list[tuple[str, bool]]:
    """Each expectation of a row, and whether the reading holds it."""
    from macaron_cli.reading.idea import read_idea

    said = read_idea(row["text"], today).said
    expect = row["expect"]
    people = {_fold(p) for p in said.people}
    if row["type"] == "change":  # a change names people its own way too ("add Jake", "지호 추가")
        from macaron_cli.reading.change_people import people_named

        people |= {_fold(p) for p in people_named(row["text"], said)}
    listed = {_fold(t) for t in said.listed}
    out: list[tuple[str, bool]] = []
    out += [(f"listed {t}", _fold(t) in listed) for t in expect.get("listed", [])]
    out += [(f"person {p}", _fold(p) in people) for p in expect.get("people", [])]
    out += [(f"not a person {p}", _fold(p) not in people) for p in expect.get("not_people", [])]
    out += [(f"not a thing {p}", _fold(p) not in listed) for p in expect.get("not_listed", [])]
    for key, pool in (("money", said.money), ("amounts", said.amounts)):
        out += [(f"{key} {e}", any(_amount_is(a, e) for a in pool)) for e in expect.get(key, [])]
    for key in ("goal", "target", "budget", "rate"):
        if key in expect:
            out.append((f"{key} {expect[key]}", _amount_is(getattr(said, key, None), expect[key])))
    for key in ("period", "currency"):
        if key in expect:
            out.append((f"{key} {expect[key]}", getattr(said, key) == expect[key]))
    out += [(f"unit {u}", u in said.units) for u in expect.get("units", [])]
    out += [(f"refused {u}", u in said.refused) for u in expect.get("refused", [])]
    if "pair" in expect:
        pair = getattr(said, "pair", ())
        values = [a.value for a in pair]
        out.append((f"pair {expect['pair']}", len(values) == 2 and all(map(_same_number, values, expect["pair"]))))
    if "dates" in expect:
        dates = getattr(said, "dates", ())
        for kind, day in expect["dates"]:
            out.append((f"date {kind} {day}", any(d == day and _day_is(n, kind) for n, d in dates)))
    if "action" in expect:
        out.append((f"action {expect['action']}", _action(row["text"]) == expect["action"]))
    return out


def _ratio(rows: list[dict]) -> str:
    done = sum(r["read"] for r in rows)
    return f"{done}/{len(rows)} = {100 * done // len(rows)}%" if rows else "-"


def kinds_table(rows: list[dict], key: str, after: Callable[[list[dict]], list[str]]) -> list[str]:
    """A line per kind: the rows that hold `key` of each language's, then `after`'s cells."""
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
    heads = ["all", "untuned"][: len(after(rows))]
    lines = [f"{'kind':8} " + " ".join(f"{code:>8}" for code in LANGS) + "".join(f" {h:>14}" for h in heads)]
    for kind, mine in by_kind.items():
        cells = [
            f"{sum(bool(r[key]) for r in mine if r['lang'] == c)}/{sum(r['lang'] == c for r in mine)}" for c in LANGS
        ]
        lines.append(f"{kind:8} " + " ".join(f"{c:>8}" for c in cells) + "".join(f" {c:>14}" for c in after(mine)))
    return lines


def report(rows: list[dict]) -> str:
    lines = ["everything read, per language (ideas | changes), tuned two thirds and untuned third apart", ""]
    lines.append(f"{'lang':6} {'ideas tuned':>15} {'ideas untuned':>15} {'changes tuned':>15} {'changes untuned':>16}")
    for code in (*LANGS, "all"):
        mine = [r for r in rows if code in ("all", r["lang"])]
        cells = [
            _ratio([r for r in mine if r["type"] == kind and r["split"] == split])
            for kind in ("idea", "change")
            for split in ("tuned", "untuned")
        ]
        lines.append(f"{code:6} {cells[0]:>15} {cells[1]:>15} {cells[2]:>15} {cells[3]:>16}")
    lines += ["", "everything read, per kind and language (ideas and changes, both splits)", ""]
    lines += kinds_table(rows, "read", lambda mine: [_ratio(mine)])
    lines += ["", f"all rows: {_ratio(rows)}; untuned: {_ratio([r for r in rows if r['split'] == 'untuned'])}"]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="figures only")
    parser.add_argument("--tuned", action="store_true", help="list the unread rows of the tuned two thirds only")
    args = parser.parse_args()
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    today = date.fromisoformat(corpus["today"])
    rows = []
    for row in corpus["rows"]:
        result = checks(row, today)
        rows.append({**row, "read": all(ok for _, ok in result), "unread": [what for what, ok in result if not ok]})
    print(report(rows))
    if not args.quiet:
        print("\nrows with something unread:")
        for r in rows:
            if not r["read"] and not (args.tuned and r["split"] == "untuned"):
                print(f"  {r['id']:16} {r['split']:8} {r['text']}  -> unread: {'; '.join(r['unread'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
