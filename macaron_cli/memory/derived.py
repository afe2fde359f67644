"""Memories made from other memories, and what forgetting one of their sources does to them.

A memory written from others (chat's summary of a session, made from what the person said
and what was learned from it) lists them in `meta["derived_from"]`. When one of those is
forgotten, the derived memory cannot keep it: if its text is made of parts, each with the
ids it came from (`meta["parts"]`: [[start, end, [ids]], …] joined by `meta["joiner"]`),
the parts from forgotten memories are cut out and the rest kept; otherwise (a free-form
summary a model wrote, which may say it in other words) the derived memory is forgotten too.
How private a derived memory is (as private as its sources, when read) is the gate's rule:
privacy.labelled_from_sources.

A link is not the only way: a memory may quote a forgotten one with no link at all (a
summary a model wrote from a recalled memory, an imported note). `with_quotes` finds those
by their text, in any spelling (quotes.py), and treats them the same way: the quoting part
is cut out, or the memory goes whole when it is a free-form summary or nothing else is left.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from macaron_cli.memory.records import Memory, now_iso
from macaron_cli.quotes import MIN_QUOTE, Folded, scrub

DERIVED_FROM = "derived_from"


def with_parts(head: str, parts: list[tuple[str, list[str]]], joiner: str = "; ") -> tuple[str, dict]:
    """The text `head + joiner.join(parts)` and the meta that lets a forget cut parts out:
    each part is (text, ids of the memories it came from)."""
    text, spans = head, []
    for i, (part, ids) in enumerate(parts):
        if i:
            text += joiner
        spans.append([len(text), len(text) + len(part), list(ids)])
        text += part
    sources = sorted({i for _, ids in parts for i in ids})
    return text, {DERIVED_FROM: sources, "parts": spans, "joiner": joiner}


def sources(memory: Memory) -> set[str]:
    return sources_in(memory.meta)


def sources_in(meta: dict) -> set[str]:
    """The ids a memory's `meta` says it was made from."""
    value = meta.get(DERIVED_FROM) if isinstance(meta, dict) else None
    return {i for i in value if isinstance(i, str)} if isinstance(value, list) else set()


def without(memory: Memory, forgotten: set[str]) -> Memory | None:
    """`memory` rewritten without what came from `forgotten`, or None when it must go whole."""
    if not sources(memory) & forgotten:
        return memory
    meta = dict(memory.meta)
    spans, joiner = meta.get("parts"), meta.get("joiner", "; ")
    if not isinstance(spans, list) or not spans:
        return None
    try:
        head = memory.text[: spans[0][0]]
        kept = [(memory.text[start:end], ids) for start, end, ids in spans if not set(ids) & forgotten]
    except (TypeError, ValueError, IndexError):
        return None
    if not kept:
        return None
    text, parts_meta = with_parts(head, kept, joiner)
    meta.update(parts_meta)
    return replace(memory, text=text, meta=meta, updated_at=now_iso())


@dataclass
class ForgetPlan:
    """What one forget removes: `ids` (the memory, the versions it superseded, what is derived
    from them and cannot be rewritten), their `texts` (to find copies outside the store),
    and `rewrites` (derived memories that stay, without the forgotten parts)."""

    memory_id: str
    ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    rewrites: dict[str, Memory] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "memory_id": self.memory_id,
            "ids": self.ids,
            "texts": self.texts,
            "rewrites": {k: m.to_dict() for k, m in self.rewrites.items()},
        }

    @classmethod
    def from_dict(cls, data: dict) -> ForgetPlan:
        return cls(
            data["memory_id"],
            list(data["ids"]),
            list(data["texts"]),
            {k: Memory(**m) for k, m in data.get("rewrites", {}).items()},
        )


def with_quotes(plan: ForgetPlan, memories: Iterable[Memory]) -> ForgetPlan:
    """`plan` extended to the `memories` that quote its texts without a link (see above),
    until nothing more quotes anything that goes."""
    pool = {m.id: plan.rewrites.get(m.id, m) for m in memories if m.id not in plan.ids}
    changed = True
    while changed:
        changed = False
        for memory_id, memory in list(pool.items()):
            kept = _without_quotes(memory, plan.texts)
            if kept is memory:
                continue
            changed = True
            if kept is None:
                del pool[memory_id]
                plan.rewrites.pop(memory_id, None)
                plan.ids.append(memory_id)
                plan.texts.append(memory.text)
            else:
                pool[memory_id] = plan.rewrites[memory_id] = kept
    return plan


def _without_quotes(memory: Memory, texts: list[str]) -> Memory | None:
    """`memory` without the parts that quote `texts`; itself when none does; None to go whole."""
    folded = Folded(memory.text)
    if not any(folded.holds(t, MIN_QUOTE) for t in texts):
        return memory
    spans = memory.meta.get("parts")
    if isinstance(spans, list) and spans:  # made of parts: the quoting parts go
        try:
            head = memory.text[: spans[0][0]]
            parts = [(memory.text[start:end], ids) for start, end, ids in spans]
        except (TypeError, ValueError, IndexError):
            return None
        kept = [(part, ids) for part, ids in parts if not any(Folded(part).holds(t, MIN_QUOTE) for t in texts)]
        if not kept:
            return None
        text, parts_meta = with_parts(head, kept, memory.meta.get("joiner", "; "))
        return replace(memory, text=text, meta={**memory.meta, **parts_meta}, updated_at=now_iso())
    if memory.kind == "episode":  # a free-form summary may say it again in other words
        return None
    text = re.sub(r"\s{2,}", " ", scrub(memory.text, texts, " ", MIN_QUOTE)).strip(" ,;:-")
    if len(re.findall(r"\w+", text)) < 2:
        return None
    return replace(memory, text=text, updated_at=now_iso())
