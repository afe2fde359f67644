"""Numbers and words that are secrets by their form, proven by their check digits: card
numbers (any grouping: spaces, dashes, dots), IBANs (any case, any grouping), seed phrases, bitcoin keys, and
national ids whose format carries a checksum. Each finder yields (start, end, kind)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from macaron_cli import lang
from macaron_cli.memory.secrets import checksums

Span = tuple[int, int, str]

_CARD = re.compile(r"(?<![\d.,-])\d(?:[ .-]?\d){11,18}(?![\d])")
# Words before a number that say what it is when it is not a card: a card number that
# passes Luhn after "order" or "IMEI" is still kept unless card words are near too.
_NOT_A_CARD = re.compile(rf"(?i)(?:{lang.pattern('secret.not_a_card')})[^\n]{{0,24}}$")
_CARD_WORDS = re.compile(rf"(?i){lang.pattern('secret.card')}")  # lang's secret.card
# An IBAN as people copy it: any case, grouped by spaces, dashes or dots (mod 97 decides).
_IBAN = re.compile(r"(?i)(?<![A-Z0-9])[A-Z]{2}\d{2}(?:[ .-]?[A-Z0-9]){11,30}(?![A-Z0-9])")
_IBAN_GAP = " .-"
_WIF = re.compile(r"(?<![1-9A-HJ-NP-Za-km-z])[59KLc][1-9A-HJ-NP-Za-km-z]{50,51}(?![1-9A-HJ-NP-Za-km-z])")
_XPRV = re.compile(r"\b[xtyzuv]prv[1-9A-HJ-NP-Za-km-z]{100,112}\b")
_WORD = re.compile(r"[a-z]+")
# Between the words of a written-down seed phrase: spaces, commas, numbering ("1. abandon").
_SEED_GAP = re.compile(r"[\s,;·|-]*(?:\d{1,2}[.):]?\s*)?")
_SEED_WORDS = re.compile(rf"(?i){lang.pattern('secret.seed_phrase')}")  # a seed phrase named
_SSN = re.compile(r"\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b")
_RRN = re.compile(r"(?<![A-Za-z0-9])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-8]\d{6}(?!\d)")
_CN_ID = re.compile(r"(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])")
_ES_ID = re.compile(r"\b(?:\d{8}|[XYZ]\d{7})-?[A-Z]\b")
_NIR = re.compile(r"(?<!\d)[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?!\d)")


def find(text: str) -> Iterator[Span]:
    yield from _cards(text)
    yield from _ibans(text)
    yield from _seed_phrases(text)
    for pattern, ok, kind in (
        (_WIF, checksums.wif_ok, "crypto-key"),
        (_XPRV, checksums.extended_private_key_ok, "crypto-key"),
        (_RRN, lambda s: checksums.korean_rrn_ok(s.replace("-", "")), "national-id"),
        (_CN_ID, checksums.chinese_id_ok, "national-id"),
        (_ES_ID, checksums.spanish_id_ok, "national-id"),
        (
            _NIR,
            lambda s: checksums.french_nir_ok(s.replace(" ", "").replace("2A", "19").replace("2B", "18")),
            "national-id",
        ),
        (_SSN, lambda s: True, "ssn"),
    ):
        for m in pattern.finditer(text):
            if ok(m.group(0)):
                yield m.start(), m.end(), kind


def _nir_digits(text: str) -> str:
    """A French NIR as digits: Corsica's departments 2A and 2B count as 19 and 18."""
    return text.replace(" ", "").replace("2A", "19").replace("2B", "18")


def _cards(text: str) -> Iterator[Span]:
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if not (13 <= len(digits) <= 19 and checksums.luhn_ok(digits) and checksums.card_brand_ok(digits)):
            continue
        before = text[max(0, m.start() - 40) : m.start()]
        if _NOT_A_CARD.search(before) and not _CARD_WORDS.search(before):
            continue
        yield m.start(), m.end(), "card-number"


def _ibans(text: str) -> Iterator[Span]:
    for m in _IBAN.finditer(text):
        compact = re.sub(r"[ .-]", "", m.group(0)).upper()
        # a country outside the table is checked on the whole run: only in capitals, as
        # banks print them, so "ab12 …" in a sentence is not a one-in-97 chance of one
        if compact[:2] not in checksums.IBAN_LENGTH and not m.group(0)[:2].isupper():
            continue
        length = checksums.IBAN_LENGTH.get(compact[:2], len(compact))
        if len(compact) < length or not checksums.iban_ok(compact[:length]):
            continue
        # the span of the first `length` characters that are not separators
        end, seen = m.start(), 0
        while seen < length:
            seen += text[end] not in _IBAN_GAP
            end += 1
        if end < len(text) and text[end].isalnum():
            continue  # it would end inside a word: a run that took letters of the next one
        yield m.start(), end, "iban"


def _seed_phrases(text: str) -> Iterator[Span]:
    """Twelve or more BIP-39 words in a row: a seed phrase when its checksum holds, or
    when the text says it is one (a phrase copied with a typo is still a wallet)."""
    bip39 = checksums.bip39_words()
    run: list[re.Match] = []
    pos = 0
    for m in _WORD.finditer(text.lower()):
        joined = run and _SEED_GAP.fullmatch(text[pos : m.start()]) is not None
        if m.group(0) in bip39 and (joined or not run):
            run.append(m)
        else:
            yield from _seed_run(text, run)
            run = [m] if m.group(0) in bip39 else []
        pos = m.end()
    yield from _seed_run(text, run)


def _seed_run(text: str, run: list[re.Match]) -> Iterator[Span]:
    if len(run) < 12:
        return
    words = [m.group(0) for m in run]
    said = _SEED_WORDS.search(text) is not None
    if len(words) > 48:  # a long run of list words is prose, not one phrase: only saying so counts
        words = []
    for size in (24, 21, 18, 15, 12):
        for first in range(len(words) - size + 1):
            if checksums.bip39_ok(words[first : first + size]):
                yield run[first].start(), run[first + size - 1].end(), "seed-phrase"
                return
    if said:
        yield run[0].start(), run[-1].end(), "seed-phrase"
