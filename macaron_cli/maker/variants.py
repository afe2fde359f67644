"""`make --draft --variants N`: N designs drafted by the local model, each verified and
screenshotted in its own copy of the app; the person picks one (or `--pick K`); the
chosen design becomes the app's draft and a preference memory for later briefs.

Local engines batch concurrent requests (vLLM, SGLang), so the N drafts run at once and
cost little more time than one.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.config import Settings
from macaron_cli.errors import UserError
from macaron_cli.maker.local_model import DESIGNS, AnswerFile, LocalOutcome, apply_files, ask_local_model
from macaron_cli.models.client import Endpoint
from macaron_cli.models.failures import ModelFailure

if TYPE_CHECKING:
    from macaron_cli.sandbox.verify import VerifyReport

MAX_VARIANTS = len(DESIGNS)
VARIANT_TEMPERATURE = 0.7  # some spread between designs, still coherent code


@dataclass
class Variant:
    number: int  # 1-based, as the person sees it
    design: str
    path: Path  # the variant's own copy of the app
    outcome: LocalOutcome | None = None
    report: VerifyReport | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return bool(self.report and self.report.ok)

    @property
    def screenshot(self) -> str | None:
        return getattr(self.report, "screenshot", None)

    def line(self) -> str:
        """One line for the person choosing."""
        if self.error:
            return f"{self.number}. {self.design}: no draft ({self.error})"
        verdict = "verified" if self.ok else "problems: " + "; ".join((self.report.problems if self.report else [])[:2])
        shot = f"  screenshot {self.screenshot}" if self.screenshot else ""
        return f"{self.number}. {self.design}: {verdict}{shot}"


def check_request(variants: int, pick: int | None, uses_local_model: bool) -> None:
    """Validate before anything is written."""
    if variants < 1 or variants > MAX_VARIANTS:
        raise UserError(f"--variants must be between 1 and {MAX_VARIANTS} (got {variants}).")
    if variants > 1 and not uses_local_model:
        raise UserError("--variants needs a local draft model: add --draft (or --local-only).")
    if pick is not None and not 1 <= pick <= variants:
        raise UserError(f"--pick must be between 1 and {variants} (the number of --variants).")


def draft_variants(
    app: Path, brief, endpoint: Endpoint, settings: Settings, count: int, verify: Callable
) -> list[Variant]:
    """Draft `count` designs at once, each in a copy of the app under .macaron/variants/, then verify each."""
    root = app / ".macaron" / "variants"
    shutil.rmtree(root, ignore_errors=True)
    variants = []
    for n in range(1, count + 1):
        copy = root / str(n)
        shutil.copytree(app, copy, ignore=shutil.ignore_patterns(".git", ".macaron"), symlinks=True)
        (copy / ".macaron").mkdir()
        variants.append(Variant(n, DESIGNS[(n - 1) % len(DESIGNS)], copy))

    def one(variant: Variant) -> None:
        try:
            variant.outcome = ask_local_model(
                variant.path,
                brief,
                endpoint,
                settings,
                design=variant.design,
                temperature=VARIANT_TEMPERATURE,
                tracked_in=app,
            )
        except ModelFailure as exc:
            variant.error = str(exc)

    with ThreadPoolExecutor(max_workers=count) as pool:
        list(pool.map(one, variants))
    for variant in variants:  # one at a time: each starts a server and a browser
        if variant.outcome and variant.outcome.written:
            variant.report = verify(variant.path)
        elif not variant.error:
            variant.error = variant.outcome.problem() if variant.outcome else "no answer"
    return variants


def choose(variants: list[Variant], pick: int | None, ask: Callable[[list[Variant]], int] | None) -> Variant:
    """--pick K, else the person's answer, else the first that verified (else the first drafted)."""
    if pick is not None:
        return variants[pick - 1]
    if ask is not None:
        return variants[ask(variants) - 1]
    return next(
        (v for v in variants if v.ok), next((v for v in variants if v.outcome and v.outcome.written), variants[0])
    )


def adopt(app: Path, variant: Variant) -> list[str]:
    """Copy the chosen design's files into the app itself."""
    if not variant.outcome:
        return []
    files = [AnswerFile(rel, (variant.path / rel).read_text(encoding="utf-8")) for rel in variant.outcome.written]
    written, _ = apply_files(app, files)
    return written


def remember_choice(store, idea: str, template: str, chosen: Variant, count: int):
    """The pick, as a preference memory later briefs can find."""
    return store.add(
        f'Prefers a {chosen.design} design for apps like "{idea}" (picked design {chosen.number} of {count}).',
        kind="preference",
        domain="design",
        privacy="personal",
        source="make",
        meta={"template": template, "design": chosen.design},
    )
