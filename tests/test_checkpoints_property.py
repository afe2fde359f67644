"""Random histories on a real git repo: nothing is ever lost, every restore is exact.

A state machine mixes what a person and an agent do to an app (edits, adds, deletes,
renames, binary files, executable bits, ignored scratch files, data writes, the person's
own commits) with checkpoints, rollbacks (by id or steps, with or without data) and undos.
After every step: the working tree is byte-identical to a model of what it should be, and
every file content macaron ever saw is still reachable from some ref.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from macaron_cli.checkpoints import AppRepo
from macaron_cli.checkpoints.records import REFS
from macaron_cli.errors import UserError
from tests.support.app_dirs import DATA_FILE, git, make_app_dir, tree_files

# No path is a folder of another, so renames never meet a file/folder clash.
PATHS = ["a.txt", "b.bin", "run.sh", "src/c.py", "src/d.txt", "src/deep/e.md", "docs/readme"]
SCRATCH = "scratch.log"  # ignored by the app's .gitignore: macaron must never touch it
contents = st.one_of(st.binary(max_size=64), st.text(max_size=40).map(str.encode))


def blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class CheckpointHistory(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="macaron-prop-"))
        self.app = make_app_dir(self.tmp / "app", files={".gitignore": "*.log\n"})
        self.repo = AppRepo.open(self.app)
        self.files = dict(tree_files(self.app))  # tracked + untracked, not ignored
        self.scratch: bytes | None = None
        self.data: bytes | None = None
        self.saved: dict[int, tuple[dict, bytes | None]] = {}  # checkpoint id → (files, data)
        self.head_checkpoint: int | None = None  # None after the person's own commit
        self.last_restore: tuple[dict, bytes | None, bool] | None = None  # state before it, with data?
        self.seen_blobs: set[str] = set()

    def teardown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    # ── what people and agents do ───────────────────────────────────────────────────
    @rule(rel=st.sampled_from(PATHS), data=contents, executable=st.booleans())
    def write_file(self, rel, data, executable):
        path = self.app / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.chmod(path, 0o755 if executable else 0o644)
        self.files[rel] = (data, executable)

    @precondition(lambda self: any(p in self.files for p in PATHS))
    @rule(data=st.data())
    def delete_file(self, data):
        rel = data.draw(st.sampled_from([p for p in PATHS if p in self.files]))
        (self.app / rel).unlink()
        del self.files[rel]

    @precondition(lambda self: any(p in self.files for p in PATHS) and any(p not in self.files for p in PATHS))
    @rule(data=st.data())
    def rename_file(self, data):
        src = data.draw(st.sampled_from([p for p in PATHS if p in self.files]))
        dst = data.draw(st.sampled_from([p for p in PATHS if p not in self.files]))
        (self.app / dst).parent.mkdir(parents=True, exist_ok=True)
        os.rename(self.app / src, self.app / dst)
        self.files[dst] = self.files.pop(src)

    @precondition(lambda self: any(p in self.files for p in PATHS))
    @rule(data=st.data())
    def flip_executable(self, data):
        rel = data.draw(st.sampled_from([p for p in PATHS if p in self.files]))
        content, executable = self.files[rel]
        os.chmod(self.app / rel, 0o644 if executable else 0o755)
        self.files[rel] = (content, not executable)

    @rule(data=contents)
    def write_ignored_scratch(self, data):
        (self.app / SCRATCH).write_bytes(data)
        self.scratch = data

    @rule(data=contents)
    def write_app_data(self, data):
        (self.app / DATA_FILE).parent.mkdir(exist_ok=True)
        (self.app / DATA_FILE).write_bytes(data)
        self.data = data

    @rule(everything=st.booleans())
    def persons_own_commit(self, everything):
        # `-A` commits untracked files too; `-a` only what git already tracks.
        if everything:
            git(self.app, "add", "-A")
            git(self.app, "commit", "-q", "--allow-empty", "-m", "my own commit")
        else:
            git(self.app, "commit", "-q", "--allow-empty", "-am", "my own commit")
        self.head_checkpoint = None

    # ── what macaron does ───────────────────────────────────────────────────────────
    def _remember_current(self):
        self.seen_blobs |= {blob_id(content) for content, _ in self.files.values()}

    @rule(phase=st.sampled_from(["scaffold", "build", "fix", "manual"]))
    def checkpoint(self, phase):
        self._remember_current()
        cp = self.repo.checkpoint(phase, f"{phase} step")
        self.saved[cp.id] = (dict(self.files), self.data)
        self.head_checkpoint = cp.id

    def _saving(self, with_data: bool) -> bool:
        if self.head_checkpoint is None:
            return True
        files, data = self.saved[self.head_checkpoint]
        return files != self.files or (with_data and data != self.data)

    def _apply_restore(self, target: int, with_data: bool, phase: str, saving: bool):
        before = (dict(self.files), self.data)
        next_id = max(self.saved, default=0) + 1
        if saving:
            self.saved[next_id] = before
            next_id += 1
        files, data = self.saved[target]
        self.files = dict(files)
        if with_data:
            self.data = data
        self.saved[next_id] = (dict(self.files), self.data)
        self.head_checkpoint = next_id
        self.last_restore = (*before, with_data)

    @precondition(lambda self: self.saved)
    @rule(data=st.data(), by_steps=st.booleans(), with_data=st.booleans())
    def rollback(self, data, by_steps, with_data):
        saving = self._saving(with_data)
        ids = sorted(self.saved) + ([None] if saving else [])  # the current state, about to be saved
        if by_steps:
            steps = data.draw(st.integers(1, len(ids)))
            if steps >= len(ids):
                try:
                    self.repo.rollback(steps=steps, with_data=with_data)
                except UserError:
                    return
                raise AssertionError(f"--steps {steps} past the first checkpoint was accepted")
            target = ids[-1 - steps]
            self._remember_current()
            result = self.repo.rollback(steps=steps, with_data=with_data)
        else:
            target = data.draw(st.sampled_from(sorted(self.saved)))
            self._remember_current()
            result = self.repo.rollback(to=target, with_data=with_data)
        assert result.target.id == target and (result.saved is not None) == saving
        self._apply_restore(target, with_data, "rollback", saving)

    @rule()
    def undo(self):
        if self.last_restore is None:
            try:
                self.repo.undo()
            except UserError:
                return
            raise AssertionError("undo with nothing to undo was accepted")
        files, data, with_data = self.last_restore
        saving = self._saving(with_data)
        self._remember_current()
        self.repo.undo()
        # The target is the state before the last restore: restore it as a checkpoint.
        self.saved[-1] = (files, data)
        self._apply_restore(-1, with_data, "undo", saving)
        del self.saved[-1]

    # ── what must always hold ───────────────────────────────────────────────────────
    @invariant()
    def working_tree_is_exactly_the_model(self):
        real = tree_files(self.app)
        expected = dict(self.files)
        if self.scratch is not None:
            expected[SCRATCH] = (self.scratch, False)
        if self.data is not None:
            expected[DATA_FILE] = (self.data, False)
        assert real == expected

    @invariant()
    def every_saved_content_is_reachable_from_a_ref(self):
        reachable = {line.split()[0] for line in git(self.app, "rev-list", "--objects", "--all").splitlines()}
        assert self.seen_blobs <= reachable


CheckpointHistory.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
test_random_histories_never_lose_anything = pytest.mark.slow(CheckpointHistory.TestCase)


# Paths that ignore rules catch or not, in folders and at the top; few contents, so a file
# ignored on disk often equals what a checkpoint holds.
IGNORABLE = ["a.txt", "nm/x.js", "nm/sub/y.js", "notes/n.md", "debug.log"]
RULES = ["nm/", "notes/", "*.log", "nm/sub/", "!notes/n.md"]
state_of_the_app = st.tuples(
    st.dictionaries(st.sampled_from(IGNORABLE), st.sampled_from([b"one\n", b"two\n"])),
    st.lists(st.sampled_from(RULES), unique=True, max_size=3),
)


def _become(app: Path, files: dict[str, bytes], rules: list[str]) -> None:
    """The working tree holds exactly these files (ignored or not) and this .gitignore."""
    (app / ".gitignore").write_text("".join(f"{rule}\n" for rule in rules))
    for rel in IGNORABLE:
        path = app / rel
        if rel in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[rel])
        elif path.exists():
            path.unlink()


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    history=st.lists(state_of_the_app, min_size=1, max_size=3),
    now=st.one_of(st.none(), state_of_the_app),
    data=st.data(),
)
def test_rollback_then_undo_gives_back_every_file_whatever_each_checkpoint_ignored(history, now, data):
    """Files added, removed, ignored and unignored across checkpoints (and in the working
    tree after the last): a rollback to any checkpoint either refuses and changes nothing,
    or is undone back to every file of the working tree, byte for byte. What an undo may
    leave besides is only a file the rollback wrote, ignored in the state undone to."""
    tmp = Path(tempfile.mkdtemp(prefix="macaron-ignored-"))
    try:
        app = make_app_dir(tmp / "app")
        repo = AppRepo.open(app)
        for files, rules in history:
            _become(app, files, rules)
            repo.checkpoint("manual", "a state")
        if now is not None:
            _become(app, *now)
        before = tree_files(app)
        target = data.draw(st.sampled_from([cp.id for cp in repo.checkpoints()]))
        try:
            repo.rollback(to=target)
        except UserError:
            assert tree_files(app) == before  # refused: nothing changed
            return
        repo.undo()
        after = tree_files(app)
        assert {rel: after.get(rel) for rel in before} == before
        for rel in after.keys() - before.keys():
            assert git(app, "show", f"{REFS}{target}:{rel}").encode() == after[rel][0]
            assert git(app, "check-ignore", "--no-index", rel, check=False).strip() == rel
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
