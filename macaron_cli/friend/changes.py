"""Noticing, in chat, a change to one of the person's apps ("put Mia on the chores chart",
"水分の目標を3リットルにして", "혈압 기록에 맥박도 넣어줘"), and reading it with the same entry
as `macaron change` (maker/change.py's plan_change), so the chat changes an app exactly as
the command does, by rules today and by a model once the command has one.

A line is taken for a change only when it names an app the person has (by its slug, its
title, the words of its idea, what it tracks, the people in it) and asks a change
(change_rules.asks_a_change), and does not ask for a new app. The plan has the last word:
a line it reads as no change at all ("I use the water app every morning") is ordinary chat.
A change asked of an app the person does not have ("add a sleep column to my mood diary")
is offered as a new app. bench/chat_changes.py measures both, and the false alarms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from macaron_cli import lang
from macaron_cli.friend.apps import app_words
from macaron_cli.friend.phrases import has, said
from macaron_cli.maker.progress import Progress
from macaron_cli.manifest import manifest_or_none

# A request for a new app, not a change to one ("make me a …", "…を作って"): lang's app.new.
_NEW = re.compile(lang.pattern("app.new"), re.IGNORECASE)
# An app of the person's, said as one ("my mood diary", "the chores chart", "瞑想アプリ"): app.said.
_AN_APP = re.compile(lang.pattern("app.said"), re.IGNORECASE)


@dataclass(frozen=True)
class Asked:
    """A change the person asked in chat: of app `slug`, or (None) of an app they do not have."""

    slug: str | None
    request: str


# Said of oneself, not asked of an app: "I use the water app every morning", "should I
# set a goal…?", "I put the books back" (lang's app.about_me, at the line's start).
_ABOUT_ME = re.compile(rf"^\s*(?:{lang.pattern('app.about_me')})", re.IGNORECASE)


def change_asked(text: str, apps: dict[str, dict]) -> Asked | None:
    """The change `text` asks of one of `apps` (the registry), or of an app the person does
    not have; None for anything else."""
    from macaron_cli.reading.change_rules import asks_a_change

    if _NEW.search(text) or _ABOUT_ME.search(text):
        return None
    slug = named_app(text, apps)
    if not (asks_a_change(text) or (slug is not None and _dates_its_day(text, apps[slug]))):
        return None
    if slug is not None:
        return Asked(slug, text)
    return Asked(None, text) if _AN_APP.search(text) else None


def _dates_its_day(text: str, info: dict) -> bool:
    """ "The wedding is on June 14 now": a new date said to an app that counts down to one."""
    from macaron_cli.reading.idea import read_idea

    manifest = manifest_or_none(Path(str(info.get("path", ""))))
    tasks = ((manifest.spec if manifest else None) or {}).get("tasks")
    return isinstance(tasks, dict) and tasks.get("countdown") is not None and read_idea(text).said.date is not None


def named_app(text: str, apps: dict[str, dict]) -> str | None:
    """The app the line names most: its slug counts most, then each of its names said."""
    lowered, said = text.casefold(), set(re.findall(r"[a-z0-9]+", text.casefold()))
    best, best_score = None, 0
    for slug, info in apps.items():
        if info.get("deleted"):
            continue
        words, patterns = app_names(slug, info)
        score = 2 * (slug.casefold() in lowered)
        score += len(said & {w for w in words if w.isascii()})
        score += sum(1 for w in words if not w.isascii() and w in text)
        score += sum(1 for p in patterns if re.search(p, text, re.IGNORECASE))
        if score > best_score:
            best, best_score = slug, score
    return best


def app_names(slug: str, info: dict) -> tuple[set[str], list[str]]:
    """The words that name an app (its slug, title, idea; the people in it; its items) and
    the patterns of what it tracks, in every language (make's own words for each measure).
    A tracker is named by what it tracks, not by its template's words: the habit tracker's
    keywords name every kind of habit, so they would name one app for another's words."""
    from macaron_cli.reading.spec_rules import MEASURES

    manifest = manifest_or_none(Path(str(info.get("path", ""))))
    spec: dict = dict(manifest.spec or {}) if manifest else {}
    measures = [m for m in spec.get("measures") or [] if isinstance(m, dict)]
    words = _own_words(" ".join([slug.replace("-", " "), str(info.get("title") or ""), str(info.get("idea") or "")]))
    words |= _own_words(manifest.title if manifest else "")
    for part in (spec.get("tasks"), spec.get("money")):
        if isinstance(part, dict):
            people = [*(part.get("assignees") or []), *(part.get("people") or [])]
            words |= {str(p).casefold() for p in people if p not in ("me", "you")}
            words |= _own_words(str(part.get("event") or ""))
    if isinstance(spec.get("items"), dict):
        words |= _own_words(str(spec["items"].get("name") or ""))
    if measures:
        patterns = [MEASURES[m["key"]].words for m in measures if m.get("key") in MEASURES]
        words |= {str(m.get("name") or "").casefold() for m in measures} - {""}
        return words, patterns
    kinds = app_words(slug, info)  # its template's words too: "家事" names the chores planner
    return words | {w for w in kinds if not w.isascii()}, []


# Words that name no app in particular (lang's app.plain).
_PLAIN = frozenset(lang.pattern("app.plain").replace("|", " ").split())


def _own_words(text: str) -> set[str]:
    found = {w.casefold() for w in re.findall(r"[a-zA-Z0-9]{3,}|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2,}", text)}
    return found - _PLAIN


def read_change(asked: Asked):
    """The change planned by `macaron change`'s own entry (nothing written yet), or None when
    the plan reads no change in the line at all (then it was ordinary chat)."""
    from macaron_cli.maker.change import plan_change
    from macaron_cli.maker.change_plan import by_model, change_of

    plan = plan_change(asked.slug, asked.request, offline=False)
    return None if change_of(plan).unread and not by_model(plan) else plan


def for_command(arg: str, apps: dict[str, dict]) -> Asked:
    """`/change APP REQUEST`: the app its first word names (slug, title, path), else the app
    the whole line names, else none (offered as a new app)."""
    from macaron_cli.apps import resolve_app
    from macaron_cli.errors import UserError

    first, _, rest = arg.partition(" ")
    if rest.strip():
        try:
            resolve_app(first)  # a slug, a title, the start of one, or a path
            return Asked(first, rest.strip())
        except UserError:
            pass
    return Asked(named_app(arg, apps), arg)


def not_done(plan, language: str = "en") -> str:
    """Why a change the person asked changes nothing, and how to get it, in one line."""
    from macaron_cli.maker.change_plan import ChangeResult, change_of
    from macaron_cli.maker.refusal import already, not_changed

    result = ChangeResult.planned(plan)
    if not result.missing:
        return already(result, language)
    return not_changed(result, change_of(plan).unread)


def described(result, language: str = "en") -> str:
    """One line for the chat: what changed, where it stands, how to undo it."""
    from macaron_cli.maker.change import this_change

    if not result.ok:
        line = said(language, "change.stopped", app=result.app, status=result.status, message=result.message)
        return line.rstrip(": ")
    mine = this_change(result)
    undo = f"macaron rollback {result.app} --steps {len(mine) or 1} --yes"
    tests = said(language, f"tests.{result.tests}") if has(f"tests.{result.tests}") else str(result.tests)
    if result.tests_reused:
        tests = said(language, "tests.reused", tests=tests)
    done = "; ".join(result.done) or result.request
    checkpoints = ", ".join(mine)
    return said(language, "change.done", title=result.title, done=done, tests=tests, checkpoints=checkpoints, undo=undo)


class ChangeProgress(Progress):
    """A change's progress lines in the chat's language: the phases and verify's own words
    said by the friend, the rest (what the rules read, the coder's lines) as they come."""

    def __init__(self, lines: Progress, language: str):
        self.lines, self.language = lines, language

    def phase(self, name: str, detail: str = "") -> None:
        label = said(self.language, f"phase.{name}") if has(f"phase.{name}") else name
        self.lines.phase(label, self._verify(detail) if name == "verify" else detail)

    def _verify(self, detail: str) -> str:
        reused = lang.line("verify.reused", "en")
        tail = said(self.language, "verify.reused") if detail.endswith(reused) else ""
        head = detail.removesuffix(reused)
        for key in ("verify.running", "verify.passed"):
            if head == lang.line(key, "en"):
                return said(self.language, key) + tail
        if problems := re.fullmatch(r"(\d+) problem\(s\)", head):
            return said(self.language, "verify.problems", n=problems.group(1)) + tail
        return detail

    def agent(self, who: str, text: str) -> None:
        self.lines.agent(who, text)

    def tool(self, who: str, name: str, summary: str) -> None:
        self.lines.tool(who, name, summary)

    def note(self, text: str) -> None:
        self.lines.note(text)
