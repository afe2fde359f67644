"""Fitting a template to the idea: the app's title, its first screen and its defaults.

A template is a general app (a habit tracker, a converter); the person asked for one
thing (a water tracker, a converter for cooking). The title comes from the idea, in its
language; the first screen shows what the idea names (only water; the cooking tab first);
money defaults have the size of the person's currency, units follow what they told macaron.
Everything here is plain config the template already reads (config/app.json): no code
changes, so an offline make fits the idea as well as the template can.
"""

from __future__ import annotations

import re

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


# ── what the idea names ──────────────────────────────────────────────────────────────────
def _named(idea: str, patterns: dict[str, str]) -> list[str]:
    """The keys whose pattern occurs in the idea, in the order they occur."""
    text = idea.casefold()
    found = []
    for key, pattern in patterns.items():
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            found.append((match.start(), key))
    return [key for _, key in sorted(found)]


# Habit → words that name it (en, ja, ko, zh, tl). Latin words match at a word start.
HABIT_WORDS = {
    "water": r"\bwater|\bdrink|\bhydrat|水分|飲み水|水を飲|お水|물\s*마시|물을|수분|喝水|饮水|喝多少水|\btubig|\binom",
    "steps": r"\bsteps?\b|\bwalk|歩数|歩いた|散歩|걸음|만보|걷기|步数|走路|散步|\bhakbang|\blakad",
    "medication": (
        r"\bmedic|\bpills?\b|\btablets?\b|\bvitamins?|服薬|薬を|お薬|약\s*복용|"
        r"약을|복약|영양제|吃药|服药|维生素|\bgamot|bitamina"
    ),
    "sleep": r"\bsleep|\bslept|\bbedtime|睡眠|寝た|眠り|수면|잠을|잠\s|睡觉|睡眠|\btulog",
    "exercise": r"\bexercis|\bworkout|\bgym\b|\btraining|運動|筋トレ|트레이닝|운동|运动|锻炼|健身|\behersisyo",
    "reading": r"\bread(?:ing)?\b|\bbooks?\b|読書|本を読|독서|책\s*읽|阅读|读书|看书|\bpagbasa|\bbasa\b",
    "meditation": r"\bmeditat|\bmindful|瞑想|명상|冥想|打坐|\bmeditasyon",
    "vegetables": r"\bvegetables?|\bveggies?|野菜|채소|야채|蔬菜|吃菜|\bgulay",
}
GENERIC_HABITS = r"\bhabits?\b|\broutines?\b|習慣|습관|习惯|打卡|\bgawi\b|\bugali\b"
_HABIT_DEFAULTS = {
    "water": {"icon": "💧", "unit": "milliliter", "goal": 2000, "step": 250},
    "steps": {"icon": "👟", "unit": "steps", "goal": 8000, "step": 1000},
    "medication": {"icon": "💊", "unit": "times", "goal": 1, "step": 1},
    "sleep": {"icon": "😴", "unit": "hour", "goal": 8, "step": 1},
    "exercise": {"icon": "🏃", "unit": "minute", "goal": 30, "step": 10},
    "reading": {"icon": "📖", "unit": "pages", "goal": 20, "step": 5},
    "meditation": {"icon": "🧘", "unit": "minute", "goal": 10, "step": 5},
    "vegetables": {"icon": "🥦", "unit": "servings", "goal": 5, "step": 1},
}

# Converter category → words that name it.
CONVERTER_WORDS = {
    "cooking": r"\bcook|\bbak(?:e|ing)\b|\brecipes?\b|\bkitchen|\bcups?\b|\btablespoons?|\bteaspoons?|\btbsp|\btsp|"
    r"料理|レシピ|お菓子|製菓|大さじ|小さじ|計量|요리|레시피|베이킹|계량|烹饪|做饭|厨房|烘焙|食谱|量杯|"
    r"\bluto\b|\bpagluluto|\bresip|\bkutsara|\btasa\b",
    "temperature": (
        r"\btemperature|\bcelsius|\bfahrenheit|°[cf]\b|温度|気温|体温|"
        r"온도|기온|체온|气温|温度|摄氏|华氏|\btemperatura"
    ),
    "area": (
        r"\barea\b|\bsquare (?:feet|foot|met)|\btsubo|\bpyeong|\bacres?|\bhectares?|"
        r"面積|坪|넓이|평수|면적|面积|平方|\blawak"
    ),
    "length": (
        r"\blength|\bdistance|\bkm\b|\bmiles?\b|\binch|\bfeet|\bfoot\b|長さ|"
        r"距離|길이|거리|长度|距离|公里|英里|\bhaba\b|\blayo\b"
    ),
    "weight": (
        r"\bweights?\b|\bkg\b|\bkilo|\bpounds?\b|\blbs?\b|\bounces?\b|重さ|"
        r"体重|무게|체중|重量|体重|公斤|\bbigat|\btimbang"
    ),
    "volume": r"\bvolume|\blit(?:er|re)s?\b|\bgallons?|容量|体積|부피|용량|容积|体积|\bdami ng",
}
# Opening pair of the cooking tab: the idea's measures, then what they weigh as water.
_COOKING_PAIR = {"metric": ["cup", "gram"], "imperial": ["cup", "tablespoon"]}

DIARY_FOOD = (
    r"\bfood\b|\bmeals?\b|\bate\b|\beat(?:ing)?\b|\bdiet|食事|ごはん|ご飯|"
    r"食べた|음식|식사|먹은|饮食|吃了|三餐|\bpagkain|\bkinain"
)

# A monthly budget of the same weight in each currency (round figures a person would set).
MONTHLY_BUDGET = {
    "USD": 1500,
    "EUR": 1500,
    "GBP": 1200,
    "JPY": 200_000,
    "KRW": 2_000_000,
    "CNY": 10_000,
    "PHP": 50_000,
    "TWD": 40_000,
    "HKD": 12_000,
    "INR": 50_000,
}


def fit_config(template_name: str, idea: str, settings: dict, cfg: dict) -> dict:
    """The template's config/app.json fitted to the idea and the person (a new dict)."""
    cfg = dict(cfg)
    fitter = _FITTERS.get(template_name)
    if fitter:
        fitter(idea, settings, cfg)
    return cfg


def _water(settings: dict) -> dict:
    if settings.get("volume_unit") == "cup":
        return {"icon": "💧", "unit": "cups", "goal": 8, "step": 1}
    return dict(_HABIT_DEFAULTS["water"])


def _fit_habits(idea: str, settings: dict, cfg: dict) -> None:
    named = _named(idea, HABIT_WORDS)
    current = {h.get("key"): h for h in cfg.get("habits") or [] if isinstance(h, dict)}
    if named:
        habits = [{"key": k, "label": "", **(current.get(k) or _HABIT_DEFAULTS[k])} for k in named]
    elif re.search(GENERIC_HABITS, idea, re.IGNORECASE):
        habits = [dict(h) for h in cfg.get("habits") or []]  # "my daily habits": the template's own set
    else:
        # One thing to track that the template has no name for: the idea names it.
        habits = [{"key": "habit", "label": idea_title(idea), "icon": "⭐", "unit": "times", "goal": 1, "step": 1}]
    for habit in habits:
        if habit["key"] == "water":
            habit.update(_water(settings))
    cfg["habits"] = habits


def _fit_converter(idea: str, settings: dict, cfg: dict) -> None:
    named = _named(idea, CONVERTER_WORDS)
    categories = [c for c in cfg.get("categories") or [] if c not in named]
    cfg["categories"] = named + categories
    pairs = dict(cfg.get("pairs") or {})
    if "cooking" in named:
        pairs["cooking"] = _COOKING_PAIR.get(settings.get("units", "metric"), _COOKING_PAIR["metric"])
    if settings.get("volume_unit") == "cup":
        pairs["volume"] = ["cup", "milliliter"]
    if pairs:
        cfg["pairs"] = pairs


def _fit_budget(idea: str, settings: dict, cfg: dict) -> None:
    currency = settings.get("currency") or cfg.get("currency") or "USD"
    cfg["monthly_budget"] = MONTHLY_BUDGET.get(currency, cfg.get("monthly_budget", 1500))


def _fit_diary(idea: str, settings: dict, cfg: dict) -> None:
    if re.search(DIARY_FOOD, idea, re.IGNORECASE):
        cfg["kind"] = "food"


_FITTERS = {"habit-tracker": _fit_habits, "converter": _fit_converter, "budget": _fit_budget, "diary": _fit_diary}
