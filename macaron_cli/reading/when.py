"""When a question is about: dates as people write them, in en/ja/ko/zh/tl, resolved to days.

"On May 1st", "5月1号", "5월 1일", "Mayo 1", "the 20th", "last Tuesday", "先週の金曜",
"지난주 화요일", "上周二", "noong nakaraang Martes", "yesterday", "3 days ago", "last week":
each becomes a span of days, resolved against the moment the question was asked (`now`, in
its own time zone). Retrieval (memory/retrieval.py) searches within those days too and
favours the memories dated in them (by `event_at`, else `created_at`, as the date is
written there).

Dates in numbers ("10.01.2024", "2024/1/10", "1/10", "10-01-24") are read in the order of
the question's language: year first always comes with month then day; Japanese, Korean,
Chinese and Tagalog write the month before the day; English is written both ways (1/10 is
10 January in London, 1 October in Manila's English as in New York), so where both
readings are days, both are searched, the one nearer to `now` first.

A date without a year is the latest one not after `now`; a weekday alone is the latest such
day up to today; "last <weekday>" (先週の, 지난주, 上周, noong nakaraang) is that day of the
week before this one (weeks start on Monday).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from macaron_cli import lang
from macaron_cli.reading.text import day_words, detect_language, month_words


@dataclass(frozen=True)
class Span:
    """Days from `start` up to, not including, `end`; `said` is how the question put it."""

    start: date
    end: date
    said: str

    def holds(self, iso: str | None) -> bool:
        return iso is not None and self.start.isoformat() <= iso[:10] < self.end.isoformat()

    def in_words(self) -> str:
        """The span as the index writes days ('1 May', 'May' for the month), with the year
        where it was said; a span of other days ('last week') has no words."""
        if self.end - self.start == timedelta(days=1):
            words = day_words(self.start)
        elif self.start.day == self.end.day == 1 and (self.end - self.start).days <= 31:  # a month
            words = month_words(self.start)
        else:
            return ""
        year = str(self.start.year)
        return f"{words} {year}" if year in self.said else words


@dataclass(frozen=True)
class When:
    spans: tuple[Span, ...]
    rest: str  # the question without its time expressions

    def holds(self, iso: str | None) -> bool:
        return any(span.holds(iso) for span in self.spans)

    def in_words(self) -> str:
        """The question for a search by words: each day it names written as the index writes
        the days memories were made ("5월 1일" → "1 May"), the rest as asked. Written as
        asked, a date's parts match any text with a 1, 5월 or 일 in it."""
        return " ".join([self.rest, *(span.in_words() for span in self.spans)])

    def where(self) -> str:
        """A LanceDB filter for memories dated in any span (ISO strings compare as dates)."""
        ranges = " OR ".join(
            f"({column} >= '{span.start.isoformat()}' AND {column} < '{span.end.isoformat()}')"
            for span in self.spans
            for column in ("event_at", "created_at")
        )
        return f"({ranges})"


# The words are lang's: month.<name>, weekday.<name>, count.<n>, when.<day or span>, and the
# words a date is said with, date.<part> (on, the, 1st, of, ika-, ng, 年, 월, days ago); the
# grammar is here.


def _names(concept: str, code: str) -> list[str]:
    return [name for name in lang.alternatives(lang.words(concept, code)) if name]


def _numbered(concepts: Iterable[tuple[int, str]]) -> dict[str, int]:
    """Every language's names of each (number, concept), in lower case → its number."""
    return {name.lower(): n for n, concept in concepts for code in lang.languages() for name in _names(concept, code)}


_MONTHS = [f"month.{name}" for name in lang.MONTHS]
_MONTH_NUMBER = _numbered(enumerate(_MONTHS, 1))
_MONTH_NUMBER.update({name.lower()[:3]: n for n, month in enumerate(_MONTHS, 1) for name in _names(month, "en")})
_WEEKDAY = _numbered(enumerate(f"weekday.{day}" for day in lang.WEEKDAYS))  # Monday is 0, as date.weekday()
_NUMBERS = _numbered((n, f"count.{n}") for n in lang.COUNTS)
_DIGITS = {name: n for name, n in _NUMBERS.items() if n < 10}


def _month_names(code: str) -> str:
    return "|".join(name for month in _MONTHS for name in _names(month, code))


_EN_MONTH = rf"(?:{_month_names('en')})\.?"
_TL_MONTH = rf"(?:{_month_names('tl')})"
# a day or month in digits or in CJK numerals (十二, 二十一)
_CJK_NUMERALS = "".join(name for name, n in sorted(_NUMBERS.items(), key=lambda kv: kv[1]) if not name.isascii())
_NUM = rf"(\d{{1,2}}|[{_CJK_NUMERALS}]{{1,3}})"
# Languages that mark a date's parts after their numbers (5月1日, 5월 1일): those that count
# in numerals of their own (ja, zh: 五月二十号) and those that write digits only (ko).
_NUMERALS = tuple(
    code
    for code in lang.languages()
    if any(not name.isascii() for n in lang.COUNTS for name in _names(f"count.{n}", code))
)
_DIGITS_ONLY = tuple(code for code in lang.languages() if lang.words("date.month", code) and code not in _NUMERALS)
# ten in those numerals (二十一: tens, ten, ones)
_TENS = tuple(name for code in _NUMERALS for name in _names("count.10", code) if len(name) == 1)
# Each group of them with how its numbers are read.
_MARKED = ((_NUMERALS, _NUM), (_DIGITS_ONLY, r"(\d{1,2})"))


def _said(concept: str, codes: Iterable[str]) -> str:
    """The words of `concept` in the languages `codes`, one alternation, each word once."""
    return "|".join(dict.fromkeys(word for code in codes for word in _names(concept, code)))


def _en(concept: str) -> str:
    return lang.words(concept, "en")


def _tl(concept: str) -> str:
    return lang.words(concept, "tl")


def _number(text: str) -> int:
    """'12', '十二', '二十一', 'two' → the number."""
    if text.isdigit():
        return int(text)
    if text.lower() in _NUMBERS:
        return _NUMBERS[text.lower()]
    if ten := next((ten for ten in _TENS if ten in text), None):  # 二十一: tens, ten, ones
        tens, _, ones = text.partition(ten)
        return _DIGITS.get(tens, 1) * 10 + _DIGITS.get(ones, 0)
    return 0


def _day(d: date) -> tuple[date, date]:
    return d, d + timedelta(days=1)


def _month_day(month: int, day: int, year: int | None, today: date) -> tuple[date, date] | None:
    """The day, in `year` or else the latest such day not after today."""
    try:
        if year:
            return _day(date(year, month, day))
        found = date(today.year, month, day)
        if found > today:
            found = date(today.year - 1, month, day)
        return _day(found)
    except ValueError:  # 31 February, or 29 February in a year without it
        return None


def _ordinal_day(day: int, today: date) -> tuple[date, date] | None:
    """'the 20th': the latest 20th not after today."""
    month, year = today.month, today.year
    for _ in range(3):
        try:
            found = date(year, month, day)
        except ValueError:
            found = None
        if found and found <= today:
            return _day(found)
        month, year = (month - 1, year) if month > 1 else (12, year - 1)
    return None


def _weekday(weekday: int, today: date, weeks_back: int) -> tuple[date, date]:
    """weeks_back 0: the latest such day up to today; 1: that day of last week."""
    if weeks_back:
        monday = today - timedelta(days=today.weekday() + 7 * weeks_back)
        return _day(monday + timedelta(days=weekday))
    return _day(today - timedelta(days=(today.weekday() - weekday) % 7))


def _days_ago(n: int, today: date) -> tuple[date, date]:
    return _day(today - timedelta(days=n))


def _last_week(today: date) -> tuple[date, date]:
    monday = today - timedelta(days=today.weekday() + 7)
    return monday, monday + timedelta(days=7)


def _last_month(today: date) -> tuple[date, date]:
    first = today.replace(day=1)
    start = (first - timedelta(days=1)).replace(day=1)
    return start, first


def _month(month: int, year: int | None, today: date) -> tuple[date, date]:
    """'in May': the latest May that has begun."""
    if year is None:
        year = today.year if month <= today.month else today.year - 1
    end = date(year + month // 12, month % 12 + 1, 1)
    return date(year, month, 1), end


def _month_of(name: str) -> int:
    """'May', 'Sept.', 'mayo' → the month's number."""
    name = name.lower().rstrip(".")
    return _MONTH_NUMBER.get(name) or _MONTH_NUMBER[name[:3]]


def _year_of(text: str | None) -> int | None:
    return int(text) if text else None


Resolver = Callable[[re.Match, date], "tuple[date, date] | None"]
_YEAR = r"(?:,?\s*(\d{4}))?"
_ORD = rf"(\d{{1,2}})(?:{_en('date.ordinal')})?"
_EN_COUNT = "|".join(name for n in lang.COUNTS for name in _names(f"count.{n}", "en"))
_CASED = {"tl"}  # languages whose weekdays are days only with their capital (Linggo; linggo is "week")


def _marked(codes: tuple[str, ...], number: str) -> list[tuple[re.Pattern, Resolver]]:
    """A date whose parts the languages `codes` mark after their numbers (2023年5月1日,
    2023년 5월 1일), each number as `number` reads it; none where no language does."""
    if not codes:
        return []
    year, month, day = (_said(f"date.{part}", codes) for part in ("year", "month", "day"))
    said = re.compile(rf"(?:(\d{{4}})(?:{year}))?{number}(?:{month}){number}(?:{day})")
    return [(said, lambda m, t: _month_day(_number(m[2]), _number(m[3]), _year_of(m[1]), t))]


def _days_ago_marked() -> list[tuple[re.Pattern, Resolver]]:
    """Days ago after a count, in the languages that mark dates (三日前, 3일 전)."""
    said = [f"{number}(?:{_said('date.days_ago', codes)})" for codes, number in _MARKED if codes]
    if not said:
        return []
    return [(re.compile("|".join(said)), lambda m, t: _days_ago(_number(next(g for g in m.groups() if g)), t))]


def _weekdays(before: str) -> list[tuple[re.Pattern, Resolver]]:
    """Each language's weekday said after its `before` words (weekday.last or weekday.on),
    resolved to that day of last week (weekday.last) or the latest one up to today."""
    weeks_back = 1 if before == "weekday.last" else 0
    out: list[tuple[re.Pattern, Resolver]] = []
    for code in lang.languages():
        days = "|".join(name for day in lang.WEEKDAYS for name in _names(f"weekday.{day}", code))
        if days:
            said = rf"(?:{lang.words(before, code)})({days})(?:{lang.words('weekday.after', code)})"
            resolve = lambda m, t, back=weeks_back: _weekday(_WEEKDAY[m[1].lower()], t, back)  # noqa: E731
            out.append((re.compile(said, 0 if code in _CASED else re.I), resolve))
    return out


# Longest forms first: each pattern's match is taken out of the question before the next.
_PATTERNS: list[tuple[re.Pattern, Resolver]] = [
    (
        re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"),
        lambda m, t: _month_day(int(m[2]), int(m[3]), int(m[1]), t),
    ),
    (  # May 1st, 2023 / on May 1
        re.compile(rf"\b(?:{_en('date.on')})?({_EN_MONTH})\s+{_ORD}\b{_YEAR}", re.I),
        lambda m, t: _month_day(_month_of(m[1]), int(m[2]), _year_of(m[3]), t),
    ),
    (  # the 1st of May / 1 May 2023
        re.compile(
            rf"\b(?:{_en('date.on')})?(?:{_en('date.article')})?{_ORD}\s+(?:{_en('date.of')})?({_EN_MONTH}){_YEAR}\b",
            re.I,
        ),
        lambda m, t: _month_day(_month_of(m[2]), int(m[1]), _year_of(m[3]), t),
    ),
    (  # ika-20 ng Mayo / noong Mayo 1
        re.compile(
            rf"\b(?:{_tl('date.on')})?(?:{_tl('date.ordinal_before')})?(\d{{1,2}})\s+{_tl('date.of')}({_TL_MONTH})\b{_YEAR}",
            re.I,
        ),
        lambda m, t: _month_day(_month_of(m[2]), int(m[1]), _year_of(m[3]), t),
    ),
    (
        re.compile(rf"\b(?:{_tl('date.on')})?({_TL_MONTH})\s+(\d{{1,2}})\b{_YEAR}", re.I),
        lambda m, t: _month_day(_month_of(m[1]), int(m[2]), _year_of(m[3]), t),
    ),
    *(said for codes, number in _MARKED for said in _marked(codes, number)),  # 五月二十号, 2023년 5월 1일
    (  # the 20th (of this month, or the last one that had it)
        re.compile(rf"\b(?:{_en('date.on')})?{_en('date.article')}(\d{{1,2}})(?:{_en('date.ordinal')})\b", re.I),
        lambda m, t: _ordinal_day(int(m[1]), t),
    ),
    *_weekdays("weekday.last"),
    *_weekdays("weekday.on"),
    (re.compile(lang.pattern("when.day_before_yesterday"), re.I), lambda m, t: _days_ago(2, t)),
    (re.compile(lang.pattern("when.yesterday"), re.I), lambda m, t: _days_ago(1, t)),
    (re.compile(lang.pattern("when.today"), re.I), lambda m, t: _days_ago(0, t)),
    (
        re.compile(rf"\b(\d{{1,2}}|{_EN_COUNT})(?:{_en('date.days_ago')})", re.I),
        lambda m, t: _days_ago(_number(m[1]), t),
    ),
    *_days_ago_marked(),
    (re.compile(lang.pattern("when.last_week"), re.I), lambda m, t: _last_week(t)),
    (re.compile(lang.pattern("when.last_month"), re.I), lambda m, t: _last_month(t)),
    (  # in May (2023): capitalised, so "may" the verb is not a month
        re.compile(rf"\b{_en('date.in')}({_EN_MONTH}){_YEAR}\b"),
        lambda m, t: _month(_month_of(m[1]), _year_of(m[2]), t),
    ),
]


# Dates in numbers. Year first: 2024/1/10, 2024.01.10, 2024-1-10. Year last: 10.01.2024,
# 1/10/2024, 10-01-24. Day and month alone only with a slash (1/10), and not a fraction of
# something (1/2 cup, 24/7, 8/10 stars): a dash or dot between two numbers is a range or a
# decimal far more often than a date.
_YEAR_FIRST = re.compile(r"(?<![\d./-])(\d{4})([./-])(\d{1,2})\2(\d{1,2})(?![\d./-]|\.\d)")
_YEAR_LAST = re.compile(r"(?<![\d./-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/-]|\.\d)")
_MONTH_DAY = re.compile(
    rf"(?<![\d./-])(\d{{1,2}})/(\d{{1,2}})(?![\d/-]|\.\d|\s*(?:%|{lang.pattern('date.not_a_date')}))", re.I
)
_DAY_FIRST_TOO = {"en"}  # languages whose people write the day first as often as the month


def _numeric_dates(query: str, today: date, language: str) -> tuple[list[Span], str]:
    """The days written in numbers in `query` (every reading the language allows, the
    nearest to today first), and the query without them."""
    spans: list[Span] = []

    def take(m: re.Match, readings: list[tuple[date, date]]) -> str:
        if not readings:
            return m.group(0)
        readings = sorted(set(readings), key=lambda days: abs((days[0] - today).days))
        spans.extend(Span(start, end, m.group(0)) for start, end in readings)
        return " "

    def year_first(m: re.Match) -> str:
        return take(m, [d for d in [_month_day(int(m[3]), int(m[4]), int(m[1]), today)] if d])

    def both_orders(first: int, second: int, year: int | None) -> list[tuple[date, date]]:
        orders = [(first, second)] + ([(second, first)] if language in _DAY_FIRST_TOO else [])
        return [d for month, day in orders if (d := _month_day(month, day, year, today))]

    def year_last(m: re.Match) -> str:
        year = int(m[4])
        if year < 100:  # '24: this century, unless that is more than a year ahead
            year += 2000 if 2000 + year <= today.year + 1 else 1900
        return take(m, both_orders(int(m[1]), int(m[3]), year))

    rest = _YEAR_FIRST.sub(year_first, query)
    rest = _YEAR_LAST.sub(year_last, rest)
    rest = _MONTH_DAY.sub(lambda m: m[0] if m[0] == "24/7" else take(m, both_orders(int(m[1]), int(m[2]), None)), rest)
    return spans, rest


def time_spans(query: str, now: datetime, language: str | None = None) -> When:
    """The days `query` speaks of (none when it names no time), and the query without them.
    `language` decides the order of a date in numbers (by default, the query's own)."""
    today = (now.astimezone() if now.tzinfo else now).date()
    spans, rest = _numeric_dates(query, today, language or detect_language(query))
    for pattern, resolver in _PATTERNS:

        def take(m: re.Match, resolve: Resolver = resolver) -> str:
            days = resolve(m, today)
            if days is None:
                return m.group(0)
            spans.append(Span(days[0], days[1], m.group(0).strip()))
            return " "

        rest = pattern.sub(take, rest)
    return When(tuple(spans), " ".join(rest.split()) if spans else query)
