"""`macaron memory …` run as a person runs it: bad input, import/export, crashes, two writers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from macaron_cli.memory import MemoryStore
from tests.conftest import REPO, macaron_command


def _one_line_error(result, *words):
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _store_files(home):
    root = home / "memory"
    return (
        sorted((str(p.relative_to(root)), p.stat().st_size) for p in root.rglob("*") if p.is_file())
        if root.exists()
        else []
    )


@pytest.mark.slow
def test_import_export_round_trip_keeps_ids_and_dates(macaron, macaron_home, tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(
        "\n".join(
            json.dumps(r, ensure_ascii=False)
            for r in [
                {
                    "id": "D1:3",
                    "text": "Caroline went to a support group",
                    "created_at": "2023-05-07T13:56:00Z",
                    "meta": {"speaker": "Caroline"},
                },
                {"id": "ko-1", "text": "나는 자전거를 타고 출근해요", "language": "ko", "domain": "fitness"},
                {"text": "Gusto ko ng adobo", "privacy": "private"},
            ]
        )
        + "\n\n",
        encoding="utf-8",
    )
    result = macaron("memory", "import", src)
    assert result.returncode == 0, result.stderr
    assert "3 added" in result.stderr

    out = tmp_path / "out.jsonl"
    assert macaron("memory", "export", out).returncode == 0
    records = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines()) if r.get("id")}
    assert records["D1:3"]["created_at"] == "2023-05-07T13:56:00+00:00"
    assert records["D1:3"]["meta"] == {"speaker": "Caroline"} and records["D1:3"]["source"] == "import"
    assert records["ko-1"]["domain"] == "fitness"
    assert oct(out.stat().st_mode & 0o777) == "0o600"
    assert len(records) == 3

    stdout_export = macaron("memory", "export")
    assert len(stdout_export.stdout.splitlines()) == 3

    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": "q1", "query": "support group"}\n{"id": 2, "query": "자전거"}\n', encoding="utf-8")
    lines = [json.loads(line) for line in macaron("memory", "search", "--batch", batch, "--k", "2").stdout.splitlines()]
    assert [line["id"] for line in lines] == ["q1", 2]
    assert lines[0]["hits"][0]["id"] == "D1:3" and lines[1]["hits"][0]["id"] == "ko-1"
    assert {"id", "text", "score", "parts", "created_at", "meta"} <= set(lines[0]["hits"][0])

    stats = json.loads(macaron("memory", "stats", "--json").stdout)
    assert stats["total"] == 3 and stats["by_privacy"] == {"personal": 2, "private": 1}


@pytest.mark.slow
def test_every_bad_input_exits_2_with_one_line_and_writes_nothing(macaron, macaron_home, tmp_path):
    assert macaron("memory", "add", "a memory to keep").returncode == 0
    before = _store_files(macaron_home)

    bad_line = tmp_path / "bad.jsonl"
    bad_line.write_text('{"text": "fine"}\n{"text": "also fine"}\n{"text": "broken"\n', encoding="utf-8")
    _one_line_error(macaron("memory", "import", bad_line), "line 3", "JSON")
    bad_field = tmp_path / "field.jsonl"
    bad_field.write_text('{"text": "ok"}\n{"text": "x", "privacy": "top-secret"}\n', encoding="utf-8")
    _one_line_error(macaron("memory", "import", bad_field), "line 2", "privacy")
    bad_date = tmp_path / "date.jsonl"
    bad_date.write_text('{"text": "x", "created_at": "last tuesday"}\n', encoding="utf-8")
    _one_line_error(macaron("memory", "import", bad_date), "line 1", "created_at")
    not_text = tmp_path / "binary.jsonl"
    not_text.write_bytes(b"\xff\xfe\x00garbage")
    _one_line_error(macaron("memory", "import", not_text), "UTF-8")
    _one_line_error(macaron("memory", "import", tmp_path / "missing.jsonl"), "does not exist")
    bad_batch = tmp_path / "batch.jsonl"
    bad_batch.write_text('{"id": 1, "query": "x"}\n{"query": "no id"}\n', encoding="utf-8")
    _one_line_error(macaron("memory", "search", "--batch", bad_batch), "line 2")

    _one_line_error(macaron("memory", "search", "x", "--k", "0"), "--k")
    _one_line_error(macaron("memory", "search", "x", "--k", "-3"), "--k")
    _one_line_error(macaron("memory", "list", "--limit", "0"), "--limit")
    _one_line_error(macaron("memory", "search"), "query")
    _one_line_error(macaron("memory", "forget", "m_doesnotexist"), "m_doesnotexist")
    _one_line_error(macaron("memory", "pin", "m_doesnotexist"), "m_doesnotexist")
    _one_line_error(macaron("memory", "edit", "m_doesnotexist", "new text"), "m_doesnotexist")
    _one_line_error(macaron("memory", "add", "   "), "text")
    _one_line_error(macaron("memory", "add", "x", "--kind", "rumour"), "kind")
    _one_line_error(macaron("memory", "export", tmp_path / "no" / "such" / "dir.jsonl"), "directory")

    assert _store_files(macaron_home) == before


def test_unusable_store_is_one_clear_line_not_a_reset(macaron, macaron_home):
    macaron_home.mkdir(parents=True)
    (macaron_home / "memory").write_text("I am a file")
    _one_line_error(macaron("memory", "list"), "is a file")
    (macaron_home / "memory").unlink()
    (macaron_home / "memory").mkdir()
    (macaron_home / "memory" / "notes.txt").write_text("mine")
    _one_line_error(macaron("memory", "search", "x"), "not a macaron memory")
    assert [p.name for p in (macaron_home / "memory").iterdir()] == ["notes.txt"]


def _env(home):
    env = {**os.environ, "MACARON_HOME": str(home), "MACARON_EMBEDDINGS": "off"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.mark.slow
def test_kill_9_during_import_keeps_every_acknowledged_batch(macaron_home, tmp_path):
    src = tmp_path / "big.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for i in range(12000):
            fh.write(json.dumps({"id": f"r{i:06d}", "text": f"imported memory number {i} about daily life"}) + "\n")
    proc = subprocess.Popen(
        [*macaron_command(), "memory", "import", str(src)],
        env=_env(macaron_home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    acknowledged = 0
    for line in proc.stderr:  # "imported N so far" after each batch is committed
        if line.startswith("imported "):
            acknowledged = int(line.split()[1].split("/")[0])
            if acknowledged >= 2000:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert acknowledged >= 2000, "the import never reported a committed batch"

    store = MemoryStore.open(macaron_home / "memory")
    assert store.count() >= acknowledged
    ids = {m.id for m in store.list(limit=None)}
    assert {f"r{i:06d}" for i in range(acknowledged)} <= ids
    assert store.search("memory number 17")  # usable, not just openable

    # Running the same import again finishes it, without duplicates.
    rerun = subprocess.run(
        [*macaron_command(), "memory", "import", str(src)],
        env=_env(macaron_home),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert MemoryStore.open(macaron_home / "memory").count() == 12000


WRITER = textwrap.dedent("""
    import sys
    from macaron_cli.memory import MemoryStore
    name, uri = sys.argv[1], sys.argv[2]
    store = MemoryStore.open(uri)
    for i in range(25):
        store.add(f"{name} single write {i}", id=f"{name}-single-{i}")
        if i % 5 == 0:
            store.add_many({"id": f"{name}-batch-{i}-{j}", "text": f"{name} batch {i} item {j}"} for j in range(40))
        if i % 10 == 3:
            doomed = store.add(f"{name} doomed {i}")
            store.forget(doomed.id)  # rewrites files and purges versions: the risky one
    print("done")
""")


@pytest.mark.slow
def test_two_writer_processes_lose_nothing(tmp_path):
    uri = str(tmp_path / "memory")
    MemoryStore.open(uri)
    env = _env(tmp_path)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, name, uri],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("alice", "bob")
    ]
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0 and "done" in out, err[-2000:]
    store = MemoryStore.open(uri)
    ids = {m.id for m in store.list(limit=None)}
    expected = {f"{n}-single-{i}" for n in ("alice", "bob") for i in range(25)}
    expected |= {f"{n}-batch-{i}-{j}" for n in ("alice", "bob") for i in range(0, 25, 5) for j in range(40)}
    assert ids == expected
