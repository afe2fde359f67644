"""A derived memory (a chat summary, an answer kept) is as private as its sources are now:
relabelling a source changes where everything made from it may go, on every path that reads
the store, and relabelling it back undoes it."""

from __future__ import annotations

from macaron_cli import config, privacy
from macaron_cli.mcp_server.access import MemoryAccess
from macaron_cli.memory import MemoryStore
from macaron_cli.memory.derived import DERIVED_FROM

DIGEST = "Water (app water), 2026-12-06: water 1,300 mL today"
SUMMARY = "We talked about how the day went: 1,300 mL of water so far, a good walk"


def made(store):
    digest = store.add(DIGEST, kind="app", domain="health", privacy="personal", source="app:water")
    summary = store.add(SUMMARY, kind="episode", privacy="personal", meta={DERIVED_FROM: [digest.id]})
    later = store.add("A note on that talk: water went well", kind="episode", meta={DERIVED_FROM: [summary.id]})
    return digest, summary, later


def test_a_summary_takes_its_sources_label_now_and_gives_it_back(macaron_home):
    store = MemoryStore.open()
    digest, summary, later = made(store)
    cloud = privacy.claude(store.settings)
    assert {h.memory.id for h in privacy.search(store, "water today", cloud, k=5)} >= {summary.id, later.id}

    store.update(digest.id, privacy="private")  # `macaron apps privacy water private`
    assert store.get(summary.id).privacy == "private" and store.get(later.id).privacy == "private"
    found = privacy.search(store, "water today", cloud, k=5)
    assert not {summary.id, later.id, digest.id} & set(found.ids)
    assert summary.id not in privacy.recent(store, 10, cloud).ids
    listed = {m.id: m.privacy for m in store.list(limit=None)}
    assert listed[summary.id] == "private" and listed[later.id] == "private"

    store.pin(summary.id)  # a write on a derived memory keeps its own label, not its sources'
    store.update(digest.id, privacy="personal")
    assert store.get(summary.id).privacy == "personal" and store.get(summary.id).pinned
    assert summary.id in privacy.search(store, "water today", cloud, k=5).ids


def test_an_mcp_client_loses_a_summary_once_its_source_is_private(macaron_home):
    store = MemoryStore.open()
    digest, _summary, _later = made(store)
    access = MemoryAccess(config.load_settings)
    assert "1,300 mL of water" in access.search("claude-code", "water today")
    store.update(digest.id, privacy="private")
    for answer in (
        access.search("claude-code", "water today"),
        access.recent("claude-code"),
        access.profile("claude-code"),
    ):
        assert "1,300" not in answer


def test_a_brief_for_claude_and_a_share_bundle_follow_the_source_label(macaron_home):
    from macaron_cli.maker.brief import build_brief

    store = MemoryStore.open()
    digest, summary, _later = made(store)
    cloud = privacy.claude(store.settings)
    idea = "a water tracker for my day"
    assert SUMMARY in build_brief(idea, store, store.settings, cloud).text_for(cloud)
    store.update(digest.id, privacy="private")
    assert "1,300" not in build_brief(idea, store, store.settings, cloud).text_for(cloud)
    held = {m.id for m in privacy.not_for(store, privacy.export("a share bundle"))}
    assert {digest.id, summary.id} <= held  # a bundle quoting the summary is refused


def test_memory_export_writes_the_label_the_summary_has_now(macaron, macaron_home):
    import json

    store = MemoryStore.open()
    digest, summary, _later = made(store)
    store.update(digest.id, privacy="private")
    exported = {r["id"]: r for r in map(json.loads, macaron("memory", "export").stdout.splitlines())}
    assert exported[summary.id]["privacy"] == "private"
