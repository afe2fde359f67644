"""An append-only SQLite ledger beside the memory: events, the links between nodes, and
every model request with the memories it carried.

SQLite (not LanceDB) because the ledger is small rows, appended one at a time and read by
exact keys: a WAL-mode insert costs well under a millisecond, an indexed `why` stays fast
at millions of events, and two processes (chat and make) can append at once.

What it keeps of a person's or a client's words (an MCP call's arguments, a refusal's
message) is redacted as the store redacts a memory, and a forgotten memory's words leave
it (`forget`) as they leave every other file.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterable
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from macaron_cli import config, privacy

FILE = "ledger.db"  # in $MACARON_HOME
SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY,
  time TEXT NOT NULL,
  kind TEXT NOT NULL,      -- brief, answer, app_made, checkpoint, run, rollback, deleted, rate,
                           -- good, bad, verified, data, reward
  subject TEXT NOT NULL,   -- the node the event is about, e.g. app:water-tracker
  value REAL,              -- the signal, where there is one (stars, +1/-1, bytes)
  data TEXT                -- JSON details
);
CREATE INDEX IF NOT EXISTS events_subject ON events(subject, id);
CREATE INDEX IF NOT EXISTS events_kind ON events(kind, id);
CREATE TABLE IF NOT EXISTS links (
  src TEXT NOT NULL,       -- what contributed (memory:…, template:…, brief:…)
  dst TEXT NOT NULL,       -- what it contributed to (brief:…, app:…)
  event_id INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS links_src ON links(src);
CREATE INDEX IF NOT EXISTS links_dst ON links(dst);
CREATE TABLE IF NOT EXISTS sends (
  event_id INTEGER NOT NULL,
  memory_id TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  cloud INTEGER NOT NULL,
  privacy TEXT
);
CREATE INDEX IF NOT EXISTS sends_memory ON sends(memory_id);
CREATE TABLE IF NOT EXISTS applied_credits (  -- ledger credit already added to each memory's reward
  memory_id TEXT PRIMARY KEY,
  credit REAL NOT NULL
);
"""


def node(kind: str, ident: str) -> str:
    return f"{kind}:{ident}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Ledger:
    def __init__(self, path: Path):
        self.path = path
        self._db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    @classmethod
    def open(cls, home: Path | None = None) -> Ledger:
        home = config.ensure_private_dir(Path(home) if home else config.home())
        path = home / FILE
        fresh = not path.exists()
        try:
            ledger = cls(path)
        except sqlite3.OperationalError:
            raise  # busy or locked: the file is fine
        except sqlite3.DatabaseError:  # not a database, or a damaged one
            _move_aside(path)
            fresh = True
            ledger = cls(path)
        if fresh:
            os.chmod(path, 0o600)
        return ledger

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _tx(self):
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ── writing ─────────────────────────────────────────────────────────────────────────
    def record(
        self,
        kind: str,
        subject: str,
        *,
        value: float | None = None,
        data: dict | None = None,
        sources: Iterable[str] = (),
        time: str | None = None,
    ) -> int:
        """Append one event about `subject`; `sources` are the nodes that led to it. A secret
        in `data` (a key, a PIN a client searched for) is redacted first, as in the store."""
        from macaron_cli.memory.redact import redact_value

        kept = redact_value(data or {}, [])
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO events(time, kind, subject, value, data) VALUES (?, ?, ?, ?, ?)",
                (time or _now(), kind, subject, value, json.dumps(kept, ensure_ascii=False)),
            )
            event_id = cur.lastrowid
            db.executemany(
                "INSERT INTO links(src, dst, event_id) VALUES (?, ?, ?)", [(src, subject, event_id) for src in sources]
            )
        return event_id

    def record_request(
        self,
        subject: str,
        destination,
        memories: Iterable,
        *,
        purpose: str,
        time: str | None = None,
        details: dict | None = None,
    ) -> int:
        """A model request: which memories went to which destination, and whether it left the machine.

        `destination` is the privacy gate's `Destination` (macaron_cli/privacy.py): whether it
        is the cloud is the gate's decision, the same one that chose the memories, never
        re-derived here from the address. `memories` are Memory objects (or hits); every one
        is credited as a source of `subject`. `details` (e.g. an MCP call's tool and query)
        are kept with the event.
        """
        items = [getattr(m, "memory", m) for m in memories]
        endpoint, cloud = destination.label, destination.cloud
        event_id = self.record(
            "request",
            subject,
            data={
                **(details or {}),
                "endpoint": endpoint,
                "purpose": purpose,
                "cloud": cloud,
                "reason": destination.reason,
            },
            sources=[node("memory", m.id) for m in items],
            time=time,
        )
        with self._tx() as db:
            db.executemany(
                "INSERT INTO sends(event_id, memory_id, endpoint, cloud, privacy) VALUES (?, ?, ?, ?, ?)",
                [(event_id, m.id, endpoint, int(cloud), m.privacy) for m in items],
            )
        return event_id

    def forget(self, memory_ids: Iterable[str], texts: Iterable[str], replacement: str, minimum: int) -> int:
        """Take forgotten memories' words out of every event's details: the arguments of each
        call that sent one of them (a client's search for it, however worded), and each
        argument that holds a run of a forgotten text's words (a search worded from it, sent
        or not: quotes.holds_a_phrase), become `replacement`; and each of `texts` (in any
        spelling, quotes.py; not one shorter than `minimum`, whose few letters would match
        inside other words) does wherever it is. No
        copy is left in the file: the old rows' bytes are zeroed (secure_delete) and the
        write-ahead log folded in and emptied. Returns how many events changed."""
        from macaron_cli.quotes import Folded, holds_a_phrase

        texts = [t for t in texts if t and len(t.strip()) >= minimum]
        sources = [node("memory", i) for i in memory_ids]
        asked = {
            r[0]
            for r in self._db.execute(
                f"SELECT DISTINCT event_id FROM links WHERE src IN ({','.join('?' * len(sources))})", sources
            )
        }
        changed = []
        for row in self._rows_that_may_hold(texts, asked):
            data = json.loads(row["data"])
            arguments = data.get("arguments")
            if isinstance(arguments, dict):
                data["arguments"] = {
                    k: replacement
                    if isinstance(v, str) and (row["id"] in asked or any(holds_a_phrase(v, t, minimum) for t in texts))
                    else v
                    for k, v in arguments.items()
                }
            folded = Folded(json.dumps(data, ensure_ascii=False)) if texts else None
            if folded is not None and any(folded.holds(t, minimum) for t in texts):
                data = _scrubbed(data, texts, replacement, minimum)
            kept = json.dumps(data, ensure_ascii=False)
            if kept != row["data"]:
                changed.append((kept, row["id"]))
        if changed:
            self._db.execute("PRAGMA secure_delete = ON")
            with self._tx() as db:
                db.executemany("UPDATE events SET data = ? WHERE id = ?", changed)
            # A reader holding an old snapshot (a serving MCP process) keeps the log until it lets go.
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return len(changed)

    def _rows_that_may_hold(self, texts: list[str], ids: set[int]) -> Iterable[sqlite3.Row]:
        """The events `ids`, every call with arguments, and those whose details may hold one of
        `texts`: SQLite narrows by each text's longest plain word (what a client sends is plain
        text: its case may change and escapes around the word, not its ASCII letters); a text
        without such a word has every event looked at."""
        anchors = [_anchor(t) for t in texts]
        if any(a is None for a in anchors):
            return self._db.execute("SELECT id, data FROM events WHERE data IS NOT NULL")
        # A call's arguments may hold a few of a text's words, not its longest: each is read.
        wanted = " OR ".join(
            ["instr(lower(data), ?)"] * len(anchors)
            + ["id IN (SELECT value FROM json_each(?))", "instr(data, '\"arguments\"')"]
        )
        return self._db.execute(
            f"SELECT id, data FROM events WHERE data IS NOT NULL AND ({wanted})", [*anchors, json.dumps(sorted(ids))]
        )

    # ── reading ─────────────────────────────────────────────────────────────────────────
    def events(self, subject: str | None = None, kind: str | None = None, limit: int | None = None) -> list[dict]:
        clauses, args = [], []
        if subject:
            clauses.append("subject = ?")
            args.append(subject)
        if kind:
            # The unary + keeps SQLite on the subject index: a kind alone matches millions.
            clauses.append("+kind = ?" if subject else "kind = ?")
            args.append(kind)
        where = " WHERE " + " AND ".join(clauses) if clauses else ""
        # With a limit: the newest `limit` events, still returned oldest first.
        sql = f"SELECT * FROM events{where} ORDER BY id DESC" + (f" LIMIT {int(limit)}" if limit else "")
        return [_event(r) for r in reversed(self._db.execute(sql, args).fetchall())]

    def events_under(self, prefix: str, limit: int) -> list[dict]:
        """The newest `limit` events whose subject starts with `prefix` (e.g. every MCP
        client's `mcp:…`), oldest first."""
        rows = self._db.execute(
            "SELECT * FROM events WHERE subject >= ? AND subject < ? ORDER BY id DESC LIMIT ?",
            (prefix, prefix + "\U0010ffff", int(limit)),
        ).fetchall()
        return [_event(r) for r in reversed(rows)]

    def last_event(self, kinds: Iterable[str]) -> dict | None:
        kinds = list(kinds)
        row = self._db.execute(
            f"SELECT * FROM events WHERE kind IN ({','.join('?' * len(kinds))}) ORDER BY id DESC LIMIT 1", kinds
        ).fetchone()
        return _event(row) if row else None

    def sources_of(self, dst: str) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT DISTINCT src FROM links WHERE dst = ?", (dst,))]

    def sources_of_event(self, event_id: int) -> list[str]:
        """What contributed to one event (an MCP search: the memories it sent)."""
        return [r[0] for r in self._db.execute("SELECT src FROM links WHERE event_id = ? ORDER BY rowid", (event_id,))]

    def uses_of(self, src: str) -> list[dict]:
        """Where `src` contributed: each link with the event that made it."""
        rows = self._db.execute(
            "SELECT e.* FROM links l JOIN events e ON e.id = l.event_id WHERE l.src = ? ORDER BY e.id", (src,)
        )
        return [_event(r) for r in rows]

    def sends_of(self, memory_id: str) -> list[dict]:
        rows = self._db.execute(
            "SELECT s.endpoint, s.cloud, s.privacy, e.time, e.subject, e.data FROM sends s "
            "JOIN events e ON e.id = s.event_id WHERE s.memory_id = ? ORDER BY e.id",
            (memory_id,),
        )
        return [
            {
                "endpoint": r["endpoint"],
                "cloud": bool(r["cloud"]),
                "privacy": r["privacy"],
                "time": r["time"],
                "subject": r["subject"],
                "purpose": json.loads(r["data"]).get("purpose"),
            }
            for r in rows
        ]

    def applied_credits(self) -> dict[str, float]:
        return {r[0]: r[1] for r in self._db.execute("SELECT memory_id, credit FROM applied_credits")}

    def save_applied_credits(self, changed: dict[str, float]) -> None:
        with self._tx() as db:
            db.executemany("INSERT OR REPLACE INTO applied_credits(memory_id, credit) VALUES (?, ?)", changed.items())

    def private_sent_to_cloud(self) -> list[dict]:
        """The audit: any private or secret memory that ever went to a cloud endpoint (should be none)."""
        rows = self._db.execute(
            "SELECT s.memory_id, s.endpoint, s.privacy, e.time FROM sends s JOIN events e ON e.id = s.event_id "
            f"WHERE s.cloud = 1 AND {privacy.kept_from_cloud('s.privacy')}"
        )
        return [dict(r) for r in rows]


def _anchor(text: str) -> str | None:
    """The longest run of ASCII letters and digits in `text` (lower case), if one has four."""
    runs = re.findall(r"[a-z0-9]{4,}", text.lower())
    return max(runs, key=len) if runs else None


def _scrubbed(value, texts: list[str], replacement: str, minimum: int):
    """`value` (an event's details) with the texts scrubbed from every string in it."""
    from macaron_cli.quotes import scrub

    rules = (texts, replacement, minimum)
    if isinstance(value, str):
        return scrub(value, *rules)
    if isinstance(value, dict):
        return {scrub(k, *rules): _scrubbed(v, *rules) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v, *rules) for v in value]
    return value


def _event(row: sqlite3.Row) -> dict:
    return {
        "id": row["id"],
        "time": row["time"],
        "kind": row["kind"],
        "subject": row["subject"],
        "value": row["value"],
        "data": json.loads(row["data"] or "{}"),
    }


def _move_aside(path: Path) -> None:
    """Keep a damaged ledger beside a fresh one (never delete what happened) and say so."""
    from macaron_cli.output import Out

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    # its write-ahead log belongs to it: left in place it would be read into the fresh one
    for suffix in ("-wal", "-shm", ""):
        part = path.with_name(path.name + suffix)
        if part.exists():
            os.replace(part, kept.with_name(kept.name + suffix))
    Out(stderr=True).line(
        "The ledger ({}) was damaged; it is kept as {} and a fresh one started.", str(path), kept.name
    )
