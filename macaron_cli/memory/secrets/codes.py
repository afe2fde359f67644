"""The codes an account gives for its second factor, which no check digit proves: a list of
backup / recovery codes after a label that names them, and an authenticator (TOTP) seed
in base32, grouped by fours or in one block, near a word that names a second factor.

What decides is the label and the value's form together: "backup codes: 2 left" and "BUY
MILK EGGS SOAP" stay, "backup codes 8123 4471, 5590 2318" and "2FA secret: caqw hid6
3oil uuma" go. Each finder yields (start, end, kind) spans."""

from __future__ import annotations

import re
from collections.abc import Iterator

Span = tuple[int, int, str]

# "backup codes", "recovery code for the password manager:", "mga backup code ng email ko:"
_BACKUP_LABEL = re.compile(
    r"(?i)(?:backup|back-up|recovery|rescue|emergency|one-time|single-use|2fa|mfa|two-factor|otp|"
    r"sicherungs|wiederherstellungs|secours|récupération|respaldo|recuperación)[ -]?(?:codes?|c[óo]digos?)"
    r"|codes? de (?:secours|récupération|respaldo|recuperación)|c[óo]digos? de (?:respaldo|recuperación)"
    r"|バックアップ ?コード|リカバリー? ?コード|復旧 ?コード|予備 ?コード"
    r"|(?:복구|백업|예비) ?코드|备用(?:验证)?码|恢复码|備用(?:驗證)?碼|恢復碼"
)
# After the label: words saying whose (no digits) and a colon, or "is/are/は/는", or nothing.
_LEAD = re.compile(
    r"(?:(?:[^\S\n]+[^\s\d:：]+){0,5}?\s*[:=：＝]|\s*(?:is|are|は|が|는|은|是|为|ay)?)[^\S\n]*\n?[^\S\n]*"
)
# One item of a list: "4f2a9-c81d0", "8123 4471", "kx7p-2mrq-9tdw", "1. 49201837"
_ITEM = re.compile(r"(?:\d{1,2}[.)]\s+)?([A-Za-z0-9]{3,}(?:[ -][A-Za-z0-9]{3,}){0,5})")
_ITEM_GAP = re.compile(r"\s*[,;/|]?\s*")

# A second factor named near a seed (in the clause before it)
_SEED_LABEL = re.compile(
    r"(?i)totp|2fa|mfa|two[- ]factor|otp|authenticator|setup key|set-up key|seed|secret|"
    r"二段階|2段階|認証アプリ|シークレット|2단계|이중 ?인증|시크릿|OTP|验证器|两步验证|双重验证|雙重驗證|密[钥鑰]"
)
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
