"""Read what an app recorded without starting it: its digest, run in the sandbox.

An app's manifest names a `digest` command (templates/_shared/server/macaron_life.py in
every template) that prints one JSON object summarising the app's own data. Its code may
be model-written, so it runs as verification's checks do: in the sandbox, with no network,
a time and memory limit, on a copy of the app whose files are read-only, so whatever it
tries to write never reaches the person's data. The answer is cached in the app's private
folder, keyed by the modification times of its data, settings and code: asking again
costs a few `stat` calls until something changes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from macaron_cli.apps import PRIVATE_DIR, private_dir
from macaron_cli.config import Settings
from macaron_cli.errors import UserError, WorkFailed
from macaron_cli.manifest import MANIFEST, Digest, Manifest, digest_problem
from macaron_cli.sandbox import Sandbox, sandbox_for_untrusted
from macaron_cli.sandbox.manifest import DATA_DIR, runnable_manifest
from macaron_cli.sandbox.open_check import expand_argv

DIGEST_TIMEOUT = 10
DIGEST_MEMORY_MB = 512
CACHE_FILE = "digest.json"
# What a digest reads besides the data: the person's settings and the app's code.
_WATCHED = ("config", "server", "static/i18n", "static/units.json", MANIFEST)
_NOT_COPIED = shutil.ignore_patterns(".git", PRIVATE_DIR, "__pycache__", ".pytest_cache", "tests")


def period_start(period: str, today: dt.date) -> dt.date:
    """The first day of the period `today` is in (weeks start on Monday)."""
    if period == "day":
        return today
    if period == "month":
        return today.replace(day=1)
    return today - dt.timedelta(days=today.weekday())


def read_digest(
    app_dir: Path,
    today: dt.date | None = None,
    period: str | None = None,
    sandbox: Sandbox | None = None,
    cache: bool = True,
    settings: Settings | None = None,
    accept_unsandboxed: bool = False,
) -> Digest:
    """The app's digest for the period containing `today` (from the cache when nothing
    changed), run in `sandbox`, else the strongest one for the person's `settings` (refused
    where none has walls, unless the app's code is macaron's own or `accept_unsandboxed`)."""
    app_dir = Path(app_dir)
    manifest = runnable_manifest(app_dir)
    if not manifest.digest:
        raise UserError(
            f"{app_dir.name} has no life-log digest: the template it was made from declares none "
            "(every bundled template has one: server/macaron_life.py)."
        )
    missing = _missing_module(manifest.digest, app_dir)
    if missing:
        raise UserError(
            f"{app_dir.name} has no life-log digest: {missing}, which its template's digest runs, is not in the app. "
            f"Roll the app back to a checkpoint that has it (macaron checkpoints {app_dir.name})."
        )
    today = today or dt.date.today()
    period = period or manifest.records.period
    since = period_start(period, today)
    key = {"since": since.isoformat(), "today": today.isoformat(), "period": period, "files": stamps(app_dir)}
    cache_path = app_dir / PRIVATE_DIR / CACHE_FILE
    if cache:
        found = _cached(cache_path, key)
        if found is not None:
            return Digest.from_json(app_dir.name, found, cached=True)
    sandbox = sandbox or sandbox_for_untrusted("its digest", accept_unsandboxed, app_dir, settings=settings)
    data = run_digest(manifest, since, today, period, sandbox)
    if cache:
        _save_cache(cache_path, key, data)
    return Digest.from_json(app_dir.name, data)


def _missing_module(argv: Sequence[str], app_dir: Path) -> str | None:
    """The app's own file a `-m MODULE` digest command would run, when the app lacks it (the
    command is the template's, pinned; the app folder may have lost or never had the file)."""
    if "-m" not in argv[:-1]:
        return None
    module = argv[argv.index("-m") + 1].replace(".", "/")
    if (app_dir / f"{module}.py").is_file() or (app_dir / module / "__init__.py").is_file():
        return None
    return f"{module}.py"


def run_digest(manifest: Manifest, since: dt.date, today: dt.date, period: str, sandbox: Sandbox) -> dict:
    """Run the manifest's digest command in `sandbox` on a read-only copy; its checked JSON."""
    assert manifest.digest is not None and manifest.folder is not None
    name = manifest.folder.name
    with tempfile.TemporaryDirectory(prefix="macaron-digest-") as tmp:
        work = Path(tmp) / "app"
        shutil.copytree(manifest.folder, work, ignore=_NOT_COPIED, symlinks=True)
        (work / DATA_DIR).mkdir(exist_ok=True)
        _read_only(work)
        argv = [
            arg.replace("{since}", since.isoformat()).replace("{today}", today.isoformat()).replace("{period}", period)
            for arg in expand_argv(manifest.digest, sandbox.python)
        ]
        env = {"MACARON_APP_DATA": str(work / DATA_DIR)}
        try:
            result = sandbox.run(argv, work, timeout=DIGEST_TIMEOUT, memory_mb=DIGEST_MEMORY_MB, env=env)
        finally:
            _writable(work)
    if result.killed_reason == "timeout":
        raise WorkFailed(f"the digest of {name} did not finish within {DIGEST_TIMEOUT} s and was stopped.")
    if not result.ok:
        last = ((result.stderr or result.stdout).strip().splitlines() or ["no output"])[-1]
        raise WorkFailed(f"the digest of {name} failed (exit code {result.exit_code}): {last[:300]}")
    return check_digest(name, result.stdout)


def check_digest(name: str, output: str) -> dict:
    """The digest's JSON, with the fields every digest must have (WorkFailed otherwise)."""
    try:
        data = json.loads(output.strip().splitlines()[-1] if output.strip() else "")
    except json.JSONDecodeError:
        raise WorkFailed(f"the digest of {name} did not print one JSON object.") from None
    problem = digest_problem(data)
    if problem is not None:
        raise WorkFailed(f"the digest of {name} {problem}.")
    data["lines"] = [str(line) for line in data["lines"]]
    return data


# ── the cache ───────────────────────────────────────────────────────────────────────────
def stamps(app_dir: Path) -> dict[str, list[int]]:
    """Modification time and size of every file the digest reads: data, settings, code.
    (os.walk and plain strings: the friend asks this of every app before each answer.)"""
    stamps = {}
    root = str(app_dir)
    for top in (DATA_DIR, *_WATCHED):
        path = os.path.join(root, top)
        if os.path.isfile(path):
            found = [path]
        else:
            found = [
                os.path.join(folder, name)
                for folder, dirs, names in os.walk(path)
                for name in names
                if "__pycache__" not in folder
            ]
        for file in sorted(found):
            info = os.stat(file)
            stamps[os.path.relpath(file, root)] = [info.st_mtime_ns, info.st_size]
    return stamps


def _cached(path: Path, key: dict) -> dict | None:
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return stored.get("digest") if isinstance(stored, dict) and stored.get("key") == key else None


def _save_cache(path: Path, key: dict, data: dict) -> None:
    from macaron_cli.files import write_atomic

    private_dir(path.parent.parent)
    write_atomic(path, json.dumps({"key": key, "digest": data}, ensure_ascii=False))


# ── a read-only copy ────────────────────────────────────────────────────────────────────
def _read_only(root: Path) -> None:
    for folder, _dirs, files in os.walk(root):
        for name in files:
            os.chmod(Path(folder) / name, stat.S_IRUSR | stat.S_IRGRP)
        os.chmod(folder, stat.S_IRUSR | stat.S_IXUSR)


def _writable(root: Path) -> None:
    """Give the copy back its write bits so it can be removed."""
    for folder, _dirs, files in os.walk(root):
        os.chmod(folder, stat.S_IRWXU)
        for name in files:
            os.chmod(Path(folder) / name, stat.S_IRUSR | stat.S_IWUSR)
