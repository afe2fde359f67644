"""What `macaron chat` keeps, and how privately, when no model is connected (notebook mode).

Feeds bench/notebook_corpus.py's lines through the real notebook path (a Conversation with
no model: recall, the answer, the extractor that keeps notes, the episode at the session's
end), each group in a fresh MACARON_HOME, in sessions of a few lines, and prints:

  private said   kept (a memory holds it) and private, with every memory quoting it
  sensitive      the same, for health, money and relationships in crisis
  facts found    the fact kept from a line is in the top 3 for its question (same language)
  facts private  a plain fact kept private (wrongly: a model could not use it)
  requests kept  a request to make or change an app kept as a fact about the person

Held-out lines (every third, never tuned on) are counted apart.

    python3 bench/notebook_privacy.py             # the figures, and each line that failed
    python3 bench/notebook_privacy.py --keywords  # search by words only (no embedding model)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import notebook_corpus as corpus  # noqa: E402

SESSION = 6  # lines typed in one chat before it ends (its episode is written then)


def _fresh_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="macaron-notebook-"))
    os.environ["MACARON_HOME"] = str(home / "home")
    os.environ["MACARON_APPS_DIR"] = str(home / "apps")
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "MACARON_MEMORY_URI"):
        os.environ.pop(name, None)
    return home


def _chat(lines: list[str]):
    """Every line typed into notebook chats (SESSION a chat); the store and what each line left."""
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.friend.persona import Persona
    from macaron_cli.memory import MemoryStore
    from macaron_cli.models.chat import NoModel

    _fresh_home()
    store = MemoryStore.open()
    learned: dict[str, list[str]] = {}
    for start in range(0, len(lines), SESSION):
        conv = Conversation(store, NoModel(), Persona())
        for line in lines[start : start + SESSION]:
            list(conv.reply(line, conv.recall_for(line)))
        conv.end()
        for line, ids in conv.extractor.learned_from.items():
            learned.setdefault(line, []).extend(ids)
    return store, learned


def _kept_private(lines: list[str]) -> list[tuple[str, str]]:
    """(line, what went wrong) for each line not kept private with all that quotes it."""
    from macaron_cli import privacy
    from macaron_cli.quotes import holds

    store, learned = _chat(lines)
    everything = list(store.iter_all())
    cloud = privacy.export("the bench's check")  # a cloud destination: what any model may see
    wrong = []
    for line in lines:
        kept = [m for m in everything if m.id in learned.get(line, [])]
        quoting = [m for m in everything if holds(m.text, line[:16])]
        if not kept:
            wrong.append((line, "not kept"))
        elif leaks := [m for m in [*kept, *quoting] if privacy.may_go(m, cloud)]:
            wrong.append((line, f"{leaks[0].kind} {leaks[0].privacy}: {leaks[0].text[:60]}"))
    return wrong


def _facts() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(line, why) for facts not found in the top 3 by their question; and those kept private."""
    from macaron_cli import privacy
    from macaron_cli.friend.recall import recall

    store, learned = _chat([line for line, _q, _l in corpus.FACTS])
    by_id = {m.id: m for m in store.iter_all()}
    missed, private = [], []
    for line, question, _language in corpus.FACTS:
        ids = [i for i in learned.get(line, []) if by_id.get(i) and by_id[i].kind in ("fact", "preference")]
        if not ids:
            missed.append((line, "not kept as a fact"))
            continue
        top = [h.memory.id for h in recall(store, question, privacy.person())][:3]
        if not set(ids) & set(top):
            missed.append((line, f"not in the top 3 for {question!r}"))
        if not privacy.may_go(by_id[ids[0]], privacy.export("the bench's check")):
            private.append((line, by_id[ids[0]].privacy))
    return missed, private


def _requests() -> list[tuple[str, str]]:
    store, learned = _chat([line for line, _l in corpus.REQUESTS])
    by_id = {m.id: m for m in store.iter_all()}
    return [
        (line, by_id[i].text)
        for line, _l in corpus.REQUESTS
        for i in learned.get(line, [])
        if i in by_id and by_id[i].kind in ("fact", "preference")
    ]


def _figure(name: str, lines: list[str], wrong: list[tuple[str, str]], good_when_wrong: bool = False) -> None:
    bad = {line for line, _ in wrong}
    for part, chosen in (("tuned", False), ("held-out", True)):
        mine = [line for i, line in enumerate(lines) if corpus.held_out(i) == chosen]
        n_bad = sum(1 for line in mine if line in bad)
        n = n_bad if good_when_wrong else len(mine) - n_bad
        print(f"  {name:<16} {part:<9} {n:>3}/{len(mine):<3} {100 * n / max(1, len(mine)):5.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keywords", action="store_true", help="search by words only (no embedding model)")
    args = parser.parse_args()
    if args.keywords:
        os.environ["MACARON_EMBEDDINGS"] = "off"

    private_lines = [line for line, _ in corpus.PRIVATE_SAID]
    sensitive_lines = [line for line, _ in corpus.SENSITIVE]
    fact_lines = [line for line, _q, _l in corpus.FACTS]
    request_lines = [line for line, _ in corpus.REQUESTS]
    private_wrong = _kept_private(private_lines)
    sensitive_wrong = _kept_private(sensitive_lines)
    missed, wrongly_private = _facts()
    requests_kept = _requests()

    print("notebook mode (no model), figures by group:")
    _figure("private said", private_lines, private_wrong)
    _figure("sensitive", sensitive_lines, sensitive_wrong)
    _figure("facts found", fact_lines, missed)
    _figure("facts private", fact_lines, wrongly_private, good_when_wrong=True)
    _figure("requests kept", request_lines, requests_kept, good_when_wrong=True)
    for title, wrong in (
        ("private said, not kept private", private_wrong),
        ("sensitive, not kept private", sensitive_wrong),
        ("facts not found", missed),
        ("facts kept private", wrongly_private),
        ("requests kept as facts", requests_kept),
    ):
        if wrong:
            print(f"\n{title}:")
            for line, why in wrong:
                print(f"  {line}  → {why}")


if __name__ == "__main__":
    main()
