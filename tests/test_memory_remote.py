"""One memory on S3 shared by several machines (homes), against a real S3-compatible server
(moto's, on 127.0.0.1): LanceDB speaks to it over HTTP exactly as to S3."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from macaron_cli.memory.store import MemoryStore
from tests.support.s3_server import S3Server

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def s3():
    with S3Server() as server:
        yield server


@pytest.fixture
def shared(s3, macaron_home, monkeypatch) -> str:
    """A fresh bucket, named by MACARON_MEMORY_URI, reached through the standard AWS environment."""
    for name, value in s3.env().items():
        monkeypatch.setenv(name, value)
    for name in ("AWS_DEFAULT_REGION", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3", "AWS_ALLOW_HTTP"):
        monkeypatch.delenv(name, raising=False)
    uri = f"s3://{s3.new_bucket()}/people/ana"
    monkeypatch.setenv("MACARON_MEMORY_URI", uri)
    return uri


@pytest.mark.slow
def test_two_homes_sharing_one_memory_see_each_others_memories(macaron, shared, s3, tmp_path):
    laptop = {"MACARON_HOME": str(tmp_path / "laptop")}
    # The desktop names the memory in its config.toml rather than in its environment.
    desktop_home = tmp_path / "desktop"
    desktop_home.mkdir()
    (desktop_home / "config.toml").write_text(
        f'[memory]\nuri = "{shared}"\n\n[memory.storage]\nendpoint = "{s3.endpoint}"\nregion = "us-east-1"\n'
    )
    desktop = {"MACARON_HOME": str(desktop_home), "MACARON_MEMORY_URI": "", "AWS_ENDPOINT_URL": ""}

    added = macaron("memory", "add", "Our anniversary is on the 14th of June", env=laptop)
    assert added.returncode == 0, added.stderr
    found = macaron("memory", "search", "anniversary", "--json", env=desktop)
    assert found.returncode == 0, found.stderr
    assert [h["text"] for h in json.loads(found.stdout)] == ["Our anniversary is on the 14th of June"]

    assert macaron("memory", "add", "Ana's bike has a flat rear tyre", env=desktop).returncode == 0
    listed = macaron("memory", "list", "--json", env=laptop)
    assert {m["text"] for m in json.loads(listed.stdout)} == {
        "Our anniversary is on the 14th of June",
        "Ana's bike has a flat rear tyre",
    }
    # The memory lives in the bucket alone: neither machine keeps a copy of it at home.
    assert not (tmp_path / "laptop" / "memory").exists() and not (desktop_home / "memory").exists()


ADDER = """
import sys, time
from pathlib import Path
from macaron_cli.memory.store import MemoryStore
who, go = sys.argv[1], Path(sys.argv[2])
store = MemoryStore.open()
Path(str(go) + "." + who).touch()  # opened: ready
while not go.exists():
    time.sleep(0.01)
for i in range(100):
    store.add(f"{who} remembers thing number {i}", id=f"{who}-{i:03d}")
"""


@pytest.mark.slow  # 200 commits through a Python S3 server: minutes on a busy machine
def test_two_processes_adding_at_once_lose_no_memory(shared, tmp_path):
    MemoryStore.open()  # the store exists, as it does once either machine has used it
    env = {**os.environ}
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    go = tmp_path / "go"
    adders = [
        subprocess.Popen([sys.executable, "-c", ADDER, who, str(go)], env=env, stderr=subprocess.PIPE, text=True)
        for who in ("laptop", "desktop")
    ]
    deadline = time.monotonic() + 120
    while not all(Path(f"{go}.{who}").exists() for who in ("laptop", "desktop")):
        failed = [a.stderr.read() for a in adders if a.poll() is not None]
        assert time.monotonic() < deadline and not failed, failed
        time.sleep(0.05)
    go.touch()  # both write from here on, at the same moment
    for adder in adders:
        assert adder.wait(timeout=600) == 0, adder.stderr.read()

    store = MemoryStore.open()
    ids = {m.id for m in store.iter_all()}
    assert ids == {f"{who}-{i:03d}" for who in ("laptop", "desktop") for i in range(100)}
    assert [h.memory.id for h in store.search("desktop remembers thing number 42", k=1)] == ["desktop-042"]


def test_an_add_that_lost_to_too_many_writers_lands_once_on_its_next_try(shared):
    """What the two-adders test meets on a busy machine: LanceDB's own retries run out while
    the other machine keeps committing. The commit did not land, so running it again is safe."""
    store = MemoryStore.open()
    table, real_add, real_update, tries = store.table, store.table.add, store.table.update, []

    def lost_once(real):
        def busy_bucket_then_free(*args, **kwargs):
            tries.append(len(args[0]) if args else "update")
            if len(tries) in (1, 4):
                raise RuntimeError(
                    "lance error: Too many concurrent writers. Attempted 7 times, but failed on "
                    "retry_timeout of 30.000 seconds., lance-13.0.0/src/io/commit.rs:128:5"
                )
            return real(*args, **kwargs)

        return busy_bucket_then_free

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table, "add", lost_once(real_add))
        patch.setattr(table, "update", lost_once(real_update))
        store.add("Ana waters the ferns on Sundays", id="ferns")
        store.add_many({"id": f"n{i}", "text": f"note {i}"} for i in range(3))
        store.pin("ferns")

    assert tries == [1, 1, 3, "update", "update"]
    assert sorted(m.id for m in MemoryStore.open().iter_all()) == ["ferns", "n0", "n1", "n2"]
    assert MemoryStore.open().get("ferns").pinned


def test_forget_leaves_the_text_in_no_object_of_the_bucket(shared, s3):
    store = MemoryStore.open()
    store.add_many({"id": f"n{i}", "text": f"note {i} about cooking and running"} for i in range(30))
    first = store.add("My quokkafeather password hint is the blue door", id="hint")
    newer = store.update(first.id, text="My quokkafeather hint is now the red door")  # a second version
    store.add("Lunch with Sam on Friday", id="lunch")
    assert [h.memory.id for h in store.search("quokkafeather", k=3)] == [newer.id]

    assert set(store.forget(newer.id)) == {"hint", newer.id}

    bucket = shared.split("/")[2]
    objects = s3.objects(bucket)
    # Stored text is uncompressed: the remaining memories are readable in the objects…
    assert any(b"Lunch with Sam" in body for body in objects.values())
    # …and the forgotten ones (or their stemmed index terms) are in none of them.
    assert [key for key, body in objects.items() if b"quokkafeath" in body.lower()] == []
    other = MemoryStore.open()  # another machine
    assert other.search("quokkafeather", k=3) == [] and other.count() == 31


@pytest.mark.embeddings
def test_search_by_meaning_with_and_without_the_vector_index(shared, monkeypatch):
    from macaron_cli.memory import upkeep

    monkeypatch.setattr(upkeep, "VECTOR_INDEX_ROWS", 256)  # an IVF-PQ index without 20k memories
    store = MemoryStore.open()
    store.add("We adopted a golden retriever puppy last spring", id="pet")
    topics = ["cooking pasta", "running in the park", "a jazz concert", "a train to Lyon"]
    store.add_many({"id": f"n{i}", "text": f"note {i} about {topics[i % 4]}"} for i in range(40))
    assert "IvfPq" not in store.stats()["indexes"]
    exact = store.search("Do I have a dog?", k=1)[0]
    assert exact.memory.id == "pet" and "vector" in exact.parts

    store.add_many({"id": f"m{i}", "text": f"more notes, {i}, about {topics[i % 4]}"} for i in range(220))
    assert "IvfPq" in store.stats()["indexes"]
    indexed = MemoryStore.open().search("Do I have a dog?", k=1)[0]
    assert indexed.memory.id == "pet" and "vector" in indexed.parts


def test_plain_http_to_another_machine_is_refused_before_anything_is_written(macaron, macaron_home):
    result = macaron(
        "memory",
        "add",
        "a secret",
        env={
            "MACARON_MEMORY_URI": "s3://bucket/ana",
            "AWS_ENDPOINT_URL": "http://192.0.2.10:9000",
            "AWS_ACCESS_KEY_ID": "k",
            "AWS_SECRET_ACCESS_KEY": "k",
        },
    )
    assert result.returncode == 2
    assert "plain HTTP" in result.stderr and "https://" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_doctor_says_where_the_shared_memory_lives(macaron, shared, s3):
    result = macaron("doctor", "--json")
    assert result.returncode == 0, result.stderr
    memory = next(c for c in json.loads(result.stdout) if c["name"] == "memory")
    assert memory["ok"] and shared in memory["detail"] and s3.endpoint in memory["detail"]

    down = macaron("doctor", "--json", env={"AWS_ENDPOINT_URL": "http://127.0.0.1:9"})  # nothing listens
    memory = next(c for c in json.loads(down.stdout) if c["name"] == "memory")
    assert not memory["ok"] and memory["fix"]
