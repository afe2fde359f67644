"""What an idea says, read as general slots (en, ja, ko, zh, tl): people, money with its
currency, quantities with units, goals, targets and budgets, periods, dates and events,
times of day, taken-or-not checks, care every few days, and what was refused ("not pounds").

The rules that write a spec (spec_rules.py) read these slots instead of phrases written for
particular ideas, and make's coverage (fit.py) names every slot the app leaves out. Numbers
with units and dates are read by the memory's own readers (reading/units.py, reading/when.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from macaron_cli import lang
from macaron_cli.reading.units import unit_words


@dataclass(frozen=True)
class Amount:
    value: float
    unit: str  # a canonical unit ("kilogram", "mmol/L", "steps") or a currency code ("KRW")


@dataclass(frozen=True)
class Slots:
    people: tuple[str, ...] = ()  # names as said; "me" for me/私/나/我/ako
    units: tuple[str, ...] = ()  # units named, not refused, in the order said
    refused: tuple[str, ...] = ()  # units said not to be used
    amounts: tuple[Amount, ...] = ()  # numbers with a unit (not money)
    money: tuple[Amount, ...] = ()  # sums of money with their currency
    currency: str | None = None  # the currency the idea names
    goal: Amount | None = None  # a number said as a goal or a limit ("" unit: none said)
    target: Amount | None = None  # a savings target
    budget: Amount | None = None  # a spending limit
    period: str | None = None  # daily | weekly | monthly
    times: tuple[str, ...] = ()  # morning, afternoon, evening, fasting, after_meal
    check: bool = False  # taken or not, done or not: no reading
    every: bool = False  # care every few days (watering)
    event: str | None = None  # what is counted down to, as said
    date: str | None = None  # its day, YYYY-MM-DD
    dates: tuple[tuple[str, str], ...] = ()  # every day said, with what it is ("birthday", YYYY-MM-DD)
    pair: tuple[Amount, ...] = ()  # two lengths of time in the order said: work, then its break
    rate: Amount | None = None  # a sum put in each period beside a target ("400 a month" toward 5000)
    listed: tuple[str, ...] = ()  # things an enumeration names (categories, an item's details)
    item: str | None = None  # what a list is of, as said ("茶叶" in 收藏的茶叶, "plants" in "list of plants")
    with_whom: str | None = None  # who one did it with, as asked ("和谁一起看的", "with whom")
    found: dict[str, str] = field(default_factory=dict)  # slot → the words that said it


def _any(words: str, text: str) -> re.Match[str] | None:
    return re.search(words, text, re.IGNORECASE)


def _a_small_word(word: str) -> bool:
    """Whether `word` is me, one of a language's small words ("and", "sa") or what joins a list
    ("at"), not a name."""
    concepts = ("me", "small_words", "list.and")
    return any(re.fullmatch(f"(?:{lang.pattern(concept)})", word, re.IGNORECASE) for concept in concepts)


# ── units ────────────────────────────────────────────────────────────────────────────────
# Canonical unit → how people write it (after a number, or on its own: "kg please", "(ml)").
def _unit_patterns() -> dict[str, str]:
    return {unit: lang.pattern(f"unit.{unit}") for unit in lang.UNITS}


# The same quantity in another system: a unit refused gives way to its other.
OTHER_SYSTEM = {"pound": "kilogram", "kilogram": "pound", "mile": "kilometer", "kilometer": "mile"}
OTHER_SYSTEM |= {"mg/dL": "mmol/L", "mmol/L": "mg/dL", "centimeter": "inch", "inch": "centimeter"}


# Words that refuse what follows them, and what refuses what comes before it.
def _not_before() -> str:
    return rf"(?:{lang.pattern('refuse.before')})\s*(?:{lang.pattern('refuse.filler')})?"


def _not_after() -> str:
    return rf"\s*(?:{lang.pattern('refuse.after')})"


def units_named(text: str) -> list[str]:
    """The units `text` names and does not refuse ("km", "in mmol/L"): read's `units` alone."""
    return _units(text)[0]


def _units(text: str) -> tuple[list[str], list[str]]:
    """Units named (in the order said) and units refused."""
    named: list[tuple[int, str]] = []
    refused: list[str] = []
    not_before, not_after = _not_before(), _not_after()
    for unit, words in _unit_patterns().items():
        for m in re.finditer(words, text, re.IGNORECASE):
            before, after = text[max(0, m.start() - 16) : m.start()], text[m.end() : m.end() + 8]
            if re.search(not_before + r"$", before, re.IGNORECASE) or re.match(not_after, after):
                refused.append(unit)
            else:
                named.append((m.start(), unit))
    said = list(dict.fromkeys(u for _, u in sorted(named)))
    return [u for u in said if u not in refused], list(dict.fromkeys(refused))


# ── numbers ──────────────────────────────────────────────────────────────────────────────
# Numbers in letters (lang's number.*): Han numerals as Chinese writes them (Japanese writes
# the same), and the scales of every language that has them (천, 만).
_SCALES = {"ten": 10, "hundred": 100, "thousand": 1000, "ten_thousand": 10_000}


def _scale_letters(language: str) -> str:
    return "".join(said for name in _SCALES for said in lang.alternatives(lang.words(f"number.{name}", language)))


_HAN_DIGITS = lang.words("number.digits", "zh")  # 零 first
_TWO, _HALF = lang.words("number.two", "zh"), lang.words("number.half", "zh")
_CJK_DIGITS = {c: n for n, c in enumerate(_HAN_DIGITS, 0)} | {_TWO: 2, _HALF: 0.5}
_CJK_SCALE = {said: scale for name, scale in _SCALES.items() for said in lang.listed(f"number.{name}")}
_AFTER_DIGITS = "".join(lang.listed("number.after_digits"))  # 1万, 3만, 5천
_HAN_NUMBER = _HAN_DIGITS[1:] + lang.words("number.ten", "zh")  # one to ten: 五月, 十二
NUMBER = (
    rf"(?:\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)(?:\s?[kK](?![a-zA-Z]))?(?:\s?[{_AFTER_DIGITS}])?|"
    rf"[{_HAN_NUMBER}{_TWO}{_HALF}{_scale_letters('zh')}]+|"
    rf"(?<![\uac00-\ud7a3])[{_scale_letters('ko')}]+(?=[\uac00-\ud7a3]|\s)"
)


def number(said: str) -> float | None:
    """'12k' → 12000, '1万' → 10000, '3만' → 30000, '八千' → 8000, '천만' → 10000000, '半' → 0.5."""
    said = said.replace(",", "").replace(" ", "")
    m = re.fullmatch(rf"(\d+(?:\.\d+)?)([kK]?)([{_AFTER_DIGITS}]?)", said)
    if m:
        scale = (1000 if m[2] else 1) * (_CJK_SCALE[m[3]] if m[3] else 1)
        return float(m[1]) * scale
    total, current, last_scale, after_scale = 0.0, 0.0, 1, False
    for ch in said:
        if ch in _CJK_DIGITS:
            current, after_scale = float(_CJK_DIGITS[ch]), after_scale and _CJK_DIGITS[ch] != 0
        elif ch in _CJK_SCALE:
            scale = last_scale = _CJK_SCALE[ch]
            if scale >= 10_000:
                total = ((total + current) or 1) * scale  # 천만: a thousand ten-thousands
            else:
                total += (current or 1) * scale
            current, after_scale = 0.0, True
        else:
            return None
    if after_scale and last_scale >= 100:  # 两千五, 一万五: a digit after a scale counts the next one down
        return total + current * last_scale / 10 or None
    return total + current or None


def _amounts(text: str) -> list[tuple[int, Amount]]:
    """Numbers followed by a unit ("72.5kg", "2리터", "八千步", "1万歩", "半小时"), with where each stands."""
    out = []
    units = _unit_patterns()
    for m in re.finditer(rf"({NUMBER})\s?(?:{lang.pattern('number.counter')})?", text):
        value = number(m.group(1))
        if value is None:
            continue
        for unit, words in units.items():
            if re.compile(rf"\s?(?:{words})", re.IGNORECASE).match(text, m.end()):
                out.append((m.start(), Amount(value, unit)))
                break
    return out


# ── money ────────────────────────────────────────────────────────────────────────────────
_CODES = {"usd": "USD", "eur": "EUR", "jpy": "JPY", "cny": "CNY", "krw": "KRW", "php": "PHP"}


def _money(text: str) -> tuple[list[Amount], str | None]:
    k_sums = rf"(\d)\s?k\s+({lang.pattern('money.k_currency')})"  # "5k pesos"
    spelled = re.sub(k_sums, r"\g<1>000 \2", text, flags=re.IGNORECASE)
    for ten_million in lang.each("money.ten_million"):  # 천만 원: its currency in a group
        spelled = re.sub(ten_million, r"10000000\1", spelled)
    sums = []
    for word in unit_words(spelled):
        m = re.fullmatch(r"(\d+(?:p\d+)?)(usd|eur|jpy|cny|krw|php)", word)
        if m:
            sums.append(Amount(float(m[1].replace("p", ".")), _CODES[m[2]]))
    # a currency named, with or without a sum ("in renminbi", "엔화로", "naka-peso")
    currency = next((code for code in lang.CURRENCIES if _any(lang.pattern(f"currency.{code}"), text)), None)
    if sums and currency and len({s.unit for s in sums}) > 1:  # ¥ reads as yen and yuan: the words decide
        sums = [s for s in sums if s.unit == currency]
    return list(dict.fromkeys(sums)), currency or (sums[0].unit if sums else None)


# ── people ───────────────────────────────────────────────────────────────────────────────
# Capitalised words that are not people (the months, weekdays, languages and units).
_NOT_NAMES = frozenset(lang.pattern("not_names").replace("|", " ").split())
# Words after which a name follows (a relation, or Tagalog's name markers).
# Each language's relations (lang's relation), kin (kin), Tagalog's name markers (name.marker).
_EN_BEFORE_NAME = rf"(?:{lang.words('relation', 'en')})s?\s+"
# Names typed in lower case, as people type: those in a list with me ("me, sam, and lee";
# "nina, tom and me" where a clause or "for"/"with" begins it, so "cooking dinner, ollie and
# me" names Ollie, not dinner), and two or more after a relation, ending the clause ("my
# roommates jess and omar").
_EN_AND, _EN_ME = lang.words("list.and", "en"), rf"\b(?:{lang.words('me.alone', 'en')})\b"
_AND = rf"\s*(?:,\s*(?:(?:{_EN_AND})\s+)?|\b(?:{_EN_AND})\b|&)\s*"
_EN_LIST = rf"(?:{_EN_ME}|[A-Z][a-z]+)(?:\s*(?:,|\b(?:{_EN_AND})\b|&)\s*(?:{_EN_ME}|[A-Z][a-z]+))+"
_OPENS = "".join(rf"|(?<=\b{word}\s)" for word in lang.alternatives(lang.words("list.opens", "en")))
_LIST_START = rf"(?:^|(?<=[,.;:!?(])\s*{_OPENS})"  # a lookbehind each: they need a fixed width
# Tagalog's lists begin with me the same way ("ako, jun at bea").
_LATIN_ME = rf"\b(?:{lang.words('me.alone', 'en')}|{lang.words('me.alone', 'tl')})\b"
_LATIN_ANDS = f"{_EN_AND}|{lang.words('list.and', 'tl')}"
_LATIN_AND = rf"\s*(?:,\s*(?:(?:{_LATIN_ANDS})\s+)?|\b(?:{_LATIN_ANDS})\b|&)\s*"
_LOWER_WITH_ME = rf"{_LATIN_ME}(?:{_LATIN_AND}[a-z]{{2,}}\b)+|{_LIST_START}(?:[a-z]{{2,}}{_AND})+{_EN_ME}"
_LOWER_AFTER_RELATION = rf"(?:{lang.words('relation', 'en')})s?\s+([a-z]{{2,}}(?:{_AND}[a-z]{{2,}})+)\s*(?=[.,!?;:]|$)"
# Tagalog's name markers, and the kin words said before a name ("kay Ate Rose": Rose).
_TL_MARKER = rf"\b(?:{lang.words('name.marker', 'tl')})\s+(?:(?:{lang.words('kin.title', 'tl')})\s+)?"
_JA_RELATION = rf"(?:{lang.words('relation', 'ja')})(?:{lang.words('relation.of', 'ja')})"
_JA_NAME = r"[\u4e00-\u9fff\u3041-\u3096\u30a1-\u30fa]{1,4}?"
_KO_RELATION = rf"(?:{lang.words('relation', 'ko')})\s*"
_ZH_RELATION = rf"(?:{lang.words('relation', 'zh')})"
_ME_ALONE = f"(?:{lang.pattern('me.alone')})"  # me said as one of a list's parts
# Each language's kin, its me and what joins them (lang's kin, me, name.suffix and name.and).
_KIN_BESIDE_ME = [
    (kin, lang.words("me", code), rf"(?:{lang.words('name.suffix', code)})?(?:{joined})\s*")
    for code in lang.languages()
    if (kin := lang.words("kin", code)) and (joined := lang.words("name.and", code))
]
_JA_NOT_NAMES = frozenset(lang.pattern("name.not_before_honorific").split("|"))
_KO_NAME = rf"(?!{lang.words('name.not_a_name', 'ko')})[\uac00-\ud7a3]{{2}}"  # 친구들이랑, 누구한테: not names
# Korean's particles around a name (lang's name.suffix, name.and, name.list_end, name.to).
_KO_SUFFIX, _KO_AND = rf"(?:{lang.words('name.suffix', 'ko')})?", lang.words("name.and", "ko")
_KO_LIST = (
    rf"((?:{_KO_NAME}{_KO_SUFFIX}(?:{_KO_AND}|,\s*)\s*)*{_KO_NAME}){_KO_SUFFIX}"
    rf"(?:{lang.words('name.list_end', 'ko')}|,)"
)
_KO_ME = rf"(?:{lang.words('me.alone', 'ko')})"
_KO_WITH_ME = (
    rf"(?<![\uac00-\ud7a3])(?:({_KO_NAME}){_KO_SUFFIX}(?:{_KO_AND})\s*{_KO_ME}(?:{_KO_AND})|"
    rf"{_KO_ME}(?:{_KO_AND})\s*({_KO_NAME}){_KO_SUFFIX}(?:{_KO_AND}))"
)
_KO_TO = rf"(?<![\uac00-\ud7a3])({_KO_NAME}){_KO_SUFFIX}(?:{lang.words('name.to', 'ko')})"
_ZH_KIN = lang.words("kin", "zh")
_ZH_NAME = rf"(?:{lang.words('name.prefix', 'zh')})(?!{lang.words('name.prefix_not', 'zh')})[\u4e00-\u9fff]"
# Japanese: an honorific after a name (not ちゃんと, honorific.not), or one read only in an
# idea (honorific.idea); names listed with と (name.and) before a particle (name.after); a
# shop is no person (name.shop).
_JA_HONORIFIC = (
    rf"(?:(?!{lang.words('honorific.not', 'ja')})(?:{lang.pattern('honorific')})|{lang.words('honorific.idea', 'ja')})"
)
_JA_AND = lang.words("name.and", "ja")
# A particle glued after a word before a name (洗濯は田中さん): the name begins after it.
_JA_PARTICLE = rf"(?<=[\u4e00-\u9fff\u30a0-\u30ff])(?:{lang.words('list.item_start', 'ja')})"
_JA_LIST = (
    rf"{_JA_RELATION}((?:{_JA_NAME}(?:{_JA_AND}|\u30fb|、))*{_JA_NAME})"
    rf"(?={_JA_AND}|{lang.words('name.after', 'ja')}|\u30fb|、)"
)
# Names listed after me, whose the next word is (私とけんじとまいの家事当番).
_JA_WITH_ME = (
    rf"(?:{lang.words('me', 'ja')})(?:{_JA_AND})((?:{_JA_NAME}(?:{_JA_AND}))*{_JA_NAME})"
    rf"(?={lang.words('relation.of', 'ja')}|{lang.words('name.after', 'ja')})"
)
_JA_ME = frozenset(lang.alternatives(lang.words("me", "ja")))
_JA_SHOPS = tuple(lang.alternatives(lang.words("name.shop", "ja")))


def _people(text: str) -> list[str]:
    found: list[tuple[int, str]] = []

    def add(pos: int, name: str) -> None:
        name = name.strip()
        if name and name not in _NOT_NAMES and not any(n == name for _, n in found):
            found.append((pos, name))

    # Latin script: a capitalised word is a person's name in a list of names (with me), after a
    # relation ("my sister Priya"), or doing something ("Tom owes", "Emma does"): not a place.
    listed = {w for m in re.finditer(_EN_LIST, text) for w in re.findall(r"[A-Z][a-z]+", m.group(0))}
    for m in re.finditer(r"(?<![\w'])([A-Z][a-z]+)\b", text):
        acts = re.match(rf"\s+(?:{lang.pattern('name.acts')})\b", text[m.end() :])
        if m.group(1) in listed or acts or _any(_EN_BEFORE_NAME + "$", text[: m.start()]):
            add(m.start(), m.group(1))
    for m in re.finditer(rf"{_LOWER_WITH_ME}|{_LOWER_AFTER_RELATION}", text):
        for word in re.finditer(r"[a-z]+", m.group(1) or m.group(0)):
            if not _a_small_word(word.group(0)):
                add(m.start() + word.start(), word.group(0).capitalize())
    marker = rf"\b(?:{lang.words('name.marker', 'tl')})\b"
    tl_and = lang.words("list.and", "tl")
    for m in re.finditer(_TL_MARKER + rf"([A-Za-z][a-z]+)(?:\s+(?:{tl_and})\s+(?!{marker})([A-Za-z][a-z]+))?", text):
        for group in (1, 2):  # "si jun", "kay Ate Rose": a marker says a name follows, in any case
            if m.group(group) and not _a_small_word(m.group(group)):
                add(m.start(group), m.group(group).capitalize())
    for m in re.finditer(rf"{marker}\s+({lang.words('kin.title', 'tl')})\b", text):
        if not re.match(r"\s+[A-Z]", text[m.end() :]):  # "ni kuya sa …": the kin is who is meant
            add(m.start(1), m.group(1))
    # Japanese: 田中さん, 夫の健太と私, 友達のさくらとゆいに.
    for m in re.finditer(rf"({_JA_NAME}){_JA_HONORIFIC}", text):
        name = re.split(_JA_PARTICLE, m.group(1))[-1]
        if name not in _JA_NOT_NAMES and not name.endswith(_JA_SHOPS):  # 赤ちゃん, ラーメン屋さん
            add(m.end(1) - len(name), name)
    for m in [*re.finditer(_JA_LIST, text), *re.finditer(_JA_WITH_ME, text)]:
        for name in re.split(rf"{_JA_AND}|[\u30fb、]", m.group(1)):
            if name not in _JA_ME:
                add(m.start(1), name)
    # A list after a colon with me in it ("割り勘：けんじ、まい、私"): the others are its people.
    for m in re.finditer(r"[:：]\s*([^:：。.!?！？]+)$", text):
        parts = [part.strip() for part in re.split(r"\s*[、，,]\s*", m.group(1))]
        if len(parts) >= 2 and any(re.fullmatch(_ME_ALONE, part, re.IGNORECASE) for part in parts):
            for part in parts:
                if 0 < len(part) <= 4 and not re.search(r"\d|\s", part) and not re.fullmatch(_ME_ALONE, part):
                    add(m.start(1) + m.group(1).find(part), part)
    # Kin said beside me ("母と私で", "엄마랑 나랑", "我和老婆"): the relation is the person's name here.
    for kin, myself, joined in _KIN_BESIDE_ME:
        for m in re.finditer(rf"(?:{myself})(?:{joined})({kin})|({kin})(?:{joined})(?:{myself})", text):
            add(m.start(), m.group(1) or m.group(2))
    # Korean: 수진이한테, 룸메이트 지훈이랑 민수랑, a comma list with 나 (lang's me.alone).
    for m in re.finditer(_KO_TO, text):
        add(m.start(1), m.group(1))
    for m in re.finditer(_KO_WITH_ME, text):  # 민지랑 나랑, 나랑 민지랑
        add(m.start(), m.group(1) or m.group(2))
    for m in re.finditer(_KO_RELATION + _KO_LIST, text):
        for name in re.findall(rf"({_KO_NAME}){_KO_SUFFIX}(?:{_KO_AND}|,|$)", m.group(1) + ","):
            add(m.start(1), name)
    if re.search(rf"(?:^|[,，]\s*)(?:{lang.words('me.alone', 'ko')})\s*[,，]", text):  # "나, 엄마, 동생 …"
        for m in re.finditer(r"(?<=[,，])\s*([\uac00-\ud7a3]{2})(?=\s*[,，]|\s+[\uac00-\ud7a3]{2}\s|\s*$)", text):
            add(m.start(1), m.group(1))
    # Chinese: 室友小王、阿杰; 爸爸洗碗，妈妈做饭; 李明500，张伟200.
    for m in re.finditer(_ZH_NAME, text):
        add(m.start(), m.group(0))
    if len(re.findall(_ZH_KIN, text)) >= 2:
        for m in re.finditer(_ZH_KIN, text):
            add(m.start(), m.group(0))
    for m in re.finditer(rf"{_ZH_RELATION}([\u4e00-\u9fff]{{2}})(?=[、，,]|{lang.words('name.and', 'zh')})", text):
        add(m.start(1), m.group(1))
    # Names before their sums after a colon: 朋友借了我的钱：李明500，张伟200; 빌려준 돈: 민수 5만원, 지호 3만원.
    colon = re.search(r"[：:]", text)
    after_colon = text[colon.start() :] if colon else ""
    named_sum = r"(?<=[：:，,、])\s*([\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{2,4})\s*(?=\d)"
    owed = list(re.finditer(named_sum, after_colon))
    for m in owed if len(owed) >= 2 else []:  # two or more: a list of people, not "目標8000歩"
        add(len(text) - len(after_colon) + m.start(1), m.group(1))
    names = [n for _, n in sorted(found)]
    if names and "me" not in names and _any(lang.pattern("housemates"), text):
        return [*names, "me"]  # the person lives with their roommates: one of those who share
    me = re.search(lang.pattern("me"), text, re.IGNORECASE)
    if me and (names or _any(lang.pattern("turns"), text)):
        names = ["me", *names] if me.start() < min((p for p, _ in found), default=len(text)) else [*names, "me"]
    return names


# ── lists: categories, an item's details ──────────────────────────────────────────────────
# What separates listed things: marks, and lang's list.and, spaced (en, tl) or glued (ja, zh, ko).
_LIST_AND = {code: lang.words("list.and", code) for code in ("en", "ja", "ko", "zh", "tl")}
_SEPARATORS = (
    rf"\s*(?:,(?!\d{{3}})|、|，|\u30fb|\+|&|/)\s*|\s+(?:{_LIST_AND['en']}|{_LIST_AND['tl']})\s+|"
    rf"(?<=[\u30a0-\u30ff\u4e00-\u9fffA-Za-z])(?:{_LIST_AND['ja']}|{_LIST_AND['zh']})(?=[\u4e00-\u9fff\u30a0-\u30ff])|"
    rf"(?<=[\uac00-\ud7a3])(?:{_LIST_AND['ko']})\s+"
)
# Words before and after a listed thing (lang's list.lead_word, list.lead_particle, list.tail),
# and what is never one (list.not_item).
_LEAD_WORDS = rf"^(?:(?:{lang.pattern('list.lead_word')})\s+|{lang.pattern('list.lead_particle')})+"
_TAIL_WORDS = rf"\s*(?:{lang.pattern('list.tail')})$"
_NOT_LISTED = rf"\d|{lang.pattern('list.not_item')}"


def _listed(text: str, people: list[str]) -> list[str]:
    """The things an enumeration names ("groceries + gas + eating out", "分餐饮、交通、购物",
    "巻数と感想", "분위기랑 가격"): the longest run of two or more short parts. A long part
    before a run gives its words after the last preposition ("budget … for groceries"), a
    long part after it its first word ("internet split three ways")."""
    best: list[str] = []
    for clause in re.split(r"[.!?。！？;；:：]", text):
        run: list[str] = []
        whole = False  # a part of the run is short whole, not only an edge of a long one
        pieces = re.split(f"({_SEPARATORS})", clause)
        for part, joined in zip(pieces[0::2], ["", *pieces[1::2]], strict=True):
            word = _bare(part)
            if _short(word, people):
                run.append(word)
                whole = True
                continue
            # two long parts' edges are a list when a word joins them ("jogging at yoga"), not a comma
            by_a_word = not re.fullmatch(r"\s*[^\w\s]?\s*", joined)
            if run and (whole or by_a_word) and _short(head := _bare(_head(part)), people):
                run.append(head)
            best = max(best, run, key=len)
            tail = _bare(_tail(part))
            run, whole = ([tail] if tail != word and _short(tail, people) else []), False
        best = max(best, run, key=len)
    return best if len(best) >= 2 else []


def _glued(part: str) -> bool:
    """Written without spaces between words (Japanese, Chinese), not Latin or Hangul."""
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", part) is not None


def _head(part: str) -> str:
    """The listed thing a long part after a list begins with: its first word ("yoga sa habits",
    "저녁 뭐 먹었는지"), or in glued writing what comes before its first particle ("物理の勉強記録",
    "倒垃圾的值日表"); none from a part that says a number ("목표 40개", "식후 2시간": a goal, a time)."""
    if re.search(r"\d", part):
        return ""
    if _glued(part):
        return re.split(lang.pattern("list.item_end"), part.strip(), maxsplit=1)[0]
    return part.split()[0] if part.split() else ""


def _tail(part: str) -> str:
    """The listed thing a long part before a list ends with: its words after the last
    preposition ("budget … for groceries"), else its last word ("study tracker math"), or in
    glued writing what comes after its last particle ("習慣にヨガ", "记账分餐饮"). Korean's last word
    ends in its grammar ("했는지"), so a Korean part gives none."""
    if _glued(part):
        return re.split(lang.pattern("list.item_start"), part.strip())[-1]
    after = re.split(rf"\b(?:{lang.pattern('list.before')})\b", part)[-1]
    if (_bare(after) and len(after.split()) <= 2) or has_cjk_text(part):
        return after
    return (part.split() or [""])[-1]


# What a list is of, in each language's way of saying it (lang's list.of: one group), tried
# language by language in this order.
_ITEM_NOUN = tuple(lang.words("list.of", code) for code in ("zh", "ja", "ko", "en", "tl"))


def _bare(part: str) -> str:
    return re.sub(_TAIL_WORDS, "", re.sub(_LEAD_WORDS, "", part.strip(), flags=re.IGNORECASE)).strip()


def _short(word: str, people: list[str]) -> bool:
    limit = 4 if has_cjk_text(word) and " " not in word else 18
    fits = 0 < len(word) <= limit and len(word.split()) <= 2
    named = any(p.casefold() in word.casefold() for p in people) or _any(lang.pattern("me"), word)
    return fits and not named and not _any(_NOT_LISTED, word)


def has_cjk_text(text: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text) is not None


# ── time: periods, times of day, dates and events ─────────────────────────────────────────
# The days counted down to, each kind in every language ("wedding" and "結婚式" are one day).
def _events() -> str:
    return "|".join(lang.pattern(f"event.{kind}") for kind in lang.EVENTS)


def _whose(text: str, start: int, end: int) -> str:
    """An event as said, with whose it is ("Aiko's wedding", "兄の誕生日", "birthday ni kuya"):
    two days of one kind are told apart by it, and the person's own name for it is kept."""
    before = re.search(rf"(?:{lang.pattern('event.whose')})$", text[:start], re.IGNORECASE)
    after = re.match(rf"(?:{lang.pattern('event.whose_after')})", text[end:], re.IGNORECASE)
    start = before.start() if before and lang.pattern("event.whose") else start
    end = end + after.end() if after and lang.pattern("event.whose_after") else end
    return text[start:end].strip()


def event_kind(said: str) -> str:
    """Which day an event names ("結婚式" → "wedding"); what was said when no kind is known."""
    return next((kind for kind in lang.EVENTS if re.search(lang.pattern(f"event.{kind}"), said, re.IGNORECASE)), said)


def _goal_before() -> str:
    return rf"(?:{lang.pattern('goal.before')})\s*"


# A day said with a number: digits, or a month's number in letters (五月, lang's number.month).
_NUMBERED_MONTH = rf"\d|[{_HAN_NUMBER}]+[{''.join(lang.listed('number.month'))}]"


def _days(text: str, today: date) -> list[tuple[int, int, str]]:
    """Each day a date in the idea names, where it is said: the next such day when no year is said."""
    from macaron_cli.reading.when import time_spans

    days, cursor = [], 0
    for span in time_spans(text, datetime.combine(today, datetime.min.time())).spans:
        if (span.end - span.start).days != 1 or not re.search(_NUMBERED_MONTH, span.said):
            continue  # a weekday ("every Monday") is a repeat, not a day counted down to
        day = span.start
        if day < today and str(day.year) not in span.said:
            day = day.replace(year=day.year + 1)
        at = text.find(span.said, cursor)
        cursor = at + len(span.said) if at >= 0 else cursor
        days.append((max(at, 0), max(at, 0) + len(span.said), day.isoformat()))
    return days


def _named_days(text: str, days: list[tuple[int, int, str]]) -> list[tuple[str, str]]:
    """Each day with the event said for it ("birthday march 3 and our anniversary june 12",
    "結婚式6月7日、引っ越し5月20日"): as many events as days pair in the order said (a sentence
    names each day the same way round); else each day takes the nearest event, one day each, and
    a day with none is named ""."""
    events = [(m.start(), m.end(), _whose(text, *m.span())) for m in re.finditer(_events(), text, re.IGNORECASE)]
    if len(events) == len(days):
        return [(said, day) for (_, _, said), (_, _, day) in zip(events, days, strict=True)]
    named = []
    for at, end, day in days:
        nearest = min(events, key=lambda e: min(abs(e[0] - end), abs(e[1] - at)), default=None)
        if nearest:
            events.remove(nearest)
        named.append((nearest[2] if nearest else "", day))
    return named


def _goal(text: str, amounts: list[tuple[int, Amount]], sums: set[float]) -> Amount | None:
    """A number said as a goal or a limit: after goal words ("goal 10,000", "目标八千步"), before
    limit words ("2杯まで", "3잔 넘으면"), or the one amount an idea names ("2 coffees a day")."""
    m = re.search(_goal_before() + rf"({NUMBER})", text, re.IGNORECASE) or re.search(
        rf"({NUMBER})\s?[^\d\s]{{0,3}}(?:{lang.pattern('goal.after')})", text
    )
    if m:
        value = number(m.group(1))
        said = next((a for at, a in amounts if at == m.start(1)), None)
        return said or (Amount(value, "") if value else None)
    after_meal = [m.span() for m in re.finditer(lang.pattern("time.after_meal"), text, re.IGNORECASE)]
    # "2h after dinner", "식후 2시간": when a reading is taken, not a goal
    amounts = [(at, a) for at, a in amounts if not any(s - 8 <= at <= e + 2 for s, e in after_meal)]
    if amounts:
        return amounts[0][1] if len(amounts) == 1 else None
    # a count said with a period is a goal for that period ("read 4 books a month", "한 달에 책
    # 3권", "每个月读两本书"); a sum of money is a budget or a target, not this
    counts = [
        value
        for m in re.finditer(NUMBER, text)
        if (value := number(m.group(0))) and value not in sums and _beside(_periods(), text, m, words_between=1)
    ]
    return Amount(counts[0], "") if len(counts) == 1 else None


def _period(text: str) -> str | None:
    """The period said first, not one refused ("3 a week instead of daily", "매일 말고 주 3회")."""
    not_before, not_after = _not_before(), _not_after()
    said = []
    for period in lang.PERIODS:
        for m in re.finditer(lang.pattern(f"period.{period}"), text, re.IGNORECASE):
            before, after = text[max(0, m.start() - 16) : m.start()], text[m.end() : m.end() + 8]
            refused = re.search(not_before + r"\s*$", before, re.IGNORECASE) or re.match(not_after, after)
            if not refused:
                said.append((m.start(), period))
    return min(said)[1] if said else None


def _periods() -> str:
    return "|".join(f"(?:{lang.pattern(f'period.{p}')})" for p in lang.PERIODS)


def _beside(words: str, text: str, m: re.Match[str], words_between: int = 0) -> bool:
    """Whether `words` stand right before or after the number `m` found: glued by a particle or
    two (月2万円, 每个月存2000, 한 달에 50만원), or with up to `words_between` words between
    ("4 books a month")."""
    between = rf"(?:\S+\s+){{0,{words_between}}}"
    # the number's first letter stays after the words, for those that look ahead to it (月2万)
    before = re.search(rf"(?:{words})\S{{0,2}}\s*{between}(?=.$)", text[: m.start() + 1], re.IGNORECASE)
    return bool(before or re.match(rf"\s*\S{{0,3}}\s*{between}(?:{words})", text[m.end() :], re.IGNORECASE))


# ── two numbers read together: a pair in order, a rate beside a target ────────────────────
_LENGTHS = ("hour", "minute", "second")


def _pair(text: str, amounts: list[tuple[int, Amount]], days: list[tuple[int, int, str]]) -> tuple[Amount, ...]:
    """Two lengths of time in the order said, work then its break ("25 min work and 5 min
    break", "作業25分→休憩5分", "50 on 10 off", "study 45 minutes then rest 15"): a number
    without a unit beside a work or break word takes the unit of the lengths said (minutes
    when none is)."""
    lengths = [(at, a) for at, a in amounts if a.unit in _LENGTHS]
    unit = lengths[0][1].unit if lengths else "minute"
    work_or_rest = f"(?:{lang.pattern('timer.work')})|(?:{lang.pattern('timer.break')})"
    said_at = {at for at, _ in amounts}
    for m in re.finditer(NUMBER, text):
        in_a_date = any(start <= m.start() < end for start, end, _ in days)
        if m.start() in said_at or in_a_date or not _beside(work_or_rest, text, m, words_between=1):
            continue
        if value := number(m.group(0)):
            lengths.append((m.start(), Amount(value, unit)))
    return tuple(a for _, a in sorted(lengths, key=lambda said: said[0])[:2]) if len(lengths) >= 2 else ()


def sums_each_period(text: str) -> list[float]:
    """Numbers without a unit said with a period ("about 400 a month", "毎月2万ずつ")."""
    return _sums_each_period(text, _amounts(text))


def _sums_each_period(text: str, amounts: list[tuple[int, Amount]]) -> list[float]:
    """Numbers without a unit said with a period ("about 400 a month")."""
    said_at = {at for at, _ in amounts}
    numbers = [m for m in re.finditer(NUMBER, text) if m.start() not in said_at and _beside(_periods(), text, m)]
    return [v for m in numbers if (v := number(m.group(0)))]


def _rate(text: str, target: Amount) -> Amount | None:
    """A sum put in each period beside a target ("save 5000 … putting in 400 a month",
    "毎月3万円ずつ貯金して100万円", "매주 10만원씩 … 목표 200만원"): a smaller sum said with a period."""
    for m in re.finditer(NUMBER, text):
        value = number(m.group(0))
        if value and value < target.value and _beside(_periods(), text, m):
            return Amount(value, target.unit)
    return None


def _deposit(sums: list[Amount], each_period: set[float]) -> Amount | None:
    """A sum put by each period with no target beside it ("毎月2万ずつ", "매달 50만원씩 모을게")."""
    return next((a for a in sums if a.value in each_period), None)


def read(idea: str, today: date | None = None) -> Slots:
    """The slots an idea fills."""
    text = idea.strip()
    units, refused = _units(text)
    amounts = _amounts(text)
    money, currency = _money(text)
    if currency and not money:  # "in euros, about 400 a month": a sum each period is in the currency named
        money = [Amount(v, currency) for v in _sums_each_period(text, amounts)]
    saving, budgeting = _any(lang.pattern("saving"), text), _any(lang.pattern("budget"), text)
    if not saving and money and not budgeting:
        saving = _any(_goal_before(), text)  # "aiming for 40k pesos": a sum to reach
    # sums said without a currency, beside those with one ("每周存500块攒一万块")
    lone = [Amount(v, currency or "") for v in _bare_sums(text) if v not in {m.value for m in money}]
    sums = money + lone if saving or budgeting else money
    # a sum said with a period is put by each period ("4k kada buwan"); of several sums the
    # largest is the target whatever period stands near it ("目標80万円、月4万円")
    each_period = set(_sums_each_period(text, amounts)) if saving else set()
    sums += [Amount(v, currency or "") for v in sorted(each_period) if v not in {a.value for a in sums}]
    if len(sums) >= 2:
        each_period.discard(max(a.value for a in sums))
    times = [t for t in lang.TIMES if _any(lang.pattern(f"time.{t}"), text)]
    if _any(lang.pattern("twice_a_day"), text):
        times = list(dict.fromkeys([*times, "morning", "evening"]))
    event = _any(_events(), text)
    found = {
        name: m.group(0)
        for name, m in (
            ("check", _any(lang.pattern("check"), text)),
            ("every", _any(lang.pattern("every_few_days"), text)),
            ("event", event),
        )
        if m
    }
    people = _people(text)
    days = _days(text, today or date.today())
    goals = [a for a in sums if a.value not in each_period]
    target = max(goals, key=lambda a: a.value) if saving and goals else None
    return Slots(
        people=tuple(people),
        listed=tuple(_listed(text, people)),
        item=next((m.group(1) for p in _ITEM_NOUN if (m := re.search(p, text, re.IGNORECASE))), None),
        with_whom=with_whom.group(0) if (with_whom := _any(lang.pattern("with_whom"), text)) else None,
        units=tuple(units),
        refused=tuple(refused),
        amounts=tuple(a for _, a in amounts if a.unit not in refused),
        money=tuple(sums),
        currency=currency,
        goal=_goal(text, [(at, a) for at, a in amounts if a.unit not in refused], {a.value for a in sums}),
        target=target,
        budget=sums[0] if budgeting and sums and not saving else None,
        period=_period(text),
        times=tuple(times),
        # "how many ml did she drink", "何杯飲んだか" count: a reading, not taken-or-not
        check="check" in found and not set(units) - {"times"} and not _any(lang.pattern("how_many"), text),
        every="every" in found,
        event=_whose(text, *event.span()) if event else None,
        date=days[0][2] if days else None,
        dates=tuple(_named_days(text, days)),
        pair=_pair(text, amounts, days),
        rate=_rate(text, target) if target else _deposit(sums, each_period),
        found=found,
    )


def _bare_sums(text: str) -> list[float]:
    """Sums said without a currency ("30,000 ang target"): numbers of four digits or more, not
    a year ("by 2027")."""
    found = [(m.group(0), number(m.group(0))) for m in re.finditer(NUMBER, text)]
    return [v for said, v in found if v and v >= 1000 and not re.fullmatch(r"(?:19|20)\d\d", said)]
