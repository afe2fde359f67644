"""Redaction against detect-secrets on the hand-written corpus (tests/fixtures/secrets_corpus.jsonl).

Prints, for each: positives fully caught (every secret part gone / flagged), negatives left
alone (nothing flagged), and the misses. detect-secrets runs as its CLI scans a file: every
default plugin, its default filters and entropy limits (`pip install detect-secrets`).

    python3 bench/secrets_eval.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
CORPUS = REPO / "tests" / "fixtures" / "secrets_corpus.jsonl"


def ours(text: str) -> tuple[str, bool]:
    """The redacted text, and whether anything was found."""
    from macaron_cli.memory.redact import redact

    out, found = redact(text)
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


def main() -> None:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    positives = [r for r in rows if r["secret"]]
    negatives = [r for r in rows if not r["secret"]]
    score = {
        "macaron": {"caught": 0, "false_alarms": 0, "missed": [], "flagged": []},
        "detect-secrets": {"caught": 0, "false_alarms": 0, "missed": [], "flagged": []},
    }
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            text = r["text"]
            out, changed = ours(text)
            ok = all(s not in out for s in r["secret"]) and all(k in out for k in r["keep"])
            values = detect_secrets_values(text, Path(tmp))
            ds_ok = all(any(s in v or (v in s and len(v) >= max(4, len(s) // 2)) for v in values) for s in r["secret"])
            if r["secret"]:
                ds_keep = all(not any(v and v in k.split() for v in values) for k in r["keep"])
            else:
                ds_keep = not values
            for name, good, flagged in (("macaron", ok, changed), ("detect-secrets", ds_ok and ds_keep, bool(values))):
                s = score[name]
                if r["secret"]:
                    s["caught"] += good
                    if not good:
                        s["missed"].append(text)
                elif flagged:
                    s["false_alarms"] += 1
                    s["flagged"].append(text)
    print(f"corpus: {len(positives)} texts with secrets, {len(negatives)} without")
    for name, s in score.items():
        print(f"{name:15s} caught {s['caught']}/{len(positives)}  false alarms {s['false_alarms']}/{len(negatives)}")
        for t in s["missed"]:
            print(f"   missed: {t!r}")
        for t in s["flagged"]:
            print(f"   flagged: {t!r}")


if __name__ == "__main__":
    main()
