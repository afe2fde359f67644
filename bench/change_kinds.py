"""Is a change DONE, kind by kind? Every change request of bench/data/change-kinds.json and the
change rows of bench/data/reading-kinds.json, on the app it changes, through the rules offline.

    python3 bench/change_kinds.py                    # figures, then every row not done with why
    python3 bench/change_kinds.py --quiet            # figures only
    python3 bench/change_kinds.py --kinds list,names # only these kinds
    python3 bench/change_kinds.py --tuned            # the rows not done that one may tune on

Each row's `app` is made as `macaron make --offline` makes it (bench/change_corpus.made: the
idea read once, the template chosen on its spec, the config fitted), in the row's language; the
request is then read and applied as `macaron change --offline` does (change_rules.understand,
change_plan.rendered: the spec after, fitted onto the template's config). No Chromium, no git:
the rules only. A row is judged twice:
- read right: the request's Reading holds `expect` (bench/reading_kinds.checks, the same
  checks; `removed`: the request asks a removal, by the change rules' own words);
- done: the changed app holds `done`. `shows`: each word is shown (a string the new spec keeps,
  a unit's symbol, an event the countdown names); `keeps`: shown still; `gone`: shown no more;
  `figures`: each number is in the new spec or settings; `period`: a goal or repeat with it;
  `currency`: the app's; `events`: each [kind of day, date] among the countdown's events (the
  day compared by month and day: the change rules read a date with the real today, the
  corpus with its own). A refusal (nothing done) is not done; "already" (the app meets the
  request as it is, nothing refused) is done when the app as it was holds `done`.
The figures come per language and per kind, tuned and untuned apart (the untuned third is never
looked at while tuning), and the rows not done with why.

First run (bench/change_kinds-first-run.txt, the rules at b4b4cb7): 25/85 done; of the list,
names, dates and swap kinds 13/35 (list 0/10, names 4/10, dates 9/10, swap 0/5). After the list,
people, dates and swap rules (bench/change_kinds-final-run.txt): those kinds 33/35, the untuned
third of them 10/10; the number kinds are the change-numbers branch's to report.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from change_corpus import made  # noqa: E402  (the app an offline make writes)
from reading_kinds import LANGS, _day_is, _fold, _same_number, checks, kinds_table  # noqa: E402

CORPORA = (ROOT / "bench" / "data" / "change-kinds.json", ROOT / "bench" / "data" / "reading-kinds.json")
_NOT_SHOWN = frozenset({"key", "kind", "combine", "version", "free_entry", "step"})  # how, not what


def _strings(value: object, key: str = "") -> list[str]:
    """The words a spec holds that its page shows (names, categories, people, events…)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in _NOT_SHOWN for s in _strings(v, k)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, key)]
    return [value] if isinstance(value, str) else []


def _numbers(value: object) -> list[float]:
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return [float(value)] if isinstance(value, int | float) and not isinstance(value, bool) else []


def _events(config: dict, spec: dict) -> list[tuple[str, str]]:
    """The countdown's events, [name, day]: the one it counts to and those said beside it."""
    tasks = spec.get("tasks") or {}
    out = [(str(n), str(d)) for n, d in (config.get("said_events") or []) if n and d]
    for name, day in ((config.get("event"), config.get("day")), (tasks.get("event"), tasks.get("countdown"))):
        if name and day:
            out.append((str(name), str(day)))
    return out


def shown(spec: dict, config: dict) -> list[str]:
    """Every word the app shows of what it keeps (not its title: a title is no thing kept)."""
    from macaron_cli.resources import shared_module

    symbols = shared_module("app_units").SYMBOLS
    words = _strings(spec) + [name for name, _ in _events(config, spec)]
    units = [m.get("unit", "") for m in spec.get("measures", [])]
    return words + [symbols.get(u, u) for u in units]


def _holds(words: list[str], word: str) -> bool:
    """Is the word shown: a whole shown word, or inside one (a CJK word glued in a longer one)."""
    want = _fold(word)
    for said in map(_fold, words):
        if said == want or re.search(rf"(?<![^\W\d_]){re.escape(want)}(?![^\W\d_])", said):
            return True
        if not want.isascii() and want in said:
            return True
    return False


def _period_of(spec: dict, config: dict) -> set[str]:
    periods = {str(m.get("period")) for m in spec.get("measures", []) if m.get("period")}
    periods |= {str(v) for k, v in (spec.get("tasks") or {}).items() if k == "repeat" and v}
    periods |= {str(v) for k, v in (spec.get("money") or {}).items() if k == "period" and v}
    return periods | {str(config[k]) for k in ("period", "goal_period") if config.get(k)}


def done_checks(row: dict, spec: dict, config: dict, before: list[str]) -> list[tuple[str, bool]]:
    """Each thing the changed app must hold, and whether it does (`before`: the words the app
    showed before the change, to say when a kept word was never there)."""
    done, words = row["done"], shown(spec, config)
    out: list[tuple[str, bool]] = []
    out += [(f"shows {w}", _holds(words, w)) for w in done.get("shows", [])]
    for w in done.get("keeps", []):
        out.append((f"keeps {w}" + ("" if _holds(before, w) else " (never made)"), _holds(words, w)))
    out += [(f"gone {w}", not _holds(words, w)) for w in done.get("gone", [])]
    figures = _numbers(spec) + _numbers({k: v for k, v in config.items() if k not in ("habits",)})
    out += [(f"figure {n}", any(_same_number(f, n) for f in figures)) for n in done.get("figures", [])]
    if "period" in done:
        out.append((f"period {done['period']}", done["period"] in _period_of(spec, config)))
    if "currency" in done:
        currency = config.get("currency"), (spec.get("money") or {}).get("currency")
        out.append((f"currency {done['currency']}", done["currency"] in currency))
    events = _events(config, spec)
    for kind, day in done.get("events", []):
        ok = any(d[5:] == day[5:] and _day_is(n, kind) for n, d in events)
        out.append((f"event {kind} {day[5:]}", ok))
    return out


def read_checks(row: dict, today: date) -> list[tuple[str, bool]]:
    """bench/reading_kinds' checks, and `removed`: the request asks a removal, by the rules' words."""
    from macaron_cli import lang

    asks_removal = bool(re.search(lang.pattern("change.remove"), row["text"], re.IGNORECASE))
    return checks(row, today) + [(f"removed {w}", asks_removal) for w in row["expect"].get("removed", [])]


def judged(row: dict, today: date) -> dict:
    """The row made, changed and judged: read right, done, and why not."""
    from macaron_cli.maker.change_plan import rendered
    from macaron_cli.manifest import Manifest
    from macaron_cli.reading.change_rules import understand
    from macaron_cli.spec import spec_of

    manifest, config = made(row["app"], row["lang"])
    spec = spec_of(manifest)
    before = shown(manifest.get("spec", {}), config)
    read = read_checks(row, today)
    if spec is None:
        return {**row, "read": all(ok for _, ok in read), "done": False, "why": ["the app made has no spec"]}
    change = understand(row["text"], spec, config, Manifest.from_json(manifest))
    new_manifest, new_config = rendered(change)
    # "Already" (nothing to do, nothing refused): the app as it was is judged, so a request the
    # app already meets counts as done only when it really holds what was asked.
    held = not change.done and bool(change.already) and not change.missing
    if change.done:
        outcome = done_checks(row, dict(new_manifest.spec or {}), new_config, before)
    else:
        outcome = done_checks(row, dict(manifest.get("spec") or {}), config, before) if held else []
    why = [w for w, ok in outcome if not ok]
    if not change.done and not (held and not why):
        why = ["refused: " + "; ".join(change.missing or change.already or ("nothing read",)), *why]
    unread = [w for w, ok in read if not ok]
    return {
        **row,
        "template": manifest.get("template"),
        "read": not unread,
        "already": held and not why,
        "is_done": (bool(change.done) or held) and not why,
        "why": why + [f"unread {u}" for u in unread],
        "did": list(change.done),
    }


def _ratio(rows: list[dict], key: str) -> str:
    hits = sum(bool(r[key]) for r in rows)
    return f"{hits}/{len(rows)} = {100 * hits // len(rows)}%" if rows else "-"


def report(rows: list[dict]) -> str:
    lines = ["changes read right | done, per language, tuned and untuned apart", ""]
    heads = ("read tuned", "read untuned", "done tuned", "done untuned", "done all")
    lines.append(f"{'lang':6} " + " ".join(f"{h:>14}" for h in heads))
    for code in (*LANGS, "all"):
        mine = [r for r in rows if code in ("all", r["lang"])]
        cells = [
            _ratio([r for r in mine if r["split"] == split], key)
            for key in ("read", "is_done")
            for split in ("tuned", "untuned")
        ] + [_ratio(mine, "is_done")]
        lines.append(f"{code:6} " + " ".join(f"{c:>14}" for c in cells))
    lines += ["", "done, per kind and language (both splits), then all and the untuned third", ""]
    lines += kinds_table(
        rows,
        "is_done",
        lambda mine: [_ratio(mine, "is_done"), _ratio([r for r in mine if r["split"] == "untuned"], "is_done")],
    )
    already = sum(bool(r.get("already")) for r in rows)
    done = f"all rows done: {_ratio(rows, 'is_done')} ({already} of them already held)"
    lines += ["", f"{done}; read right: {_ratio(rows, 'read')}"]
    return "\n".join(lines)


def rows_of(kinds: set[str] | None) -> list[tuple[dict, date]]:
    out = []
    for path in CORPORA:
        corpus = json.loads(path.read_text(encoding="utf-8"))
        today = date.fromisoformat(corpus["today"])
        for row in corpus["rows"]:
            if row["type"] == "change" and (not kinds or row["kind"] in kinds):
                out.append((row, today))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="figures only")
    parser.add_argument("--tuned", action="store_true", help="list the rows not done of the tuned two thirds only")
    parser.add_argument("--kinds", default="", help="only these kinds, comma-separated (list,names,dates,swap…)")
    args = parser.parse_args()
    kinds = {k.strip() for k in args.kinds.split(",") if k.strip()} or None
    rows = [judged(row, today) for row, today in rows_of(kinds)]
    if not rows:
        print(f"no change rows of kinds {args.kinds}", file=sys.stderr)
        return 2
    print(report(rows))
    if not args.quiet:
        print("\n".join(["", "rows not done:", *not_done(rows, with_untuned=not args.tuned)]))
    return 0


def not_done(rows: list[dict], with_untuned: bool) -> list[str]:
    """Each row not done, with why (the untuned third left out while tuning)."""
    shown = [r for r in rows if not r["is_done"] and (with_untuned or r["split"] == "tuned")]
    return [f"  {r['id']:14} {r['split']:8} [{r['template']}] {r['text']}  -> {'; '.join(r['why'])}" for r in shown]


if __name__ == "__main__":
    sys.exit(main())
