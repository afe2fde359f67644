"""The brief: the idea plus what macaron knows about the person that bears on it.

Memories are found with the memory engine (the idea, expanded by the engine from the
person's likely goal, then what the chosen kind of app is about), filtered by where the brief will go: nothing `private` reaches a
cloud model, nothing `secret` reaches any model. The brief is written to the app's
git-ignored `.macaron/brief.md`, so memories never enter the app's git history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from macaron_cli.maker.advice import advice_kind, advice_note
from macaron_cli.maker.personal import accent_colour, idea_language, personal_settings
from macaron_cli.memory.privacy import allowed_levels

MAX_MEMORIES = 8

@dataclass
class Brief:
    idea: str
    language: str
    accent: str
    settings: dict  # units, currency
    memories: list = field(default_factory=list)  # Memory records that went into the brief
    advice: str | None = None  # 'medical' | 'financial' | None

    @property
    def memory_ids(self) -> list[str]:
        return [m.id for m in self.memories]

    def markdown(self) -> str:
        """The private brief the agents read (imported by the app's CLAUDE.md)."""
        lines = [
            "# Brief (private: never commit this file)", "",
            f"The person asked for: {self.idea}", "",
            f"- Language of every UI text: {self.language}",
            f"- Accent colour: {self.accent} (the `--macaron-accent` CSS variable; never edit static/macaron-tokens.css)",
            f"- Units: {self.settings['units']}; currency: {self.settings['currency']}; "
            "dates in the language's own format",
        ]
        if self.advice:
            lines.append(f"- This app touches {self.advice} matters: keep the visible note "
                         f"\"{advice_note(self.language)}\" on its main screen.")
        if self.memories:
            lines += ["", "## What macaron knows about the person that bears on this app", ""]
            lines += [f"- {m.text}" for m in self.memories]
            lines += ["", "Ask the `memory_search` tool (mcp__macaron__memory_search) for more when you need it."]
        return "\n".join(lines) + "\n"


def memory_levels(endpoint_url: str | None, trusted: list[str] | None) -> frozenset[str]:
    """What may go into a brief bound for `endpoint_url` (None: no model now, but the brief
    stays in the app where any later cloud session could read it, so treat it as cloud)."""
    return allowed_levels(endpoint_url, trusted)


def find_memories(store, idea: str, levels, context: str = "", k: int = MAX_MEMORIES) -> list:
    """The memories most relevant to the idea (the store expands it from the person's goal),
    then to what this kind of app is about (the template's description), weighing less."""
    if store is None:
        return []
    scored: dict[str, tuple[float, object]] = {}
    for query, weight in ((idea, 1.0), (context, 0.5)):
        if not query.strip():
            continue
        for hit in store.search(query, k=k, privacy=sorted(levels)):
            score = hit.score * weight
            if hit.memory.id not in scored or scored[hit.memory.id][0] < score:
                scored[hit.memory.id] = (score, hit.memory)
    ranked = sorted(scored.values(), key=lambda pair: pair[0], reverse=True)
    # search already applied the privacy prefilter; filter again so a store that ignored
    # it could never leak (the rule is the point, not the implementation).
    return [m for _, m in ranked if m.privacy in levels][:k]


def build_brief(idea: str, store, settings, endpoint_url: str | None, context: str = "") -> Brief:
    levels = memory_levels(endpoint_url, settings.trusted_endpoints)
    memories = find_memories(store, idea, levels, context)
    language = idea_language(idea, settings.language)
    return Brief(
        idea=idea, language=language, accent=accent_colour(settings.color),
        settings=personal_settings(language, [m.text for m in memories]),
        memories=memories, advice=advice_kind(idea),
    )
