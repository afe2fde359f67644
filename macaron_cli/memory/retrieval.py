"""Finding the memories that matter for a query, and saying why (every Hit has `parts`).

The search is declared, and search() runs the declaration in one loop:
1. RETRIEVERS (memory/retrievers.py): each finds a ranked list (words by BM25 over the
   CJK-aware search_text, meaning by the bundled multilingual model, the goal's words of
   memory/expansion.py, the days asked about, relevance feedback, a question's broader
   words); each list's scores are spread over [0, 1] from a non-match's score and added,
   weighted, into a candidate's `relevance`. The question's meaning and its broader
   words' are one search (memory/candidates.py's Ask.meanings): the vectors are read once.
2. RERANKERS (memory/rerankers.py), in order: context (the turns beside the best few, a
   moment many relevant memories share), the speaker a question names, the answer before
   its question, the days asked about, and the relevance floor.
3. FACTORS (memory/rerankers.py): importance and time, domain and language, expiry, each
   a bounded multiplier, so they re-rank among relevant memories but can never lift a weak
   match over a clearly relevant one.
4. Maximal marginal relevance picks the final k so copies do not crowd out the rest (near in
   meaning and saying nothing more), nor (same_moment) the turns of one session the other
   sessions of a long history.
5. The floor by purpose: a LOOKUP (`memory search WORD`) shows only what passes the
   relevance floor, and so says "none" for a word no memory holds; a CHAT turn (the
   friend's, an agent's) is no keyword search ("do you really think so? I'm still
   worried"), so below what passes the floor it always gets the nearest memories by
   meaning, up to k. Each hit's `floor` part says which rule let it in (1 the floor, 0
   nearness alone, with its `nearest` similarity). A chat turn that tells, not one that only
   asks, is searched by the Tuning's chat numbers (Tuning.for_chat): its meaning leads, and
   the days it tells of ("today I went fishing") are no days it asks about.

Every number it is tuned by is a field of memory/tuning.py's Tuning (search takes one;
bench/ varies it). Each stage declares the parts of a score it writes (PARTS), which
memory/score_parts.py explains to the person. A new signal is one class in
memory/retrievers.py or memory/rerankers.py and a line in its tuple.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime

from macaron_cli.errors import UserError
from macaron_cli.memory.candidates import Ask, Candidate, Part, Store, raw_score
from macaron_cli.memory.chatter import without_chatter
from macaron_cli.memory.expansion import expand_query
from macaron_cli.memory.records import CHAT, LOOKUP, PURPOSES, Hit
from macaron_cli.memory.rerankers import (
    AboveFloor,
    AdjacentTurns,
    AnswerFirst,
    Context,
    Dates,
    DropSuperseded,
    Expired,
    Factor,
    Gate,
    Importance,
    Relevant,
    Reranker,
    Speaker,
    Updated,
    importance,
    moment_of,
)
from macaron_cli.memory.retrievers import RETRIEVERS, Retriever
from macaron_cli.memory.rows import quote
from macaron_cli.memory.speakers import ME
from macaron_cli.memory.text import search_form
from macaron_cli.memory.tuning import TUNING, Tuning
from macaron_cli.memory.turns import asks
from macaron_cli.privacy import LEVELS, level_filter
from macaron_cli.reading.text import detect_language
from macaron_cli.reading.when import When, time_spans

__all__ = ["PARTS", "PIPELINE", "Store", "importance", "search"]

# The search, declared: the retrievers' lists are fused into candidates, the rerankers change
# their relevance in this order, and the factors weigh the contenders' relevance into scores.
# search() runs it in one loop; "Why this result" and /why read their parts from it.
RERANKERS: tuple[Reranker, ...] = (
    AdjacentTurns(),
    DropSuperseded(),
    Context(),
    Speaker(),
    AnswerFirst(),
    Dates(),
    Updated(),
    Relevant(),
    AboveFloor(),
)
FACTORS: tuple[Factor, ...] = (Importance(), Gate(), Expired())
PIPELINE: tuple[Retriever | Reranker | Factor, ...] = (*RETRIEVERS, *RERANKERS, *FACTORS)
# The parts search itself writes: the relevance, and how the final few were chosen.
OWN_PARTS = (
    Part("relevance", "the matches, combined", bounded=True),
    Part("redundancy", "how much it repeats a result above it"),
    Part("floor", "1: matches the words, day or meaning; 0: kept for a chat turn as nearest by meaning"),
    Part("nearest", "closeness in meaning of a memory kept only for being among the nearest"),
)
PARTS: tuple[Part, ...] = (
    *(part for stage in PIPELINE for part in ((stage.part,) if isinstance(stage, Retriever) else ()) + stage.parts),
    *OWN_PARTS,
)


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
    tuning: Tuning = TUNING,
    teller: str | None = ME,
) -> list[Hit]:
    """`dates=False` for a text that is no question about the person's days (an app's idea, a
    template's description): its "today" or "daily" names no day to search within.
    `purpose=CHAT` for a turn of a conversation: up to k hits whenever the memory has them
    (the module's step 5). `kind` searches the memories of that kind alone (an app's digests),
    so others that share a word never crowd them out. `tuning`: bench/ varies it. `teller`:
    who says a chat turn, as the memories name their speakers: the person (speakers.ME, their
    turns of an imported chat), whom the friend and agents talk with; bench/long_history.py
    lets each speaker of a conversation be the person in turn."""
    if k < 1:
        raise UserError("k must be at least 1.")
    if purpose not in PURPOSES:
        raise UserError(f"unknown search purpose {purpose!r}; use {' or '.join(PURPOSES)}.")
    snapshot = store.snapshot() if query and query.strip() else None
    if snapshot is None or not snapshot.rows:
        return []
    ask = _ask(
        store, snapshot, query, k, privacy, now, domain, language, expand, vectors, dates, kind, tuning, purpose, teller
    )
    tuning = ask.tuning
    # Every list begun at once (LanceDB runs the word searches side by side), then added in order.
    begun = [(r, found) for r in RETRIEVERS if (found := r.begin(ask)) is not None]
    primary = sum(r.weight(tuning) for r, _ in begun if r.primary) or 1.0
    candidates: dict[str, Candidate] = {}  # may stay empty: a chat turn still gets the nearest (step 5)
    for retriever, found in begun:
        _add_list(candidates, retriever, retriever.weight(tuning) / primary, found(candidates), ask)
    for reranker in RERANKERS:
        candidates = reranker.run(ask, candidates)
    contenders = _contenders(candidates, max(3 * k, k + 10) if mmr else k, tuning)
    factors = [factor.weigh(ask, contenders) for factor in FACTORS]
    for c in contenders.values():
        c.parts["relevance"] = c.score = c.relevance
        for of in factors:
            c.score *= of(c)
    ranked = sorted(contenders.values(), key=lambda c: c.score, reverse=True)
    chosen = _mmr(ranked, k, tuning) if mmr else ranked[:k]
    for c in chosen:
        c.parts["floor"] = 1.0
    if purpose == CHAT and ask.vectors and len(chosen) < k:
        chosen += _nearest_below(ask, chosen, k)
    return [Hit(c.memory, c.score, c.parts) for c in chosen]


def _ask(
    store, snapshot, query, k, privacy, now, domain, language, expand, vectors, dates, kind, tuning, purpose, teller
) -> Ask:
    """The question as every stage reads it. A chat turn that tells (not one that only asks, as
    a question to the friend does) is searched by the Tuning's chat numbers (Tuning.for_chat)."""
    where = " AND ".join(f for f in (_privacy_filter(privacy), f"kind = {quote(kind)}" if kind else None) if f) or None
    use_vectors = store.vectors if vectors is None else (vectors and store.vectors)
    if use_vectors and not store.vectors_complete():  # being re-embedded: words alone are fair to all
        from macaron_cli.memory.reembed import note_words_only

        note_words_only(store)
        use_vectors = False
    now = now or datetime.now(UTC)
    query = without_chatter(query)  # "Lovely day! Anyway, how tall is my sister?" asks only the last
    telling = purpose == CHAT and not asks(query)
    if telling:
        tuning = tuning.for_chat()
    # The days the question speaks of ("last Tuesday"): searched within as well, and favoured.
    when = time_spans(query, now) if dates else When((), query)
    if telling:
        # A turn that tells ("today I went fishing") narrates its days and asks about none: its
        # "today", in words, would match every memory said "today" of another day, and written
        # as the index writes days, every one said on a 7th or in December.
        when = When((), when.rest)
    dated_where = f"{when.where()} AND {where}" if when.spans and where else when.where() if when.spans else None
    ask = Ask(
        store=store,
        tuning=tuning,
        text=query,
        k=k,
        now=now,
        where=where,
        vectors=use_vectors,
        when=when,
        # A turn that tells means all it says, its days too: its meaning is searched whole.
        asked=query if telling or not re.search(r"\w", when.rest) else when.rest,
        dated_where=dated_where,
        extra=expand_query(query) if expand else [],
        domain=domain,
        language=language or detect_language(query),
        telling=telling,
        teller=teller if telling else None,
        superseded=snapshot.superseded,
    )
    if use_vectors:
        from macaron_cli.memory import embeddings

        ask.unrelated = embeddings.unrelated_below()
    return ask


# ── fusion ──────────────────────────────────────────────────────────────────────────────
def _add_list(fused: dict[str, Candidate], retriever: Retriever, share: float, rows: list[dict], ask: Ask) -> None:
    """Score fusion (CombSUM of normalised scores): each retriever's scores are spread over
    [0, 1] from the score of a memory that does not match, so its best match counts fully
    and its tail little, whatever the scale (divided by the best, the similarity of an
    unrelated sentence would count almost as much as the best's). A memory that only a
    list by meaning found, and less similar than `unrelated`, is no candidate: the nearest
    of a small memory can share nothing with the query."""
    name = retriever.name
    scores = [raw_score(r) for r in rows]
    # Every memory is somewhat near in meaning, so a non-match is the least near one;
    # a word list that stopped short of `depth` holds every match, the rest score 0.
    floor = min(scores, default=0.0) if retriever.by_meaning or len(rows) >= ask.depth else 0.0
    for row, raw, score in zip(rows, scores, _spread(scores, floor), strict=True):
        c = fused.get(row["id"])
        if c is None:
            if retriever.new_above_unrelated and raw < ask.unrelated:
                continue  # found by nothing else, and no nearer in meaning than an unrelated text
            c = fused[row["id"]] = Candidate(row)
        c.parts[name] = score
        c.relevance += share * score
        c.shares[name] = share * score
        if retriever.similarity:  # the cosine itself: the floor reads it (rerankers.AboveFloor)
            c.parts["similarity"] = raw


def _spread(scores: list[float], floor: float) -> list[float]:
    high = max(scores, default=0.0)
    if high <= floor:  # all equal: each is as good as the best
        return [1.0 if high > 0 else 0.0] * len(scores)
    return [(s - floor) / (high - floor) for s in scores]


def _contenders(candidates: dict[str, Candidate], pool: int, tuning: Tuning) -> dict[str, Candidate]:
    """The candidates that can still reach the best `pool` once the factors weigh in. They
    scale relevance by their bounds' product at most and at least, so a candidate whose
    relevance times the highest is below the pool-th relevance times the lowest can never
    make it."""
    lowest = highest = 1.0
    for factor in FACTORS:
        low, high = factor.bounds(tuning)
        lowest, highest = lowest * low, highest * high
    ranked = sorted(candidates.items(), key=lambda item: item[1].relevance, reverse=True)
    if len(ranked) > pool:
        bar = ranked[pool - 1][1].relevance * lowest / highest
        top = tuning.gated_from
        ranked = ranked[:top] + [item for item in ranked[top:] if item[1].relevance >= bar]
    return dict(ranked)


def _nearest_below(ask: Ask, chosen: list[Candidate], k: int) -> list[Candidate]:
    """A chat turn's hits past the floor: the nearest memories by meaning not chosen yet, up to
    k in all, nearest first, each scored below every hit that passed the floor (a memory that
    shares a word with the turn always ranks above one that is only near in meaning)."""
    taken = {c.row["id"] for c in chosen} | ask.superseded
    bar = min((c.score for c in chosen), default=1.0)
    below: list[Candidate] = []
    for row in ask.meanings()[1]:
        if len(chosen) + len(below) >= k:
            break
        if row["id"] in taken:
            continue
        similarity = raw_score(row)
        c = Candidate(row)
        c.parts["nearest"] = similarity
        c.parts["floor"] = 0.0
        c.score = bar * similarity / (1.0 + similarity)  # under the bar, in the order of nearness
        below.append(c)
    return below


def _privacy_filter(privacy: Iterable[str] | None) -> str | None:
    if privacy is None:
        return None
    levels = sorted(set(privacy))
    bad = [p for p in levels if p not in LEVELS]
    if bad:
        raise UserError(f"unknown privacy level {bad[0]!r}; use {', '.join(LEVELS)}.")
    return level_filter(levels)


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


def _mmr(ranked: list[Candidate], k: int, tuning: Tuning) -> list[Candidate]:
    """Greedy maximal marginal relevance: the final k, so near-duplicates do not crowd out the
    rest. Each candidate's redundancy (its similarity to the closest memory chosen so far) is
    updated once per pick, so this costs O(k · pool) similarities."""
    pool = ranked[: max(3 * k, k + 10)]
    if not pool:
        return []
    lam, duplicate, same_moment = tuning.mmr_lambda, tuning.duplicate, tuning.same_moment
    top = pool[0].score or 1.0
    relevance = {id(c): lam * c.score / top for c in pool}
    redundancy = {id(c): 0.0 for c in pool}
    copies: set[int] = set()  # candidates that repeat a chosen memory, meaning and words alike
    from_moment: dict[str | None, int] = defaultdict(int)  # how many chosen so far were said at each moment
    chosen: list[Candidate] = []
    while pool and len(chosen) < k:

        def value(c: Candidate) -> float:
            r = redundancy[id(c)]
            # A copy of a chosen memory adds nothing: it goes last, whatever its score.
            return relevance[id(c)] - (1 - lam) * r - (id(c) in copies) - same_moment * from_moment[moment_of(c.row)]

        best = max(pool, key=value)
        pool.remove(best)
        best.parts["redundancy"] = redundancy[id(best)]
        chosen.append(best)
        if (moment := moment_of(best.row)) is not None:
            from_moment[moment] += 1
        for c in pool:
            similarity = _similarity(c, best)
            if similarity > redundancy[id(c)]:
                redundancy[id(c)] = similarity
            if similarity >= duplicate and _says_nothing_more(c, best, duplicate):
                copies.add(id(c))
    return chosen


def _says_nothing_more(c: Candidate, chosen: Candidate, share: float) -> bool:
    """Whether `share` of c's words are the chosen memory's. Near in meaning is not enough to be a
    copy: "my father was a policeman" and "my father was a policeman, he died on duty", or a fact
    and its update, are near, and the second says what the first does not."""
    words = _tokens(c)
    return len(words & _tokens(chosen)) >= share * len(words)
