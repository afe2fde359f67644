"""Exports hold every memory: they land whole where the person asked, or nowhere at all.

`memory export FILE`, `feedback export FILE` and the browser's export write through the one
atomic writer (macaron_cli/files.py): a temp file in the target's folder, renamed into place.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess

import pytest

from macaron_cli.errors import UserError
from macaron_cli.files import atomic_write
from macaron_cli.memory import Memory
from tests.conftest import REPO, macaron_command

SECRET_WORD = "Quillfeather"


def _everything_in(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def remembered(macaron):
    result = macaron("memory", "add", f"{SECRET_WORD} is the name of my childhood dog", "--privacy", "private")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("command", [("memory", "export"), ("feedback", "export")])
def test_a_folder_a_device_or_a_missing_parent_is_refused_in_one_line(macaron, remembered, tmp_path, command):
    folder = tmp_path / "exports"
    folder.mkdir()
    for target, says in (
        (folder, "is a directory"),
        ("/dev/null", "not a regular file"),
        (tmp_path / "nowhere" / "out.jsonl", "is not a directory"),
    ):
        result = macaron(*command, target)
        assert result.returncode == 2, result.stderr
        assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr
    assert _everything_in(folder) == []
    assert not (tmp_path / "nowhere").exists()


def _run_with_small_disk(args, limit_bytes: int, env_home) -> subprocess.CompletedProcess:
    """The CLI with every file it writes capped at `limit_bytes`: writes past it fail as on a full disk."""

    def cap():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # fail the write (EFBIG) instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [*macaron_command(), *map(str, args)], capture_output=True, text=True, env=env, preexec_fn=cap, timeout=120
    )


@pytest.mark.slow
def test_an_export_that_runs_out_of_disk_leaves_nothing_behind(macaron, macaron_home, tmp_path):
    rows = [{"text": f"{SECRET_WORD} note {i}: " + "a long line about the day " * 8} for i in range(400)]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert macaron("memory", "import", src).returncode == 0
    out_dir = tmp_path / "out"
    out_dir.mkdir()

    result = _run_with_small_disk(["memory", "export", out_dir / "all.jsonl"], 32 * 1024, macaron_home)

    assert result.returncode == 2, result.stderr
    assert "nothing was written" in result.stderr and "Traceback" not in result.stderr
    assert _everything_in(out_dir) == []  # no half export, no temp file
    assert macaron("memory", "export", out_dir / "all.jsonl").returncode == 0  # with room, it works
    assert _everything_in(out_dir) == ["all.jsonl"]


def test_an_interrupted_writer_removes_its_temp_file_and_keeps_the_old_file(tmp_path):
    target = tmp_path / "memories.jsonl"
    target.write_text("the earlier export\n")

    def memories():
        yield Memory(text="first")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), atomic_write(target) as out:
        for m in memories():
            out.write(m.text + "\n")
    assert _everything_in(tmp_path) == ["memories.jsonl"]
    assert target.read_text() == "the earlier export\n"


def test_the_browser_export_never_replaces_a_file_nor_leaves_a_temp_one(tmp_path):
    from macaron_cli.tui.export import export_jsonl

    def memories():
        yield Memory(text=f"{SECRET_WORD} one")
        raise OSError(28, "No space left on device")

    with pytest.raises(UserError, match="no space left"):
        export_jsonl(memories(), tmp_path / "new.jsonl")
    assert _everything_in(tmp_path) == []
    (tmp_path / "taken.jsonl").write_text("keep\n")
    with pytest.raises(UserError, match="already exists"):
        export_jsonl(iter([Memory(text="x")]), tmp_path / "taken.jsonl")
    assert _everything_in(tmp_path) == ["taken.jsonl"]
    assert export_jsonl(iter([Memory(text="x")]), tmp_path / "fresh.jsonl") == 1
    assert (tmp_path / "fresh.jsonl").stat().st_mode & 0o777 == 0o600
