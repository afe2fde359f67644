"""Fitting a template to the idea: the app's title, and its settings from the spec.

A template is a general app (a habit tracker, a converter); the person asked for one
thing (a weight log, a converter for cooking). The title comes from the idea, in its
language; the settings come from the app's spec (what it tracks), as the template's own
manifest says under "fit": which config key takes which part of the spec. Everything
here is plain config the template already reads (config/app.json): no code changes, so
an offline make fits the idea as well as the template can.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from macaron_cli import lang
from macaron_cli.manifest import Manifest
from macaron_cli.reading.spec_families import named
from macaron_cli.reading.text import has_cjk
from macaron_cli.spec import AppSpec

if TYPE_CHECKING:
    from macaron_cli.reading.idea import Reading
    from macaron_cli.reading.slots import Slots

# ── the title ────────────────────────────────────────────────────────────────────────────
# Requests around the idea, not part of it ("Can you make me an app to …", "…を作って").
# Each language's words are lang's request.<part> (a greeting, the request, an article, the
# word app and what joins it, the request's ending).
_LEAD = re.compile(
    rf"^(?:(?:{lang.pattern('request.greeting')})[,!\s]+)*(?:{lang.pattern('request.lead')})", re.IGNORECASE
)
_ARTICLE = re.compile(rf"^(?:(?:{lang.pattern('request.article')})\s+)+", re.IGNORECASE)
_APP_WORD = re.compile(
    rf"^(?:{lang.pattern('request.app_word')})s?\s+(?:(?:{lang.pattern('request.app_join')})\s+)?", re.IGNORECASE
)
_TRAIL = re.compile(lang.pattern("request.trail"), re.IGNORECASE)
MAX_TITLE = 40
# Words a title cut short must not end on ("How many glasses of lemonade did the").
_DANGLING = set(lang.pattern("title.dangling").replace("|", " ").split())  # lang's title.dangling


def tidy_idea(text: str) -> str:
    """The idea itself from a request: "Can you make me an app to track my daily water
    intake?" → "track my daily water intake" (and the like in ja/ko/zh/tl)."""
    idea = text.strip().rstrip("?!.。？！ ")
    for _ in range(3):  # requests nest: "please, can you make me an app to …"
        before = idea
        idea = _LEAD.sub("", idea).strip()
        idea = _ARTICLE.sub("", idea).strip()
        idea = _APP_WORD.sub("", idea).strip()
        idea = _TRAIL.sub("", idea).strip().rstrip("?!.。？！ ")
        if idea == before:
            break
    return idea or text.strip()


# The chore of keeping a record, around the thing kept: a title names the thing ("Blood
# pressure every morning", "今月の外食費"), not "log my …" or "…をまとめたい".
# lang's title.chore_lead, title.interjection and title.chore_trail.
_CHORE_LEAD = re.compile(lang.pattern("title.chore_lead"), re.IGNORECASE)
_INTERJECTION = re.compile(rf"^(?:(?:{lang.pattern('title.interjection')})\b[,!.\s]*)+", re.IGNORECASE)
_CHORE_TRAIL = re.compile(lang.pattern("title.chore_trail"), re.IGNORECASE)
# A long title ends before the last of these joins ("… with my two" → "…").
_CAPITALISED = re.compile(rf"(?<![\w'-])(?:{lang.pattern('title.capitalised')})(?![\w'-])")
_JOINS = set(lang.pattern("title.join").replace("|", " ").split())  # lang's title.join
# Where a long CJK title may be cut: a mark or a space, or a particle (lang's title.break).
_CJK_BREAKS = "、， " + "".join(lang.listed("title.break"))
MAX_CJK_TITLE = 20


# ── what a title leaves out: the chat around the thing ─────────────────────────────────
# A title names what the app keeps: not the wish ("I keep forgetting to"), the chatter
# ("nothing fancy", "lol"), the people (a list is the app's, never cut into a title),
# asides in brackets, or the word app in any language.
# lang's title.chatty_lead and title.chatty_trail.
_CHATTY_LEAD = re.compile(lang.pattern("title.chatty_lead"), re.IGNORECASE)
_CHATTY_TRAIL = re.compile(lang.pattern("title.chatty_trail"), re.IGNORECASE)
# "me, Priya, Tom and Lucas can split …": the doers before what they do.
# English's and, or (list.and), what doers can do (title.can), what opens a list of names
# (list.opens) and whose it is (determiner).
_EN_AND = rf"(?:{lang.words('list.and', 'en')}|&)"
_DOERS = re.compile(rf"^[\w' ]+(?:\s*,\s*[\w' ]+)*\s*,?\s+{_EN_AND}\s+[\w']+\s+(?:{lang.words('title.can', 'en')})\s+")
# "… with my roommates Jake, Mia and Sam": a list of names with what leads it in.
_NAMED = re.compile(
    rf"\s+(?:{lang.words('list.opens', 'en')}|{lang.words('list.and', 'en')})\s+"
    rf"(?:(?:{lang.words('determiner', 'en')})\s+)?(?:\w+\s+)?"
    rf"[A-Z][\w'-]*(?:\s*,\s*[A-Z][\w'-]*)+(?:\s*,?\s*{_EN_AND}\s+[A-Z][\w'-]*)?"
)
# Tagalog names its people after si / ni / kay: a long title ends before them ("Utang ko kay Ate Rose …").
_TL_NAMED = re.compile(rf"{lang.pattern('title.named_after')}[A-Z].*$")
_ASIDE = re.compile(r"\s*[（(][^（）()]*[）)]")
# Japanese: "…を記録する" / "…を覚えるため": the thing, without what is done with it.
# Only keeping and learning verbs: "ドルを円に換算したい" is about the conversion, not the dollar.
_JA_DOING = re.compile(rf"(?:{lang.words('title.doing', 'ja')})[\u3040-\u309f]{{0,6}}$")


def _decoration(ch: str) -> bool:
    """Emoji, emoticons' symbols and flourishes (～, ♪): never part of a name."""
    import unicodedata

    return unicodedata.category(ch) in ("So", "Sk", "Cf", "Cs") or ch in "～〜♪★☆♡♥"


def _plain(title: str) -> str:
    """The title without the chat around it (see _CHATTY_LEAD and the rest)."""
    title = _ASIDE.sub("", title)
    title = _NAMED.sub("", title) if len(title) > MAX_TITLE or "," in title else title
    title = _TL_NAMED.sub("", title) if len(title) > MAX_TITLE else title
    for _ in range(3):
        before = title
        title = _CHATTY_LEAD.sub("", title).strip()
        title = _DOERS.sub("", title).strip()
        title = _CHATTY_TRAIL.sub("", title).strip()
        if title == before:
            break
    return title


def idea_title(idea: str) -> str:
    """The app's name from the idea: a short noun phrase in the idea's own words and
    language (no emoji, no chat, no "app"), never cut inside a word or a list."""
    text = "".join("\n" if _decoration(ch) else ch for ch in idea.strip())
    sentences = [s for s in re.split(r"(?<=[.!?。！？])\s*|\n", text) if s.strip(" ,.!?")]
    first = sentences[0] if sentences else text
    title = _plain(tidy_idea(first))
    title = re.sub(r"^(?:to|that|which|for)\s+", "", title, flags=re.IGNORECASE)
    title = _INTERJECTION.sub("", title)
    title = _plain(title)
    clause = r"\s*(?:[;，、]|,(?!\d{3}))\s*"  # "2,000" is a number, not two clauses
    named = [c for c in re.split(r"\s*(?:[;:：，、]|,(?!\d{3}))\s*", title) if re.search(_named_apps(), c, re.I)]
    if named:  # "Meal plan for the week: breakfast, lunch…": the clause that says what the app is
        title = named[0]
    elif len(title) > MAX_TITLE and re.search(clause, title[:MAX_TITLE]):
        title = _first_clause(title, clause)
    shorter = _plain(_CHORE_TRAIL.sub("", _CHORE_LEAD.sub("", title)).strip())
    if len(shorter) >= 2:
        title = shorter
    doing = _JA_DOING.sub("", title)
    if doing != title and len(doing) >= 2:
        title = doing
    title = _without_people(_without_day(_without_amounts(_without_settings(title))))
    # Korean is written with spaces: it is cut at words like English; Japanese and Chinese at particles.
    title = _shorten_cjk(title) if has_cjk(title) and " " not in title else _shorten(title)
    title = _CAPITALISED.sub(lambda m: m.group(0).upper(), title.rstrip(":："))  # typed "i", the pronoun
    return title[:1].upper() + title[1:] if title else idea.strip()[:MAX_TITLE]


def _named_apps() -> str:
    """The families an idea names by what the app is."""
    return f"{named('deck')}|{named('timer')}|{named('meal_plan')}"


def _first_clause(title: str, clause: str) -> str:
    """A long wish's first clause, or the whole list it begins ("rent, electric and internet
    split three ways…" → "rent, electric and internet", never "rent")."""
    from macaron_cli.reading.slots import read

    first = re.split(clause, title)[0]
    listed = read(title).listed
    if listed and first.casefold() == listed[0].casefold():
        end = title.casefold().find(listed[-1].casefold(), len(first))
        return title[: end + len(listed[-1])] if end > 0 else first
    return _before_a_list_cut(title, first)


def _without_day(title: str) -> str:
    """ "Countdown to our wedding on June 12 2027" → "Countdown to our wedding": the day said
    is what a countdown shows (filled in), not its name."""
    from macaron_cli.reading.slots import read

    if not read(title).date:
        return title
    from datetime import datetime

    from macaron_cli.reading.when import time_spans

    said = time_spans(title, datetime(2000, 1, 1)).spans  # only the words said: no clock in a name
    spans = [s for s in said if re.search(r"\d", s.said)]
    if not spans:
        return title
    at = title.find(spans[0].said)
    before, after = title[:at], title[at + len(spans[0].said) :]
    after = re.sub(rf"^\s*(?:{lang.pattern('day.particle')})", "", after)  # the particle that went with the day
    bare = re.sub(r"\s{2,}", " ", (before + ("" if has_cjk(before[-1:]) else " ") + after).strip())
    bare = re.sub(rf"\s+(?:{lang.pattern('day.dangling')})\s*(?=[,，、:：]|$)", "", bare)  # "…wedding on", "… sa ,"
    bare = re.sub(r"\s*[,，、:：]\s*$", "", bare)
    bare = bare.strip(" ,，、")
    return bare if len(bare) >= 2 else title


def _without_people(title: str) -> str:
    """ "バイトのシフト表、田中さん・佐藤さん" → "バイトのシフト表": a clause of the people named is
    the app's list (shown by it), never part of its name, nor cut into it."""
    from macaron_cli.reading.slots import read

    people = read(title).people
    opened = _PEOPLE_OPEN.search(title[: _first_named(title, people)]) if len(people) >= 2 else None
    if opened and opened.start() >= 2:  # "Chore chart for me, Sam and Lee" → "Chore chart", not "… for me"
        return title[: opened.start()]
    for name in people:
        said = rf"(?:{lang.pattern('me.alone')})(?=[\s,，、\u30fb]|$)" if name == "me" else re.escape(name)
        at = re.search(r"\s*(?:[,，、:：]|\s[-–—])\s*(?=" + said + ")", title, re.IGNORECASE)
        named_before = at and any(p != "me" and p in title[: at.start()] for p in people)
        if at and at.start() >= 2 and not named_before:  # the list begins there, not inside it
            return title[: at.start()]
    return title


# What opens a list of people just before its first name: "for me, Sam and Lee", "with my
# roommates Jess and Omar" (an opener, a determiner, one word that says who they are).
_PEOPLE_OPEN = re.compile(
    rf"\s+(?:{lang.pattern('list.opens')})\s+(?:(?:{lang.pattern('determiner')})\s+)?(?:[\w'-]+\s+)?$", re.IGNORECASE
)


def _first_named(title: str, people: tuple[str, ...] | list[str]) -> int:
    """Where the first of `people` is said in the title (its end when none is found)."""
    said = [rf"(?:{lang.pattern('me.alone')})" if name == "me" else re.escape(name) for name in people]
    found = re.search(rf"(?<![\w'-])(?:{'|'.join(said)})(?![\w'-])", title, re.IGNORECASE)
    return found.start() if found else len(title)


# Minutes said are the app's settings (a timer's 25 and 5), shown by it, not its name.
_MINUTES_TAIL = re.compile(rf"[\s,，、:：]*\d+\s?(?:{lang.pattern('title.minutes')}).*$", re.I)
_SEPARATOR = re.compile(r"\s*[,，、]\s*")


def _without_settings(title: str) -> str:
    """ "Pomodoro timer 25 min work 5 min break" → "Pomodoro timer"; "番茄钟，学习25分钟…" →
    "番茄钟" (a word or two left after the last comma go with the settings)."""
    bare = _MINUTES_TAIL.sub("", title).strip()
    if bare == title:
        return title
    last = list(_SEPARATOR.finditer(bare))
    if last and len(tail := bare[last[-1].end() :]) <= (3 if has_cjk(tail) else 6):
        bare = bare[: last[-1].start()]
    return bare if len(bare) >= 2 else title


# A number that leads a Japanese or Chinese name as its modifier: 1日3回の, 每天2升的 (lang's
# title.each_day before it, title.of after it).
_OF = "".join(lang.listed("title.of"))
_AMOUNT_LEAD = re.compile(rf"^(?:{lang.pattern('title.each_day')})?\d[^\s{_OF}、，,]*[{_OF}](?=\S{{2}})")


def _without_amounts(title: str) -> str:
    """ "Water tracker, 2 liters a day" → "Water tracker"; "1日3回の血圧" → "血圧": the amounts
    said are settings the app shows and a change moves, never part of its name (a title
    saying 2 liters would be wrong once the goal is 3)."""
    for sep in _SEPARATOR.finditer(title):
        clause = _SEPARATOR.split(title[sep.end() :])[0]
        if sep.start() >= 2 and re.search(r"\d", clause) and not re.search(r"\d", title[: sep.start()]):
            title = title[: sep.start()]
            break
    bare = _AMOUNT_LEAD.sub("", title)
    return bare if len(bare) >= 2 else title


def _shorten(title: str) -> str:
    if len(title) <= MAX_TITLE:
        return title
    kept = title[:MAX_TITLE]
    clause = re.search(r"^(.{12,}?)\s*(?:[;:]|,(?!\d{3}))\s*[^,;:]*$", kept)
    if clause:  # never half a clause: "Plants I watered and when, I have a" ends at "when"
        return _shorten(_before_a_list_cut(title, clause.group(1)))
    words = title[: MAX_TITLE + 1].split()
    if title[MAX_TITLE] != " ":
        words.pop()  # the word the limit falls in
    joins = [n for n, w in enumerate(words) if w.casefold() in _JOINS and n >= 2]
    if joins and joins[-1] >= len(words) - 3:
        words = words[: joins[-1]]
    while len(words) > 2 and words[-1].casefold() in _DANGLING:
        words.pop()
    return " ".join(words).rstrip(",;:-–— ")


def _before_a_list_cut(title: str, head: str) -> str:
    """`head` (a clause `title` begins with), or, where it ends on the first thing of a list the
    title goes on with, what comes before the list: "Habit tracker for running, reading and
    meditation" is "Habit tracker", never "Habit tracker for running"."""
    from macaron_cli.reading.slots import read

    listed = read(title).listed
    if len(listed) < 2 or not head.casefold().endswith(listed[0].casefold()):
        return head
    words = head[: len(head) - len(listed[0])].split()
    while words and words[-1].casefold() in _DANGLING:
        words.pop()
    return " ".join(words) if len(words) >= 2 else head


def _shorten_cjk(title: str) -> str:
    """CJK has no spaces: a long title ends at a particle or mark, never inside a word."""
    if len(title) <= MAX_CJK_TITLE:
        return title
    cut = max(title.rfind(mark, 0, MAX_CJK_TITLE) for mark in _CJK_BREAKS)
    return title[:cut].rstrip() if cut >= 4 else title[:MAX_TITLE]


def generic_titles(template_manifest: Manifest, translated: dict[str, str]) -> set[str]:
    """The template's own names for itself (what an app fitted to an idea must not be called)."""
    names = {template_manifest.title} | set(translated.values())
    return {n.casefold() for n in names if n}


# ── the settings, from the spec ──────────────────────────────────────────────────────────
def fit_config(manifest: Manifest, spec: AppSpec, cfg: dict) -> dict:
    """The template's config/app.json fitted to the spec (a new dict), as its manifest's
    "fit" says: {config key: spec path}. A path is "shape" or "shape.field" ("measures",
    "conversions.family", "money.budget"); "shape.field@by" gives {by: field} per element
    ("conversions.units@family" → {"cooking": ["cup", "gram"]}). What the spec leaves
    empty leaves the template's default; records replace it; names lead it (a family
    the template does not render is left out)."""
    cfg = dict(cfg)
    data = spec.to_json()
    for key, path in manifest.fit.items():
        value = _at(data, path)
        shape, _, field = path.partition("@")[0].partition(".")
        if field == "family" and isinstance(value, list):  # a kind it cannot show is in `missing`, not a tab
            value = [v for v in value if f"{shape}.{v}" in manifest.renders]
        if value in (None, [], {}):
            continue
        current = cfg.get(key)
        if isinstance(value, list) and value and not isinstance(value[0], dict) and isinstance(current, list):
            value = value + [c for c in current if c not in value]  # the spec's first, then the rest
        cfg[key] = value
    return cfg


def _at(data: dict, path: str) -> Any:
    path, _, by = path.partition("@")
    shape, _, name = path.partition(".")
    value = data.get(shape)
    if not name:
        return value
    if isinstance(value, dict):
        return value.get(name)
    rows = [row for row in value or [] if isinstance(row, dict) and row.get(name) not in (None, [], "")]
    return {row[by]: row[name] for row in rows} if by else [row[name] for row in rows]


# ── coverage: what was said and is not shown ─────────────────────────────────────────────
# Apps named by what they are: the family whose words name it (lang's family.<name>), and
# what an app must render to be one (None: no template is one yet), so make never calls an
# app a good fit that is not what was asked.
_FAMILIES = {
    "a study deck (flashcards, spaced review)": ("deck", "deck"),
    "taking turns (whose turn is next)": ("turns", None),
    "a timer (work and break minutes)": ("timer", "timer"),
    "a weekly meal plan (days × meals)": ("meal_plan", "plan.meals"),
    "scaling a recipe to more servings": ("recipe_scale", None),
}
# Units a measure or a conversion shows when it uses them (what "in mmol/L" asks for).
_SHOWN_UNITS = frozenset(
    ("mmol/L", "mg/dL", "percent", "bpm", "kilogram", "pound", "kilometer", "mile", "centimeter", "inch")
)


# Another thing to keep, said beside one the app keeps ("pulse at oxygen", "plus plank").
_BESIDE = rf"\s*(?:{lang.pattern('beside')})\s*"  # lang's beside, another, another.article
_ANOTHER = rf"(?:{lang.pattern('another')})\s+(?:(?:{lang.pattern('another.article')})\s+)?"
_WORD = r"([A-Za-z][\w-]{2,}|[\uac00-\ud7a3]{2,}|[\u30a0-\u30ff]{2,}|[\u4e00-\u9fff]{2,})"
# Numbers that are part of how something is said, not a setting: a scale ("1-5", "5段階"),
# an ordinal ("60th"), hours after a meal ("2h after").
_NOT_A_SETTING = rf"\d+\s*[-–~]\s*\d+|{lang.pattern('setting.not')}"  # lang's setting.not
# A number shown in another unit than said (2 litres as 2000 ml, half an hour as 30 minutes).
_FACTORS = (1, 1000, 60, 1 / 60, 1 / 1000)


def _unkept_things(idea: str, spec: AppSpec) -> list[str]:
    """Things to log named beside one the app logs, that no measure of the app is."""
    from macaron_cli.reading.spec_rules import MEASURES

    if not spec.measures:
        return []
    kept = [MEASURES[m.key].words for m in spec.measures if m.key in MEASURES]
    known = "|".join(kind.words for kind in MEASURES.values() if kind.words)
    out = []
    for words in kept:
        for m in re.finditer(words, idea, re.IGNORECASE):
            after = re.match(_BESIDE + _WORD, idea[m.end() :], re.IGNORECASE)
            if after and not re.match(known, idea[m.end() + after.start(1) :], re.IGNORECASE):
                out.append(after.group(1))
    for m in re.finditer(_ANOTHER + _WORD, idea, re.IGNORECASE):
        if not any(re.match(words, idea[m.start(1) :], re.IGNORECASE) for words in kept):
            out.append(m.group(1))
    return list(dict.fromkeys(out))


def _unshown_listed(listed: tuple[str, ...], spec: AppSpec) -> list[str]:
    """Things a list in the idea names ("产地和打分", "distance and time") that a tracker or a
    collection shows nowhere: not a measure, an item's detail, a category or a person of it."""
    from macaron_cli.reading.slots import units_named

    if not (spec.measures or spec.items):
        return []  # a deck's sides, a rota's shifts: said in words, kept as ids (ko, morning)
    shown = json.dumps(spec.to_json(), ensure_ascii=False).casefold()
    times = {t for m in spec.measures for t in m.times}  # "朝と夜", "umaga at gabi": kept as the times logged at
    at_a_time = "|".join(f"(?:{lang.pattern(f'time.{t}')})" for t in times) or "(?!)"
    return [
        thing
        for thing in listed
        if thing.casefold() not in shown and not units_named(thing) and not re.search(at_a_time, thing, re.IGNORECASE)
    ]


def _unshown_numbers(idea: str, said: Slots, spec: AppSpec) -> list[str]:
    """Numbers the idea says that the app shows nowhere (a goal "like 3" no rule read)."""
    from macaron_cli.reading.slots import NUMBER, number

    def values(data: Any) -> set[float]:
        if isinstance(data, dict):
            return set().union(*(values(v) for v in data.values())) if data else set()
        if isinstance(data, list):
            return set().union(*(values(v) for v in data)) if data else set()
        if isinstance(data, bool):
            return set()
        if isinstance(data, int | float):
            return {float(data)}
        if isinstance(data, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", data):
            return {float(part) for part in data.split("-")}  # a day: its year, month and day
        return set()

    shown = values({k: v for k, v in spec.to_json().items() if k != "version"})
    if spec.money and (spec.money.debts or spec.money.split):
        return []  # who owes what: the person's records, entered in the app
    if spec.money:  # sums put by are the person's records too
        shown |= {a.value for a in said.money}
    text = re.sub(_NOT_A_SETTING, " ", idea, flags=re.IGNORECASE)
    out = []
    for m in re.finditer(NUMBER, text):
        value = number(m.group(0))
        if re.search(r"\d", m.group(0)) and value is not None and not any(value * f in shown for f in _FACTORS):
            out.append(m.group(0).strip())
    return out


def uncovered(idea: str | Reading, spec: AppSpec, manifest: Manifest) -> list[str]:
    """What the idea said that the app neither keeps nor shows, in words a person reads
    ("the people named: Jake, Mia"): every slot the idea fills is rendered or named here,
    beside what the spec needs that the template does not render (spec.missing)."""
    from macaron_cli.reading.idea import reading_of
    from macaron_cli.reading.spec_rules import Unit

    reading = reading_of(idea)
    idea, said = reading.idea, reading.said
    renders = set(manifest.renders)
    out = [
        what
        for what, (family, need) in _FAMILIES.items()
        if re.search(named(family), idea, re.IGNORECASE) and (need is None or need not in renders)
    ]
    tasks, money, items = spec.tasks, spec.money, spec.items
    kept = set((tasks.assignees if tasks else ()) + (money.people if money else ()))
    if said.people and not (set(said.people) <= kept and renders & {"tasks.assignees", "money.people"}):
        out.append("the people named: " + ", ".join(said.people))
    units = {m.unit for m in spec.measures}
    for unit in said.units:
        if unit in _SHOWN_UNITS and unit not in units and not spec.conversions:
            out.append(f"values in {unit}")
    wanted = [t for t in said.times if t in ("fasting", "after_meal", "morning", "afternoon", "evening")]
    if spec.measures and all(m.key == "sleep" for m in spec.measures):  # a night's sleep is not logged at a time of day
        wanted = []
    kept_times = {t for m in spec.measures for t in m.times}
    rota = bool(tasks and tasks.countdown is None)  # shifts by time of day: kept when the planner shows them
    shifts_kept = rota and tasks is not None and set(wanted) <= set(tasks.shifts) and "tasks.shifts" in renders
    if wanted and ((rota and not shifts_kept) or (spec.measures and not set(wanted) <= kept_times)):
        out.append("times of day: " + ", ".join(t.replace("_", " ") for t in wanted))
    if said.goal is not None and spec.measures and all(m.goal is None for m in spec.measures) and not money:
        out.append(f"the goal: {said.goal.value:g} {said.goal.unit}".rstrip())
    if said.target and not (money and money.target and "money.target" in renders):
        out.append(f"a savings target: {said.target.value:,.0f} {said.target.unit}".rstrip())
    if said.budget and not (money and money.budget == said.budget.value):
        out.append(f"a budget of {said.budget.value:,.0f} {said.budget.unit}".rstrip())
    if said.currency and money and money.currency != said.currency:
        out.append(f"amounts in {said.currency}")
    if said.check and not any(m.unit == Unit.times for m in spec.measures):  # a tick kept
        out.append("a taken-or-not check")
    if re.search(lang.pattern("items.scored"), idea, re.IGNORECASE) and not (items and items.rating):
        out.append("a rating (a score or stars: the app keeps none)")
    if said.every and not (items and items.every and "items.every" in renders):
        out.append("care every few days (when last done, when next due)")
    if said.date and not (tasks and tasks.countdown == said.date and "tasks.countdown" in renders):
        out.append(f"the day {said.date}" + (f" ({said.event})" if said.event else ""))
    kept_day = tasks.countdown if tasks and "tasks.countdown" in renders else None
    for name, day in said.dates:  # a countdown keeps one day: each other day said is named
        if day not in (kept_day, said.date):
            out.append(f"the day {day}" + (f" ({name})" if name else ""))
    if tasks and tasks.countdown is not None and not tasks.event and not said.event:
        out.append("what the day is (its name)")
    if not spec.needs() and not re.search(lang.pattern("calculator"), idea, re.IGNORECASE):
        out.append("what the idea asks to keep (none of it was read: the app opens as the template's own)")
    unkept = _unkept_things(idea, spec) + _unshown_listed(said.listed, spec)
    if unkept:
        out.append("also to keep: " + ", ".join(unkept))
    numbers = [n for n in _unshown_numbers(idea, said, spec) if not any(n in line for line in out)]
    if numbers:
        out.append("the numbers said: " + ", ".join(numbers))
    return list(dict.fromkeys(out))
