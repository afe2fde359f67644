"""The families an idea names by what the app is, not by what it records: a focus timer, a
study deck, a weekly meal plan (en, ja, ko, zh, tl). Each has its own template; the rules
here read the idea's slots for it (work and break minutes, the deck's two sides, the meals
planned), and fit.py names the family when no template of the app renders it.
"""

from __future__ import annotations

import re

from macaron_cli.maker.spec import Deck, Plan, Timer
from macaron_cli.memory.text import detect_language

# What names each family (fit.py names it in `missing` when the app does not render it).
TIMER = r"\bpomodoro|\btimer\b|ポモドーロ|タイマー|뽀모도로|타이머|番茄钟|计时器|番茄工作法"
DECK = (
    r"\bflash ?cards?|\bvocab|\breviewer cards?|\bquiz me|暗記カード|単語カード|単語帳|フラッシュカード|"
    r"암기\s*카드|단어장|단어\s*카드|플래시\s*카드|单词卡|背单词|记忆卡|闪卡"
)
MEAL_PLAN = (
    r"\bmeal ?plan|\bmeal prep|\bplan (?:\w+ )?(?:dinners|meals|lunches)|献立|식단표|식단\s*짜|菜单|一周.{0,4}菜"
)


def _found(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE)


# ── a timer: work and break minutes ──────────────────────────────────────────────────────
_MINUTES = re.compile(r"(\d{1,3})\s*(?:min(?:ute)?s?\b|分(?:钟|鐘)?|분|minuto)", re.IGNORECASE)
_BREAK = r"\bbreak|\brest\b|休憩|休み|휴식|쉬는|休息|\bpahinga"


def timer_of(text: str) -> Timer | None:
    """A pomodoro's minutes as said ("25 min work then 5 min break"): the first minutes are
    the work, the next the break; unsaid, the usual 25 and 5."""
    if not _found(TIMER, text):
        return None
    said = [int(m.group(1)) for m in _MINUTES.finditer(text) if 1 <= int(m.group(1)) <= 240]
    work, rest = (said + [25, 5][len(said) :])[:2] if said else (25, 5)
    if len(said) == 1 and _found(_BREAK + r"\s*\d", text):  # "break 10 min" alone: the break
        work, rest = 25, said[0]
    return Timer(work=work, rest=rest)


# ── a study deck: the two sides ──────────────────────────────────────────────────────────
_LANGUAGES = {
    "en": r"\benglish\b|\bingles\b|英語|英文|영어|英语|\beigo\b",
    "ja": r"\bjapanese\b|\bnihongo\b|\bhapon\b|日本語|일본어|日语|日文",
    "ko": r"\bkorean\b|韓国語|ハングル|한국어|한글|韩语|韩文",
    "zh": r"\bchinese\b|\bmandarin\b|中国語|중국어|中文|汉语",
    "es": r"\bspanish\b|\bespa[ñn]ol\b|スペイン語|스페인어|西班牙语",
    "fr": r"\bfrench\b|フランス語|프랑스어|法语",
    "de": r"\bgerman\b|ドイツ語|독일어|德语",
    "tl": r"\btagalog\b|\bfilipino\b|タガログ語|타갈로그어|他加禄语",
}
_QUESTION = r"\bquestions?\b|\btanong|質問|問題|질문|문제|问题"


def _said_at(pattern: str, text: str) -> int | None:
    found = _found(pattern, text)
    return found.start() if found else None


def deck_of(text: str) -> Deck | None:
    """Cards with two sides: the languages named, in the order said (one named: the other
    is the idea's own language), or question and answer; cards come back to review."""
    if not _found(DECK, text):
        return None
    named = sorted((at, code) for code, words in _LANGUAGES.items() if (at := _said_at(words, text)) is not None)
    sides = [code for _, code in named][:2]
    if len(sides) == 1 and detect_language(text) != sides[0]:
        sides.append(detect_language(text))
    if len(sides) != 2:
        sides = ["question", "answer"] if _found(_QUESTION, text) or not sides else []
    return Deck(sides=tuple(sides), review=True)


# ── a weekly meal plan: days × meals ─────────────────────────────────────────────────────
_MEALS = {
    "breakfast": r"\bbreakfasts?\b|朝(?:ごはん|ご飯|食)?|아침|早饭|早餐|\balmusal",
    "lunch": r"\blunch(?:es)?\b|昼(?:ごはん|ご飯|食)?|점심|午饭|午餐|\btanghalian",
    "dinner": r"\bdinners?\b|\bsuppers?\b|晩(?:ごはん|ご飯)?|夕(?:ごはん|ご飯|食)|저녁|晚饭|晚餐|\bhapunan",
}


def plan_of(text: str) -> Plan | None:
    """A week of meals planned ahead: the meals said, in a day's order (none said: all three)."""
    if not _found(MEAL_PLAN, text):
        return None
    meals = tuple(meal for meal, words in _MEALS.items() if _found(words, text))
    return Plan(meals=meals or ("breakfast", "lunch", "dinner"), days=7)
