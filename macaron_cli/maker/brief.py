"""The brief: the idea plus what macaron knows about the person that bears on it.

Memories are found with the memory engine (the idea, expanded by the engine from the
person's likely goal, then what the chosen kind of app is about) through the privacy gate
(macaron_cli/privacy.py), for every model the brief will go to: nothing `private` reaches
a cloud model, nothing `secret` reaches any model. A Brief holds only the gate's
`Cleared` memories, and `text_for(destination)` is how its text goes into a request. The
brief is written to the app's git-ignored `.macaron/brief.md`, so memories never enter
the app's git history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from macaron_cli import privacy
from macaron_cli.config import Settings
from macaron_cli.privacy import Cleared, Destination, PrivacyViolation
from macaron_cli.reading.advice import advice_kind, advice_note
from macaron_cli.reading.personal import accent_colour, bears_on_settings, idea_language, personal_settings

if TYPE_CHECKING:
    from macaron_cli.spec import AppSpec

MAX_MEMORIES = 8
# What the person said about measures, money and language shapes every app's defaults,
# whatever the idea's words: looked for on its own, beside the idea's memories.
PREFERENCE_QUERY = "prefer units measure cups ml ounces pounds miles currency money paid pesos yen won"
MAX_PREFERENCES = 4


@dataclass
class Brief:
    idea: str
    language: str
    accent: str
    app_settings: dict  # the app's units and currency (config/app.json), not macaron's config.Settings
    # The memories that went into the brief, as the gate cleared them (never a plain list).
    memories: Cleared = field(default_factory=lambda: privacy.nothing(privacy.app_folder()))
    advice: str | None = None  # 'medical' | 'financial' | None
    # What the model planned before the template was chosen (model_spec.py); None: the rules write them.
    spec: AppSpec | None = None
    title: str | None = None

    def __post_init__(self):
        if not isinstance(self.memories, Cleared):
            raise PrivacyViolation("a brief's memories must come through the privacy gate (privacy.release)")

    @property
    def memory_ids(self) -> list[str]:
        return self.memories.ids

    @property
    def destinations(self) -> tuple[Destination, ...]:
        return self.memories.destinations

    def text_for(self, destination: Destination) -> str:
        """The brief as it goes into a request to `destination` (PrivacyViolation when the
        memories were not cleared for it)."""
        self.memories.bound_for(destination)
        return self.markdown()

    def markdown(self) -> str:
        """The private brief the agents read (imported by the app's CLAUDE.md)."""
        lines = [
            "# Brief (private: never commit this file)",
            "",
            f"The person asked for: {self.idea}",
            "",
            f"- Language of every UI text: {self.language}",
            f"- Accent colour: {self.accent} "
            "(the `--macaron-accent` CSS variable; never edit static/macaron-tokens.css)",
            f"- Units: {self.app_settings['units']}; currency: {self.app_settings['currency']}; "
            "dates in the language's own format",
        ]
        if self.app_settings.get("volume_unit"):
            lines.append(f"- Volumes in {self.app_settings['volume_unit']}s (the person said so)")
        if self.advice:
            lines.append(
                f"- This app touches {self.advice} matters: keep the visible note "
                f'"{advice_note(self.language)}" on its main screen.'
            )
        if self.memories:
            lines += ["", "## What macaron knows about the person that bears on this app", ""]
            lines += [f"- {m.text}" for m in self.memories]
            lines += ["", "Ask the `memory_search` tool (mcp__macaron__memory_search) for more when you need it."]
        return "\n".join(lines) + "\n"


def find_memories(
    store, idea: str, destinations: tuple[Destination, ...], context: str = "", k: int = MAX_MEMORIES
) -> Cleared:
    """The memories most relevant to the idea (the store expands it from the person's goal),
    then to what this kind of app is about (the template's description), weighing less;
    only those the gate clears for every destination."""
    scored: dict[str, tuple[float, object]] = {}
    for query, weight in ((idea, 1.0), (context, 0.5)):
        # An idea and a template's description describe an app, not days of the person's.
        for hit in privacy.search(store, query, *destinations, k=k, dates=False):
            score = hit.score * weight
            if hit.memory.id not in scored or scored[hit.memory.id][0] < score:
                scored[hit.memory.id] = (score, hit.memory)
    ranked = sorted(scored.values(), key=lambda pair: pair[0], reverse=True)
    return privacy.release([m for _, m in ranked][:k], *destinations)


def build_brief(
    idea: str, store, settings: Settings, to: Destination | tuple[Destination, ...] | None, context: str = ""
) -> Brief:
    """The brief for a make whose brief goes to `to` (one destination, or every model that
    will read it; None: no model now, the app folder). `settings` are the person's (their
    language and colour); the app's own settings (units, currency) come from memories."""
    destinations = (to,) if isinstance(to, Destination) else tuple(to or (privacy.app_folder(),))
    memories = find_memories(store, idea, destinations, context)
    known = {m.id for m in memories}
    preferences = [
        m
        for m in find_memories(store, PREFERENCE_QUERY, destinations, k=MAX_PREFERENCES)
        if m.id not in known and bears_on_settings(m.text)
    ]
    if preferences:
        memories = privacy.release([*memories, *preferences], *destinations)
    language = idea_language(idea, settings.language, [m.text for m in memories])
    return Brief(
        idea=idea,
        language=language,
        accent=accent_colour(settings.color),
        app_settings=personal_settings(language, [m.text for m in memories]),
        memories=memories,
        advice=advice_kind(idea),
    )
