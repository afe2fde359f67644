"""The codes an account gives for its second factor, which no check digit proves: a list of
backup / recovery codes after a label that names them, and an authenticator (TOTP) seed
in base32, grouped by fours or in one block, near a word that names a second factor.

What decides is the label and the value's form together: "backup codes: 2 left" and "BUY
MILK EGGS SOAP" stay, "backup codes 8123 4471, 5590 2318" and "2FA secret: caqw hid6
3oil uuma" go. Each finder yields (start, end, kind) spans."""

from __future__ import annotations

import re
from collections.abc import Iterator

from macaron_cli import lang

Span = tuple[int, int, str]

# "backup codes", "recovery code for the password manager:", "mga backup code ng email ko":
# lang's secret.backup before secret.codes ("Sicherungscodes" too), or one secret.backup_codes
_BACKUP_LABEL = re.compile(
    rf"(?i)(?:{lang.pattern('secret.backup')})[ -]?(?:{lang.pattern('secret.codes')})"
    rf"|{lang.pattern('secret.backup_codes')}"
)
# After the label: words saying whose (no digits) and a colon, or "is/are/は/는" (secret.codes_are), or nothing.
_LEAD = re.compile(
    rf"(?:(?:[^\S\n]+[^\s\d:：]+){{0,5}}?\s*[:=：＝]|\s*(?:{lang.pattern('secret.codes_are')})?)[^\S\n]*\n?[^\S\n]*"
)
# One item of a list: "4f2a9-c81d0", "8123 4471", "kx7p-2mrq-9tdw", "1. 49201837"
_ITEM = re.compile(r"(?:\d{1,2}[.)]\s+)?([A-Za-z0-9]{3,}(?:[ -][A-Za-z0-9]{3,}){0,5})")
_ITEM_GAP = re.compile(r"\s*[,;/|]?\s*")

# A second factor named near a seed (in the clause before it): lang's secret.second_factor
_SEED_LABEL = re.compile(rf"(?i){lang.pattern('secret.second_factor')}")
# Base32 (A–Z and 2–7) by fours (the last group shorter: 16 bytes are 26 characters), or
# one block of 16 or more, in one case
_SEED = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Z2-7]{4}(?:[ -][A-Z2-7]{4}){3,}(?:[ -][A-Z2-7]{1,3})?"
    r"|[a-z2-7]{4}(?:[ -][a-z2-7]{4}){3,}(?:[ -][a-z2-7]{1,3})?|[A-Z2-7]{16,64}|[a-z2-7]{16,64})(?![A-Za-z0-9])"
)


def find(text: str) -> Iterator[Span]:
    yield from _backup_codes(text)
    yield from _seeds(text)


def _is_code(item: str) -> bool:
    """A code is made by a machine: every group has a digit ("4f2a9-c81d0", "8123 4471")."""
    groups = re.split(r"[ -]", item)
    return all(re.search(r"\d", g) for g in groups) and sum(ch.isalnum() for ch in item) >= 6


def _backup_codes(text: str) -> Iterator[Span]:
    for label in _BACKUP_LABEL.finditer(text):
        lead = _LEAD.match(text, label.end())
        pos = lead.end() if lead else label.end()
        first = last = None
        while (item := _ITEM.match(text, pos)) and _is_code(item.group(1)):
            first = item.start() if first is None else first
            last = item.end()
            gap = _ITEM_GAP.match(text, last)
            pos = gap.end() if gap else last
        if first is not None and last is not None and sum(ch.isdigit() for ch in text[first:last]) >= 4:
            yield first, last, "backup-code"


def _seeds(text: str) -> Iterator[Span]:
    for m in _SEED.finditer(text):
        value = m.group(0)
        if not re.search(r"[2-7]", value) or not re.search(r"[A-Za-z]", value):
            continue  # all letters is a word in capitals; all digits is a number
        clause = re.split(r"[\n.。!?]", text[max(0, m.start() - 48) : m.start()])[-1]
        if _SEED_LABEL.search(clause):
            yield m.start(), m.end(), "totp-seed"
