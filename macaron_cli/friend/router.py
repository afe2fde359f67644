"""Noticing when the person asks for a tool, and handing the idea to the coder.

The friend never offers tools unprompted; it only recognises a request ("can you make me
something to track my runs?"), confirms, and hands the brief to the same pipeline as
`macaron make`, in this process, with progress shown as it goes.
"""

from __future__ import annotations

import re
from typing import Callable

# A request for a tool: a verb of making addressed to the friend + something tool-like.
_ASK = re.compile(
    r"\b(can|could|would|will) you (make|build|create|set up|whip up)\b|\b(make|build|create) me\b|"
    r"\bi (want|need|'d like|would like) (a|an|some) (app|tool|tracker|planner|journal|calculator|dashboard)\b|"
    r"(作って|作れ|作ってくれ|만들어|만들 수|帮我做|做一个|gawan mo)",
    re.IGNORECASE,
)
_TOOL = re.compile(
    r"\b(app|tool|tracker|track|log|planner|plan|journal|calculator|counter|timer|dashboard|list|"
    r"something to|something that|thing to)\b|(アプリ|ツール|記録|앱|기록|도구|应用|工具|记录)",
    re.IGNORECASE,
)


def wants_a_tool(text: str) -> bool:
    return bool(_ASK.search(text) and _TOOL.search(text))


def idea_from(text: str) -> str:
    """The request, tidied into a brief's first line."""
    idea = re.sub(r"^(hey|hi|so|ok|okay|please)[,!\s]+", "", text.strip(), flags=re.IGNORECASE)
    return idea.rstrip("?!. ") or text.strip()


class MakeUnavailable(Exception):
    """The coder is not part of this installation."""


def hand_off(idea: str, progress: Callable[[str], None], template: str | None = None):
    """Build the app with `macaron make`'s own pipeline, reporting each phase to `progress`.

    Returns the pipeline's result (it names the app, where it is and how to run it).
    """
    try:
        from macaron_cli.maker.pipeline import MakeRequest, make_app
    except ImportError:
        raise MakeUnavailable("the app maker is not installed in this build of macaron") from None
    return make_app(MakeRequest(idea=idea, template=template, yes=True), progress=progress)


def describe_result(result) -> str:
    """One line for the chat: what was made, where, and how to open it."""
    app = getattr(result, "app", None) or "your app"
    path = getattr(result, "path", None)
    where = f" in {path}" if path else ""
    return f"Made {app}{where}. Open it with `macaron run {app}`."
