"""The order a person sees: every question of bench/recall-dev.json and bench/broader-dev.json,
searched by words and by words and meaning, finds the memories recorded in tests/support/ranked-dev.json, in
that order. A change meant to rank alike (a refactor) keeps them; a change meant to rank
otherwise records them again, and its bench figures say whether it is better:

    python3 tests/test_memory_ranked.py --update
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = (REPO / "bench" / "recall-dev.json", REPO / "bench" / "broader-dev.json")
RECORDED = REPO / "tests" / "support" / "ranked-dev.json"
K = 5


def ranked(tmp: Path) -> dict[str, list[str]]:
    """{"words:QUESTION" or "hybrid:QUESTION": the ids of its first K hits}, with the
    embeddings setting as the environment has it for hybrid and off for words."""
    from macaron_cli.memory import MemoryStore

    found: dict[str, list[str]] = {}
    for run, setting in (("words", "off"), ("hybrid", None)):
        if setting:
            os.environ["MACARON_EMBEDDINGS"] = setting
        else:
            os.environ.pop("MACARON_EMBEDDINGS", None)
        for path in DATA:
            data = json.loads(path.read_text(encoding="utf-8"))
            histories: dict[str, list[dict]] = {}
            for memory in data["memories"]:
                histories.setdefault(memory["language"], []).append(memory)
            for language, history in histories.items():
                store = MemoryStore.open(tmp / f"{run}-{path.stem}-{language}")
                store.add_many(dict(m) for m in history)
                for q in (q for q in data["queries"] if q["language"] == language):
                    now = datetime.fromisoformat(q["now"])
                    hits = store.search(q["query"], k=K, now=now)
                    found[f"{run}:{path.stem}:{q['id']}"] = [hit.memory.id for hit in hits]
    return found


@pytest.mark.embeddings
def test_every_question_ranks_as_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv("MACARON_HOME", str(tmp_path / "home"))  # default settings (λ)
    monkeypatch.delenv("MACARON_EMBEDDINGS", raising=False)
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    found = ranked(tmp_path)
    changed = {key: (recorded.get(key), ids) for key, ids in found.items() if recorded.get(key) != ids}
    assert not changed, f"{len(changed)} questions rank otherwise (recorded, now): {changed}"
    assert set(found) == set(recorded)


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MACARON_HOME"] = str(Path(tmp) / "home")
        RECORDED.write_text(json.dumps(ranked(Path(tmp)), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {RECORDED.relative_to(REPO)}")
