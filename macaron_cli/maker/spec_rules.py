"""Writing an app's spec from the idea by rules, with no model (en, ja, ko, zh, tl).

The rules read what people say ("毎朝の体重", "几杯咖啡", "blood pressure morning and
evening", "listahan ng mga utang ko") for the few things a spec holds: which measures
with which units, whether money is split or owed, a collection of items with a rating,
chores with people and repeats, a countdown, which unit families to convert, a journal.
A model, when there is one, writes the spec itself (validated the same way).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from macaron_cli import lang
from macaron_cli.maker.slots import OTHER_SYSTEM, Slots, read
from macaron_cli.maker.spec import AppSpec, Conversion, Items, Journal, Measure, Money, Tasks


def _found(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE)


# ── measures ─────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class _Kind:
    """One kind of measure people log, the words that name it and its sensible defaults."""

    words: str
    unit: str
    kind: str
    goal: float | None
    step: float
    free_entry: bool = False
    values: tuple[str, ...] = ()


# Order matters where words overlap: blood pressure before pressure-free words, coffee and
# tea before water ("drink"), body weight before the converter's weights.
MEASURES: dict[str, _Kind] = {
    "blood_pressure": _Kind(
        r"blood\s*pressure|\bbp\b|血圧|혈압|血压|presyon(?: ng dugo)?",
        "mmHg",
        "quantity",
        None,
        1,
        free_entry=True,
        values=("systolic", "diastolic"),
    ),
    "blood_sugar": _Kind(
        r"blood\s*sugar|glucose|血糖|혈당|asukal sa dugo", "mg/dL", "quantity", None, 1, free_entry=True
    ),
    "pulse": _Kind(
        r"\bpulse\b|\bheart ?rate\b|脈拍|心拍|맥박|심박|心率|脉搏|\bpulso", "bpm", "quantity", None, 1, free_entry=True
    ),
    "body_fat": _Kind(
        r"\bbody ?fat\b|体脂肪|체지방|体脂|\btaba sa katawan", "percent", "quantity", None, 0.1, free_entry=True
    ),
    "feeding": _Kind(
        r"\bbottles?\b|\bfeed(?:s|ing)?\b|\bformula\b|ミルク|授乳|수유|분유|喂奶|奶量|\bpagdede|\bdumede",
        "milliliter",
        "quantity",
        None,
        10,
        free_entry=True,
    ),
    "body_weight": _Kind(
        r"\bweigh(?:t|ing)?\b(?!\s*(?:to|into)\b)(?!\s*in (?:pounds|lbs?|kg|kilos?)\s+(?:to|into)\b)|体重|몸무게|체중|"
        r"\btimbang(?: ko)?\b|\bbigat ko\b",
        "kilogram",
        "quantity",
        None,
        0.1,
        free_entry=True,
    ),
    "coffee": _Kind(r"\bcoffees?\b|\blattes?\b|espresso|コーヒー|커피|咖啡|\bkape\b", "cups", "count", None, 1),
    "tea": _Kind(r"\bteas?\b(?!spoon)|お茶|紅茶|緑茶|\b차를|茶(?!匙)|\btsaa\b", "cups", "count", None, 1),
    "water": _Kind(
        r"\bwater\b|\bhydrat|水分|飲み水|水を.{0,4}飲|お水|\b물\b|물\s*마시|물을|수분|喝.{0,3}水|饮水|\btubig",
        "milliliter",
        "quantity",
        2000,
        250,
    ),
    "sleep": _Kind(
        r"\bsleep|\bslept|\bbedtime|睡眠|寝た|眠り|수면|잠을|잤|\b잠\b|\b잔\s*시간|睡觉|睡了|tulog",
        "hour",
        "duration",
        8,
        0.5,
        free_entry=True,
    ),
    "steps": _Kind(
        r"\bsteps?\b|\bwalk|歩数|歩いた|散歩|걸음|만보|걷기|步数|走路|散步|走了|走多少步|\d+\s*步|\bhakbang|\blakad",
        "steps",
        "count",
        8000,
        1000,
        free_entry=True,
    ),
    "medication": _Kind(
        r"\bmedic|\bpills?\b|\btablets?\b|\bvitamins?|\binsulin|\bshots?\b|インスリン|인슐린|胰岛素|服薬|薬を|お薬|"
        r"약\s*복용|약을|\b약\b|(?<=[가-힣])약(?=\s|을|은|$)|복약|영양제|吃药|服药|[压糖]药|维生素|"
        r"\bgamot|bitamina",
        "times",
        "count",
        1,
        1,
    ),
    "exercise": _Kind(
        r"\bexercis|\bworkouts?|\bgym\b|\btraining|\bjog|\brun(?:s|ning)?\b|運動|筋トレ|ジョギング|ランニング|트레이닝|운동|"
        r"러닝|달리기|"
        r"运动|锻炼|健身|跑步|\behersisyo|\btakbo",
        "minute",
        "duration",
        30,
        10,
        free_entry=True,
    ),
    # Said by its own name, a stretch is shown as one ("did I stretch": not "Exercise").
    "stretching": _Kind(r"\bstretch|ストレッチ|스트레칭|拉伸|\bunat\b|\bpag-?uunat", "minute", "duration", 10, 5),
    "reading": _Kind(
        r"\bread(?:ing)?\b|\bpages?\b|読書|本を読|ページ|독서|책\s*읽|쪽|페이지|阅读|读书|看书|看.{0,6}书|页|\bpahina|\bpagbasa|\bbasa\b",
        "pages",
        "count",
        20,
        5,
        free_entry=True,
    ),
    "meditation": _Kind(r"\bmeditat|\bmindful|瞑想|명상|冥想|打坐|\bmeditasyon", "minute", "duration", 10, 5),
    "practice": _Kind(
        r"\bpractis|\bpractic|\bpiano|\bguitar|\bviolin|練習|연습|练习|练琴|钢琴|吉他|\bensayo|\bpraktis",
        "minute",
        "duration",
        20,
        10,
        free_entry=True,
    ),
    "vegetables": _Kind(r"\bvegetables?|\bveggies?|野菜|채소|야채|蔬菜|吃菜|\bgulay", "servings", "count", 5, 1),
    "glasses": _Kind(r"\bglass(?:es)?\b|\bbaso\b|杯|잔", "glasses", "count", None, 1),
}
# Measures that follow from another's words and a unit said (a run in km; how long it took).
_KINDS = MEASURES | {
    "running": _Kind("", "kilometer", "quantity", None, 0.1, free_entry=True),
    "run_time": _Kind("", "minute", "duration", None, 1, free_entry=True),
    "pace": _Kind("", "min/km", "quantity", None, 0.1, free_entry=True),
}
# Words in lang/: a unit asked for by name wins over the measure's own ("cups of water",
# "how many glasses": asked_unit.<unit>); a thing counted that is none of the kinds above
# ("how many times I called mum": counted); measure.morning, measure.evening, measure.twice.

# A goal said in one unit, for a measure kept in another ("2 litres" of water kept in ml).
_SCALE = {("liter", "milliliter"): 1000, ("hour", "minute"): 60, ("minute", "hour"): 1 / 60}


def _unit_of(key: str, kind: _Kind, text: str, app_settings: dict, slots: Slots) -> tuple[str, float | None, float]:
    """The unit a measure is kept in: the one the idea said (not one it refused), else the
    person's ways (imperial, cups), else the kind's own; with the goal and step in it."""
    unit, goal, step = kind.unit, kind.goal, kind.step
    said = [u for u in slots.units if u not in slots.refused]
    refused_other = [OTHER_SYSTEM[u] for u in slots.refused if u in OTHER_SYSTEM]
    if key == "water" and (app_settings.get("volume_unit") == "cup" or _found(lang.pattern("asked_unit.cups"), text)):
        unit, goal, step = "cups", 8, 1
    elif key == "water" and _found(lang.pattern("asked_unit.glasses"), text):
        unit, goal, step = "glasses", 8, 1
    elif key == "body_weight":
        chosen = next((u for u in [*said, *refused_other] if u in ("kilogram", "pound")), None)
        unit = chosen or ("pound" if app_settings.get("units") == "imperial" else "kilogram")
        step = 0.2 if unit == "pound" else step
    elif key == "blood_sugar":
        unit = next((u for u in [*said, *refused_other] if u in ("mmol/L", "mg/dL")), unit)
        step = 0.1 if unit == "mmol/L" else step
    elif key in ("running", "pace"):
        distance = next((u for u in [*said, *refused_other] if u in ("kilometer", "mile")), "kilometer")
        unit = distance if key == "running" else {"kilometer": "min/km", "mile": "min/mi"}[distance]
    elif key == "steps" and _found(r"\bkm\b|\bkilomet|킬로|公里|キロ", text):
        unit, goal, step = "kilometer", 5, 0.5
    if slots.goal is not None:
        factor = 1.0 if slots.goal.unit in ("", unit) else _SCALE.get((slots.goal.unit, unit))
        if factor is not None:
            goal = round(slots.goal.value * factor, 2)
    return unit, goal, step


def _measure(key: str, kind: _Kind, text: str, app_settings: dict, name: str, slots: Slots) -> Measure:
    unit, goal, step = _unit_of(key, kind, text, app_settings, slots)
    measured, free_entry = kind.kind, kind.free_entry
    if slots.check and not kind.values:  # "did I stretch, just a tick": done or not, once a day
        unit, goal, step, measured, free_entry = "times", 1, 1, "count", False
    times: tuple[str, ...] = ()
    if (_found(lang.pattern("measure.morning"), text) and _found(lang.pattern("measure.evening"), text)) or _found(
        lang.pattern("measure.twice"), text
    ):
        times = ("morning", "evening")
    elif _found(lang.pattern("measure.morning"), text):
        times = ("morning",)
    elif _found(lang.pattern("measure.evening"), text) and key not in ("sleep",):
        times = ("evening",)
    if key not in ("sleep", "steps", "water"):  # occasions: a reading before and after meals
        occasions = tuple(t for t in slots.times if t in ("fasting", "after_meal", "afternoon"))
        times = tuple(dict.fromkeys([*occasions, *times])) if occasions else times
    return Measure(
        key=key,
        name=name,
        unit=unit,
        kind=measured,
        goal=goal,
        step=step,
        free_entry=free_entry,
        values=kind.values,
        times=times,
    )


def measures_of(text: str, app_settings: dict, name: str, slots: Slots | None = None) -> list[Measure]:
    """The measures an idea names, in the order it names them."""
    slots = slots or read(text)
    found: list[tuple[int, str]] = []
    for key, kind in MEASURES.items():
        match = _found(kind.words, text)
        if match:
            found.append((match.start(), key))
    keys = [key for _, key in sorted(found)]
    # A unit word is not a thing of its own when something else is counted in it.
    if len(keys) > 1 and "glasses" in keys:
        keys.remove("glasses")
    if "coffee" in keys or "tea" in keys:
        keys = [k for k in keys if k not in ("water", "glasses")]
    if "blood_pressure" in keys:
        keys = [k for k in keys if k != "body_weight" or _found(r"体重|몸무게|체중|\bweigh", text)]
    if "feeding" in keys:  # a baby's milk is fed, not drunk as the person's water
        keys = [k for k in keys if k not in ("water", "glasses", "medication")]
    if "body_fat" in keys and not _found(r"体重|몸무게|체중|\bweigh|\btimbang", text):
        keys = [k for k in keys if k != "body_weight"]  # "body fat" is not a weight of its own
    if slots.check and "medication" in keys:  # "did I take my blood-pressure pill": taken or not, no reading
        keys = [k for k in keys if k not in ("blood_pressure", "blood_sugar", "pulse")]
    if (
        "exercise" in keys
        and _found(lang.pattern("distance"), text)
        and {"kilometer", "mile"} & {*slots.units, *slots.refused}
    ):
        keys[keys.index("exercise")] = "running"  # a distance run, in the unit said
        if _found(r"\bhow long\b|\btime\b|タイム|시간|时间|用时|\bgaano katagal|\boras\b", text):
            keys.append("run_time")
        if _found(_FAMILIES["pace"], text):
            keys.append("pace")  # minutes per km, beside the distance
    label = name if len(keys) == 1 else ""
    return [_measure(k, _KINDS[k], text, app_settings, label or k.replace("_", " "), slots) for k in keys]


def other_measure(text: str, name: str) -> Measure:
    """One thing to count that no kind names: counted in the unit the idea asks for (a tick
    a day when it asks only whether it was done)."""
    if read(text).check:
        return Measure(key="habit", name=name, unit="times", kind="count", goal=1, step=1)
    unit = next((u for u in lang.ASKED_UNITS if _found(lang.pattern(f"asked_unit.{u}"), text)), "times")
    kind = "duration" if unit in ("hour", "minute") else "count"
    return Measure(key="habit", name=name, unit=unit, kind=kind, goal=None, step=1, free_entry=unit != "times")


# ── money ────────────────────────────────────────────────────────────────────────────────
# Money's words are lang's money.debts, money.split and money.said; kinds of spending by the
# budget's own category keys (translated there) are lang's spending.<key>.

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


def money_of(text: str, app_settings: dict, *, conversion: bool, slots: Slots | None = None) -> Money | None:
    """Money the idea keeps: in the currency it names (else the person's); a savings target
    said is a goal for deposits, never a budget they overspend; the people it is shared with."""
    slots = slots or read(text)
    debts, split = bool(_found(lang.pattern("money.debts"), text)), bool(_found(lang.pattern("money.split"), text))
    said = slots.target or slots.budget
    if not (debts or split or ((_found(lang.pattern("money.said"), text) or said) and not conversion)):
        return None
    currency = slots.currency or str(app_settings.get("currency") or "USD")
    people = slots.people
    if (debts or split) and people and "me" not in people:
        people = ("me", *people)  # the person is one side of every debt and every split
    if slots.target:
        # Deposits toward it, in a category of their own: never counted against a budget.
        target = slots.target.value
        return Money(currency, ("savings",), people, debts=debts, split=split, target=target)
    # A budget said; else the usual one, but never for money shared or lent (nobody asked for it).
    budget = slots.budget.value if slots.budget else None if debts or split else MONTHLY_BUDGET.get(currency)
    # "groceries + gas + eating out", "分餐饮、交通、购物"; else the one kind of spending named (食費)
    categories = slots.listed or tuple(k for k in lang.SPENDING if _found(lang.pattern(f"spending.{k}"), text))[:1]
    return Money(currency, categories, people, debts=debts, split=split, budget=budget)


# ── items: a collection ──────────────────────────────────────────────────────────────────
_ITEMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "book": (
        r"\bbooks?\b|\bnovels?\b|\bmanga\b|漫画|マンガ|만화|本(?!当)|読んだ本|책|书|\bnobela|\blibro",
        ("author", "lent to"),
    ),
    "film": (r"\bfilms?\b|\bmovies?\b|\bdramas?\b|映画|ドラマ|영화|드라마|电影|电视剧|\bpelikula", ("year", "where")),
    "restaurant": (
        r"\brestaurants?\b|\bcaf[eé]s?\b|\bramen\b|\bplaces to eat|レストラン|カフェ|喫茶|居酒屋|ラーメン|お店|店|"
        r"식당|맛집|카페|餐厅|饭店|馆子|咖啡馆|"
        r"\bkainan|\brestawran",
        ("place", "dish"),
    ),
    "wine": (r"\bwines?\b|\bbeers?\b|\bsake\b|ワイン|와인|葡萄酒|红酒|\balak\b", ("region", "price")),
    "recipe": (r"\brecipes?\b|レシピ|레시피|食谱|菜谱|\bresipe", ("ingredients",)),
    "plant": (
        r"\bplants?\b|植物|식물|화분|多肉|\bhalaman|\bfern|\bcact(?:us|i)\b|\bmonstera|\bpothos|\bsucculents?|"
        r"\borchids?|\bbonsai|モンステラ|サボテン|観葉|몬스테라|선인장|绿萝|仙人掌|盆栽",
        ("watered",),
    ),
    "game": (r"\bboard games?\b|\bvideo games?\b|ゲーム|게임|游戏|\blaro\b", ("platform",)),
}
_RATING = (
    r"\brat(?:e|ed|ing|ings)\b|\bstars?\b|\bscores?\b|\bfavou?rites?\b|\bbest\b|\bliked?\b|評価|点数|星|お気に入り|"
    r"평점|별점|점수|좋아|评分|打.{0,2}分|喜欢|\bmarka\b|\bpaborito|\bgusto namin"
)
_COLLECTION = (
    r"\bcollection|\blist of\b|\bwish ?list|\blent\b|\bread so far|\bwatched|\bvisited|\btried\b|"
    r"コレクション|リスト|一覧|読んだ|観た|見た|行った|목록|리스트|읽은|본\s|가본|收藏|清单|读过|看过|去过|"
    r"\blistahan ng mga|\bnabasa|\bnapanood"
)


def items_of(text: str, slots: Slots | None = None) -> Items | None:
    slots = slots or read(text)
    rated = bool(_found(_RATING, text))
    said = slots.listed + ((slots.with_whom,) if slots.with_whom else ())  # the details each item records
    for name, (words, attributes) in _ITEMS.items():
        watering = _found(r"\bwater(?:ing)?\b|水やり|물\s*주|浇水|\bdilig", text)
        if name == "plant" and slots.every and (_found(words, text) or watering):  # each plant, its own rhythm
            return Items(name=name, attributes=said, rating=rated, every=True)  # last watered: the care itself
        if said and _found(words, text) and (rated or _found(_COLLECTION, text)):
            return Items(name=name, attributes=said, rating=rated)  # the details said, in order
        if _found(words, text) and (rated or _found(_COLLECTION, text)):
            if (
                name == "book"
                and _found(MEASURES["reading"].words, text)
                and not rated
                and not _found(r"\blent\b|貸", text)
            ):
                return None  # reading books is a habit, unless they are kept as a list
            return Items(name=name, attributes=attributes, rating=rated)
    if slots.item and (said or rated) and _found(_COLLECTION, text):  # a list of a thing no kind names (茶叶)
        return Items(name=slots.item, attributes=said, rating=rated)
    return None


# ── tasks: chores, repeats, countdowns ─────────────────────────────────────────────────────
# Tasks' words are lang's tasks.<concept>: chores, things to do, who does them, weekly,
# daily and countdowns.


def tasks_of(text: str, slots: Slots | None = None) -> Tasks | None:
    slots = slots or read(text)
    countdown = bool(_found(lang.pattern("tasks.countdown"), text))
    if not (countdown or _found(lang.pattern("tasks.said") + "|" + lang.pattern("tasks.chores"), text)):
        return None
    chores = bool(_found(lang.pattern("tasks.chores"), text))
    people = slots.people or (("me", "you") if chores and _found(lang.pattern("tasks.assignees"), text) else ())
    weekly, daily = _found(lang.pattern("tasks.weekly"), text), _found(lang.pattern("tasks.daily"), text)
    repeat = "weekly" if weekly else ("daily" if chores and daily else None)
    if countdown:
        return Tasks(countdown=slots.date or "", event=slots.event)
    # A rota's shifts: the times of day said ("mornings and evenings", "早班晚班", "오전 오후").
    shifts = tuple(t for t in slots.times if t in ("morning", "afternoon", "evening"))
    return Tasks(assignees=people, repeat=repeat, shifts=shifts)


# ── conversions ──────────────────────────────────────────────────────────────────────────
# Asking to convert, keeping a record, the verb itself: lang's convert.asked, convert.keeping
# and convert.verb.
_FAMILIES = {
    "pace": r"\bpace\b|min/km|min/mile|minutes? per (?:km|mile)|ペース|페이스|配速|\bbilis ng takbo",
    "shoe_size": r"\bshoe sizes?|\bshoe|靴のサイズ|靴|신발\s*사이즈|신발|鞋码|鞋子尺码|\bsapatos",
    "currency": (
        r"\bexchange rate|\bcurrenc|\bdollars? (?:to|into|in)\b|\bin (?:dollars|pesos|yen|won|euros)\b|"
        r"\byen to\b|\bpesos? to\b|"
        r"為替|円をドル|ドルを円|ドル|환율|달러|원화|汇率|美元|人民币|换成日元|\bpalitan ng pera|\bdolyar|\bpiso\b"
    ),
    "cooking": (
        r"\bcook|\bbak(?:e|ing)\b|\brecipes?\b|\bkitchen|\bcups?\b|\btablespoons?|\bteaspoons?|\btbsp|\btsp|"
        r"料理|レシピ|お菓子|製菓|大さじ|小さじ|計量|요리|레시피|베이킹|계량|烹饪|做饭|厨房|烘焙|食谱|量杯|"
        r"\bluto\b|\bpagluluto|\bresip|\bkutsara|\btasa\b"
    ),
    "temperature": (
        r"\btemperature|\bcelsius|\bfahrenheit|°[cf]\b|\boven|温度|気温|体温|摂氏|華氏|온도|기온|체온|섭씨|화씨|气温|摄氏|华氏|"
        r"\btemperatura"
    ),
    "area": (
        r"\barea\b|\bsquare (?:feet|foot|met)|\bsq ?ft|\btsubo|\bpyeong|\bacres?|\bhectares?|"
        r"面積|坪|넓이|평수|평|면적|面积|平方|\blawak"
    ),
    "speed": r"\bspeed|\bkm/h|\bmph\b|速度|속도|速度|\bbilis\b",
    "length": (
        r"\blength|\bdistance|\bkm\b|\bkilomet|\bmiles?\b|\binch|\bfeet|\bfoot\b|\bcm\b|\bcentimet|長さ|距離|インチ|"
        r"길이|거리|인치|长度|距离|公里|英里|英寸|厘米|\bhaba\b|\blayo\b|\bpulgada"
    ),
    "weight": (
        r"\bweights?\b|\bkg\b|\bkilo|\bpounds?\b|\blbs?\b|\bounces?\b|\bgrams?\b|重さ|무게|重量|公斤|斤|"
        r"\bbigat|\blibra"
    ),
    "volume": r"\bvolume|\bjugs?\b|\blit(?:er|re)s?\b|\bgallons?|\bml\b|容量|体積|부피|용량|容积|体积|\bgalon",
}


# The pair a tab opens with, when the person's ways say so: cooking in cups, to grams or
# spoons; volumes in cups for someone who measures in cups.
_COOKING_PAIR = {"metric": ("cup", "gram"), "imperial": ("cup", "tablespoon")}


def _opening(family: str, app_settings: dict) -> tuple[str, ...]:
    if family == "cooking":
        return _COOKING_PAIR.get(str(app_settings.get("units")), _COOKING_PAIR["metric"])
    if family == "volume" and app_settings.get("volume_unit") == "cup":
        return ("cup", "milliliter")
    return ()


# Units people convert between: two of them named is a conversion ("fahrenheit … celsius").
_UNITS = (
    r"fahrenheit|celsius|華氏|摂氏|화씨|섭씨|华氏|摄氏|\bkm\b|kilomet|\bmiles?\b|\bkg\b|\bpounds?\b|\blbs?\b|"
    r"\binch(?:es)?\b|\bcm\b|centimet|\bfeet\b|\bmeters?\b|\bmetres?\b|坪|平米|평|제곱미터|平方米|"
    r"\bpulgada|\bsentimetro|\bmetro\b|\bcups?\b|\bgrams?\b|\bounces?\b|\bml\b"
)


def converting(text: str, slots: Slots | None = None) -> bool:
    """Whether the idea asks to convert: a verb of converting, or two units named (a unit
    refused is not one of them: "in kg, not pounds" keeps a record in kg)."""
    slots = slots or read(text)
    if slots.refused or _found(
        lang.pattern("convert.keeping"), text
    ):  # "log it in kilos, not pounds": a record in one unit
        return bool(_found(lang.pattern("convert.verb"), text))
    if _found(lang.pattern("convert.asked"), text):
        return True
    if _found(_FAMILIES["pace"], text) and not _found(lang.pattern("distance"), text):
        return True  # a pace beside a run is something the run records
    named = {m.group(0).casefold() for m in re.finditer(_UNITS, text, re.IGNORECASE)}
    return len(named) >= 2


# Units a converter names, as people write them: family → unit id (the converter's) → words.
_CONVERTER_UNITS: dict[str, dict[str, str]] = {
    "weight": {
        "ounce": r"\boz\b|\bounces?\b|オンス|온스|盎司",
        "gram": r"\bgrams?\b|(?<=\d)\s?g\b|グラム|그램|克(?!力)",
        "kilogram": r"\bkg\b|\bkilos?(?:grams?)?\b|キロ|킬로|公斤",
        "pound": r"\blbs?\b|\bpounds?\b|ポンド|파운드|磅",
    },
    "length": {
        "inch": r"\binch(?:es)?\b|インチ|인치|英寸|\bpulgada",
        "centimeter": r"\bcm\b|centimet|センチ|센티|厘米|公分|\bsentimetro",
        "kilometer": r"\bkm\b|kilomet|キロメートル|킬로미터|公里",
        "mile": r"\bmiles?\b|マイル|마일|英里|\bmilya",
        "foot": r"\bfeet\b|\bfoot\b|フィート|피트|英尺",
    },
    "area": {
        "tsubo": r"\btsubo\b|\bpyeong\b|坪|평(?!균)",
        "square-meter": r"\bsquare met|\bm²|\bsqm\b|平米|平方メートル|제곱미터|平方米",
        "square-foot": r"\bsquare f(?:ee|oo)t|\bsq ?ft\b|平方フィート|제곱피트|平方英尺",
    },
    "cooking": {
        "cup": r"\bcups?\b|カップ|컵|量杯|\btasa\b",
        "tablespoon": r"\btablespoons?\b|\btbsp\b|大さじ|큰술|汤匙|\bkutsara\b",
        "gram": r"\bgrams?\b|グラム|그램|克(?!力)",
    },
}


def _said_pair(family: str, text: str) -> tuple[str, ...]:
    """The two units of a family the idea names, in the order it names them ("oz to grams")."""
    found = []
    for unit, words in _CONVERTER_UNITS.get(family, {}).items():
        m = _found(words, text)
        if m:
            found.append((m.start(), unit))
    units = [u for _, u in sorted(found)]
    return tuple(units[:2]) if len(units) >= 2 else ()


def conversions_of(text: str, app_settings: dict) -> list[Conversion]:
    found = []
    for family, words in _FAMILIES.items():
        match = _found(words, text)
        if match:
            found.append((match.start(), family))
    families = [f for _, f in sorted(found)]
    if "pace" in families:  # a pace is in minutes per km or mile: not a length of its own
        families = [f for f in families if f != "length"]
    if "cooking" in families and "volume" not in families and app_settings.get("volume_unit") == "cup":
        families.append("volume")  # a cook who measures in cups converts volumes in cups too
    if "cooking" in families and _said_pair("weight", text) and not _said_pair("cooking", text):
        families = ["weight" if f == "cooking" else f for f in families]  # "oz to grams when baking": weights
        families = list(dict.fromkeys(families))
    return [Conversion(family=f, units=_said_pair(f, text) or _opening(f, app_settings)) for f in families]


# ── journal ──────────────────────────────────────────────────────────────────────────────
# A journal's words are lang's journal.<concept>: mood, food, diary (what makes a diary of
# anything logged: "a mood diary", "気分の日記") and logged.


def journal_of(text: str) -> Journal | None:
    if _found(lang.pattern("journal.food"), text) and (
        _found(lang.pattern("journal.logged"), text) or not _found(lang.pattern("money.said"), text)
    ):
        return Journal("food")
    if _found(lang.pattern("journal.mood"), text):
        return Journal("mood")
    return None


# ── the spec ─────────────────────────────────────────────────────────────────────────────


def _family_of(text: str) -> AppSpec | None:
    """An app named by what it is (a pomodoro timer), whatever else the idea mentions."""
    from macaron_cli.maker.spec_families import deck_of, plan_of, timer_of

    timer = timer_of(text)
    if timer:
        return AppSpec(timer=timer)
    deck = deck_of(text)
    if deck:
        return AppSpec(deck=deck)
    plan = plan_of(text)
    return AppSpec(plan=plan) if plan else None


def write_spec(idea: str, app_settings: dict, name: str) -> AppSpec:
    """The spec an idea asks for, by rules; `name` is the app's title (what a lone measure
    is called). One main shape, as a person asks for one thing, plus what it implies."""
    text = idea.strip()
    slots = read(text)
    family = _family_of(text)
    if family is not None:
        return family
    conversions = conversions_of(text, app_settings) if converting(text, slots) else []
    if conversions:
        if any(c.family == "currency" for c in conversions):
            conversions = [c for c in conversions if c.family == "currency"] + [
                c for c in conversions if c.family != "currency"
            ]
        return AppSpec(conversions=tuple(conversions))
    if _found(lang.pattern("calculator"), text):
        return AppSpec()  # sums to work out: no record kept, the closest template's calculator
    items = items_of(text, slots)
    if items:
        return AppSpec(items=items)
    tasks = tasks_of(text, slots)
    money = money_of(text, app_settings, conversion=False, slots=slots)
    owed = bool(money and (money.debts or money.target))
    if tasks and not owed and (tasks.countdown is not None or tasks.assignees or not money):
        return AppSpec(tasks=tasks)
    if money:
        return AppSpec(money=money)
    measures = measures_of(text, app_settings, name, slots)
    journal = journal_of(text)
    if journal and (
        not measures or (_found(lang.pattern("journal.diary"), text) and not _found(lang.pattern("counted"), text))
    ):
        return AppSpec(journal=journal)
    if measures:
        return AppSpec(measures=tuple(measures))
    if tasks:
        return AppSpec(tasks=tasks)
    if _found(lang.pattern("counted"), text) or _found(
        r"\bhabit|\bstreak|\bdaily\b|\bevery day|習慣|毎日|습관|매일|习惯|打卡|每天|\bgawi|\baraw-araw", text
    ):
        return AppSpec(measures=(other_measure(text, name),))
    return AppSpec()
