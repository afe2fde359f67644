"""What a message is about: its likely domain.

One small multilingual table serves two uses: guessing a memory's domain when no model
is connected, and matching the person's interests to templates. (Widening a recall
query from the person's goal is the memory engine's job: memory/expansion.py.)
"""

from __future__ import annotations

import re

# domain → trigger stems in several languages
DOMAINS: dict[str, tuple[str, ...]] = {
    "food": (
        "eat",
        "food",
        "snack",
        "dinner",
        "lunch",
        "breakfast",
        "recipe",
        "cook",
        "restaurant",
        "meal",
        "allerg",
        "vegan",
        "vegetarian",
        "diet",
        "cafe",
        "coffee",
        "食べ",
        "料理",
        "ご飯",
        "レストラン",
        "음식",
        "요리",
        "식당",
        "吃",
        "饭",
        "餐",
    ),
    "health": (
        "sleep",
        "tired",
        "sick",
        "doctor",
        "medic",
        "pain",
        "health",
        "water",
        "hydrat",
        "病院",
        "健康",
        "睡眠",
        "건강",
        "병원",
        "수면",
        "健康",
    ),
    "fitness": (
        "run",
        "jog",
        "marathon",
        "gym",
        "workout",
        "exercise",
        "hike",
        "bike",
        "cycl",
        "swim",
        "yoga",
        "walk",
        "steps",
        "ラン",
        "走",
        "운동",
        "달리기",
        "자전거",
        "跑步",
    ),
    "travel": ("trip", "travel", "flight", "vacation", "holiday", "hotel", "passport", "visit", "旅行", "여행", "旅游"),
    "finance": (
        "money",
        "budget",
        "spend",
        "save",
        "saving",
        "expense",
        "rent",
        "salary",
        "invest",
        "お金",
        "予算",
        "돈",
        "예산",
        "钱",
    ),
    "family": (
        "mom",
        "mum",
        "dad",
        "mother",
        "father",
        "sister",
        "brother",
        "kid",
        "child",
        "son",
        "daughter",
        "partner",
        "wife",
        "husband",
        "birthday",
        "家族",
        "誕生日",
        "가족",
        "생일",
        "家人",
        "生日",
    ),
    "work": (
        "work",
        "job",
        "boss",
        "meeting",
        "deadline",
        "project",
        "office",
        "career",
        "仕事",
        "会議",
        "일",
        "회의",
        "工作",
    ),
    "hobby": (
        "read",
        "book",
        "film",
        "movie",
        "music",
        "guitar",
        "piano",
        "cello",
        "violin",
        "instrument",
        "sing",
        "danc",
        "paint",
        "draw",
        "garden",
        "plant",
        "game",
        "photo",
        "knit",
        "craft",
        "tinker",
        "code",
        "趣味",
        "本",
        "映画",
        "취미",
        "책",
        "영화",
        "花火",
    ),
    "events": ("festival", "concert", "party", "wedding", "fireworks", "花火大会", "祭り", "축제", "콘서트"),
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
