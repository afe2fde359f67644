"""The conventions a newcomer expects of a command line: versions, usage lines, pipes,
completion, one name per option, and the memory commands agreeing with each other."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import macaron_command


def test_version_short_and_long(macaron):
    for flag in ("-V", "--version"):
        result = macaron(flag)
        assert result.returncode == 0 and result.stdout.startswith("macaron ")


def test_usage_lines_name_arguments_plainly_and_completion_is_offered(macaron):
    edit = macaron("memory", "edit", "--help").stdout.splitlines()[0]
    assert edit.endswith("[OPTIONS] ID TEXT") and "{" not in edit
    assert macaron("run", "--help").stdout.splitlines()[0].endswith("[APP]")
    assert "--install-completion" in macaron("--help").stdout


def test_a_reader_that_stops_early_is_no_failure(macaron_home, macaron, tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_text("".join(f"Sam: a line worth keeping, number {i}\n" for i in range(2000)), encoding="utf-8")
    assert macaron("memory", "import", lines).returncode == 0
    env_cmd = " ".join(macaron_command())
    piped = subprocess.run(
        f"{env_cmd} memory list --limit 2000 | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert piped.stdout.strip() == "0" and piped.stderr == "", piped.stderr


@pytest.mark.slow
def test_memory_commands_agree_on_versions_and_speak_json(macaron, macaron_home, tmp_path):
    first = json.loads(macaron("memory", "add", "My sister lives in Busan", "--json").stdout)
    newer = json.loads(macaron("memory", "edit", first["id"], "My sister lives in Seoul", "--json").stdout)
    assert newer["supersedes"] == first["id"]

    refused = macaron("memory", "edit", first["id"], "My sister lives in Jeju")
    assert refused.returncode == 2 and newer["id"] in refused.stderr  # names the id to edit instead

    assert [m["id"] for m in json.loads(macaron("memory", "list", "--json").stdout)] == [newer["id"]]
    every = json.loads(macaron("memory", "list", "--all", "--json").stdout)
    assert {m["id"]: m["replaced"] for m in every} == {newer["id"]: False, first["id"]: True}
    assert "(replaced)" in macaron("memory", "list", "--all").stdout

    assert json.loads(macaron("memory", "pin", newer["id"], "--json").stdout)["pinned"] is True
    assert len(json.loads(macaron("memory", "search", "sister", "--limit", "1", "--json").stdout)) == 1
    assert len(json.loads(macaron("memory", "search", "sister", "--k", "1", "--json").stdout)) == 1  # older name
    exported = json.loads(macaron("memory", "export", tmp_path / "live.jsonl", "--json").stdout)
    assert exported["exported"] == 1  # live versions; --all keeps the history
    exported = json.loads(macaron("memory", "export", tmp_path / "all.jsonl", "--all", "--json").stdout)
    assert exported["exported"] == 2
    gone = json.loads(macaron("memory", "forget", newer["id"], "--json").stdout)
    assert set(gone["forgotten"]) == {newer["id"], first["id"]}
