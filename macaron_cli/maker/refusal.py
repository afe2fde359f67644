"""Why the rules did not do what was asked, said in one sentence in the request's language.

Every refusal of a change read by rules (`macaron change`, the chat's change, a correction to
what a make understood) is said here: a request no rule reads ("“…” is not a change the rules
know"), or what the rules read and cannot do (change_rules' `missing`, already in the
request's language), and, for a change, the command with which a model can; or, where the app
already does what was asked, that (change_rules' `already`, in the request's language too).
The words are lang's lines (refuse.*, cannot.*, change.already, already.*), one per language.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from macaron_cli import lang

if TYPE_CHECKING:
    from macaron_cli.reading.change import Change


class ChangeResult(Protocol):
    """What a refusal names of a change's result (change_plan.ChangeResult)."""

    app: str
    title: str
    request: str
    missing: list
    message: str


def language_of(request: str) -> str:
    """The language a request is written in: its refusal is said in it."""
    from macaron_cli.reading.personal import idea_language

    return idea_language(request)


def why(missing: Sequence[str], request: str, unread: bool, language: str) -> str:
    """The reason, a clause: not a change the rules know, or what they cannot do."""
    if unread:
        return _said("refuse.unread", language, request=request)
    return _said("refuse.cannot", language, what="; ".join(missing))


def cannot(change: Change, request: str) -> str:
    """A correction of what a make understood that the rules could not read, one sentence."""
    return _said("refuse.correction", change.language, why=why(change.missing, request, change.unread, change.language))


def not_changed(result: ChangeResult, unread: bool) -> str:
    """A change that changed nothing by rules: why, and the command with which a model can."""
    return _by_model("refuse.change", result, unread)


def already(result: ChangeResult, language: str | None = None) -> str:
    """A change the app already is (the result's message: what it already does), one sentence
    in the request's language, or the one given (the chat's)."""
    language = language or language_of(result.request)
    return _said("change.already", language, title=result.title, message=result.message)


def partly(result: ChangeResult) -> str:
    """A change done but for what the rules cannot do: that, and how a model can."""
    return _by_model("refuse.partly", result, unread=False)


def missing_hint(result: ChangeResult) -> str:
    """How to get what the rules cannot do: the same change, by a model."""
    return f"macaron change {result.app} {shlex.quote(result.request)} --yes"


def _by_model(key: str, result: ChangeResult, unread: bool) -> str:
    language = language_of(result.request)
    reason = why(result.missing, result.request, unread, language)
    return _said(key, language, title=result.title, why=reason, hint=missing_hint(result))


def _said(key: str, language: str, **values: str) -> str:
    return lang.line(key, language).format(**values)
