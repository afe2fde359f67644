"""Secrets never reach the store: keys, tokens, passwords and card numbers are redacted.

A hand-written table, measured against detect-secrets' plugins on tests/fixtures/
secrets_corpus.jsonl (`python3 bench/secrets_eval.py`): people write secrets in sentences
("my password is correct horse battery staple", "パスワードは …"), where entropy and
code-style keyword rules find little and flag ordinary words. A password said in words is
redacted to the end of its clause (every word of a pass phrase), one given after a colon
is one token, and a bare "password X" only when X looks like one (a digit or a symbol),
so "a pass phrase game" keeps its game. The label stays, so the memory still says what
it was about.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from macaron_cli.memory.records import Memory

# Words that introduce a password, in the languages macaron speaks.
_LABEL = (
    r"password|passwd|passcode|pass ?phrase|pwd|pw|pin(?: code| number)?|"
    r"passwort|kennwort|mot de passe|code secret|contraseña|"
    r"パスワード|暗証番号|合言葉|비밀번호|패스워드|암호|密码|密碼|口令"
)
# "my password for the bank is …", "ang password ko ay …"
_OWNER = r"(?:\s+(?:for|on|to|of|at)\s+(?:the\s+|my\s+)?\S+|\s+(?:ko|mo|namin|ng\s+\S+))?"
# A verb: the rest of the clause is the password (a pass phrase has spaces).
_SAID = r"\s+(?:is|was|are|ist|war|est|es|era|ay)\s+|\s*(?:は|는|은|是|为|為)\s*"
_CLAUSE = r"[^\n]+?(?=[.,;!?。、，；！？](?:\s|$)|\s+(?:です|입니다|이에요|예요)|\n|$)"
# A colon or equals sign: one token.
_GIVEN = r"\s*[:=：]\s*"
# Bare "password X": only an X that looks like a password (a digit or a symbol in it).
_LOOKS_SECRET = r"(?=\S*[\d!@#$%^&*_+=<>|~])\S+"

_PATTERNS: list[tuple[str, re.Pattern, int]] = [
    # (kind, pattern, group to replace; 0 = the whole match)
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S), 0),
    ("api-key", re.compile(r"\b(?:sk|pk|rk)-(?:[A-Za-z0-9_-]{2,}-)?[A-Za-z0-9_-]{16,}"), 0),  # Anthropic, OpenAI
    ("api-key", re.compile(r"\b(?:sk|pk|rk)_(?:live|test)_[0-9A-Za-z]{10,}"), 0),  # Stripe
    ("api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{30,}"), 0),  # Google
    ("api-key", re.compile(r"\bhf_[A-Za-z0-9]{20,}"), 0),  # Hugging Face
    ("api-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), 0),  # AWS access key id
    # AWS secret access key: 40 characters of base64, after its label or with a / or + in it.
    (
        "api-key",
        re.compile(
            r"(?i)(?:aws_?secret_?access_?key|secret[ _]access[ _]key|aws[ _]secret(?:[ _]key)?)"
            r"(?:\s*[:=]\s*|\s+is\s+|\s+)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        1,
    ),
    (
        "api-key",
        re.compile(
            r"(?<![A-Za-z0-9/+])(?=[A-Za-z0-9+]*[/+])(?=[^\s]*[a-z])(?=[^\s]*[A-Z])"
            r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"
        ),
        0,
    ),
    ("token", re.compile(r"\b(?:ghp|gho|ghu|ghs|github_pat|xox[abprs]|glpat)[-_][A-Za-z0-9_-]{16,}"), 0),
    ("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), 0),
    ("token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*"), 0),
    # scheme://user:PASSWORD@host
    ("password", re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@"), 1),
    # "my bank login is jdoe / S3cret": the pair goes
    (
        "login",
        re.compile(
            r"(?i)\b(?:login|log-in|sign-in|credentials)(?:\s+(?:is|are)\s+|\s*[:=]\s*)"
            r"(\S+\s*/\s*\S+)"
        ),
        1,
    ),
    ("password", re.compile(rf"(?i)(?<![A-Za-z0-9_-])(?:{_LABEL}){_OWNER}(?:{_SAID})({_CLAUSE})"), 1),
    ("password", re.compile(rf"(?i)(?<![A-Za-z0-9_-])(?:{_LABEL}){_OWNER}{_GIVEN}(\S+)"), 1),
    ("password", re.compile(rf"(?i)(?<![A-Za-z0-9_-])(?:{_LABEL})\s+({_LOOKS_SECRET})"), 1),
    (
        "ssn",
        re.compile(
            r"(?i)\b(?:ssn|social security(?: number| no\.?)?)(?:\s+(?:is|was)\s+|\s*[:#]?\s*)"
            r"(\d{3}[- ]?\d{2}[- ]?\d{4})\b"
        ),
        1,
    ),
    ("ssn", re.compile(r"\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b"), 0),
    ("cvv", re.compile(r"(?i)\b(?:cvv2?|cvc2?|csc|cid|security code)(?:\s+(?:is|was)\s+|\s*[:=#]?\s*)(\d{3,4})\b"), 1),
]
_CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")
MARK = "«redacted:{}»"


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
    for kind, pattern, group in _PATTERNS:

        def replace(match: re.Match, kind=kind, group=group) -> str:
            if group == 0:
                found.append(kind)
                return MARK.format(kind)
            secret = match.group(group)
            if not secret or secret.startswith("«redacted:"):
                return match.group(0)
            found.append(kind)
            start, end = match.span(group)
            whole = match.group(0)
            return whole[: start - match.start()] + MARK.format(kind) + whole[end - match.start() :]

        text = pattern.sub(replace, text)

    def card(match: re.Match) -> str:
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and _luhn_ok(digits):
            found.append("card-number")
            return MARK.format("card-number")
        return match.group(0)

    return _CARD.sub(card, text), found


def redact_value(value: Any, found: list[str]) -> Any:
    """`value` with every string in it redacted (dicts and lists recursively, keys too);
    the kinds found are appended to `found`."""
    if isinstance(value, str):
        clean, kinds = redact(value)
        found += kinds
        return clean
    if isinstance(value, dict):
        return {redact_value(k, found) if isinstance(k, str) else k: redact_value(v, found) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_value(v, found) for v in value]
    return value


def redacted(memory: Memory) -> Memory:
    """The memory with secrets redacted from every field a person, a file or a model wrote
    (text, domain, every string in meta at any depth), and the kinds found in meta."""
    found: list[str] = []
    text = redact_value(memory.text, found)
    domain = redact_value(memory.domain, found)
    meta = redact_value(dict(memory.meta), found)
    if not found:
        return memory
    meta["redacted"] = sorted(set(meta.get("redacted", [])) | set(found))
    return replace(memory, text=text, domain=domain, meta=meta)
