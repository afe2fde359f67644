"""Which starting point an idea gets: the closest template, a named one, or one of the
person's own apps (`--from`), with the lineage recorded.

Closeness is keyword overlap with each template's manifest (keywords in every language
macaron speaks), which is instant, offline and explainable in `macaron why`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from macaron_cli.apps import APP_MANIFEST, resolve_app
from macaron_cli.errors import UserError
from macaron_cli.memory.text import has_cjk


@dataclass
class Template:
    name: str
    path: Path
    manifest: dict
    from_app: str | None = None  # set when the start is one of the person's apps
    matched: list[str] = field(default_factory=list)  # the keywords that chose it
    lineage_reason: str = ""  # set when a well-rated app of the person's was chosen as the base

    @property
    def keywords(self) -> list[str]:
        return [str(k) for k in self.manifest.get("keywords", [])]


def load_templates(root: Path | None = None) -> list[Template]:
    from macaron_cli.resources import templates_dir

    root = root or templates_dir()
    out = []
    for manifest_path in sorted(root.glob(f"*/{APP_MANIFEST}")):
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            continue  # a broken template must not break make for every other idea
        out.append(Template(manifest.get("name") or manifest_path.parent.name, manifest_path.parent, manifest))
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


def choose_template(idea: str, name: str | None = None, templates: list[Template] | None = None) -> Template:
    templates = templates if templates is not None else load_templates()
    if not templates:
        raise UserError("no templates found in this installation; reinstall macaron.")
    if name:
        for t in templates:
            if t.name == name or t.path.name == name:
                return t
        raise UserError(f"no template named {name!r}; choose one of: {', '.join(t.name for t in templates)}.")
    ranked = sorted(((score(t, idea), i, t) for i, t in enumerate(templates)), key=lambda x: (-x[0][0], x[1]))
    (best_score, matched), _, best = ranked[0]
    if best_score == 0:
        best = _fallback(templates)
    best.matched = matched
    return best


def _fallback(templates: list[Template]) -> Template:
    """No keyword matched: the most general tracker, since most personal apps are trackers."""
    for t in templates:
        if t.manifest.get("fallback"):
            return t
    for t in templates:
        if "tracker" in t.name:
            return t
    return templates[0]


def from_app(ref: str) -> Template:
    """One of the person's own apps, or a bundle someone shared, as the starting point (`--from`)."""
    from macaron_cli.ledger.share import is_bundle

    if is_bundle(ref):
        return _from_bundle(ref)
    path = resolve_app(ref)
    manifest = json.loads((path / APP_MANIFEST).read_text(encoding="utf-8"))
    name = manifest.get("template") or manifest.get("name") or path.name
    return Template(name=name, path=path, manifest=manifest, from_app=path.name)


def _from_bundle(path: str) -> Template:
    """A shared bundle: its code (no data, no brief) becomes this person's own app."""
    from macaron_cli.ledger.share import unpack_bundle

    code, lineage = unpack_bundle(path)
    manifest = json.loads((code / APP_MANIFEST).read_text(encoding="utf-8"))
    name = lineage.get("template") or manifest.get("template") or manifest.get("name") or "shared"
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
    chosen.matched = template.matched
    chosen.lineage_reason = f"your app {slug} from {template.name} served you well (outcome {reward:+.2f})"
    return chosen
