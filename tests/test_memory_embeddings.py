"""Hybrid retrieval with the bundled multilingual model, and re-embedding a store made with another."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from macaron_cli.memory import MemoryStore

pytestmark = pytest.mark.embeddings
REPO = Path(__file__).resolve().parents[1]


def test_meaning_finds_what_words_miss_and_keywords_still_lead(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    assert store.vectors
    store.add_many(
        [
            {"id": "pet", "text": "We adopted a golden retriever puppy last spring"},
            {"id": "car", "text": "The car needs new tyres before winter"},
            {"id": "tea", "text": "I drink green tea every morning"},
            {"id": "job", "text": "I started a new job as a nurse at the city hospital"},
        ]
    )
    assert store.stats()["with_vectors"] == 4
    hit = store.search("Do I have a dog?", k=2)[0]  # no shared word: only meaning connects them
    assert hit.memory.id == "pet" and hit.parts["vector"] == pytest.approx(1.0)
    exact = store.search("green tea", k=1)[0]
    assert exact.memory.id == "tea" and exact.parts["bm25"] == pytest.approx(1.0)
    keyword_only = store.search("Do I have a dog?", k=2, vectors=False)
    assert all(h.memory.id != "pet" for h in keyword_only)


def test_a_small_memory_answers_nothing_it_has_no_meaning_for(macaron, macaron_home):
    for text in (
        "We adopted a golden retriever puppy last spring",
        "The car needs new tyres before winter",
        "I drink green tea every morning",
    ):
        assert macaron("memory", "add", text).returncode == 0

    unrelated = macaron("memory", "search", "stock market crash")
    related = macaron("memory", "search", "Do I have a dog?")

    # Nothing found: said first, and what it lists is only the nearest in meaning, marked ≈ (as the browser lists it).
    said = unrelated.stdout.splitlines()
    assert unrelated.returncode == 0 and said[0].startswith("No memory holds a word of “stock market crash”"), said
    assert all(line.startswith("  ≈") for line in said[2::2]), said
    assert json.loads(macaron("memory", "search", "stock market crash", "--json").stdout) == []
    assert related.stdout.splitlines()[0].split("  ")[1] == "We adopted a golden retriever puppy last spring"
    assert "tyres" not in related.stdout and "tea" not in related.stdout, related.stdout


FILLER = [
    "I bought new running shoes yesterday.",
    "The weather was cold and rainy all week.",
    "We watched a movie about space on Friday.",
    "My favourite colour is green.",
    "I need to renew my passport before the trip.",
    "Our team meeting moved to Thursday.",
]
# A fact in each language, and an English question about it that shares no word with it.
TOLD = {
    "ko": ("나는 땅콩 알레르기가 있어서 땅콩을 먹으면 안 돼요.", "Am I allergic to any food?"),
    "ja": ("妹は来月大阪に引っ越します。", "Where is my sister moving to?"),
    "zh": ("我在上海的一家医院当护士。", "What is my job?"),
    "tl": ("Nagbabayad ako ng upa ng bahay tuwing katapusan ng buwan.", "When do I pay the rent?"),
}
# The reverse: a fact told in English, asked about in each language.
ASKED = {
    "ko": ("My sister is moving to Osaka next month.", "내 여동생은 어디로 이사 가요?"),
    "ja": ("I work as a nurse at a hospital in Shanghai.", "私の仕事は何ですか？"),
    "zh": ("My dog is called Bantay.", "我的狗叫什么名字？"),
    "tl": ("I am allergic to peanuts.", "Ano ang hindi ko puwedeng kainin?"),
}


# Universal Sentence Encoder multilingual v3 learned 16 languages; Tagalog is not one of them:
# Tagalog reaches it, and English words, through the glossary (memory/tagalog.py).
LANGUAGES = ["ja", "ko", "zh", "tl"]


def _store_of_every_language(path: Path) -> MemoryStore:
    store = MemoryStore.open(path)
    store.add_many(
        [{"id": f"told-{lang}", "text": text} for lang, (text, _) in TOLD.items()]
        + [{"id": f"asked-{lang}", "text": text} for lang, (text, _) in ASKED.items()]
        + [{"id": f"filler{i}", "text": text} for i, text in enumerate(FILLER)]
    )
    return store


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fact_told_in_any_language_is_found_by_a_question_in_english(tmp_path, language):
    found = [h.memory.id for h in _store_of_every_language(tmp_path / "memory").search(TOLD[language][1], k=3)]
    assert f"told-{language}" in found, found


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fact_told_in_english_is_found_by_a_question_in_any_language(tmp_path, language):
    found = [h.memory.id for h in _store_of_every_language(tmp_path / "memory").search(ASKED[language][1], k=3)]
    assert f"asked-{language}" in found, found


def test_vectors_match_the_reference_computed_once():
    """The bundled model still gives the vectors it gave when the reference was made (a model
    or tokenizer that changed under the same name would silently mismatch stored vectors)."""
    import numpy as np

    from macaron_cli.memory import embeddings

    reference = json.loads((REPO / "tests" / "fixtures" / "embedding_reference.json").read_text())
    assert reference["model"] == embeddings.model_info()
    ours = embeddings.embed(reference["texts"])
    expected = np.asarray(reference["vectors"], dtype=np.float32)
    assert ours.shape == expected.shape and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert np.abs(ours - expected).max() < 1e-3
    assert (ours * expected).sum(axis=1).min() > 0.9999


def test_each_text_gets_its_own_vector_whatever_it_is_batched_with():
    import numpy as np

    from macaron_cli.memory import embeddings

    texts = [t for t, _ in TOLD.values()] + FILLER + [" ", " ".join(FILLER * 20)]
    together = embeddings.embed(texts)
    alone = np.stack([embeddings.embed([t])[0] for t in texts])
    assert (together * alone).sum(axis=1).min() >= 0.9999
    assert embeddings.embed([]).shape == (0, together.shape[1])


def test_a_vector_costs_no_torch_import():
    env = dict(os.environ)
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    code = (
        "import json, sys; from macaron_cli.memory import embeddings; v = embeddings.embed(['hi']); "
        "print(json.dumps([v.shape[0], sorted(sys.modules)]))"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rows, modules = json.loads(done.stdout)
    assert rows == 1
    heavy = {"torch", "transformers", "sentence_transformers", "scipy", "sklearn", "tensorflow"}
    assert not heavy & {m.split(".")[0] for m in modules}


# ── a store made before the switch ──────────────────────────────────────────────────────
def _as_if_made_by_the_old_model(path: Path) -> None:
    """Turn a store's vectors into what the previous macaron left: 384-dimensional vectors
    (all-MiniLM-L6-v2's size) in a column that names no model."""
    import numpy as np
    import pyarrow as pa

    store = MemoryStore.open(path)
    ids = [r["id"] for r in store._table.search().select(["id"]).limit(None).to_list()]
    store._table.drop_columns(["vector"])
    store._table.add_columns(pa.field("vector", pa.list_(pa.float32(), 384)))
    rng = np.random.default_rng(0)
    old = rng.standard_normal((len(ids), 384)).astype("float32")
    store._table.merge_insert("id").when_matched_update_all().execute(
        pa.table(
            {
                "id": ids,
                "vector": pa.array(
                    list(old / np.linalg.norm(old, axis=1, keepdims=True)), type=pa.list_(pa.float32(), 384)
                ),
            }
        )
    )


def _told(path: Path) -> None:
    MemoryStore.open(path).add_many(
        [{"id": f"told-{lang}", "text": text} for lang, (text, _) in TOLD.items()]
        + [{"id": f"filler{i}", "text": text} for i, text in enumerate(FILLER)]
    )


def test_a_store_made_with_another_model_is_reembedded_and_searchable_throughout(tmp_path, capsys, monkeypatch):
    from macaron_cli.memory import embeddings, reembed

    path = tmp_path / "memory"
    _told(path)
    _as_if_made_by_the_old_model(path)
    started = []
    monkeypatch.setattr(reembed, "start_in_background", lambda s: started.append(s.uri) or False)
    store = MemoryStore.open(path)  # swaps in an empty column of the model in use
    assert store.vector_model() == embeddings.model_info()
    assert store.stats()["with_vectors"] == 0 and not store.vectors_complete()
    # Meanwhile search goes by words, and says so once.
    assert store.search("땅콩", k=3)[0].memory.id == "told-ko"
    assert store.search("大阪", k=1)[0].memory.id == "told-ja"
    assert capsys.readouterr().err.count("by words only") == 1 and started
    assert reembed.run(store) == len(TOLD) + len(FILLER)
    assert store.vectors_complete() and store.stats()["with_vectors"] == len(TOLD) + len(FILLER)
    assert "told-ja" in [h.memory.id for h in store.search("Where is my sister moving to?", k=3)]


def test_memories_written_elsewhere_without_vectors_send_a_searching_process_to_words(
    macaron, macaron_home, capsys, monkeypatch
):
    """A process that searched (and so knows the store's vectors complete) must notice another
    process writing memories without vectors, new or replacing old ones, at its next search."""
    from macaron_cli.memory import reembed

    monkeypatch.setattr(reembed, "start_in_background", lambda s: False)
    monkeypatch.setattr(reembed, "_noted", False)
    path = macaron_home / "memory"
    _told(path)
    searching = MemoryStore.open(path)
    assert searching.vectors_complete()
    assert "told-ja" in [h.memory.id for h in searching.search("Where is my sister moving to?", k=3)]

    vectors_off = {"MACARON_EMBEDDINGS": "off"}
    added = macaron("memory", "add", "Quokkabrew is the cafe by the station", env=vectors_off)
    assert added.returncode == 0, added.stderr
    assert not searching.vectors_complete()
    assert searching.search("Quokkabrew", k=1)[0].memory.text == "Quokkabrew is the cafe by the station"
    assert "by words only" in capsys.readouterr().err

    assert reembed.run(searching) == 1 and searching.vectors_complete()
    # An import run again replaces memories one for one: no row more, one vector less.
    replay = "import sys; from macaron_cli.memory import MemoryStore; MemoryStore.open(sys.argv[1]).add_many(["
    replay += f"{{'id': 'told-ja', 'text': {TOLD['ja'][0]!r}}}])"
    env = {**os.environ, **vectors_off, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    subprocess.run([sys.executable, "-c", replay, str(path)], env=env, check=True)
    assert not searching.vectors_complete() and not MemoryStore.open(path).vectors_complete()
    assert reembed.run(searching) == 1 and MemoryStore.open(path).vectors_complete()


@pytest.mark.slow
def test_search_starts_the_reembedding_in_the_background_and_says_so(macaron, macaron_home):
    path = macaron_home / "memory"
    _told(path)
    _as_if_made_by_the_old_model(path)
    done = macaron("memory", "search", "大阪")
    assert done.returncode == 0, done.stderr
    assert "told-ja" in done.stdout and "by words only" in done.stderr
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        stats = json.loads(macaron("memory", "stats", "--json").stdout)
        if stats["with_vectors"] == stats["total"]:
            break
        time.sleep(0.5)
    assert stats["with_vectors"] == stats["total"] == len(TOLD) + len(FILLER)
    done = macaron("memory", "search", "Where is my sister moving to?", "--json")
    assert "told-ja" in [h["id"] for h in json.loads(done.stdout)[:3]] and "by words only" not in done.stderr


@pytest.mark.slow
def test_reembed_resumes_after_kill_9(macaron, macaron_home):
    """Kill the re-embedder mid-way: every committed batch stays, the next run does the rest."""
    path = macaron_home / "memory"
    MemoryStore.open(path).add_many({"id": f"n{i}", "text": f"note {i}: {FILLER[i % len(FILLER)]}"} for i in range(300))
    _as_if_made_by_the_old_model(path)
    # A slow model and small batches, so the kill lands mid-way.
    code = (
        "import sys, time; from macaron_cli.memory import embeddings, reembed; "
        "from macaron_cli.memory.store import MemoryStore; reembed.BATCH = 20; real = embeddings.embed; "
        "embeddings.embed = lambda texts: (time.sleep(0.2), real(texts))[1]; "
        "reembed.run(MemoryStore.open(sys.argv[1]))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    child = subprocess.Popen([sys.executable, "-c", code, str(path)], env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and MemoryStore.open(path).stats()["with_vectors"] < 40:
            time.sleep(0.1)
    finally:
        child.kill()  # SIGKILL
        child.wait()
    partial = MemoryStore.open(path).stats()["with_vectors"]
    assert 40 <= partial < 300
    done = macaron("memory", "reembed")
    assert done.returncode == 0, done.stderr
    assert "Every memory has a vector" in done.stdout
    store = MemoryStore.open(path)
    assert store.stats()["with_vectors"] == 300 and store.vectors_complete()
    import numpy as np

    from macaron_cli.memory import embeddings

    rows = store._table.search().select(["text", "vector"]).limit(None).to_list()
    expected = embeddings.embed([r["text"] for r in rows])
    assert (np.asarray([r["vector"] for r in rows]) * expected).sum(axis=1).min() > 0.9999
