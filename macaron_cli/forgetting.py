"""Forget means gone: a memory leaves the store and everything macaron made from it.

Where a memory's text can be, besides its own row: the older versions it superseded and
the memories derived from it (a chat session's summary; memory/derived.py), the store's
old table versions, the brief of every app it went into (`.macaron/brief.md`) with the
agents' notes beside it (the coder's transcripts, in macaron's home, last one run:
maker/coder_home.py), the data snapshots kept with each checkpoint (`.macaron/snapshots/`:
a text copy is scrubbed, a snapshot whose database still holds it is removed, so
`rollback --with-data` cannot bring it back), the chat's line history, and the ledger (an
MCP client's search for it). `forget` removes it from all of them, in steps that can each be run again:

1. a journal (`$MACARON_HOME/forgetting/ID.json`, written atomically) says what will go;
2. the store drops and rewrites the rows, rebuilds its indexes, purges old versions;
3. each app that used it gets its brief regenerated and its private folder cleaned;
4. the chat history loses the lines that said it, the ledger its text; then the journal is removed.

A forget killed at any point is finished by running the same `macaron memory forget ID`
again (the journal remembers the id after the memory itself is gone), or by the next
forget of anything. Until then the journal holds the forgotten text, readable by the person
alone, so that the steps left can still find it. An app's git history is not rewritten:
briefs are never committed, and code the agent wrote from a memory is shown, not changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli import app_labels, config
from macaron_cli.data_snapshots import drop_holding
from macaron_cli.errors import UserError
from macaron_cli.files import make_private, write_atomic

if TYPE_CHECKING:
    from macaron_cli.memory import MemoryStore

JOURNAL_DIR = "forgetting"
FORGOTTEN = "«forgotten»"
# Shorter texts are only removed where macaron knows their place (the store, briefs):
# replacing a few common letters inside arbitrary files would damage them.
MIN_SCRUB = 8
_SKIP_IN_CODE = {".git", ".macaron", "node_modules", ".venv", "__pycache__", ".pytest_cache"}


@dataclass
class Forgotten:
    ids: list[str]
    apps: list[str] = field(default_factory=list)  # apps whose brief was regenerated
    mentioned_in: list[Path] = field(default_factory=list)  # app code that still says it
    written_from: list[Path] = field(default_factory=list)  # app code a model wrote from it (app_labels.py)


def app_of(memory_id: str, store) -> str | None:
    """The app whose digest this memory is (source app:<slug>), or None."""
    from macaron_cli.memory.records import APP_SOURCE

    try:
        memory = store.get(memory_id)
    except UserError:
        return None
    return memory.source[len(APP_SOURCE) :] if memory.source.startswith(APP_SOURCE) else None


def records_stay(app: str) -> str:
    """What forgetting an app's digest does not do: the records are the app's, not the memory's."""
    return (
        f"The records themselves stay in the app {app}: delete them there (in the app, or remove "
        f"its data/ folder). Its next digest comes back as a memory unless you `macaron apps privacy {app} secret`."
    )


def forget(memory_id: str, store, on_step: Callable[[str], None] | None = None) -> Forgotten:
    """Forget `memory_id` everywhere (see the module's docstring); finishes an interrupted one.
    `on_step(name)` is called as each step is done (see _finish)."""
    for path in sorted(_journal_dir().glob("*.json")):
        if path != _journal(memory_id) and (other := _read_plan(path)) is not None:
            _finish(store, other, path, on_step)
    path = _journal(memory_id)
    plan = _read_plan(path)
    if plan is None:
        plan = store.forget_plan(memory_id)  # UserError when there is no such memory
        config.ensure_private_dir(path.parent)
        write_atomic(path, json.dumps(plan.to_dict(), ensure_ascii=False))
    return _finish(store, plan, path, on_step)


def finish_pending(open_store: Callable[[], MemoryStore], on_step: Callable[[str], None] | None = None) -> int:
    """Finish every forget a crash interrupted; returns how many there were. `open_store`
    opens the person's store, only when there is a forget to finish."""
    pending = sorted(_journal_dir().glob("*.json"))
    if pending:
        store = open_store()
        for path in pending:
            if (plan := _read_plan(path)) is not None:
                _finish(store, plan, path, on_step)
    return len(pending)


def _read_plan(journal: Path):
    """The plan a journal holds, or None when it is gone: another process (a forget, or a
    command finishing it as this one does) finished that forget since the folder was read."""
    from macaron_cli.memory.derived import ForgetPlan

    try:
        text = journal.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return ForgetPlan.from_dict(json.loads(text))


def _finish(store, plan, journal: Path, on_step: Callable[[str], None] | None = None) -> Forgotten:
    """Steps 2 to 4 of a forget whose journal is written. `on_step` hears each point passed:
    "journal", "rewritten" (the rows, not yet the old versions), "store", "apps", "home"."""
    step = on_step or _no_step
    step("journal")
    store.apply_forget(plan, on_step=step)
    step("store")
    gone = set(plan.ids)
    texts = [t for t in plan.texts if t]
    done = Forgotten(plan.ids)
    for slug, app in _apps():
        if _regenerate_brief(app, store, gone):
            done.apps.append(slug)
        _scrub_tree(app / ".macaron", texts)
        drop_holding(app / ".macaron" / "snapshots", texts, MIN_SCRUB)
        if slug in done.apps:
            done.mentioned_in += _mentions(app, texts)
        done.written_from += [p for p in app_labels.written_from(app, gone) if p not in done.mentioned_in]
    step("apps")
    _drop_history_lines(config.home() / "chat_history", texts)
    _scrub_ledger(plan.ids, texts)
    skip = {Path(store.uri).name if store.uri else "", JOURNAL_DIR, "chat_history", *_ledger_files()}
    _scrub_tree(config.home(), texts, skip=skip)
    step("home")
    journal.unlink(missing_ok=True)
    return done


def _ledger_files() -> list[str]:
    """The ledger's files: a database, scrubbed by its own rules (a byte changed in place breaks it)."""
    from macaron_cli.ledger.store import FILE

    return [p.name for p in config.home().glob(f"{FILE}*")]


def _scrub_ledger(ids: list[str], texts: list[str]) -> None:
    from macaron_cli.ledger.store import FILE, Ledger

    if not (config.home() / FILE).is_file():
        return

    ledger = Ledger.open()
    try:
        ledger.forget(ids, texts, FORGOTTEN, MIN_SCRUB)
    finally:
        ledger.close()


def _no_step(name: str) -> None:
    """Nobody listens: the forget runs straight through."""


def _journal_dir() -> Path:
    return config.home() / JOURNAL_DIR


def _journal(memory_id: str) -> Path:
    return _journal_dir() / (re.sub(r"[^A-Za-z0-9_.-]", "_", memory_id) + ".json")


# ── apps ────────────────────────────────────────────────────────────────────────────────
def _apps() -> list[tuple[str, Path]]:
    """Every app macaron knows: the registry's, and any folder in the apps dir."""
    from macaron_cli.apps import APP_MANIFEST, load_registry

    found: dict[str, Path] = {}
    try:
        registry = load_registry()
    except UserError:
        registry = {}
    for slug, info in registry.items():
        found[slug] = Path(info["path"]) if info.get("path") else config.apps_dir() / slug
    root = config.apps_dir()
    if root.is_dir():
        for child in root.iterdir():
            if (child / APP_MANIFEST).is_file() or (child / ".macaron").is_dir():
                found.setdefault(child.name, child)
    return sorted((slug, path) for slug, path in found.items() if path.is_dir())


def _regenerate_brief(app: Path, store, gone: set[str]) -> bool:
    """Write the app's brief again from its own records (its make's and its latest change's),
    without the forgotten memories, when either holds one of them."""
    from macaron_cli.maker import state as make_state

    records = (make_state.load(app, file) for file in (make_state.FILE, make_state.CHANGE_FILE))
    if not any(state is not None and set(state.memory_ids) & gone for state in records):
        return False
    from macaron_cli.maker.rebrief import write_brief_again

    return write_brief_again(app, store, store.settings)


def _text_of(path: Path) -> str | None:
    """A file's text, or None for a binary file (left whole) or one that cannot be read."""
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _scrub_tree(root: Path, texts: list[str], skip: Collection[str] = ()) -> None:
    """Replace the texts, in any spelling (quotes.py), in every text file under `root`."""
    from macaron_cli.quotes import scrub

    if not texts or not root.is_dir():
        return
    for path in root.rglob("*"):
        if any(part in skip for part in path.relative_to(root).parts[:1]) or not path.is_file() or path.is_symlink():
            continue
        text = _text_of(path)
        if text is None:
            continue
        scrubbed = scrub(text, texts, FORGOTTEN, MIN_SCRUB)
        if scrubbed != text:
            write_atomic(path, scrubbed.encode("utf-8"), mode=path.stat().st_mode & 0o777)


def _mentions(app: Path, texts: list[str]) -> list[Path]:
    """The app's own files (its code, tracked in git) that contain a forgotten text."""
    from macaron_cli.quotes import Folded

    found = []
    for path in app.rglob("*"):
        rel = path.relative_to(app).parts
        if any(part in _SKIP_IN_CODE for part in rel) or not path.is_file():
            continue
        text = _text_of(path)
        if text is not None and any(map(Folded(text).holds, texts, [MIN_SCRUB] * len(texts))):
            found.append(path)
    return found


def _drop_history_lines(path: Path, texts: list[str]) -> None:
    """The chat's input history (readline's file) without the lines that said a forgotten text."""
    if not path.is_file() or not texts:
        return
    from macaron_cli.quotes import holds

    lines = path.read_text(encoding="utf-8", errors="surrogateescape").splitlines(keepends=True)
    # readline writes a space as \040
    kept = [line for line in lines if not any(holds(line.replace("\\040", " "), t) for t in texts if t)]
    if kept != lines:
        write_atomic(path, "".join(kept).encode("utf-8", errors="surrogateescape"))
        make_private(path)
