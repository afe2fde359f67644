"""A new app repo from a template (or one of the person's apps), personalised by the brief.

Writes: the template's files, `config/app.json` (the template's defaults fitted to the
spec, then title, language, accent, units, currency), `macaron.json` with the lineage,
`.claude/agents/*.md`, a CLAUDE.md that imports the git-ignored `.macaron/brief.md`, and
the brief itself. Nothing personal is tracked by git: memories live only in `.macaron/`.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from macaron_cli import app_labels, config
from macaron_cli.apps import PRIVATE_DIR
from macaron_cli.maker.brief import Brief
from macaron_cli.maker.choose import Template
from macaron_cli.manifest import Manifest, write_manifest
from macaron_cli.reading.advice import advice_note
from macaron_cli.reading.idea import Reading
from macaron_cli.spec import AppSpec
from macaron_cli.untrusted import git as untrusted_git

APP_CONFIG = "config/app.json"
TOKENS_CSS = "static/macaron-tokens.css"
_NEVER_COPY = {".git", PRIVATE_DIR, "__pycache__", ".pytest_cache", ".benchmarks", "node_modules", ".venv"}
_STOP = {
    "a",
    "an",
    "the",
    "my",
    "me",
    "i",
    "to",
    "for",
    "of",
    "and",
    "app",
    "want",
    "would",
    "like",
    "make",
    "build",
    "that",
    "which",
    "with",
    "in",
    "on",
    "how",
    "much",
    "many",
    "every",
    "each",
    "day",
    "daily",
    "ko",
    "ng",
    "ang",
    "mga",
    "sa",
    "na",
    "para",
    "gusto",
    "isang",
    "po",
    "ako",
    "kung",
    "ilang",
    "araw",
    # verbs of asking and keeping: the slug names the thing ("water-intake"), not the chore
    "track",
    "keep",
    "log",
    "record",
    "help",
    "can",
    "you",
    "please",
    "something",
    "did",
    "do",
    "is",
    "our",
}


# Runs of one script: a slug word each (CJK has no spaces to split words at).
_SCRIPT_RUNS = re.compile(
    r"[\u3040-\u309f]+|[\u30a0-\u30ff\u31f0-\u31ff]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|"
    r"[\uac00-\ud7af]+|[^\s\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+"
)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_PARTICLE = re.compile(r"^[\u3040-\u309f]{1,2}$")  # の, を, には: grammar, not a name


def slug_words(text: str) -> list[str]:
    """The words of a slug in ASCII, transliterated from any script ("반려견 산책" →
    banlyeogyeon, sanchaeg; "每天的咖啡" → meitian, kafei), Japanese by its own readings
    ("毎朝の体重" → maiasa, taijuu: japanese.py), so apps made from ideas in Japanese, Korean
    or Chinese are told apart by name, not by a number."""
    from anyascii import anyascii

    from macaron_cli.reading import japanese

    if japanese.is_japanese(text):
        read = japanese.readings(text)
        if read is None:  # no dictionary: the kana read, kanji left out rather than read as Chinese
            runs = [r for r in _SCRIPT_RUNS.findall(text) if not _HAN.match(r) and not _PARTICLE.match(r)]
            read = [japanese.romaji(r) if japanese.KANA.match(r) else anyascii(r) for r in runs]
        return [w for word in read for w in re.findall(r"[a-z0-9]+", anyascii(word).lower())]
    words = []
    for run in _SCRIPT_RUNS.findall(text):
        if _PARTICLE.match(run):
            continue
        # Chinese words are mostly two characters: a long run of Han is read two at a time.
        parts = [run[i : i + 2] for i in range(0, len(run), 2)] if _HAN.match(run) and len(run) > 4 else [run]
        for part in parts:
            words += re.findall(r"[a-z0-9]+", anyascii(part).lower())
    return words


def make_slug(idea: str, template_name: str, apps_root: Path, title: str | None = None) -> str:
    """A short, unique, ASCII directory name for the app, readable in every script: its
    title's words (the app's name, not the wish), the title the idea gives when none is."""
    from macaron_cli.reading.fit import idea_title

    words = [w for w in slug_words(title or idea_title(idea)) if w not in _STOP and len(w) > 1]
    base = "-".join(words[:4]) if words else re.sub(r"[^a-z0-9-]+", "-", template_name.lower()).strip("-")
    base = base[:40].strip("-") or "app"
    slug, n = base, 2
    from macaron_cli.apps import load_registry

    taken = set(load_registry())
    while (apps_root / slug).exists() or slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def first_of_its_name(slug: str, apps_root: Path) -> str | None:
    """The app whose name `slug` took a number after (`water-tracker` for `water-tracker-2`):
    the same idea made twice is said, never a silent second app."""
    from macaron_cli.apps import load_registry

    numbered = re.fullmatch(r"(.+)-\d+", slug)
    if numbered and ((apps_root / numbered[1]).exists() or numbered[1] in load_registry()):
        return numbered[1]
    return None


def _translated_title(source: Path, language: str) -> str | None:
    """The template's own name for itself in `language` (its static/i18n `app.title`)."""
    path = source / "static" / "i18n" / "app.json"
    try:
        return json.loads(path.read_text(encoding="utf-8")).get(language, {}).get("app.title") or None
    except (OSError, json.JSONDecodeError, AttributeError):
        return None


def app_title(template: Template, brief: Brief) -> str:
    """The app's name, from the idea in the idea's language (what the person sees in its
    header): a water tracker is called after water, not "Daily habits"."""
    from macaron_cli.reading.fit import idea_title

    title = brief.title or idea_title(brief.idea)
    if title:
        return title
    translated = _translated_title(template.path, brief.language)
    if translated:
        return translated
    return template.manifest.title or template.name


def app_spec_for(template: Template, brief: Brief, title: str, reading: Reading | None = None) -> AppSpec:
    """What the app tracks: the spec the person's own app declared (`--from`), else the
    one the model planned (model_spec.py), else the one the rules write from the idea (its
    Reading, when read already) for this person (units, currency)."""
    from macaron_cli.reading.spec_rules import write_spec
    from macaron_cli.spec import spec_in

    own = spec_in(template.manifest) if template.from_app else None
    return own or brief.spec or write_spec(reading or brief.idea, brief.app_settings, title)


def _copy_template(template: Path, dest: Path, skip: set[str]) -> None:
    """The template composed with the shared runtime, without caches or its data files."""
    from macaron_cli.resources import compose_template

    compose_template(
        template, dest, lambda rel: rel.name in _NEVER_COPY or str(rel) in skip or rel.name.endswith(".pyc")
    )


def _copy_tracked(app: Path, dest: Path) -> None:
    """From one of the person's apps: its tracked files only (never its data or brief)."""
    files = untrusted_git.run(app, "ls-files", "-z", capture_output=True, check=True).stdout
    for rel in filter(None, files.decode().split("\0")):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(app / rel, target)


def personal_config(
    template: Template,
    brief: Brief,
    existing: dict,
    spec: AppSpec,
    title: str | None = None,
    reading: Reading | None = None,
) -> dict:
    """config/app.json for this person and idea (its Reading, when read already): the
    template's defaults fitted to the spec (what its first screen shows), then the person's
    language, colour, units and currency."""
    from macaron_cli.reading.fit import fit_config

    cfg = dict(existing)
    if not template.from_app:  # the person's own app keeps the config they shaped
        cfg = fit_config(template.manifest, spec, cfg)  # a budget only when asked: the template's is 0
    cfg.update(
        {
            "title": title or app_title(template, brief),
            "language": brief.language,
            "accent": brief.accent,
            "units": units_for(brief, reading),
            # Money the idea names in a currency ("in yen", "50k pesos") is kept in it.
            "currency": spec.money.currency if spec.money else brief.app_settings["currency"],
        }
    )
    if brief.advice:
        cfg["notice"] = advice_note(brief.language)
    return cfg


_IMPERIAL_UNITS = {"pound", "mile", "inch"}
_METRIC_UNITS = {"kilogram", "kilometer", "centimeter"}


def units_for(brief: Brief, reading: Reading | None = None) -> str:
    """The measurement system the app shows: what the idea says ("kg, not pounds" is metric
    whatever the person's memories say), else the person's."""
    from macaron_cli.reading.idea import reading_of

    said = reading_of(reading or brief.idea).said
    refused, named = set(said.refused), set(said.units)
    if refused & _METRIC_UNITS or (named & _IMPERIAL_UNITS and not named & _METRIC_UNITS):
        return "imperial"
    if refused & _IMPERIAL_UNITS or (named & _METRIC_UNITS and not named & _IMPERIAL_UNITS):
        return "metric"
    return str(brief.app_settings["units"])


def write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _ensure_gitignore(app: Path, data_files: list[str]) -> None:
    path = app / ".gitignore"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    for entry in [f"{PRIVATE_DIR}/", "__pycache__/", ".pytest_cache/", *data_files]:
        if entry not in lines:
            lines.append(entry)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _copy_agents(app: Path) -> None:
    from macaron_cli.resources import agents_dir

    try:
        source = agents_dir()
    except FileNotFoundError:
        return
    target = app / ".claude" / "agents"
    target.mkdir(parents=True, exist_ok=True)
    for md in sorted(source.glob("*.md")):
        shutil.copy2(md, target / md.name)


def _show_advice_note(app: Path, note: str) -> None:
    """A visible note on every page, whatever the template's own components do."""
    # In the page's own column, as a card (macaron-tokens.css), not a bare line above it.
    banner = f'<div class="macaron-notice-row"><p class="macaron-notice mc-card" role="note">{note}</p></div>'
    for page in app.glob("**/index.html"):
        if any(part in _NEVER_COPY or part == "tests" for part in page.relative_to(app).parts):
            continue
        html = page.read_text(encoding="utf-8")
        if "macaron-notice" not in html:
            page.write_text(re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + banner, html, count=1), encoding="utf-8")


def claude_md(manifest: Manifest, title: str, idea: str) -> str:
    """The app's CLAUDE.md from the templates' shared CLAUDE.md.tmpl; it imports the brief."""
    from string import Template as Text

    from macaron_cli.resources import templates_dir

    source = templates_dir() / "CLAUDE.md.tmpl"
    text = (
        source.read_text(encoding="utf-8")
        if source.exists()
        else f"# $title\n\n$description\n\n@{PRIVATE_DIR}/brief.md\n"
    )
    return Text(text).safe_substitute(
        title=title, description=manifest.description, template=manifest.template, idea=idea
    )


def write_brief(app: Path, brief: Brief, destination=None) -> None:
    """The private brief the agents read; with `destination`, the text cleared for it."""
    from macaron_cli.files import write_atomic

    private = config.ensure_private_dir(app / PRIVATE_DIR)
    text = brief.text_for(destination) if destination is not None else brief.markdown()
    write_atomic(private / "brief.md", text)


def scaffold(
    template: Template,
    brief: Brief,
    slug: str,
    apps_root: Path,
    title: str | None = None,
    spec: AppSpec | None = None,
    reading: Reading | None = None,
    corrected: dict | None = None,
) -> Path:
    """Create the app directory (not yet a git repo) and return it: titled and specified as a
    make's plan says (plan.py computes both once, and reads the idea once: `reading`), else as
    the template and brief say; the settings the person `corrected` before it was written
    (understood.py) over the rest.

    It is built under a hidden name and renamed into place when complete: a scaffold that
    fails leaves no half-made app behind (nor a taken slug that sends the next make to -2)."""
    import uuid

    app = apps_root / slug
    apps_root.mkdir(parents=True, exist_ok=True)
    work = apps_root / f".{slug}.{uuid.uuid4().hex[:8]}.partial"
    try:
        _fill(template, brief, work, title or app_title(template, brief), spec, reading, corrected or {})
        work.rename(app)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return app


def _fill(
    template: Template,
    brief: Brief,
    app: Path,
    title: str,
    spec: AppSpec | None,
    reading: Reading | None,
    corrected: dict,
) -> None:
    data_files = list(template.manifest.data_files)
    if template.from_app and (template.path / ".git").exists():
        app.mkdir()
        _copy_tracked(template.path, app)
        app_labels.carry(template.path, app)  # labels travel with the code
    else:
        _copy_template(template.path, app, set(data_files))
    spec = spec or app_spec_for(template, brief, title)
    manifest = template.manifest.updated(
        title=title,
        template=template.manifest.template or template.name if template.from_app else template.name,
        from_app=template.from_app,
        idea=brief.idea,
        spec=spec.to_json(),
    )
    write_manifest(app, manifest)
    cfg_path = app / APP_CONFIG
    existing = json.loads(cfg_path.read_text(encoding="utf-8")) if cfg_path.exists() else {}
    write_json(cfg_path, {**personal_config(template, brief, existing, spec, title, reading), **corrected})
    (app / "CLAUDE.md").write_text(claude_md(manifest, title, brief.idea), encoding="utf-8")
    _ensure_gitignore(app, data_files)
    _copy_agents(app)
    if brief.advice:
        _show_advice_note(app, advice_note(brief.language))
    write_brief(app, brief)
