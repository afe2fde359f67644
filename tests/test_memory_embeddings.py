"""Hybrid retrieval with the `embeddings` extra (skipped cleanly when it is not installed)."""

from __future__ import annotations

import pytest

from macaron_cli.memory import MemoryStore

pytestmark = pytest.mark.embeddings


def test_meaning_finds_what_words_miss_and_keywords_still_lead(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    assert store.vectors
    store.add_many([
        {"id": "pet", "text": "We adopted a golden retriever puppy last spring"},
        {"id": "car", "text": "The car needs new tyres before winter"},
        {"id": "tea", "text": "I drink green tea every morning"},
        {"id": "job", "text": "I started a new job as a nurse at the city hospital"},
    ])
    assert store.stats()["with_vectors"] == 4
    hit = store.search("Do I have a dog?", k=2)[0]  # no shared word: only meaning connects them
    assert hit.memory.id == "pet" and hit.parts["vector"] == pytest.approx(1.0)
    exact = store.search("green tea", k=1)[0]
    assert exact.memory.id == "tea" and exact.parts["bm25"] == pytest.approx(1.0)
    keyword_only = store.search("Do I have a dog?", k=2, vectors=False)
    assert all(h.memory.id != "pet" for h in keyword_only)


def test_forget_rebuilds_the_vector_index_too(tmp_path, monkeypatch):
    import macaron_cli.memory.store as store_module

    monkeypatch.setattr(store_module, "VECTOR_INDEX_ROWS", 256)  # an IVF-PQ index without 20k embeddings
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many({"id": f"n{i}", "text": f"note {i} about {['cooking', 'running', 'music', 'travel'][i % 4]}"}
                   for i in range(260))
    assert "IvfPq" in store.stats()["indexes"]
    store.forget("n5")
    assert "IvfPq" in store.stats()["indexes"] and store.count() == 259
    assert store.search("a song I like", k=5)
