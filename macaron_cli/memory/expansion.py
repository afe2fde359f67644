"""Query expansion from the person's likely goal: "花火大会" → tickets, date, weather.

A memory that answers a goal often shares no word with it (planning a fireworks night
needs the weather and the ticket, not the word "fireworks"). This small multilingual
table maps goals to what usually matters for them; the expansion runs as a second,
lower-weighted query, so it can surface such memories but never outrank a direct match.
"""

from __future__ import annotations

import unicodedata

# goal words (any language)  →  what tends to matter for that goal
_GOALS: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (
        ("花火大会", "花火", "fireworks", "festival", "祭り", "concert", "コンサート", "live show"),
        ("ticket", "tickets", "チケット", "date", "日付", "weather", "天気", "rain", "雨"),
    ),
    (
        ("trip", "travel", "vacation", "holiday", "旅行", "旅", "여행", "旅游", "biyahe", "bakasyon"),
        ("flight", "hotel", "passport", "visa", "ホテル", "パスポート", "호텔", "酒店", "pasaporte"),
    ),
    (
        (
            "dinner",
            "lunch",
            "breakfast",
            "restaurant",
            "meal",
            "recipe",
            "cook",
            "snack",
            "snacks",
            "eat",
            "food",
            "ご飯",
            "夕食",
            "料理",
            "レストラン",
            "おやつ",
            "저녁",
            "식당",
            "간식",
            "晚饭",
            "餐厅",
            "零食",
            "hapunan",
            "kain",
            "pagkain",
            "meryenda",
        ),
        (
            "allergy",
            "allergic",
            "vegetarian",
            "vegan",
            "favourite",
            "favorite",
            "アレルギー",
            "알레르기",
            "过敏",
            "diet",
            "dislike",
            "苦手",
            "싫어",
        ),
    ),
    (
        (
            "birthday",
            "anniversary",
            "gift",
            "present",
            "誕生日",
            "プレゼント",
            "생일",
            "선물",
            "生日",
            "礼物",
            "kaarawan",
            "regalo",
        ),
        ("likes", "favorite", "favourite", "wants", "wish", "好き", "좋아", "喜欢", "gusto"),
    ),
    (
        (
            "workout",
            "exercise",
            "run",
            "running",
            "gym",
            "運動",
            "ジム",
            "ランニング",
            "운동",
            "跑步",
            "健身",
            "ehersisyo",
        ),
        ("injury", "knee", "back", "goal", "schedule", "怪我", "膝", "부상", "受伤"),
    ),
    (
        ("budget", "money", "spend", "save", "savings", "家計", "予算", "貯金", "예산", "预算", "pera", "ipon"),
        ("salary", "rent", "income", "expense", "給料", "家賃", "월급", "工资", "房租", "sweldo", "upa"),
    ),
    (
        ("sleep", "tired", "insomnia", "眠", "睡眠", "잠", "睡觉", "tulog"),
        ("caffeine", "coffee", "bedtime", "カフェイン", "コーヒー", "커피", "咖啡", "kape"),
    ),
]


def expand_query(query: str) -> list[str]:
    """Terms to add for the goals `query` mentions (none when it mentions none)."""
    text = unicodedata.normalize("NFKC", query).lower()
    words = set(text.split())
    extra: list[str] = []
    for goals, related in _GOALS:
        if any((g in words) if g.isascii() and " " not in g else (g in text) for g in goals):
            extra += [r for r in related if r.lower() not in text and r not in extra]
    return extra
