"""Digests become memories: one rolling memory per app and period, labelled with the app's privacy.

A memory of kind `app`, source `app:<slug>`, in the app's domain, dated (`event_at`) by
the latest record. A new digest in the same period supersedes the one before (the store
keeps the chain, search shows only the newest), so the memory never piles up; a new
period starts a new memory and the last one stays as history.

Privacy is the app's level (`macaron apps privacy`): private by default for health and
money apps (their declared domain, or an idea the maker would ask about as medical or
financial advice), personal otherwise; raised by the gate (privacy.quoting) when the
digest quotes a more private memory word for word (a planner task that holds a private
memory's text), as a fact learned in chat is. The gate then decides, as for any memory,
which model may hear it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.config import Settings
from macaron_cli.errors import MacaronError, UserError
from macaron_cli.memory.records import APP_SOURCE, Memory
from macaron_cli.privacy import LEVELS, app_records_level, quoting

if TYPE_CHECKING:
    from macaron_cli.memory import MemoryStore


def source_of(slug: str) -> str:
    return f"{APP_SOURCE}{slug}"


def default_privacy(domain: str, idea: str = "") -> str:
    """Private for health and money apps, personal for the rest (the gate's rule)."""
    from macaron_cli.reading.advice import advice_kind

    return app_records_level(domain, advice_kind(idea))


def app_privacy(slug: str, app_dir: Path, info: dict | None = None) -> str:
    """The level the person chose for this app, else the one macaron pinned, else its
    default by the domain its template declared (never by what its macaron.json says now)."""
    from macaron_cli.apps import pinned

    info = info if info is not None else _registry().get(slug, {})
    chosen = info.get("privacy")
    if isinstance(chosen, str) and chosen in LEVELS:
        return chosen
    values = pinned(app_dir)
    if values.privacy in LEVELS:
        return str(values.privacy)
    return default_privacy(values.records.domain, str(info.get("idea") or ""))


def digest_text(digest) -> str:
    """What the memory says: which app, which days, then the app's own lines."""
    head = f"{digest.title} (app {digest.app}), {digest.since} to {digest.today}:"
    return " ".join([head, *digest.lines])


def current_memory(store, slug: str, since: str) -> Memory | None:
    """The app's memory for the period starting `since` (the newest version), if any."""
    where = f"kind = 'app' AND source = '{source_of(slug)}'"
    return next((m for m in store.live(limit=None, where=where) if m.meta.get("since") == since), None)


def latest_digests(store) -> dict[str, Memory]:
    """Each app's newest digest memory, by slug (for `macaron apps`)."""
    latest: dict[str, Memory] = {}
    for memory in store.live(limit=None, where="kind = 'app'"):
        slug = memory.meta.get("app")
        if not isinstance(slug, str):
            continue
        if slug not in latest or str(memory.meta.get("today", "")) > str(latest[slug].meta.get("today", "")):
            latest[slug] = memory
    return latest


def remember(store, digest, privacy: str, domain: str) -> Memory:
    """Keep `digest` as the app's memory for its period (superseding an older version), at
    the app's level or at that of a more private memory it quotes."""
    meta = {"app": digest.app, "period": digest.period, "since": digest.since, "today": digest.today}
    meta["count"] = digest.count
    text = digest_text(digest)
    # A quoted private memory makes the digest private; its own earlier versions are no quote.
    privacy = quoting(text, privacy, store, apart_from=source_of(digest.app))
    event_at = digest.last_record_at or f"{digest.today}T00:00:00"
    old = current_memory(store, digest.app, digest.since)
    if old is None:
        return store.add(
            text,
            kind="app",
            source=source_of(digest.app),
            domain=domain,
            privacy=privacy,
            language=digest.language or None,
            event_at=event_at,
            meta=meta,
        )
    if old.text == text and old.privacy == privacy:
        return old
    return store.update(old.id, text=text, privacy=privacy, event_at=event_at, meta=meta)


def relabel(store, slug: str, privacy: str) -> int:
    """Give every memory of the app's digests its new level; how many changed."""
    changed = 0
    for memory in store.list(limit=None, where=f"kind = 'app' AND source = '{source_of(slug)}'"):
        level = quoting(memory.text, privacy, store)  # never below a private memory it quotes
        if memory.privacy != level:
            store.update(memory.id, privacy=level)
            changed += 1
    return changed


@dataclass
class AppDigests:
    """Keeps every app's rolling memory in step with its records, cheaply: an app whose
    files did not change since the last look costs a few `stat` calls (the digest's cache)."""

    store: MemoryStore
    today: dt.date | None = None
    problems: dict[str, str] = field(default_factory=dict)
    latest: dict[str, object] = field(default_factory=dict)  # slug → Digest
    _seen: dict[str, str] = field(default_factory=dict)  # slug → the memory's text last kept
    _read: dict[str, tuple] = field(default_factory=dict)  # slug → (day, privacy, file stamps) last read

    def refresh(self) -> list:
        """Every live app's digest, each kept as its memory when it changed; digests returned."""
        import datetime as dt

        from macaron_cli.manifest import MANIFEST
        from macaron_cli.sandbox.digest import read_digest, stamps
        from macaron_cli.sandbox.manifest import runnable_manifest

        found = []
        day = (self.today or dt.date.today()).isoformat()
        for slug, info in _registry().items():
            path = Path(info.get("path", ""))
            if info.get("deleted") or not path.is_dir() or not (path / MANIFEST).is_file():
                continue
            # What this session last read, when no file of the app changed since (the usual turn).
            now = (day, str(info.get("privacy")), stamps(path))
            if self._read.get(slug) == now:
                if slug in self.latest:
                    found.append(self.latest[slug])
                continue
            try:
                manifest = runnable_manifest(path)  # the pinned digest and records, not the app's own
                if not manifest.digest:
                    self._read[slug] = now
                    continue
                digest = read_digest(path, today=self.today, settings=self.store.settings)
                digest.app = slug
                if self._seen.get(slug) != digest_text(digest) + now[1]:
                    remember(self.store, digest, app_privacy(slug, path, info), manifest.records.domain)
                    self._seen[slug] = digest_text(digest) + now[1]
            except MacaronError as exc:
                # A broken or looping digest is not run again before every answer, only
                # once something in the app changes.
                self.problems[slug] = str(exc)
                self._read[slug] = now
                self.latest.pop(slug, None)
                continue
            self._read[slug] = now
            self.problems.pop(slug, None)
            self.latest[slug] = digest
            found.append(digest)
        return found


def set_privacy(app_ref: str | None, level: str, settings: Settings) -> tuple[str, int]:
    """`macaron apps privacy APP LEVEL`: the app's level, and its digests' memories relabelled."""
    from macaron_cli.apps import register, resolve_app

    if level not in LEVELS:
        raise UserError(f"{level!r} is not a privacy level; use one of {', '.join(LEVELS)}.")
    path = resolve_app(app_ref)
    slug = path.name
    register(slug, privacy=level, **({} if slug in _registry() else {"path": str(path)}))
    from macaron_cli.memory import MemoryStore

    return slug, relabel(MemoryStore.open(settings=settings), slug, level)


def _registry() -> dict[str, dict]:
    from macaron_cli.apps import load_registry

    return load_registry()
