"""A forget running beside other commands never costs them their write or their answer."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from macaron_cli import config, forgetting
from macaron_cli.files import write_atomic
from macaron_cli.memory import MemoryStore


def _journal_for(store, memory_id):
    """A forget of `memory_id` cut short once its journal was written (step 1 of forget)."""
    path = forgetting._journal(memory_id)
    config.ensure_private_dir(path.parent)
    write_atomic(path, json.dumps(store.forget_plan(memory_id).to_dict(), ensure_ascii=False))
    return path


def test_a_journal_finished_by_another_process_meanwhile_is_skipped(macaron_home):
    store = MemoryStore.open()
    first, second = store.add("Allergic to penicillin"), store.add("Locker combination is on a card")
    _journal_for(store, first.id)
    second_journal = _journal_for(store, second.id)
    plan = forgetting._read_plan(second_journal)
    finished_elsewhere = []

    def another_process_finishes_the_second(step):
        # while this process works on the first journal, another one finishes the second
        if step == "home" and not finished_elsewhere:
            finished_elsewhere.append(step)
            forgetting._finish(MemoryStore.open(), plan, second_journal)

    assert forgetting.finish_pending(MemoryStore.open, on_step=another_process_finishes_the_second) == 2
    kept = store.add("Likes hiking on Sundays")

    assert finished_elsewhere
    assert [m.id for m in MemoryStore.open().list(limit=None)] == [kept.id]
    assert not list((macaron_home / "forgetting").glob("*"))


@pytest.mark.slow
def test_adds_and_searches_beside_forgets_in_other_processes_all_land(macaron, macaron_home):
    """Forgets, adds and searches as separate processes at once: every add that said it
    remembered something is in the store afterwards, no command fails, the forgotten go."""
    doomed = [macaron("memory", "add", f"Old note number {i} to drop", "--json") for i in range(6)]
    doomed_ids = [json.loads(r.stdout)["id"] for r in doomed]

    def forget(memory_id):
        return macaron("memory", "forget", memory_id)

    def add(i):
        return macaron("memory", "add", f"New note number {i} to keep", "--json")

    def search(i):
        return macaron("memory", "search", "note", "--json")

    with ThreadPoolExecutor(max_workers=4) as pool:
        forgets = [pool.submit(forget, memory_id) for memory_id in doomed_ids]
        adds = [pool.submit(add, i) for i in range(8)]
        searches = [pool.submit(search, i) for i in range(4)]
        results = [f.result() for f in forgets + adds + searches]

    failed = [(r.args[3:], r.returncode, r.stderr) for r in results if r.returncode != 0]
    assert failed == []
    acknowledged = {json.loads(f.result().stdout)["id"] for f in adds}
    stored = {m.id for m in MemoryStore.open().list(limit=None)}
    assert stored == acknowledged
    assert not list((macaron_home / "forgetting").glob("*"))
