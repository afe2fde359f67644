"""Which starting point an idea gets: the closest template, a named one, or one of the
person's own apps (`--from`), with the lineage recorded.

Closeness is by meaning when the memory's embedding model is installed: the idea against
each template's description and examples (any language the model reads), with keyword
overlap adding to it. Without the model, keyword overlap with each template's manifest
(keywords in every language macaron speaks) decides alone. Either way an idea that
nothing fits well still gets the closest template, marked `fit = "weak"` so make says so.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.apps import resolve_app
from macaron_cli.errors import UserError
from macaron_cli.manifest import Manifest, read_manifest, template_manifests
from macaron_cli.reading.text import has_cjk

if TYPE_CHECKING:
    from macaron_cli.reading.idea import Reading
    from macaron_cli.spec import AppSpec


@dataclass
class Template:
    name: str
    path: Path
    manifest: Manifest  # its macaron.json
    from_app: str | None = None  # set when the start is one of the person's apps
    matched: list[str] = field(default_factory=list)  # the keywords that chose it
    fit: str = "good"  # "partial": it renders only part of the spec; "weak": nothing fitted well
    missing: list[str] = field(default_factory=list)  # what the spec needs that it does not render
    similarity: float | None = None  # closeness by meaning (cosine), when the model decided
    lineage_reason: str = ""  # set when a well-rated app of the person's was chosen as the base
    instead_of: Template | None = None  # the template the idea fell to, when an app was chosen over it

    @property
    def keywords(self) -> tuple[str, ...]:
        return self.manifest.keywords

    @property
    def meaning_texts(self) -> list[str]:
        """What the template is for, in sentences the embedding model compares ideas with."""
        return [t for t in (self.manifest.description, *self.manifest.examples) if t.strip()]


def load_templates(root: Path | None = None) -> list[Template]:
    """Every installed template (a broken one left out: it must not break make for the rest)."""
    out = []
    for manifest in template_manifests(root):
        assert manifest.folder is not None  # each was read from its folder
        out.append(Template(manifest.name or manifest.folder.name, manifest.folder, manifest))
    return out


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _matches(keyword: str, idea: str) -> bool:
    kw = _norm(keyword).strip()
    if not kw:
        return False
    if has_cjk(kw):
        return kw in idea
    # Latin words match at a word start, so "run" finds "running" but not "brunch".
    return re.search(r"(?<![a-z0-9])" + re.escape(kw), idea) is not None


def score(template: Template, idea: str) -> tuple[float, list[str]]:
    text = _norm(idea)
    matched = [k for k in template.keywords if _matches(k, text)]
    # Longer keywords are more specific ("expense tracker" beats "tracker").
    return sum(1 + len(_norm(k)) / 8 for k in matched), matched


# Closeness by meaning below which no template fits the idea well (cosine, the idea
# against a template's best description or example); a keyword hit adds KEYWORD_BONUS.
WEAK_SIMILARITY = 0.40
KEYWORD_BONUS = 0.08


def template_named(name: str, templates: list[Template] | None = None) -> Template:
    """The template the person named (`--template NAME`), or one line saying which there are."""
    templates = templates if templates is not None else load_templates()
    if not templates:
        raise UserError("no templates found in this installation; reinstall macaron.")
    for t in templates:
        if t.name == name or t.path.name == name:
            return t
    raise UserError(f"no template named {name!r}; choose one of: {', '.join(t.name for t in templates)}.")


def choose_template(
    idea: str | Reading, name: str | None = None, templates: list[Template] | None = None, spec: AppSpec | None = None
) -> Template:
    """The template for an idea (or its Reading): among those that render the spec's main
    shape (the spec the rules write from the idea when none is given), need nothing it lacks
    (a manifest's "requires") and render most of the rest of it, the closest by meaning and
    keywords. Its `missing` names what the spec needs that it does not render (then fit is
    not good)."""
    from macaron_cli.reading.fit import uncovered
    from macaron_cli.reading.idea import reading_of
    from macaron_cli.reading.spec_rules import write_spec
    from macaron_cli.spec import main_shape, missing

    templates = templates if templates is not None else load_templates()
    if not templates:
        raise UserError("no templates found in this installation; reinstall macaron.")
    reading = reading_of(idea)
    spec = spec if spec is not None else write_spec(reading, {}, "")
    if name:
        chosen = template_named(name, templates)
    else:
        shape = main_shape(spec)
        needs = set(spec.needs())
        renderers = [
            t
            for t in templates
            if shape
            and any(r.split(".")[0] == shape for r in t.manifest.renders)
            and set(t.manifest.requires) <= needs  # a countdown only for a countdown
        ]
        if renderers:  # of those, the ones that render the most of the spec
            fewest = min(len(missing(spec, t.manifest)) for t in renderers)
            renderers = [t for t in renderers if len(missing(spec, t.manifest)) == fewest]
        chosen = _closest(reading.idea, renderers or templates)
        if renderers:
            chosen.fit = "good"  # the spec's shape decided, whatever the words' closeness
    chosen.missing = missing(spec, chosen.manifest) + uncovered(reading, spec, chosen.manifest)
    if chosen.missing and chosen.fit == "good":
        chosen.fit = "partial"
    return chosen


def _closest(idea: str, templates: list[Template]) -> Template:
    keyword_scores = [score(t, idea) for t in templates]
    similarities = _similarities(idea, templates)
    if similarities is not None:
        combined = [
            sim + KEYWORD_BONUS * min(kw, 3.0) for sim, (kw, _) in zip(similarities, keyword_scores, strict=True)
        ]
        i = max(range(len(templates)), key=lambda j: (combined[j], -j))
        best = templates[i]
        best.matched = keyword_scores[i][1]
        best.similarity = round(similarities[i], 3)
        best.fit = "good" if similarities[i] >= WEAK_SIMILARITY or best.matched else "weak"
        return best
    ranked = sorted(
        ((s, i, t) for i, (s, t) in enumerate(zip(keyword_scores, templates, strict=True))),
        key=lambda x: (-x[0][0], x[1]),
    )
    (best_score, matched), _, best = ranked[0]
    best.fit = "good"
    if best_score == 0:
        best = _fallback(templates)
        best.fit = "weak"
    best.matched = matched
    best.similarity = None
    return best


def why_chosen(template: Template) -> str:
    """One line for `macaron why` and the ledger: what chose this template."""
    parts = []
    if template.similarity is not None:
        parts.append(f"meaning: {template.similarity:.2f}")
    parts.append("keywords: " + (", ".join(template.matched) or "none matched"))
    if template.fit == "weak":
        parts.append("no template fits well; this is the closest")
    return "; ".join(parts)


def _similarities(idea: str, templates: list[Template]) -> list[float] | None:
    """Each template's closeness to the idea by meaning, or None without the model."""
    from macaron_cli.memory import embeddings
    from macaron_cli.memory.text import meaning_form

    if not embeddings.available():
        return None
    try:
        vectors = _template_vectors(templates)
        idea_vector = embeddings.embed([meaning_form(idea)])[0]  # a Tagalog idea, with its English glosses
    except (ImportError, OSError, RuntimeError, ValueError):  # a broken model install: keywords still work
        return None
    return [float(max((v @ idea_vector for v in vecs), default=0.0)) for vecs in vectors]


def _template_vectors(templates: list[Template]):
    """Each template's description and example vectors, computed once per model and text.

    Cached under MACARON_HOME, keyed by the model's name and each text's hash: a new model
    or an edited template computes afresh instead of comparing against stale vectors.
    """
    import hashlib

    import numpy as np

    from macaron_cli import config
    from macaron_cli.memory import embeddings

    name = f"template-vectors-{re.sub(r'[^A-Za-z0-9._-]+', '_', embeddings.name_in_use())}.json"
    try:
        path = config.cache_dir() / name
        cache = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}

    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]

    missing = sorted({t for tpl in templates for t in tpl.meaning_texts if key(t) not in cache})
    if missing:
        for text, vector in zip(missing, embeddings.embed(missing), strict=True):
            cache[key(text)] = [round(float(x), 6) for x in vector]
        from macaron_cli.files import write_atomic

        try:
            write_atomic(config.cache_dir() / name, json.dumps(cache))
        except OSError:
            pass  # a read-only home only costs the next make the same few embeddings
    return [[np.asarray(cache[key(t)], dtype=np.float32) for t in tpl.meaning_texts] for tpl in templates]


def _fallback(templates: list[Template]) -> Template:
    """No keyword matched: the most general tracker, since most personal apps are trackers."""
    for t in templates:
        if "tracker" in t.name:
            return t
    return templates[0]


def from_app(ref: str) -> Template:
    """One of the person's own apps, or a bundle someone shared, as the starting point (`--from`)."""
    from macaron_cli.ledger.share import is_bundle

    if is_bundle(ref):
        return _from_bundle(ref)
    from macaron_cli.apps import pinned

    path = resolve_app(ref)
    manifest = read_manifest(path)
    # The template macaron made it from, not the one its macaron.json now claims.
    name = pinned(path).template or manifest.template or manifest.name or path.name
    return Template(name=name, path=path, manifest=manifest, from_app=path.name)


def _from_bundle(path: str) -> Template:
    """A shared bundle: its code (no data, no brief) becomes this person's own app."""
    from macaron_cli.ledger.share import unpack_bundle

    code, lineage = unpack_bundle(path)
    manifest = read_manifest(code)
    name = lineage.get("template") or manifest.template or manifest.name or "shared"
    return Template(name=name, path=code, manifest=manifest, from_app=f"bundle:{lineage.get('app', code.name)}")


def prefer_lineage(template: Template) -> Template:
    """An app of the person's that served them well becomes the base for similar ideas.

    Only when the idea fell to a template on its own (no --template, no --from): the
    person's well-rated app from that template carries their earlier fixes and taste.
    """
    from macaron_cli.apps import load_registry
    from macaron_cli.ledger import Ledger
    from macaron_cli.ledger.reward import best_base

    best = best_base(Ledger.open(), template.name, load_registry())
    if best is None:
        return template
    slug, reward = best
    chosen = from_app(slug)
    chosen.matched, chosen.fit, chosen.similarity = template.matched, template.fit, template.similarity
    chosen.lineage_reason = f"your app {slug} from {template.name} served you well (outcome {reward:+.2f})"
    chosen.instead_of = template
    return chosen


def starting_code_cleared(template: Template, destinations, store, progress) -> Template:
    """One of the person's apps as the start only when its code may go to every model this
    make sends it to: no file a model wrote from memories they may not see (app_labels.py),
    none holding such a memory's text. `--from` refuses in one line; an app chosen on its
    own gives way to the template."""
    if not template.from_app or template.from_app.startswith("bundle:"):
        return template  # a template, or someone else's code: nothing of this person's in it
    from macaron_cli import app_labels, privacy

    for destination in (d for d in destinations if d.kind != "app"):  # offline: no model reads it now
        held = app_labels.held_back(template.path, destination, privacy.not_for(store, destination))
        if not held:
            continue
        rel, why = held[0]
        more = f" (and {len(held) - 1} more file{'s' if len(held) > 2 else ''})" if len(held) > 1 else ""
        if template.instead_of is not None:
            progress.note(f"  not starting from {template.from_app}: {rel}{more} may not go to {destination.label}")
            return template.instead_of
        model = "Claude" if destination.kind == "claude" else "the draft model"
        raise UserError(
            f"{rel}{more} in {template.from_app} {why}, and this make sends the code to {model} at "
            f"{destination.label}{', which counts as the cloud' if destination.cloud else ''}; make it with "
            "--local-only, or list that endpoint in trusted_endpoints if it is your own."
        )
    return template
