"""Checkpoints and rollback on a real git repo: what they keep, and when they refuse."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from macaron_cli.checkpoints import AppRepo
from macaron_cli.errors import UserError
from tests.support.app_dirs import DATA_FILE, git, make_app_dir, repo_state, tree_files


@pytest.fixture
def app(tmp_path):
    return make_app_dir(tmp_path / "water")


def write(app, rel, text):
    (app / rel).parent.mkdir(parents=True, exist_ok=True)
    (app / rel).write_text(text)


def test_init_makes_main_branch_ignores_private_state_and_data(app):
    assert git(app, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    ignored = (app / ".gitignore").read_text().splitlines()
    # A folder macaron did not register keeps its whole data/ out of git (apps.pinned: the safest).
    assert "/.macaron/" in ignored and git(app, "check-ignore", DATA_FILE).strip() == DATA_FILE
    AppRepo.init(app)  # idempotent: nothing is added twice
    assert (app / ".gitignore").read_text().splitlines() == ignored


def test_init_gives_a_committer_when_git_has_none(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "nohome"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nohome"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"):
        monkeypatch.delenv(name, raising=False)
    app = make_app_dir(tmp_path / "app")
    cp = AppRepo.open(app).checkpoint("scaffold", "start")
    assert git(app, "log", "-1", "--format=%ae", cp.commit).strip() == "macaron@localhost"


def test_checkpoint_captures_shell_made_untracked_and_deleted_files(app):
    repo = AppRepo.open(app)
    repo.checkpoint("scaffold", "start")
    subprocess.run("mkdir -p web && echo '<h1>hi</h1>' > web/index.html && rm app.py", shell=True, cwd=app, check=True)
    cp = repo.checkpoint("build", "made by a shell", tests={"passed": 3, "failed": 0}, cost_usd=0.25)
    assert git(app, "status", "--porcelain") == ""
    assert git(app, "ls-tree", "-r", "--name-only", cp.commit).split() == [
        ".gitignore",
        "macaron.json",
        "web/index.html",
    ]
    listed = repo.checkpoints()[-1]
    assert (listed.id, listed.phase, listed.message, listed.tests, listed.cost_usd, listed.files_changed) == (
        2,
        "build",
        "made by a shell",
        {"passed": 3, "failed": 0},
        0.25,
        2,
    )
    assert git(app, "rev-parse", "refs/macaron/checkpoints/2").strip() == cp.commit


def test_rollback_saves_dirty_work_first_and_undo_restores_it_exactly(app):
    repo = AppRepo.open(app)
    repo.checkpoint("scaffold", "start")
    write(app, "app.py", "print('v2')\n")
    repo.checkpoint("build", "v2")
    write(app, "app.py", "print('unsaved edit')\n")
    write(app, "notes.txt", "untracked thoughts\n")
    before = tree_files(app)

    result = repo.rollback(to=1)
    assert (app / "app.py").read_text() == "print('hello')\n" and not (app / "notes.txt").exists()
    assert result.saved.phase == "pre-rollback"
    assert git(app, "status", "--porcelain") == ""

    repo.undo()
    assert tree_files(app) == before


def test_rollback_after_the_persons_own_commits_on_another_branch_keeps_them(app):
    repo = AppRepo.open(app)
    repo.checkpoint("scaffold", "start")
    git(app, "switch", "-c", "experiment")
    write(app, "mine.txt", "my own work\n")
    git(app, "add", "-A")
    git(app, "commit", "-m", "my commit")
    mine = git(app, "rev-parse", "HEAD").strip()

    repo.rollback(to=1)
    assert not (app / "mine.txt").exists()
    assert git(app, "symbolic-ref", "HEAD").strip() == "refs/heads/experiment"
    assert git(app, "merge-base", "--is-ancestor", mine, "HEAD", check=False) == ""  # history kept
    repo.undo()
    assert (app / "mine.txt").read_text() == "my own work\n"


def test_steps_count_checkpoints_from_the_current_state(app):
    repo = AppRepo.open(app)
    for n in range(1, 4):
        write(app, "app.py", f"v{n}\n")
        repo.checkpoint("build", f"v{n}")
    repo.rollback(steps=1)
    assert (app / "app.py").read_text() == "v2\n"
    write(app, "app.py", "edited after\n")
    # The edit is the newest state; one step back from it is the latest checkpoint.
    repo.rollback(steps=1)
    assert (app / "app.py").read_text() == "v2\n"


def test_dry_run_shows_the_diff_and_changes_nothing(app):
    repo = AppRepo.open(app)
    repo.checkpoint("scaffold", "start")
    write(app, "extra.py", "x = 1\n")
    git(app, "add", "extra.py")  # the person's staging survives a dry run too
    state = repo_state(app)
    plan = repo.rollback(to=1, dry_run=True)
    assert "extra.py" in plan.diffstat and plan.files_changed == 1
    assert repo_state(app) == state


def test_data_is_kept_out_of_git_and_restored_only_with_data(app):
    repo = AppRepo.open(app)
    write(app, DATA_FILE, "water: 1 glass")
    repo.checkpoint("scaffold", "start")
    write(app, DATA_FILE, "water: 5 glasses")
    write(app, "app.py", "v2\n")
    repo.checkpoint("build", "v2")
    assert DATA_FILE not in git(app, "ls-tree", "-r", "--name-only", "HEAD")

    repo.rollback(to=1)
    assert (app / DATA_FILE).read_text() == "water: 5 glasses"
    repo.undo()
    write(app, DATA_FILE, "water: 6 glasses")
    repo.rollback(to=1, with_data=True)
    assert (app / DATA_FILE).read_text() == "water: 1 glass"
    repo.undo()
    assert (app / DATA_FILE).read_text() == "water: 6 glasses"


def test_unchanged_data_is_hardlinked_between_snapshots_not_to_the_live_file(app):
    repo = AppRepo.open(app)
    write(app, DATA_FILE, "data")
    repo.checkpoint("scaffold", "one")
    repo.checkpoint("build", "two")
    first = app / ".macaron/snapshots/1/files" / DATA_FILE
    second = app / ".macaron/snapshots/2/files" / DATA_FILE
    assert os.path.samefile(first, second)
    assert not os.path.samefile(first, app / DATA_FILE)


def test_stale_sqlite_wal_is_removed_when_data_is_restored(app):
    repo = AppRepo.open(app)
    write(app, DATA_FILE, "db v1")
    repo.checkpoint("scaffold", "one")
    write(app, DATA_FILE + "-wal", "newer transactions")
    repo.checkpoint("build", "two")
    repo.rollback(to=1, with_data=True)
    assert not (app / (DATA_FILE + "-wal")).exists()
    repo.undo()
    assert (app / (DATA_FILE + "-wal")).read_text() == "newer transactions"


# ── refusals: one clear UserError, repo untouched ───────────────────────────────────────
def _refuses(app, action, words):
    state = repo_state(app)
    with pytest.raises(UserError) as err:
        action()
    assert words in str(err.value) and "\n" not in str(err.value)
    assert repo_state(app) == state


def _two_checkpoints(app):
    repo = AppRepo.open(app)
    repo.checkpoint("scaffold", "start")
    write(app, "app.py", "v2\n")
    repo.checkpoint("build", "v2")
    return repo


def _conflict(app, command):
    git(app, "switch", "-q", "-c", "other", "HEAD~1")
    write(app, "app.py", "theirs\n")
    git(app, "commit", "-qam", "theirs")
    git(app, "switch", "-q", "main")
    git(app, *command, check=False)


@pytest.mark.parametrize("command, words", [(["merge", "other"], "merge"), (["rebase", "other"], "rebase")])
def test_refuses_in_the_middle_of_a_merge_or_rebase(app, command, words):
    repo = _two_checkpoints(app)
    _conflict(app, command)
    write(app, "half-resolved.txt", "x")
    _refuses(app, lambda: repo.checkpoint("manual", "now"), words)
    _refuses(app, lambda: repo.rollback(to=1), words)
    _refuses(app, lambda: repo.undo(), words)


def test_refuses_on_a_detached_head(app):
    repo = _two_checkpoints(app)
    git(app, "checkout", "-q", "--detach", "HEAD~1")
    write(app, "app.py", "dirty\n")
    _refuses(app, lambda: repo.checkpoint("manual", "now"), "detached HEAD")
    _refuses(app, lambda: repo.rollback(to=2), "detached HEAD")


def test_refuses_outside_a_macaron_app(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    git(plain, "init", "-q")
    with pytest.raises(UserError, match="not a macaron app"):
        AppRepo.open(plain)
    with pytest.raises(UserError, match="not a macaron app"):
        AppRepo.open(tmp_path / "missing")


def test_a_bare_git_repo_is_refused_in_one_line(tmp_path):
    app = tmp_path / "app"
    app.mkdir()
    (app / "macaron.json").write_text("{}")
    subprocess.run(["git", "init", "-q", "--bare", str(app / ".git")], check=True)
    with pytest.raises(UserError, match="is a bare git repo"):
        AppRepo.open(app)


def test_refuses_unknown_checkpoints_and_bad_steps(app):
    repo = _two_checkpoints(app)
    write(app, "app.py", "dirty\n")
    _refuses(app, lambda: repo.rollback(to=99), "no checkpoint 99")
    _refuses(app, lambda: repo.rollback(steps=3), "only 2")
    _refuses(app, lambda: repo.rollback(steps=0), "--steps")
    _refuses(app, lambda: repo.rollback(), "--to ID or --steps N")
    _refuses(app, lambda: repo.rollback(to=1, steps=1), "--to ID or --steps N")
    _refuses(app, lambda: repo.undo(), "no rollback to undo")


HOLD_LOCK = textwrap.dedent("""
    import sys, time
    from macaron_cli.checkpoints import AppRepo
    with AppRepo.open(sys.argv[1]).lock():
        print("held", flush=True)
        time.sleep(60)
""")


def test_refuses_while_another_process_holds_the_app(app):
    repo = _two_checkpoints(app)
    write(app, "app.py", "dirty\n")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(app)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        _refuses(app, lambda: repo.checkpoint("manual", "now"), f"pid {holder.pid}")
        _refuses(app, lambda: repo.rollback(to=1), "working on this app")
    finally:
        holder.kill()
        holder.wait()
    # Its process is gone: the lock it left behind is taken over.
    assert repo.checkpoint("manual", "after").id == 3


def test_a_lock_file_left_by_a_dead_process_is_taken_over(app):
    repo = AppRepo.open(app)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (app / ".macaron").mkdir(exist_ok=True)
    (app / ".macaron/lock").write_text(f"{dead.pid}\n")
    assert repo.checkpoint("manual", "works").id == 1
    assert not (app / ".macaron/lock").exists()


def test_the_lock_is_reentrant_within_one_process(app):
    repo = AppRepo.open(app)
    with repo.lock():
        with AppRepo.open(app).lock():
            repo.checkpoint("build", "inside a make")
        assert (app / ".macaron/lock").exists()
    assert not (app / ".macaron/lock").exists()


def test_refuses_to_overwrite_a_git_ignored_file_and_changes_nothing(app):
    repo = AppRepo.open(app)
    write(app, "cache.txt", "tracked once\n")
    repo.checkpoint("build", "with cache.txt")
    write(app, ".gitignore", (app / ".gitignore").read_text() + "cache.txt\n")
    git(app, "rm", "-q", "--cached", "cache.txt")
    repo.checkpoint("build", "cache.txt ignored from now on")
    write(app, "cache.txt", "the person's ignored notes\n")
    write(app, "app.py", "dirty\n")
    _refuses(app, lambda: repo.rollback(to=1), "git-ignored")
    assert [c.id for c in repo.checkpoints()] == [1, 2]


def test_an_ignored_folder_in_the_way_is_refused_but_a_tracked_one_is_replaced(app):
    repo = AppRepo.open(app)
    write(app, "out", "a file once\n")
    write(app, "lib", "a module once\n")
    repo.checkpoint("build", "files")
    (app / "out").unlink()
    (app / "lib").unlink()
    write(app, "lib/a.py", "now a package\n")  # tracked: fine to replace
    write(app, ".gitignore", (app / ".gitignore").read_text() + "out/\n")
    write(app, "out/build.log", "ignored output\n")  # ignored: must not vanish
    repo.checkpoint("build", "folders")
    _refuses(app, lambda: repo.rollback(to=1), "out/build.log")
    (app / "out/build.log").unlink()
    (app / "out").rmdir()
    repo.rollback(to=1)
    assert (app / "lib").read_text() == "a module once\n"
    repo.undo()
    assert (app / "lib/a.py").read_text() == "now a package\n"


def test_nested_git_repos_are_set_aside_said_and_their_files_kept(app, macaron):
    for folder, committed in (("vendor/empty", False), ("vendor/lib", True)):
        (app / folder).mkdir(parents=True)
        git(app / folder, "init", "-q")
        write(app, f"{folder}/code.py", "x = 1\n")
        if committed:
            git(app / folder, "add", "-A")
            git(app / folder, "commit", "-qm", "theirs")
    write(app, "app.py", "mine\n")
    result = macaron("checkpoint", str(app), "-m", "with nested repos")
    assert result.returncode == 0, result.stderr
    said = " ".join(result.stderr.split())
    assert "vendor/empty was a git repository inside" in said and "vendor/lib was a git repository" in said
    committed = git(app, "ls-tree", "-r", "HEAD")
    assert "160000" not in committed and "vendor/lib/code.py" in committed and "vendor/empty/code.py" in committed
    assert not (app / "vendor/lib/.git").exists()
    kept = list(Path(os.environ["MACARON_HOME"]).glob("set-aside/*/vendor/lib/.git"))
    assert kept and "theirs" in git(kept[0].parent, "log", "--format=%s")  # its history is kept
