"""Every number a search is tuned by, in one frozen object (the default, TUNING, is what
macaron ships). A search takes a Tuning, so bench/ can vary one without editing code:
`python3 bench/memory_recall.py --tuning boost=0.2` (tuned() reads those pairs).

The values were chosen on bench/memory_locomo.py (dev conversations only) and are checked on
bench/memory_recall.py and bench/memory_multilingual.py. No other module of the search
defines a number of its own (tests/test_memory_tuning.py fails if one does)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from macaron_cli.errors import UserError


@dataclass(frozen=True, slots=True)
class Tuning:
    # Candidates per retriever, at least (more when k is large). Search by meaning needs deeper
    # lists: its scores are spread from the least near candidate, so that tail must be truly
    # unrelated, and the word list must be as deep, or a memory found by meaning misses the
    # word score it has.
    word_candidates: int = 40
    meaning_candidates: int = 160
    probes: int = 48  # IVF partitions searched (of √rows) for the nearest by meaning
    # What each list weighs, against the word list's 1.0 (the primary lists', words and
    # meaning, are averaged; the others only add).
    words_weight: float = 1.0
    vector_weight: float = 0.5  # vectors alone find less than words do (LoCoMo)
    expansion_weight: float = 0.4
    feedback_weight: float = 0.5  # of the relevance-feedback scores by meaning
    dated_weight: float = 0.3  # of the searches within the days asked about, which only add
    broader_weight: float = 0.8  # of the search by meaning of the question's words no memory holds
    feedback_from: int = 3  # best matches whose meaning joins the query's (Rocchio)
    feedback_beta: float = 0.5  # their mean vector's weight against the query's
    # Context and turns of a conversation (memory/rerankers.py).
    neighbour: float = 0.4  # share of the best adjacent turn's relevance a turn gains
    neighbours_of: int = 5  # best candidates whose adjacent turns are fetched
    moment: float = 0.3  # share of the mean relevance of the best moment_peers memories of the same moment
    moment_peers: int = 3
    other_speaker: float = 0.5  # of relevance a turn loses when the query names another speaker
    # of relevance a turn loses when a chat turn that tells is said to its speaker: the teller's
    # own turns are among the candidates, or the turn names them ("Thanks, Mel!")
    addressed: float = 0.3
    answer: float = 0.5  # share of the gap to its question a reply gains (memory/turns.py)
    question: float = 0.9  # of its relevance a question keeps when a reply stating something is a candidate
    asking: float = 0.5  # of its relevance a memory loses per share of it that asks (memory/turns.py)
    dated: float = 0.5  # a memory dated in the days a question names gains this share of its relevance
    guesses: int = 3  # memories found by meaning alone that a question no word of which matches still shows
    # The current truth (memory/updates.py): the best candidates compared for updates, and the
    # share of its update's relevance a replaced memory keeps (under what factors can undo).
    updates_of: int = 20
    replaced: float = 0.5
    # The best few whose later memories are read by their own words: an update that shares no
    # word with the question ("not in Osaka anymore" for "where do I live?") is found by theirs.
    later_of: int = 2
    later_read: int = 10  # of those later memories, how many are read (each is compared with the best)
    # Importance, gates and expiry: bounded multipliers of relevance.
    boost: float = 0.15  # the most importance and time can add to a memory's relevance, as a share of it
    verified: float = 0.5  # what a memory the person said is still true adds to its importance
    pinned: float = 1.0  # what a pin adds to its importance
    gate: float = 0.10  # the most domain/language gating can take away, as a share of the relevance
    gate_temperature: float = 0.5
    gated_from: int = 20  # best candidates whose domains and languages the gates are estimated from
    expired: float = 0.8  # the share of its score a fact past its valid_until keeps
    # Diversity.
    mmr_lambda: float = 0.85  # relevance vs novelty in maximal marginal relevance
    # Similarity in meaning above which, with that share of its words in it, a candidate counts as
    # a copy of one already chosen.
    duplicate: float = 0.9
    # What a turn loses in the pick for each turn of its moment already chosen (of the best's 1):
    # the first hits spread over a history's sessions, not the turns of one.
    same_moment: float = 0.0
    # A chat turn that tells (purpose CHAT, not a question: memory/turns.asks) is no keyword
    # search: a long turn shares many words with any turn, so its meaning leads
    # (bench/long_history.py); and the turns beside a match, or of its session, answer a
    # question, not a turn of a talk: in a long history they crowd one session into the first
    # hits, so the hits spread over sessions instead. Novelty weighs less: what a turn brings
    # back is often two memories of one thing ("my father was a policeman", "he died on duty"),
    # near in meaning yet each saying something; a copy still goes last (`duplicate`), and one
    # session still cannot crowd out the others (chat_same_moment).
    chat_vector_weight: float = 5.0
    chat_neighbour: float = 0.0
    chat_moment: float = 0.0
    chat_same_moment: float = 0.05
    chat_mmr_lambda: float = 0.95

    def for_chat(self) -> Tuning:
        """This tuning as a chat turn that tells is searched by: its chat_* numbers in place of the others."""
        return replace(
            self,
            vector_weight=self.chat_vector_weight,
            neighbour=self.chat_neighbour,
            moment=self.chat_moment,
            same_moment=self.chat_same_moment,
            mmr_lambda=self.chat_mmr_lambda,
        )


TUNING = Tuning()


def tuned(pairs: list[str], base: Tuning = TUNING) -> Tuning:
    """`base` with each "name=value" of `pairs` replaced (bench/'s --tuning), typed as the field is."""
    types = {f.name: f.type for f in fields(Tuning)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        name = name.strip()
        if name not in types:
            raise UserError(f"unknown tuning {name!r}; use one of {', '.join(types)}.")
        try:
            changes[name] = int(value) if types[name] == "int" else float(value)
        except ValueError:
            raise UserError(f"tuning {name} takes a number ({types[name]}), not {value!r}.") from None
    return replace(base, **changes)
