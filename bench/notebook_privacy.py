"""What `macaron chat` keeps, and how privately, when no model is connected (notebook mode).

Feeds bench/notebook_corpus.py's lines through the real notebook path (a Conversation with
no model: recall, the answer, the extractor that keeps notes, the episode at the session's
end), each group in a fresh MACARON_HOME, in sessions of a few lines, and prints:

  private said   kept (a memory holds it) and private, with every memory quoting it
  sensitive      the same, for health, money and relationships in crisis
  facts found    the fact kept from a line is in the top 3 for its question (same language)
  facts private  a plain fact kept private (wrongly: a model could not use it)
  requests kept  a request to make or change an app kept as a fact about the person

Held-out lines (every third) are counted apart, and so are the FRESH lines (written after
the rules, never tuned on). `episode whole` is every line typed held whole by an episode
(never cut, never dropped).

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
    _episodes_hold(lines, everything)
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


_NOT_WHOLE: list[str] = []  # lines typed that no episode holds whole


def _episodes_hold(lines: list[str], memories: list) -> None:
    episodes = [m.text for m in memories if m.kind == "episode"]
    _NOT_WHOLE.extend(line for line in lines if not any(line.strip() in e for e in episodes))


def _facts(facts: list[tuple[str, str, str]]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(line, why) for facts not found in the top 3 by their question; and those kept private."""
    from macaron_cli import privacy
    from macaron_cli.friend.recall import recall

    store, learned = _chat([line for line, _q, _l in facts])
    by_id = {m.id: m for m in store.iter_all()}
    _episodes_hold([line for line, _q, _l in facts], list(by_id.values()))
    missed, private = [], []
    for line, question, _language in facts:
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


def _requests(requests: list[tuple[str, str]]) -> list[tuple[str, str]]:
    store, learned = _chat([line for line, _l in requests])
    by_id = {m.id: m for m in store.iter_all()}
    return [
        (line, by_id[i].text)
        for line, _l in requests
        for i in learned.get(line, [])
        if i in by_id and by_id[i].kind in ("fact", "preference")
    ]


def _figure(
    name: str, lines: list[str], wrong: list[tuple[str, str]], fresh: list[str], good_when_wrong: bool = False
) -> None:
    bad = {line for line, _ in wrong}
    for part, mine in (
        ("tuned", [line for i, line in enumerate(lines) if not corpus.held_out(i)]),
        ("held-out", [line for i, line in enumerate(lines) if corpus.held_out(i)]),
        ("fresh", fresh),
    ):
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
    fresh_private = [line for line, _ in corpus.FRESH_PRIVATE_SAID]
    fresh_sensitive = [line for line, _ in corpus.FRESH_SENSITIVE]
    fresh_facts = [line for line, _q, _l in corpus.FRESH_FACTS]
    fresh_requests = [line for line, _ in corpus.FRESH_REQUESTS]
    private_wrong = _kept_private(private_lines + fresh_private)
    sensitive_wrong = _kept_private(sensitive_lines + fresh_sensitive)
    missed, wrongly_private = _facts(corpus.FACTS)
    fresh_missed, fresh_private_facts = _facts(corpus.FRESH_FACTS)
    missed, wrongly_private = missed + fresh_missed, wrongly_private + fresh_private_facts
    requests_kept = _requests(corpus.REQUESTS + corpus.FRESH_REQUESTS)
    typed = private_lines + fresh_private + sensitive_lines + fresh_sensitive + fact_lines + fresh_facts

    print("notebook mode (no model), figures by group:")
    _figure("private said", private_lines, private_wrong, fresh_private)
    _figure("sensitive", sensitive_lines, sensitive_wrong, fresh_sensitive)
    _figure("facts found", fact_lines, missed, fresh_facts)
    _figure("facts private", fact_lines, wrongly_private, fresh_facts, good_when_wrong=True)
    _figure("requests kept", request_lines, requests_kept, fresh_requests, good_when_wrong=True)
    _figure("episode whole", typed, [(line, "") for line in _NOT_WHOLE], [])
    for title, wrong in (("lines no episode holds whole", [(line, "cut or dropped") for line in _NOT_WHOLE]),):
        if wrong:
            print(f"\n{title}:")
            for line, why in wrong:
                print(f"  {line}  → {why}")
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
