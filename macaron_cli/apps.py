"""The registry of apps macaron made, and how a command finds the app it means.

The registry is `$MACARON_HOME/apps.json`: {slug: {path, idea, template, created_at, …}}.
A path or slug always wins; with none, the app containing the current directory, else
the most recently made one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.manifest import MANIFEST, Manifest, manifest_or_none, read_manifest
from macaron_cli.untrusted.pinned import PRIVATE, Pinned, for_template, safest

# Every macaron app is a git repo with a tracked manifest (macaron.json: template, run and
# test commands, data files; macaron_cli/manifest.py) and a git-ignored `.macaron/` folder
# for private state (the brief with the person's memories, data snapshots, screenshots, the lock).
APP_MANIFEST = MANIFEST
PRIVATE_DIR = ".macaron"


def private_dir(app_dir: Path) -> Path:
    """The app's `.macaron/` folder, which ignores itself so git never records what is in it."""
    folder = app_dir / PRIVATE_DIR
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n", encoding="utf-8")
    return folder


def registry_path() -> Path:
    return config.home() / "apps.json"


def load_registry() -> dict[str, dict]:
    path = registry_path()
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise UserError(f"{path} is damaged; fix it or move it away (your apps themselves are untouched).") from None


def slugs_starting(prefix: str) -> list[str]:
    """The person's app slugs that begin with `prefix` (tab completion: never an error)."""
    try:
        return sorted(slug for slug in load_registry() if slug.startswith(prefix))
    except UserError:
        return []


def register(slug: str, **info) -> None:
    """Add or update an app's entry (atomically: a crash never leaves half a file)."""
    data = load_registry()
    data[slug] = {**data.get(slug, {}), **info}
    config.ensure_private_dir(config.home())
    from macaron_cli.files import write_atomic

    write_atomic(registry_path(), json.dumps(data, ensure_ascii=False, indent=2))


def is_app(path: Path) -> bool:
    return (path / APP_MANIFEST).is_file() and (path / ".git").exists()


def ref_for(app_dir: Path) -> str:
    """How to name this app in a command that works from any folder: its slug when the slug
    finds it, else its path (quoted for the shell)."""
    name = app_dir.name
    entry = load_registry().get(name)
    if (entry and Path(entry["path"]).resolve() == app_dir.resolve()) or (config.apps_dir() / name) == app_dir:
        return name
    import shlex

    return shlex.quote(str(app_dir))


def resolve_app(ref: str | None) -> Path:
    """The app directory `ref` names (a path, a slug, a title, or the start of a slug or
    title: `macaron run 반려견`), or the one we are in, or the latest."""
    if ref:
        candidate = Path(ref).expanduser()
        if _is_dir(candidate):
            if not is_app(candidate.resolve()):
                raise UserError(f"{candidate} is not a macaron app (no {APP_MANIFEST} in a git repo).")
            return candidate.resolve()
        apps = load_registry()
        entry = apps.get(ref)
        if entry:
            return Path(entry["path"])
        by_dir = config.apps_dir() / ref
        if _is_dir(by_dir) and is_app(by_dir):
            return by_dir
        return _by_name(ref, apps)
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if is_app(folder):
            return folder
    apps = load_registry()
    if not apps:
        raise UserError('no apps yet; make one with `macaron make "…"`.')
    latest = max(apps.values(), key=lambda e: e.get("created_at", ""))
    return Path(latest["path"])


def _is_dir(path: Path) -> bool:
    """Is there a folder at `path`? A name no file system takes (too long: a title of 91
    characters in Japanese is 273 bytes) names no folder, so the ref is read as a name."""
    try:
        return path.is_dir()
    except OSError:
        return False


def pinned(app_dir: Path) -> Pinned:
    """What decides the app's privacy and data (untrusted/pinned.py): its registry entry's,
    pinned at make time. An app made before pinning gets its template's now (kept in the
    registry); one whose template macaron lacks, the safest. A folder macaron did not make
    gets the bundled template its macaron.json names (one of macaron's own, never values of
    its own), its records private."""
    app_dir = Path(app_dir)
    found = _entry_of(app_dir)
    if found is None:
        own = manifest_or_none(app_dir)
        named = for_template(own.template or own.name) if own else None
        return replace(named, privacy=PRIVATE) if named else safest()
    slug, entry = found
    if isinstance(entry.get("pinned"), dict):
        try:
            return Pinned.from_json(entry["pinned"])
        except ValueError:
            pass  # a hand-edited registry: pinned again below, from the template
    values = for_template(str(entry.get("template") or ""))
    if values is None:
        values = safest()
        from macaron_cli.output import Out

        Out(stderr=True).line(
            "[dim]{}: macaron has no template {!r}; its data is data/ and its records are private.[/]",
            slug,
            str(entry.get("template") or ""),
        )
    register(slug, pinned=values.to_json())
    return values


def trusted_manifest(app_dir: Path) -> Manifest:
    """The app's manifest with macaron's pinned values in place of its own for data, records
    and commands (a UserError when the file is missing or broken, as read_manifest)."""
    return pinned(app_dir).applied_to(read_manifest(app_dir))


def _entry_of(app_dir: Path) -> tuple[str, dict] | None:
    """The registry's slug and entry for the app in `app_dir`, if macaron made it."""
    try:
        registry = load_registry()
    except UserError:
        return None
    wanted = app_dir.resolve()
    for slug, entry in registry.items():
        if entry.get("path") and not entry.get("deleted") and Path(entry["path"]).resolve() == wanted:
            return slug, entry
    return None


def app_title(slug: str, entry: dict) -> str:
    """An app's title: the registry's, else its macaron.json's (apps made before titles
    were registered)."""
    if entry.get("title"):
        return str(entry["title"])
    manifest = manifest_or_none(Path(entry["path"])) if entry.get("path") else None
    return manifest.title if manifest else ""


def _by_name(ref: str, apps: dict[str, dict]) -> Path:
    """The one app whose title is `ref`, or whose slug or title starts with it."""
    import unicodedata

    def norm(text: str) -> str:
        return unicodedata.normalize("NFKC", text).casefold().strip()

    wanted = norm(ref)
    names = {slug: (norm(slug), norm(app_title(slug, entry))) for slug, entry in apps.items() if "path" in entry}
    exact = [slug for slug, (_, title) in names.items() if title and title == wanted]
    found = exact or [slug for slug, pair in names.items() if wanted and any(n.startswith(wanted) for n in pair if n)]
    if len(found) == 1:
        return Path(apps[found[0]]["path"])
    if found:
        raise UserError(f"{ref!r} could be any of {', '.join(sorted(found))}; name one of them.")
    raise UserError(f"no app named {ref!r}; `macaron apps` lists yours.")
