"""What a message is about: its likely domain.

One small multilingual table serves two uses: guessing a memory's domain when no model
is connected, and matching the person's interests to templates. (Widening a recall
query from the person's goal is the memory engine's job: memory/expansion.py.)
"""

from __future__ import annotations

import re

from macaron_cli import lang

# domain → trigger stems in every language (lang's topic.<domain>: word starts, each counted)
DOMAINS: dict[str, tuple[str, ...]] = {
    domain: tuple(lang.pattern(f"topic.{domain}").split("|")) for domain in lang.TOPICS
}

_WORD = re.compile(r"\w+", re.UNICODE)


def domains_of(text: str) -> list[str]:
    """Domains whose trigger stems occur in `text`, most mentioned first."""
    lowered = text.lower()
    counts = {}
    for domain, triggers in DOMAINS.items():
        n = sum(1 for t in triggers if mentions(lowered, t))
        if n:
            counts[domain] = n
    return sorted(counts, key=lambda d: -counts[d])


def mentions(lowered: str, stem: str) -> bool:
    """Whether lower-cased text mentions a stem (a word start for scripts with spaces)."""
    if stem.isascii():
        return re.search(r"\b" + re.escape(stem), lowered) is not None
    return stem in lowered


def guess_domain(text: str) -> str:
    found = domains_of(text)
    return found[0] if found else "general"


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}
