"""`macaron memory import` brings a person's ChatGPT and Claude history in: every conversation
kept with its title and dates, the person's turns labelled as the notebook labels them, the
replies as their context, secrets redacted, nothing added twice, and what cannot be kept said.

The fixtures (tests/fixtures/exports/) follow the formats the products' export pages give;
labels.json is the hand-labelled answer: each message's label, secrets and role.
"""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import pytest

from macaron_cli.memory import MemoryStore

EXPORTS = Path(__file__).parent / "fixtures" / "exports"
LABELS = json.loads((EXPORTS / "labels.json").read_text(encoding="utf-8"))
FORMATS = {"chatgpt": EXPORTS / "chatgpt_conversations.json", "claude": EXPORTS / "claude_conversations.json"}


def _stored(home) -> dict:
    """The memories, by the export's own id of the message each was ("chatgpt:<its id>")."""
    return {f"{m.meta['export']}:{m.meta['message']}": m for m in MemoryStore.open(home / "memory").iter_all()}


def _import(macaron, path, *options):
    result = macaron("memory", "import", path, *options)
    assert result.returncode == 0, result.stderr
    return result


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_an_export_is_kept_with_its_titles_dates_and_the_notebooks_labels(macaron, macaron_home, fmt):
    result = _import(macaron, FORMATS[fmt])
    stored = _stored(macaron_home)
    expected = {i: label for i, label in LABELS["kept"].items() if i.startswith(f"{fmt}:")}
    assert set(stored) == set(expected)  # the edited question's old branch, a tool's output, a file: not turns
    for memory_id, label in expected.items():
        memory = stored[memory_id]
        said = (memory.privacy, sorted(memory.meta.get("redacted", [])), memory.meta["role"])
        assert said == (label["privacy"], sorted(label["redacted"]), label["role"]), memory.text
    assert not any("Tr0ub4dor&3" in m.text or "sk-ant-api03" in m.text for m in stored.values())
    assert any("**Key Settings:**" in m.text or "**Two-Pass Scan:**" in m.text for m in stored.values())

    export = json.loads(FORMATS[fmt].read_text(encoding="utf-8"))
    title = export[0]["title"] if fmt == "chatgpt" else export[0]["name"]
    first = [m for m in stored.values() if m.meta["conversation"] == title]
    assert first and all(m.meta["conversation_started"] and m.meta["conversation_updated"] for m in first)
    assert len({m.meta["session"] for m in stored.values()}) == len(export)
    assert sorted(m.created_at for m in first)[0] > first[0].meta["conversation_started"]  # when each was said
    assert f"{len(expected)} added" in result.stderr and "1 not kept" in result.stderr
    assert "not kept" in result.stderr and ("an image or a file" in result.stderr or "only files" in result.stderr)


@pytest.mark.slow
def test_importing_an_export_again_adds_nothing_even_from_its_zip(macaron, macaron_home, tmp_path):
    for path in FORMATS.values():
        _import(macaron, path)
    before = _stored(macaron_home)
    packed = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(packed, "w") as archive:  # the export page's download: the file among others
        archive.writestr("user.json", "{}")
        archive.write(FORMATS["chatgpt"], "conversations.json")
    for path in (*FORMATS.values(), packed):
        again = json.loads(_import(macaron, path, "--json").stdout)
        assert again["added"] == again["updated"] == 0 and again["skipped"] > 0
    assert _stored(macaron_home).keys() == before.keys()


@pytest.mark.slow
def test_a_dry_run_shows_each_conversation_and_its_labels_and_writes_nothing(macaron, macaron_home):
    assert not macaron_home.exists()  # a person who tries an import before anything else
    result = _import(macaron, FORMATS["chatgpt"], "--dry-run")
    out = result.stdout + result.stderr
    for title in ("Knee physio plan", "Router setup", "Budget", "Climbing gym"):
        assert title in out
    assert "private: health" in out and "private: said to be private" in out
    assert "redacted: password" in out and "Tr0ub4dor&3" not in out
    assert "Would import 12 memories" in out and "Nothing was written" in out
    assert not macaron_home.exists()  # not even the folder its list was spooled in

    report = json.loads(_import(macaron, FORMATS["claude"], "--dry-run", "--json").stdout)
    labels = sorted(label["privacy"] for label in report["labels"])
    assert labels == sorted(label["privacy"] for i, label in LABELS["kept"].items() if i.startswith("claude:"))
    assert not macaron_home.exists()


@pytest.mark.slow
def test_a_reply_too_long_for_a_memory_is_kept_in_parts_and_the_rest_of_the_file_kept(macaron, macaron_home, tmp_path):
    paragraph = "The gradient flows backward through every layer of the network. " * 40
    reply = "\n\n".join(f"Step {n}: {paragraph}" for n in range(120))  # about 300,000 characters
    export = json.loads(FORMATS["claude"].read_text(encoding="utf-8"))
    export[0]["chat_messages"][1]["content"] = [{"type": "text", "text": reply}]
    export.insert(1, {"uuid": "not-a-conversation", "summary": "a project, not a chat"})
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export), encoding="utf-8")

    result = _import(macaron, path)
    stored = list(MemoryStore.open(macaron_home / "memory").iter_all())
    message = export[0]["chat_messages"][1]["uuid"]
    parts = sorted((m for m in stored if m.meta.get("message") == message), key=lambda m: m.meta["part"])
    assert len(parts) >= 3 and all(len(p.text) <= 100_000 for p in parts)
    assert "".join(p.text for p in parts).replace("\n", "").replace(" ", "") == reply.replace("\n", "").replace(" ", "")
    assert "kept in parts" in result.stderr and f"{len(reply):,} characters" in result.stderr
    assert "conversation 2" in result.stderr and "not a Claude conversation" in result.stderr
    assert len({m.meta["message"] for m in stored}) == 8  # every turn of the file, the long one too


@pytest.mark.parametrize(
    "text, says",
    [
        (lambda whole: whole[: len(whole) * 2 // 3], "breaks off"),  # a download cut short
        (lambda whole: '[{"id": 1, "numbers": [1, 2, 3]}]', "no ChatGPT or Claude export"),
        (lambda whole: whole.replace('"mapping":', '"mapping" ', 1), "not a whole JSON list"),
    ],
    ids=["cut short", "another list", "broken json"],
)
def test_a_broken_export_is_refused_in_one_line_and_nothing_is_written(macaron, macaron_home, tmp_path, text, says):
    path = tmp_path / "conversations.json"
    path.write_text(text(FORMATS["chatgpt"].read_text(encoding="utf-8")), encoding="utf-8")
    result = macaron("memory", "import", path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (macaron_home / "memory").exists()


def test_an_export_is_read_item_by_item_whatever_the_reads_cut(monkeypatch):
    """Reads cut a value anywhere ("tr|ue", "\\u00|e9", a number): each item still comes whole,
    and the reader never holds more than the item it is on and one read."""
    import io

    from macaron_cli.memory import json_stream

    items = [{"t": "café été", "n": 12345.5, "ok": True, "none": None, "deep": [[1, [2]], {"a": "]"}]}] * 5
    text = " [ " + " , ".join(json.dumps(item) for item in items) + " ] \n"  # é written \u00e9
    for chunk in (1, 3, 7, 64):
        monkeypatch.setattr(json_stream, "CHUNK", chunk)
        reader = json_stream.ArrayReader(io.StringIO(text))
        assert list(reader) == json.loads(text)
    with pytest.raises(json_stream.BrokenJson):
        list(json_stream.ArrayReader(io.StringIO(text[: len(text) // 2])))


def _in_process_import(path, peak: list | None = None, dry_run: bool = False) -> dict:
    """`macaron memory import PATH --json` in this process (so what it reads can be watched);
    with `peak`, Python's peak memory while it ran (tracemalloc) is appended to it."""
    import contextlib
    import tempfile
    import tracemalloc

    from macaron_cli.memory import commands

    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:  # on disk: what it writes is not what it holds
        if peak is not None:
            tracemalloc.start()
        with contextlib.redirect_stdout(out):
            commands.import_file(path, json_out=True, dry_run=dry_run)
        if peak is not None:
            peak.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        out.seek(0)
        return json.load(out)


def _labels(home) -> dict:
    return {i: (m.text, m.privacy, sorted(m.meta.get("redacted", []))) for i, m in _stored(home).items()}


def test_a_conversation_continued_since_the_last_import_reads_only_its_new_turns(macaron_home, tmp_path, monkeypatch):
    """Importing the export again after a conversation went on: only the new reply is read
    (for its label, for secrets); what is kept already, as written, is skipped unread, and
    every memory is labelled and redacted as a first import of the whole file labels it."""
    from macaron_cli import privacy
    from macaron_cli.memory import secrets

    monkeypatch.setenv("MACARON_EMBEDDINGS", "off")
    export = json.loads(FORMATS["claude"].read_text(encoding="utf-8"))
    therapy = export[1]["chat_messages"]  # a private question ("keep this between us"), answered
    reply = "Of course. How have the first weeks felt?"  # plain words: private only as the question's answer
    therapy[1]["text"] = therapy[1]["content"][0]["text"] = reply
    whole = tmp_path / "whole" / "conversations.json"
    whole.parent.mkdir()
    whole.write_text(json.dumps(export), encoding="utf-8")
    answer = therapy.pop(1)["uuid"]  # the export of a week before: the question not answered yet
    earlier = tmp_path / "conversations.json"
    earlier.write_text(json.dumps(export), encoding="utf-8")
    _in_process_import(earlier)

    read: list[str] = []

    def watched(reader):
        return lambda text: read.append(text) or reader(text)

    monkeypatch.setattr(privacy, "level_said", watched(privacy.level_said))
    monkeypatch.setattr(secrets, "find", watched(secrets.find))
    report = _in_process_import(whole)
    assert (report["added"], report["updated"]) == (1, 0)
    question = therapy[0]["text"]
    with_a_secret = {m.text for m in _stored(macaron_home).values() if m.meta.get("redacted")}
    long_texts = {t for t in read if len(t) > 40}  # ids and titles are short; every turn here is longer
    assert long_texts - {reply, question} <= {t for t in long_texts if "sk-ant" in t}, long_texts
    assert reply in read and with_a_secret  # the new reply read; a text whose secret was redacted is read to compare

    continued = _labels(macaron_home)
    monkeypatch.undo()
    monkeypatch.setenv("MACARON_HOME", str(tmp_path / "fresh"))
    monkeypatch.setenv("MACARON_EMBEDDINGS", "off")
    _in_process_import(whole)
    assert continued == _labels(tmp_path / "fresh")  # labels and redactions as a first import gives them
    asked = LABELS["kept"][f"claude:{therapy[0]['uuid']}"]["privacy"]
    assert continued[f"claude:{answer}"][1] == continued[f"claude:{therapy[0]['uuid']}"][1] == asked


def _long_history(path, turns: int) -> None:
    """A ChatGPT export of `turns` short turns, ten to a conversation, each turn its own words."""
    conversations = []
    for number in range(turns // 10):
        mapping = {f"root-{number}": {"id": f"root-{number}", "message": None, "parent": None, "children": []}}
        parent = f"root-{number}"
        for turn in range(10):
            node = f"m-{number}-{turn}"
            role = "user" if turn % 2 == 0 else "assistant"
            said = (
                f"How do I water tomato bed {number} after week {turn}?" if role == "user" else f"Twice, bed {number}."
            )
            message = {"id": node, "author": {"role": role}, "create_time": 1_600_000_000 + number * 3600 + turn * 30}
            message["content"] = {"content_type": "text", "parts": [said]}
            mapping[node] = {"id": node, "message": message, "parent": parent, "children": []}
            mapping[parent]["children"].append(node)
            parent = node
        conversations.append(
            {
                "id": f"c-{number}",
                "title": f"Bed {number}",
                "create_time": 1_600_000_000 + number * 3600,
                "mapping": mapping,
                "current_node": parent,
            }
        )
    path.write_text(json.dumps(conversations), encoding="utf-8")


@pytest.mark.slow
def test_a_history_twice_as_long_is_imported_in_the_same_memory(macaron_home, tmp_path, monkeypatch):
    """Memory does not grow with the file: importing twice the turns (and importing them again)
    peaks within a fixed margin of the shorter history, beyond a batch of records in flight.
    Python's own allocations (tracemalloc), so the figure is this process's, not the machine's."""
    import functools

    from macaron_cli.memory import json_stream, redact, store

    monkeypatch.setenv("MACARON_EMBEDDINGS", "off")
    # what is in flight, a batch of records and a read of the file: small, so growth would show
    monkeypatch.setattr(store, "BATCH", 100)
    monkeypatch.setattr(json_stream, "CHUNK", 4096)
    # its cache of short strings is bounded by design; small here so a short file fills it too
    monkeypatch.setattr(redact, "_redact_short", functools.lru_cache(maxsize=64)(redact._redact_short.__wrapped__))
    _in_process_import(FORMATS["chatgpt"])  # what a first import loads once (modules, word lists)
    peaks = {}
    for turns in (400, 1600):
        monkeypatch.setenv("MACARON_HOME", str(tmp_path / str(turns)))
        _long_history(tmp_path / f"{turns}.json", turns)
        for run in ("first", "again"):
            peak: list[int] = []
            report = _in_process_import(tmp_path / f"{turns}.json", peak)
            peaks[turns, run] = peak[0]
            assert (report["added"], report["skipped"]) == ((turns, 0) if run == "first" else (0, turns))
    for run in ("first", "again"):
        assert peaks[1600, run] - peaks[400, run] < 100_000, peaks


# what importing the fixtures kept and said, recorded before memory was made flat
# (again, after an intended change: PYTHONPATH=. python3 tests/test_memory_chat_import.py --update)
KEPT = EXPORTS / "kept.json"


def _what_is_kept(home, monkeypatch) -> dict:
    """Each fixture imported, imported again and dry-run: every stored row and every report."""
    monkeypatch.setenv("MACARON_HOME", str(home))
    monkeypatch.setenv("MACARON_EMBEDDINGS", "off")
    kept: dict = {}
    for fmt, path in FORMATS.items():
        kept[fmt] = {"dry run": _in_process_import(path, dry_run=True)}
        kept[fmt]["first"] = _in_process_import(path)
        kept[fmt]["again"] = _in_process_import(path)
    for report in (r for reports in kept.values() for r in reports.values()):
        report["file"] = Path(report["file"]).name
    stored = MemoryStore.open(home / "memory").iter_all()
    kept["rows"] = sorted((m.to_dict() for m in stored), key=lambda row: row["id"])
    return kept


def test_an_import_keeps_and_labels_every_record_as_it_did_before_memory_was_made_flat(tmp_path, monkeypatch):
    """The rows stored (text, labels, redactions, dates, ids) and what each report says, field
    for field, as recorded from the import that held every record in memory."""
    assert _what_is_kept(tmp_path, monkeypatch) == json.loads(KEPT.read_text(encoding="utf-8"))


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        KEPT.write_text(json.dumps(_what_is_kept(Path(folder), patch), ensure_ascii=False, indent=1) + "\n")
