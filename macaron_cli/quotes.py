"""Does this text hold that memory? Always asked of normalised text.

A memory's words reach files and bundles in many spellings: HTML-escaped in a page
(`&amp;`, `&#39;`), JSON-escaped in a transcript (`\\u00e9`, `\\n`), URL-encoded in a
link (`%20`, `+`), in another case, with the lines wrapped differently, in full-width
forms. Every "does this text contain that memory" question (share, feedback export,
forget's scrub and its search for quotes) asks here, of both sides normalised the same
way: escapes decoded (twice, for an escape inside an escape), NFKC, case-folded,
whitespace collapsed. `spans` maps a match back to the original text, so a scrub
replaces exactly the spelling that was there.
"""

from __future__ import annotations

import functools
import html
import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from urllib.parse import unquote

# One escape at a time: an HTML entity, a JSON \u escape (a surrogate pair whole), a JSON
# short escape, a run of URL-encoded bytes (decoded together: one UTF-8 character is
# several), a `+` (a space in a query string).
_ESCAPES = (
    r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}"
    r'|\\["\\/bfnrt]'
    r"|(?:%[0-9a-fA-F]{2})+"
    r"|\+"
)
_ESCAPE = re.compile(_ESCAPES)
_ESCAPE_OR_SPACE = re.compile(_ESCAPES + r"|\s+")  # the mapping pass: a run of spaces is one
_PASSES = 2
# A shorter quote is too common to look for in arbitrary text (a few letters would match
# inside unrelated words); callers that know a text's place (a store row) need no minimum.
MIN_QUOTE = 8


def _decode(token: str) -> str:
    if token.startswith("&"):
        return html.unescape(token)
    if token.startswith("\\"):
        try:
            return json.loads(f'"{token}"')
        except ValueError:
            return token
    if token == "+" or token.isspace():
        return " "
    return unquote(token, errors="replace")


def _one_pass(text: str) -> tuple[str, list[int], list[int]]:
    """`text` decoded once, folded and collapsed, with each output character's source span."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    space = False

    def emit(chars: str, start: int, end: int) -> None:
        nonlocal space
        for char in chars:
            for folded in unicodedata.normalize("NFKC", char).casefold():
                if folded.isspace():
                    if space:  # one space for a run: it spans the whole run
                        ends[-1] = end
                        continue
                    folded, space = " ", True
                else:
                    space = False
                out.append(folded)
                starts.append(start)
                ends.append(end)

    def plain(start: int, end: int) -> None:  # no escape and no space in here
        nonlocal space
        segment = text[start:end]
        if segment.isascii():  # the common case, quickly
            out.append(segment.lower())
            starts.extend(range(start, end))
            ends.extend(range(start + 1, end + 1))
            space = space and not segment
            return
        for i in range(start, end):
            emit(text[i], i, i + 1)

    at = 0
    for match in _ESCAPE_OR_SPACE.finditer(text):
        plain(at, match.start())
        emit(_decode(match.group()), match.start(), match.end())
        at = match.end()
    plain(at, len(text))
    return "".join(out), starts, ends


def _normal_with_spans(text: str) -> tuple[str, list[int], list[int]]:
    normal, starts, ends = _one_pass(text)
    for _ in range(_PASSES - 1):
        again, s2, e2 = _one_pass(normal)
        if again == normal:
            break
        normal, starts, ends = again, [starts[i] for i in s2], [ends[j - 1] for j in e2]
    return normal, starts, ends


def normalise(text: str) -> str:
    """`text` as every containment question compares it: whole-string operations, fast on
    big files (the pass with spans runs only on a text where a quote was found)."""
    for _ in range(_PASSES):
        decoded = _ESCAPE.sub(lambda m: _decode(m.group()), text)
        if decoded == text:
            break
        text = unicodedata.normalize("NFKC", decoded).casefold()
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@functools.lru_cache(maxsize=4096)
def _needle(quoted: str) -> str:
    """A quote normalised once, however many texts are asked about it."""
    return normalise(quoted)


def _anchors(needle: str) -> list[str]:
    """The ASCII words of a normalised quote: a cheap first look at a big text. Escapes
    leave ASCII letters and digits as they are, so a text (NFKC, lower case) without one
    cannot hold the quote."""
    return re.findall(r"[a-z0-9]{4,}", needle)


class Folded:
    """A text normalised once (lazily), to ask about many quotes."""

    def __init__(self, text: str):
        self.text = text
        self._lower: str | None = None
        self._normal: str | None = None
        self._mapped: tuple[str, list[int], list[int]] | None = None

    def holds(self, quoted: str, minimum: int = 0) -> bool:
        """Does the text hold `quoted` (normalised)?"""
        needle = _needle(quoted)
        if not needle or len(needle) < minimum:
            return False
        if self._lower is None:
            self._lower = unicodedata.normalize("NFKC", self.text).lower()
        if any(word not in self._lower for word in _anchors(needle)):
            return False
        if self._normal is None:
            self._normal = normalise(self.text)
        return needle in self._normal

    def spans(self, quoted: str, minimum: int = 0) -> list[tuple[int, int]]:
        """Where the text holds `quoted` (normalised), as spans of the original text."""
        if not self.holds(quoted, minimum):
            return []
        if self._mapped is None:  # a character at a time: only for a text that holds a quote
            self._mapped = _normal_with_spans(self.text)
        normal, starts, ends = self._mapped
        needle = _normal_with_spans(quoted)[0].strip()
        found, at = [], normal.find(needle) if needle else -1
        while at >= 0:
            found.append((starts[at], ends[at + len(needle) - 1]))
            at = normal.find(needle, at + len(needle))
        return found


def spans(text: str, quoted: str, minimum: int = 0) -> list[tuple[int, int]]:
    """Where `text` holds `quoted` (normalised), as spans of the original `text`."""
    return Folded(text).spans(quoted, minimum)


def holds(text: str, quoted: str, minimum: int = 0) -> bool:
    """Does `text` hold `quoted`, in any of the spellings above?"""
    return Folded(text).holds(quoted, minimum)


def quoted_in(text: str, memories: Iterable, minimum: int = 0) -> list:
    """The memories (anything with `.text`) whose text `text` holds."""
    folded = Folded(text)
    return [m for m in memories if folded.holds(m.text, minimum)]


# A search worded from a memory holds a run of its words, not all of it ("zanthrop clinic
# biopsy results" for "Zanthrop clinic biopsy on Tuesday at 9am"): a run of at least this
# many words (and MIN_QUOTE characters), or of this many letters of a script written
# without spaces, is the memory's.
PHRASE_WORDS = 2
PHRASE_LETTERS = 4


def holds_a_phrase(text: str, quoted: str, minimum: int = MIN_QUOTE) -> bool:
    """Does `text` hold a run of `quoted`'s words (PHRASE_WORDS words and `minimum`
    characters at least, whole words; or PHRASE_LETTERS letters of Han, Kana or Hangul),
    normalised? Asked of what someone typed to find a memory (a client's search)."""
    hay, tokens = normalise(text), _needle(quoted).split()
    for start in range(len(tokens) - PHRASE_WORDS + 1):
        for end in range(start + PHRASE_WORDS, len(tokens) + 1):
            run = " ".join(tokens[start:end])
            if len(run) >= minimum:  # the shortest run from here: a longer one holds it
                if re.search(rf"(?<!\w){re.escape(run)}(?!\w)", hay):
                    return True
                break
    wide = [t for t in tokens if len(t) >= PHRASE_LETTERS and any(ord(c) > 0x2E80 for c in t)]
    return any(t[i : i + PHRASE_LETTERS] in hay for t in wide for i in range(len(t) - PHRASE_LETTERS + 1))


def scrub(text: str, quotes: Iterable[str], replacement: str | Callable[[str], str] = "", minimum: int = 0) -> str:
    """`text` with every spelling of each quote replaced (by `replacement(quote)`'s text when
    given as a callable, else the string)."""
    folded = Folded(text)
    for quote in sorted({q for q in quotes if q and q.strip()}, key=len, reverse=True):
        found = folded.spans(quote, minimum)
        if not found:
            continue
        new = replacement(quote) if callable(replacement) else replacement
        for start, end in sorted(_merged(found), reverse=True):
            text = text[:start] + new + text[end:]
        folded = Folded(text)
    return text


def _merged(found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
