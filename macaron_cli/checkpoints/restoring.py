"""Rollback and undo: back to an earlier checkpoint without rewriting history.

The current state is first saved as a `pre-rollback` checkpoint (unless it is exactly a
checkpoint already), then a new commit whose tree equals the target's is made, so every
state stays reachable from a ref; `undo` is a rollback to the state before the last one.
The working tree moves by one two-tree `read-tree -m -u`, which refuses, before changing a
file, rather than overwrite a git-ignored one; ignored files in the way are named first.
The person's data comes back only when asked (`with_data`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from macaron_cli.checkpoints.app_files import AppFiles
from macaron_cli.checkpoints.history import History
from macaron_cli.checkpoints.ignore_rules import ignored_under, lookup, same_on_disk
from macaron_cli.checkpoints.making import Making
from macaron_cli.checkpoints.opening import Guard
from macaron_cli.checkpoints.records import Checkpoint, RollbackPlan, RollbackResult, trailers_for
from macaron_cli.checkpoints.trees import diff_files, stat_files
from macaron_cli.errors import UserError, WorkFailed
from macaron_cli.git_plumbing import GitFailed, Plumbing, last_line

# Phases that restore an earlier state; `undo` reverses the latest of them.
RESTORING = ("rollback", "undo")

# Given the checkpoint refs and whether the current state is about to be saved as one:
# the id to go to and whether the data goes too.
Choice = Callable[[dict[int, str], bool], tuple[int, bool]]


class Restoring:
    def __init__(self, path: Path, plumbing: Plumbing, guard: Guard, history: History, making: Making):
        self.path = path
        self.git = plumbing
        self.guard = guard
        self.history = history
        self.making = making
        self.files: AppFiles = making.files

    def rollback(self, to: int | None, steps: int | None, with_data: bool, dry_run: bool):
        """Return the working tree to checkpoint `to` (or `steps` checkpoints back)."""
        if (to is None) == (steps is None):
            raise UserError(
                f"say where to go: --to ID or --steps N (`macaron checkpoints {self.path.name}` lists the ids)."
            )
        if steps is not None and steps < 1:
            raise UserError("--steps must be 1 or more.")

        def chosen(refs: dict[int, str], saving: bool) -> tuple[int, bool]:
            return pick_target(sorted(refs), to, steps, saving, self.path.name), with_data

        return self._restore(chosen, dry_run=dry_run, phase="rollback")

    def undo(self, dry_run: bool):
        """Back to exactly the state before the latest rollback (or undo), with the data
        too when that rollback restored data."""

        def before_last_restore(refs: dict[int, str], _saving: bool) -> tuple[int, bool]:
            for n in sorted(refs, reverse=True):
                last = self.history.load(n, refs[n])
                if last.phase in RESTORING:
                    before = int(last.extra.get("Before", "0"))
                    if before not in refs:
                        raise UserError(f"checkpoint {before}, the state before the last rollback, is gone.")
                    return before, last.extra.get("With-Data") == "yes"
            raise UserError("there is no rollback to undo.")

        return self._restore(before_last_restore, dry_run=dry_run, phase="undo")

    def _restore(self, choose: Choice, dry_run: bool, phase: str) -> RollbackPlan | RollbackResult:
        self.guard.check()
        if self.guard.index_locked:  # even a plan stages into a copy of the index
            with self.guard.lock():
                self.guard.clear_stale_index_lock()
        if dry_run:
            return self._plan(choose, phase)
        with self.guard.lock():
            self.guard.check()
            self.guard.clear_stale_index_lock()
            refs = self.history.refs()
            # Refuse a bad target before staging touches the index (the most lenient
            # reading of --steps here; the exact one needs the staged tree).
            _, with_data = choose(refs, True)
            with self.git.index_kept_on_refusal():
                current_tree = self.making.stage_all()
                head = self.git.head_commit()
                at_head = self.history.at(refs, head)
                saving = self._needs_save(at_head, current_tree, with_data)
                target_id, _ = choose(refs, saving)
                target = self.history.load(target_id, refs[target_id])
                self.history.check_complete(target, current_tree)
                moving = self._moving_from(current_tree, target.tree)
                blocked = self._ignored_in_the_way(moving, target.tree)
                if blocked:
                    shown = ", ".join(blocked[:3]) + (f" and {len(blocked) - 3} more" if len(blocked) > 3 else "")
                    raise UserError(
                        f"rolling back would overwrite git-ignored files ({shown}); move them away and retry."
                    )

            saved = None
            next_id = max(refs, default=0) + 1
            if saving:
                what = "undo" if phase == "undo" else f"rolling back to checkpoint {target.id}"
                saved = self.making.commit(
                    next_id, current_tree, head, f"Saved before {what}", trailers_for(next_id, "pre-rollback")
                )
                # Referenced (by its checkpoint ref) before the working tree changes at all;
                # the branch moves once, at the end, past both commits.
                self.making.write_ref(saved)
                self.files.snapshots().take(saved.id)
                next_id += 1
            before = saved or at_head
            assert before is not None  # no save only when HEAD is a checkpoint (_needs_save)

            try:
                self._read_tree(moving, target.tree, before.id)
            except UserError:
                if saved:  # refused before changing a file: leave no trace
                    self.making.remove(saved)
                raise
            data_restored = with_data and self.files.snapshots().restore(target.id)
            made = self._record(phase, next_id, target, before, with_data)
            self.making.update_refs(head, made)
            self.files.snapshots().take(next_id)
        return RollbackResult(
            target=target, saved=saved, checkpoint=made, with_data=with_data, data_restored=data_restored
        )

    def _record(self, phase: str, n: int, target: Checkpoint, before: Checkpoint, with_data: bool) -> Checkpoint:
        """The commit of a rollback (or undo): the target's tree on top of the state before."""
        label = "Undo: back to" if phase == "undo" else "Roll back to"
        extra = {"Rollback-To": str(target.id), "Before": str(before.id), **({"With-Data": "yes"} if with_data else {})}
        return self.making.commit(
            n,
            target.tree,
            before.commit,
            f"{label} checkpoint {target.id} ({target.phase}: {target.subject})",
            trailers_for(n, phase, extra=extra),
        )

    def _plan(self, choose: Choice, phase: str) -> RollbackPlan:
        """The dry run: stage into a throw-away copy of the index, so nothing changes."""
        refs = self.history.refs()
        _, with_data = choose(refs, True)
        with self.git.scratch_index():
            current_tree = self.making.stage_all(scratch=True)
            at_head = self.history.at(refs, self.git.head_commit())
            target_id, _ = choose(refs, self._needs_save(at_head, current_tree, with_data))
            target = self.history.load(target_id, refs[target_id])
            self.history.check_complete(target, current_tree)
            moving = self._moving_from(current_tree, target.tree)
        stat = self.git.run(
            "diff",
            "--stat",
            "--no-color",
            "--no-renames",
            "--no-textconv",
            "--no-ext-diff",
            "--ignore-submodules=all",
            moving,
            target.tree,
        )
        return RollbackPlan(
            target=target,
            diffstat=stat,
            files_changed=stat_files(stat),
            with_data=with_data,
            undo=phase == "undo",
            blocked=self._ignored_in_the_way(moving, target.tree),
        )

    def _moving_from(self, current_tree: str, target_tree: str) -> str:
        """The tree the working tree moves from, staged in the index: the current tree, less
        the files the target neither holds nor would track (its own rules ignore them: they
        stay on disk, the person's, as ignored files always are), plus the ignored files on
        disk the target holds byte for byte (nothing to overwrite).

        Without this, a folder ignored in only one of the two checkpoints was deleted by the
        move, and lost to an undo back to the checkpoint that ignores it. The price: an undo
        may leave on disk a file the rollback wrote that the state undone to ignores (which
        of them were there before is recorded nowhere); a file left over, never one lost."""
        entries = self.history.trees.entries
        changes = list(diff_files(entries, current_tree, target_tree))
        leaving = [path for path, was, will in changes if was and not will]
        keep = sorted(ignored_under(self.path, entries, self._blob, target_tree, leaving))
        same = [
            path
            for path, was, will in changes
            if will and not was and same_on_disk(self.path, path, lookup(entries, target_tree, path), self._blob)
        ]
        if not keep and not same:
            return current_tree
        literal = {"GIT_LITERAL_PATHSPECS": "1"}
        for args, paths in ((("rm", "--cached", "-q"), keep), (("add", "-f"), same)):
            if paths:
                listed = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
                self.git.run(*args, "--pathspec-from-file=-", "--pathspec-file-nul", stdin=listed, env=literal)
        return self.git.run("write-tree")

    def _blob(self, sha: str) -> bytes:
        return self.history.trees.repo.odb.stream(bytes.fromhex(sha)).read()

    def _ignored_in_the_way(self, current_tree: str, target_tree: str) -> list[str]:
        """Git-ignored files that moving to `target_tree` would overwrite or delete.

        git treats ignored files as expendable; a person's ignored `.env` or notes are not.
        Everything not ignored is in `current_tree` (just staged), so a path the target
        adds that already exists on disk, or a file in the way of a folder it adds, can
        only be ignored."""
        changes = list(diff_files(self.history.trees.entries, current_tree, target_tree))
        leaving = {path for path, was, will in changes if was and not will}
        blocked: list[str] = []
        for path, was, will in changes:
            if was or not will:
                continue
            parts = path.split("/")
            parents = ("/".join(parts[:i]) for i in range(1, len(parts)))
            in_the_way = next((q for q in parents if (self.path / q).is_symlink() or (self.path / q).is_file()), None)
            if in_the_way is not None:
                blocked += [] if in_the_way in leaving else [in_the_way]
            elif (self.path / path).is_dir() and not (self.path / path).is_symlink():
                for root, _dirs, files in os.walk(self.path / path):
                    rel = Path(root).relative_to(self.path).as_posix()
                    blocked += [f"{rel}/{f}" for f in files if f"{rel}/{f}" not in leaving]
            elif os.path.lexists(self.path / path):
                blocked.append(path)
        return sorted(set(blocked))

    def _needs_save(self, at_head: Checkpoint | None, current_tree: str, with_data: bool) -> bool:
        """Whether the state now is anything but exactly an existing checkpoint."""
        if at_head is None or at_head.tree != current_tree:
            return True
        return with_data and not self.files.snapshots().matches_live(at_head.id)

    def _read_tree(self, current_tree: str, target_tree: str, saved_in: int) -> None:
        """Make index and working tree `target_tree`: a two-tree merge from the fully
        staged current tree, which updates only the files that differ and refuses,
        before changing any file, rather than overwrite a git-ignored one."""
        try:
            self.git.run("read-tree", "-m", "-u", current_tree, target_tree)
        except GitFailed as exc:
            # git checks every path before it writes any: these mean nothing was changed.
            if "would be overwritten" in exc.stderr or "would lose untracked" in exc.stderr:
                raise UserError(
                    f"rolling back would overwrite git-ignored files ({last_line(exc.stderr)}); "
                    "move them away and retry."
                ) from None
            raise WorkFailed(
                f"rollback stopped halfway ({last_line(exc.stderr)}); your work is safe in checkpoint {saved_in}."
            ) from None


def pick_target(ids: list[int], to: int | None, steps: int | None, saving: bool, app: str) -> int:
    """The checkpoint id a rollback goes to: `to` itself, or `steps` back from the current
    state (which, when it is not a checkpoint yet, is about to become one and counts)."""
    if to is not None:
        if to not in ids:
            known = f"{ids[0]}–{ids[-1]}" if ids else "none yet"
            raise UserError(f"no checkpoint {to} ({app} has {known}); `macaron checkpoints {app}` lists them.")
        return to
    assert steps is not None  # rollback() takes exactly one of `to` and `steps`
    back = steps - 1 if saving else steps
    if back >= len(ids):
        raise UserError(f"cannot go back {steps} checkpoint(s): there are only {len(ids)}.")
    return ids[-1 - back]
