"""`macaron memory import` says what it did to each record, and never replaces a text silently."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from macaron_cli.memory import MemoryStore
from tests.conftest import REPO

RECORDS = [
    {"id": "a1", "text": "I drink green tea every morning"},
    {"id": "a2", "text": "My sister lives in Busan"},
    {"text": "I like hiking on Sundays"},
    {"id": "a1", "text": "I drink green tea every morning"},
    {"id": "a2", "text": "My sister lives in Seoul now"},
]


def _jsonl(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _import(macaron, path):
    result = macaron("memory", "import", path, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _live_texts(home):
    store = MemoryStore.open(home / "memory")
    superseded = store.superseded_ids()
    return sorted(m.text for m in store.iter_all() if m.id not in superseded)


@pytest.mark.slow
def test_a_file_imported_twice_adds_nothing_the_second_time(macaron, macaron_home, tmp_path):
    src = _jsonl(tmp_path / "in.jsonl", RECORDS)
    first = _import(macaron, src)
    assert (first["added"], first["updated"], first["skipped"]) == (3, 1, 1)
    repeat, update = first["records"][3], first["records"][4]
    assert repeat["action"] == "skipped" and "line 1" in repeat["reason"]
    assert update["action"] == "updated" and update["supersedes"] == "a2"

    again = macaron("memory", "import", src)
    assert again.returncode == 0, again.stderr
    assert "Nothing new" in again.stderr and "5 records skipped" in again.stderr
    assert "Imported" not in again.stderr
    assert _live_texts(macaron_home) == [
        "I drink green tea every morning",
        "I like hiking on Sundays",
        "My sister lives in Seoul now",
    ]


@pytest.mark.slow
def test_a_new_text_for_a_known_id_keeps_the_old_one_as_a_version(macaron, macaron_home, tmp_path):
    _import(macaron, _jsonl(tmp_path / "one.jsonl", RECORDS[:2]))
    changed = _import(macaron, _jsonl(tmp_path / "two.jsonl", [{"id": "a2", "text": "My sister moved to Jeju"}]))
    (record,) = changed["records"]
    assert record["action"] == "updated" and record["supersedes"] == "a2"
    assert "kept as a superseded version" in record["reason"]

    store = MemoryStore.open(macaron_home / "memory")
    assert store.get("a2").text == "My sister lives in Busan"  # the old text, still there
    assert store.get(record["id"]).supersedes == "a2"
    assert [h.memory.id for h in store.search("sister")] == [record["id"]]


@pytest.mark.slow
def test_a_changed_field_with_the_same_text_is_an_update_in_place(macaron, macaron_home, tmp_path):
    _import(macaron, _jsonl(tmp_path / "one.jsonl", RECORDS[:1]))
    report = _import(macaron, _jsonl(tmp_path / "two.jsonl", [{**RECORDS[0], "privacy": "private"}]))
    assert report["records"] == [{"line": 1, "id": "a1", "action": "updated", "reason": "changed privacy"}]
    assert MemoryStore.open(macaron_home / "memory").get("a1").privacy == "private"


@pytest.mark.slow
def test_a_plain_conversation_imports_a_memory_per_line_with_its_speaker(macaron, macaron_home, tmp_path):
    src = tmp_path / "chat.txt"
    src.write_text(
        "Caroline: I went to the LGBTQ support group yesterday.\n\nMelanie: 대단해요, Caroline!\n", encoding="utf-8"
    )
    report = _import(macaron, src)
    assert report["format"] == "conversation" and report["added"] == 2
    store = MemoryStore.open(macaron_home / "memory")
    speakers = {m.meta.get("speaker"): m.text for m in store.iter_all()}
    assert speakers == {
        "Caroline": "Caroline: I went to the LGBTQ support group yesterday.",
        "Melanie": "Melanie: 대단해요, Caroline!",
    }
    assert _import(macaron, src)["skipped"] == 2


@pytest.mark.parametrize(
    "text, where",
    [("Caroline: hello\njust a line\n", "line 2"), ('{"text": "ok"}\nCaroline: hi\n', "line 2")],
)
def test_a_line_in_neither_format_is_refused_naming_it(macaron, macaron_home, tmp_path, text, where):
    src = tmp_path / "mixed.txt"
    src.write_text(text, encoding="utf-8")
    result = macaron("memory", "import", src)
    assert result.returncode == 2 and where in result.stderr and "Traceback" not in result.stderr
    assert not (macaron_home / "memory").exists() or _live_texts(macaron_home) == []


@pytest.mark.parametrize(
    "name, text, speaker",
    [
        ("notes.jsonl", '{"id": "b1", "text": "I keep bees on the roof"}\n', None),
        ("chat.txt", "Caroline: I keep bees on the roof\n", "Caroline"),
    ],
)
def test_a_file_that_starts_with_a_byte_order_mark_is_imported(macaron, macaron_home, tmp_path, name, text, speaker):
    src = tmp_path / name
    src.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))  # what Notepad saves as "UTF-8 with BOM"
    report = _import(macaron, src)
    assert report["added"] == 1
    [memory] = MemoryStore.open(macaron_home / "memory").iter_all()
    assert "\ufeff" not in memory.text and memory.text.endswith("I keep bees on the roof")
    assert memory.meta.get("speaker") == speaker


@pytest.mark.parametrize("text", ["", "\n  \n", "\ufeff"])
def test_an_empty_file_says_it_is_empty(macaron, macaron_home, tmp_path, text):
    src = tmp_path / "empty.jsonl"
    src.write_text(text, encoding="utf-8")
    result = macaron("memory", "import", src)
    assert result.returncode == 0, result.stderr
    assert f"{src} is empty: nothing to import." in result.stderr
    assert "skipped" not in result.stderr + result.stdout
    assert _import(macaron, src)["format"] == "empty"


def test_the_librarys_warnings_stay_off_the_terminal(tmp_path):
    """An index trained on fewer rows than it asked for makes Lance warn (a note to its
    developers): through macaron's one import of lancedb, nothing reaches stderr."""
    script = (
        "import sys\n"
        "from macaron_cli.memory.lance import lancedb\n"
        "db = lancedb().connect(sys.argv[1])\n"
        "from lancedb.index import IvfPq\n"
        "rows = [{'id': str(i), 'vector': [float(i % 7), float(i % 5), 1.0, float(i % 3)] * 4} for i in range(300)]\n"
        "table = db.create_table('t', rows)\n"
        "table.create_index('vector', config=IvfPq(distance_type='cosine', num_partitions=64, num_sub_vectors=4))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "LANCEDB_LOG"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "db")], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "WARN" not in result.stderr, result.stderr
