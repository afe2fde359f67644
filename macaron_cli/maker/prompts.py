"""What the coder is asked at each phase. The brief itself reaches it through CLAUDE.md
(which imports the private .macaron/brief.md), so it is not repeated here."""

from __future__ import annotations

import json

from macaron_cli.maker.state import MakeState


def build(brief, state: MakeState) -> str:
    if state.change:
        return change(state)
    lines = [
        f"The person asked for: {brief.idea}",
        f"This repository holds the `{state.template}` template, already personalised "
        f"(config/app.json: language {brief.language}, accent {brief.accent}).",
        'First, the spec: `macaron.json` holds "spec", what the app tracks (measures with units, money, '
        "items, tasks, conversions, a timer, a study deck, a meal plan; its schema is server/app_spec.py), "
        "written from the idea by rules. "
        "Correct it to what the person asked for before any code (it must stay valid: "
        '`python -c "import json; from server.app_spec import parse_spec; '
        "parse_spec(json.load(open('macaron.json'))['spec'])\"`), then build the app it describes.",
        "Shape it into the app they asked for, fitted to what the brief says about them.",
        "Delegate UI work to the `frontend` subagent and API/data work to the `backend` subagent.",
        "When done, the app's tests must pass and its main page must open without console errors.",
        "Keep the life-log contract: server/digest.py summarises what the person recorded in the app "
        "(update it with the schema) and `python -m server.macaron_life --since 2026-01-01` prints its JSON.",
    ]
    if brief.advice:
        lines.append("Keep the visible 'not professional advice' note on the main screen.")
    return "\n".join(lines)


def fix(feedback: str) -> str:
    return (
        "macaron verified the app and it is not done yet. The verification report:\n\n"
        f"{feedback}\n\nFix these problems (delegate to `frontend` or `backend` as fits), "
        "keeping everything that already works."
    )


def refine(brief, state: MakeState, feedback: str) -> str:
    """Draft mode: Claude takes over what a local model drafted (whole files, unreviewed)."""
    return (
        f"The person asked for: {brief.idea}\n"
        f"A local model drafted this app from the `{state.template}` template and the brief. "
        "macaron verified the draft. The verification report:\n\n"
        f"{feedback}\n\nRefine it: fix what the report names, make it fit the brief, and keep the "
        "draft's good parts. Delegate UI work to `frontend` and API/data work to `backend`. "
        "When done, the tests must pass and the main page must open without console errors."
    )


def change(state: MakeState) -> str:
    """A change to a made app: the request, the spec before and after (already written), and
    a short map of its files (the brief, cleared for Claude, is in .macaron/brief.md as for a make)."""
    change = state.change
    assert change is not None  # build() asks this of a change's record
    before, after = change.before, change.after
    return "\n".join(
        [
            f"The person asked to change this app: {change.request}",
            f"This repository is their `{state.template}` app, already made; their records live in its "
            "git-ignored data files and must all be kept (a removed measure is hidden, its rows kept).",
            f"Its spec was: {json.dumps(before.to_json() if before else None, ensure_ascii=False)}",
            f"macaron.json's spec is now (already written, config/app.json fitted to it): "
            f"{json.dumps(after.to_json() if after else None, ensure_ascii=False)}",
            "Its files: " + ", ".join(change.files),
            "Change what the request asks and nothing else. Delegate UI work to the `frontend` subagent and "
            "API/data work to the `backend` subagent.",
            "When done, the app's tests must pass and its main page must open without console errors.",
        ]
    )
