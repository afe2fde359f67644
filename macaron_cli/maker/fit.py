"""Fitting a template to the idea: the app's title, and its settings from the spec.

A template is a general app (a habit tracker, a converter); the person asked for one
thing (a weight log, a converter for cooking). The title comes from the idea, in its
language; the settings come from the app's spec (what it tracks), as the template's own
manifest says under "fit": which config key takes which part of the spec. Everything
here is plain config the template already reads (config/app.json): no code changes, so
an offline make fits the idea as well as the template can.
"""

from __future__ import annotations

import re
from typing import Any

from macaron_cli.maker.spec import AppSpec

# ── the title ────────────────────────────────────────────────────────────────────────────
# Requests around the idea, not part of it ("Can you make me an app to …", "…を作って").
_LEAD = re.compile(
    r"^(?:(?:please|hey|hi|ok(?:ay)?|so)[,!\s]+)*"
    r"(?:(?:can|could|would|will) you (?:please )?(?:make|build|create|set up|whip up|write)(?: me| us)?\s+|"
    r"(?:please )?(?:make|build|create|write)(?: me| us)?\s+|"
    r"i(?:'d| would)? (?:want|need|like)(?: to have)?\s+|"
    r"gawan mo (?:ako|kami) ng\s+|gumawa ka ng\s+|gusto ko(?:ng| ng)\s+(?:isang\s+)?|kailangan ko ng\s+(?:isang\s+)?|"
    r"帮我(?:做|写|建)?(?:一个|个)?|给我(?:做|写)?(?:一个|个)?|我想要(?:一个|个)?|我需要(?:一个|个)?|请(?:帮我)?(?:做|写)(?:一个|个)?)",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:(?:a|an|the|some|simple|little|small|tiny|my own|isang|ng)\s+)+", re.IGNORECASE)
_APP_WORD = re.compile(
    r"^(?:app|application|tool|web ?app)s?\s+(?:(?:to|that|which|for|para sa|para|na)\s+)?", re.IGNORECASE
)
_TRAIL = re.compile(
    r"(?:\s+(?:app|application|tool)|\s*(?:please|for me|po))+$|"
    r"(?:の)?アプリ(?:を)?(?:作って(?:ください|下さい|ほしい|くれる\?|くれ)?|つくって(?:ください)?|が欲しい|がほしい)$|"
    r"(?:를|을)?\s*만들어\s*(?:줘|주세요|줄래|줄 수 있어)?$|\s*앱(?:을|를)?\s*(?:만들어\s*(?:줘|주세요))?$|"
    r"(?:的)?(?:应用|应用程序|小程序|app)(?:吧|吗)?$",
    re.IGNORECASE,
)
MAX_TITLE = 40
# Words a title cut short must not end on ("How many glasses of lemonade did the").
_DANGLING = {
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "to",
    "for",
    "with",
    "my",
    "our",
    "in",
    "on",
    "at",
    "did",
    "do",
    "is",
    "are",
    "was",
    "that",
    "which",
    "who",
    "how",
    "what",
    "ang",
    "ng",
    "sa",
    "na",
    "ko",
    "mga",
}


def tidy_idea(text: str) -> str:
    """The idea itself from a request: "Can you make me an app to track my daily water
    intake?" → "track my daily water intake" (and the like in ja/ko/zh/tl)."""
    idea = text.strip().rstrip("?!.。？！ ")
    for _ in range(3):  # requests nest: "please, can you make me an app to …"
        before = idea
        idea = _LEAD.sub("", idea).strip()
        idea = _ARTICLE.sub("", idea).strip()
        idea = _APP_WORD.sub("", idea).strip()
        idea = _TRAIL.sub("", idea).strip().rstrip("?!.。？！ ")
        if idea == before:
            break
    return idea or text.strip()


def idea_title(idea: str) -> str:
    """The app's name from the idea, in the idea's own words and language."""
    first = re.split(r"(?<=[.!?。！？])\s*|\n", idea.strip())[0]
    title = tidy_idea(first)
    title = re.sub(r"^(?:to|that|which|for)\s+", "", title, flags=re.IGNORECASE)
    if len(title) > MAX_TITLE:
        cut = title[:MAX_TITLE]
        title = cut.rsplit(" ", 1)[0] if " " in cut[MAX_TITLE // 2 :] else cut
        words = title.split(" ")
        while len(words) > 2 and words[-1].casefold() in _DANGLING:
            words.pop()
        title = " ".join(words).rstrip(",;:-–— ")
    return title[:1].upper() + title[1:] if title else idea.strip()[:MAX_TITLE]


def generic_titles(template_manifest: dict, translated: dict[str, str]) -> set[str]:
    """The template's own names for itself (what an app fitted to an idea must not be called)."""
    names = {str(template_manifest.get("title") or "")} | set(translated.values())
    return {n.casefold() for n in names if n}


# ── the settings, from the spec ──────────────────────────────────────────────────────────
def fit_config(manifest: dict, spec: AppSpec, cfg: dict) -> dict:
    """The template's config/app.json fitted to the spec (a new dict), as its manifest's
    "fit" says: {config key: spec path}. A path is "shape" or "shape.field" ("measures",
    "conversions.family", "money.budget"); "shape.field@by" gives {by: field} per element
    ("conversions.units@family" → {"cooking": ["cup", "gram"]}). What the spec leaves
    empty leaves the template's default; records replace it; names lead it (a family
    the template does not render is left out)."""
    cfg = dict(cfg)
    data = spec.to_json()
    renders = {str(r) for r in manifest.get("renders") or []}
    for key, path in (manifest.get("fit") or {}).items():
        value = _at(data, str(path))
        shape, _, field = str(path).partition("@")[0].partition(".")
        if field == "family" and isinstance(value, list):  # a kind it cannot show is in `missing`, not a tab
            value = [v for v in value if f"{shape}.{v}" in renders]
        if value in (None, [], {}):
            continue
        current = cfg.get(key)
        if isinstance(value, list) and value and not isinstance(value[0], dict) and isinstance(current, list):
            value = value + [c for c in current if c not in value]  # the spec's first, then the rest
        cfg[key] = value
    return cfg


def _at(data: dict, path: str) -> Any:
    path, _, by = path.partition("@")
    shape, _, name = path.partition(".")
    value = data.get(shape)
    if not name:
        return value
    if isinstance(value, dict):
        return value.get(name)
    rows = [row for row in value or [] if isinstance(row, dict) and row.get(name) not in (None, [], "")]
    return {row[by]: row[name] for row in rows} if by else [row[name] for row in rows]
