"""The memory store on the real LanceDB, in temporary directories: writes, forget, safety."""

from __future__ import annotations

import os
import stat

import pytest

from macaron_cli.errors import UserError
from macaron_cli.memory import Memory, MemoryStore
from macaron_cli.memory.redact import redact
from macaron_cli.memory.schema import MIGRATIONS


@pytest.fixture
def store(tmp_path):
    return MemoryStore.open(tmp_path / "memory")


def _files(root):
    return [p for p in root.rglob("*") if p.is_file()]


def _bytes_contain(root, needle: str) -> list[str]:
    data = needle.encode("utf-8")
    return [str(p.relative_to(root)) for p in _files(root) if data in p.read_bytes()]


def test_add_get_list_count_and_ids_are_kept(store):
    a = store.add("I am allergic to peanuts", domain="health", kind="fact")
    b = store.add("昨日は京都で抹茶を飲んだ", id="given-1", created_at="2023-05-07T10:00:00Z")
    assert store.get("given-1").created_at == "2023-05-07T10:00:00+00:00"
    assert store.get(b.id).language == "ja"
    assert store.count() == 2
    assert [m.id for m in store.list(limit=10)] == [a.id, "given-1"]  # newest first
    assert [m.id for m in store.list(limit=1, offset=1)] == ["given-1"]
    assert [m.id for m in store.list(limit=10, where="domain = 'health'")] == [a.id]
    with pytest.raises(UserError, match="already exists"):
        store.add("again", id="given-1")
    with pytest.raises(UserError, match="no memory with id"):
        store.get("nope")


def test_edit_keeps_the_old_version_linked_and_search_shows_the_new(store):
    old = store.add("My favourite coffee shop is Blue Bottle", domain="food")
    new = store.update(old.id, text="My favourite coffee shop is Onibus now")
    assert new.supersedes == old.id and new.id != old.id and new.domain == "food"
    assert store.get(old.id).text.endswith("Blue Bottle")  # kept, not deleted
    found = [h.memory.id for h in store.search("favourite coffee shop")]
    assert found == [new.id]  # the superseded version is history, not an answer
    pinned = store.pin(new.id)
    assert pinned.pinned and store.get(new.id).pinned and store.get(new.id).text == new.text
    with pytest.raises(UserError, match="cannot change"):
        store.update(new.id, colour="red")


def test_forget_leaves_no_trace_in_any_file_of_any_version(store, tmp_path):
    root = tmp_path / "memory"
    secret = "Zanzibarquokka is the name of my secret diary"
    # Enough other rows, several versions and an index, so the text sits in a shared data file.
    store.add_many({"text": f"ordinary note {i} about groceries and errands"} for i in range(3000))
    target = store.add(secret, domain="family")
    store.add_many({"text": f"later note {i}"} for i in range(50))
    edited = store.update(target.id, text=secret + " (renamed)")
    assert store.search("Zanzibarquokka")
    assert _bytes_contain(root, "Zanzibarquokka")  # the check below can see the text at all

    removed = store.forget(edited.id)

    assert set(removed) == {edited.id, target.id}  # and the version it superseded
    assert _bytes_contain(root, "Zanzibarquokka") == []
    assert store.search("Zanzibarquokka") == []
    assert store.count() == 3050
    assert store.search("groceries errands", k=3)  # the rest is intact and searchable
    reopened = MemoryStore.open(root)
    assert reopened.count() == 3050


def test_a_forgotten_turn_leaves_no_trace_in_its_neighbours_context(store, tmp_path):
    """Conversation turns are indexed with the turn before them; forgetting one clears it there too."""
    when = "2023-05-08T13:56:00Z"
    turns = [
        "Caroline: I finally told my parents about Quetzalwhisper",
        "Melanie: How did they take it?",
        "Caroline: Better than I feared",
    ]
    store.add_many(
        {"id": f"D1:{i}", "text": t, "kind": "episode", "created_at": when, "meta": {"session": 1}}
        for i, t in enumerate(turns)
    )
    found = {h.memory.id: h.parts for h in store.search("Quetzalwhisper", k=3)}
    assert found["D1:1"]["bm25"] > 0  # found by the word, which only its context holds
    store.forget("D1:0")
    assert _bytes_contain(tmp_path / "memory", "Quetzalwhisper") == []
    assert store.search("Quetzalwhisper") == []
    # Still found by its own words, right after the reply to it (the answer comes first).
    assert [h.memory.id for h in store.search("How did they take it")][:2] == ["D1:2", "D1:1"]
    assert store.search("May 2023")  # the date is searchable in words


def test_store_is_private_to_the_person(tmp_path):
    store = MemoryStore.open(tmp_path / "home" / "memory")
    store.add("my passport number is in the drawer")
    store.add_many({"text": f"note {i}"} for i in range(10))
    store.forget(store.list(limit=1)[0].id)
    for path in [tmp_path / "home", *(tmp_path / "home").rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))


def test_secrets_are_redacted_before_they_are_stored(store, tmp_path):
    text = (
        "my key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv and github ghp_abcdefghijklmnopqrstuvwxyz0123 "
        "password: hunter2horse card 4111 1111 1111 1111 order 1234 5678 9012 3456"
    )
    memory = store.add(text)
    for leaked in ("AbCdEfGhIjKlMnOp", "ghp_abcdefghijkl", "hunter2horse", "4111 1111 1111 1111"):
        assert leaked not in memory.text
        assert _bytes_contain(tmp_path / "memory", leaked) == []
    assert "1234 5678 9012 3456" in memory.text  # fails the Luhn check: not a card number
    assert set(memory.meta["redacted"]) == {"api-key", "token", "password", "card-number"}
    assert store.get(memory.id).text == memory.text


@pytest.mark.parametrize(
    "text, kind",
    [
        ("AKIAIOSFODNN7EXAMPLE", "api-key"),
        ("Authorization: Bearer abcdefghijklmnop1234567890", "token"),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "token"),
        ("パスワードは tanuki2024 です", "password"),
        ("비밀번호는 sesame77", "password"),
        ("amex 3782 822463 10005", "card-number"),
    ],
)
def test_redaction_catches_each_kind(text, kind):
    redacted, found = redact(text)
    assert kind in found and "«redacted:" in redacted


def test_redaction_leaves_ordinary_numbers_and_words(text="I ran 5 km on 2023-05-07, phone 090-1234-5678"):
    assert redact(text) == (text, [])


def test_stats_counts_by_field_and_reports_schema(store):
    store.add("likes ramen", domain="food", kind="preference")
    store.add("pinned one", pinned=True)
    data = store.stats()
    assert data["total"] == 2 and data["pinned"] == 1
    assert data["by_domain"] == {"food": 1, "general": 1}
    assert data["schema_version"] == len(MIGRATIONS)
    assert data["migrations"] == [name for name, _ in MIGRATIONS]


def test_schema_1_store_is_migrated_in_order_and_recorded(tmp_path):
    """A store written by the first macaron (schema 1, no migrations table) upgrades in place."""
    import lancedb
    import pyarrow as pa

    root = tmp_path / "memory"
    s = pa.string()
    old_schema = pa.schema(
        [
            (n, s)
            for n in (
                "id",
                "text",
                "search_text",
                "kind",
                "domain",
                "language",
                "privacy",
                "created_at",
                "updated_at",
                "last_used_at",
            )
        ]
        + [("use_count", pa.int64()), ("reward", pa.float64()), ("pinned", pa.bool_())]
        + [(n, s) for n in ("source", "supersedes", "verified", "event_at", "valid_until", "meta")],
        metadata={"macaron_schema_version": "1"},
    )
    row = dict.fromkeys(old_schema.names) | {
        "id": "old-1",
        "text": "私はカフェインが苦手です",
        "search_text": "x",
        "kind": "fact",
        "domain": "health",
        "language": "ja",
        "privacy": "personal",
        "created_at": "2024-01-01T00:00:00+00:00",
        "use_count": 0,
        "reward": 0.0,
        "pinned": False,
        "source": "manual",
        "meta": "{}",
    }
    lancedb.connect(root).create_table("memories", [row], schema=old_schema)

    store = MemoryStore.open(root)
    assert store.get("old-1").text == "私はカフェインが苦手です"
    assert [h.memory.id for h in store.search("カフェイン")] == ["old-1"]  # search_text rebuilt
    assert store.stats()["migrations"] == [name for name, _ in MIGRATIONS]


def test_newer_schema_is_refused(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    store._db.open_table("migrations").add([{"name": "999_from_the_future", "applied_at": "2099-01-01T00:00:00+00:00"}])
    with pytest.raises(UserError, match="newer macaron"):
        MemoryStore.open(tmp_path / "memory")


def test_foreign_damaged_and_unusable_stores_give_one_clear_error(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("not a store")
    with pytest.raises(UserError, match="is a file"):
        MemoryStore.open(a_file)

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "photos.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(UserError, match="not a macaron memory"):
        MemoryStore.open(foreign)
    assert sorted(p.name for p in foreign.iterdir()) == ["photos.jpg"]  # nothing written, nothing reset

    damaged = tmp_path / "damaged"
    MemoryStore.open(damaged).add_many({"text": f"note {i}"} for i in range(20))
    for manifest in (damaged / "memories.lance" / "_versions").iterdir():
        manifest.write_bytes(b"garbage" * 10)
    with pytest.raises(UserError, match="cannot open the memory"):
        MemoryStore.open(damaged)

    missing_data = tmp_path / "missing"
    kept = MemoryStore.open(missing_data)
    kept.add("a memory whose data file will vanish")
    for data_file in (missing_data / "memories.lance" / "data").iterdir():
        data_file.unlink()
    with pytest.raises(UserError, match="memory at"):
        MemoryStore.open(missing_data).list()


def test_import_upserts_so_an_interrupted_import_can_be_rerun(store):
    records = [{"id": f"r{i}", "text": f"record {i}", "created_at": "2023-01-01T00:00:00Z"} for i in range(5)]
    assert store.add_many(records[:3]) == 3
    assert store.add_many(records) == 5
    assert store.count() == 5
    assert store.get("r0").created_at == "2023-01-01T00:00:00+00:00"


def test_memory_objects_round_trip_through_add_many(store):
    store.add_many([Memory(text="from a dataclass", id="dc-1", domain="work")])
    assert store.get("dc-1").domain == "work"
    exported = list(store.iter_all())
    assert [m.to_dict()["id"] for m in exported] == ["dc-1"]
    assert os.path.isdir(store.uri)


def test_rows_a_query_found_are_read_whole_even_after_another_process_rewrote_them(store, tmp_path):
    # Search reads a few columns of many rows, then whole rows by row address for the few that
    # can win. If another process rewrote the fragment in between (a forget does), the same
    # addresses hold other rows or none: the right memories must come back all the same.
    store.add_many({"id": f"n{i}", "text": f"note {i} about the garden"} for i in range(6))
    found = store._table.search().select(["id"]).with_row_id(True).limit(None).to_arrow().to_pylist()
    other = MemoryStore.open(tmp_path / "memory")
    other.forget("n0")
    other.add("a new memory written meanwhile")
    kept = [r for r in found if r["id"] != "n0"]
    rows = store.whole_rows(kept, ["text"])
    assert {i: row["text"] for i, row in rows.items()} == {f"n{i}": f"note {i} about the garden" for i in range(1, 6)}
    assert store.whole_rows([r for r in found if r["id"] == "n0"], ["text"]) == {}  # forgotten: gone


def test_old_table_versions_are_cleaned_up_as_memories_are_added(tmp_path, monkeypatch):
    """Each add leaves a table version with its own files; they must not pile up for a week."""
    from datetime import timedelta

    from macaron_cli.memory import upkeep

    monkeypatch.setattr(upkeep, "KEEP_VERSIONS", timedelta(seconds=1))
    root = tmp_path / "memory"
    store = MemoryStore.open(root)
    for i in range(30):
        store.add(f"small fact {i}")
    import time

    time.sleep(1.5)  # older than KEEP_VERSIONS now
    store.add("one more")
    versions = list((root / "memories.lance" / "_versions").glob("*"))
    assert len(versions) < 10, len(versions)  # each add writes about four
    assert store.count() == 31 and store.search("small fact 7")[0].memory.text == "small fact 7"


def test_a_write_does_not_pay_for_the_whole_store_yet_is_found_at_once(tmp_path, monkeypatch):
    """Past SMALL_STORE rows a write leaves its row unindexed (search scans those few) until
    MAX_FRAGMENTS writes wait: then a detached worker folds them all in, while writes go on."""
    from macaron_cli.memory import upkeep

    monkeypatch.setattr(upkeep, "SMALL_STORE", 50)
    monkeypatch.setattr(upkeep, "MAX_FRAGMENTS", 6)
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many({"text": f"errand {i}: post office, groceries"} for i in range(60))

    def waiting() -> int:
        return max(store.table.index_stats(ix.name).num_unindexed_rows for ix in store.table.list_indices())

    for i in range(5):
        store.add(f"Pelican number {i} nests on the pier")
        assert store.search(f"Pelican number {i}", k=1)[0].memory.text == f"Pelican number {i} nests on the pier"
    assert waiting() == 5  # no write so far paid for folding the others in
    for i in range(5, 8):
        added = store.add(f"Pelican number {i} nests on the pier")
        store.pin(added.id)  # an update beside the worker's compaction
        assert store.search(f"Pelican number {i}", k=1)[0].memory.text == f"Pelican number {i} nests on the pier"
    store.settle()
    assert waiting() < 5 and store.table.stats()["fragment_stats"]["num_fragments"] <= 6
    assert [h.memory.text for h in store.search("Pelican number 6", k=1)] == ["Pelican number 6 nests on the pier"]
    assert store.count("pinned") == 3 and store.count() == 68


def _upkeep_workers(store_dir) -> list[int]:
    """Pids of upkeep workers running on this store."""
    from pathlib import Path

    pids = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"macaron_cli.memory.upkeep_worker" in argv and str(store_dir).encode() in argv:
            pids.append(int(proc.name))
    return pids


def _store_with_upkeep_due(tmp_path, monkeypatch):
    from macaron_cli.memory import upkeep

    monkeypatch.setattr(upkeep, "SMALL_STORE", 50)
    monkeypatch.setattr(upkeep, "MAX_FRAGMENTS", 4)
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many({"text": f"errand {i}: post office, groceries"} for i in range(60))
    return store


def test_a_forget_beside_the_upkeep_worker_leaves_no_trace(tmp_path, monkeypatch):
    """The write that finds upkeep due returns while a worker compacts; a forget right then
    waits for it, and no index or file keeps the forgotten words."""
    store = _store_with_upkeep_due(tmp_path, monkeypatch)
    added = [store.add(f"Heron number {i} fishes by the Quillfern weir") for i in range(6)]
    store.forget(added[-1].id)
    assert all("number 5" not in h.memory.text for h in store.search("Heron number 5", k=3))
    store.settle()
    assert store.count() == 65
    leftovers = [p for p in (tmp_path / "memory").rglob("*") if p.is_file() and b"number 5 fishes" in p.read_bytes()]
    assert leftovers == []


def test_a_killed_upkeep_worker_loses_nothing(tmp_path, monkeypatch):
    """kill -9 of the worker at whatever point it reached: every write is there and found,
    and the next write that finds upkeep due has it done."""
    import os
    import signal
    import time

    store = _store_with_upkeep_due(tmp_path, monkeypatch)
    for i in range(6):
        store.add(f"Heron number {i} fishes by the weir")
    for pid in _upkeep_workers(tmp_path / "memory"):
        os.kill(pid, signal.SIGKILL)
    # Dead, not dying: a write while the kernel still holds the killed worker's lock leaves
    # upkeep to that worker, as it should for a live one.
    store.settle()
    again = MemoryStore.open(tmp_path / "memory")
    assert again.count() == 66
    for i in range(6, 12):
        again.add(f"Heron number {i} fishes by the weir")
    again.settle()
    assert again.table.stats()["fragment_stats"]["num_fragments"] <= 4
    assert [h.memory.text for h in again.search("Heron number 9", k=1)] == ["Heron number 9 fishes by the weir"]
    assert again.count() == 72
    for _ in range(300):  # it has let go of the lock; it exits on its own, leaving nothing behind
        if not _upkeep_workers(tmp_path / "memory"):
            break
        time.sleep(0.1)
    assert _upkeep_workers(tmp_path / "memory") == []
