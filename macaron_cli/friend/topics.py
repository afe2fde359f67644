"""What a message is about: its likely domain, and the words that widen a recall query.

One small multilingual table serves three uses: guessing a memory's domain when no model
is connected, expanding a query from the person's goal ("a snack for my hike" → food,
allergies, diet), and matching interests to templates.
"""

from __future__ import annotations

import re

# domain → (trigger stems in several languages, words added to a query that mentions one)
DOMAINS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "food": (
        ("eat", "food", "snack", "dinner", "lunch", "breakfast", "recipe", "cook", "restaurant", "meal",
         "allerg", "vegan", "vegetarian", "diet", "cafe", "coffee", "食べ", "料理", "ご飯", "レストラン",
         "음식", "요리", "식당", "吃", "饭", "餐"),
        ("food", "allergy", "allergic", "diet", "favourite", "restaurant", "vegetarian"),
    ),
    "health": (
        ("sleep", "tired", "sick", "doctor", "medic", "pain", "health", "water", "hydrat", "病院", "健康",
         "睡眠", "건강", "병원", "수면", "健康"),
        ("health", "doctor", "medication", "sleep", "allergy"),
    ),
    "fitness": (
        ("run", "jog", "marathon", "gym", "workout", "exercise", "hike", "bike", "cycl", "swim", "yoga",
         "walk", "steps", "ラン", "走", "운동", "달리기", "자전거", "跑步"),
        ("fitness", "running", "training", "race", "pace", "goal"),
    ),
    "travel": (
        ("trip", "travel", "flight", "vacation", "holiday", "hotel", "passport", "visit", "旅行", "여행", "旅游"),
        ("travel", "trip", "dates", "flight", "hotel", "passport"),
    ),
    "finance": (
        ("money", "budget", "spend", "save", "saving", "expense", "rent", "salary", "invest", "お金", "予算",
         "돈", "예산", "钱"),
        ("budget", "money", "savings", "expenses"),
    ),
    "family": (
        ("mom", "mum", "dad", "mother", "father", "sister", "brother", "kid", "child", "son", "daughter",
         "partner", "wife", "husband", "birthday", "家族", "誕生日", "가족", "생일", "家人", "生日"),
        ("family", "birthday", "gift"),
    ),
    "work": (
        ("work", "job", "boss", "meeting", "deadline", "project", "office", "career", "仕事", "会議", "일", "회의", "工作"),
        ("work", "job", "deadline", "project"),
    ),
    "hobby": (
        ("read", "book", "film", "movie", "music", "guitar", "piano", "cello", "violin", "instrument", "sing", "danc", "paint", "draw", "garden", "plant",
         "game", "photo", "knit", "craft", "tinker", "code", "趣味", "本", "映画", "취미", "책", "영화", "花火"),
        ("hobby", "favourite", "plans"),
    ),
    "events": (
        ("festival", "concert", "party", "wedding", "fireworks", "花火大会", "祭り", "축제", "콘서트"),
        ("tickets", "date", "weather", "plans"),
    ),
}

_WORD = re.compile(r"\w+", re.UNICODE)


def domains_of(text: str) -> list[str]:
    """Domains whose trigger stems occur in `text`, most mentioned first."""
    lowered = text.lower()
    counts = {}
    for domain, (triggers, _) in DOMAINS.items():
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


def expand_query(text: str) -> str:
    """The query plus words the person's goal implies, so related memories are found."""
    extra: list[str] = []
    for domain in domains_of(text):
        extra.extend(w for w in DOMAINS[domain][1] if w not in extra)
    return text if not extra else f"{text} {' '.join(extra)}"


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}
