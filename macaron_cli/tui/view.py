"""What the table shows: one page of memories, or the hits of a search, under the filters.

Kept free of Textual so the paging and filtering rules are plain functions of the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from macaron_cli.memory import Hit, Memory, MemoryStore
from macaron_cli.memory.records import CHAT
from macaron_cli.memory.score_parts import in_view_order
from macaron_cli.memory.store import quote
from macaron_cli.memory.updates import current, replaced_by, statement_of

PAGE_SIZE = 100
SEARCH_K = 50
# Domain, kind and pinned are applied to search hits afterwards, so ask for more candidates.
_FILTERED_SEARCH_K = SEARCH_K * 4


@dataclass(frozen=True)
class Filters:
    domain: str | None = None
    kind: str | None = None
    privacy: str | None = None
    pinned: bool = False
    replaced: bool = False  # show the versions a newer one replaced too (history), greyed

    def where(self) -> str | None:
        """The same filters as a LanceDB SQL condition (None when nothing is filtered)."""
        parts = [
            _equals(name, value)
            for name, value in (("domain", self.domain), ("kind", self.kind), ("privacy", self.privacy))
            if value
        ]
        if self.pinned:
            parts.append("pinned = true")
        return " AND ".join(parts) or None

    def admits(self, memory: Memory) -> bool:
        return (
            (not self.domain or memory.domain == self.domain)
            and (not self.kind or memory.kind == self.kind)
            and (not self.privacy or memory.privacy == self.privacy)
            and (not self.pinned or memory.pinned)
        )


@dataclass
class Row:
    memory: Memory
    hit: Hit | None = None
    weight: float = 0.0  # importance now, as search weighs it
    replaced: bool = False  # a newer version supersedes it, or a later memory updates it (memory/updates.py)


@dataclass
class Page:
    rows: list[Row]
    total: int  # rows under the filters (list mode) or hits shown (search mode)
    offset: int = 0
    query: str = ""
    replaced_ids: set[str] = field(default_factory=set)
    versions: dict[str, tuple] = field(default_factory=dict)  # memory id -> versions(), as fetched

    @property
    def is_search(self) -> bool:
        return bool(self.query)


def load(store: MemoryStore, filters: Filters, query: str = "", offset: int = 0, now: datetime | None = None) -> Page:
    """Search when there is a query (the retrieval chat uses), else one page newest first."""
    query = query.strip()
    if query:
        narrowed = filters.domain or filters.kind or filters.pinned
        hits = store.search(
            query,
            k=_FILTERED_SEARCH_K if narrowed else SEARCH_K,
            privacy=[filters.privacy] if filters.privacy else None,
            now=now,  # the browser's clock: a row's score and its weight are read at one moment
            purpose=CHAT,  # what chat would get: the matches, then the nearest in meaning (marked, listed after)
        )
        rows = [Row(h.memory, h) for h in in_view_order(h for h in hits if filters.admits(h.memory))][:SEARCH_K]
        total = len(rows)
    else:
        where = filters.where()
        if filters.replaced:
            rows, total = [Row(m) for m in store.list(PAGE_SIZE, offset, where)], store.count(where)
        else:
            rows, total = [Row(m) for m in store.live(PAGE_SIZE, offset, where)], live_count(store, where)
    replaced = replaced_ids(store, [r.memory.id for r in rows])
    if query:  # what search itself found a later memory to update: history, as `memory search --all` marks it
        live = {h.memory.id for h in current(row.hit for row in rows if row.hit is not None)}
        replaced |= {row.memory.id for row in rows if row.memory.id not in live}
    for row in rows:
        row.replaced = row.memory.id in replaced
        row.weight = store.weight(row.memory, now)
    # A memory that neither replaced one nor was replaced has no other versions, and one that
    # only asks is updated by nothing (memory/updates.py): known now, so the detail pane needs
    # no query for those rows. Any other may have a later memory that updates it.
    alone: dict[str, tuple] = {
        row.memory.id: ([], [])
        for row in rows
        if not row.replaced and row.memory.supersedes is None and statement_of(row.memory).asks
    }
    return Page(rows, total, offset if not query else 0, query, replaced, alone)


def updated_later(store: MemoryStore, memory: Memory) -> bool:
    """Whether a later memory updates `memory` (memory/updates.py), looked for among the later
    ones: what a search's hits know already, a listed row learns after the page is shown."""
    return not statement_of(memory).asks and replaced_by(store, memory) is not None


def live_count(store: MemoryStore, where: str | None) -> int:
    """How many memories under the filter no newer version replaced."""
    replaced = store.superseded_ids()
    if not replaced:
        return store.count(where)
    among = is_one_of("id", sorted(replaced))
    return store.count(where) - store.count(f"({where}) AND {among}" if where else among)


def replaced_ids(store: MemoryStore, ids: list[str]) -> set[str]:
    """Which of `ids` a newer version supersedes (the store caches that set until it changes)."""
    return set(ids) & store.superseded_ids() if ids else set()


def landing(rows: list[Row], target_id: str | None, index: int | None) -> int:
    """Where the cursor goes on a new page: on `target_id` if the page has it, else the same
    row number as before, within the page."""
    for position, row in enumerate(rows):
        if row.memory.id == target_id:
            return position
    return max(0, min(index or 0, len(rows) - 1))


def iter_view(store: MemoryStore, filters: Filters, query: str = ""):
    """Every memory the view covers, a page at a time (for export): never all in memory at once."""
    if query.strip():
        yield from (row.memory for row in load(store, filters, query).rows)
        return
    offset = 0
    while True:
        batch = (store.list if filters.replaced else store.live)(1000, offset, filters.where())
        yield from batch
        if len(batch) < 1000:
            return
        offset += len(batch)


def versions(store: MemoryStore, memory: Memory, limit: int = 20) -> tuple[list[Memory], list[Memory]]:
    """The chain around `memory`: older versions it supersedes (newest first), and newer ones;
    with no newer version, the later memory that updates it, if one does (memory/updates.py)."""
    older: list[Memory] = []
    seen, link = {memory.id}, memory.supersedes
    while link and link not in seen and len(older) < limit:
        seen.add(link)
        found = store.list(1, 0, "id = " + quote(link))
        if not found:  # the older version was forgotten
            break
        older.append(found[0])
        link = found[0].supersedes
    newer: list[Memory] = []
    link = memory.id
    while link and len(newer) < limit:
        found = store.list(1, 0, "supersedes = " + quote(link))
        if not found or found[0].id in seen:
            break
        seen.add(found[0].id)
        newer.append(found[0])
        link = found[0].id
    if not newer and (later := replaced_by(store, memory)) is not None:
        newer.append(later)
    return older, newer


def is_one_of(column: str, values) -> str:
    return f"{column} IN (" + ", ".join(quote(v) for v in values) + ")"


def _equals(column: str, value: str) -> str:
    return f"{column} = {quote(value)}"
