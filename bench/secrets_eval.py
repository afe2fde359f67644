"""Secrets caught and look-alikes left alone, by category and language, for the detector
macaron ships (macaron_cli/memory/secrets/), the phrase table it replaced (read from
git at OLD_RULES) and detect-secrets' default plugins, in one run, on
bench/secrets_corpus.jsonl (written for this bench; not shipped, not the tests' corpus).

A secret row is caught when every secret part is gone from the redacted text and every
`keep` part is still there (detect-secrets, which only flags, when a flagged value covers
each secret part). A look-alike row is a false alarm when anything at all is flagged.

    python3 bench/secrets_eval.py            # tables and the misses
    python3 bench/secrets_eval.py --corpus bench/secrets_heldout.jsonl
    python3 bench/secrets_eval.py --corpus tests/fixtures/secrets_corpus.jsonl

secrets_heldout.jsonl was written after the detector and measured once before any change
for it: macaron caught 37 of 41 and flagged 1 of 30 look-alikes (the old rules 18 and
4, detect-secrets 3 and 0). It has been seen since; a new outside check needs new text.

secrets_outside.jsonl holds the shapes an outside check found missed (issue 38): keys after
"key=", cards in ideographic spaces or full-width digits, IBANs in lower case or dashes,
backup code lists, TOTP seeds, key words before high-entropy values in seven languages,
and 45 look-alikes (orders, dates, phones, tracking codes, words). Run before any rule
changed for it: caught 17 of 42, 0 false alarms of 45; after widths.py, codes.py, the IBAN
and "key" rules: 42 of 42, 0 of 45 (the other corpora unchanged: all caught, 0 alarms).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import types
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPUS = REPO / "bench" / "secrets_corpus.jsonl"
# The last commit whose redact.py was the phrase table (before memory/secrets/).
OLD_RULES = "393bdfb:macaron_cli/memory/redact.py"


def macaron(text: str) -> tuple[str, bool]:
    from macaron_cli.memory.redact import redact

    out, found = redact(text)
    return out, bool(found)


def _load_old_rules() -> types.ModuleType:
    source = subprocess.run(["git", "show", OLD_RULES], cwd=REPO, capture_output=True, text=True, check=True).stdout
    module = types.ModuleType("old_redact")
    exec(compile(source, OLD_RULES, "exec"), module.__dict__)
    return module


def old_rules(text: str) -> tuple[str, bool]:
    out, found = _OLD.redact(text)
    return out, bool(found)


def detect_secrets_values(text: str, folder: Path) -> list[str]:
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    path = folder / "memory.txt"
    path.write_text(text + "\n", encoding="utf-8")
    secrets = SecretsCollection()
    with default_settings():
        secrets.scan_file(str(path))
    return [s.secret_value or "" for _, s in secrets]


def _judge_redactor(redactor, row) -> tuple[bool, bool]:
    """(good, flagged): good = caught (a secret row) or left exactly alone (a look-alike)."""
    out, flagged = redactor(row["text"])
    if row["secret"]:
        return all(s not in out for s in row["secret"]) and all(k in out for k in row["keep"]), flagged
    return out == row["text"], flagged


def _judge_detect_secrets(values: list[str], row) -> tuple[bool, bool]:
    flagged = bool(values)
    if row["secret"]:
        return all(any(s in v for v in values) for s in row["secret"]), flagged
    return not flagged, flagged


_OLD: types.ModuleType


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--quiet", action="store_true", help="tables only, no list of misses")
    args = parser.parse_args()
    global _OLD
    _OLD = _load_old_rules()
    rows = [json.loads(line) for line in args.corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        import detect_secrets  # noqa: F401

        have_ds = True
    except ImportError:
        have_ds = False
    names = ["macaron", "old rules"] + (["detect-secrets"] if have_ds else [])
    # name → (group → [good, total]) for secrets and for look-alikes
    caught: dict[str, dict[str, list[int]]] = {n: defaultdict(lambda: [0, 0]) for n in names}
    alarms: dict[str, dict[str, list[int]]] = {n: defaultdict(lambda: [0, 0]) for n in names}
    misses: dict[str, list[str]] = {n: [] for n in names}
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            results = {"macaron": _judge_redactor(macaron, row), "old rules": _judge_redactor(old_rules, row)}
            if have_ds:
                results["detect-secrets"] = _judge_detect_secrets(detect_secrets_values(row["text"], Path(tmp)), row)
            groups = ["all", "cat:" + row.get("category", "?"), "lang:" + row.get("lang", "?")]
            for name, (good, flagged) in results.items():
                table = caught[name] if row["secret"] else alarms[name]
                for group in groups:
                    table[group][1] += 1
                    table[group][0] += good if row["secret"] else flagged
                if not good:
                    misses[name].append(("missed: " if row["secret"] else "flagged: ") + repr(row["text"][:100]))
    if not have_ds:
        print("(detect-secrets is not installed: `pip install detect-secrets` to compare with it)")
    positives = sum(1 for r in rows if r["secret"])
    print(f"corpus {args.corpus.name}: {positives} texts with secrets, {len(rows) - positives} look-alikes")
    for title, table in (("caught (higher is better)", caught), ("false alarms (lower is better)", alarms)):
        print(f"\n{title}")
        groups = sorted({g for n in names for g in table[n]}, key=lambda g: (g != "all", g))
        print(f"  {'':18s}" + "".join(f"{n:>18s}" for n in names))
        for group in groups:
            cells = []
            for n in names:
                good, total = table[n][group]
                cells.append(f"{good:>4d}/{total:<4d}{100 * good / total:5.1f}%" if total else "")
            print(f"  {group:18s}" + "".join(f"{c:>18s}" for c in cells))
    if not args.quiet:
        for name in names:
            print(f"\n{name}: {len(misses[name])} wrong")
            for line in misses[name]:
                print("   " + line)


if __name__ == "__main__":
    main()
