"""What a search does with the candidates the retrievers found, in two kinds of stage:

Rerankers change candidates' relevance (or which are candidates) one after another, each
`run(ask, candidates)` returning the candidates: context (memories are rarely alone: a turn
next to a relevant turn, and a memory of a moment many relevant memories share, gain a share
of their neighbours' relevance), the speaker a question names, the answer before its
question, the days asked about, and the relevance floor.

Factors then weigh each contender's relevance into its score, each by a bounded multiplier
`of(candidate)` (made once per search by `weigh(ask, contenders)`), within `bounds(tuning)`:
importance and time (weight = reward0·e^(−λ·age) + verified + pinned, λ = config
decay_per_day, a bounded boost, so they re-rank among relevant memories but can never lift a
weak match over a clearly relevant one), domain and language (a softmax over those the
question most likely concerns, never a hard filter) and expiry.

A new signal is one class here and a line in memory/retrieval.py's PIPELINE."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from typing import ClassVar

from macaron_cli.memory.candidates import Ask, Candidate, Part, where_rows
from macaron_cli.memory.retrievers import by_words
from macaron_cli.memory.rows import id_in, quote
from macaron_cli.memory.speakers import speaker_of_row
from macaron_cli.memory.tuning import TUNING, Tuning
from macaron_cli.memory.turns import answer_first, asks
from macaron_cli.memory.updates import UPDATE_COLUMNS, Statement, about, later_by_words, replaces

Candidates = dict[str, Candidate]


class Reranker:
    parts: ClassVar[tuple[Part, ...]] = ()

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        raise NotImplementedError


class AdjacentTurns(Reranker):
    """Fetch the turns just before and after the best few candidates (relevance 0 of their
    own): the answer to a question often sits beside the turn that matched it. Only turns
    of a conversation (episodes) have neighbours, so most searches fetch nothing."""

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        ranked = sorted(candidates.values(), key=lambda c: c.relevance, reverse=True)
        best = [c for c in ranked[: ask.tuning.neighbours_of] if c.row["kind"] == "episode"]
        if not best:
            return candidates
        after = [c.row["id"] for c in best]
        before = [turn for c in best if (turn := c.row.get("context_id")) and turn not in candidates]
        near = f"(context_id IN ({', '.join(map(quote, after))}))" + (f" OR {id_in(before)}" if before else "")
        for row in where_rows(ask, f"({near})" + (f" AND {ask.where}" if ask.where else ""), 2 * len(best) + 2):
            if row["id"] not in candidates:
                candidates[row["id"]] = Candidate(row)
        return candidates


class DropSuperseded(Reranker):
    """A memory that a newer version replaced is history: the newer one answers instead."""

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        for memory_id in ask.superseded & set(candidates):
            candidates.pop(memory_id)
        return candidates


class Context(Reranker):
    """The cluster hypothesis, twice: a turn gains `neighbour` of its best adjacent turn's
    relevance, and an episode `moment` of the mean relevance of the best few other memories
    of its moment (the same conversation session). Both read the relevance before either
    adds, so the order of candidates changes nothing."""

    parts = (
        Part("neighbour", "said right beside a match", bounded=True, reason=True),
        Part("moment", "from the same moment as other matches", bounded=True, reason=True),
    )

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        tuning = ask.tuning
        base = {memory_id: c.relevance for memory_id, c in candidates.items()}
        beside: dict[str, float] = defaultdict(float)
        moments: dict[str, list[float]] = defaultdict(list)
        for memory_id, c in candidates.items():
            before = c.row.get("context_id")
            if before in base:
                beside[memory_id] = max(beside[memory_id], base[before])
                beside[before] = max(beside[before], base[memory_id])
            if (said_at := moment_of(c.row)) is not None:
                moments[said_at].append(base[memory_id])
        for memory_id, c in candidates.items():
            if beside.get(memory_id):
                c.parts["neighbour"] = beside[memory_id]
                c.relevance += tuning.neighbour * beside[memory_id]
            if (said_at := moment_of(c.row)) is not None:
                peers = sorted(moments[said_at], reverse=True)
                peers.remove(base[memory_id])
                moment = sum(peers[: tuning.moment_peers]) / tuning.moment_peers
                if moment:
                    c.parts["moment"] = moment
                    c.relevance += tuning.moment * moment
        return candidates


def moment_of(row: dict) -> str | None:
    """The moment a turn of a conversation was said at (its session, as its time says), the
    same for each of its turns; None for a memory that is no turn."""
    return row["created_at"] if row["kind"] == "episode" else None


class Speaker(Reranker):
    """When a question names one speaker of a conversation (memory/speakers.py), turns said by
    others keep 1 − other_speaker of their relevance (memories that are not turns keep all).
    A chat turn that tells recalls what its teller said before, not what was said to them: when
    the teller's own turns are among the candidates (the person's, of an imported chat: the
    assistant's replies repeat their words), every other speaker's turn keeps 1 − addressed;
    when they are not, the turns of the one it speaks to by name do ("Thanks, Mel! I ran my
    first 5K" is not Mel's)."""

    parts = (
        Part("speaker", "× said by someone other than the person asked about"),
        Part("addressed", "× said to the turn's teller, not by them"),
    )

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        kept = 1.0 - ask.tuning.addressed
        if ask.speaker:
            _lower(candidates, lambda said_by: said_by != ask.speaker, "speaker", 1.0 - ask.tuning.other_speaker)
        elif ask.telling and _among_speakers(ask.teller, candidates):
            _lower(candidates, lambda said_by: said_by != ask.teller, "addressed", kept)
        elif ask.telling and ask.addressees:
            spoken_to = set(ask.addressees)
            _lower(candidates, lambda said_by: said_by in spoken_to, "addressed", kept)
        return candidates


def _among_speakers(teller: str | None, candidates: Candidates) -> bool:
    """Whether the teller said any of the candidates: where they said none (a transcript whose
    speakers are named otherwise), no turn is known to be said to them."""
    return teller is not None and any(speaker_of_row(c.row) == teller for c in candidates.values())


def _lower(candidates: Candidates, by: Callable[[str], bool], part: str, kept: float) -> None:
    """Each turn said by a speaker `by` picks keeps `kept` of its relevance (other memories all)."""
    for c in candidates.values():
        said_by = speaker_of_row(c.row)
        if said_by is not None and by(said_by):
            c.relevance *= kept
            c.parts[part] = kept


class AnswerFirst(Reranker):
    """A reply before the question it answers, and what only asks after what states (memory/turns.py)."""

    parts = (
        Part("answer", "replies to a matching question"),
        Part("question", "× only asks (its reply answers)"),
        Part("asking", "share of it that asks, which counts against it", bounded=True),
    )

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        tuning = ask.tuning
        answer_first(candidates, tuning.answer, tuning.question, tuning.asking)
        return candidates


class Dates(Reranker):
    """A memory dated in a day the question names (by event_at or created_at) gains `dated`."""

    parts = (Part("date", "× said on the day asked about"),)

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        if ask.when.spans:
            gain = 1.0 + ask.tuning.dated
            for c in candidates.values():
                if ask.when.holds(c.row.get("event_at")) or ask.when.holds(c.row.get("created_at")):
                    c.relevance *= gain
                    c.parts["date"] = gain
        return candidates


class Relevant(Reranker):
    """A memory no list found relevant (the least near of those found by meaning, a turn
    beside a match that gained nothing) is no answer, however few the others are."""

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        return {key: c for key, c in candidates.items() if c.relevance > 0}


class AboveFloor(Reranker):
    """The relevance floor: only memories that match the question by words (or by the day it
    names), clearly by meaning (memory/embeddings.py's related_above), or that are turns
    beside one that does. Nearest by meaning means little on its own: every memory is
    somewhat near any question, so a search for one word ("Quokkabrew") would otherwise end
    in unrelated memories. When no word of a question (`guess`) matches a memory clearly
    close in meaning, as in a paraphrase, the best guesses by meaning stay too: the
    `guesses` nearest (the model's similarities for a paraphrase, or across languages, can
    be as low as for unrelated text)."""

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        if not ask.vectors:
            return candidates
        from macaron_cli.memory import embeddings

        related, guesses = embeddings.related_above(), ask.tuning.guesses
        words = {key for key, c in candidates.items() if by_words(c)}
        shown = words | {key for key, c in candidates.items() if c.parts.get("similarity", -1.0) >= related}
        # Words that found nothing close in meaning ("eat" in a memory of last night's dinner, for
        # "Which seafood can't I eat?") say as little as no words: meaning guesses then too.
        meant = any(candidates[key].parts.get("similarity", -1.0) >= related for key in words)
        if ask.guess and not meant:
            # By the question's meaning, as without broader words: they pass their own best below.
            nearest = sorted(
                (c for c in candidates.values() if "similarity" in c.parts),
                key=lambda c: c.shares.get("broader", 0.0) - c.relevance,
            )
            shown |= {c.row["id"] for c in nearest[:guesses]}
        # The nearest to a broader word ("chores": the washing up) pass as a word match would.
        broader = sorted(
            (c for c in candidates.values() if c.parts.get("broader", 0) > 0), key=lambda c: -c.parts["broader"]
        )[:guesses]
        shown |= {c.row["id"] for c in broader}
        shown |= {key for key, c in candidates.items() if "updates" in c.parts}  # answers as what it updates
        beside = {c.row.get("context_id") for key, c in candidates.items() if key in shown}
        return {
            key: c for key, c in candidates.items() if key in shown or key in beside or c.row.get("context_id") in shown
        }


class Updated(Reranker):
    """The current truth (memory/updates.py): of two candidates where the newer updates the
    older in what the question asks about ("we moved to Kyoto" after "I live in Osaka", for
    "where do I live?"; not for "when did I go to the museum?"), the newer answers what the older
    answered (it gains the older's relevance where it had less), and the older, kept as
    history, keeps `replaced` of the newer's. A turn beside the replaced one said by someone
    else (a reply that repeats the old fact) keeps as little: the person's own update wins
    over the neighbour it lifted."""

    parts = (
        Part("updates", "a newer fact that updates an older match", bounded=True, reason=True),
        Part("replaced", "× replaced by a newer memory (kept as history)"),
    )

    def run(self, ask: Ask, candidates: Candidates) -> Candidates:
        best = sorted(candidates.values(), key=lambda c: c.relevance, reverse=True)[: ask.tuning.updates_of]
        # An update the lists found too weakly to be a candidate ("we moved to Kyoto" for "where
        # do I live?") is among the rows they read, or among the later memories that share the
        # best few's words ("not in Osaka anymore", by words alone): it may answer still, as
        # what it updates did.
        superseded, asked = ask.superseded, about(ask.text)
        read = [
            Candidate(row)
            for row in (*ask.word_rows, *(ask.meanings()[1] if ask.vectors else ()))
            if row["id"] not in candidates and row["id"] not in superseded
        ]
        seen = {c.row["id"] for c in read} | candidates.keys() | superseded
        later = [Candidate(row) for row in _later_of(ask, best, asked) if row["id"] not in seen]
        newest_first = sorted([*best, *read, *later], key=_date, reverse=True)
        kept = ask.tuning.replaced
        echoes = _echoes(newest_first, asked)
        for at, newer in enumerate(newest_first):
            if "replaced" in newer.parts or newer.row["id"] in echoes:
                continue
            for older in newest_first[at + 1 :]:
                if older.relevance <= 0 or "replaced" in older.parts or not replaces(newer.row, older.row, asked):
                    continue
                candidates.setdefault(newer.row["id"], newer)
                if older.relevance > newer.relevance:
                    newer.parts["updates"] = older.relevance - newer.relevance
                    newer.relevance = older.relevance
                for c in (older, *_replies_beside(older, newer, candidates)):
                    c.relevance = min(c.relevance, kept * newer.relevance)
                    c.parts["replaced"] = kept
        _read_whole(ask, [c for c in later if candidates.get(c.row["id"]) is c])
        return candidates


def _echoes(newest_first: list[Candidate], asked) -> set[str]:
    """The turns that answer an update ("congrats on the new job!"): the update speaks, its
    reply only echoes it, and updates nothing (its neighbour of old is history with the older)."""
    by_id = {c.row["id"]: (at, c) for at, c in enumerate(newest_first)}
    echoes = set()
    for c in newest_first:
        at, said = by_id.get(c.row.get("context_id") or "", (0, None))
        if said is None or speaker_of_row(said.row) == speaker_of_row(c.row):
            continue
        if any(o.relevance > 0 and replaces(said.row, o.row, asked) for o in newest_first[at + 1 :]):
            echoes.add(c.row["id"])
    return echoes


def _later_of(ask: Ask, best: list[Candidate], asked: Statement) -> list[dict]:
    """The later memories that share the words of the best few that state something, for a
    question that asks of a slot or a day ("where do I live?"): what lets a newer memory that
    shares no word with the question update an older (memory/updates.py), in a search by words
    alone. A search by meaning has it among the nearest in meaning (ask.meanings), and found no
    more with this read (bench/current_truth.py, bench/long_history.py): it pays for none, nor
    does a question of something else."""
    if ask.vectors or not (asked.slots or asked.days):
        return []
    stating = [c for c in best if c.relevance > 0 and not asks(c.row["text"])][: ask.tuning.later_of]
    if not stating:
        return []
    after = min(c.row["created_at"] for c in stating)
    texts = [c.row["text"] for c in stating]
    return later_by_words(ask.store.table, texts, after, ask.where, UPDATE_COLUMNS, ask.tuning.later_read)


def _read_whole(ask: Ask, found: list[Candidate]) -> None:
    """The later memories that became candidates, read whole: they were read with only what an
    update is told by (most are no update, and each column read costs)."""
    if not found:
        return
    whole = {row["id"]: row for row in where_rows(ask, id_in(c.row["id"] for c in found), len(found))}
    for c in found:
        c.row = whole.get(c.row["id"], c.row)


def _date(c: Candidate) -> str:
    return c.row.get("event_at") or c.row["created_at"]


def _replies_beside(older: Candidate, newer: Candidate, candidates: Candidates) -> list[Candidate]:
    """The turns right after or before `older`, said by another speaker (not `newer` itself)."""
    speaker = speaker_of_row(older.row)
    return [
        c
        for c in candidates.values()
        if c is not newer
        and (c.row.get("context_id") == older.row["id"] or older.row.get("context_id") == c.row["id"])
        and speaker_of_row(c.row) != speaker
    ]


# ── factors ─────────────────────────────────────────────────────────────────────────────
class Factor:
    parts: ClassVar[tuple[Part, ...]] = ()

    def bounds(self, tuning: Tuning) -> tuple[float, float]:
        """The least and the most it multiplies relevance by."""
        raise NotImplementedError

    def weigh(self, ask: Ask, contenders: Candidates) -> Callable[[Candidate], float]:
        raise NotImplementedError


class Importance(Factor):
    parts = (
        Part("weight", "importance (reward, recency, pins)"),
        Part("boost", "× from importance"),
    )

    def bounds(self, tuning: Tuning) -> tuple[float, float]:
        return 1.0, 1.0 + tuning.boost

    def weigh(self, ask: Ask, contenders: Candidates) -> Callable[[Candidate], float]:
        lam, tuning = ask.store.settings.decay_per_day, ask.tuning

        def of(c: Candidate) -> float:
            weight = importance(c.memory, ask.now, lam, tuning)
            boost = 1.0 + tuning.boost * weight / (1.0 + weight)
            c.parts.update(weight=weight, boost=boost)
            return boost

        return of


def importance(memory, now: datetime, lam: float, tuning: Tuning = TUNING) -> float:
    """weight = reward0·e^(−λ·age) + verified + pinned; age counts from the last use."""
    last = memory.last_used_at or memory.created_at
    age_days = max((now - datetime.fromisoformat(last)).total_seconds() / 86400, 0.0)
    reward0 = max(1.0 + memory.reward, 0.0)
    return (
        reward0 * math.exp(-lam * age_days)
        + (tuning.verified if memory.verified else 0.0)
        + (tuning.pinned if memory.pinned else 0.0)
    )


class Gate(Factor):
    """A memory's gate in [0, 1]: how likely its domain and language are what the question is
    about, estimated from the best `gated_from` contenders (or given by the caller)."""

    parts = (Part("gate", "× fit with domain and language"),)

    def bounds(self, tuning: Tuning) -> tuple[float, float]:
        return 1.0 - tuning.gate, 1.0

    def weigh(self, ask: Ask, contenders: Candidates) -> Callable[[Candidate], float]:
        tuning = ask.tuning
        top = sorted(contenders.values(), key=lambda c: c.relevance, reverse=True)[: tuning.gated_from]

        def softmax_of(field: str, hint: str | None) -> dict:
            mass: dict[str, float] = defaultdict(float)
            for c in top:
                mass[getattr(c.memory, field)] += c.relevance
            if hint:
                mass[hint] += max(mass.values(), default=1.0)
            if not mass:
                return {}
            peak = max(mass.values())
            exp = {key: math.exp((v - peak) / (tuning.gate_temperature * peak or 1.0)) for key, v in mass.items()}
            z = max(exp.values())
            return {key: v / z for key, v in exp.items()}

        domains, languages = softmax_of("domain", ask.domain), softmax_of("language", ask.language)

        def of(c: Candidate) -> float:
            m = c.memory
            gate = 1.0 - tuning.gate * (1.0 - (0.5 * domains.get(m.domain, 0.0) + 0.5 * languages.get(m.language, 0.0)))
            c.parts["gate"] = gate
            return gate

        return of


class Expired(Factor):
    """A fact past its valid_until keeps `expired` of its score."""

    parts = (Part("expired", "× past its valid-until date"),)

    def bounds(self, tuning: Tuning) -> tuple[float, float]:
        return tuning.expired, 1.0

    def weigh(self, ask: Ask, contenders: Candidates) -> Callable[[Candidate], float]:
        def of(c: Candidate) -> float:
            until = c.memory.valid_until
            if until and datetime.fromisoformat(until) < ask.now:
                c.parts["expired"] = ask.tuning.expired
                return ask.tuning.expired
            return 1.0

        return of
