"""Secrets never reach the store: keys, tokens, passwords and card numbers are redacted."""

from __future__ import annotations

import re

_PATTERNS: list[tuple[str, re.Pattern]] = [
    ("api-key", re.compile(r"\b(?:sk|pk|rk)-(?:[A-Za-z0-9_-]{2,}-)?[A-Za-z0-9_-]{16,}\b")),
    ("api-key", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
    ("token", re.compile(r"\b(?:ghp|gho|ghu|ghs|github_pat|xox[abprs]|glpat)[-_][A-Za-z0-9_-]{16,}\b")),
    ("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b")),
    ("token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*")),
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S)),
    # "password: hunter2", "pw=...", "パスワードは abc123", "비밀번호 ..."; keeps the label.
    ("password", re.compile(
        r"(?i)((?:password|passwd|passcode|pass ?phrase|pwd|pin code|パスワード|暗証番号|密码|密碼|비밀번호)"
        r"(?:\s*(?:is|was|=|:|は|是|는|：)\s*|\s+))(\S+)")),
]
_CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")


def _luhn_ok(digits: str) -> bool:
    total, parity = 0, len(digits) % 2
    for i, ch in enumerate(digits):
        d = int(ch)
        if i % 2 == parity:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def redact(text: str) -> tuple[str, list[str]]:
    """Return the text with secrets replaced by «redacted:kind», and the kinds found."""
    found: list[str] = []
    for kind, pattern in _PATTERNS:
        if kind == "password":
            text, n = pattern.subn(lambda m: m.group(1) + "«redacted:password»", text)
        else:
            text, n = pattern.subn(f"«redacted:{kind}»", text)
        found += [kind] * n

    def card(match: re.Match) -> str:
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn_ok(digits):
            found.append("card-number")
            return "«redacted:card-number»"
        return match.group(0)

    return _CARD.sub(card, text), found
