"""What may not be in a file that leaves this machine (a share bundle, a feedback export),
looked for in each of the app's files and in everything inside an archive among them
(archives.py): the memory store itself (LanceDB's files, macaron's ledger, a copy of a
file of $MACARON_HOME such as its config.toml) and a protected text (a memory the gate
keeps from an export, in any spelling: quotes.py; a file a model wrote from memories
that may not go out: app_labels.py). The first one found refuses the whole file, naming
where it is, before anything is written."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from macaron_cli import app_labels, archives, config, privacy
from macaron_cli.errors import UserError
from macaron_cli.quotes import MIN_QUOTE, quoted_in

# LanceDB keeps a table in a folder named *.lance: data files, versions, transactions.
_LANCE_PARTS = ("_versions", "_transactions", "_deletions", "_indices", "_latest.manifest")
_LANCE_SUFFIXES = (".lance", ".manifest", ".txn")
_HOME_FILE_LIMIT = 64 * 1024 * 1024
# A home file this short ("{}", a one-line setting) is as likely an app's own: not a sign.
_HOME_FILE_MIN = 32


def refuse_carried(
    app_dir: Path, files: Iterable[tuple[str, bytes]], withheld: list, destination, then: str, plain: bool = True
) -> None:
    """Raise UserError for the first of `files` (name, content) that carries the memory store
    or a protected text, itself or inside an archive. `withheld`: the memories the gate
    keeps from `destination`; `then`: what the person does after fixing it ("share again").
    With `plain` False a file that is no archive is checked for the store only (the caller
    scrubs protected text out of plain files itself, as the feedback export's diff does)."""
    app = app_dir.name
    home = _home_files()
    from macaron_cli.models.registry import model_keys

    keys = [key.encode() for key in model_keys()]
    for name, data in files:
        try:
            for inner, content in archives.walk(name, data):
                if any(key in content for key in keys):  # a coder could copy it from its shell
                    raise UserError(
                        f"{inner} in {app} holds your model key; take it out, "
                        f"`macaron checkpoint {app} -m …`, then {then}."
                    )
                found = _store_file(inner, content, home)
                if found:
                    raise UserError(
                        f"{inner} in {app} is {found}, and {destination.reason}; take it out, "
                        f"`macaron checkpoint {app} -m …`, then {then}."
                    )
                if plain or inner != name:
                    _refuse_protected(app_dir, inner, content, withheld, destination, then)
        except archives.Unreadable as exc:
            raise UserError(
                f"{name} in {app} is an archive macaron cannot look inside ({exc}), and {destination.reason}; "
                f"take it out, `macaron checkpoint {app} -m …`, then {then}."
            ) from None


def committed_files(app_dir: Path) -> list[tuple[str, bytes]]:
    """The app's files as committed at HEAD (name, content); none for an app without commits."""
    import io
    import tarfile

    from macaron_cli.untrusted import git as untrusted_git

    archive = untrusted_git.run(app_dir, "archive", "--format=tar", "HEAD", capture_output=True, check=False)
    if archive.returncode != 0:
        return []
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        return [
            (member.name, content.read())
            for member in tar.getmembers()
            if member.isfile() and (content := tar.extractfile(member)) is not None
        ]


def _refuse_protected(app_dir: Path, name: str, content: bytes, withheld: list, destination, then: str) -> None:
    app, level = app_dir.name, app_labels.file_level(app_dir, content)
    if level and not privacy.may_carry(level, destination):
        raise UserError(
            f"{name} in {app} was written by a model from your {level} memories, and {destination.reason}; "
            f"rewrite it (or `macaron rollback {app}` to before it), checkpoint, then {then}."
        )
    for memory in quoted_in(content.decode("utf-8", errors="ignore"), withheld, minimum=MIN_QUOTE)[:1]:
        preview = memory.text if len(memory.text) <= 40 else memory.text[:37] + "…"
        raise UserError(
            f'{name} in {app} holds your {memory.privacy} memory {memory.id} ("{preview}"), and '
            f"{destination.reason}; take it out, `macaron checkpoint {app} -m …`, then {then}."
        )


def _store_file(name: str, content: bytes, home: dict[str, str]) -> str | None:
    """What of the memory store this file is, if it is part of it."""
    path = PurePosixPath(name.replace(":", "/"))
    if any(part.endswith(".lance") or part in _LANCE_PARTS for part in path.parts) or (
        path.suffix in _LANCE_SUFFIXES and any(p.endswith(".lance") or p.startswith("_") for p in path.parts[:-1])
    ):
        return "part of a memory store (LanceDB)"
    if content.startswith(b"SQLite format 3\x00") and (path.name == "ledger.db" or b"applied_credits" in content):
        return "macaron's ledger (ledger.db)"  # by its name, or its own table's name inside
    copied = home.get(hashlib.sha256(content).hexdigest()) if content else None
    return f"a copy of {copied} from your macaron home" if copied else None


def _home_files() -> dict[str, str]:
    """sha256 → name of each file directly in $MACARON_HOME (config.toml, ledger.db, apps.json…)."""
    found: dict[str, str] = {}
    try:
        entries = list(config.home().iterdir())
    except OSError:
        return found
    for path in entries:
        try:
            if path.is_file() and not path.is_symlink() and _HOME_FILE_MIN <= path.stat().st_size <= _HOME_FILE_LIMIT:
                found[hashlib.sha256(path.read_bytes()).hexdigest()] = path.name
        except OSError:
            continue
    return found
