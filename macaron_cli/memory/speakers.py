"""Who said it: the speaker of a turn of an imported conversation, and the one a question asks about.

A transcript's lines read "Name: what they said", and so do the memories imported from one.
A question that names one of the speakers ("What did Caroline paint?") asks about what that
person said or did, far more often than about what others said to them: retrieval lets the
other speakers' turns count less, and searches by meaning without the name, which says
little about meaning yet pulls toward every turn that addresses that person.

Names as people write them: a chat exported from a phone labels contacts as they were saved
("caroline", "mom"), and a question may write a name in any case, shorten it ("Mel" for
Melanie, "Jenny" for Jennifer), misspell it ("Melaine"), or use the name a speaker calls
themself in the chat ("mom: love you, Linda" signed, "I'm Linda" said). A label is only
read in any case from a conversation file (`memory import`), where every line is a turn;
in a memory's text alone, "the plan: buy milk" is no speaker.

A name that addresses someone ("Thanks, Mel!", "Wow Caroline, that's great", "Caroline, so
glad") names no one a turn is about: said to the other person of a conversation, it is how
a turn of it opens, and read as a question about Mel it would let the person's own earlier
turns count less than any of Mel's. Such a name is set off by a comma or ends an exclamation.
"""

from __future__ import annotations

import json
import re

# The speaker the person's own turns are kept as (an imported chat export's): who tells a chat
# turn the friend or an agent searches by, unless a caller says another (retrieval.search's teller).
ME = "me"

# One to three words, each starting with a capital (or a letter of a script without case),
# then a colon and a space: "Caroline: …", "Mary Ann: …", "김민수: …".
_PREFIX = re.compile(r"^\s*([^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}):\s")
_WORD = re.compile(r"[^\W_][\w'’-]*")
_POSSESSIVE = ("'s", "’s", "'", "’")


def speaker_of(text: str, any_case: bool = False) -> str | None:
    """The speaker of a line written "Name: what they said", else None. `any_case` for a
    line of a conversation file, whose every line is a turn ("caroline: hi")."""
    match = _PREFIX.match(text)
    if not match:
        return None
    name = match.group(1)
    if len(name) > 40 or not (any_case or all(_capitalised(word) for word in name.split())):
        return None
    return name


def speaker_of_row(row: dict) -> str | None:
    """Who said a stored memory: the speaker its import recorded (meta.speaker, in the case
    the file wrote it), else the capitalised name its text starts with."""
    meta = row.get("meta")
    if isinstance(meta, str) and '"speaker"' in meta:  # parsed only where a speaker was kept
        meta = json.loads(meta)
    if isinstance(meta, dict) and isinstance(said := meta.get("speaker"), str) and said:
        return said
    return speaker_of(row["text"])


# The name a speaker calls themself, as a chat writes it: "I'm Linda", "my name is Linda",
# "this is Linda here", "call me Lin", or a sign-off at the end of a turn ("- Linda", "~Lin",
# "love, Linda", "xx Linda").
_SELF_NAME = re.compile(
    r"\b(?:my name is|call me)\s+([A-Z][\w'’-]*)"
    r"|\b(?:I'm|I’m|I am|this is|it's|it’s)\s+([A-Z][\w'’-]*)\s+here\b"
    r"|\b(?:I'm|I’m|I am)\s+([A-Z][\w'’-]*)[.!,]",
    re.IGNORECASE,  # the words around the name in any case; the name itself capitalised (below)
)
# Read only at a turn's end (its last SIGNED_TAIL characters): searched anywhere, a pattern
# anchored at the end costs a try at every space of every turn a search reads.
_SIGNED = re.compile(r"(?:^|\s)(?:[-–—~]\s*|(?:love|cheers|xx|xoxo|regards|best),\s*)([A-Z][\w'’-]*)[.!]?\s*$", re.I)
SIGNED_TAIL = 40
_INTRODUCING = ("i'm ", "i’m ", "i am ", "my name is ", "call me ", "this is ", "it's ", "it’s ")


def speakers_in(rows) -> dict[str, str]:
    """The speakers of `rows` by every name they go by there: each speaker's own first word
    and whole name, and the names they call themselves in their turns."""
    names: dict[str, str] = {}
    for row in rows:
        speaker = speaker_of_row(row)
        if speaker is None:
            continue
        names.setdefault(speaker, speaker)
        said = row["text"].split(":", 1)[1] if ":" in row["text"] else row["text"]
        lowered = said.lower()
        introduced = any(words in lowered for words in _INTRODUCING)  # the regex only where it can match
        found = [next(g for g in m.groups() if g) for m in _SELF_NAME.finditer(said)] if introduced else []
        if signed := _SIGNED.search(said[-SIGNED_TAIL:]):
            found.append(signed.group(1))
        for name in found:
            if name[0].isupper():  # a name, not "I'm tired" read in any case
                names.setdefault(name, speaker)
    return names


def _capitalised(word: str) -> bool:
    first = word[0]
    return first.isupper() or first.lower() == first.upper()  # uncased scripts have no capitals


def named_speaker(query: str, speakers) -> str | None:
    """The one speaker (of `speakers`, or of a {name: speaker} map from speakers_in) the query
    names; None when it names none or several (a question about two people favours neither)."""
    named = name_in(query, speakers)
    return named[0] if named else None


def name_in(query: str, speakers) -> tuple[str, str] | None:
    """The one speaker the query names and the name as the query wrote it: in any case, a
    shortened form of it, or misspelt by one letter (a name of five or more). A name that
    addresses someone (addressed_in) names nobody."""
    found = _names(query, speakers)
    named = {speaker: written for speaker, (written, addressing) in found.items() if not addressing}
    return named.popitem() if len(named) == 1 else None


def addressed_in(query: str, speakers) -> list[str]:
    """The speakers' names the query addresses, as it wrote them ("Thanks, Mel!": Mel)."""
    return [written for written, addressing in _names(query, speakers).values() if addressing]


def addressees(query: str, speakers) -> list[str]:
    """The speakers the query addresses ("Thanks, Mel!": Melanie), as `speakers` names them."""
    return [speaker for speaker, (_written, addressing) in _names(query, speakers).items() if addressing]


def _names(query: str, speakers) -> dict[str, tuple[str, bool]]:
    """speaker → (the name as the query wrote it, whether it addresses them)."""
    names = speakers if isinstance(speakers, dict) else {s: s for s in speakers}
    matches = list(_WORD.finditer(query))
    words = [_bare(m.group()) for m in matches]
    # Someone who types without capitals writes names so too; otherwise "will" is no Will.
    any_case = not any(word[:1].isupper() for word in words[1:])
    lowered = query.lower()
    found: dict[str, tuple[str, bool]] = {}
    for name, speaker in names.items():
        if " " in name and name.lower() in lowered:  # "Mary Ann", as a whole
            start = lowered.index(name.lower())
            found.setdefault(speaker, (query[start : start + len(name)], _addresses(query, start, start + len(name))))
            continue
        first = name.split()[0]
        for n, word in enumerate(words):
            # A question's first word is capitalised anyway: no nickname is read into it.
            if _same_name(word, first, shortened=n > 0, any_case=any_case or first.islower()):
                found.setdefault(speaker, (word, _addresses(query, matches[n].start(), matches[n].end())))
                break
    return found


_SET_OFF_BEFORE = re.compile(r"[,，]\s*$")
_SET_OFF_AFTER = re.compile(r"\s*[,，!！]")


def _addresses(query: str, start: int, end: int) -> bool:
    """Whether the name at query[start:end] addresses someone: set off by a comma before it
    or by a comma or an exclamation mark after it ("What did Caroline paint?" names her)."""
    return bool(_SET_OFF_BEFORE.search(query[:start]) or _SET_OFF_AFTER.match(query, end))


_DIMINUTIVE = ("ie", "y", "i")  # Jenny for Jennifer, Katie for Katherine


def _same_name(word: str, name: str, shortened: bool, any_case: bool) -> bool:
    if not (any_case or word[:1].isupper()):
        return False
    w, n = word.lower(), name.lower()
    if w == n:
        return True
    if shortened and word[:1].isupper() and len(w) >= 3:  # a nickname is written as a name
        stems = [w] + [w[: -len(end)] for end in _DIMINUTIVE if w.endswith(end) and len(w) - len(end) >= 3]
        if any(n.startswith(stem) and n != stem for stem in stems):
            return True
    return len(n) >= 5 and len(w) >= 4 and _one_edit(w, n)


def _one_edit(a: str, b: str) -> bool:
    """True when a and b differ by one letter added, dropped, changed, or two swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((i for i in range(len(short)) if short[i] != long[i]), len(short))
    return short[i:] == long[i + 1 :]


def without_name(query: str, name: str) -> str:
    """The query with the name (and its possessive) left out: the name as the query wrote it
    (name_in), or a speaker's whole name and its first word."""
    names = sorted({name, name.split()[0]}, key=len, reverse=True)
    pattern = r"\b(?:" + "|".join(map(re.escape, names)) + r")(?:'s|’s|'|’)?(?!\w)"
    rest = " ".join(re.sub(pattern, " ", query, flags=re.IGNORECASE).split())
    return rest if _WORD.search(rest) else query


def _bare(word: str) -> str:
    for ending in _POSSESSIVE:
        if word.endswith(ending):
            return word[: -len(ending)]
    return word
