"""The person's apps in the chat: opening one when asked, one line each for /apps, and
at most one nudge at a greeting.

"open my water tracker" (in every language the friend speaks) names an app by the words
of its slug, title, idea and template; the friend serves it and prints the URL. A nudge
is a celebration or a goal missed two days running, from the app's own digest: each is
said once (remembered in $MACARON_HOME/nudges.json, as other things said once are), and `app_nudges = false` in
config.toml (or /nudges off) keeps the friend quiet about them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from macaron_cli import config, lang
from macaron_cli.manifest import manifest_or_none

# A request to open something, in every language (lang's app.open).
_OPEN = re.compile(lang.pattern("app.open"), re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]{3,}|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2,}", re.IGNORECASE)
# Words that say nothing about which app (lang's app.open_plain).
_PLAIN = frozenset(lang.pattern("app.open_plain").replace("|", " ").split())
NUDGES_FILE = "nudges.json"


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _PLAIN


def app_words(slug: str, info: dict) -> set[str]:
    """What names an app: its slug, title, idea, template and the template's keywords."""
    words = _words(" ".join([slug.replace("-", " "), str(info.get("title") or ""), str(info.get("idea") or "")]))
    template = str(info.get("template") or "")
    words |= _words(template.replace("-", " "))
    own = manifest_or_none(Path(info.get("path", "")))
    words |= _words(own.title if own else "")
    # The template's keywords name the app in every language ("水分", "물", "喝水", "tubig").
    if template:
        from macaron_cli.resources import templates_dir

        declared = manifest_or_none(templates_dir() / template)
        keywords = declared.keywords if declared else ()
        words |= {k.lower() for k in keywords if not k.isascii()}
        words |= _words(" ".join(k for k in keywords if k.isascii()))
    return words


def app_to_open(text: str, apps: dict[str, dict]) -> str | None:
    """The app `text` asks to open ("open my water tracker", "水分アプリを開いて"), or None."""
    if not _OPEN.search(text):
        return None
    said, lowered = _words(text), text.lower()
    best, best_score = None, 0
    for slug, info in apps.items():
        if info.get("deleted"):
            continue
        names = app_words(slug, info)
        score = len(said & names) + sum(1 for name in names if not name.isascii() and name in text)
        score += 2 if slug.lower() in lowered else 0
        if score > best_score:
            best, best_score = slug, score
    return best


def one_line(digest) -> str:
    return digest.summary or (digest.lines[0] if digest.lines else "")


def nudge(digests: list, on: bool = True) -> str | None:
    """One thing worth saying at a greeting (a celebration first), said once; None when off
    (`app_nudges` in the person's settings)."""
    if not on:
        return None
    notices = [(d, n) for d in digests for n in d.notices if isinstance(n, dict) and n.get("text")]
    notices.sort(key=lambda pair: pair[1].get("kind") != "celebrate")
    for digest, notice in notices:
        if first_time(f"{digest.app}:{notice.get('key') or notice['text']}"):
            return f"{notice['text']} ({digest.title})"
    return None


def first_time(key: str) -> bool:
    """True the first time `key` is asked about, ever (remembered with the nudges said)."""
    said = _said()
    if key in said:
        return False
    _remember_said(said | {key})
    return True


def set_nudges(on: bool) -> config.Settings:
    """Nudges on or off in config.toml; returns the settings as they now are."""
    return config.save_settings({"app_nudges": on})


def _nudges_path() -> Path:
    return config.home() / NUDGES_FILE


def _said() -> set[str]:
    try:
        found = json.loads(_nudges_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return set(found) if isinstance(found, list) else set()


def _remember_said(keys: set[str]) -> None:
    from macaron_cli.files import write_atomic

    config.ensure_private_dir(config.home())
    write_atomic(_nudges_path(), json.dumps(sorted(keys), ensure_ascii=False))
