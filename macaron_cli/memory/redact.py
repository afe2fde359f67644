"""Secrets never reach the store: keys, tokens, passwords, PINs, card numbers, seed
phrases and national ids are replaced by «redacted:kind» (secrets/ finds them). The
words around stay, so the memory still says what it was about ("my PIN is
«redacted:pin»"). Running it again on its own output changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from macaron_cli.memory import secrets
from macaron_cli.memory.records import Memory

MARK = "«redacted:{}»"


def redact(text: str) -> tuple[str, list[str]]:
    """Return the text with secrets replaced by «redacted:kind», and the kinds found."""
    if len(text) <= _SHORT:
        clean, kinds = _redact_short(text)
        return clean, list(kinds)
    return _redact(text)


# A record's short strings repeat (meta's keys, a conversation's title and id on each of its
# turns): each is read once.
_SHORT = 200


@lru_cache(maxsize=8192)
def _redact_short(text: str) -> tuple[str, tuple[str, ...]]:
    clean, kinds = _redact(text)
    return clean, tuple(kinds)


def _redact(text: str) -> tuple[str, list[str]]:
    spans = [s for s in secrets.find(text) if not _inside_a_mark(text, s[0], s[1])]
    for start, end, kind in reversed(spans):
        text = text[:start] + MARK.format(kind) + text[end:]
    return text, [kind for _, _, kind in spans]


def _inside_a_mark(text: str, start: int, end: int) -> bool:
    """Is this span (part of) a mark an earlier redaction left?"""
    opened = text.rfind("«redacted:", 0, end)
    return opened >= 0 and text.find("»", opened) >= start


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
