"""What an idea says, read as general slots (en, ja, ko, zh, tl): people, money with its
currency, quantities with units, goals, targets and budgets, periods, dates and events,
times of day, taken-or-not checks, care every few days, and what was refused ("not pounds").

The rules that write a spec (spec_rules.py) read these slots instead of phrases written for
particular ideas, and make's coverage (fit.py) names every slot the app leaves out. Numbers
with units and dates are read by the memory's own readers (memory/units.py, memory/when.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from macaron_cli.memory.units import unit_words


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
    listed: tuple[str, ...] = ()  # things an enumeration names (categories, an item's details)
    item: str | None = None  # what a list is of, as said ("茶叶" in 收藏的茶叶, "plants" in "list of plants")
    with_whom: str | None = None  # who one did it with, as asked ("和谁一起看的", "with whom")
    found: dict[str, str] = field(default_factory=dict)  # slot → the words that said it


def _any(words: str, text: str) -> re.Match[str] | None:
    return re.search(words, text, re.IGNORECASE)


# ── units ────────────────────────────────────────────────────────────────────────────────
# Canonical unit → how people write it (after a number, or on its own: "kg please", "(ml)").
UNIT_WORDS: dict[str, str] = {
    "mmol/L": r"(?<![a-z])mmol/?l(?![a-z])|ミリモル|밀리몰|毫摩尔",
    "mg/dL": r"(?<![a-z])mg/?dl(?![a-z])",
    "percent": r"%|％|\bpercent\b|パーセント|퍼센트|百分比|\bporsyento\b|体脂肪率|체지방률|体脂率|\bbody fat\b",
    "bpm": r"\bbpm\b|\bpulse\b|\bheart ?rate\b|脈拍|心拍|맥박|심박|心率|脉搏|\bpulso\b",
    "milliliter": r"(?<![a-z])ml(?![a-z])|millilit(?:er|re)s?|ミリリットル|毫升|밀리리터|(?<=\d)ミリ|\bmililitro",
    "liter": r"(?<=\d)\s?l\b|\blit(?:er|re)s?\b|リットル|리터|公升|(?<=\d|[两二三四五])升|\blitro",
    "kilogram": r"(?<![a-z])kgs?(?![a-z])|kilograms?|\bkilos?\b|キロ(?:グラム)?(?!メートル)|公斤|千克|"
    r"킬로(?:그램)?(?!미터)",
    "pound": r"\blbs?\b|\bpounds?\b|ポンド|파운드|磅|\blibra",
    "kilometer": r"(?<![a-z])kms?(?![a-z])|kilomet(?:er|re)s?|キロメートル|公里|킬로미터|\bkilometro",
    "mile": r"\bmiles?\b|マイル|마일|英里|\bmilya",
    "centimeter": r"(?<![a-z])cm(?![a-z])|centimet(?:er|re)s?|センチ|厘米|公分|센티|\bsentimetro",
    "inch": r"\binch(?:es)?\b|インチ|인치|英寸|\bpulgada",
    "hour": r"(?<=\d)\s?h\b|\bhours?\b|\bhrs?\b|時間|小时|시간|\boras\b",
    "minute": r"(?<=\d)\s?m\b|\bmin(?:ute)?s?\b|(?<=[\d十])\s?分(?:間|钟)?|分钟|(?<=\d)분|\bminuto",
    "second": r"\bseconds?\b|\bsecs?\b|秒|(?<=\d)초|\bsegundo",
    "steps": r"\bsteps?\b|(?<=[\d千万])[歩步]|歩数|步数|(?<=[\d만])보|걸음|\bhakbang",
    "cups": r"\bcups?\b|\bcoffees?\b|(?<=[\d一二三四五六七八九十])杯|(?<=\d)잔|\btasa\b",
    "glasses": r"\bglass(?:es)?\b|\bbaso\b",
    "times": r"\btimes\b|\bpushups?\b|(?<=\d)回|(?<=\d)次|(?<=\d)번|\bbeses\b",
}
# The same quantity in another system: a unit refused gives way to its other.
OTHER_SYSTEM = {"pound": "kilogram", "kilogram": "pound", "mile": "kilometer", "kilometer": "mile"}
OTHER_SYSTEM |= {"mg/dL": "mmol/L", "mmol/L": "mg/dL", "centimeter": "inch", "inch": "centimeter"}
# Words that refuse what follows them, and what refuses what comes before it.
_NOT_BEFORE = (
    r"(?:\bnot|\bno|\bnever|\bhate|\bdon'?t (?:use|like|want)|\binstead of|\brather than|\bhindi|\bayaw(?: ko)?|"
    r"\bhuwag|不用|不是|不要|别用|而不是|不喜欢)\s*(?:in |ng |sa |the |ng mga )?"
)
_NOT_AFTER = (
    r"\s*(?:じゃなくて|じゃなく|ではなく|ではなくて|は使わない|はいらない|は要らない|より|は嫌|"
    r"말고|아니라|아니고|대신|는 안|은 안|는 싫|은 싫|不要|不用)"
)


def _units(text: str) -> tuple[list[str], list[str]]:
    """Units named (in the order said) and units refused."""
    named: list[tuple[int, str]] = []
    refused: list[str] = []
    for unit, words in UNIT_WORDS.items():
        for m in re.finditer(words, text, re.IGNORECASE):
            before, after = text[max(0, m.start() - 16) : m.start()], text[m.end() : m.end() + 8]
            if re.search(_NOT_BEFORE + r"$", before, re.IGNORECASE) or re.match(_NOT_AFTER, after):
                refused.append(unit)
            else:
                named.append((m.start(), unit))
    said = list(dict.fromkeys(u for _, u in sorted(named)))
    return [u for u in said if u not in refused], list(dict.fromkeys(refused))


# ── numbers ──────────────────────────────────────────────────────────────────────────────
_CJK_DIGITS = {c: n for n, c in enumerate("零一二三四五六七八九", 0)} | {"两": 2, "半": 0.5}
_CJK_SCALE = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "萬": 10_000, "천": 1000, "만": 10_000, "백": 100}
NUMBER = (
    r"(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?[kK](?![a-zA-Z]))?(?:\s?[万萬만천])?|"
    r"[一二三四五六七八九十两半百千万萬]+|(?<![가-힣])[천만백]+(?=[가-힣]|\s)"
)


def number(said: str) -> float | None:
    """'12k' → 12000, '1万' → 10000, '3만' → 30000, '八千' → 8000, '천만' → 10000000, '半' → 0.5."""
    said = said.replace(",", "").replace(" ", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([kK]?)([万萬만천]?)", said)
    if m:
        scale = (1000 if m[2] else 1) * (_CJK_SCALE[m[3]] if m[3] else 1)
        return float(m[1]) * scale
    total, current = 0.0, 0.0
    for ch in said:
        if ch in _CJK_DIGITS:
            current = float(_CJK_DIGITS[ch])
        elif ch in _CJK_SCALE:
            scale = _CJK_SCALE[ch]
            if scale >= 10_000:
                total = (total + (current or 1)) * scale
            else:
                total += (current or 1) * scale
            current = 0.0
        else:
            return None
    return total + current or None


def _amounts(text: str) -> list[tuple[int, Amount]]:
    """Numbers followed by a unit ("72.5kg", "2리터", "八千步", "1万歩", "半小时"), with where each stands."""
    out = []
    for m in re.finditer(rf"({NUMBER})\s?(?:個|个|개)?", text):
        value = number(m.group(1))
        if value is None:
            continue
        for unit, words in UNIT_WORDS.items():
            if re.compile(rf"\s?(?:{words})", re.IGNORECASE).match(text, m.end()):
                out.append((m.start(), Amount(value, unit)))
                break
    return out


# ── money ────────────────────────────────────────────────────────────────────────────────
_CODES = {"usd": "USD", "eur": "EUR", "jpy": "JPY", "cny": "CNY", "krw": "KRW", "php": "PHP"}
# A currency named without a sum ("in renminbi", "엔화로", "naka-peso").
_CURRENCY_WORDS = [
    (r"\bpesos?\b|\bpiso\b|₱|\bPHP\b|naka-?peso", "PHP"),
    (r"\byen\b|円|日元|엔화|\bJPY\b", "JPY"),
    (r"(?<=\d)\s?won\b|원화|만\s?원|(?<=\d)\s?원|₩|\bKRW\b", "KRW"),
    (r"\byuan\b|\brmb\b|人民币|(?<=\d)\s?[元块]|\bCNY\b|\brenminbi\b", "CNY"),
    (r"\beuros?\b|€|\bEUR\b", "EUR"),
    (r"\bdollars?\b|\bbucks\b|\$|\bUSD\b|달러|美元|ドル|\bdolyar\b", "USD"),
]
_SAVING = (
    r"\bsav(?:e|ing)\b|\bsave up\b|\bsavings\b|\bfund\b|\bputting in\b|\bput away\b|貯金|貯め|ためたい|積み立て|"
    r"모으|모아|저축|적금|存钱|攒钱|存了|储蓄|攒|\bipon\b|\bnag-?iipon|\bmag-?ipon|\bput(?:ting)? aside|\bset aside"
)
_BUDGET = r"\bbudget|予算|まで|以内|안에서|이내|한도|预算|以内|不超过|\bbadyet"


def _money(text: str) -> tuple[list[Amount], str | None]:
    spelled = re.sub(r"(\d)\s?k\s+(pesos?|dollars?|bucks|euros?)", r"\g<1>000 \2", text, flags=re.IGNORECASE)
    spelled = re.sub(r"천만\s?원", "10000000원", spelled)
    sums = []
    for word in unit_words(spelled):
        m = re.fullmatch(r"(\d+(?:p\d+)?)(usd|eur|jpy|cny|krw|php)", word)
        if m:
            sums.append(Amount(float(m[1].replace("p", ".")), _CODES[m[2]]))
    currency = next((code for words, code in _CURRENCY_WORDS if _any(words, text)), None)
    if sums and currency and len({s.unit for s in sums}) > 1:  # ¥ reads as yen and yuan: the words decide
        sums = [s for s in sums if s.unit == currency]
    return list(dict.fromkeys(sums)), currency or (sums[0].unit if sums else None)


# ── people ───────────────────────────────────────────────────────────────────────────────
_ME = (
    r"\bme\b|\bmyself\b|私|わたし|僕|俺|(?<![가-힣])나(?=[,，、\s]|랑|하고|와|도)|"
    r"(?<![\u4e00-\u9fff])我(?=[和、，,]|倒|做|洗|$)|\bako\b"
)
# Capitalised words that are not people (and the months, weekdays, languages and units).
_NOT_NAMES = frozenset(
    """I I'm I'd I've Im NOT OK US UK USD PHP JPY KRW CNY EUR Celsius Fahrenheit English Spanish Japanese
    Korean Chinese Tagalog Filipino French German Monday Tuesday Wednesday Thursday Friday Saturday Sunday
    January February March April May June July August September October November December Enero Pebrero
    Marso Abril Mayo Hunyo Hulyo Agosto Setyembre Oktubre Nobyembre Disyembre Lunes Martes Miyerkules
    Huwebes Biyernes Sabado Linggo Mum Mom Dad Lola Lolo Ate Kuya Tita Tito Doc Christmas Easter""".split()
)
# Words after which a name follows (a relation, or Tagalog's name markers).
_EN_BEFORE_NAME = (
    r"(?:\bsister|\bbrother|\bwife|\bhusband|\bfriend|\broommate|\bflatmate|\bpartner|\bson|\bdaughter)s?\s+"
)
_EN_LIST = r"(?:\bme\b|[A-Z][a-z]+)(?:\s*(?:,|\band\b|\bor\b|&)\s*(?:\bme\b|[A-Z][a-z]+))+"
_HOUSEMATES = (
    r"\broom-?mates?|\bflat-?mates?|\bhouse-?mates?|ルームメイト|同居人|룸메|室友|合租|\bkasama sa (?:bahay|kwarto)"
)
# Tagalog's name markers, and the kin words said before a name ("kay Ate Rose": Rose).
_TL_MARKER = r"\b(?:si|ni|nila|kay|kina|sina)\s+(?:(?:[Aa]te|[Kk]uya|[Tt]ita|[Tt]ito|[Nn]inang|[Nn]inong)\s+)?"
_JA_RELATION = r"(?:夫|妻|主人|彼氏|彼女|友達|友人|ルームメイト|同居人|息子|娘|兄|姉|弟|妹|母|父|同僚)の"
_JA_NAME = r"[\u4e00-\u9fff\u3041-\u3096\u30a1-\u30fa]{1,4}?"
_KO_RELATION = r"(?:룸메이트|룸메|친구|동생|언니|오빠|누나|형|남편|아내|와이프|애인|남친|여친|동료)\s*"
_ZH_RELATION = r"(?:室友|朋友|同学|同事|老公|老婆|男朋友|女朋友|哥哥|姐姐|弟弟|妹妹)"
_JA_KIN = r"祖母|祖父|母|父|夫|妻|姉|兄|妹|弟|娘|息子"
_JA_NOT_NAMES = frozenset(("赤", "お母", "お父", "お兄", "お姉", "おばあ", "おじい"))
_KO_NAME = r"(?!들|누구|우리|저희|가족|사람)[가-힣]{2}"  # 친구들이랑, 누구한테: not names
_KO_LIST = rf"((?:{_KO_NAME}(?:이)?(?:랑|하고|와|과|,\s*)\s*)*{_KO_NAME})(?:이)?(?:랑|하고|와|과|한테|,)"
_ZH_KIN = r"爸爸|妈妈|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|老公|老婆"
_ZH_NAME = r"(?:小|阿|老)(?![时孩朋区说师板家公婆人姨])[\u4e00-\u9fff]"


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
        acts = re.match(r"\s+(?:owes|does|did|takes|has|pays|paid|cooks|cleans|washes)\b", text[m.end() :])
        if m.group(1) in listed or acts or _any(_EN_BEFORE_NAME + "$", text[: m.start()]):
            add(m.start(), m.group(1))
    for m in re.finditer(_TL_MARKER + r"([A-Z][a-z]+)(?:\s+at\s+([A-Z][a-z]+))?", text):
        add(m.start(1), m.group(1))
        if m.group(2):
            add(m.start(2), m.group(2))
    # Japanese: 田中さん, 夫の健太と私, 友達のさくらとゆいに.
    for m in re.finditer(rf"({_JA_NAME})(?:さん|くん|君|ちゃん(?!と))", text):  # not ちゃんと (properly)
        if m.group(1) not in _JA_NOT_NAMES and not m.group(1).endswith("屋"):  # 赤ちゃん, ラーメン屋さん
            add(m.start(1), m.group(1))
    for m in re.finditer(rf"{_JA_RELATION}((?:{_JA_NAME}(?:と|・|、))*{_JA_NAME})(?=と|に|で|が|・|、)", text):
        for name in re.split(r"[と・、]", m.group(1)):
            if name not in ("私", "わたし", "僕", "俺"):
                add(m.start(1), name)
    # Japanese kin said with 私 ("母と私で", "私と夫で"): the relation is the person's name here.
    for m in re.finditer(rf"(?:(?<=私と)|(?<=僕と))({_JA_KIN})|({_JA_KIN})(?=と(?:私|僕))", text):
        add(m.start(), m.group(1) or m.group(2))
    # Korean: 수진이한테, 룸메이트 지훈이랑 민수랑, a comma list with 나.
    for m in re.finditer(rf"(?<![가-힣])({_KO_NAME})(?:이)?(?:한테|에게|께)", text):
        add(m.start(1), m.group(1))
    for m in re.finditer(_KO_RELATION + _KO_LIST, text):
        for name in re.findall(rf"({_KO_NAME})(?:이)?(?:랑|하고|와|과|,|$)", m.group(1) + ","):
            add(m.start(1), name)
    if re.search(r"(?:^|[,，]\s*)나\s*[,，]", text):
        for m in re.finditer(r"(?<=[,，])\s*([가-힣]{2})(?=\s*[,，]|\s+[가-힣]{2}\s)", text):
            add(m.start(1), m.group(1))
    # Chinese: 室友小王、阿杰; 爸爸洗碗，妈妈做饭; 李明500，张伟200.
    for m in re.finditer(_ZH_NAME, text):
        add(m.start(), m.group(0))
    if len(re.findall(_ZH_KIN, text)) >= 2:
        for m in re.finditer(_ZH_KIN, text):
            add(m.start(), m.group(0))
    for m in re.finditer(rf"{_ZH_RELATION}([\u4e00-\u9fff]{{2}})(?=[、，,和])", text):
        add(m.start(1), m.group(1))
    after_colon = text[text.find("：") :] if "：" in text else ""  # 朋友借了我的钱：李明500，张伟200
    for m in re.finditer(r"(?<=[：:，,、])([\u4e00-\u9fff]{2,3})(?=\d)", after_colon):
        add(len(text) - len(after_colon) + m.start(1), m.group(1))
    names = [n for _, n in sorted(found)]
    if names and "me" not in names and _any(_HOUSEMATES, text):
        return [*names, "me"]  # the person lives with their roommates: one of those who share
    me = re.search(_ME, text, re.IGNORECASE)
    if me and (names or _any(r"\bbetween\b|分担|당번|分工|轮流|toka|\bturns?\b", text)):
        names = ["me", *names] if me.start() < min((p for p, _ in found), default=len(text)) else [*names, "me"]
    return names


# ── lists: categories, an item's details ──────────────────────────────────────────────────
_SEPARATORS = (
    r"\s*(?:,(?!\d{3})|、|，|\+|&|/)\s*|\s+(?:and|or|at)\s+|"
    r"(?<=[\u3040-\u30ff\u4e00-\u9fff])[と和](?=[\u4e00-\u9fff\u30a0-\u30ff])|(?<=[가-힣])(?:이랑|랑|하고)\s+"
)
_LEAD_WORDS = r"^(?:(?:for|with|of|on|in|sa|ng|para sa|the|my|our|a|an|mga)\s+|分|也|还有|按)+"
_TAIL_WORDS = r"\s*(?:も|도|메모|기록|notes?|記録|记录|的|ko|namin)$"
_NOT_LISTED = r"\d|\b(?:me|score|scores|rating|stars?)\b|点数|별점|평점|打分|评分|\bnaka-?|\bpesos?\b|\bmarka\b"


def _listed(text: str, people: list[str]) -> list[str]:
    """The things an enumeration names ("groceries + gas + eating out", "分餐饮、交通、购物",
    "巻数と感想", "분위기랑 가격"): the longest run of two or more short parts. A long part
    before a run gives its words after the last preposition ("budget … for groceries"), a
    long part after it its first word ("internet split three ways")."""
    best: list[str] = []
    for clause in re.split(r"[.!?。！？;；:：]", text):
        run: list[str] = []
        for part in re.split(_SEPARATORS, clause):
            word = _bare(part)
            if _short(word, people):
                run.append(word)
                continue
            latin = not has_cjk_text(part)
            if run and latin and _short(first := _bare(part.split()[0] if part.split() else ""), people):
                run.append(first)
            best = max(best, run, key=len)
            tail = _bare(re.split(r"\b(?:for|with|of|on|sa|ng|para sa)\b", part)[-1]) if latin else ""
            run = [tail] if tail != word and _short(tail, people) else []
        best = max(best, run, key=len)
    return best if len(best) >= 2 else []


# What a list is of, in each language's way of saying it.
_ITEM_NOUN = (
    r"(?:收藏|看过|读过|去过|喝过|买过)的([\u4e00-\u9fff]{1,4}?)(?=[，,、和]|$)",
    r"([\u30a0-\u30ff\u4e00-\u9fff]{1,6})の(?:一覧|リスト|コレクション)",
    r"([가-힣]{1,6})\s*(?:목록|리스트|컬렉션)",
    r"\b(?:list|collection|catalogue) of (?:my |the |all )?(\w+)",
    r"\blistahan ng mga (\w+)",
)
_WITH_WHOM = (
    r"\bwith whom\b|\bwho (?:i|we) (?:went|watched|saw|ate) (?:it )?with\b|誰と|누구(?:랑|와|하고)|和谁|跟谁|"
    r"\bkasama (?:sino|ko)"
)


def _bare(part: str) -> str:
    return re.sub(_TAIL_WORDS, "", re.sub(_LEAD_WORDS, "", part.strip(), flags=re.IGNORECASE)).strip()


def _short(word: str, people: list[str]) -> bool:
    limit = 4 if has_cjk_text(word) and " " not in word else 18
    fits = 0 < len(word) <= limit and len(word.split()) <= 2
    named = any(p in word for p in people) or _any(_ME, word)
    return fits and not named and not _any(_NOT_LISTED, word)


def has_cjk_text(text: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text) is not None


# ── time: periods, times of day, dates and events ─────────────────────────────────────────
_PERIODS = {
    "daily": r"\ba day\b|\bper day\b|\beach day\b|\bevery ?day\b|\bdaily\b|1日|一日|毎日|하루|매일|每天|每日|一天|"
    r"\baraw-araw\b|\bkada araw\b|\bbawat araw\b",
    "weekly": r"\bweekly\b|\bevery week\b|\ba week\b|\bper week\b|毎週|週に|매주|주에|每周|每星期|"
    r"\blinggo-linggo|\bkada linggo",
    "monthly": r"\bmonthly\b|\ba month\b|\bper month\b|\bthis month\b|毎月|今月|月に|매달|매월|이번 달|한 달|"
    r"每月|这个月|"
    r"\bkada buwan\b|\bbuwan-buwan\b",
}
TIMES = {
    "fasting": r"\bfasting\b|\bempty stomach\b|\bbefore (?:meals|eating|breakfast)\b|空腹|공복|\bbago kumain",
    "after_meal": r"\bafter (?:meals?|eating|dinner|lunch|breakfast)\b|\b\d\s?h(?:ours?)? after\b|食後|식후|餐后|饭后|"
    r"\bpagkatapos kumain",
    "morning": r"\bmornings?\b|朝(?!昼)|毎朝|아침|오전|早上|早晨|早班|早(?=晚)|\bumaga\b",
    "afternoon": r"\bafternoons?\b|午後|오후|下午|\bhapon\b",
    "evening": r"\bevenings?\b|\bnights?\b|(?<!朝昼)晩|夜|夕方|저녁|밤|晚上|晚班|(?<=早)晚|\bgabi\b",
}
_TWICE = r"\btwice a day\b|하루 두 번|一日二回|一天两次|\bdalawang beses"
_CHECK = (
    r"\bdid i take\b|\bor not\b|\bwhether i\b|\bjust (?:want )?(?:a )?tick|\ba tick\b|\btick (?:it|a box)\b|"
    r"かどうか|飲んだか|した(?:か|かどうか)だけ|먹었는지|했는지|체크만|"
    r"有没有吃|有没有|了没有|打个?勾|打卡就行|"
    r"\bcheck lang\b|\bnainom na\b|\bkung nainom"
)
_HOW_MANY = r"\bhow (?:many|much)\b|何[杯回本個]|몇\s*(?:잔|번|개|ml)|几[杯次个]|多少|\bilang\b"
_EVERY = (
    r"\bevery \d+ (?:days?|weeks?)\b|\bevery (?:few|couple of) days\b|(?<![\d年])[週月]1(?![\d日])|日おき|"
    r"며칠에 한 번|며칠마다|"
    r"间隔|隔\d+天|每隔|\bkailan (?:ulit|huling)|\bhuling dinilig"
)
# The days counted down to, each kind in every language ("wedding" and "結婚式" are one day).
_EVENT_KINDS = {
    "wedding": r"\bwedding\b|結婚式|결혼식|婚礼|\bkasal\b",
    "exam": r"\bexam\b|試験|受験|시험|수능|考试|高考|\bpagsusulit\b",
    "birthday": r"\bbirthday\b|誕生日|생일|생신|生日|\bkaarawan\b",
    "trip": r"\btrip\b|\bvacation\b|\bholiday\b|旅行|여행|\bbiyahe\b",
    "anniversary": r"\banniversary\b|記念日|기념일|纪念日|\banibersaryo\b",
    "move": r"\bmove\b|引っ越し|이사|搬家",
    "concert": r"\bconcert\b",
    "christmas": r"\bchristmas(?: break)?\b|クリスマス|크리스마스|圣诞节?|\bpasko\b",
    "new year": r"\bnew year\b|春节",
    "graduation": r"\bgraduation\b|卒業式|졸업식|毕业典礼",
}
_EVENTS = "|".join(_EVENT_KINDS.values())


def event_kind(said: str) -> str:
    """Which day an event names ("結婚式" → "wedding"); what was said when no kind is known."""
    return next((kind for kind, words in _EVENT_KINDS.items() if re.search(words, said, re.IGNORECASE)), said)


_GOAL = (
    r"(?:\bgoal(?: is)?|\btarget|\baim(?:ing)? (?:for|at)|\bat least|\bcut down to|\bup to|\bmax|\bdapat|\bgusto ko|"
    r"目標は?|目标|至少|목표|최소)\s*"
)


def _date(text: str, today: date) -> str | None:
    """The first day a date in the idea names, the next such day when no year is said."""
    from macaron_cli.memory.when import time_spans

    for span in time_spans(text, datetime.combine(today, datetime.min.time())).spans:
        if (span.end - span.start).days != 1 or not re.search(r"\d|[一二三四五六七八九十]+[月월]", span.said):
            continue  # a weekday ("every Monday") is a repeat, not a day counted down to
        day = span.start
        if day < today and str(day.year) not in span.said:
            day = day.replace(year=day.year + 1)
        return day.isoformat()
    return None


def _goal(text: str, amounts: list[tuple[int, Amount]]) -> Amount | None:
    """A number said as a goal or a limit: after goal words ("goal 10,000", "目标八千步"), before
    limit words ("2杯まで", "3잔 넘으면"), or the one amount an idea names ("2 coffees a day")."""
    m = re.search(_GOAL + rf"({NUMBER})", text, re.IGNORECASE) or re.search(
        rf"({NUMBER})\s?[^\d\s]{{0,3}}(?:が目標|まで|は寝たい|넘으면|목표|이상|以上)", text
    )
    if m:
        value = number(m.group(1))
        said = next((a for at, a in amounts if at == m.start(1)), None)
        return said or (Amount(value, "") if value else None)
    after_meal = [m.span() for m in re.finditer(TIMES["after_meal"], text, re.IGNORECASE)]
    # "2h after dinner", "식후 2시간": when a reading is taken, not a goal
    amounts = [(at, a) for at, a in amounts if not any(s - 8 <= at <= e + 2 for s, e in after_meal)]
    return amounts[0][1] if len(amounts) == 1 else None


def read(idea: str, today: date | None = None) -> Slots:
    """The slots an idea fills."""
    text = idea.strip()
    units, refused = _units(text)
    amounts = _amounts(text)
    money, currency = _money(text)
    saving, budgeting = _any(_SAVING, text), _any(_BUDGET, text)
    if not saving and money and not budgeting:
        saving = _any(_GOAL, text)  # "aiming for 40k pesos": a sum to reach
    lone = [Amount(v, currency or "") for v in _bare_sums(text)] if not money and (saving or budgeting) else []
    sums = money or lone
    times = [t for t, words in TIMES.items() if _any(words, text)]
    if _any(_TWICE, text):
        times = list(dict.fromkeys([*times, "morning", "evening"]))
    event = _any(_EVENTS, text)
    found = {
        name: m.group(0)
        for name, m in (("check", _any(_CHECK, text)), ("every", _any(_EVERY, text)), ("event", event))
        if m
    }
    people = _people(text)
    return Slots(
        people=tuple(people),
        listed=tuple(_listed(text, people)),
        item=next((m.group(1) for p in _ITEM_NOUN if (m := re.search(p, text, re.IGNORECASE))), None),
        with_whom=with_whom.group(0) if (with_whom := _any(_WITH_WHOM, text)) else None,
        units=tuple(units),
        refused=tuple(refused),
        amounts=tuple(a for _, a in amounts if a.unit not in refused),
        money=tuple(sums),
        currency=currency,
        goal=_goal(text, [(at, a) for at, a in amounts if a.unit not in refused]),
        target=max(sums, key=lambda a: a.value) if saving and sums else None,  # the goal, not each deposit
        budget=sums[0] if budgeting and sums and not saving else None,
        period=next((p for p, words in _PERIODS.items() if _any(words, text)), None),
        times=tuple(times),
        # "how many ml did she drink", "何杯飲んだか" count: a reading, not taken-or-not
        check="check" in found and not set(units) - {"times"} and not _any(_HOW_MANY, text),
        every="every" in found,
        event=event.group(0) if event else None,
        date=_date(text, today or date.today()),
        found=found,
    )


def _bare_sums(text: str) -> list[float]:
    """Sums said without a currency ("30,000 ang target"): numbers of four digits or more."""
    return [v for m in re.finditer(NUMBER, text) if (v := number(m.group(0))) and v >= 1000]
