"""Memories made from other memories, and what forgetting one of their sources does to them.

A memory written from others (chat's summary of a session, made from what the person said
and what was learned from it) lists them in `meta["derived_from"]`. When one of those is
forgotten, the derived memory cannot keep it: if its text is made of parts, each with the
ids it came from (`meta["parts"]`: [[start, end, [ids]], …] joined by `meta["joiner"]`),
the parts from forgotten memories are cut out and the rest kept; otherwise (a free-form
summary a model wrote, which may say it in other words) the derived memory is forgotten too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from macaron_cli.memory.records import Memory, now_iso

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
    value = memory.meta.get(DERIVED_FROM)
    return set(value) if isinstance(value, list) else set()


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
