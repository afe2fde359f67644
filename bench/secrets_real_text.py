"""False alarms of the secret detector on real conversation text: every non-blank line of a
real ChatGPT export and of LoCoMo's dev conversations, each line redacted alone; a line is a
false alarm when anything in it is flagged (neither set holds a real secret: every flag was
read by hand), and each is printed so a person can judge it.

The export is public: github.com/pkuppens/my_chat_gpt (MIT), history_download/
conversations.json at commit 2e8130d (192 conversations, code and prose, user and
assistant). Not shipped here; fetch it once:

    git clone https://github.com/pkuppens/my_chat_gpt /tmp/my_chat_gpt
    python3 bench/secrets_real_text.py --export /tmp/my_chat_gpt/history_download/conversations.json
    python3 bench/secrets_real_text.py --export … --repo /tmp/old   # the detector of another checkout

Measured (issue 54): the detector at 73be1a7 flagged 63 of 21,968 lines (2.9 per 1,000:
headings, code that names a secret, tutorials' stand-ins); after secrets/innocent.py, 0.
The rules were written from those 63 flags, so this is a development figure, not an outside
check; LoCoMo's 3,437 lines had no flag before or after. The corpora of secrets are
unchanged (bench/secrets_eval.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LOCOMO = REPO.parent / "shared" / "data" / "locomo-dev.json"


def export_lines(path: Path) -> list[str]:
    lines = []
    for conversation in json.loads(path.read_text(encoding="utf-8")):
        for node in conversation["mapping"].values():
            message = node.get("message") or {}
            for part in (message.get("content") or {}).get("parts") or []:
                if isinstance(part, str):
                    lines += [line for line in part.splitlines() if line.strip()]
    return lines


def locomo_lines(path: Path) -> list[str]:
    lines = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        for session in sample["conversation"].values():
            if isinstance(session, list):
                lines += [line for turn in session for line in turn.get("text", "").splitlines() if line.strip()]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--export", type=Path, required=True, help="a ChatGPT conversations.json")
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose detector is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.repo))
    from macaron_cli.memory.redact import redact

    sets = {"chatgpt export": export_lines(args.export)}
    if args.locomo.exists():
        sets["locomo dev"] = locomo_lines(args.locomo)
    total = flagged = 0
    for name, lines in sets.items():
        alarms = [(line, redact(line)) for line in lines]
        alarms = [(line, out) for line, (out, kinds) in alarms if kinds]
        total, flagged = total + len(lines), flagged + len(alarms)
        rate = 1000 * len(alarms) / len(lines)
        print(f"{name:16} {len(alarms):4} flagged of {len(lines):6} lines ({rate:.2f} per 1,000)")
        for line, out in alarms:
            print(f"   {line.strip()[:110]!r}\n   → {out.strip()[:110]!r}")
    print(f"{'all':16} {flagged:4} flagged of {total:6} lines ({1000 * flagged / total:.2f} per 1,000)")


if __name__ == "__main__":
    main()
