"""What a make or a change is, as its page shows it (page_judge.py reads the page against the
request): the one source of a make's `missing` and `fit`, and of whether a change changed
anything. A make's `missing` is what the request asks that the page does not show; a change
whose page shows nothing different after it is undone (back to the checkpoint before it, the
person's data kept: it is outside git) and ends `unchanged`; a page that could not be read
is said, never judged good. Every line is in the person's language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from macaron_cli import lang
from macaron_cli.maker import page_judge
from macaron_cli.maker.scaffold import APP_CONFIG
from macaron_cli.reading.personal import idea_language


@dataclass(frozen=True)
class Verdict:
    status: str | None = None  # what the ending becomes (unchanged, unchecked); None: as it was
    message: str = ""  # one line in the person's language


def judged(run, report) -> Verdict:
    """The page's verdict on the run that just verified (`run.state` is updated: a make's fit
    and missing, a change's page difference)."""
    state = run.state
    if state.change is None:
        return _make(run.app, state, report)
    if state.status != "done":  # a change that failed verification, or in which nothing was written
        return Verdict()
    return _change(run, report)


def _make(app: Path, state, report) -> Verdict:
    language = state.language
    page = getattr(report, "page", None)
    if not page:
        state.fit = "unchecked"
        return Verdict(message=lang.line("page.unread", language))
    state.missing = page_judge.missing(state.idea, page, _title(app, state.title), state.template)
    state.fit = "good" if not state.missing else "weak" if state.fit == "weak" else "partial"
    return Verdict()


def _change(run, report) -> Verdict:
    state, change = run.state, run.state.change
    assert change is not None  # judged() sends a change's run here
    language = idea_language(change.request, fallback=state.language)
    before, after = change.page, getattr(report, "page", None)
    if not before or not after:
        return Verdict("unchecked", lang.line("page.unread", language))
    shown = page_judge.difference(before, after)
    state.change = replace(change, page_difference=tuple(shown))
    if shown:
        return Verdict()
    _undo(run.repo, change.checkpoint)
    return Verdict("unchanged", lang.line("page.unchanged", language))


def _undo(repo, checkpoint: str) -> None:
    """Back to the checkpoint before the change's first (`change-N`, its fix rounds after it);
    the person's data files stay as they are (a rollback without --with-data)."""
    points = repo.checkpoints()
    mine = [c.id for c in points if c.phase == checkpoint or c.phase.startswith(f"{checkpoint}-")]
    earlier = [c.id for c in points if mine and c.id < min(mine)]
    if earlier:
        repo.rollback(to=max(earlier))


def _title(app: Path, recorded: str) -> str:
    """The app's name as its page shows it (its settings' title, else the make's)."""
    try:
        title = json.loads((app / APP_CONFIG).read_text(encoding="utf-8")).get("title")
    except (OSError, ValueError, AttributeError):
        title = None
    return str(title or recorded)
