"""The families an idea names by what the app is, not by what it records: a focus timer, a
study deck, a weekly meal plan (en, ja, ko, zh, tl). Each has its own template; the rules
here read the idea's slots for it (work and break minutes, the deck's two sides, the meals
planned), and fit.py names the family when no template of the app renders it.
"""

from __future__ import annotations

import re

from macaron_cli import lang
from macaron_cli.reading.slots import Slots
from macaron_cli.reading.text import detect_language
from macaron_cli.spec import Deck, Plan, Timer


def named(family: str) -> str:
    """The words that name a family ("timer", "deck", "meal_plan"; fit.py names it in
    `missing` when the app does not render it)."""
    return lang.pattern(f"family.{family}")


def _found(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE)


# ── a timer: work and break minutes ──────────────────────────────────────────────────────


_IN_MINUTES = {"minute": 1, "hour": 60}
_LONGEST = 240  # minutes: a session or a break longer than this was not meant as one


def minutes_said(text: str, slots: Slots | None = None) -> tuple[int | None, int | None]:
    """The work and break minutes a sentence says, each None where it says none: the pair it
    was read to say, in its order ("50 on, 10 off", "作業25分→休憩5分": work, then the break);
    else the first minutes are the work, the next the break; minutes said alone are the
    break's when a break word leads to them ("make the break 10 minutes", "休憩は10分")."""
    pair = slots.pair if slots else ()
    if len(pair) == 2 and all(a.unit in _IN_MINUTES for a in pair):
        work, rest = (round(a.value * _IN_MINUTES[a.unit]) for a in pair)
        if 1 <= work <= _LONGEST and 1 <= rest <= _LONGEST:
            return work, rest
    minutes = re.finditer(rf"(\d{{1,3}})\s*(?:{lang.pattern('timer.minutes')})", text, re.IGNORECASE)
    said = [(m.start(), int(m.group(1))) for m in minutes if 1 <= int(m.group(1)) <= _LONGEST]
    if len(said) >= 2:
        return said[0][1], said[1][1]
    if not said:
        return None, None
    at, value = said[0]
    a_break = _beside_minutes("break", text, at) and not _beside_minutes("work", text, at)
    return (None, value) if a_break else (value, None)


def _beside_minutes(kind: str, text: str, at: int) -> bool:
    """Whether a work or break word stands beside the minutes said at `at`: before them ("break
    10 min", "휴식 10분") or right after, a small word between at most ("a 10 minute break",
    "10 minuto ang pahinga")."""
    words = lang.pattern(f"timer.{kind}")
    before = _found(rf"(?:{words})\D{{0,6}}$", text[:at])
    after = _found(rf"^\d+\s*(?:{lang.pattern('timer.minutes')})\W{{0,2}}(?:\w{{1,3}}\s+)?(?:{words})", text[at:])
    return bool(before or after)


def timer_of(text: str, slots: Slots | None = None) -> Timer | None:
    """A pomodoro's minutes as said (minutes_said); unsaid, the usual 25 and 5."""
    if not _found(named("timer"), text):
        return None
    work, rest = minutes_said(text, slots)
    default = Timer()
    return Timer(work=work or default.work, rest=rest or default.rest)


# ── a study deck: the two sides ──────────────────────────────────────────────────────────
def _said_at(pattern: str, text: str) -> int | None:
    found = _found(pattern, text)
    return found.start() if found else None


def deck_of(text: str) -> Deck | None:
    """Cards with two sides: the languages named, in the order said (one named: the other
    is the idea's own language), or question and answer; cards come back to review."""
    if not _found(named("deck"), text):
        return None
    languages = lang.LANGUAGE_NAMES
    said = sorted(
        (at, code) for code in languages if (at := _said_at(lang.pattern(f"language.{code}"), text)) is not None
    )
    sides = [code for _, code in said][:2]
    if len(sides) == 1 and detect_language(text) != sides[0]:
        sides.append(detect_language(text))
    if len(sides) != 2:
        sides = ["question", "answer"] if _found(lang.pattern("deck.question"), text) or not sides else []
    return Deck(sides=tuple(sides), review=True)


# ── a weekly meal plan: days × meals ─────────────────────────────────────────────────────
def plan_of(text: str) -> Plan | None:
    """A week of meals planned ahead: the meals said, in a day's order (none said: the plan's
    own three; a snack only where one is said)."""
    if not _found(named("meal_plan"), text):
        return None
    meals = tuple(meal for meal in lang.MEALS if _found(lang.pattern(f"meal.{meal}"), text))
    return Plan(meals=meals or Plan().meals, days=7)
