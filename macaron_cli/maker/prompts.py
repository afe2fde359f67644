"""What the coder is asked at each phase. The brief itself reaches it through CLAUDE.md
(which imports the private .macaron/brief.md), so it is not repeated here."""

from __future__ import annotations


def build(brief, state: dict) -> str:
    lines = [
        f"The person asked for: {brief.idea}",
        f"This repository holds the `{state['template']}` template, already personalised "
        f"(config/app.json: language {brief.language}, accent {brief.accent}).",
        "Shape it into the app they asked for, fitted to what the brief says about them.",
        "Delegate UI work to the `frontend` subagent and API/data work to the `backend` subagent.",
        "When done, the app's tests must pass and its main page must open without console errors.",
    ]
    if brief.advice:
        lines.append("Keep the visible 'not professional advice' note on the main screen.")
    return "\n".join(lines)


def fix(feedback: str) -> str:
    return ("macaron verified the app and it is not done yet. The verification report:\n\n"
            f"{feedback}\n\nFix these problems (delegate to `frontend` or `backend` as fits), "
            "keeping everything that already works.")
