"""Opening the store: where it is, that it is ours, and its schema brought up to date.

A local store is a private folder (0700, files 0600) holding only our tables and lock
files; anything else there is refused before LanceDB touches it. A memory on object
storage is reached with its storage options, refused before any I/O when they are
incomplete (memory/remote.py).
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import MacaronError, UserError
from macaron_cli.memory import remote
from macaron_cli.memory.completeness import PROOF_NAME
from macaron_cli.memory.locking import LOCK_NAME, REEMBED_LOCK_NAME, UPKEEP_LOCK_NAME, WriteLock
from macaron_cli.memory.schema import SCHEMA_VERSION, TABLE, migrate, needs_migration, schema_version_of, table_names


def locate(home_or_uri: str | os.PathLike | None, settings: config.Settings) -> tuple[str, Path | None, dict | None]:
    """The store's URI, its folder when it is on this machine, and the storage options
    of object storage; a local folder is checked and made private first."""
    uri = str(home_or_uri) if home_or_uri is not None else config.memory_uri(settings)
    local_dir = None if "://" in uri else Path(uri).expanduser()
    options = remote.storage_options(uri, settings) if remote.kind(uri) else None  # refuses before any I/O
    if local_dir is not None:
        _check_local_dir(local_dir)
        if not local_dir.parent.exists() or local_dir.parent == config.home():
            config.ensure_private_dir(local_dir.parent)
        config.ensure_private_dir(local_dir)
        uri = str(local_dir)
    return uri, local_dir, options


def connect(lancedb, uri: str, local_dir: Path | None, options: dict | None):
    """The LanceDB connection, with our table checked and migrated. Returns it and whether
    a migration ran (a rewritten table needs its indexes again)."""
    # Interval 0: every read sees other processes' latest commits (chat + CLI + TUI).
    # On object storage each such check is a LIST of the versions, so a shared memory
    # looks at most once a second (a write always lands on the latest version).
    fresh = timedelta(0) if local_dir is not None else remote.FRESH_WITHIN
    db = lancedb.connect(uri, read_consistency_interval=fresh, storage_options=options)
    names = table_names(db)
    if TABLE in names:
        _check_ours(db.open_table(TABLE), uri)
    migrating = needs_migration(db, names, uri)
    if migrating:
        # No upkeep worker may compact a table while it is being rewritten.
        with WriteLock(local_dir).held(), WriteLock(local_dir, name=UPKEEP_LOCK_NAME).held(), private_files():
            _migrate(db, uri, shared=local_dir is None)
    return db, migrating


@contextmanager
def private_files():
    """Files LanceDB creates meanwhile are readable by the person alone (0600, dirs 0700)."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def _migrate(db, uri: str, shared: bool) -> None:
    """Bring the store to the current schema. On object storage a second machine opening a
    new memory at the same moment may create its tables first: then wait for its migration."""
    for attempt in range(40):
        try:
            migrate(db, uri)
            return
        except MacaronError:
            raise
        except Exception:
            if not shared or attempt == 39:
                raise
            time.sleep(0.25)
            if not needs_migration(db, table_names(db), uri):
                return


def _check_local_dir(path: Path) -> None:
    """Refuse, with a clear line, anything at `path` that is not (or cannot be) our store."""
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} is a file, not a memory store; move it away or set MACARON_HOME.")
    if not path.exists():
        return
    try:
        entries = {p.name for p in path.iterdir()}
    except PermissionError:
        raise UserError(
            f"cannot read the memory at {path} (permission denied); fix its owner or permissions."
        ) from None
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise UserError(f"cannot read and write the memory at {path}; fix its owner or permissions.")
    ours = {LOCK_NAME, REEMBED_LOCK_NAME, UPKEEP_LOCK_NAME, PROOF_NAME, f"{TABLE}.lance", "migrations.lance"}
    foreign = sorted(entries - ours)
    if foreign:
        raise UserError(
            f"{path} holds something that is not a macaron memory ({foreign[0]}); "
            "choose another MACARON_HOME or MACARON_MEMORY_URI."
        )


def _check_ours(table, uri: str) -> None:
    version = schema_version_of(table)
    if version is None or "search_text" not in table.schema.names:
        raise UserError(f"{uri} holds a table that macaron did not write; choose another MACARON_HOME.")
    if version > SCHEMA_VERSION:
        raise UserError(f"the memory at {uri} was written by a newer macaron (schema {version}); upgrade macaron.")
