"""The words each rule needs, by concept, one file per language.

A rule never writes a language's words itself: it names a concept ("saving", "unit.kilogram")
and asks `pattern(concept)` for the regular expression that says it in every language here.
Each language is one module in this package (en.py, ja.py, …) with a `WORDS` dict: concept →
a regular-expression alternation as that language writes it ("" where the language has no
such words, said on purpose). A module added here is read as a language: adding one is one
file. A language read only for some rules names their families of concepts in its `SCOPE`
(de, fr and es: "secret" only). A language read for every rule also holds the friend's own
lines (`LINES`: its sentences by the keys of SAYINGS; `line(key, language)`). `missing()` names
the concepts and lines a language lacks (tests/test_lang.py fails on any).

This package imports nothing of macaron, so any layer may ask it.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

# The languages' order, first to last, in a joined pattern (where two alternatives match at
# one place, the first wins); a language added later comes after these, by its code.
_FIRST = ("en", "ja", "ko", "zh", "tl")

UNITS = (
    "mmol/L", "mg/dL", "percent", "bpm", "milliliter", "liter", "kilogram", "pound", "kilometer", "mile",
    "centimeter", "inch", "hour", "minute", "second", "steps", "cups", "glasses", "times",
)  # fmt: skip
CURRENCIES = ("PHP", "JPY", "KRW", "CNY", "EUR", "USD")
PERIODS = ("daily", "weekly", "monthly")
TIMES = ("fasting", "after_meal", "morning", "afternoon", "evening")
EVENTS = (
    "wedding", "exam", "birthday", "trip", "anniversary", "move", "concert", "christmas", "new year", "graduation",
)  # fmt: skip
LANGUAGE_NAMES = ("en", "ja", "ko", "zh", "es", "fr", "de", "tl")  # languages a deck's sides may be in
MEALS = ("breakfast", "lunch", "dinner", "snack")
ASKED_UNITS = ("cups", "glasses", "hour", "minute", "pages", "times")  # a measure's unit asked by name
SPENDING = ("food", "transport", "bills", "home")  # kinds of spending, by a budget's category keys
# The kinds of app a request may name, one per template (maker/page_judge.py: "a budget" is met by
# the budget template chosen, not a word its page must print).
APP_KINDS = (
    "budget", "collection", "converter", "countdown", "deck", "diary", "habit-tracker", "meal-plan", "planner", "timer",
)  # fmt: skip
# A number's unit as one word (reading/units.py): "kilo" is both km and kg.
AMOUNTS = (
    "ml", "floz", "l", "cm", "mm", "km", "kg", "kilo", "m", "mi", "lb", "oz", "usd", "eur", "jpy", "cny", "krw",
    "php", "min", "h",
)  # fmt: skip
# Dates (reading/when.py, text.py): months January first, weekdays Monday first (as
# date.weekday() counts), numbers as words one to ten.
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
)  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
COUNTS = tuple(range(1, 11))
# A question's likely goal, and what usually matters for it (memory/expansion.py).
GOALS = ("festival", "trip", "meal", "gift", "exercise", "money", "sleep")
# The secrets a sentence names by a label (memory/secrets/phrases.py), in the order it reads them.
SECRETS = ("password", "pin", "code", "api-key", "key", "cvv", "national-id")

# What an app keeps and converts (reading/spec_rules.py): the kinds of measure, of item kept
# in a collection, the unit families converted (in the order tried) and each converter's units.
MEASURED = (
    "blood_pressure", "blood_sugar", "pulse", "body_fat", "feeding", "body_weight", "coffee", "tea", "water", "sleep",
    "steps", "medication", "exercise", "stretching", "reading", "meditation", "practice", "vegetables", "glasses",
)  # fmt: skip
KEPT = ("book", "film", "restaurant", "wine", "recipe", "plant", "game")
CONVERSIONS = (
    "pace", "shoe_size", "currency", "cooking", "temperature", "area", "speed", "length", "weight", "volume",
)  # fmt: skip
CONVERTER_UNITS = {
    "weight": ("ounce", "gram", "kilogram", "pound"),
    "length": ("inch", "centimeter", "kilometer", "mile", "foot"),
    "area": ("tsubo", "square-meter", "square-foot"),
    "cooking": ("cup", "tablespoon", "gram"),
}
# Currencies a person says they are paid or spend in (reading/personal.py), the first found wins.
PAID_IN = ("PHP", "JPY", "KRW", "CNY", "EUR", "GBP", "USD")
# The languages an app may be shown in, asked by name in a change (reading/change_rules.py).
APP_LANGUAGES = ("en", "ja", "ko", "zh", "tl")
BEYOND = ("dark_mode", "sync", "reminders", "charts", "export", "login", "photos")  # what a change asks that is code
# What a message is about (friend/topics.py), in the order a tie is broken.
TOPICS = ("food", "health", "fitness", "travel", "finance", "family", "work", "hobby", "events")
# What a fact about a life is about, such that a newer one replaces an older (memory/updates.py).
SLOTS = (
    "home",
    "work",
    "number",
    "phone",
    "email",
    "partner",
    "pet",
    "car",
    "school",
    "study",
    "gym",
    "plan",
    "wake",
    "bank",
    "address",
    "rent",
    "diet",
    "computer",
)

# Every concept, with what its words say. A language module holds each one.
CONCEPTS: dict[str, str] = {
    **{f"unit.{unit}": f"the unit {unit}, after a number or on its own" for unit in UNITS},
    "refuse.before": "words before a unit that refuse it (not, instead of)",
    "refuse.filler": "small words between a refusal and its unit (in, the), each with its space",
    "refuse.after": "words after a unit that refuse it (じゃなくて, 말고)",
    **{f"currency.{code}": f"the currency {code} named, with or without a sum" for code in CURRENCIES},
    "saving": "saving money up (a target to reach)",
    "budget": "a spending limit",
    "me": "the person speaking, as one of the people",
    "me.alone": "me said alone, as one part of a list (me, 私, 나)",
    "not_names": "capitalised words that are not people (months, weekdays, kin, languages), space-separated",
    "housemates": "people one lives with",
    "turns": "sharing work out by turns (between, 分担)",
    **{f"period.{period}": f"a {period} period" for period in PERIODS},
    **{f"time.{time}": f"the time of day {time}" for time in TIMES},
    "twice_a_day": "twice a day (morning and evening)",
    "check": "taken or not, done or not: no reading",
    "how_many": "asking how many or how much (a reading, not a check)",
    "every_few_days": "care every few days (watering)",
    **{f"event.{kind}": f"the day of a {kind}, counted down to" for kind in EVENTS},
    "event.whose": "whose a day is, said just before it (Aiko's wedding, 兄の誕生日, 姐姐的婚礼)",
    "event.whose_after": "whose a day is, said just after it (birthday ni kuya)",
    "goal.before": "words before a number that make it a goal or a limit",
    "goal.after": "words after a number that make it a goal or a limit (まで, 넘으면)",
    "with_whom": "asking who one did it with",
    "family.timer": "a focus timer (pomodoro)",
    "family.deck": "a study deck (flashcards)",
    "family.meal_plan": "a meal plan for the week",
    "family.turns": "taking turns (whose turn is next)",
    "family.recipe_scale": "scaling a recipe to more servings",
    "timer.minutes": "minutes, after a number, in a timer's work and break",
    "timer.break": "a timer's break",
    "timer.work": "a timer's work, said beside its minutes (50 on, aral ng 45)",
    "deck.question": "a question, on a card's front",
    **{f"language.{code}": f"the language {code} named (a deck's side)" for code in LANGUAGE_NAMES},
    **{f"meal.{meal}": f"{meal}, a meal planned" for meal in MEALS},
    **{f"asked_unit.{unit}": f"the unit {unit} asked for by name, for a measure" for unit in ASKED_UNITS},
    "measure.morning": "a measure taken in the morning",
    "measure.evening": "a measure taken in the evening",
    "measure.twice": "a measure taken morning and evening",
    "counted": "something counted (how many, how often)",
    "distance": "running or walking a distance",
    "money.debts": "money lent, borrowed or owed",
    "money.split": "a bill split between people",
    "money.said": "money spent, kept or asked about (a budget, bills, how much)",
    **{f"spending.{kind}": f"spending on {kind}, as people name it" for kind in SPENDING},
    "tasks.chores": "chores about the house",
    "tasks.said": "things to do, plans, rotas (chores too)",
    "tasks.assignees": "who does a task, by turns or shared",
    "tasks.weekly": "a task repeated weekly",
    "tasks.daily": "a task repeated daily",
    "tasks.countdown": "counting days down to a day",
    "convert.asked": "asking to convert (units, currencies)",
    "convert.keeping": "keeping a record (log, track), not converting",
    "convert.verb": "the verb convert itself",
    "journal.mood": "a mood or gratitude journal",
    "journal.food": "a food diary (meals eaten)",
    "journal.diary": "words that make a diary of anything logged (a mood diary)",
    "journal.logged": "logging or a diary, said beside food",
    "calculator": "a calculator app",
    "tool.asked": "asking the friend to make something (can you make, 作って)",
    "tool.named": "something tool-like (an app, a tracker, a log)",
    **{
        f"topic.{topic}": f"word starts that make a message about {topic}, each counted: plain words, no pattern"
        for topic in TOPICS
    },
    **{f"measure.{kind}": f"the measure {kind} named (a thing logged)" for kind in MEASURED},
    "measure.steps_in_km": "kilometres said beside steps (walked in km)",
    "weight.beside_pressure": "a weight said beside blood pressure (a measure of its own)",
    "weight.beside_fat": "a weight said beside body fat (a measure of its own)",
    "run.timed": "how long a run took (its time)",
    "run.distance": 'how far a run went, said as a thing to log ("distance")',
    "habit": "a habit kept every day (a streak, daily)",
    "habit.named": "habits named as such (a habit tracker, 習慣, 습관, 习惯), not only something daily",
    **{f"item.{kind}": f"a {kind} kept in a collection" for kind in KEPT},
    "items.rated": "rating the items kept (stars, favourites)",
    "items.scored": "a score given to each thing kept (a rating, stars), never a liking",
    "items.collected": "a collection or list of things had, read, watched or visited",
    "items.watered": "watering plants",
    "items.lent": "a thing lent (a book lent to a friend)",
    **{f"conversion.{family}": f"converting {family} (a converter's tab)" for family in CONVERSIONS},
    "conversion.units": "units people convert between: two named is a conversion",
    **{
        f"converter.{family}.{unit}": f"the unit {unit}, in a {family} converter"
        for family, units in CONVERTER_UNITS.items()
        for unit in units
    },
    "relation": "a relation said before a name (my sister Priya, 夫の健太)",
    "kin": "kin said as who does something (母と私, 爸爸洗碗)",
    "kin.title": "a kin title before a name (Ate Rose)",
    "name.marker": "a word that marks a name after it (si, kay)",
    "name.acts": "what a named person does (Tom owes, Emma cooks)",
    "name.not_before_honorific": "words before an honorific that are not names (赤ちゃん, お母さん), whole words",
    "name.not_a_name": "words in a name's place that are not names (누구, 우리)",
    "list.lead_word": "small words before a listed thing, each followed by a space (for, my, sa)",
    "list.lead_particle": "particles before a listed thing, with no space (分, 也)",
    "list.tail": "words after a listed thing, at its end (notes, も, 도)",
    "list.item_end": "where a listed thing glued to the words after it ends (物理の勉強: の; 阅读两个: 两个)",
    "list.item_start": "after which a listed thing glued to the words before it begins (習慣にヨガ: に)",
    "list.not_item": "never a listed thing (a score, a rating, pesos)",
    "list.of": "what a list is of, as one group (list of X, Xの一覧): read language by language",
    "change.remove": "asking to remove something from an app (remove, moved out, 削除)",
    "change.add": "asking to add something to an app (add, joined, 追加)",
    "change.rename": "asking to rename an app (rename, call it)",
    "change.set": "asking to set or change a setting (set, make, switch, にして)",
    "change.imperial": "imperial units, asked by that name",
    "change.metric": "metric units, asked by that name",
    "change.only": "only this (only mornings)",
    **{f"app_language.{code}": f"the language {code} asked for an app's words" for code in APP_LANGUAGES},
    **{f"beyond.{what}": f"asking for {what}: code, not a setting" for what in BEYOND},
    "change.not_names": "capitalised words a change request starts with, not names, space-separated",
    "change.thing": "the one thing a change adds or takes off, in one group (add yoga, ヨガを追加): each language",
    "change.instead": "what a change puts in place of a thing it takes off, in one group (do yoga instead, 换成冥想)",
    "list.kept": "a list of things an app keeps, named (habits, categories, 分类): not a thing, nor a roster",
    "person.changed": "a verb of adding or taking someone off, beside their name (追加, 추가, 去掉)",
    "person.changed_ba": "the same verb's first word after 把 and the name (把小王加上)",
    "honorific": "an honorific after a name (さん)",
    "rename.to": "the new name said (to X, 改成X), in a group where the words hold it",
    "attribute.add": "a field added to each item, in one group (add a field for X, Xも記録): language by language",
    "attribute.remove": "a field taken off each item, in one group (remove the X field): language by language",
    "attribute.too": "too, also: after a field added, not part of its name",
    "request.greeting": "a greeting before a request (hey, please), followed by a comma or space",
    "request.lead": "asking for an app, before the idea (can you make me, 帮我做一个)",
    "request.article": "an article before the idea (a, some, isang), each followed by a space",
    "request.app_word": "the word app before the idea (app, tool)",
    "request.app_join": "what joins app to the idea (to, that, para sa)",
    "request.trail": "asking for an app, after the idea, at its end (…アプリを作って, 앱 만들어 줘)",
    "title.dangling": "words a title cut short must not end on (the, of), space-separated",
    "title.join": "words a long title ends before (with, for), space-separated",
    "title.chore_lead": "keeping a record, before the thing kept (log my, 记录), at the start",
    "title.interjection": "interjections at a title's start (ugh, lol)",
    "title.chore_trail": "keeping a record, after the thing kept (を記録したい, 기록하고 싶어요), at the end",
    "title.chatty_lead": "the wish before the thing (I keep forgetting to, something to), at the start",
    "title.chatty_trail": "chatter after the thing (nothing fancy, アプリ), at the end",
    "title.named_after": "people named after the thing (kay Ate Rose), before a capital",
    "title.doing": "keeping and learning verbs with the particle before them (を記録, を覚え)",
    "title.minutes": "minutes after a number, a timer's setting",
    "setting.not": "numbers that are part of how a thing is said, not a setting (out of 5, 食後2)",
    "beside": "another thing to keep said beside one (and, plus, 이랑, 和)",
    "another": "another thing to keep said (plus, also)",
    "another.article": "an article after another (my, the), each followed by a space",
    # ── ideas that are advice (reading/advice.py) ──
    "advice.medical": "an idea that would give medical advice (dosing, diagnosis, prescriptions)",
    "advice.financial": "an idea that would give financial advice (investing, loans, stocks)",
    # ── an app's title shown to the model as an example (maker/model_spec.py) ──
    "title.example": "an app's title as a model is shown one (Blood sugar, 家計簿): a noun phrase, not a pattern",
    # ── a change's people: what stands around a name added or taken off (reading/change_rules.py) ──
    "person.particle": "a particle after a name added or taken off, before its verb (を, 를)",
    "person.ba": "a word before a name that puts the verb after it (把)",
    "person.changed_until": "words that end a name said after its verb (到, 从)",
    # ── an app's title: where it is cut, and what a day or an amount leaves behind (reading/fit.py) ──
    "title.break": "a particle a long title may be cut before, one letter each (の, 的, 을)",
    "title.each_day": "every day, said before an amount that leads a title (毎日2Lの水)",
    "title.of": "the particle joining an amount that leads a title to its thing, one letter each (の, 的)",
    "day.particle": "a particle that went with a day cut out of a title (までの, 까지)",
    "day.dangling": "small words left at a title's end when its day is cut out (…wedding on, … sa)",
    # ── numbers written in letters (reading/slots.py): Han numerals are Chinese's, Japanese writes the same ──
    "number.digits": "the digits zero to nine as letters, zero first, one string (零一二…九), not a pattern",
    "number.two": "two, as said before a unit or scale (两)",
    "number.half": "a half (半)",
    "number.ten": "the scale ten (十)",
    "number.hundred": "the scale hundred (百, 백)",
    "number.thousand": "the scale thousand (千, 천)",
    "number.ten_thousand": "the scale ten thousand (万, 萬, 만)",
    "number.after_digits": "scales written right after Arabic digits (1万, 3만, 5천), one letter each",
    "number.counter": "a counter word between a number and its unit (個, 개)",
    "number.month": "the word month after a month's number (5月, 5월), one letter each",
    "money.ten_million": "ten million in a currency, spelled out (천만 원): the currency in a group, read as digits",
    "money.k_currency": "a currency's word after a sum in thousands (5k pesos)",
    # ── people and lists in an idea: the particles around names (reading/slots.py) ──
    "relation.of": "the particle between a relation and the name after it (夫の健太)",
    "name.suffix": "a letter a name takes before a particle, said or not (이 in 지훈이랑)",
    "name.and": "particles joining names in a list (と, 랑, 和)",
    "name.list_end": "particles that end a list of names after a relation (랑, 한테)",
    "name.to": "particles after a name that something is given or owed to (한테, 에게)",
    "name.after": "particles after a list of names, beside name.and (に, で, が)",
    "name.prefix": "a prefix that makes the letter after it a name (小王, 阿杰, 老李)",
    "name.prefix_not": "letters after such a prefix that make a word, not a name (小时, 老师)",
    "name.shop": "a word end that makes what an honorific follows a shop, not a person (ラーメン屋さん)",
    "honorific.not": "words that begin as an honorific and are not one (ちゃんと: properly)",
    "honorific.idea": "honorifics read after a name only in an idea (君), beside honorific's",
    "list.and": "words joining listed things (and, と, 和, 이랑): spaced where the language spaces words",
    "list.opens": "words after which a list of names begins (for, with, between)",
    "title.capitalised": "words a title writes capitalised wherever they stand (English's I)",
    "title.can": "what doers said before a title's task are able to do (can, will)",
    "determiner": "a word before a noun saying whose or which it is (my, our, the)",
    "list.before": "words before a listed thing at the end of a long part (budget … for groceries)",
    **{f"paid_in.{code}": f"the currency {code} a person says they use (a memory: paid in pesos)" for code in PAID_IN},
    "imperial.said": "an imperial unit named (ounces, miles, fahrenheit), as a person's way of measuring",
    "system_refused.before": "words before an imperial unit that refuse it, in what a person told macaron (not, over)",
    "system_refused.filler": "small words between such a refusal and its unit, each with its space",
    "system_refused.after": "words after an imperial unit that refuse it (じゃなくて, 말고)",
    "cups.preferred": "measuring in cups said as a preference (prefer cups, カップで)",
    "cups.left": "cups left for metric (ml to cups)",
    "metric.chosen": "choosing metric units (back to ml, switched to kilos)",
    "protected": "words about who someone is (gender, age, faith, origin), removed before matching",
    "language_names": "a language's name as a person answers (the whole answer, lower case) = its code: name=code",
    **{f"amount.{unit}": f"the unit {unit} right after a number, as written (memory's words)" for unit in AMOUNTS},
    # ── dates (reading/when.py): each alternative of a month, weekday or count is one name of it ──
    **{f"month.{month}": f"the month {month} named (its first English name is the index's)" for month in MONTHS},
    **{f"weekday.{day}": f"{day} named (lower case, unless only its capital makes it a day)" for day in WEEKDAYS},
    "weekday.on": "words before a weekday named alone (on, noong, 星期)",
    "weekday.last": "words before a weekday of last week (last, 先週の, 지난주, 上周)",
    "weekday.after": "words after a weekday's name (曜日, 요일); never a plural: a habit, not a day",
    **{f"count.{n}": f"the number {n} as a word (3 days ago, 三日前)" for n in COUNTS},
    "when.day_before_yesterday": "the day before yesterday",
    "when.yesterday": "yesterday",
    "when.today": "today",
    "when.last_week": "last week (the week before this one)",
    "when.last_month": "last month",
    # ── query expansion (memory/expansion.py) ──
    **{f"expansion.{goal}": f"a question about {goal} (any of these words in it)" for goal in GOALS},
    **{f"expansion.{goal}.needs": f"what usually matters for {goal}, searched beside it" for goal in GOALS},
    # ── text for search (memory/text.py) ──
    "small_words": "a language's small words (its stop words), lower case",
    "small_words.shared": "small words other languages write too, as words or names (they count half)",
    "particles": "particles glued after a noun (떡을), longest last: a noun of one syllable found without them",
    "not_nouns": "one-character words that are not nouns (pronouns, question words): never a noun's stem",
    "verb_endings": "the kana after a verb's one-kanji stem (乗って, 飲む, 変えた): the kanji before one is no noun",
    "grammar_characters": "characters that only build a sentence (了, 的, 一, 我): a pair of two means nothing",
    # ── an app's settings from memories (lifelog/refresh.py) ──
    "goal.stated": "a habit's goal said beside its number (goal, a day, 目標)",
    "counts.unit": "what a habit counts after a number (glasses, steps, 歩), not a measure",
    "budget.named": "a budget named before its amount",
    # ── secrets said in a sentence (memory/secrets/phrases.py) ──
    **{f"secret.{kind}": f"a {kind} named, as a word of its own (between word edges)" for kind in SECRETS},
    **{f"secret.{kind}.glued": f"a {kind} named, written without spaces around it (パスワード)" for kind in SECRETS},
    "secret.is": "a verb between a secret's label and its value that never starts whose it is (is, ist, ay)",
    "secret.verb": "the other verbs between a secret's label and its value (were, lautet, c'est)",
    "secret.now": "words after that verb, before the value (now, set to, jetzt)",
    "secret.particle": "a particle or copula after a secret's label (は, 는, 是)",
    "secret.amount": "words after a number that make it an amount, not a code (4 digits, 10 mm, 4桁)",
    "secret.changed_to": "a password changed, the new one after these words (changed my password to)",
    "secret.qualifier": "what makes a bare code a secret one, named just before it (a door, a lock, a card)",
    "secret.also_a_word": "labels that also mean something else (la clave del éxito): never a phrase after them",
    "secret.card": "a payment card named near its number (card, Karte, カード, a card's brand)",
    "secret.not_a_card": "what a number is when not a card's, named before it (order, tracking, IMEI, 注文)",
    # ── memory's grammar words (when.py, chatter.py, units.py, secrets/): issue 39, moved last ──
    "date.on": "words before a date said by its month and day (on May 1, noong Mayo 1), with their space",
    "date.article": "an article before a day's ordinal (the 20th), with its space",
    "date.ordinal": "a day number's ordinal ending (1st, 20th), right after it",
    "date.ordinal_before": "words before a day's number that make it an ordinal (ika-20)",
    "date.of": "words between a day and its month (1st of May, 20 ng Mayo), with their space",
    "date.in": "words before a month said alone (in May), with their space",
    "date.year": "a year's mark right after its digits (2023年, 2023년), with any space after it",
    "date.month": "a month's mark right after its number (5月, 5월), with any space after it",
    "date.day": "a day's mark right after its number (1日, 1号, 1일)",
    "date.days_ago": "days ago, after a count of days (3 days ago, 三日前, 3일 전)",
    "date.not_a_date": "words after a slashed pair that make it a fraction or a score, not a day (1/2 cup, 8/10 stars)",
    "chatter.small_talk": "greetings, weather and pleasantries: a sentence that says one and asks nothing is chatter",
    "chatter.filler": "fillers and discourse markers, taken off a question's start (um, anyway, ところで)",
    "amount.ten_thousand": "ten thousand, between a number and its unit (4만 원, 3万元)",
    "secret.backup": "words that name backup codes before the word codes (backup, recovery, Sicherungs-)",
    "secret.codes": "the word codes after such a word (codes, códigos)",
    "secret.backup_codes": "backup codes named as one label (codes de secours, バックアップコード, 복구 코드)",
    "secret.codes_are": "a verb or particle between backup codes' label and the list (are, は, 는, 是)",
    "secret.second_factor": "a second factor named near an authenticator's seed (2FA, authenticator, 二段階)",
    "secret.seed_phrase": "a wallet's seed phrase named (seed, mnemonic, 助记词)",
    "secret.value_end": "a copula a value in Japanese or Korean text stops before (です, 입니다)",
    "secret.copula": "a copula after a value set off by spaces, before the sentence ends (です, 이다)",
    "secret.prose": "words that begin a description of a secret, not one (on the fridge, too short): plain words",
    "secret.article": "articles that may begin a pass phrase (le petit prince): plain words",
    "secret.conjunction": "conjunctions that end a pass phrase (… and I never change it): plain words",
    "secret.stand_in": "a word making a value in code a stand-in, not a secret (your_password): plain words",
    "secret.filler": "words a stand-in glues to a secret's own name (mypassword, test_token): plain words",
    # ── the friend's chat (friend/changes.py, apps.py, extract.py, repl.py) ──
    "app.new": "asking for a new app, not a change to one (make me a, 作って)",
    "app.said": "an app of the person's, said as one (my mood diary, the chores chart, 瞑想アプリ)",
    "app.about_me": "said of oneself at a line's start, not asked of an app (I use…, should I…)",
    "app.plain": "words in a change that name no app in particular (track, list, my), space-separated",
    "app.open": "asking to open an app (open, launch, 開いて, buksan)",
    "app.open_plain": "words in asking to open one that name no app (open, please, the), space-separated",
    "said.stressed": "words that stress what is said (really, never forget, 絶対): it weighs more in recall",
    "said.of_oneself": "the person speaking of themselves (I, my, 私, 저는): a statement worth noting",
    "said.private": (
        "said to be private, secret, between us, not to be told (ここだけの話, 비밀인데, 别告诉别人, sikreto): "
        "kept private"
    ),
    "said.health": "health said in chat (a medicine and its dose, a diagnosis, a condition): private by default",
    "said.money": "money said in chat (a salary, pay per period, a mortgage, debts, loans): private by default",
    "said.relationship": "a relationship in crisis said (breaking up, a divorce, always fighting): private by default",
    "said.request": "a request to the friend to make or change something (add…, にして, 바꿔 줘, 改成, palitan mo)",
    "said.small_talk": "a whole line of small talk, lower case (thanks, ok, lol, ありがとう): nothing to note",
    "answer.yes": "a whole answer that means yes, lower case (y, sure, はい)",
    "answer.no": "a whole answer that means no, lower case (n, not now, いいえ)",
    **{f"slot.{slot}": f"a fact about one's {slot}, stated or changed (memory/updates.py)" for slot in SLOTS},
    "update.change": "saying a fact changed: moved, new, now, switched, no longer, not anymore",
    "update.others": "someone else a fact is about (my sister, 娘): not the speaker's own",
    "update.changed": "saying a value itself changed to another: changed, switched, went up, 変えた, 换了, 바꿨",
    "update.part": (
        "a part or a side of a thing changed, said after the thing (フィットのタイヤ…変えた, 宝马换了新轮胎,"
        " changed their hours): the thing itself stays"
    ),
    "update.stop": "saying one no longer does or has something: not … anymore, quit, stopped, sold, もう…ない, 不再",
    "update.history": "a question that asks for the past itself: when did, used to, before, いつ, 什么时候, 언제",
    "update.verb": (
        "a verb of a habit said negated, the verb its one group (don't (drink)): no thing of its own"
        ' where a thing follows it ("don\'t drink milk anymore" stops milk); empty where the rules tell a'
        " verb otherwise (ja)"
    ),
    # ── the page judged against the request (maker/page_judge.py) ──
    "judge.filler": "whole words of a request that ask for an app or say how, naming nothing a page shows",
    **{
        f"judge.this.{period}": f"how a page says the {period} period it shows (today, this week)" for period in PERIODS
    },
    **{
        f"judge.kind.{kind}": f"words that name the kind of app the {kind} template is (met by that template)"
        for kind in APP_KINDS
    },
    "judge.noun_after": "particles after which one Han character alone is a noun (母に), not a verb's stem (忘れ)",
    "judge.filler_glued": "such words written glued into a run without spaces (アプリ, 记录), cut out of it",
}

# What the friend says on its own (friend/phrases.py), by key, with what each says: every
# language that is read for every concept holds these sentences in its file's `LINES` ({…} are
# filled in: names, numbers, what the rules read). A key a language lacks is said in English
# (`line`); `missing()` names it.
SAYINGS: dict[str, str] = {
    "called": "the person addressed by {name}, with its space (the polite form: さん, 님)",
    "register": "how to speak the language to someone just met, told to the model (in English)",
    "hello": "the chat's greeting ({name}: the person as `called` says it, or nothing)",
    "last_time": "what was said last time, as the chat opens",
    "interest": "something the person likes, remembered as the chat opens",
    "soon": "something coming up {when}",
    "talked_about": "what begins a chat's episode kept in the person's words (the turns follow), with its space",
    "change.ask": "asking whether to change an app as read: {what} (y/n)",
    "change.declined": "the person said no to a change",
    "change.changing": "an app being changed",
    "change.done": "a change made: what, its tests, checkpoints and how to undo it",
    "make.offer": "asking whether to make the app asked for: {idea} (y/n)",
    "make.offer_new": "a change asked of an app the person does not have: make one? {idea} (y/n)",
    "make.handing": "the idea handed to the coder",
    "make.interrupted": "a make in chat stopped by the person (Ctrl-C), and how to pick it up",
    "make.failed": "a make in chat that could not be done: {error}",
    "make.made": "an app made in chat: its name, where it is and how to open it",
    "make.short": "what an app made in chat leaves out of what was asked ({missing})",
    "make.stopped": "a make in chat that stopped, and why",
    "change.stopped": "a change that stopped, and why",
    "change.already": "an app already does what was asked",
    "change.interrupted": "a change stopped by the person (Ctrl-C)",
    "change.failed": "a change that failed with an error",
    "tests.passed": "the tests passed",
    "tests.failed": "the tests failed",
    "tests.reused": "the tests not run again, their last result kept",
    "phase.change": "a change's phase: the change",
    "phase.verify": "a change's phase: verifying",
    "phase.brief": "a change's phase: the brief",
    "phase.spec": "a change's phase: the spec",
    "phase.resume": "a change's phase: resuming",
    "verify.running": "verifying: tests, then the app opened in a browser",
    "verify.passed": "verified: passed",
    "verify.problems": "verified: {n} problems",
    "verify.reused": "after a verify line: the tests not run again, their last pass stands",
    "page.missing": "what the page does not show of what was asked: {missing}",
    "page.list_join": "what joins the things listed in page.missing",
    "page.unchanged": "a change undone because the page showed nothing different after it, the data kept",
    "page.unread": "the page could not be read, so what it shows was not checked",
    # what a make understood, asked before anything is written (maker/understood.py)
    "understood.measure": "a measure and the unit the page shows it in: {name}, {unit}",
    "understood.goal": "a measure ({what}) with its goal ({goal})",
    "understood.daily": "a goal that a day's entries add up to: {goal}",
    "understood.money": "money kept in {currency}",
    "understood.budget": "a monthly budget of {amount}",
    "understood.target": "a savings target of {amount}",
    "understood.people": "the people in the app: {names}",
    "understood.items": "a collection of {name}",
    "understood.countdown": "a countdown to {event} on {date}",
    "understood.timer": "a timer of {work} minutes of work and {rest} of break",
    "understood.app": "an app with nothing more to say of it: {title}, from the {template} template",
    "understood.and": "what joins two parts of the summary",
    "understood.ask": "the summary ({what}) and: go ahead, or tell me what to change",
    "understood.answer": "the prompt under the summary: yes, no, or what to change",
    "make.declined": "the person said no to what a make understood: nothing made",
    # why the rules cannot do a change (maker/refusal.py says the sentence around them)
    "cannot.not_tracked": "a measure to take off that the app does not track: {what}",
    "cannot.remove_all": "taking off every measure",
    "cannot.no_measures": "measures ({what}) added to an app that keeps none",
    "cannot.new_name": "a rename with no new name: say it in quotes",
    "cannot.which_goal": "a goal said without its measure: name it",
    "cannot.goal_unit": "a goal in {unit} for {name}, kept in {kept}",
    "cannot.which_times": "times of day said without their measure: name it",
    "cannot.which_event": "a date to add said without what it is for: name it",
    "cannot.not_people": "people to take off who are not in the app: {names}",
    "cannot.period_goal": "a {period} goal where goals are per day",
    "cannot.not_shown": "{what}, which the {template} template does not show",
    **{f"cannot.{what}": f"asking for {what}: code, not a setting (a noun phrase)" for what in BEYOND},
    # what a change asked that the app already does (reading/change_ask.py's Asked.already), said
    # inside change.already; {measure}: the measure as the reply names it (Asked.named)
    "already.things": "things asked for that the app already keeps: {what}",
    "already.people": "people asked for who are already in the app: {names}",
    "already.goal": "a goal a measure already has: {measure}, {amount}",
    "already.units.metric": "the app's units are metric already",
    "already.units.imperial": "the app's units are imperial already",
    "already.currency": "the currency amounts are shown in already: {currency}",
    "already.records": "a field each item already records: each {items}, {field}",
    **{f"already.language.{code}": f"the app is shown in the language {code} already" for code in APP_LANGUAGES},
    "already.timer": "the timer is {work} minutes of work, then {rest} of break already",
    "already.deposit": "the sum put by each month already: {amount} {currency}",
    "already.unit": "the unit a measure is kept in already: {measure}, {unit}",
    "refuse.unread": "a request no rule reads: “{request}” is not a change the rules know",
    "refuse.cannot": "what the rules cannot do: {what}",
    "refuse.change": "nothing changed in {title}: {why}; a model can, with {hint} (one sentence)",
    "refuse.partly": "a change done but for {why}; a model can, with {hint} (one sentence)",
    "refuse.correction": "a correction to what a make understood that no rule reads: {why}",
    # the chat's answer with no model (friend/conversation.py's notebook)
    "notebook.private": "noted, kept private: no cloud model hears it; /share ID opens it, /memory shows ids",
    "notebook.noted": "noted",
    "notebook.remember": "what is remembered that may help, before the list",
    "notebook.nothing": "nothing remembered matches",
    # what an app says of itself (reading/advice.py, not the friend)
    "advice.note": "the note an app that gives advice shows: not professional advice, ask one",
}


def languages() -> tuple[str, ...]:
    """The languages here: the modules of this package, the first five in their order."""
    found = {m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")}
    return tuple(code for code in _FIRST if code in found) + tuple(sorted(found - set(_FIRST)))


@cache
def _modules() -> dict[str, object]:
    return {code: importlib.import_module(f"{__name__}.{code}") for code in languages()}


def _tables() -> dict[str, dict[str, str]]:
    return {code: module.WORDS for code, module in _modules().items()}  # type: ignore[attr-defined]


def _scope(code: str) -> tuple[str, ...] | None:
    """The families of concepts a language is read for (`SCOPE` in its file: de, fr and es are
    read only for secrets); None where it is read for every concept."""
    return getattr(_modules()[code], "SCOPE", None)


def words(concept: str, language: str) -> str:
    """What `language` says for `concept` (a pattern; "" where it has no such words, or lacks
    the concept as a partial file does: `missing()` names those; a KeyError for a concept not
    declared)."""
    if concept not in CONCEPTS:
        raise KeyError(concept)
    return _tables()[language].get(concept, "")


@cache
def pattern(concept: str) -> str:
    """`concept` in every language, one alternation (a KeyError for a concept not declared)."""
    if concept not in CONCEPTS:
        raise KeyError(concept)
    return "|".join(each(concept))


def each(concept: str) -> tuple[str, ...]:
    """`concept` as each language says it, in the languages' order, for a rule that reads one
    language at a time (its pattern holds a group); none where a language has no such words."""
    return tuple(said for table in _tables().values() if (said := table.get(concept)))


def alternatives(pattern: str) -> list[str]:
    """A pattern's alternatives at its top level (not those inside a group)."""
    out, depth, start = [], 0, 0
    for at, char in enumerate(pattern):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "|" and depth == 0:
            out.append(pattern[start:at])
            start = at + 1
    return [*out, pattern[start:]]


@cache
def listed(concept: str) -> tuple[str, ...]:
    """`concept` as a list of words, every language's in order (for the rules that read
    words, not a pattern: memory/expansion.py, for every search). The tables never change
    while macaron runs, so each list is split once."""
    if concept not in CONCEPTS:
        raise KeyError(concept)
    return tuple(word for table in _tables().values() if (said := table.get(concept)) for word in alternatives(said))


def lines(language: str) -> dict[str, str]:
    """The friend's lines `language`'s file holds (none for a language not here)."""
    module = _modules().get(language)
    return getattr(module, "LINES", {}) if module else {}


def line(key: str, language: str) -> str:
    """The friend's line `key` in `language`, English's where that language has none (a
    KeyError for a key not declared in SAYINGS)."""
    if key not in SAYINGS:
        raise KeyError(key)
    return lines(language).get(key) or lines("en")[key]


def missing() -> list[tuple[str, str]]:
    """(language, concept) for each declared concept a language lacks, and each it holds
    that is not declared; a language read for every concept is asked for the friend's lines
    too: ("eo", "line.hello") for a line it lacks."""
    out = []
    for code, table in _tables().items():
        scope = _scope(code)
        wanted = [c for c in CONCEPTS if scope is None or c.split(".")[0] in scope]
        out += [(code, concept) for concept in wanted if concept not in table]
        out += [(code, concept) for concept in table if concept not in CONCEPTS]
        said = lines(code)
        out += [(code, f"line.{key}") for key in SAYINGS if scope is None and key not in said]
        out += [(code, f"line.{key}") for key in said if key not in SAYINGS]
    return out


def reread() -> None:
    """Read the languages again (after one is added while running: tests do)."""
    _modules.cache_clear()
    pattern.cache_clear()
