"""What the browser needs from the store: pages in order, filtered counts, the values in use."""

from macaron_cli.memory import MemoryStore


def _store(tmp_path, n=30):
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many(
        {
            "text": f"note {i}",
            "id": f"m_{i:03d}",
            "domain": ("food", "work", "health")[i % 3],
            # pairs share a timestamp: the id must break the tie the same way every time
            "created_at": f"2026-01-{1 + i // 2:02d}T00:00:00+00:00",
        }
        for i in range(n)
    )
    return store


def test_pages_are_newest_first_and_never_overlap(tmp_path):
    store = _store(tmp_path)
    pages = [store.list(7, offset) for offset in range(0, 30, 7)]
    ids = [m.id for page in pages for m in page]
    assert ids == [f"m_{i:03d}" for i in reversed(range(30))]


def test_pages_under_a_filter_and_counts(tmp_path):
    store = _store(tmp_path)
    food = store.list(4, 4, "domain = 'food'")
    assert [m.id for m in food] == ["m_015", "m_012", "m_009", "m_006"]
    assert store.count("domain = 'food'") == 10
    assert store.count() == 30


def test_distinct_lists_the_values_in_use(tmp_path):
    assert _store(tmp_path).distinct("domain") == ["food", "health", "work"]
