"""`macaron checkpoint`, `checkpoints` and `rollback` as a person runs them."""

from __future__ import annotations

import json
import os

import pexpect
import pytest

from tests.conftest import REPO, macaron_command
from tests.support.app_dirs import DATA_FILE, git, make_app_dir, repo_state, tree_files


@pytest.fixture
def app(tmp_path):
    return make_app_dir(tmp_path / "apps" / "water")  # inside MACARON_APPS_DIR: found by slug


def test_checkpoint_list_and_json_shape(macaron, app):
    assert macaron("checkpoint", "water", "-m", "first").returncode == 0
    (app / "app.py").write_text("print('v2')\n")
    result = macaron("checkpoint", str(app), "-m", "second")
    assert result.returncode == 0 and "Checkpoint 2 of water saved" in result.stdout

    listed = json.loads(macaron("checkpoints", "water", "--json").stdout)
    assert [c["id"] for c in listed] == [1, 2]
    assert set(listed[0]) == {"id", "phase", "message", "time", "tests", "cost_usd", "files_changed", "commit"}
    assert (listed[1]["phase"], listed[1]["message"], listed[1]["files_changed"]) == ("manual", "second", 1)
    human = macaron("checkpoints", cwd=app)  # APP omitted: the app we are in, named
    assert "second" in human.stdout and "manual" in human.stdout
    assert human.stdout.splitlines()[0].startswith("Checkpoints of water (")


def test_rollback_names_the_app_and_its_undo_hint_works_from_anywhere(macaron, app, tmp_path):
    from macaron_cli.apps import register

    newer = make_app_dir(tmp_path / "apps" / "tea-timer")  # the newest app: what no APP picks outside
    register("water", path=str(app), created_at="2026-01-01T00:00:00+00:00")
    register("tea-timer", path=str(newer), created_at="2026-02-01T00:00:00+00:00")
    macaron("checkpoint", "water", "-m", "first")
    (app / "app.py").write_text("print('v2')\n")
    macaron("checkpoint", "water", "-m", "second")

    done = macaron("rollback", "water", "--to", "1", "--yes", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Roll back water to checkpoint 1" in done.stdout
    hint = done.stdout.split("Undo with `")[1].split("`")[0]
    assert hint == "macaron rollback water --undo"

    undo = macaron(*hint.split()[1:], "--yes", cwd=tmp_path)  # from outside the app, as printed
    assert undo.returncode == 0, undo.stderr
    assert "Undo the last rollback of water" in undo.stdout
    assert (app / "app.py").read_text() == "print('v2')\n"


@pytest.mark.slow
def test_rollback_dry_run_then_yes_then_undo(macaron, app):
    macaron("checkpoint", "water", "-m", "first")
    (app / "app.py").write_text("print('v2')\n")
    (app / "new.py").write_text("x = 1\n")
    macaron("checkpoint", "water", "-m", "second")
    (app / "app.py").write_text("print('unsaved')\n")
    before = tree_files(app)

    state = repo_state(app)
    dry = macaron("rollback", "water", "--to", "1", "--dry-run")
    assert dry.returncode == 0 and "new.py" in dry.stdout and "nothing changed" in dry.stdout.lower()
    assert repo_state(app) == state

    done = macaron("rollback", "water", "--to", "1", "--yes")
    assert done.returncode == 0, done.stderr
    assert (app / "app.py").read_text() == "print('hello')\n" and not (app / "new.py").exists()
    assert "saved as checkpoint 3" in done.stdout

    assert macaron("rollback", "water", "--undo", "--yes").returncode == 0
    assert tree_files(app) == before


def test_rollback_with_data_restores_the_snapshot(macaron, app):
    (app / DATA_FILE).parent.mkdir()
    (app / DATA_FILE).write_text("1 glass")
    macaron("checkpoint", "water", "-m", "first")
    (app / DATA_FILE).write_text("8 glasses")
    (app / "app.py").write_text("print('v2')\n")
    assert macaron("rollback", "water", "--steps", "1", "--yes").returncode == 0
    assert (app / DATA_FILE).read_text() == "8 glasses"  # code only, by default
    assert macaron("rollback", "water", "--to", "1", "--with-data", "--yes").returncode == 0
    assert (app / DATA_FILE).read_text() == "1 glass"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--to", "1"], "--yes"),  # no terminal to confirm in
        (["--to", "7", "--yes"], "no checkpoint 7"),
        (["--undo", "--yes"], "no rollback to undo"),
        (["--undo", "--to", "1"], "--undo"),
        (["--yes"], "--to ID or --steps N"),
    ],
)
def test_rollback_refusals_are_one_line_exit_2_and_change_nothing(macaron, app, args, words):
    macaron("checkpoint", "water", "-m", "first")
    (app / "app.py").write_text("print('unsaved')\n")
    state = repo_state(app)
    result = macaron("rollback", "water", *args, input="")
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert repo_state(app) == state


def test_outside_a_macaron_app_is_refused(macaron, tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    result = macaron("checkpoint", str(plain), "-m", "x")
    assert result.returncode == 2 and "not a macaron app" in result.stderr
    assert not (plain / ".git").exists()


@pytest.mark.slow
def test_rollback_asks_in_a_terminal_and_no_changes_nothing(macaron, app):
    macaron("checkpoint", "water", "-m", "first")
    (app / "app.py").write_text("print('unsaved')\n")
    state = repo_state(app)
    env = dict(os.environ)
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":  # as the `macaron` fixture does
        env["PYTHONPATH"] = str(REPO)
    command = macaron_command()
    for answer, unchanged in (("n", True), ("y", False)):
        child = pexpect.spawn(
            command[0], [*command[1:], "rollback", "water", "--to", "1"], env=env, encoding="utf-8", timeout=60
        )
        child.expect(r"Go ahead\?")
        child.sendline(answer)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert (repo_state(app) == state) == unchanged
    assert (app / "app.py").read_text() == "print('hello')\n"
    undo = macaron("rollback", "water", "--undo", "--dry-run")
    assert undo.returncode == 0 and "app.py" in undo.stdout
    assert (app / "app.py").read_text() == "print('hello')\n"


# ── damaged repos: refuse before touching a file, say what is damaged ─────────────────
def _object(app, sha):
    return app / ".git" / "objects" / sha[:2] / sha[2:]


def _delete_object(app, sha):
    path = _object(app, sha)
    os.chmod(path, 0o644)
    path.unlink()


def _garbage_checkpoint_ref(app):
    (app / ".git/refs/macaron/checkpoints/1").write_text("garbage\n")


def _missing_checkpoint_commit(app):
    (app / ".git/refs/macaron/checkpoints/1").write_text("1" * 40 + "\n")


def _deleted_tree(app):
    _delete_object(app, git(app, "rev-parse", "refs/macaron/checkpoints/1^{tree}").strip())


def _deleted_file(app):  # checkpoint 1's app.py exists nowhere else
    _delete_object(app, git(app, "rev-parse", "refs/macaron/checkpoints/1:app.py").strip())


def _garbage_branch(app):
    (app / ".git/refs/heads/main").write_text("garbage\n")


def _corrupt_index(app):
    (app / ".git/index").write_bytes(b"DIRC and then nonsense")


DAMAGE = {
    "garbage checkpoint ref": (_garbage_checkpoint_ref, "checkpoint 1", "'garbage'"),
    "missing checkpoint commit": (_missing_checkpoint_commit, "checkpoint 1", "missing"),
    "deleted tree object": (_deleted_tree, "checkpoint 1", "tree"),
    "deleted file object": (_deleted_file, "checkpoint 1", "missing"),
    "garbage branch": (_garbage_branch, "refs/heads/main", "update-ref refs/heads/main"),
    "corrupt index": (_corrupt_index, ".git/index", "git -C"),
}


@pytest.mark.slow  # about ten CLI runs per case
@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_repo_is_refused_before_any_file_changes(macaron, app, case):
    (app / DATA_FILE).parent.mkdir()
    (app / DATA_FILE).write_text("1 glass")
    assert macaron("checkpoint", "water", "-m", "first").returncode == 0
    (app / "app.py").write_text("print('v2')\n")
    (app / DATA_FILE).write_text("2 glasses")
    assert macaron("checkpoint", "water", "-m", "second").returncode == 0
    # An older rollback in the history: a broken --undo used to reverse this one.
    assert macaron("rollback", "water", "--to", "1", "--with-data", "--yes").returncode == 0
    (app / "app.py").write_text("print('v4')\n")
    assert macaron("checkpoint", "water", "-m", "fourth").returncode == 0
    (app / "app.py").write_text("print('unsaved')\n")
    (app / DATA_FILE).write_text("5 glasses")
    damage, names, detail = DAMAGE[case]
    damage(app)
    state = repo_state(app)

    for args in (
        ["--to", "1", "--dry-run"],
        ["--to", "1", "--yes"],
        ["--to", "1", "--with-data", "--yes"],
        ["--undo", "--yes"],
    ):
        result = macaron("rollback", "water", *args)
        assert "Traceback" not in result.stderr, result.stderr
        if args[0] == "--undo" and names == "checkpoint 1":
            continue  # the undo goes back to checkpoint 2, which is whole: it may go ahead
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        message = result.stderr.strip()
        assert len(message.splitlines()) == 1 and names in message and detail in message, message
        assert "nothing was changed" in message
        assert repo_state(app) == state  # byte for byte: files, data, snapshots, refs, index
        assert (app / DATA_FILE).read_text() == "5 glasses"

    listed = macaron("checkpoints", "water")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    assert "fourth" in listed.stdout
    if names == "checkpoint 1":
        assert "Checkpoint 1 is damaged" in listed.stderr
        ids = [line.split()[0] for line in listed.stdout.splitlines()[1:]]  # under "Checkpoints of water"
        assert ids[0] == "2" and "1" not in ids


def test_an_index_lock_left_by_a_killed_git_is_cleared_but_never_a_live_ones(macaron, app):
    import subprocess

    macaron("checkpoint", "water", "-m", "first")
    (app / "app.py").write_text("print('v2')\n")
    macaron("checkpoint", "water", "-m", "second")
    lock = app / ".git" / "index.lock"
    lock.write_bytes(b"")  # what a git killed while writing the index leaves

    # a git command at work in the app: its lock is not macaron's to take
    live = subprocess.Popen(["git", "cat-file", "--batch"], cwd=app, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        waiting = macaron("rollback", "water", "--to", "1", "--yes")
    finally:
        live.stdin.close()
        live.wait(timeout=30)
    assert waiting.returncode == 2 and len(waiting.stderr.splitlines()) == 1
    assert "another git command is using water" in waiting.stderr and f"delete {lock}" in waiting.stderr
    assert lock.exists() and (app / "app.py").read_text() == "print('v2')\n"

    done = macaron("rollback", "water", "--to", "1", "--yes")  # no git running now: the lock is stale

    assert done.returncode == 0, done.stderr
    assert f"Removed {lock}" in done.stdout and not lock.exists()
    assert (app / "app.py").read_text() == "print('hello')\n"


@pytest.mark.parametrize(
    "ignored_in",
    [
        pytest.param(2, id="ignored-only-in-the-latest-checkpoint"),
        pytest.param(1, id="ignored-only-in-the-target"),
    ],
)
def test_rollback_then_undo_brings_back_a_folder_ignored_in_only_one_checkpoint(macaron, app, ignored_in):
    """A folder (node_modules/) git-ignored in one checkpoint and not in the other: rolling
    back and undoing gives the person back every file of it, byte for byte."""

    def node_modules():
        (app / "node_modules" / "pkg").mkdir(parents=True)
        (app / "node_modules" / "pkg" / "index.js").write_text("module.exports = 1\n")
        (app / "node_modules" / "notes.txt").write_text("the person's own notes\n")

    if ignored_in == 1:  # there (ignored) at checkpoint 1, then tracked by checkpoint 2
        (app / ".gitignore").write_text("node_modules/\n")
        node_modules()
    assert macaron("checkpoint", "water", "-m", "first").returncode == 0
    if ignored_in == 2:  # made after checkpoint 1, ignored from checkpoint 2 on
        node_modules()
    (app / ".gitignore").write_text("node_modules/\n" if ignored_in == 2 else "")
    assert macaron("checkpoint", "water", "-m", "second").returncode == 0
    before = tree_files(app)

    done = macaron("rollback", "water", "--to", "1", "--yes")
    assert done.returncode == 0, done.stderr
    plan = macaron("rollback", "water", "--undo", "--dry-run")
    assert plan.returncode == 0 and "node_modules" not in plan.stdout  # nothing of it will change
    undo = macaron("rollback", "water", "--undo", "--yes")
    assert undo.returncode == 0, undo.stderr
    assert tree_files(app) == before
