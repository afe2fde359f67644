"""Finding the memories that matter for a query, and saying why (every Hit has `parts`).

1. Candidates: full-text BM25 over the CJK-aware search_text (memory/text.py), plus
   nearest neighbours by meaning (the bundled multilingual model, memory/embeddings.py); each list's
   scores are spread over [0, 1] from a non-match's score and summed, weighted, into
   `relevance`.
   Goal-based query expansion (memory/expansion.py) adds a lower-weighted second query,
   and relevance feedback scores the candidates by meaning again, near the best matches.
   A broader word (a question's "chores" for the history's washing up and hoovering) is
   in no memory: the words of the question that no word match holds are searched by
   meaning on their own, a lower-weighted list whose best few pass the floor.
2. Context: memories are rarely alone. A turn of a conversation next to a relevant turn,
   and a memory of a moment many relevant memories share, are likelier to matter too, so
   each gains a share of its neighbours' relevance (the turns beside the best few are
   fetched when no retriever found them). A question that names one speaker of a
   conversation is searched by meaning without the name, and the others' turns count less
   (memory/speakers.py).
3. Soft re-weighting: weight = reward0·e^(−λ·age) + verified + pinned (λ = config
   decay_per_day) becomes a bounded boost, so importance and time re-rank among
   relevant memories but can never lift a weak match over a clearly relevant one: an old
   memory loses at most BOOST of its score, whatever its age.
4. Soft gating: a softmax over the domains and languages the query most likely concerns
   (estimated from the best candidates, or given by the caller) scales a memory by at
   most GATE. Never a hard filter.
5. Maximal marginal relevance picks the final k so near-duplicates do not crowd out the rest.
6. The floor by purpose: a LOOKUP (`memory search WORD`) shows only what passes the
   relevance floor, and so says "none" for a word no memory holds; a CHAT turn (the
   friend's, an agent's) is no keyword search ("do you really think so? I'm still
   worried"), so below what passes the floor it always gets the nearest memories by
   meaning, up to k. Each hit's `floor` part says which rule let it in (1 the floor, 0
   nearness alone, with its `nearest` similarity).

Each list reads whole memories as it finds them: with LanceDB, a separate read of the few
that can win costs more than the columns it saves (each column read has a fixed cost).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from macaron_cli.errors import UserError
from macaron_cli.memory.chatter import without_chatter
from macaron_cli.memory.expansion import expand_query
from macaron_cli.memory.pending import begin, reader
from macaron_cli.memory.records import CHAT, LOOKUP, PURPOSES, Hit, Memory
from macaron_cli.memory.rows import FTS_COLUMN, MEMORY_COLUMNS, id_in, memory_from_row, quote
from macaron_cli.memory.speakers import name_in, speaker_of_row, speakers_in, without_name
from macaron_cli.memory.text import (
    content_words,
    detect_language,
    has_cjk,
    meaning_form,
    query_form,
    search_form,
)
from macaron_cli.memory.turns import answer_first
from macaron_cli.memory.when import When, time_spans
from macaron_cli.privacy import LEVELS, level_filter

# The constants below were chosen on bench/memory_locomo.py (dev conversations only).
# Candidates per retriever, at least (more when k is large). Search by meaning needs deeper
# lists: its scores are spread from the least near candidate, so that tail must be truly
# unrelated, and the word list must be as deep, or a memory found by meaning misses the
# word score it has.
WORD_CANDIDATES = 40
MEANING_CANDIDATES = 160
EXPANSION_WEIGHT = 0.4
VECTOR_WEIGHT = 0.5  # of the semantic list against BM25's 1.0: vectors alone find less than words do (LoCoMo)
FEEDBACK_WEIGHT = 0.5  # of the relevance-feedback scores by meaning
FEEDBACK_FROM = 3  # best matches whose meaning joins the query's (Rocchio)
FEEDBACK_BETA = 0.5  # their mean vector's weight against the query's
NEIGHBOUR = 0.4  # share of the best adjacent turn's relevance a turn gains
NEIGHBOURS_OF = 5  # best candidates whose adjacent turns are fetched
MOMENT = 0.3  # share of the mean relevance of the best MOMENT_PEERS memories of the same moment
MOMENT_PEERS = 3
OTHER_SPEAKER = 0.5  # of relevance a turn loses when the query names another speaker
DATED = 0.5  # a memory dated in the days a question names gains half its relevance (memory/when.py)
DATED_WEIGHT = 0.3  # of the searches within those days, which only add (as expansion does)
ANSWER = 0.5  # share of the gap to its question a reply gains (memory/turns.py)
QUESTION = 0.9  # of its relevance a question keeps when a reply stating something is a candidate
ASKING = 0.5  # of its relevance a memory loses per share of it that asks (memory/turns.py)
BROADER_WEIGHT = 0.8  # of the search by meaning of the question's words no memory holds
GUESSES = 3  # memories found by meaning alone that a question no word of which matches still shows
WORD_LISTS = ("bm25", "expansion", "dated")  # the lists whose matches share a word (or day) with the query
BOOST = 0.15  # the most importance and time can add to a memory's relevance, as a share of it
GATE = 0.10  # the most domain/language gating can take away, as a share of the relevance
GATE_TEMPERATURE = 0.5
MMR_LAMBDA = 0.85  # relevance vs novelty in maximal marginal relevance
DUPLICATE = 0.9  # similarity above which a candidate counts as a copy of one already chosen
EXPIRED = 0.8  # the share of its score a fact past its valid_until keeps
GATED_FROM = 20  # best candidates whose domains and languages the gates are estimated from
# The bounds of what importance, gating and expiry multiply relevance by.
HIGHEST, LOWEST = 1.0 + BOOST, (1.0 - GATE) * EXPIRED
PROBES = 48  # IVF partitions searched (of √rows) for the nearest by meaning
# What every candidate is read with: the memory, and the turn before it (for NEIGHBOUR).
CANDIDATE_COLUMNS = [*MEMORY_COLUMNS, "context_id"]


class Store(Protocol):
    """What a search needs of a store (memory.store.MemoryStore is one; it imports this module)."""

    vectors: bool
    settings: Any

    @property
    def table(self) -> Any: ...  # the LanceDB table (read-only on MemoryStore)

    def superseded_ids(self) -> frozenset: ...

    def vectors_complete(self) -> bool: ...


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
    broader: float = 0.0  # the share of relevance the broader words gave (not counted for guesses)
    _memory: Memory | None = field(default=None, init=False, repr=False)

    @property
    def memory(self) -> Memory:
        if self._memory is None:
            self._memory = memory_from_row(self.row)
        return self._memory


def search(
    store: Store,
    query: str,
    k: int = 10,
    *,
    privacy: Iterable[str] | None = None,
    now: datetime | None = None,
    domain: str | None = None,
    language: str | None = None,
    expand: bool = True,
    mmr: bool = True,
    vectors: bool | None = None,
    dates: bool = True,
    purpose: str = LOOKUP,
    kind: str | None = None,
) -> list[Hit]:
    """`dates=False` for a text that is no question about the person's days (an app's idea, a
    template's description): its "today" or "daily" names no day to search within.
    `purpose=CHAT` for a turn of a conversation: up to k hits whenever the memory has them
    (the module's step 6). `kind` searches the memories of that kind alone (an app's digests),
    so others that share a word never crowd them out."""
    if k < 1:
        raise UserError("k must be at least 1.")
    if purpose not in PURPOSES:
        raise UserError(f"unknown search purpose {purpose!r}; use {' or '.join(PURPOSES)}.")
    if not query or not query.strip() or store.table.count_rows() == 0:
        return []
    where = " AND ".join(f for f in (_privacy_filter(privacy), f"kind = {quote(kind)}" if kind else None) if f) or None
    use_vectors = store.vectors if vectors is None else (vectors and store.vectors)
    if use_vectors and not store.vectors_complete():  # being re-embedded: words alone are fair to all
        from macaron_cli.memory.reembed import note_words_only

        note_words_only(store)
        use_vectors = False
    depth = max(MEANING_CANDIDATES if use_vectors else WORD_CANDIDATES, 2 * k)
    columns = CANDIDATE_COLUMNS + (["vector"] if use_vectors else [])

    now = now or datetime.now(UTC)
    query = without_chatter(query)  # "Lovely day! Anyway, how tall is my sister?" asks only the last
    # The days the question speaks of ("last Tuesday"): searched within as well, and favoured.
    when = time_spans(query, now) if dates else When((), query)
    asked = when.rest if re.search(r"\w", when.rest) else query
    dated_where = f"{when.where()} AND {where}" if when.spans and where else when.where() if when.spans else None
    extra = expand_query(query) if expand else []
    # The word searches run on LanceDB's threads. The query is embedded once the words have
    # shown which speaker it names, if any (memory/speakers.py): only they can name one.
    words = _fulltext(store, when.in_words(), depth, where, columns)  # the query, its days as the index has them
    expansion = _fulltext(store, " ".join(extra), depth, where, columns) if extra else None
    dated_words = _fulltext(store, asked, depth, dated_where, columns) if dated_where else None
    word_rows = _rows(words)
    named = name_in(query, speakers_in(word_rows))  # (the speaker, the name as the query wrote it)
    speaker = named[0] if named else None
    unrelated = -1.0
    # One word alone (a name, a made-up word) means little to the model: no guesses for it,
    # nor a search by the meaning of the words no memory holds.
    guess = len(query.split()) > 1 or has_cjk(query)
    broader = _unheld_words(asked, word_rows, named[1] if named else None) if use_vectors and guess else ""
    if use_vectors:
        from macaron_cli.memory import embeddings

        texts = [meaning_form(without_name(asked, named[1]) if named else asked)] + ([broader] if broader else [])
        meaning, *rest = embeddings.embed(texts)  # one call: the model's fixed cost is paid once
        # The query's meaning and its broader words' in one search: the vectors are read once.
        nearest, *by_broader = _nearest(store, [meaning, *rest], depth, where, columns)
        unrelated = embeddings.unrelated_below()
    lists: list[tuple[str, float, list[dict]]] = [("bm25", 1.0, word_rows)]
    if extra:
        lists.append(("expansion", EXPANSION_WEIGHT, _rows(expansion)))
    if use_vectors:
        lists.append(("vector", VECTOR_WEIGHT, nearest))
    if dated_where:  # what the dated searches find only adds, as expansion does
        lists.append(("dated", DATED_WEIGHT, _rows(dated_words) or _dated(store, depth, dated_where, columns)))
        if use_vectors:
            lists.append(("dated_meaning", DATED_WEIGHT, _nearest(store, [meaning], depth, dated_where, columns)[0]))

    candidates = _fuse(lists, depth, unrelated)  # may be none: a chat turn still gets the nearest (step 6)
    if use_vectors:  # feedback only adds to what the lists found
        share = FEEDBACK_WEIGHT / _primary_weight(lists)
        _add_list(candidates, "feedback", share, _feedback(meaning, candidates), depth)
        if broader:  # after feedback: what the question's meaning finds stays its own
            # Only for memories no word matches: the words found say more than a broader guess.
            rows = [r for r in by_broader[0] if not _by_words(candidates.get(r["id"]))]
            _add_list(candidates, "broader", BROADER_WEIGHT / _primary_weight(lists), rows, depth, unrelated)
    _add_adjacent_turns(store, candidates, where, columns)
    _drop_superseded(store, candidates)
    _context_support(candidates)
    if speaker:
        _favour_speaker(candidates, speaker)
    answer_first(candidates, ANSWER, QUESTION, ASKING)
    if when.spans:
        _favour_dated(candidates, when)
    # A memory no list found relevant (the least near of those found by meaning, a turn
    # beside a match that gained nothing) is no answer, however few the others are.
    candidates = {key: c for key, c in candidates.items() if c.relevance > 0}
    if use_vectors:
        candidates = _above_floor(candidates, embeddings.related_above(), guess)
    contenders = _contenders(candidates, max(3 * k, k + 10) if mmr else k)
    lam = store.settings.decay_per_day
    gates = _gates(contenders, domain=domain, language=language or detect_language(query))
    for c in contenders.values():
        weight = importance(c.memory, now, lam)
        boost = 1.0 + BOOST * weight / (1.0 + weight)
        gate = 1.0 - GATE * (1.0 - gates(c.memory))
        expired = EXPIRED if _expired(c.memory, now) else 1.0
        c.score = c.relevance * boost * gate * expired
        c.parts.update(relevance=c.relevance, weight=weight, boost=boost, gate=gate)
        if expired != 1.0:
            c.parts["expired"] = expired
    ranked = sorted(contenders.values(), key=lambda c: c.score, reverse=True)
    chosen = _mmr(ranked, k) if mmr else ranked[:k]
    for c in chosen:
        c.parts["floor"] = 1.0
    if purpose == CHAT and use_vectors and len(chosen) < k:
        chosen += _nearest_below(store, nearest, chosen, k)
    return [Hit(c.memory, c.score, c.parts) for c in chosen]


# ── candidates ──────────────────────────────────────────────────────────────────────────
def _fulltext(store: Store, text: str, depth: int, where: str | None, columns: list[str]) -> Future | None:
    """The BM25 search, begun (None when the text has no words to search for)."""
    terms = query_form(text).strip()
    if not re.search(r"\w", terms):
        return None
    q = reader(store.table).query().nearest_to_text(terms, columns=FTS_COLUMN).select([*columns, "_score"])
    if where:
        q = q.where(where)
    return begin(q.limit(depth))


def _nearest(store: Store, vectors: list, depth: int, where: str | None, columns: list[str]) -> list[list[dict]]:
    """For each of `vectors`, the `depth` memories nearest in meaning, as the IVF-PQ index
    finds them by compressed vectors, scored and ordered exactly here by the vectors read
    with them. They hold nearly all of the true nearest (bench/vector_recall.py); reading
    twice as many and keeping the exact best half, as LanceDB's refine step does, holds a
    little more but costs more time than it is worth. Several vectors are one query: LanceDB
    reads the stored vectors once for all of them (without an index, that read is the cost)."""
    import pyarrow.compute as pc

    q = (
        reader(store.table)
        .query()
        .nearest_to(vectors[0] if len(vectors) == 1 else list(vectors))
        .column("vector")
        .distance_type("cosine")
        .select([*columns, "_distance"])
        .nprobes(PROBES)
    )
    if where:
        q = q.where(where)
    # Memories without a vector are never neighbours: LanceDB leaves them out itself, with
    # the index or without, so no `vector IS NOT NULL` filter (a slow one) is needed.
    table = begin(q.limit(depth)).result()
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


def _dated(store: Store, depth: int, where: str, columns: list[str]) -> list[dict]:
    """Memories of the days a question names, when no word of it matches any of them ("What
    did I do last Tuesday?"): each as relevant as the others."""
    rows = _rows(begin(reader(store.table).query().where(where).select(columns).limit(depth)))
    for row in rows:
        row["_score"] = 1.0
    return rows


def _rows(pending: Future | None) -> list[dict]:
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


def _feedback(meaning, candidates: dict[str, Candidate]) -> list[dict]:
    """Relevance feedback (Rocchio): every candidate's closeness to the meaning of the query
    plus that of its best matches, which lifts memories that say the same thing in other
    words. (A second search by that meaning found no more on LoCoMo and cost time.)"""
    import numpy as np

    best = sorted(candidates.values(), key=lambda c: c.relevance, reverse=True)[:FEEDBACK_FROM]
    vectors = [c.row["vector"] for c in best if c.row.get("vector") is not None]
    if not vectors:
        return []
    vector = meaning + FEEDBACK_BETA * np.mean(np.asarray(vectors, dtype="float32"), axis=0)
    vector = vector / np.linalg.norm(vector)
    rows = [c.row for c in candidates.values() if c.row.get("vector") is not None]
    similarity = np.stack([row["vector"] for row in rows]) @ vector
    return [{"id": row["id"], "_distance": 1.0 - float(value)} for row, value in zip(rows, similarity, strict=True)]


def _fuse(lists, depth: int, unrelated: float) -> dict[str, Candidate]:
    """Score fusion (CombSUM of normalised scores): each retriever's scores are spread over
    [0, 1] from the score of a memory that does not match, so its best match counts fully
    and its tail little, whatever the scale (divided by the best, the similarity of an
    unrelated sentence would count almost as much as the best's).
    Primary retrievers (bm25, vector) are averaged; expansion and feedback only add.
    A memory that only the meaning list found, and less similar than `unrelated`, is no
    candidate: the nearest of a small memory can share nothing with the query."""
    fused: dict[str, Candidate] = {}
    primary = _primary_weight(lists)
    for name, weight, rows in lists:
        _add_list(fused, name, weight / primary, rows, depth, unrelated if name == "vector" else None)
    return fused


def _primary_weight(lists) -> float:
    return sum(weight for name, weight, _ in lists if name in ("bm25", "vector")) or 1.0


def _add_list(
    fused: dict[str, Candidate], name: str, share: float, rows: list[dict], depth: int, unrelated: float | None = None
) -> None:
    scores = [_raw_score(r) for r in rows]
    # Every memory is somewhat near in meaning, so a non-match is the least near one;
    # a word list that stopped short of `depth` holds every match, the rest score 0.
    floor = min(scores, default=0.0) if name in _BY_MEANING or len(rows) >= depth else 0.0
    for row, raw, score in zip(rows, scores, _spread(scores, floor), strict=True):
        c = fused.get(row["id"])
        if c is None:
            if unrelated is not None and raw < unrelated:
                continue  # found by nothing else, and no nearer in meaning than an unrelated text
            c = fused[row["id"]] = Candidate(row)
        c.parts[name] = score
        c.relevance += share * score
        if name == "broader":
            c.broader = share * score
        if name == "vector":
            c.parts["similarity"] = raw  # the cosine itself: the floor reads it (_above_floor)


_BY_MEANING = ("vector", "feedback", "dated_meaning", "broader")  # lists where every memory is somewhat near


def _unheld_words(question: str, word_rows: list[dict], name: str | None) -> str:
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


def _contenders(candidates: dict[str, Candidate], pool: int) -> dict[str, Candidate]:
    """The candidates that can still reach the best `pool` once importance, gates and expiry
    weigh in. Those weights scale relevance by LOWEST to HIGHEST at
    most, so a candidate whose relevance times HIGHEST is below the pool-th relevance times
    LOWEST can never make it."""
    ranked = sorted(candidates.items(), key=lambda item: item[1].relevance, reverse=True)
    if len(ranked) > pool:
        bar = ranked[pool - 1][1].relevance * LOWEST / HIGHEST
        ranked = ranked[:GATED_FROM] + [item for item in ranked[GATED_FROM:] if item[1].relevance >= bar]
    return dict(ranked)


def _spread(scores: list[float], floor: float) -> list[float]:
    high = max(scores, default=0.0)
    if high <= floor:  # all equal: each is as good as the best
        return [1.0 if high > 0 else 0.0] * len(scores)
    return [(s - floor) / (high - floor) for s in scores]


def _raw_score(row: dict) -> float:
    if "_distance" in row:  # cosine distance → similarity, floored at 0
        return max(0.0, 1.0 - row["_distance"])
    return row.get("_score", 0.0)


# ── context ─────────────────────────────────────────────────────────────────────────────
def _add_adjacent_turns(store: Store, candidates: dict[str, Candidate], where: str | None, columns: list[str]) -> None:
    """Fetch the turns just before and after the best few candidates (relevance 0 of their
    own): the answer to a question often sits beside the turn that matched it. Only turns
    of a conversation (episodes) have neighbours, so most searches fetch nothing."""
    ranked = sorted(candidates.values(), key=lambda c: c.relevance, reverse=True)
    best = [c for c in ranked[:NEIGHBOURS_OF] if c.row["kind"] == "episode"]
    if not best:
        return
    after = [c.row["id"] for c in best]
    before = [turn for c in best if (turn := c.row.get("context_id")) and turn not in candidates]
    near = f"(context_id IN ({', '.join(map(quote, after))}))" + (f" OR {id_in(before)}" if before else "")
    rows = _rows(
        begin(
            reader(store.table)
            .query()
            .where(f"({near})" + (f" AND {where}" if where else ""))
            .select(columns)
            .limit(2 * len(best) + 2)
        )
    )
    for row in rows:
        if row["id"] not in candidates:
            candidates[row["id"]] = Candidate(row)


def _context_support(candidates: dict[str, Candidate]) -> None:
    """The cluster hypothesis, twice: a turn gains NEIGHBOUR of its best adjacent turn's
    relevance, and an episode MOMENT of the mean relevance of the best few other memories
    of its moment (the same conversation session). Both read the relevance before either
    adds, so the order of candidates changes nothing."""
    base = {memory_id: c.relevance for memory_id, c in candidates.items()}
    beside: dict[str, float] = defaultdict(float)
    moments: dict[str, list[float]] = defaultdict(list)
    for memory_id, c in candidates.items():
        before = c.row.get("context_id")
        if before in base:
            beside[memory_id] = max(beside[memory_id], base[before])
            beside[before] = max(beside[before], base[memory_id])
        if c.row["kind"] == "episode":
            moments[c.row["created_at"]].append(base[memory_id])
    for memory_id, c in candidates.items():
        if beside.get(memory_id):
            c.parts["neighbour"] = beside[memory_id]
            c.relevance += NEIGHBOUR * beside[memory_id]
        if c.row["kind"] == "episode":
            peers = sorted(moments[c.row["created_at"]], reverse=True)
            peers.remove(base[memory_id])
            moment = sum(peers[:MOMENT_PEERS]) / MOMENT_PEERS
            if moment:
                c.parts["moment"] = moment
                c.relevance += MOMENT * moment


def _favour_speaker(candidates: dict[str, Candidate], speaker: str) -> None:
    """Turns said by others than the speaker the query names keep 1 − OTHER_SPEAKER of
    their relevance (memories that are not turns of a conversation keep all of it)."""
    for c in candidates.values():
        said_by = speaker_of_row(c.row)
        if said_by is not None and said_by != speaker:
            c.relevance *= 1.0 - OTHER_SPEAKER
            c.parts["speaker"] = 1.0 - OTHER_SPEAKER


def _by_words(c: Candidate | None) -> bool:
    """Whether a word list (or the day named) found the candidate."""
    return c is not None and any(c.parts.get(name, 0.0) > 0 for name in WORD_LISTS)


def _above_floor(candidates: dict[str, Candidate], related: float, guess: bool) -> dict[str, Candidate]:
    """The relevance floor: only memories that match the query by words (or by the day it
    names), clearly by meaning (`related`), or that are turns beside one that does. Nearest by
    meaning means little on its own: every memory is somewhat near any query, so a search
    for one word ("Quokkabrew") would otherwise end in unrelated memories. When no word of
    a question (`guess`) matches a memory clearly close in meaning, as in a paraphrase, the
    best guesses by meaning stay too: the GUESSES nearest (the model's similarities for a
    paraphrase, or across languages, can be as low as for unrelated text)."""
    by_words = {key for key, c in candidates.items() if _by_words(c)}
    shown = by_words | {key for key, c in candidates.items() if c.parts.get("similarity", -1.0) >= related}
    # Words that found nothing close in meaning ("eat" in a memory of last night's dinner, for
    # "Which seafood can't I eat?") say as little as no words: meaning guesses then too.
    meant = any(candidates[key].parts.get("similarity", -1.0) >= related for key in by_words)
    if guess and not meant:
        # By the question's meaning, as without broader words: they pass their own best below.
        nearest = sorted(
            (c for c in candidates.values() if "similarity" in c.parts), key=lambda c: c.broader - c.relevance
        )
        shown |= {c.row["id"] for c in nearest[:GUESSES]}
    # The nearest to a broader word ("chores": the washing up) pass as a word match would.
    broader = sorted(
        (c for c in candidates.values() if c.parts.get("broader", 0) > 0), key=lambda c: -c.parts["broader"]
    )[:GUESSES]
    shown |= {c.row["id"] for c in broader}
    beside = {c.row.get("context_id") for key, c in candidates.items() if key in shown}
    return {
        key: c for key, c in candidates.items() if key in shown or key in beside or c.row.get("context_id") in shown
    }


def _nearest_below(store: Store, nearest: list[dict], chosen: list[Candidate], k: int) -> list[Candidate]:
    """A chat turn's hits past the floor: the nearest memories by meaning not chosen yet, up to
    k in all, nearest first, each scored below every hit that passed the floor (a memory that
    shares a word with the turn always ranks above one that is only near in meaning)."""
    taken = {c.row["id"] for c in chosen} | store.superseded_ids()
    bar = min((c.score for c in chosen), default=1.0)
    below: list[Candidate] = []
    for row in nearest:
        if len(chosen) + len(below) >= k:
            break
        if row["id"] in taken:
            continue
        similarity = _raw_score(row)
        c = Candidate(row)
        c.parts["nearest"] = similarity
        c.parts["floor"] = 0.0
        c.score = bar * similarity / (1.0 + similarity)  # under the bar, in the order of nearness
        below.append(c)
    return below


def _favour_dated(candidates: dict[str, Candidate], when: When) -> None:
    """A memory dated in a day the question names (by event_at or created_at) gains DATED."""
    for c in candidates.values():
        if when.holds(c.row.get("event_at")) or when.holds(c.row.get("created_at")):
            c.relevance *= 1.0 + DATED
            c.parts["date"] = 1.0 + DATED


def _drop_superseded(store: Store, candidates: dict[str, Candidate]) -> None:
    """A memory that a newer version replaced is history: the newer one answers instead."""
    for memory_id in store.superseded_ids() & set(candidates):
        candidates.pop(memory_id)


def _privacy_filter(privacy: Iterable[str] | None) -> str | None:
    if privacy is None:
        return None
    levels = sorted(set(privacy))
    bad = [p for p in levels if p not in LEVELS]
    if bad:
        raise UserError(f"unknown privacy level {bad[0]!r}; use {', '.join(LEVELS)}.")
    return level_filter(levels)


# ── re-weighting ────────────────────────────────────────────────────────────────────────
def importance(memory, now: datetime, lam: float) -> float:
    """weight = reward0·e^(−λ·age) + verified + pinned; age counts from the last use."""
    last = memory.last_used_at or memory.created_at
    age_days = max((now - datetime.fromisoformat(last)).total_seconds() / 86400, 0.0)
    reward0 = max(1.0 + memory.reward, 0.0)
    return reward0 * math.exp(-lam * age_days) + (0.5 if memory.verified else 0.0) + (1.0 if memory.pinned else 0.0)


def _expired(memory, now: datetime) -> bool:
    return bool(memory.valid_until) and datetime.fromisoformat(memory.valid_until) < now


def _gates(candidates: dict[str, Candidate], *, domain: str | None, language: str | None):
    """A memory's gate in [0, 1]: how likely its domain and language are what the query is about."""
    top = sorted(candidates.values(), key=lambda c: c.relevance, reverse=True)[:GATED_FROM]

    def softmax_of(field: str, hint: str | None) -> dict:
        mass: dict[str, float] = defaultdict(float)
        for c in top:
            mass[getattr(c.memory, field)] += c.relevance
        if hint:
            mass[hint] += max(mass.values(), default=1.0)
        if not mass:
            return {}
        peak = max(mass.values())
        exp = {key: math.exp((v - peak) / (GATE_TEMPERATURE * peak or 1.0)) for key, v in mass.items()}
        z = max(exp.values())
        return {key: v / z for key, v in exp.items()}

    domains, languages = softmax_of("domain", domain), softmax_of("language", language)
    return lambda m: 0.5 * domains.get(m.domain, 0.0) + 0.5 * languages.get(m.language, 0.0)


# ── diversity ───────────────────────────────────────────────────────────────────────────
def _tokens(c: Candidate) -> set[str]:
    if c.tokens is None:
        c.tokens = set(re.findall(r"\w+", search_form(c.memory.text, c.memory.language).lower()))
    return c.tokens


def _similarity(a: Candidate, b: Candidate) -> float:
    va, vb = a.row.get("vector"), b.row.get("vector")
    if va is not None and vb is not None:
        return float(va @ vb)
    ta, tb = _tokens(a), _tokens(b)
    common = len(ta & tb)  # |a ∪ b| counted, not built: MMR calls this k × pool times
    return common / ((len(ta) + len(tb) - common) or 1)


def _mmr(ranked: list[Candidate], k: int) -> list[Candidate]:
    """Greedy MMR; each candidate's redundancy (its similarity to the closest memory chosen
    so far) is updated once per pick, so this costs O(k · pool) similarities."""
    pool = ranked[: max(3 * k, k + 10)]
    if not pool:
        return []
    top = pool[0].score or 1.0
    relevance = {id(c): MMR_LAMBDA * c.score / top for c in pool}
    redundancy = {id(c): 0.0 for c in pool}
    chosen: list[Candidate] = []
    while pool and len(chosen) < k:

        def value(c: Candidate) -> float:
            r = redundancy[id(c)]
            # A near-copy of a chosen memory adds nothing: it goes last, whatever its score.
            return relevance[id(c)] - (1 - MMR_LAMBDA) * r - (r >= DUPLICATE)

        best = max(pool, key=value)
        pool.remove(best)
        best.parts["redundancy"] = redundancy[id(best)]
        chosen.append(best)
        for c in pool:
            similarity = _similarity(c, best)
            if similarity > redundancy[id(c)]:
                redundancy[id(c)] = similarity
    return chosen
