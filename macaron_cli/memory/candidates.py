"""What every stage of a search shares: the question as asked (Ask), the memories found so far
(Candidate), the parts a stage writes into a hit's score (Part), and the reads of LanceDB that
find them. The stages themselves are memory/retrievers.py and memory/rerankers.py; the order
they run in is memory/retrieval.py's PIPELINE.

Each list reads whole memories as it finds them: with LanceDB, a separate read of the few
that can win costs more than the columns it saves (each column read has a fixed cost)."""

from __future__ import annotations

import re
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from macaron_cli.memory.pending import begin, reader
from macaron_cli.memory.records import Memory, Snapshot
from macaron_cli.memory.rows import FTS_COLUMN, MEMORY_COLUMNS, memory_from_row
from macaron_cli.memory.speakers import addressed_in, addressees, name_in, speakers_in, without_name
from macaron_cli.memory.text import meaning_form, query_form
from macaron_cli.memory.tuning import Tuning
from macaron_cli.reading.text import content_words, detect_language, has_cjk
from macaron_cli.reading.when import When

# What every candidate is read with: the memory, and the turn before it (for the neighbour part).
CANDIDATE_COLUMNS = [*MEMORY_COLUMNS, "context_id"]


class Store(Protocol):
    """What a search needs of a store (memory.store.MemoryStore is one; it imports this module)."""

    vectors: bool
    settings: Any

    @property
    def table(self) -> Any: ...  # the LanceDB table (read-only on MemoryStore)

    def snapshot(self) -> Snapshot: ...

    def vectors_complete(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a hit's score, as "Why this result" and /why show it: its name, what it
    means in the person's words, whether it lies on a 0–1 scale (shown as a bar; the others
    are multipliers or importance, shown as numbers) and whether it is a reason a memory was
    found (the strongest reason leads /why's sentence)."""

    name: str
    meaning: str
    bounded: bool = False
    reason: bool = False


@dataclass(eq=False, slots=True)
class Candidate:
    """A memory some retriever found: its row, how relevant it is and why (`parts`); `score`
    once importance and gates weigh in. The Memory is read from the row only when asked for:
    most candidates never are."""

    row: dict
    relevance: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    tokens: set[str] | None = None
    shares: dict[str, float] = field(default_factory=dict)  # what each list added to relevance
    _memory: Memory | None = field(default=None, init=False, repr=False)

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            self._memory = memory_from_row(self.row)
        return self._memory


@dataclass(eq=False)
class Ask:
    """One search's question and what is known of it so far: set up once by search(), read by
    every stage. The word search of the question begins at once; what depends on its result
    (the speaker it names, the meaning searched, its words no memory holds) is worked out the
    first time a stage asks."""

    store: Store
    tuning: Tuning
    text: str  # the question, without chatter
    k: int
    now: datetime
    where: str | None  # privacy and kind
    vectors: bool  # searched by meaning too
    when: When  # the days it names
    asked: str  # the question without them
    dated_where: str | None  # within those days
    extra: list[str]  # the words its goals add (memory/expansion.py)
    domain: str | None
    language: str
    unrelated: float = -1.0  # the similarity below which a memory found by meaning alone is none
    telling: bool = False  # a chat turn that tells, not one that asks (searched by Tuning.for_chat)
    teller: str | None = None  # who tells it, as the memories' speakers are named (speakers.ME: the person)
    superseded: frozenset[str] = frozenset()  # the memories a newer version replaced, as the search began
    _words: Future | None = None
    _word_rows: list[dict] | None = None
    _named: tuple[str, str] | None = None
    _addressed: list[str] | None = None
    _addressees: list[str] | None = None
    _meanings: tuple[Any, list[dict], list[dict]] | None = None

    def __post_init__(self) -> None:
        self._words = fulltext(self, self.when.in_words(), self.where)  # the query, its days as the index has them

    @property
    def depth(self) -> int:
        return max(self.tuning.meaning_candidates if self.vectors else self.tuning.word_candidates, 2 * self.k)

    @property
    def columns(self) -> list[str]:
        return CANDIDATE_COLUMNS + (["vector"] if self.vectors else [])

    @property
    def guess(self) -> bool:
        """One word alone (a name, a made-up word) means little to the model: no guesses for
        it, nor a search by the meaning of the words no memory holds."""
        return len(self.text.split()) > 1 or has_cjk(self.text)

    @property
    def word_rows(self) -> list[dict]:
        """What the word search of the question found."""
        return self._found()[0]

    @property
    def named(self) -> tuple[str, str] | None:
        """(the speaker the question names, the name as it wrote it): only the memories its
        words found can name one (memory/speakers.py)."""
        return self._found()[1]

    def _found(self) -> tuple[list[dict], tuple[str, str] | None]:
        if self._word_rows is None:
            self._word_rows = rows_of(self._words)
            speakers = speakers_in(self._word_rows)
            self._named = name_in(self.text, speakers)
            self._addressed = addressed_in(self.text, speakers)
            self._addressees = addressees(self.text, speakers)
        return self._word_rows, self._named

    @property
    def addressees(self) -> list[str]:
        """The speakers the question addresses ("Thanks, Mel!"), of those its words found."""
        self._found()
        return self._addressees or []

    @property
    def speaker(self) -> str | None:
        return self.named[0] if self.named else None

    def meanings(self) -> tuple[Any, list[dict], list[dict]]:
        """(the question's meaning, the memories nearest it, those nearest its broader words):
        embedded in one call (the model's fixed cost is paid once) and searched in one query
        (the vectors are read once), the first time a stage asks."""
        if self._meanings is None:
            from macaron_cli.memory import embeddings

            named = self.named
            broader = unheld_words(self.asked, self.word_rows, named[1] if named else None) if self.guess else ""
            # Neither the speaker asked about nor one the turn addresses says what it means: each
            # pulls toward every turn said by or to them.
            asked = self.asked
            for name in (*([named[1]] if named else ()), *(self._addressed or ())):
                asked = without_name(asked, name)
            texts = [meaning_form(asked)]
            meaning, *rest = embeddings.embed(texts + ([broader] if broader else []))
            nearest_rows, *by_broader = nearest(self, [meaning, *rest], self.where)
            self._meanings = (meaning, nearest_rows, by_broader[0] if by_broader else [])
        return self._meanings


def unheld_words(question: str, word_rows: list[dict], name: str | None) -> str:
    """The question's words that carry meaning yet no memory the word search found holds
    ("chores", where the history says "washing up"): a broader word, or one the person
    never used. Their meaning alone finds the specific things. English only: the bundled
    model places a lone word of another language nearest that language's memories, not its
    meaning's (a Tagalog question's "pangalan" finds a Tagalog memory, not the parrot), and
    CJK words are not told apart here."""
    if detect_language(question) != "en":
        return ""
    held = " ".join(row["text"] for row in word_rows).lower()
    skip = {name.lower()} if name else set()
    return " ".join(w for w in content_words(question) if w not in held and w not in skip)


# ── reads ───────────────────────────────────────────────────────────────────────────────
def fulltext(ask: Ask, text: str, where: str | None) -> Future | None:
    """The BM25 search, begun (None when the text has no words to search for)."""
    terms = query_form(text).strip()
    if not re.search(r"\w", terms):
        return None
    q = reader(ask.store.table).query().nearest_to_text(terms, columns=FTS_COLUMN).select([*ask.columns, "_score"])
    if where:
        q = q.where(where)
    return begin(q.limit(ask.depth))


def nearest(ask: Ask, vectors: list, where: str | None) -> list[list[dict]]:
    """For each of `vectors`, the `depth` memories nearest in meaning, as the IVF-PQ index
    finds them by compressed vectors, scored and ordered exactly here by the vectors read
    with them. They hold nearly all of the true nearest (bench/vector_recall.py); reading
    twice as many and keeping the exact best half, as LanceDB's refine step does, holds a
    little more but costs more time than it is worth. Several vectors are one query: LanceDB
    reads the stored vectors once for all of them (without an index, that read is the cost)."""
    import pyarrow.compute as pc

    q = (
        reader(ask.store.table)
        .query()
        .nearest_to(vectors[0] if len(vectors) == 1 else list(vectors))
        .column("vector")
        .distance_type("cosine")
        .select([*ask.columns, "_distance"])
        .nprobes(ask.tuning.probes)
    )
    if where:
        q = q.where(where)
    # Memories without a vector are never neighbours: LanceDB leaves them out itself, with
    # the index or without, so no `vector IS NOT NULL` filter (a slow one) is needed.
    table = begin(q.limit(ask.depth)).result()
    if len(vectors) == 1:
        return [_by_nearness(table, vectors[0])]
    index = table.column("query_index")  # which vector each row was found for
    table = table.drop_columns(["query_index"])
    return [_by_nearness(table.filter(pc.equal(index, i)), vector) for i, vector in enumerate(vectors)]


def _by_nearness(table, vector) -> list[dict]:
    """The rows of `table`, nearest to `vector` first, each with its exact `_distance`."""
    import numpy as np

    matrix = _matrix(table)
    if matrix is None:
        return []
    similarity = matrix @ vector / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(vector) + 1e-12)
    order = np.argsort(-similarity, kind="stable")
    rows = _as_rows(table.take(order), matrix[order])
    for row, value in zip(rows, similarity[order], strict=True):
        row["_distance"] = 1.0 - float(value)
    return rows


def where_rows(ask: Ask, where: str, limit: int) -> list[dict]:
    """Up to `limit` memories the filter `where` holds, in no order."""
    return rows_of(begin(reader(ask.store.table).query().where(where).select(ask.columns).limit(limit)))


def rows_of(pending: Future | None) -> list[dict]:
    if pending is None:
        return []
    table = pending.result()
    return _as_rows(table, _matrix(table))


def _as_rows(table, matrix) -> list[dict]:
    """The table's rows as dicts, each vector a NumPy row (a row of `matrix`): Python lists of
    384 floats per candidate cost more than the whole search and make every comparison slow."""
    if matrix is None:  # no vectors asked for, or no rows
        return table.to_pylist()
    rows = table.drop_columns(["vector"]).to_pylist()
    for row, vector, valid in zip(rows, matrix, table.column("vector").is_valid().to_pylist(), strict=True):
        row["vector"] = vector if valid else None
    return rows


def _matrix(table):
    """The table's vectors as one float32 matrix (None without vectors or rows)."""
    if "vector" not in table.column_names or table.num_rows == 0:
        return None
    import numpy as np

    vectors = table.column("vector").combine_chunks()
    dim = vectors.type.list_size
    start = vectors.offset * dim  # .values ignores the array's offset; null slots keep their width
    return np.asarray(
        vectors.values.to_numpy(zero_copy_only=False)[start : start + len(vectors) * dim], dtype="float32"
    ).reshape(len(vectors), dim)


def raw_score(row: dict) -> float:
    """A list's own score of a row: cosine similarity (floored at 0) or BM25."""
    if "_distance" in row:
        return max(0.0, 1.0 - row["_distance"])
    return row.get("_score", 0.0)
