"""Whether every memory has a vector of the model in use, known without counting at each search.

Search goes by words alone while some memories lack a vector (memory/reembed.py fills them),
so it must know. Counting the rows without one reads the whole vector column, and every
write makes a new table version that other processes see at once: a count cached per
version is paid again by the first search after every add, at a cost that grows with the
store. A local store therefore keeps a proof beside its lock files: a small file naming the
model that every memory had a vector of when it was written. It is written only under the
write lock, right after a count under that lock found none missing; and it is removed under
the same lock before anything writes a memory that may lack a vector of that model. So
while it is there, and names the model in use, it holds, and reading it is all a search pays.

Who may write a memory without a vector of the proof's model: a process with vectors off
(or with another model). Every other writer embeds with the store's own model (a store of
another model is switched, and its proof removed, when such a process opens it). A store
on object storage has no lock file and so no proof: it counts once per version.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

PROOF_NAME = ".macaron.vectors-complete"


class VectorProof:
    """The proof file of the store in `directory` (None on object storage: never any proof)."""

    def __init__(self, directory: Path | None):
        self.path = directory / PROOF_NAME if directory is not None else None

    def holds(self, model: dict) -> bool:
        """True when every memory has a vector of `model`, as of the last write."""
        if self.path is None:
            return False
        try:
            return json.loads(self.path.read_text(encoding="utf-8")) == model
        except (OSError, ValueError):  # none yet, or unreadable: count instead
            return False

    def keep_for(self, writer_model: dict | None) -> None:
        """Under the write lock, before a write by a process that embeds with `writer_model`
        (None: no vectors): the proof goes unless that write keeps it true."""
        if self.path is not None and (writer_model is None or not self.holds(writer_model)):
            self.path.unlink(missing_ok=True)

    def prove(self, model: dict) -> None:
        """Under the write lock, once a count under it found no memory without a vector of `model`."""
        if self.path is None:
            return
        # Not the atomic writer: its temporary file, left by a crash, would be a stranger in
        # the store's folder; a torn proof does not parse, and a search then counts again.
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(json.dumps(model, sort_keys=True))
        except OSError:  # a full disk: searches go on counting, which is only slower
            pass
