"""People added to or taken off an app by a change (en, ja, ko, zh, tl): the names a request
says ("add Ben to the chores", "수진을 추가해 줘", "把小李加到家务里", "Tanggalin si Ben"), given to
the people the app keeps: its chores' assignees, else whom its money is shared with."""

from __future__ import annotations

import re
from dataclasses import replace

from macaron_cli import lang
from macaron_cli.reading.change_ask import Asked
from macaron_cli.reading.slots import Slots
from macaron_cli.reading.spec_rules import MEASURES


def _found(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE)


_ADD = lang.pattern("change.add")
_RENAME = lang.pattern("change.rename")


# Capitalised words a request starts with that are not names (lang's change.not_names); a verb
# of adding or taking someone off beside a name (person.changed; after 把 in Chinese: person.changed_ba),
# with the particles and words around it (person.particle, person.ba, person.changed_until).
_PERSON_STARTERS = frozenset(lang.pattern("change.not_names").replace("|", " ").split())
_HONORIFIC = lang.pattern("honorific")
_KO_PERSON = (
    rf"([\uac00-\ud7a3]{{2,3}}?)(?:{lang.words('person.particle', 'ko')})\s*"
    rf"(?:{lang.words('person.changed', 'ko')})"
)
# A name in katakana before a Japanese verb of adding or taking off ("ミアを追加して"), or any
# name with an honorific ("健太さんを外して").
_JA_PERSON = (
    rf"([\u30a1-\u30fa\u30fc]{{2,6}}|[\u4e00-\u9fff\u30a1-\u30fa\u30fc]{{1,4}}(?:{_HONORIFIC}))"
    rf"(?:{lang.words('person.particle', 'ja')})\s*(?:{lang.words('person.changed', 'ja')})"
)
_ZH_PERSON = (
    rf"(?:{lang.words('person.ba', 'zh')})([\u4e00-\u9fff]{{2,3}}?)(?:{lang.words('person.changed_ba', 'zh')})|"
    rf"(?:{lang.words('person.changed', 'zh')})([\u4e00-\u9fff]{{2,3}}?)"
    rf"(?=$|[，。,]|{lang.words('person.changed_until', 'zh')})"
)


# ── people ───────────────────────────────────────────────────────────────────────────────
def people_named(text: str, slots: Slots) -> list[str]:
    """The people a change names: make's slots, and a capitalised name anywhere in it
    ("Sam moved out", "put Mia on the chores"), a name before a Korean or Chinese verb."""
    names = [p for p in slots.people if p != "me"]
    for m in re.finditer(r"(?<![\w'])([A-Z][a-z]+)(?![a-zA-Z])", text):  # "Tom을": a name before Hangul too
        word = m.group(1)
        if word not in _PERSON_STARTERS and not any(_found(k.words, word) for k in MEASURES.values()):
            names.append(word)
    for m in re.finditer(_KO_PERSON, text):
        names.append(m.group(1))
    for m in re.finditer(_JA_PERSON, text):
        name = re.sub(rf"(?:{_HONORIFIC})$", "", m.group(1))
        if not any(_found(k.words, name) for k in MEASURES.values()):
            names.append(name)
    for m in re.finditer(_ZH_PERSON, text):
        names.append(next(g for g in m.groups() if g))
    from macaron_cli.reading.slots import _NOT_NAMES

    return [n for n in dict.fromkeys(names) if n not in _NOT_NAMES]


def people_rule(ask: Asked, config: dict) -> None:
    tasks, money = ask.spec.tasks, ask.spec.money
    if _found(_RENAME, ask.text) or ask.touched or not (tasks or money):
        return
    if tasks and tasks.countdown is not None:
        return  # a countdown keeps days, not people: "Aiko's wedding" is whose day it is
    names = people_named(ask.text, ask.slots)
    if not names or not (ask.remove or _found(_ADD, ask.text)):
        return
    change_people(ask, names)


def change_people(ask: Asked, names: list[str]) -> None:
    """The people named added to the app's people (its chores' assignees, else whom its money
    is shared with), or taken off where the request takes off; said where there is nothing to do."""
    tasks, money = ask.spec.tasks, ask.spec.money
    current = tasks.assignees if tasks else money.people  # type: ignore[union-attr]
    if ask.remove:
        gone = [n for n in names if n in current]
        after = tuple(p for p in current if p not in gone)
        verb = "took off"
    else:
        gone = [n for n in names if n not in current]
        after = current + tuple(gone)
        verb = "added"
    if not gone and ask.remove:
        ask.cannot("not_people", names=", ".join(names))
    elif not gone:
        ask.already("people", names=ask.listed(names))
    if not gone:
        return
    if tasks:
        ask.spec = replace(ask.spec, tasks=replace(tasks, assignees=after))
    elif money:
        ask.spec = replace(ask.spec, money=replace(money, people=after))
    ask.done.append(f"{verb} {', '.join(gone)}")
    ask.touched.add("people")
