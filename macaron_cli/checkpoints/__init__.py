"""Git checkpoints and rollback for an app repo. Every git operation macaron does is in
this package (git_plumbing.py runs the commands, git_refs.py reads the refs), reached
through one class, `AppRepo` (repo.py), so the promise "never lose the person's work"
has one way in:

- A checkpoint is a commit on the current branch plus a ref `refs/macaron/checkpoints/<n>`
  (its id is n). It captures the whole working tree as it is: tracked changes and every
  untracked, non-ignored file, however it was made (editor, shell, agent). Phase, test
  status and cost ride in commit trailers (`Macaron-Phase: build`).
- Rollback never rewrites history. It first saves the current state as a `pre-rollback`
  checkpoint (unless it is exactly a checkpoint already), then makes a new commit whose
  tree equals the target's. Every state stays reachable from a ref, and `undo()` is a
  rollback to the state before the last one. Git-ignored files are never overwritten.
- The person's data (the manifest's `data_files`, git-ignored) is snapshotted with each
  checkpoint under `.macaron/snapshots/<n>/`; only `with_data=True` restores it.

Speed: a repo may hold 10,000 files, so the work is git plumbing (`add -A`, `write-tree`,
`commit-tree`, `read-tree -m -u`, one `update-ref` transaction), never a per-file Python
loop. Refs are read from their files (git_refs.py), commits and trees through GitPython's one
long-lived `git cat-file`, so a checkpoint or a rollback starts only a handful of git
processes, whatever the number of files.
"""

from macaron_cli.checkpoints.records import Checkpoint, DamagedCheckpoint, RollbackPlan, RollbackResult
from macaron_cli.checkpoints.repo import AppRepo

__all__ = ["AppRepo", "Checkpoint", "DamagedCheckpoint", "RollbackPlan", "RollbackResult"]
