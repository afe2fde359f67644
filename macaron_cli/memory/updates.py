"""The current truth: a newer memory that updates an older one ("we moved to Kyoto" after "I
live in Osaka"), inferred without a model, so search ranks the newer above the older and the
older stays as history, marked replaced by the newer.

A newer memory replaces an older one when both are facts of the same person (the same
speaker, and the same other people named: "my sister moved" never replaces "I live in
Osaka"; "jess moved" is of "my sister jess"), the newer is later, says a change ("moved",
"now", "not … anymore", 引っ越した, 不再, 이제) and is about the same thing: a slot both
speak of (home, work, a phone number…: lang's "slot.*"), a word of the older that the newer
stops or changes ("coffee", "rent"; not the thing whose part changed: "changed the Fit's
tires"), or a measure both give with another value ("82 kg", then "76 kg now"; "rent is
$1400", then "paying 1550 now"). The change is read in the sentence that says it, one that
tells, between short memories (SHORT): a long message tells a story, and its "new" is seldom of
the fact two sentences on. What only asks states nothing, and replaces nothing. A model
that extracts facts (friend/extract.py) confirms an update by linking the new fact to the one
it supersedes; `replaced_by` reads that link first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from macaron_cli import lang
from macaron_cli.memory.records import Hit, Memory
from macaron_cli.memory.rows import FTS_COLUMN, MEMORY_COLUMNS, memory_from_row, to_row
from macaron_cli.memory.speakers import speaker_of, speaker_of_row
from macaron_cli.memory.tagalog import root
from macaron_cli.memory.text import one_letter_nouns, query_form, search_form
from macaron_cli.memory.turns import ASKING, asks, sentences
from macaron_cli.reading.text import LATIN_WORD, content_words, detect_language
from macaron_cli.reading.units import amounts

_SLOTS = {slot: re.compile(lang.pattern(f"slot.{slot}"), re.IGNORECASE) for slot in lang.SLOTS}
_CHANGE = re.compile(lang.pattern("update.change"), re.IGNORECASE)
_CHANGED = re.compile(lang.pattern("update.changed"), re.IGNORECASE)
_STOP = re.compile(lang.pattern("update.stop"), re.IGNORECASE)
_PART = re.compile(lang.pattern("update.part"), re.IGNORECASE)
_HISTORY = re.compile(lang.pattern("update.history"), re.IGNORECASE)
# The most sentences a memory that updates, or is updated, says (bench/current_truth.py's
# updates say one to three; turns of long chats that rules linked by chance, more).
SHORT = 3
_CLAUSE = re.compile(r"[,.;!?，。；！？、]|\s[-–—]\s|\bbut\b")
_OTHERS = re.compile(lang.pattern("update.others"), re.IGNORECASE)
# A relative named right after the relation ("my sister jess", "my son, Leo").
_NAMED = re.compile(rf"(?:{_OTHERS.pattern})[\s,]+([^\W\d_]+)", re.IGNORECASE)
# A number as written, its digits only ("15" of "15k", "300" of "300만원"): said again without
# its unit, a number keeps the older's way of writing it ("380" after "300만원").
_DIGITS = re.compile(r"(?<![\d.,])\d+(?:,\d{3})*(?:\.\d+)?(?![\d:])")
_CHANGE_WORDS = re.compile(rf"^(?:{lang.pattern('update.change')})$", re.IGNORECASE)
_NEGATED_VERB = re.compile(lang.pattern("update.verb"), re.IGNORECASE)
# A pair of letters of one script (Han or katakana): a word of a text without spaces.
_CJK_PAIR = re.compile(r"^(?:[\u3400-\u9fff]{2}|[\u30a0-\u30ff]{2})$")
# A Korean word's first two syllables: its stem (the endings come after: 먹었어, 마셔).
_HANGUL_STEM = re.compile(r"(?<![\uac00-\ud7af])[\uac00-\ud7af]{2}")
_ENDING = re.compile(r"(?:ing|ed|es|s|e)$")  # "smoke", "smoking": one word
_DOUBLED = re.compile(r"([^aeiou])\1$")  # "running" less its ending: "run"
# Days and months say when, not what: two facts of one Saturday are not about one thing.
_WHEN = re.compile(
    "|".join(
        lang.pattern(f"{kind}.{name}")
        for kind, names in (("weekday", lang.WEEKDAYS), ("month", lang.MONTHS))
        for name in names
    ),
    re.IGNORECASE,
)

# A weekday or month said as a word of its own ("Saturdays"; not the "Mar" of "Maria").
_DAY_WORD = re.compile(rf"^(?:{_WHEN.pattern})s?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Statement:
    """What a memory says, as far as updates go."""

    speaker: str | None
    others: frozenset[str]  # other people it is about
    names: frozenset[str]  # the names it gives them ("jess" of "my sister jess")
    tokens: frozenset[str]  # its Latin words, lower case: where a name given elsewhere is found
    slots: frozenset[str]
    words: frozenset[str]  # what it is about, compared between two memories
    changes: bool  # says something changed
    changed_slots: frozenset[str]  # the slots of the sentences that say a change ("moved to Kyoto")
    changed_words: frozenset[str]  # the words of those sentences
    sentences: int  # how many it says
    stopped: frozenset[str]  # the words of what it says stopped or changed to another value
    kept: frozenset[str]  # the words of a thing it says a part or side of changed: it stays
    measures: frozenset[tuple[str, float]]  # each unit it gives a number in, with that number
    numbers: frozenset[float]  # every number it writes, as written (no unit, no multiplier)
    days: frozenset[str]  # the weekdays and months it names: what a question may ask of ("on Saturdays")
    history: bool  # (a question) asks for the past itself: "when did I…"
    asks: bool  # only asks


def statement_of_row(row: dict) -> Statement:
    return _statement(row["text"], row.get("language") or "", speaker_of_row(row))


def statement_of(memory: Memory) -> Statement:
    return statement_of_row({"text": memory.text, "language": memory.language, "meta": memory.meta})


def _said(text: str) -> str:
    """What a memory says, without the name of who said it ("Mel: we moved" says "we moved")."""
    return text.split(":", 1)[1] if speaker_of(text) else text


def _says_change(said: str) -> bool:
    return bool(_CHANGE.search(said) or _STOP.search(said) or _CHANGED.search(said))


@lru_cache(maxsize=4096)
def _tells_change(text: str) -> bool:
    """Whether a memory says something changed: most do not, and are told apart by two
    patterns before all a statement reads of them."""
    return _says_change(_said(text))


@lru_cache(maxsize=4096)
def _statement(text: str, language: str, speaker: str | None) -> Statement:
    said = _said(text)
    # A change is said of what its own sentence names, in a sentence that tells: in a long
    # message "a new recipe" changes nothing of the dog two sentences on, and "any more tips?"
    # stops nothing.
    said_in = sentences(text)
    telling = [s for s in said_in if not s.endswith(ASKING)]
    changing = " . ".join(s for s in telling if _says_change(s))
    # The clauses that say a thing stopped or changed: what they name is what changed ("I don't
    # drink coffee anymore", "changed the wifi password"), not the rest of the message.
    changed = [c for c in _CLAUSE.split(changing) if _STOP.search(c) or _CHANGED.search(c)]
    stopped = " ".join(_what_changed(c) for c in changed)
    kept = " ".join(c[: len(c) - len(_what_changed(c))] for c in changed)
    others = frozenset(m.group(0).lower() for m in _OTHERS.finditer(said))
    return Statement(
        speaker=speaker,
        others=others,
        names=frozenset(m.group(1).lower() for m in _NAMED.finditer(said) if _a_name(m.group(1)))
        if others
        else frozenset(),
        tokens=frozenset(w.lower() for w in LATIN_WORD.findall(said)),
        slots=_slots(said),
        words=_words(said, language),
        changes=bool(changing),
        changed_slots=_slots(changing),
        changed_words=_words(changing, language) if changing else frozenset(),
        sentences=len(said_in),
        stopped=_stopped_things(stopped, language) if stopped else frozenset(),
        kept=_words(kept, language) if kept.strip() else frozenset(),
        measures=frozenset((unit, value) for _, value, units in amounts(said) for unit in units),
        numbers=frozenset(float(d.replace(",", "")) for d in _DIGITS.findall(said)),
        days=frozenset(w.lower().rstrip("s") for w in content_words(said) if _DAY_WORD.match(w)),
        history=bool(_HISTORY.search(said)),
        asks=asks(text),
    )


def _stopped_things(stopped: str, language: str) -> frozenset[str]:
    """The words of what a clause says stopped: the thing after a verb of a habit where it names
    one ("don't drink milk anymore" stops milk, not every drink), else the verb ("don't drink
    anymore")."""
    words = _words(stopped, language)
    verbs = _words(" ".join(m.group(m.lastindex or 0) for m in _NEGATED_VERB.finditer(stopped)), language)
    return (words - verbs) or words


def _slots(said: str) -> frozenset[str]:
    return frozenset(slot for slot, words in _SLOTS.items() if words.search(said))


def _what_changed(clause: str) -> str:
    """Of a clause that says something stopped or changed, what did: not the thing whose part or
    side changed, said before it ("フィットのタイヤ…変えた", "宝马换了新轮胎": the car stays)."""
    part = None if _STOP.search(clause) else _PART.search(clause)
    return clause[part.start() :] if part else clause


def _a_name(word: str) -> bool:
    """Whether the word after a relation names them ("jess"), not what they do ("moved")."""
    return bool(content_words(word)) and not any(
        p.search(word) for p in (_CHANGE_WORDS, _WHEN, _OTHERS, *_SLOTS.values())
    )


def _words(said: str, language: str) -> frozenset[str]:
    # Tagalog's verbs by their root ("nagkakape", "kape"); short words too ("gym", "job", "Mia").
    tagalog = (language or detect_language(said)) == "tl"
    latin = {
        _DOUBLED.sub(r"\1", _ENDING.sub("", root(w) if tagalog else w)) if len(w) > 3 else w
        for w in content_words(said)
        if not _CHANGE_WORDS.match(w) and not _WHEN.match(w)
    }
    pairs = {t for t in search_form(said, language or None).split() if _CJK_PAIR.match(t)}
    pairs |= set(_HANGUL_STEM.findall(said))
    # A noun of one letter ("車は", "家どこ", "술 마셔"): the thing itself, in two words.
    pairs |= set(one_letter_nouns(said))
    return frozenset(latin | {t for t in pairs if not _CHANGE.search(t)})


def about(question: str) -> Statement:
    """What a question asks about: its slots and words, as a memory's are read."""
    return _statement(question, "", None)


def replaces(newer: dict, older: dict, asked: Statement | None = None) -> bool:
    """Whether the memory (row) `newer` updates `older` (see the module's docstring); with
    `asked`, in what that question asks about (a slot, or for a stop a word, all three
    share): a question about something else, or one that asks for the past itself ("when did
    I move?"), asks for the history, not the current truth."""
    if asked is not None and asked.history:
        return False
    if _when(newer) <= _when(older) or not _tells_change(newer["text"]):
        return False
    new, old = statement_of_row(newer), statement_of_row(older)
    if not new.changes or new.asks or old.asks or new.speaker != old.speaker or _others_differ(new, old):
        return False
    # A long message tells a story: its "new" and "now" are seldom of a fact it replaces, and
    # replaced, all else it says would be history with that fact.
    if max(new.sentences, old.sentences) > SHORT:
        return False
    if new.kept & old.words:  # a part of the older's thing changed ("the Fit's tires"): the thing stays
        return False
    # What both are about: a slot both speak of; a word both hold only where the newer stops
    # it or says it changed ("I don't drink coffee anymore", "changed the wifi password"):
    # events share words without replacing each other ("I joined a new group"); a measure
    # both give, where the newer gives it another value ("I'm 76 kg now").
    slots, stopped, remeasured = new.changed_slots & old.slots, new.stopped & old.words, _remeasured(new, old)
    if asked is None:
        return bool(slots or stopped or remeasured)
    # A question that asks for the older fact's slot or day, naming no value ("what's my job?"
    # of "I work as a nurse at the hospital"; "what do I do on Saturdays?") asks about what the
    # newer stopped of it ("quit the hospital!"); a number asked for by the older's words ("how
    # much do I weigh?" of "I weigh 82 kg") about a newer number. A word the newer stops asks
    # for itself otherwise: chats say "a lot has changed since" of everything.
    of_slot = bool(asked.slots & old.slots or asked.days & old.days)
    of_words = bool(asked.words & old.words)
    # The question's slot said by the newer of what an older said in words of no slot ("which
    # gym?" of "Anytime by the station", then "cancelled Anytime, yoga now"). A subject both
    # merely say again ("book club is at the library now") is no update by words alone: in long
    # chats the later sessions say again what earlier ones asked about (LoCoMo's R@5 fell).
    unslotted = bool(asked.slots & new.changed_slots and old.words & new.changed_words) and not old.slots
    return bool(
        slots & asked.slots
        or unslotted
        or stopped & asked.words
        or (stopped and of_slot)
        or (remeasured and (of_slot or of_words))
    )


def _remeasured(new: Statement, old: Statement) -> set[str]:
    """The units both give a number in, where the newer's numbers are not the older's; and the
    older's units the newer gives no number in, where it writes a number near the older's in size
    and not the same ("rent is $1400", then "paying 1550 now"; "70公斤", then "减到63了")."""
    new_units = {unit for unit, _ in new.measures}
    units = new_units & {unit for unit, _ in old.measures}
    again = {
        unit for unit in units if {m for m in new.measures if m[0] == unit} != {m for m in old.measures if m[0] == unit}
    }
    unsaid = {unit for unit, _ in old.measures} - new_units
    return again | unsaid if unsaid and any(_near(n, o) for n in new.numbers for o in old.numbers) else again


def _near(new: float, old: float) -> bool:
    """Another value of the same size: a number said again of one measure (a weight, a rent)
    moves by less than half or double; a count of days or weeks beside it seldom lands there."""
    return new != old and old > 0 and 0.5 <= new / old <= 2


def _when(row: dict) -> datetime:
    return datetime.fromisoformat(row.get("event_at") or row["created_at"])


def current(hits: Iterable[Hit]) -> list[Hit]:
    """The hits no newer memory among them replaced (search marks those `replaced`): what is
    true now. The replaced stay in the store as history (`memory search --all`)."""
    return [h for h in hits if not h.replaced]


def _others_differ(new: Statement, old: Statement) -> bool:
    """About different people: one names others and the other none, or they share no one. A
    relative named by name ("my sister jess") is who the other means by that name alone
    ("jess moved to portland")."""
    new_people, old_people = _people(new, old), _people(old, new)
    return bool(new_people or old_people) and not new_people & old_people


def _people(statement: Statement, other: Statement) -> frozenset[str]:
    return statement.others | statement.names | (other.names & statement.tokens)


# What a memory's newer facts are looked for among: the nearest by meaning and by words.
NEWER_LOOKED_AT = 50
# What `replaces` reads of a memory (with its id): a later memory is read with these alone
# while it is only a possible update.
UPDATE_COLUMNS = ["id", "text", "language", "meta", "created_at", "event_at", "context_id"]


def later_by_words(
    table, texts: list[str], after: str, where: str | None, columns: list[str], limit: int
) -> list[dict]:
    """The memories created after `after` that share the most words with `texts` (BM25 over
    their words together): where an update of one of them is found when it shares no word with
    what was asked ("I moved to Tokyo, not in Osaka anymore" for "where do I live?")."""
    from macaron_cli.memory.candidates import rows_of
    from macaron_cli.memory.pending import begin, reader
    from macaron_cli.memory.rows import quote

    # Each word once: the best few say the question's words again and again, and every
    # repeat is one more pass over the index.
    terms = " ".join(dict.fromkeys(query_form(" ".join(texts)).split()))
    if not re.search(r"\w", terms):
        return []
    later = f"created_at > {quote(after)}" + (f" AND ({where})" if where else "")
    query = reader(table).query().nearest_to_text(terms, columns=FTS_COLUMN).where(later)
    return rows_of(begin(query.select(columns).limit(limit)))


def replaced_by(store, memory, question: str | None = None) -> Memory | None:
    """The memory that replaced `memory`: the newer version that supersedes it (an edit, or an
    update a model's extraction confirmed), else the first later memory that updates it
    (`replaces`; in what `question` asks about, where a search asked one), among the later ones
    nearest it by words and by meaning. None when nothing did."""
    from macaron_cli.memory.candidates import rows_of
    from macaron_cli.memory.pending import begin, reader
    from macaron_cli.memory.rows import quote

    versions = store.list(1, 0, f"supersedes = {quote(memory.id)}")
    if versions:
        return versions[0]
    row = to_row(memory)
    later = f"created_at > {quote(memory.created_at)}"
    found = {
        r["id"]: r
        for r in later_by_words(store.table, [memory.text], memory.created_at, None, MEMORY_COLUMNS, NEWER_LOOKED_AT)
    }
    own = rows_of(begin(reader(store.table).query().where(f"id = {quote(memory.id)}").select(["vector"]).limit(1)))
    if store.vectors and own and own[0]["vector"] is not None:
        query = reader(store.table).query().nearest_to(own[0]["vector"]).column("vector").distance_type("cosine")
        query = query.where(later).select(MEMORY_COLUMNS).limit(NEWER_LOOKED_AT)
        found.update((r["id"], r) for r in rows_of(begin(query)))
    superseded = store.superseded_ids()
    asked = about(question) if question else None
    updates = [r for r in found.values() if r["id"] not in superseded and replaces(r, row, asked)]
    return memory_from_row(min(updates, key=_when)) if updates else None
