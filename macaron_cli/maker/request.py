"""What `macaron make` (or chat's hand-off) asks for, and its checks before anything is
written: the numbers, a model a budget can price, a confirmation for advice apps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.maker.brief import Brief
from macaron_cli.manifest import Manifest
from macaron_cli.output import safe_text

# Far longer than any wish typed at a prompt: a pasted document is refused before it reaches
# a model's prompt, a commit message, the ledger or an error line.
MAX_REQUEST_CHARS = 2000


@dataclass
class MakeRequest:
    idea: str | None = None
    template: str | None = None
    from_app: str | None = None
    draft: bool = False
    variants: int = 1
    pick: int | None = None
    local_only: bool = False
    offline: bool = False
    budget: float | None = None
    max_rounds: int = 3
    resume: str | None = None
    yes: bool = False
    # Let the cloud coder run without its sandbox where bubblewrap or socat is missing.
    accept_unsandboxed: bool = False
    # Asked before building an app that gives medical or financial advice; None = no one
    # to ask (then only `yes` confirms).
    confirm: Callable[[str], bool] | None = None
    # With --variants and no --pick: shown the drafted designs, returns the number chosen.
    choose_variant: Callable[[list], int] | None = None
    # Asked once for a health or money app (its kind): may the friend's cloud model hear what
    # it records? None = no one to ask (--yes, a pipe): its records stay private.
    share_records: Callable[[str], bool] | None = None
    # Shown what was understood (maker/understood.py's summary), returns the person's answer:
    # yes, no, or a correction in words. None = no one to ask (--yes, a pipe, the chat).
    understood: Callable[[str, str], str] | None = None


def checked_request(text: str | None, empty: str) -> str:
    """What the person asked (make's idea, change's request) as it is shown, stored and sent
    from here on: stripped, capped, its control characters and bidi marks made visible (the
    printer's own rule, so a commit message or the ledger cannot carry them either).
    UserError `empty` when nothing was asked, one line when it is too long."""
    text = (text or "").strip()
    if not text:
        raise UserError(empty)
    if len(text) > MAX_REQUEST_CHARS:
        raise UserError(
            f"the request is {len(text):,} characters long; say it in at most {MAX_REQUEST_CHARS:,} "
            "(what to make or change, not a whole document)."
        )
    return safe_text(text)


def checked_budget(request: MakeRequest, settings: config.Settings) -> float | None:
    """The make's budget (--budget, else config's), after checking the request's numbers."""
    if request.max_rounds < 0:
        raise UserError("--max-rounds must be 0 or more.")
    budget = request.budget if request.budget is not None else settings.budget_usd
    if budget is not None and budget <= 0:
        raise UserError("--budget must be more than 0 USD.")
    return budget


def confirm_advice(brief: Brief, request: MakeRequest) -> None:
    if not brief.advice or request.yes:
        return
    if request.confirm and request.confirm(brief.advice):
        return
    raise UserError(
        f"this app would give {brief.advice} advice, which needs your confirmation: "
        "rerun with --yes if you want it (it will say it is not professional advice)."
    )


def records_level(template_manifest: Manifest, brief: Brief, request: MakeRequest) -> str | None:
    """The level the person chose for what a health or money app will record, asked once
    before anything is written; None (the default, private) when not asked or not such an app."""
    from macaron_cli.privacy import PERSONAL, sensitive_kind

    kind = sensitive_kind(template_manifest.records.domain, brief.advice)
    if kind is None or request.yes or request.share_records is None:
        return None
    return PERSONAL if request.share_records(kind) else None


def refuse_unpriced(model: str | None, budget: float | None, settings: config.Settings, url: str | None = None) -> None:
    """A budget cannot hold for a model we cannot price: say so before anything is made.
    (A model the SDK picks itself is checked on its first answer, by the meter.) A draft
    model on this machine (`url` local) is priced by GPU time instead."""
    from macaron_cli.models.prices import is_priced, own_prices, price_for, unpriced_message

    own_prices(settings)  # a malformed [prices] table is refused now, not halfway through a make
    priced = is_priced(url, model, settings) if url else price_for(model, settings) is not None
    if budget is not None and model and not priced:
        raise UserError(unpriced_message(model) + ".")
