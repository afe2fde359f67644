"""Where the files shipped with macaron live: templates and the coder's subagents.

In an installed wheel they sit inside the package (macaron_cli/_bundled/…, see
pyproject.toml); in a source checkout, at the repository root.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent


def _find(bundled: str, in_repo: str) -> Path:
    for candidate in (_PACKAGE / "_bundled" / bundled, _REPO / in_repo):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"macaron's {bundled} are missing from this installation; reinstall macaron.")


def templates_dir() -> Path:
    return _find("templates", "templates")


def agents_dir() -> Path:
    return _find("agents", ".claude/agents")
