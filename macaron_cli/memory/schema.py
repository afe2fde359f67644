"""The memories table's shape, and the ordered, named migrations that bring a store to it.

Every migration that ran is recorded (name, time) in the store's `migrations` table, as
simonw/llm does, so a store always says what it has been through. A store that lists a
migration this macaron does not know was written by a newer macaron: we refuse to touch it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from macaron_cli.errors import UserError

TABLE = "memories"
MIGRATIONS_TABLE = "migrations"
SCHEMA_VERSION_KEY = b"macaron_schema_version"
# The vector column's metadata names the model that made its vectors (name, dim, version):
# a store whose model is not the one in use is re-embedded (memory/reembed.py).
MODEL_KEY = b"macaron:model"

# Text columns are stored without compression, so "forget leaves no trace on disk" can be
# checked by anyone with grep; a personal memory is small enough that this costs little.
_PLAIN = {"lance-encoding:compression": "none"}


def vector_field(model: dict | None = None):
    """The vector column for `model` (default: the model in use), which it names."""
    import pyarrow as pa

    from macaron_cli.memory import embeddings

    # With vectors off, no chosen larger model is loaded only to name an empty column.
    model = model or (embeddings.model_info() if embeddings.available() else embeddings.bundled_info())
    return pa.field(
        "vector", pa.list_(pa.float32(), model["dim"]), metadata={MODEL_KEY: json.dumps(model, sort_keys=True).encode()}
    )


def vector_model(field) -> dict | None:
    """The model a vector column says made its vectors (None: a store from before models were recorded)."""
    raw = (field.metadata or {}).get(MODEL_KEY)
    return json.loads(raw) if raw else None


def memory_schema(vector=None):
    """The memories table; `vector` is the store's own vector column (default: the model in use)."""
    import pyarrow as pa

    s = pa.string()
    return pa.schema(
        [
            pa.field("id", s),
            pa.field("text", s, metadata=_PLAIN),
            pa.field("search_text", s, metadata=_PLAIN),
            pa.field("kind", s),
            pa.field("domain", s),
            pa.field("language", s),
            pa.field("privacy", s),
            pa.field("created_at", s),
            pa.field("updated_at", s),
            pa.field("last_used_at", s),
            pa.field("use_count", pa.int64()),
            pa.field("reward", pa.float64()),
            pa.field("pinned", pa.bool_()),
            pa.field("source", s),
            pa.field("supersedes", s),
            pa.field("verified", s),
            pa.field("event_at", s),
            pa.field("valid_until", s),
            pa.field("meta", s, metadata=_PLAIN),
            vector if vector is not None else vector_field(),
            # A conversation turn is indexed with the turn before it (see text.index_text);
            # context_id names that turn, so forgetting it also clears it here.
            pa.field("context", s, metadata=_PLAIN),
            pa.field("context_id", s),
        ],
        metadata={SCHEMA_VERSION_KEY: str(len(MIGRATIONS))},
    )


def _migrations_schema():
    import pyarrow as pa

    return pa.schema([("name", pa.string()), ("applied_at", pa.string())])


# ── the migrations, oldest first; never reorder or rename one that has shipped ──────────────
def m001_memories_table(db) -> None:
    """The first table (schema 1): records with a CJK-aware search_text column."""
    db.create_table(TABLE, schema=memory_schema())


def m002_plain_text_and_vector(db) -> None:
    """Store text uncompressed (verifiable forget) and add the optional embedding column."""
    _rewrite(db)


def m003_dates_and_episode_context(db) -> None:
    """Index each memory's date in words, and conversation turns with their previous turn."""
    _rewrite(db)


def m004_tagalog_roots(db) -> None:
    """Index the root of each conjugated Tagalog word beside it (memory/tagalog.py)."""
    _rewrite(db)


def m005_tagalog_glossary(db) -> None:
    """Index the English gloss of each Tagalog word beside it, and embed Tagalog memories
    again with their glosses (memory/tagalog.py): their vectors are cleared here, and the
    re-embedder fills them in as it does for a new model (search goes by words meanwhile)."""
    from macaron_cli.memory.text import meaning_form

    _rewrite(db, stale_vector=lambda row: meaning_form(row["text"], row.get("language")) != row["text"])


def m006_numbers_with_units(db) -> None:
    """Index each number with a unit in one canonical word beside it ("152厘米" → 152cm,
    "$40" → 40usd; reading/units.py)."""
    _rewrite(db)


def _rewrite(db, stale_vector: Callable[[dict], bool] | None = None) -> None:
    """Rewrite every row in the latest schema, recomputing what is derived (search_text,
    and no vector where `stale_vector` says the one stored no longer fits the text)."""
    import pyarrow as pa

    from macaron_cli.memory.text import index_text

    table = db.open_table(TABLE).to_arrow()
    # The vectors stay as they are, of whatever model made them (store.open re-embeds later).
    vector = table.schema.field("vector") if "vector" in table.schema.names else None
    rows = table.to_pylist()
    for row in rows:
        row.setdefault("vector", None)
        if stale_vector is not None and stale_vector(row):
            row["vector"] = None
        row.setdefault("context", None)
        row.setdefault("context_id", None)
        row["search_text"] = index_text(
            row["text"],
            when=row.get("event_at") or row.get("created_at"),
            context=row["context"],
            language=row.get("language"),
        )
    schema = memory_schema(vector)
    # A row without a vector keeps a null (lance otherwise takes a mix of nulls and vectors
    # for vectors of uneven length); Arrow has checked the length of every other one.
    data = pa.Table.from_pylist(rows, schema=schema) if rows else None
    db.create_table(TABLE, data=data, schema=schema, mode="overwrite", on_bad_vectors="null")


MIGRATIONS: list[tuple[str, Callable]] = [
    ("001_memories_table", m001_memories_table),
    ("002_plain_text_and_vector", m002_plain_text_and_vector),
    ("003_dates_and_episode_context", m003_dates_and_episode_context),
    ("004_tagalog_roots", m004_tagalog_roots),
    ("005_tagalog_glossary", m005_tagalog_glossary),
    ("006_numbers_with_units", m006_numbers_with_units),
]
SCHEMA_VERSION = len(MIGRATIONS)


def applied_migrations(db, table_names: list[str]) -> list[str]:
    """Names of the migrations this store has had, in the order they ran."""
    if MIGRATIONS_TABLE in table_names:
        rows = db.open_table(MIGRATIONS_TABLE).to_arrow().to_pylist()
        return [r["name"] for r in sorted(rows, key=lambda r: r["applied_at"])]
    if TABLE in table_names:  # stores from before migrations were recorded (schema 1)
        return [MIGRATIONS[0][0]]
    return []


def migrate(db, uri: str) -> list[str]:
    """Bring the store at `db` to SCHEMA_VERSION; returns the names applied now (call under the write lock)."""
    from macaron_cli.memory.records import now_iso

    names = table_names(db)
    done = applied_migrations(db, names)
    refuse_unknown(done, uri)
    if MIGRATIONS_TABLE not in names:
        log = db.create_table(MIGRATIONS_TABLE, schema=_migrations_schema())
        if done:
            log.add([{"name": n, "applied_at": "0000-00-00T00:00:00+00:00"} for n in done])
    log = db.open_table(MIGRATIONS_TABLE)
    ran = []
    fresh = TABLE not in names
    for name, step in MIGRATIONS:
        if name in done:
            continue
        if not fresh or name == MIGRATIONS[0][0]:
            step(db)  # a fresh store is created at the latest schema by the first step
        log.add([{"name": name, "applied_at": now_iso()}])
        ran.append(name)
    return ran


def refuse_unknown(applied: list[str], uri: str) -> None:
    known = {name for name, _ in MIGRATIONS}
    unknown = [n for n in applied if n not in known]
    if unknown:
        raise UserError(
            f"the memory at {uri} was written by a newer macaron (migration {unknown[0]}); upgrade macaron."
        )


def needs_migration(db, names: list[str], uri: str) -> bool:
    """False when the store is current; raises when a newer macaron wrote it."""
    applied = applied_migrations(db, names)
    refuse_unknown(applied, uri)
    return MIGRATIONS_TABLE not in names or len(applied) < len(MIGRATIONS)


def table_names(db) -> list[str]:
    return list(db.list_tables().tables)


def schema_version_of(table) -> int | None:
    raw = (table.schema.metadata or {}).get(SCHEMA_VERSION_KEY)
    return int(raw) if raw is not None else None


def describe(db) -> dict:
    """What `stats` reports about the store's schema."""
    names = table_names(db)
    return {"schema_version": len(applied_migrations(db, names)), "migrations": applied_migrations(db, names)}
