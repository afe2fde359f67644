"""The current truth by words alone (MACARON_EMBEDDINGS=off): an update that shares no word
with the question ("I moved to Tokyo, not in Osaka anymore" for "where do I live?") is found
by the words of the fact it updates, answers first, and the older fact stays as history."""

from __future__ import annotations

import json


def _import(macaron, tmp_path, records: list[dict]) -> None:
    src = tmp_path / "history.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")
    assert macaron("memory", "import", src).returncode == 0


def test_an_update_sharing_no_word_with_the_question_answers_it(macaron, tmp_path):
    _import(
        macaron,
        tmp_path,
        [
            {"id": "m_osaka", "text": "I live in Osaka, near the castle", "created_at": "2024-03-01T09:00:00Z"},
            {"id": "m_tea", "text": "I like green tea in the morning", "created_at": "2024-03-02T09:00:00Z"},
            {
                "id": "m_tokyo",
                "text": "I moved to Tokyo last month, not in Osaka anymore",
                "created_at": "2024-04-20T09:00:00Z",
            },
        ],
    )
    found = macaron("memory", "search", "where do I live")
    assert found.returncode == 0, found.stderr
    ids = [line.split()[0] for line in found.stdout.splitlines() if line.startswith("m_")]
    assert ids == ["m_tokyo"] and "--all shows it" in found.stdout, found.stdout

    history = macaron("memory", "search", "where do I live", "--all")
    assert "replaced by m_tokyo: I moved to Tokyo" in history.stdout, history.stdout
