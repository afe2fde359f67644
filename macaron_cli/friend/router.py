"""Noticing when the person asks for a tool, and handing the idea to the coder.

The friend never offers tools unprompted; it only recognises a request ("can you make me
something to track my runs?"), confirms, and hands the brief to the same pipeline as
`macaron make`, in this process, with progress shown as it goes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from macaron_cli import lang
from macaron_cli.friend.phrases import said

if TYPE_CHECKING:
    from macaron_cli.config import Settings


# A request for a tool: a verb of making addressed to the friend (lang's tool.asked) and
# something tool-like (tool.named), in any language.
def wants_a_tool(text: str) -> bool:
    return bool(
        re.search(lang.pattern("tool.asked"), text, re.IGNORECASE)
        and re.search(lang.pattern("tool.named"), text, re.IGNORECASE)
    )


_NEW_APP = re.compile(lang.pattern("app.new"), re.IGNORECASE)
_AN_APP = re.compile(f"{lang.pattern('app.said')}|{lang.pattern('tool.named')}", re.IGNORECASE)
_ASKED = re.compile(lang.pattern("said.request"), re.IGNORECASE | re.MULTILINE)


def asks_of_an_app(text: str) -> bool:
    """A request to make an app or to change one, whether or not the person has it: a tool
    asked for, a new app, a request put to the friend ("add …", "にして", "바꿔 줘", "改成",
    "palitan mo"), or a change the maker's rules read, said of something app-like."""
    from macaron_cli.reading.change_rules import asks_a_change

    if wants_a_tool(text) or _NEW_APP.search(text) or _ASKED.search(text):
        return True
    return bool(_AN_APP.search(text) and asks_a_change(text))


def idea_from(text: str) -> str:
    """The request, tidied into the idea itself: "Can you make me an app to track my daily
    water intake?" → "track my daily water intake" (the maker's own tidying, every language)."""
    from macaron_cli.reading.fit import tidy_idea

    return tidy_idea(text)


def hand_off(
    idea: str,
    say: Callable[[str], None],
    ask: Callable[[str], bool],
    settings: Settings,
    template: str | None = None,
):
    """Build the app with `macaron make`'s own pipeline, in this process, telling the chat how it goes.

    `say` prints a progress line; `ask` puts a yes/no question to the person (the maker asks
    before building an app that gives medical or financial advice). Returns the MakeResult.
    The brief goes through make's own privacy gate (the make's mode names its destinations): the chat's
    model does not widen what the coder's model may see.
    """
    from macaron_cli.maker.pipeline import make_app
    from macaron_cli.maker.request import MakeRequest

    def confirm_advice(advice: str) -> bool:
        return ask(f"This app would give {advice} advice (it will say it is not professional advice). Build it anyway?")

    request = MakeRequest(idea=idea, template=template, confirm=confirm_advice)
    return make_app(request, settings, progress=chat_progress(say))


def chat_progress(say: Callable[[str], None]):
    """The maker's phases and notes (a make's or a change's) as quiet lines under the conversation."""
    from macaron_cli.maker.progress import Progress

    class ChatProgress(Progress):
        def phase(self, name, detail=""):
            say(f"{name} {detail}".strip())

        def agent(self, who, text):
            if text.strip():
                say(f"{who}: {text.strip().splitlines()[0][:100]}")

        def note(self, text):
            say(text)

    return ChatProgress()


def describe_result(result, language: str) -> str:
    """What the chat says of a make, in `language`: what was made, where and how to open it,
    and what it leaves out of what was asked (as `macaron make` says it: never a silent
    good fit)."""
    if not result.ok:
        return said(language, "make.stopped", app=result.app, status=result.status, message=result.message).rstrip(": ")
    made = said(language, "make.made", app=result.app, path=result.path)
    if result.fit != "good" and result.missing:
        made += " " + said(language, "make.short", missing="; ".join(result.missing))
    return made
