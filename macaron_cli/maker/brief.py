"""The brief: the idea plus what macaron knows about the person that bears on it.

Memories are found with the memory engine (the idea, then the idea expanded from the
person's likely goal), filtered by where the brief will go: nothing `private` reaches a
cloud model, nothing `secret` reaches any model. The brief is written to the app's
git-ignored `.macaron/brief.md`, so memories never enter the app's git history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from macaron_cli.maker.advice import advice_kind, advice_note
from macaron_cli.maker.personal import accent_colour, idea_language, personal_settings
from macaron_cli.memory.privacy import allowed_levels

MAX_MEMORIES = 8

# A goal implies more than its words: "water tracker" wants to know about litres and
# cups, "budget" about pay day and currency. (trigger words → extra query words)
_EXPANSIONS = [
    (r"water|hydrat|drink|水|물|喝|tubig|inom", "water drink litre cups bottle 水 飲む 물 마시 喝水 tubig"),
    (r"mood|feel|diary|journal|気分|日記|기분|일기|心情|日记|talaarawan|pakiramdam", "mood feel stress sleep journal 気分 日記 기분 일기 心情 日记"),
    (r"food|meal|diet|eat|calor|食|식|饮食|pagkain|kain", "food eat diet allergy vegetarian meal 食事 アレルギー 음식 알레르기 过敏 饮食 pagkain"),
    (r"budget|expens|spend|money|家計|支出|お金|가계부|지출|돈|预算|支出|记账|gastos|pera|badyet", "money spend salary budget currency 家計 お金 돈 지출 钱 预算 pera gastos"),
    (r"habit|routine|習慣|습관|习惯|gawi", "habit routine goal morning 習慣 습관 习惯"),
    (r"exercis|workout|run|gym|fitness|運動|ジム|운동|运动|健身|ehersisyo", "exercise run gym workout walk bike 運動 운동 运动 ehersisyo"),
    (r"plan|schedul|calendar|予定|計画|일정|계획|计划|日程|iskedyul|plano", "schedule week work calendar plan 予定 일정 计划 iskedyul"),
    (r"sleep|睡眠|수면|tulog", "sleep bed night 睡眠 수면 tulog"),
    (r"study|learn|exam|勉強|공부|学习|aral", "study learn exam language 勉強 공부 学习 aral"),
]


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


def expanded_queries(idea: str) -> list[str]:
    text = idea.lower()
    return [extra for trigger, extra in _EXPANSIONS if re.search(trigger, text)]


def find_memories(store, idea: str, levels, k: int = MAX_MEMORIES) -> list:
    """The memories most relevant to the idea, the idea itself weighing most."""
    if store is None:
        return []
    scored: dict[str, tuple[float, object]] = {}
    queries = [(idea, 1.0)] + [(q, 0.6) for q in expanded_queries(idea)]
    for query, weight in queries:
        for hit in store.search(query, k=k, privacy=sorted(levels)):
            score = hit.score * weight
            if hit.memory.id not in scored or scored[hit.memory.id][0] < score:
                scored[hit.memory.id] = (score, hit.memory)
    ranked = sorted(scored.values(), key=lambda pair: pair[0], reverse=True)
    # search already applied the privacy prefilter; filter again so a store that ignores
    # it can never leak (the rule is the point, not the implementation).
    return [m for _, m in ranked if m.privacy in levels][:k]


def build_brief(idea: str, store, settings, endpoint_url: str | None) -> Brief:
    levels = memory_levels(endpoint_url, settings.trusted_endpoints)
    memories = find_memories(store, idea, levels)
    language = idea_language(idea, settings.language)
    return Brief(
        idea=idea, language=language, accent=accent_colour(settings.color),
        settings=personal_settings(language, [m.text for m in memories]),
        memories=memories, advice=advice_kind(idea),
    )
