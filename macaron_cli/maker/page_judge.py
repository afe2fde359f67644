"""The page is the judge: what a made or changed app SHOWS, against what was asked.

Verification reads the page once it has drawn (sandbox/open_check.py: its visible text and
its form fields). This module holds it against the request, on its own reading of what the
request asks, so that it catches the spec rules' mistakes instead of repeating them (it
never asks slots.py or spec_rules.py): every number with its unit or currency, every date,
every period, every other word that names something (a thing, a person), each in the
request's language (lang/: its small words, the words that ask for an app and name
nothing, units, currencies, months). What the page does not show is `missing`; a change is
what the page shows differently after it (`difference`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from macaron_cli import lang

# A unit asked is shown when the page shows it or one of its kin (2 liters shown as 2,000 mL).
_KIN = (
    ("milliliter", "liter", "cups", "glasses"),
    ("kilogram", "pound"),
    ("kilometer", "mile", "centimeter", "inch"),
    ("hour", "minute", "second"),
)
# A currency's sign on a page (beside its code and its words in lang/): yen and yuan share theirs.
_MARKS = {"JPY": "¥", "CNY": "¥", "KRW": "₩", "PHP": "₱", "EUR": "€", "USD": "$"}
# A number shown in another unit than said (2 liters as 2000 mL, half an hour as 30 minutes).
_FACTORS = (1, 1000, 1 / 1000, 60, 1 / 60)
# Digits with their separators (10,000 · 1 000 · 2.5), ten thousand after them (1万, 4만), and
# what a lone digit must not touch to be a number of its own.
_NUMBER = re.compile(r"(?<![\d.,])(?<![A-Za-z])(\d{1,3}(?:[,\u2009\u202f ]\d{3})+|\d+(?:\.\d+)?)(?![\d])")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7a3]+")
_HAN = r"[\u4e00-\u9fff]"
MIN_LATIN = 3  # shorter Latin words name nothing on their own (to, of, ok)


@dataclass(frozen=True)
class Asked:
    """One thing a request asks the page to show, as it was said ("2 liters", "mom")."""

    said: str
    kind: str  # number | date | period | unit (named alone) | app (the kind of app) | language | word
    value: float | None = None
    # a number's unit (lang.UNITS) or currency (lang.CURRENCIES), a period's name (lang.PERIODS),
    # the kind of app named (lang.APP_KINDS), a language (lang.LANGUAGE_NAMES), a word as it is
    # looked for (its stem)
    unit: str | None = None
    day: tuple[int, int] | None = None  # a date's (month, day)


# ── what the request asks ─────────────────────────────────────────────────────────────────
def asked(request: str) -> list[Asked]:
    """Everything the request names that a page can show: numbers with their units, dates,
    the kind of app, periods, and its other words (small words and the words that only ask for
    an app left out)."""
    text = _plain(request)
    dates, text = _dates(text)
    numbers, text = _numbers(text)
    kinds, text = _named(text, lang.APP_KINDS, "app", "judge.kind.{}")
    languages, text = _named(text, lang.LANGUAGE_NAMES, "language", "language.{}")
    # a period as a request says it or as a page does ("a month", "한 달")
    periods, text = _named(text, lang.PERIODS, "period", "period.{}", "judge.this.{}")
    return dates + numbers + kinds + languages + periods + _words(text)


def _named(text: str, names: tuple[str, ...], kind: str, *concepts: str) -> tuple[list[Asked], str]:
    """Each different word said of each name (the words of `concepts`, formatted with it),
    all of them taken out of the text."""
    out: dict[str, Asked] = {}
    for name in names:
        said = _all(tuple(concept.format(name) for concept in concepts))
        for found in re.finditer(said, text, re.I):
            out.setdefault(found.group(0).strip().casefold(), Asked(found.group(0).strip(), kind, unit=name))
        text = re.sub(said, " ", text, flags=re.I)
    return list(out.values()), text


def _plain(text: str) -> str:
    """Widths and compatibility forms folded (１０ → 10, ｋｇ → kg)."""
    return unicodedata.normalize("NFKC", text)


def _value(said: str) -> float:
    return float(re.sub(r"[,\u2009\u202f ]", "", said))


def _numbers(text: str) -> tuple[list[Asked], str]:
    """The numbers said, each with the unit or currency said right after (or a currency's
    mark before: $5), taken out of the text with them."""
    out = []
    for m in reversed(list(_NUMBER.finditer(text))):
        value, end = _value(m.group(1)), m.end()
        ten_thousand = re.match(rf"\s?(?:{lang.pattern('amount.ten_thousand')})", text[end:])
        if ten_thousand:
            value, end = value * 10000, end + ten_thousand.end()
        unit, unit_end = _unit_after(text, m.end())  # 5万円: the unit may take the ten thousand in
        if unit is None:
            unit, unit_end = _unit_after(text, end)
        start = m.start()
        if unit is None:
            mark = re.search(rf"(?:{_all(_CURRENCIES)})\s?$", text[max(0, start - 4) : start], re.I)
            unit = _currency_at(mark.group(0)) if mark else None
            start -= len(mark.group(0)) if mark else 0
        end = max(end, unit_end)
        out.append(Asked(text[start:end].strip(), "number", value, unit))
        text = text[:start] + " " + text[end:]
    in_words, text = _ten_thousands(text)
    return out[::-1] + in_words, text


def _ten_thousands(text: str) -> tuple[list[Asked], str]:
    """Ten thousands said in words before a unit (一万步, 만보): numbers as digits are."""
    out = []
    counts = _all(tuple(f"count.{n}" for n in range(1, 10)))
    said = rf"(?<![\d])({counts})?(?:{lang.pattern('amount.ten_thousand')})"
    for m in reversed(list(re.finditer(said, text))):
        unit, end = _unit_after(text, m.end())
        if unit is None:
            continue
        times = next((n for n in range(1, 10) if m.group(1) and re.fullmatch(_all((f"count.{n}",)), m.group(1))), 1)
        out.append(Asked(text[m.start() : end].strip(), "number", times * 10000.0, unit))
        text = text[: m.start()] + " " + text[end:]
    return out[::-1], text


_UNITS = tuple(f"unit.{unit}" for unit in lang.UNITS)
_CURRENCIES = tuple(f"currency.{code}" for code in lang.CURRENCIES)


def _unit_after(text: str, at: int) -> tuple[str | None, int]:
    """The unit or currency said right after position `at` (a space between at most), and where it ends."""
    head = text[max(0, at - 1) : at + 16]  # a unit's pattern may look back at the digit
    for name in (*lang.UNITS, *lang.CURRENCIES):
        concept = f"unit.{name}" if name in lang.UNITS else f"currency.{name}"
        m = re.match(rf"(.\s?)(?:{_all((concept,))})", head, re.I)
        if m and not _starts_a_word(head, m):
            return name, at - 1 + m.end()
    return None, at


def _starts_a_word(head: str, m: re.Match[str]) -> bool:
    """A Han unit after a space that runs on into more Han is a word's first character
    ("3000 分类": categories), not a unit (25分 is)."""
    spaced = bool(re.search(r"\s", head[: m.end()].lstrip(head[:1])))
    return spaced and bool(re.match(_HAN, head[m.end() - 1 : m.end()])) and bool(re.match(_HAN, head[m.end() :]))


def _currency_at(text: str) -> str | None:
    for code in lang.CURRENCIES:
        if re.search(_all((f"currency.{code}",)), text, re.I):
            return code
    return None


@cache
def _all(concepts: tuple[str, ...]) -> str:
    """The concepts' words in every language, one alternation (never empty)."""
    return "|".join(f"(?:{lang.pattern(c)})" for c in concepts if lang.pattern(c)) or r"(?!x)x"


@cache
def _month_numbers() -> list[tuple[int, str]]:
    return [(n, lang.pattern(f"month.{month}")) for n, month in enumerate(lang.MONTHS, 1)]


def _dates(text: str) -> tuple[list[Asked], str]:
    """Dates said by month and day ("May 16", "16 May", "5月16日", "5/16", "2027-05-16")."""
    out = []
    for m in reversed(list(_date_spans(text))):
        out.append(Asked(m[2].strip(), "date", day=m[3]))
        text = text[: m[0]] + " " + text[m[1] :]
    return out[::-1], text


def _date_spans(text: str) -> list[tuple[int, int, str, tuple[int, int]]]:
    """(start, end, said, (month, day)) of each date in `text`, in order."""
    found: list[tuple[int, int, str, tuple[int, int]]] = []
    day_mark, month_mark = lang.pattern("date.day"), lang.pattern("date.month")
    year_mark = lang.pattern("date.year")
    shapes = [
        (rf"(?<!\d)(?:\d{{4}}\s?(?:{year_mark}))?\s?(\d{{1,2}})\s?(?:{month_mark})\s?(\d{{1,2}})\s?(?:{day_mark})?", 1),
        (r"(?<!\d)\d{4}-(\d{1,2})-(\d{1,2})(?!\d)", 1),
        (r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])", 1),
    ]
    for shape, _ in shapes:
        for m in re.finditer(shape, text):
            month, day = int(m.group(1)), int(m.group(2))
            if 1 <= month <= 12 and 1 <= day <= 31:
                found.append((m.start(), m.end(), m.group(0), (month, day)))
    for month, names in _month_numbers():
        if not names:
            continue
        for m in re.finditer(rf"(?<![\w])(?:{names})\.?\s?(\d{{1,2}})(?!\d)|(?<!\d)(\d{{1,2}})\s?(?:{names})\b", text):
            day = int(m.group(1) or m.group(2))
            if 1 <= day <= 31:
                found.append((m.start(), m.end(), m.group(0), (month, day)))
    found.sort()
    kept: list[tuple[int, int, str, tuple[int, int]]] = []
    for span in found:  # overlapping readings: the first, longest
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


@cache
def _filler() -> re.Pattern[str]:
    """Words that ask for an app or say how, naming nothing a page shows (lang's judge.filler
    and small_words), whole: a word of a Latin or Hangul script, a run of CJK where it stands."""
    said = "|".join(f"(?:{p})" for p in (lang.pattern("judge.filler"), lang.pattern("small_words")) if p)
    return re.compile(rf"^(?:{said})$", re.IGNORECASE)


@cache
def _cjk_filler() -> re.Pattern[str]:
    return re.compile(lang.pattern("judge.filler_glued"))


def _words(text: str) -> list[Asked]:
    out: list[Asked] = []
    kana = bool(re.search(r"[\u3040-\u30ff]", text))  # Japanese: a character between particles is a word
    # Japanese and Chinese run on without spaces: their filler and their kana cut the runs.
    text = _cjk_filler().sub(" ", text)
    if kana and lang.pattern("judge.noun_after"):  # a verb's stem before its ending names nothing (忘れ)
        text = re.sub(rf"(?<!{_HAN})({_HAN})(?=[\u3040-\u309f])(?!{lang.pattern('judge.noun_after')})", " ", text)
    text = re.sub(r"[\u3040-\u309f]+", " ", text)  # hiragana: particles and endings
    for token in re.split(r"[\s,.;:!?()\[\]{}\"“”‘’、。，！？：；「」『』（）・/&+~-]+", text):
        word = _stem(token)
        if not word or _filler().match(token) or _filler().match(word) or re.fullmatch(r"[\d\W_]+", word):
            continue
        unit = _unit_named(token)
        if unit:  # a unit or a currency named alone ("dollars to pesos"): the page shows it or not
            out.append(Asked(token, "unit", unit=unit))
            continue
        if re.fullmatch(r"[A-Za-z'-]+", word) and len(word) < MIN_LATIN:
            continue
        if re.fullmatch(r"[\u4e00-\u9fff]", word) and not kana:  # Chinese: one character cut out of a run
            continue
        out.append(Asked(token, "word", unit=word))
    unique: dict[str, Asked] = {}
    for a in out:
        unique.setdefault((a.unit or "").casefold(), a)
    return list(unique.values())


def _unit_named(token: str) -> str | None:
    """The unit or currency a word names, whole ("liters", "piso", "리터"), or None."""
    for name in (*lang.UNITS, *lang.CURRENCIES):
        concept = f"unit.{name}" if name in lang.UNITS else f"currency.{name}"
        if re.fullmatch(rf"(?:{_all((concept,))})", token, re.IGNORECASE):
            return name
    return None


@cache
def _particles() -> str:
    return lang.pattern("particles")


def _stem(token: str) -> str:
    """What a word is looked for as: without a Korean particle glued on, an English plural or
    possessive; its letters as they are."""
    token = token.strip("'-_")
    if _HANGUL_WORD.fullmatch(token) and len(token) > 1 and _particles():
        token = re.sub(rf"(?:{_particles()})$", "", token) or token
    if re.fullmatch(r"[A-Za-z'-]+", token):
        stem = re.sub(r"(?:'s|ies|es|s)$", lambda m: "y" if m.group(0) == "ies" else "", token, flags=re.I)
        token = stem if len(stem) >= MIN_LATIN else token  # gas is no plural of "ga"
    return token


# ── what the page shows ───────────────────────────────────────────────────────────────────
def page_lines(page: dict | None) -> list[str]:
    """The page as lines a person reads: its text, then each field's label, placeholder,
    options (a field's value is what a form holds, not what the app keeps)."""
    if not page:
        return []
    lines = [line.strip() for line in str(page.get("text") or "").splitlines() if line.strip()]
    for field in page.get("fields") or []:
        lines += [str(field.get(k) or "").strip() for k in ("label", "placeholder")]
        lines += [str(o).strip() for o in field.get("options") or []]
    return [line for line in lines if line]


def shown_text(page: dict | None, title: str = "") -> str:
    """The page's text and fields (values too), folded (width, case), without the app's name:
    a name that echoes the request shows nothing of what was asked."""
    if not page:
        return ""
    values = [str(f.get("value") or "") for f in page.get("fields") or []]
    text = _plain("\n".join([*page_lines(page), *values]))
    if title.strip():
        text = text.replace(_plain(title.strip()), " ")
    return text


def _page_numbers(text: str) -> set[float]:
    out = set()
    for m in _NUMBER.finditer(text):
        value = _value(m.group(1))
        out.add(value)
        if re.match(rf"\s?(?:{lang.pattern('amount.ten_thousand')})", text[m.end() : m.end() + 3]):
            out.add(value * 10000)
    return out


def _unit_shown(unit: str, text: str) -> bool:
    if unit in lang.CURRENCIES:
        mark = re.escape(_MARKS.get(unit, unit))
        return bool(re.search(rf"{mark}|{unit}|{_all((f'currency.{unit}',))}", text, re.I))
    kin = next((group for group in _KIN if unit in group), (unit,))
    return bool(re.search(_all(tuple(f"unit.{u}" for u in kin)), text, re.I))


def _word_shown(word: str, text: str) -> bool:
    if re.fullmatch(r"[A-Za-z'-]+", word):
        return bool(re.search(rf"(?<![a-z]){re.escape(word.casefold())}", text.casefold()))
    if re.fullmatch(rf"{_HAN}{{3,}}|{_HANGUL_WORD.pattern[:-1]}{{3,}}", word) and word[:2] in text:
        return True  # a compound shown by its first word (水分補給: 水分, 교통비: 교통)
    if re.fullmatch(rf"{_HAN}{{2,}}", word):  # a run said without spaces, shown by its characters (朝昼晩: 朝ごはん…)
        return all(char in text for char in word)
    return word.casefold() in text.casefold()


def _shown(thing: Asked, text: str, numbers: set[float], days: set[tuple[int, int]], template: str) -> bool:
    if thing.kind == "date":
        return thing.day in days
    if thing.kind == "period":
        return bool(re.search(_all((f"period.{thing.unit}", f"judge.this.{thing.unit}")), text, re.I))
    if thing.kind == "unit":
        return _unit_shown(thing.unit or "", text)
    if thing.kind == "language":  # by any of its names (英文 shown as 英语, English as 英語)
        return bool(re.search(_all((f"language.{thing.unit}",)), text, re.I))
    if thing.kind == "app":  # a budget is met by the budget template chosen, or said on the page
        return thing.unit == template or _word_shown(thing.said, text)
    if thing.kind == "number":
        assert thing.value is not None
        value = thing.value
        if not any(abs(value * f - n) < 1e-6 * max(1.0, n) for f in _FACTORS for n in numbers):
            return False
        return thing.unit is None or _unit_shown(thing.unit, text)
    return _word_shown(thing.unit or thing.said, text)


def missing(request: str, page: dict | None, title: str = "", template: str = "") -> list[str]:
    """What the request asks that the page does not show, as it was said (in its order);
    `template`: the kind of app made (lang.APP_KINDS), which meets the kind of app asked."""
    text = shown_text(page, title)
    numbers = _page_numbers(text)
    days = {span[3] for span in _date_spans(text)}
    return [thing.said for thing in asked(request) if not _shown(thing, text, numbers, days, template)]


def said_missing(language: str, things: list[str]) -> str:
    """One line, in the person's language: what the page does not show."""
    return lang.line("page.missing", language).format(missing=lang.line("page.list_join", language).join(things))


# ── what a change shows ───────────────────────────────────────────────────────────────────
def difference(before: dict | None, after: dict | None) -> list[str]:
    """What the page shows after a change that it did not before ("+ …") and no longer
    shows ("− …"), line by line; none: the change shows nothing."""
    old, new = page_lines(before), page_lines(after)
    gained = [f"+ {line}" for line in new if line not in old]
    lost = [f"− {line}" for line in old if line not in new]
    return list(dict.fromkeys(gained + lost))
