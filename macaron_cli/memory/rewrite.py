"""Forget's part in the store: what forgetting a memory removes (its older versions and
what was derived from them, memory/derived.py), and the rewrite that leaves none of it in
the table's data files. The store runs these under its write lock; macaron_cli/forgetting.py
does the rest (apps' briefs, the home folder)."""

from __future__ import annotations

from macaron_cli.memory import derived, embeddings
from macaron_cli.memory.derived import ForgetPlan
from macaron_cli.memory.records import Memory
from macaron_cli.memory.rows import MEMORY_COLUMNS, id_in, memory_from_row, quote, to_row
from macaron_cli.memory.text import meaning_form


def forget_plan(store, memory_id: str) -> ForgetPlan:
    """What forgetting `memory_id` from `store` (the MemoryStore; this module is below it)
    would remove or rewrite; changes nothing."""
    chain = _version_chain(store, memory_id)
    plan = ForgetPlan(memory_id, [m.id for m in chain], [m.text for m in chain])
    while True:
        gone = set(plan.ids)
        more = False
        for memory in _derived_from(store.table, gone):
            if memory.id in gone:
                continue
            rewritten = derived.without(plan.rewrites.get(memory.id, memory), gone)
            if rewritten is None:
                plan.rewrites.pop(memory.id, None)
                plan.ids.append(memory.id)
                plan.texts.append(memory.text)
                more = True
            else:
                plan.rewrites[memory.id] = rewritten
        if not more:
            # Memories that quote it without a link go the same way.
            return derived.with_quotes(plan, store.list(limit=None))


def _version_chain(store, memory_id: str) -> list[Memory]:
    chain: list[Memory] = []
    current: Memory | None = store.get(memory_id)
    while current is not None and current.id not in [m.id for m in chain]:
        chain.append(current)
        older = current.supersedes
        current = store.find(older) if older else None
    return chain


def _derived_from(table, ids: set[str]) -> list[Memory]:
    rows = table.search().where(f"meta LIKE '%{derived.DERIVED_FROM}%'").select(MEMORY_COLUMNS).limit(None).to_list()
    return [m for m in map(memory_from_row, rows) if derived.sources(m) & ids]


def rewrite_without(table, schema, vectors: bool, ids: list[str], rewrites: dict[str, Memory] | None = None) -> None:
    """Drop `ids` and rewrite the rest of every fragment that held them, in one commit.

    A plain delete only marks rows deleted: their text stays in the data file until a
    compaction that may never come. merge_insert rewrites the fragment's other rows into
    new files (the old file is then unreferenced and purged) and deletes `ids` atomically.
    `rewrites` (memories derived from the forgotten ones) replace their rows in the same commit.
    """
    rewrites = rewrites or {}
    # Turns indexed with a forgotten one as their context lose that context too.
    dependents = table.search().where(f"context_id IN ({', '.join(quote(i) for i in ids)})")
    dependents = {r["id"] for r in dependents.select(["id"]).limit(None).to_list()} - set(ids)
    affected = id_in([*ids, *dependents, *rewrites])
    addresses = table.search().where(affected).select(["id", "_rowaddr"]).limit(None).to_list()
    if not addresses:
        return  # done already (a forget run again after an interruption)
    fragments = sorted({r["_rowaddr"] >> 32 for r in addresses})
    in_fragments = " OR ".join(f"(_rowaddr >= {f << 32} AND _rowaddr < {(f + 1) << 32})" for f in fragments)
    mates = table.search().where(f"({in_fragments}) AND NOT {id_in(ids)}").select(schema.names).limit(None).to_arrow()
    if not mates.num_rows:
        table.delete(id_in(ids))
        return
    import pyarrow as pa

    rows = mates.select(schema.names).to_pylist()
    for row in rows:
        if row["id"] in rewrites:
            memory = rewrites[row["id"]]
            vector = embeddings.embed([meaning_form(memory.text, memory.language)])[0] if vectors else None
            keeps_context = row.get("context") and row["id"] not in dependents
            context = Memory(text=row["context"], id=row["context_id"]) if keeps_context else None
            row.update(to_row(memory, None if vector is None else [float(x) for x in vector], context))
        elif row["id"] in dependents:
            row.update(to_row(memory_from_row(row), row["vector"], None))
    (
        table.merge_insert("id")
        .when_matched_update_all()
        .when_not_matched_by_source_delete(id_in(ids))
        .execute(pa.Table.from_pylist(rows, schema=schema), on_bad_vectors="null")
    )
